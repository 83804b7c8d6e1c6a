// /v1/ai/cashflow, rules answer: a daily balance forecast. It starts from the current balance of the
// depository accounts (0 for a raw payload, which has no balances), adds the recurring inflows and
// outflows of those accounts on their schedules, and takes a baseline of everyday spending each day.
// Pure: no I/O, no clock. Rules: docs/ai.md, "Rules answers".
import { CASHFLOW_HORIZON_DEFAULT, CASHFLOW_HORIZON_MAX, type CashflowResult } from '../../contracts/ai-schemas';
import type { TransactionRecord } from '../../contracts/schemas';
import { recurringOf, type AiInput } from './input';
import {
  cmp,
  dayIndex,
  dayOf,
  depositoryAccounts,
  expectedAmount,
  homeCurrency,
  isoDate,
  median,
  money,
  plural,
  projectStream,
  round2,
  streamLabel,
} from './ledger';

/** Trailing weeks the everyday-spending baseline is measured on. */
export const BASELINE_WEEKS = 12;
/** The low-balance threshold, in days of baseline spending. */
export const LOW_BALANCE_DAYS = 7;

/** Outflows that move money between the user's own accounts: they leave the combined balance unchanged. */
const INTERNAL_TRANSFERS: ReadonlySet<string> = new Set(['transfer_out_account_transfer', 'transfer_out_savings']);

export interface CashflowParams {
  /** Days to forecast after today, 1-365 (default 30). */
  horizonDays?: number;
}

export interface Baseline {
  /** Everyday (non-recurring) spending per day. */
  daily: number;
  weeks: number;
}

/**
 * Everyday spending per day: the median of the trailing weekly totals (up to BASELINE_WEEKS full
 * weeks ending today, fewer when the history is shorter) of outflows that belong to no recurring
 * stream and are not transfers between own accounts, over 7. The median ignores a one-off large
 * purchase. Rows in other currencies, on other accounts, or dated after today are left out.
 */
export function everydaySpending(
  rows: readonly TransactionRecord[],
  todayN: number,
  currency: string,
  inScope: (t: TransactionRecord) => boolean,
  recurringIds: ReadonlySet<string>,
): Baseline {
  let firstDay = Infinity;
  const spend: Array<{ n: number; amount: number }> = [];
  for (const t of rows) {
    if (t.iso_currency_code !== currency || !inScope(t)) continue;
    const n = dayOf(t);
    if (n === null || n > todayN) continue;
    if (n < firstDay) firstDay = n;
    if (t.amount > 0 && !recurringIds.has(t.transaction_id) && !INTERNAL_TRANSFERS.has(t.category_detailed ?? '')) spend.push({ n, amount: t.amount });
  }
  if (firstDay === Infinity) return { daily: 0, weeks: 0 };
  const weeks = Math.max(1, Math.min(BASELINE_WEEKS, Math.floor((todayN - firstDay + 1) / 7)));
  const totals = new Array<number>(weeks).fill(0);
  for (const { n, amount } of spend) {
    const week = Math.floor((todayN - n) / 7);
    if (week < weeks) totals[week] += amount;
  }
  return { daily: round2(median(totals) / 7), weeks };
}

