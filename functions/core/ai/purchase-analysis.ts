// /v1/ai/purchase-analysis, rules answer: buy, wait or skip for a planned purchase, from the
// balance left after it and the recurring bills due before the next income, its weight in the
// usual discretionary spending, and what the money would grow to if invested instead. Pure: no I/O,
// no clock. Rules and thresholds: docs/ai.md, "Rules answers".
import type { PurchaseAnalysisResult } from '../../contracts/ai-schemas';
import { everydaySpending } from './cashflow';
import { recurringOf, type AiInput } from './input';
import {
  dayIndex,
  dayOf,
  depositoryAccounts,
  expectedAmount,
  flowOf,
  homeCurrency,
  isEssentialSpending,
  isoDate,
  money,
  percent,
  projectStream,
  round2,
  round4,
} from './ledger';

type Reason = PurchaseAnalysisResult['reasons'][number];

/** Assumed yearly return of money invested instead, compounded yearly: a long-run diversified-stock assumption, not advice. */
export const OPPORTUNITY_RATE = 0.07;
export const OPPORTUNITY_YEARS = [5, 10] as const;
/** Days ahead the upcoming recurring flows are counted. */
export const LOOKAHEAD_DAYS = 30;
/** Days of spending, measured back from today, for the averages. */
export const SPENDING_WINDOW_DAYS = 90;
/** Balance to keep after the purchase and the bills due before the next income, in days of average spending. */
export const SAFETY_BUFFER_DAYS = 14;
/** Above this share of a month's discretionary spending a purchase is large enough to wait on. */
export const LARGE_SHARE = 1;
const SMALL_SHARE = 0.25;

export interface PurchaseParams {
  description: string;
  amount: number;
}

