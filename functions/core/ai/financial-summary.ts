// /v1/ai/financial-summary, rules answer: income, spending and net over the last period (30 days)
// against the period before, the top categories and merchants, notable changes, and prose built
// from templates over those numbers. Pure: no I/O, no clock. Rules: docs/ai.md, "Rules answers".
import type { FinancialSummaryResult } from '../../contracts/ai-schemas';
import type { TransactionRecord } from '../../contracts/schemas';
import type { AiInput } from './input';
import { categoryLabel, changePct, cmp, dayIndex, dayOf, flowOf, homeCurrency, isoDate, merchantLabel, money, percent, primaryCategory, round2, round4 } from './ledger';

export const SUMMARY_PERIOD_DAYS = 30;
const TOP = 5;
/** A change is notable from this share of the previous period's spending (or income) and 25 %. */
const NOTABLE_SHARE = 0.05;
const NOTABLE_PCT = 25;
/** ... and never under this amount. */
const NOTABLE_FLOOR = 25;
const MAX_CHANGES = 8;
const MAX_NEW_MERCHANTS = 3;

export interface SummaryParams {
  /** Days in the period (default 30); the previous period is as long and ends the day before. */
  periodDays?: number;
}

type Totals = FinancialSummaryResult['totals'];
type Change = FinancialSummaryResult['notable_changes'][number];

interface PeriodFlows {
  totals: Totals;
  byCategory: Map<string, { amount: number; count: number }>;
  byMerchant: Map<string, { amount: number; count: number }>;
  otherCurrencies: Map<string, { amount: number; count: number }>;
}

function flowsIn(rows: readonly TransactionRecord[], from: number, to: number, currency: string): PeriodFlows {
  let income = 0;
  let spending = 0;
  let count = 0;
  const byCategory = new Map<string, { amount: number; count: number }>();
  const byMerchant = new Map<string, { amount: number; count: number }>();
  const otherCurrencies = new Map<string, { amount: number; count: number }>();
  const bump = (map: Map<string, { amount: number; count: number }>, key: string, amount: number) => {
    const entry = map.get(key) ?? { amount: 0, count: 0 };
    entry.amount += amount;
    entry.count++;
    map.set(key, entry);
  };
  for (const t of rows) {
    const n = dayOf(t);
    if (n === null || n < from || n > to) continue;
    const flow = flowOf(t);
    if (t.iso_currency_code !== currency) {
      if (flow === 'spending') bump(otherCurrencies, t.iso_currency_code, t.amount);
      continue;
    }
    count++;
    if (flow === 'income') income += -t.amount;
    if (flow !== 'spending') continue;
    spending += t.amount;
    bump(byCategory, primaryCategory(t), t.amount);
    bump(byMerchant, merchantLabel(t), t.amount);
  }
  return {
    totals: { income: round2(income), spending: round2(spending), net: round2(income - spending), transaction_count: count },
    byCategory,
    byMerchant,
    otherCurrencies,
  };
}

const byAmountThenKey = <T extends { amount: number }>(a: [string, T], b: [string, T]) => b[1].amount - a[1].amount || cmp(a[0], b[0]);