export function cashflowRules(input: AiInput, params: CashflowParams = {}): CashflowResult {
  const horizon = params.horizonDays ?? CASHFLOW_HORIZON_DEFAULT;
  if (!Number.isInteger(horizon) || horizon < 1 || horizon > CASHFLOW_HORIZON_MAX) {
    throw new RangeError(`horizonDays must be an integer from 1 to ${CASHFLOW_HORIZON_MAX}, got ${horizon}`);
  }
  const todayN = dayIndex(input.today, 'today');
  const from = todayN + 1;
  const to = todayN + horizon;
  const currency = homeCurrency(input.accounts, input.transactions);
  const deposits = depositoryAccounts(input.accounts).filter((a) => a.balances.iso_currency_code === currency);
  const known = deposits.length > 0;
  const accountIds = new Set(deposits.map((a) => a.account_id));
  // Without balances (a raw payload, or no depository account) every row is the user's money; with
  // them, only the depository accounts' rows are: card charges reach them through the card payment.
  const inScope = (accountId: string) => !known || accountIds.has(accountId);

  const allStreams = recurringOf(input);
  const recurringIds = new Set(allStreams.flatMap((s) => s.transaction_ids));
  const baseline = everydaySpending(input.transactions, todayN, currency, (t) => inScope(t.account_id), recurringIds);
  const baselineCents = Math.round(baseline.daily * 100);

  const drivers: CashflowResult['drivers'] = [];
  const byDay = new Map<number, Array<{ id: string; cents: number }>>();
  for (const s of allStreams) {
    if (s.iso_currency_code !== currency || !inScope(s.account_id)) continue;
    const days = projectStream(s, from, to);
    if (!days.length) continue;
    const amount = round2(expectedAmount(s));
    const cents = Math.round(amount * 100) * (s.direction === 'inflow' ? 1 : -1);
    for (const n of days) {
      let list = byDay.get(n);
      if (!list) byDay.set(n, (list = []));
      list.push({ id: s.stream_id, cents });
    }
    drivers.push({
      stream_id: s.stream_id,
      direction: s.direction,
      kind: s.kind,
      merchant: streamLabel(s),
      cadence: s.cadence,
      amount,
      dates: days.map(isoDate),
      total: round2(amount * days.length),
    });
  }

  const startCents = known ? Math.round(deposits.reduce((sum, a) => sum + a.balances.current, 0) * 100) : 0;
  let balance = startCents;
  let totalIn = 0;
  let totalOut = 0;
  let lowest = { n: from, cents: Infinity };
  const daily: CashflowResult['daily'] = [];
  for (let n = from; n <= to; n++) {
    const due = (byDay.get(n) ?? []).sort((a, b) => cmp(a.id, b.id));
    const inflow = due.reduce((sum, d) => sum + Math.max(0, d.cents), 0);
    const outflow = due.reduce((sum, d) => sum + Math.max(0, -d.cents), 0) + baselineCents;
    balance += inflow - outflow;
    totalIn += inflow;
    totalOut += outflow;
    if (balance < lowest.cents) lowest = { n, cents: balance };
    daily.push({ date: isoDate(n), inflow: inflow / 100, outflow: outflow / 100, balance: balance / 100, stream_ids: due.map((d) => d.id) });
  }

  let warning: CashflowResult['low_balance_warning'] = null;
  if (known) {
    const thresholdCents = LOW_BALANCE_DAYS * baselineCents;
    const below = daily.filter((d) => Math.round(d.balance * 100) < thresholdCents);
    if (below.length) {
      const negative = below.some((d) => d.balance < 0);
      const threshold = thresholdCents / 100;
      warning = {
        threshold,
        first_date: below[0].date,
        days_below: below.length,
        severity: negative ? 'high' : 'low',
        explanation: negative
          ? `The balance is projected to go below zero on ${daily.find((d) => d.balance < 0)!.date}, lowest ${money(lowest.cents / 100, currency)} on ${isoDate(lowest.n)}.`
          : `The balance is projected under ${money(threshold, currency)} (${LOW_BALANCE_DAYS} days of everyday spending) from ${below[0].date}, ${plural(below.length, 'day')} of the horizon.`,
      };
    }
  }

  const basis = known
    ? `Starts from the current balance of ${plural(deposits.length, 'depository account')} (${money(startCents / 100, currency)})`
    : 'No account balances were given, so the forecast starts from 0 and shows the net change';
  return {
    horizon_days: horizon,
    start_date: isoDate(from),
    end_date: isoDate(to),
    iso_currency_code: currency,
    balance_source: known ? 'depository_accounts' : 'none',
    starting_balance: startCents / 100,
    account_ids: [...accountIds].sort(cmp),
    baseline_daily_spend: baseline.daily,
    baseline_weeks: baseline.weeks,
    total_inflow: totalIn / 100,
    total_outflow: totalOut / 100,
    ending_balance: balance / 100,
    lowest_balance: { date: isoDate(lowest.n), balance: lowest.cents / 100 },
    low_balance_warning: warning,
    drivers: drivers.sort((a, b) => b.total - a.total || cmp(a.stream_id, b.stream_id)),
    daily,
    note: `${basis}; ${plural(drivers.length, 'recurring stream')} on their schedules plus ${money(baseline.daily, currency)} of everyday spending a day (the median week of the last ${plural(baseline.weeks, 'week')}).`,
  };
}
