// Shared arithmetic of the AI rules answers: what a row is (spending, income, transfer ...), the
// home currency, day windows, merchant labels, where a recurring stream lands next, and the money
// and percent formats the prose templates use. Pure: no I/O, no clock.
import type { AccountRecord, TransactionRecord } from '../../contracts/schemas';
import { civilFromDays, dayNumber, isoDate, monthDay, parseDate } from '../calendar';
import { descriptorKey, isPayrollDescriptor, type Cadence, type RecurringStream } from '../recurring';
import { CATEGORIES, primaryOf } from '../taxonomy';

const { abs, round, floor } = Math;

/** Money to cents (half away from zero, robust to binary fractions such as 1.005). */
export const round2 = (x: number) => {
  const r = round(abs(x) * 100 + 1e-7) / 100;
  return x < 0 ? -r : r === 0 ? 0 : r;
};
/** A ratio to four decimals. */
export const round4 = (x: number) => round(x * 10_000) / 10_000 || 0;
/** A percent change to two decimals, or null when the base is zero. */
export const changePct = (now: number, before: number): number | null => (before === 0 ? null : round2(((now - before) / abs(before)) * 100));

/** What a row does to the user's money. */
export type Flow = 'spending' | 'income' | 'refund' | 'transfer' | 'card_payment' | 'other_inflow' | 'none';

/**
 * Outflows are spending unless they move money between the user's own accounts or to other people
 * (transfer_out_*, except cash withdrawals, which are spent) or pay a credit card (the card's own
 * purchases are the spending). Inflows are income (income_* except refunds; an uncategorised
 * payroll-like deposit), refunds, transfers, card payments received, or other.
 */
export function flowOf(t: Pick<TransactionRecord, 'amount' | 'category_detailed' | 'category' | 'name'>): Flow {
  const d = t.category_detailed;
  if (t.amount > 0) {
    if (d === 'loan_payments_credit_card') return 'card_payment';
    if (d !== null && d.startsWith('transfer_out_') && d !== 'transfer_out_cash_withdrawal') return 'transfer';
    return 'spending';
  }
  if (t.amount < 0) {
    if (d === 'income_refunds') return 'refund';
    if (d !== null && d.startsWith('income_')) return 'income';
    if (d === 'loan_payments_credit_card') return 'card_payment';
    if (d !== null && d.startsWith('transfer_in_')) return 'transfer';
    if (d === null && isPayrollDescriptor(t.name)) return 'income';
    return 'other_inflow';
  }
  return 'none';
}

/** Bills, loans, fees and the like: spending that is not discretionary. */
export function isEssentialSpending(detailed: string | null): boolean {
  if (detailed === null) return false;
  return (
    detailed.startsWith('rent_and_utilities_') ||
    detailed.startsWith('loan_payments_') ||
    detailed.startsWith('bank_fees_') ||
    detailed === 'food_and_drink_groceries' ||
    detailed === 'transportation_fuel' ||
    detailed === 'transportation_public_transit' ||
    detailed === 'services_and_government_insurance' ||
    detailed === 'services_and_government_childcare' ||
    detailed === 'services_and_government_taxes' ||
    detailed === 'services_and_government_education' ||
    detailed === 'services_and_government_government_fees' ||
    detailed === 'health_and_personal_care_doctors' ||
    detailed === 'health_and_personal_care_dental' ||
    detailed === 'health_and_personal_care_pharmacy' ||
    detailed === 'health_and_personal_care_other_medical'
  );
}

/** Depository accounts: the ones whose balance is money to spend. */
export const depositoryAccounts = (accounts: readonly AccountRecord[] | null): AccountRecord[] =>
  (accounts ?? []).filter((a) => a.type === 'depository');

const byCountThenCode = (counts: Map<string, number>): string | undefined =>
  [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];

/**
 * The currency the answer is in: the most common currency of the depository accounts, else of the
 * transactions (ties: alphabetical), else USD. Rows in other currencies are never converted.
 */
export function homeCurrency(accounts: readonly AccountRecord[] | null, transactions: readonly TransactionRecord[]): string {
  const counts = new Map<string, number>();
  for (const a of depositoryAccounts(accounts)) counts.set(a.balances.iso_currency_code, (counts.get(a.balances.iso_currency_code) ?? 0) + 1);
  if (!counts.size) for (const t of transactions) counts.set(t.iso_currency_code, (counts.get(t.iso_currency_code) ?? 0) + 1);
  return byCountThenCode(counts) ?? 'USD';
}

/** A row's day number, or null when its date is not a calendar date. */
export const dayOf = (t: Pick<TransactionRecord, 'date'>): number | null => dayNumber(t.date);

export const dayIndex = (date: string, what = 'date') => parseDate(date, what);
export { isoDate };