export function financialSummaryRules(input: AiInput, params: SummaryParams = {}): FinancialSummaryResult {
  const days = params.periodDays ?? SUMMARY_PERIOD_DAYS;
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`periodDays must be a positive integer, got ${days}`);
  const end = dayIndex(input.today, 'today');
  const start = end - days + 1;
  const prevEnd = start - 1;
  const prevStart = prevEnd - days + 1;
  const currency = homeCurrency(input.accounts, input.transactions);
  const now = flowsIn(input.transactions, start, end, currency);
  const before = flowsIn(input.transactions, prevStart, prevEnd, currency);

  const top_categories = [...now.byCategory].sort(byAmountThenKey).slice(0, TOP).map(([category, v]) => {
    const previous = round2(before.byCategory.get(category)?.amount ?? 0);
    return {
      category,
      label: categoryLabel(category),
      amount: round2(v.amount),
      share: now.totals.spending > 0 ? round4(v.amount / now.totals.spending) : 0,
      previous_amount: previous,
      change_pct: changePct(round2(v.amount), previous),
      transaction_count: v.count,
    };
  });
  const top_merchants = [...now.byMerchant]
    .sort(byAmountThenKey)
    .slice(0, TOP)
    .map(([merchant, v]) => ({ merchant, amount: round2(v.amount), transaction_count: v.count }));

  // notable changes
  const changes: Change[] = [];
  const spendFloor = Math.max(NOTABLE_FLOOR, NOTABLE_SHARE * before.totals.spending);
  const categories = [...new Set([...now.byCategory.keys(), ...before.byCategory.keys()])].sort(cmp);
  for (const category of categories) {
    const amount = round2(now.byCategory.get(category)?.amount ?? 0);
    const previous = round2(before.byCategory.get(category)?.amount ?? 0);
    const change = round2(amount - previous);
    const pct = changePct(amount, previous);
    if (Math.abs(change) < spendFloor || (pct !== null && Math.abs(pct) < NOTABLE_PCT)) continue;
    const label = categoryLabel(category);
    const kind: Change['kind'] = previous === 0 ? 'new_category' : change > 0 ? 'category_up' : 'category_down';
    const note =
      kind === 'new_category'
        ? `${label}: ${money(amount, currency)} this period, none in the previous one.`
        : `${label} spending ${change > 0 ? 'rose' : 'fell'} from ${money(previous, currency)} to ${money(amount, currency)}.`;
    changes.push({ kind, subject: category, amount, previous_amount: previous, change, change_pct: pct, note });
  }
  const incomeChange = round2(now.totals.income - before.totals.income);
  const incomePct = changePct(now.totals.income, before.totals.income);
  if (
    before.totals.income > 0 &&
    Math.abs(incomeChange) >= Math.max(NOTABLE_FLOOR, NOTABLE_SHARE * before.totals.income) &&
    incomePct !== null &&
    Math.abs(incomePct) >= 10
  ) {
    changes.push({
      kind: incomeChange > 0 ? 'income_up' : 'income_down',
      subject: 'income',
      amount: now.totals.income,
      previous_amount: before.totals.income,
      change: incomeChange,
      change_pct: incomePct,
      note: `Income ${incomeChange > 0 ? 'rose' : 'fell'} from ${money(before.totals.income, currency)} to ${money(now.totals.income, currency)}.`,
    });
  }
  // merchants first seen this period, when the history reaches back before the previous period
  const seenBefore = new Set<string>();
  let earliest = Infinity;
  for (const t of input.transactions) {
    const n = dayOf(t);
    if (n === null) continue;
    if (n < earliest) earliest = n;
    if (n < start && t.amount > 0) seenBefore.add(merchantLabel(t));
  }
  if (earliest <= prevStart) {
    const fresh = [...now.byMerchant]
      .filter(([m, v]) => !seenBefore.has(m) && v.amount >= spendFloor)
      .sort(byAmountThenKey)
      .slice(0, MAX_NEW_MERCHANTS);
    for (const [merchant, v] of fresh) {
      const amount = round2(v.amount);
      changes.push({
        kind: 'new_merchant',
        subject: merchant,
        amount,
        previous_amount: 0,
        change: amount,
        change_pct: null,
        note: `New this period: ${money(amount, currency)} at ${merchant}.`,
      });
    }
  }
  changes.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || cmp(a.kind, b.kind) || cmp(a.subject, b.subject));
  const notable = changes.slice(0, MAX_CHANGES);

  const other_currency_spending = [...now.otherCurrencies]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([code, v]) => ({ iso_currency_code: code, amount: round2(v.amount), transaction_count: v.count }));

  // prose from templates over the numbers above
  const t = now.totals;
  const period = `From ${isoDate(start)} to ${isoDate(end)}`;
  const sentences: string[] = [];
  if (t.transaction_count === 0) {
    sentences.push(`${period} there were no transactions in ${currency}.`);
  } else if (t.income > 0) {
    sentences.push(
      t.net >= 0
        ? `${period} you earned ${money(t.income, currency)} and spent ${money(t.spending, currency)}, keeping ${money(t.net, currency)}.`
        : `${period} you earned ${money(t.income, currency)} and spent ${money(t.spending, currency)}, ${money(-t.net, currency)} more than you earned.`,
    );
  } else {
    sentences.push(`${period} you spent ${money(t.spending, currency)} and no income arrived.`);
  }
  const spendPct = changePct(t.spending, before.totals.spending);
  if (spendPct !== null && t.transaction_count > 0) {
    sentences.push(
      Math.abs(spendPct) < 1
        ? `Spending was about the same as in the previous ${days} days.`
        : `Spending was ${Math.abs(Math.round(spendPct))} % ${spendPct > 0 ? 'higher' : 'lower'} than in the previous ${days} days (${money(before.totals.spending, currency)}).`,
    );
  }
  const highlights: string[] = [];
  if (top_categories.length) {
    const c = top_categories[0];
    highlights.push(`Your biggest category was ${c.label}: ${money(c.amount, currency)} (${percent(c.share)} of spending).`);
  }
  if (top_merchants.length) {
    const m = top_merchants[0];
    highlights.push(`You spent the most at ${m.merchant}: ${money(m.amount, currency)} over ${m.transaction_count} ${m.transaction_count === 1 ? 'purchase' : 'purchases'}.`);
  }
  for (const c of notable.slice(0, 3)) highlights.push(c.note);
  for (const o of other_currency_spending) highlights.push(`Also ${money(o.amount, o.iso_currency_code)} spent in ${o.iso_currency_code}, not included in the totals.`);
  if (top_categories.length) sentences.push(highlights[0]);

  return {
    period: { start: isoDate(start), end: isoDate(end), days },
    previous_period: { start: isoDate(prevStart), end: isoDate(prevEnd), days },
    iso_currency_code: currency,
    totals: now.totals,
    previous_totals: before.totals,
    top_categories,
    top_merchants,
    notable_changes: notable,
    other_currency_spending,
    summary: sentences.join(' '),
    highlights,
  };
}