export function purchaseAnalysisRules(input: AiInput, purchase: PurchaseParams): PurchaseAnalysisResult {
  if (!(purchase.amount > 0) || !Number.isFinite(purchase.amount)) throw new RangeError(`purchase amount must be positive, got ${purchase.amount}`);
  const todayN = dayIndex(input.today, 'today');
  const currency = homeCurrency(input.accounts, input.transactions);
  const amount = round2(purchase.amount);
  const deposits = depositoryAccounts(input.accounts).filter((a) => a.balances.iso_currency_code === currency);
  const known = deposits.length > 0;
  const accountIds = new Set(deposits.map((a) => a.account_id));
  const inScope = (accountId: string) => !known || accountIds.has(accountId);
  const liquid = known ? round2(deposits.reduce((sum, a) => sum + a.balances.current, 0)) : null;

  // recurring flows of the next LOOKAHEAD_DAYS on the spendable accounts
  const from = todayN + 1;
  const to = todayN + LOOKAHEAD_DAYS;
  const streams = recurringOf(input);
  const inScopeStreams = streams.filter((s) => s.iso_currency_code === currency && inScope(s.account_id));
  // The income a purchase waits for is pay: the payroll streams, or without one the largest regular
  // income (a monthly interest credit of a few dollars is not what a budget waits for).
  const incomeStreams = inScopeStreams.filter((s) => s.direction === 'inflow' && (s.kind === 'payroll' || (s.category_detailed ?? '').startsWith('income_')));
  const payroll = incomeStreams.filter((s) => s.kind === 'payroll');
  const largest = [...incomeStreams].sort((a, b) => expectedAmount(b) - expectedAmount(a) || (a.stream_id < b.stream_id ? -1 : 1))[0];
  const payStreams = new Set(payroll.length > 0 ? payroll : largest ? [largest] : []);
  const flows: Array<{ n: number; signed: number; income: boolean }> = [];
  for (const s of inScopeStreams) {
    const value = expectedAmount(s);
    const income = payStreams.has(s);
    for (const n of projectStream(s, from, to)) flows.push({ n, signed: s.direction === 'inflow' ? value : -value, income });
  }
  flows.sort((a, b) => a.n - b.n || a.signed - b.signed);
  const upcomingOut = flows.reduce((sum, f) => sum + Math.max(0, -f.signed), 0);
  const upcomingIn = flows.reduce((sum, f) => sum + Math.max(0, f.signed), 0);
  const nextIncome = flows.find((f) => f.income)?.n ?? null;
  const dueBeforeIncome = flows.filter((f) => f.signed < 0 && (nextIncome === null || f.n < nextIncome)).reduce((sum, f) => sum - f.signed, 0);

  // spending averages over the trailing window (fewer days when the history is shorter)
  let firstDay = Infinity;
  let spending = 0;
  let discretionary = 0;
  const windowStart = todayN - SPENDING_WINDOW_DAYS + 1;
  const recurringOut = new Set(streams.filter((s) => s.direction === 'outflow' && s.kind !== 'subscription').flatMap((s) => s.transaction_ids));
  for (const t of input.transactions) {
    if (t.iso_currency_code !== currency) continue;
    const n = dayOf(t);
    if (n === null || n > todayN) continue;
    if (n < firstDay) firstDay = n;
    if (n < windowStart || flowOf(t) !== 'spending') continue;
    spending += t.amount;
    if (!isEssentialSpending(t.category_detailed) && !recurringOut.has(t.transaction_id)) discretionary += t.amount;
  }
  const days = firstDay === Infinity ? 0 : Math.min(SPENDING_WINDOW_DAYS, todayN - Math.max(firstDay, windowStart) + 1);
  const averageDaily = days ? round2(spending / days) : 0;
  const monthlyDiscretionary = days ? round2((discretionary / days) * 30) : 0;
  const share = monthlyDiscretionary > 0 ? round4(amount / monthlyDiscretionary) : null;
  const safety = round2(SAFETY_BUFFER_DAYS * averageDaily);
  const balanceAfter = liquid === null ? null : round2(liquid - amount - dueBeforeIncome);
  const bufferDays = balanceAfter === null || averageDaily === 0 ? null : round2(balanceAfter / averageDaily);
  const recurringIds = new Set(streams.flatMap((s) => s.transaction_ids));
  const everyday = everydaySpending(input.transactions, todayN, currency, (t) => inScope(t.account_id), recurringIds);
  // where the month ends if the purchase is made now: recurring flows and everyday spending included
  const monthEnd = liquid === null ? null : liquid - amount - upcomingOut + upcomingIn - everyday.daily * LOOKAHEAD_DAYS;

  const reasons: Reason[] = [];
  const fmt = (x: number) => money(x, currency);
  let verdict: PurchaseAnalysisResult['verdict'];
  let waitUntil: number | null = null;
  if (liquid === null || balanceAfter === null || monthEnd === null) {
    reasons.push({ code: 'no_balance_data', explanation: 'No checking or savings balance is available, so affordability cannot be checked.' });
    verdict = share !== null && share > LARGE_SHARE / 2 ? 'wait' : 'buy';
  } else if (liquid < amount) {
    verdict = 'skip';
    reasons.push({ code: 'insufficient_funds', explanation: `The purchase (${fmt(amount)}) is more than your checking and savings balance (${fmt(liquid)}).` });
  } else if (monthEnd < 0) {
    verdict = 'skip';
    reasons.push({
      code: 'short_after_upcoming_bills',
      explanation: `With ${fmt(upcomingOut)} of bills and ${fmt(everyday.daily * LOOKAHEAD_DAYS)} of everyday spending over the next ${LOOKAHEAD_DAYS} days against ${fmt(upcomingIn)} of expected income, the purchase would leave you ${fmt(-monthEnd)} short.`,
    });
  } else if (balanceAfter < safety) {
    verdict = 'wait';
    waitUntil = nextIncome;
    reasons.push({
      code: 'thin_buffer',
      explanation: `After the purchase and ${fmt(dueBeforeIncome)} of bills due before ${nextIncome === null ? 'your next income' : `your next income on ${isoDate(nextIncome)}`}, ${fmt(balanceAfter)} would remain, under the ${fmt(safety)} (${SAFETY_BUFFER_DAYS} days of spending) worth keeping.`,
    });
    if (nextIncome !== null) {
      reasons.push({ code: 'covered_after_next_income', explanation: `Your next income is expected on ${isoDate(nextIncome)}; the purchase fits after it.` });
    }
  } else {
    verdict = share !== null && share > LARGE_SHARE ? 'wait' : 'buy';
    reasons.push({
      code: 'comfortable_buffer',
      explanation: `After the purchase and ${fmt(dueBeforeIncome)} of bills due before ${nextIncome === null ? 'the next 30 days end' : `your next income on ${isoDate(nextIncome)}`}, ${fmt(balanceAfter)} remain${bufferDays === null ? '' : ` (${Math.floor(bufferDays)} days of spending)`}.`,
    });
  }
  if (share !== null && share > LARGE_SHARE) {
    reasons.push({
      code: 'large_share_of_discretionary',
      explanation: `It is ${percent(share)} of a month of your discretionary spending (${fmt(monthlyDiscretionary)}): worth a few days' thought.`,
    });
  } else if (share !== null && share <= SMALL_SHARE) {
    reasons.push({ code: 'small_share_of_discretionary', explanation: `It is ${percent(share)} of a month of your discretionary spending (${fmt(monthlyDiscretionary)}).` });
  }

  const projections = OPPORTUNITY_YEARS.map((years) => {
    const future = round2(amount * (1 + OPPORTUNITY_RATE) ** years);
    return { years, future_value: future, growth: round2(future - amount) };
  });
  const recommendation =
    verdict === 'buy'
      ? `Buy: ${purchase.description} (${fmt(amount)}) fits your budget with room to spare.`
      : verdict === 'skip'
        ? `Skip for now: ${purchase.description} (${fmt(amount)}) would leave you unable to cover your upcoming bills.`
        : waitUntil !== null
          ? `Wait until ${isoDate(waitUntil)}: buying ${purchase.description} (${fmt(amount)}) now would leave too thin a cushion before your next income.`
          : `Wait: ${purchase.description} (${fmt(amount)}) is large next to your usual spending; give it a few days before deciding.`;

  return {
    purchase: { description: purchase.description, amount, iso_currency_code: currency },
    verdict,
    liquid_balance: liquid,
    upcoming_outflows: round2(upcomingOut),
    upcoming_inflows: round2(upcomingIn),
    next_income_date: nextIncome === null ? null : isoDate(nextIncome),
    balance_after_purchase: balanceAfter,
    buffer_days_after_purchase: bufferDays,
    safety_buffer: safety,
    average_daily_spending: averageDaily,
    monthly_discretionary_spending: monthlyDiscretionary,
    share_of_monthly_discretionary: share,
    opportunity_cost: {
      annual_rate: OPPORTUNITY_RATE,
      projections,
      note: `Invested at ${Math.round(OPPORTUNITY_RATE * 100)} % a year instead, ${fmt(amount)} would grow to ${projections
        .map((p) => `${fmt(p.future_value)} in ${p.years} years`)
        .join(' and ')}.`,
    },
    wait_until: waitUntil === null ? null : isoDate(waitUntil),
    reasons,
    recommendation,
  };
}