function titleCase(words: string): string {
  return words
    .toLowerCase()
    .split(' ')
    .map((w) => (w ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** A display name for a row's counterparty: the merchant name, else the descriptor's stable words in title case. */
export function merchantLabel(t: Pick<TransactionRecord, 'merchant_name' | 'name'>): string {
  const m = t.merchant_name?.trim();
  if (m) return m;
  const key = descriptorKey(t.name);
  return key ? titleCase(key) : t.name.trim().slice(0, 60);
}

/** A display name for a recurring stream's counterparty. */
export const streamLabel = (s: Pick<RecurringStream, 'merchant_name' | 'description'>) =>
  merchantLabel({ merchant_name: s.merchant_name, name: s.description });

const PRIMARY_LABELS = new Map(CATEGORIES.map((c) => [c.category, c.label]));
/** The primary category of a row (`uncategorized` when the rules abstained). */
export const primaryCategory = (t: Pick<TransactionRecord, 'category' | 'category_detailed'>): string =>
  t.category ?? (t.category_detailed ? primaryOf(t.category_detailed) : undefined) ?? 'uncategorized';
export const categoryLabel = (primary: string) => PRIMARY_LABELS.get(primary) ?? 'Uncategorized';

/** Times a year a cadence occurs. */
export const PER_YEAR: Record<Cadence, number> = { weekly: 52, biweekly: 26, semi_monthly: 24, monthly: 12, quarterly: 4, annual: 1 };

/** The expected amount of a stream's next occurrence: the current price for subscriptions, the average otherwise. */
export const expectedAmount = (s: Pick<RecurringStream, 'kind' | 'last_amount' | 'average_amount'>) =>
  abs(s.kind === 'subscription' ? s.last_amount : s.average_amount);

const isMonthEnd = (n: number) => civilFromDays(n + 1).d === 1;
/** The day of the month of day `n`, or 31 (clamped later) for a month-end schedule. */
const dayOfMonth = (n: number, monthEnd: boolean) => (monthEnd ? 31 : civilFromDays(n).d);

/**
 * Day numbers in [from, to] on which an active stream is expected, from its predicted next date on
 * its cadence. An occurrence already overdue (predicted before `from`) is expected on `from`.
 * Calendar cadences keep the predicted day of the month (clamped to short months; a stream whose
 * last and next dates are month ends stays on month ends); semi-monthly uses the days of the month
 * of the last and the predicted occurrence.
 */
export function projectStream(s: Pick<RecurringStream, 'is_active' | 'predicted_next_date' | 'last_date' | 'cadence'>, from: number, to: number): number[] {
  if (!s.is_active || s.predicted_next_date === null || to < from) return [];
  const first = dayNumber(s.predicted_next_date);
  if (first === null) return [];
  const out: number[] = [];
  const push = (n: number) => {
    if (n > to) return false;
    if (n >= from) out.push(n);
    else if (out.length === 0 && n === first) out.push(from); // overdue: expected at once
    return true;
  };
  switch (s.cadence) {
    case 'weekly':
    case 'biweekly': {
      const step = s.cadence === 'weekly' ? 7 : 14;
      for (let n = first; push(n); n += step);
      break;
    }
    case 'semi_monthly': {
      const last = dayNumber(s.last_date);
      const a = dayOfMonth(first, isMonthEnd(first));
      const b = last === null ? a : dayOfMonth(last, isMonthEnd(last));
      const days = abs(a - b) >= 10 ? [a, b].sort((x, y) => x - y) : [a];
      if (days.length === 1) {
        for (let n = first; push(n); n += 15);
        break;
      }
      const candidates: number[] = [];
      for (let k = 0; ; k++) {
        const inMonth = days.map((d) => monthDay(first, k, d)).filter((n) => n >= first);
        candidates.push(...inMonth);
        if (monthDay(first, k, 1) > to) break;
      }
      for (const n of candidates.sort((x, y) => x - y)) if (!push(n)) break;
      break;
    }
    default: {
      const months = s.cadence === 'monthly' ? 1 : s.cadence === 'quarterly' ? 3 : 12;
      // a stream on the last day of the month (both its last and its next date) stays there
      const last = dayNumber(s.last_date);
      const dom = dayOfMonth(first, isMonthEnd(first) && last !== null && isMonthEnd(last));
      for (let k = 0; push(k === 0 ? first : monthDay(first, k * months, dom)); k++);
    }
  }
  return out;
}

/** Items grouped by a key, the groups in key order (each group keeps the input order). */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(item);
  }
  return new Map([...out].sort((a, b) => cmp(a[0], b[0])));
}

/** Median of a non-empty list (the mean of the middle two for an even length). */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** 1234.5 -> "1,234.50 USD": the money format of the prose templates. */
export function money(amount: number, currency: string): string {
  const cents = round(abs(amount) * 100 + 1e-7);
  const whole = floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = String(cents % 100).padStart(2, '0');
  return `${amount < 0 && cents > 0 ? '-' : ''}${whole}.${frac} ${currency}`;
}

/** 0.1234 -> "12 %". */
export const percent = (ratio: number) => `${round(ratio * 100)} %`;

/** "1 charge" / "3 charges". */
export const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;

/** Compare strings for a deterministic order. */
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
