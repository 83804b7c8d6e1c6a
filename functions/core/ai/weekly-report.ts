// /v1/ai/weekly-report, rules answer: the seven days ending `week_ending` (default today):
// spending by category against the 4 weeks before, the largest charges, recurring charges that
// hit, income received, bills due in the 7 days after, and a narrative from templates over those
// numbers. Pure: no I/O, no clock. Rules: docs/ai.md, "Rules answers".
import type { WeeklyReportResult } from '../../contracts/ai-schemas';
import type { RecurringStream } from '../recurring';
import { recurringOf, type AiInput } from './input';
import {
  categoryLabel,
  changePct,
  cmp,
  dayIndex,
  dayOf,
  expectedAmount,
  flowOf,
  homeCurrency,
  isoDate,
  merchantLabel,
  money,
  plural,
  primaryCategory,
  projectStream,
  round2,
  streamLabel,
} from './ledger';

/** Weeks before the report week that its averages use. */
export const PRIOR_WEEKS = 4;
const LARGEST = 5;

export interface WeeklyParams {
  /** YYYY-MM-DD, the last day of the week (default: today). */
  weekEnding?: string;
}

const BILL_KINDS: ReadonlySet<RecurringStream['kind']> = new Set(['subscription', 'bill']);

export function weeklyReportRules(input: AiInput, params: WeeklyParams = {}): WeeklyReportResult {
  const todayN = dayIndex(input.today, 'today');
  const end = params.weekEnding === undefined ? todayN : dayIndex(params.weekEnding, 'weekEnding');
  const start = end - 6;
  const priorStart = start - 7 * PRIOR_WEEKS;
  const currency = homeCurrency(input.accounts, input.transactions);
  const streams = recurringOf(input);
  const streamOfTxn = new Map<string, RecurringStream>();
  for (const s of streams) if (s.direction === 'outflow') for (const id of s.transaction_ids) streamOfTxn.set(id, s);

  let spending = 0;
  let income = 0;
  let count = 0;
  let priorSpending = 0;
  let firstDay = Infinity;
  const weekByCategory = new Map<string, number>();
  const priorByCategory = new Map<string, number>();
  const otherCurrencies = new Map<string, { amount: number; count: number }>();
  const largest: WeeklyReportResult['largest_transactions'] = [];
  const recurring: WeeklyReportResult['recurring_charges'] = [];
  const incomeRows: WeeklyReportResult['income_received'] = [];
  const nextWeekCharges: WeeklyReportResult['upcoming_bills'] = [];
  for (const t of input.transactions) {
    const n = dayOf(t);
    if (n === null) continue;
    if (t.iso_currency_code === currency && n < firstDay) firstDay = n;
    const flow = flowOf(t);
    // the week after: charges of bill streams that already happened (a past week_ending)
    if (n > end && n <= end + 7 && n <= todayN) {
      const s = streamOfTxn.get(t.transaction_id);
      if (s && BILL_KINDS.has(s.kind)) {
        nextWeekCharges.push({ stream_id: s.stream_id, merchant: streamLabel(s), kind: s.kind, expected_date: t.date.slice(0, 10), expected_amount: round2(Math.abs(t.amount)) });
      }
    }
    if (n < priorStart || n > end) continue;
    if (t.iso_currency_code !== currency) {
      if (n >= start && flow === 'spending') {
        const o = otherCurrencies.get(t.iso_currency_code) ?? { amount: 0, count: 0 };
        o.amount += t.amount;
        o.count++;
        otherCurrencies.set(t.iso_currency_code, o);
      }
      continue;
    }
    const category = primaryCategory(t);
    if (n < start) {
      if (flow === 'spending') {
        priorSpending += t.amount;
        priorByCategory.set(category, (priorByCategory.get(category) ?? 0) + t.amount);
      }
      continue;
    }
    count++;
    if (flow === 'income') {
      income += -t.amount;
      incomeRows.push({ transaction_id: t.transaction_id, date: t.date.slice(0, 10), source: merchantLabel(t), amount: round2(-t.amount) });
    }
    if (flow !== 'spending') continue;
    spending += t.amount;
    weekByCategory.set(category, (weekByCategory.get(category) ?? 0) + t.amount);
    largest.push({ transaction_id: t.transaction_id, date: t.date.slice(0, 10), merchant: merchantLabel(t), amount: round2(t.amount), category: t.category });
    const s = streamOfTxn.get(t.transaction_id);
    if (s) recurring.push({ stream_id: s.stream_id, transaction_id: t.transaction_id, merchant: streamLabel(s), amount: round2(t.amount), date: t.date.slice(0, 10), cadence: s.cadence });
  }

  // the 4 weeks before, or as many full weeks as the history covers
  const priorWeeks = firstDay === Infinity ? 0 : Math.max(0, Math.min(PRIOR_WEEKS, Math.floor((start - firstDay) / 7)));
  const perWeek = (x: number) => (priorWeeks ? round2(x / priorWeeks) : 0);
  const priorAverage = perWeek(priorSpending);
  const categories = [...new Set([...weekByCategory.keys(), ...(priorWeeks ? priorByCategory.keys() : [])])]
    .map((category) => {
      const amount = round2(weekByCategory.get(category) ?? 0);
      const prior = perWeek(priorByCategory.get(category) ?? 0);
      return { category, label: categoryLabel(category), amount, prior_weekly_average: prior, change: round2(amount - prior), change_pct: priorWeeks ? changePct(amount, prior) : null };
    })
    .sort((a, b) => b.amount - a.amount || b.prior_weekly_average - a.prior_weekly_average || cmp(a.category, b.category));

  // bills expected in the 7 days after the week that are still ahead of today
  const aheadFrom = Math.max(end + 1, todayN + 1);
  for (const s of streams) {
    if (s.direction !== 'outflow' || !BILL_KINDS.has(s.kind) || s.iso_currency_code !== currency) continue;
    for (const n of projectStream(s, aheadFrom, end + 7)) {
      nextWeekCharges.push({ stream_id: s.stream_id, merchant: streamLabel(s), kind: s.kind, expected_date: isoDate(n), expected_amount: round2(expectedAmount(s)) });
    }
  }
  largest.sort((a, b) => b.amount - a.amount || cmp(a.transaction_id, b.transaction_id));
  recurring.sort((a, b) => cmp(a.date, b.date) || cmp(a.transaction_id, b.transaction_id));
  incomeRows.sort((a, b) => cmp(a.date, b.date) || cmp(a.transaction_id, b.transaction_id));
  nextWeekCharges.sort((a, b) => cmp(a.expected_date, b.expected_date) || cmp(a.stream_id, b.stream_id));
  const other_currency_spending = [...otherCurrencies]
    .sort((a, b) => cmp(a[0], b[0]))
    .map(([code, v]) => ({ iso_currency_code: code, amount: round2(v.amount), transaction_count: v.count }));

  const totals = {
    spending: round2(spending),
    income: round2(income),
    net: round2(income - spending),
    transaction_count: count,
    prior_weekly_average_spending: priorAverage,
    change_pct: priorWeeks ? changePct(round2(spending), priorAverage) : null,
  };

  // narrative from templates over the numbers above
  const fmt = (x: number) => money(x, currency);
  const sentences: string[] = [];
  const week = `the week of ${isoDate(start)} to ${isoDate(end)}`;
  if (totals.change_pct === null) sentences.push(`You spent ${fmt(totals.spending)} in ${week}.`);
  else if (Math.abs(totals.change_pct) < 5) sentences.push(`You spent ${fmt(totals.spending)} in ${week}, in line with your ${PRIOR_WEEKS}-week average of ${fmt(priorAverage)}.`);
  else {
    sentences.push(
      `You spent ${fmt(totals.spending)} in ${week}, ${Math.abs(Math.round(totals.change_pct))} % ${totals.change_pct > 0 ? 'more' : 'less'} than your ${PRIOR_WEEKS}-week average of ${fmt(priorAverage)}.`,
    );
  }
  const top = categories.find((c) => c.amount > 0);
  if (top) sentences.push(`${top.label} led with ${fmt(top.amount)}.`);
  if (largest.length) sentences.push(`The largest charge was ${fmt(largest[0].amount)} at ${largest[0].merchant}.`);
  if (recurring.length) sentences.push(`${plural(recurring.length, 'recurring charge')} came to ${fmt(recurring.reduce((sum, r) => sum + r.amount, 0))}.`);
  if (incomeRows.length) sentences.push(`You received ${fmt(totals.income)} of income.`);
  if (nextWeekCharges.length) {
    const total = nextWeekCharges.reduce((sum, b) => sum + b.expected_amount, 0);
    sentences.push(`Coming up in the next 7 days: ${plural(nextWeekCharges.length, 'bill')} totalling ${fmt(total)}, starting with ${nextWeekCharges[0].merchant} on ${nextWeekCharges[0].expected_date}.`);
  } else {
    sentences.push('No recurring bills are expected in the next 7 days.');
  }

  return {
    week: { start: isoDate(start), end: isoDate(end), days: 7 },
    iso_currency_code: currency,
    totals,
    categories,
    largest_transactions: largest.slice(0, LARGEST),
    recurring_charges: recurring,
    income_received: incomeRows,
    upcoming_bills: nextWeekCharges,
    other_currency_spending,
    narrative: sentences.join(' '),
  };
}
