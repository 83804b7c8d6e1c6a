// /v1/ai/health-score, rules answer: a 0-100 score that is the weighted sum of seven explained
// subscores (savings rate, emergency buffer, spending stability, credit utilization, debt to
// income, income regularity, fees). A subscore without the data to measure it gets weight 0 and the
// others are scaled up. Pure: no I/O, no clock. Rules and thresholds: docs/ai.md, "Rules answers".
import type { HealthScoreResult } from '../../contracts/ai-schemas';
import { dayInMonthIndex, monthIndexOf } from '../calendar';
import { incomeOf, type AiInput } from './input';
import { dayIndex, dayOf, depositoryAccounts, flowOf, homeCurrency, isoDate, money, percent, plural, round2, round4 } from './ledger';

type Subscore = HealthScoreResult['subscores'][number];
type Key = Subscore['key'];

/** Days of the trailing window the flow measures (income, spending, fees) use. */
export const HEALTH_WINDOW_DAYS = 90;
/** Full calendar months the spending-stability measure looks at (at least 3 needed). */
export const STABILITY_MONTHS = 6;

/** Weights of the subscores (sum 1). */
export const HEALTH_WEIGHTS: Readonly<Record<Key, number>> = {
  savings_rate: 0.25,
  emergency_buffer: 0.2,
  spending_stability: 0.1,
  credit_utilization: 0.15,
  debt_to_income: 0.1,
  income_regularity: 0.1,
  fees: 0.1,
};

const LABELS: Readonly<Record<Key, string>> = {
  savings_rate: 'Savings rate',
  emergency_buffer: 'Emergency buffer',
  spending_stability: 'Spending stability',
  credit_utilization: 'Credit utilization',
  debt_to_income: 'Debt payments to income',
  income_regularity: 'Income regularity',
  fees: 'Fees and interest charges',
};

/** Piecewise-linear score through the points (x ascending), clamped at both ends, 0-100. */
function curve(x: number, points: ReadonlyArray<readonly [number, number]>): number {
  if (x <= points[0][0]) return Math.round(points[0][1]);
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    if (x <= x1) return Math.round(y0 + ((x - x0) / (x1 - x0)) * (y1 - y0));
  }
  return Math.round(points[points.length - 1][1]);
}

/** Score curves: savings rate -10 % -> 0, 20 % -> 100; buffer 0 -> 0, 90 days -> 100; ... */
export const CURVES = {
  savings_rate: [[-0.1, 0], [0.2, 100]],
  emergency_buffer: [[0, 0], [90, 100]],
  spending_stability: [[0.1, 100], [0.6, 0]],
  credit_utilization: [[0.1, 100], [0.3, 70], [0.9, 0]],
  debt_to_income: [[0.15, 100], [0.5, 0]],
  income_regularity: [[0, 0], [1, 100]],
  fees: [[0, 100], [4, 0]],
} as const satisfies Record<Key, ReadonlyArray<readonly [number, number]>>;

const FEE_CATEGORIES: ReadonlySet<string> = new Set(['bank_fees_overdraft', 'bank_fees_late_payment', 'bank_fees_interest_charge']);

export function healthScoreRules(input: AiInput): HealthScoreResult {
  const todayN = dayIndex(input.today, 'today');
  const start = todayN - HEALTH_WINDOW_DAYS + 1;
  const currency = homeCurrency(input.accounts, input.transactions);
  const regularIncome = new Set(incomeOf(input).flatMap((s) => s.transaction_ids));

  let income = 0;
  let regular = 0;
  let spending = 0;
  let debtPayments = 0;
  let fees = 0;
  let windowRows = 0;
  let firstDay = Infinity;
  const monthly = new Map<number, number>();
  for (const t of input.transactions) {
    if (t.iso_currency_code !== currency) continue;
    const n = dayOf(t);
    if (n === null || n > todayN) continue;
    if (n < firstDay) firstDay = n;
    const flow = flowOf(t);
    if (flow === 'spending') {
      const mi = monthIndexOf(n);
      monthly.set(mi, (monthly.get(mi) ?? 0) + t.amount);
    }
    if (n < start) continue;
    windowRows++;
    const d = t.category_detailed ?? '';
    if (flow === 'income') {
      income += -t.amount;
      if (regularIncome.has(t.transaction_id)) regular += -t.amount;
    } else if (flow === 'spending') {
      spending += t.amount;
      if (d.startsWith('loan_payments_')) debtPayments += t.amount;
      if (FEE_CATEGORIES.has(d)) fees++;
    }
  }

  const subscores: Subscore[] = [];
  const add = (key: Key, value: number | null, unit: Subscore['unit'], explanation: string) =>
    subscores.push({
      key,
      label: LABELS[key],
      value,
      unit,
      score: value === null ? null : curve(value, CURVES[key]),
      weight: 0,
      explanation,
    });
  const days = `the last ${HEALTH_WINDOW_DAYS} days`;

  // savings rate
  if (income > 0) {
    const rate = round4((income - spending) / income);
    add('savings_rate', rate, 'ratio',
      rate >= 0
        ? `You kept ${percent(rate)} of your income over ${days} (income ${money(income, currency)}, spending ${money(spending, currency)}).`
        : `You spent ${percent(-rate)} more than your income over ${days} (income ${money(income, currency)}, spending ${money(spending, currency)}).`);
  } else {
    add('savings_rate', null, 'ratio', `No income was found over ${days}, so the savings rate cannot be measured.`);
  }

  // emergency buffer
  const deposits = depositoryAccounts(input.accounts).filter((a) => a.balances.iso_currency_code === currency);
  const dailySpend = spending / HEALTH_WINDOW_DAYS;
  if (deposits.length && dailySpend > 0) {
    const liquid = deposits.reduce((sum, a) => sum + a.balances.current, 0);
    const buffer = round2(Math.max(0, liquid) / dailySpend);
    add('emergency_buffer', buffer, 'days',
      `Your ${money(liquid, currency)} in checking and savings would cover ${Math.floor(buffer)} days of your average spending (${money(dailySpend, currency)} a day); 90 days scores full marks.`);
  } else {
    add('emergency_buffer', null, 'days',
      deposits.length ? `No spending was found over ${days} to measure the buffer against.` : 'No checking or savings balance is available.');
  }

  // spending stability: the last STABILITY_MONTHS full calendar months the history covers
  const thisMonth = monthIndexOf(todayN);
  const months: number[] = [];
  for (let mi = thisMonth - 1; mi >= thisMonth - STABILITY_MONTHS; mi--) if (dayInMonthIndex(mi, 1) >= firstDay) months.push(mi);
  const totals = months.map((mi) => monthly.get(mi) ?? 0);
  const mean = totals.reduce((a, b) => a + b, 0) / (totals.length || 1);
  if (totals.length >= 3 && mean > 0) {
    const sd = Math.sqrt(totals.reduce((sum, x) => sum + (x - mean) ** 2, 0) / totals.length);
    const cv = round4(sd / mean);
    add('spending_stability', cv, 'ratio',
      `Your monthly spending over the last ${totals.length} full months varied by ${percent(cv)} around its average of ${money(mean, currency)}.`);
  } else {
    add('spending_stability', null, 'ratio', 'Fewer than 3 full months of spending history to measure stability.');
  }

  // credit utilization
  const cards = (input.accounts ?? []).filter(
    (a) => a.type === 'credit' && a.balances.iso_currency_code === currency && (a.balances.limit ?? 0) > 0,
  );
  if (cards.length) {
    const owed = cards.reduce((sum, a) => sum + Math.max(0, a.balances.current), 0);
    const limit = cards.reduce((sum, a) => sum + (a.balances.limit ?? 0), 0);
    const use = round4(owed / limit);
    add('credit_utilization', use, 'ratio',
      `You use ${percent(use)} of your ${money(limit, currency)} credit limit across ${plural(cards.length, 'card')}; under 10 % scores full marks.`);
  } else {
    add('credit_utilization', null, 'ratio', 'No credit card with a limit is connected.');
  }

  // debt to income
  if (income > 0) {
    const dti = round4(debtPayments / income);
    add('debt_to_income', dti, 'ratio',
      debtPayments > 0
        ? `Loan payments took ${percent(dti)} of your income over ${days} (${money(debtPayments, currency)}).`
        : `No loan payments over ${days}.`);
  } else {
    add('debt_to_income', null, 'ratio', `No income was found over ${days} to compare loan payments with.`);
  }

  // income regularity
  if (income > 0) {
    const share = round4(regular / income);
    add('income_regularity', share, 'ratio', `${percent(share)} of your income over ${days} came from regular, recurring deposits.`);
  } else {
    add('income_regularity', null, 'ratio', `No income was found over ${days}.`);
  }

  // fees
  if (windowRows > 0) {
    add('fees', fees, 'count',
      fees ? `${plural(fees, 'overdraft, late or interest charge')} over ${days}; each one costs 25 points.` : `No overdraft, late or interest charges over ${days}.`);
  } else {
    add('fees', null, 'count', `No transactions over ${days}.`);
  }

  const available = subscores.filter((s) => s.score !== null);
  const totalWeight = available.reduce((sum, s) => sum + HEALTH_WEIGHTS[s.key], 0);
  let score = 0;
  for (const s of available) {
    s.weight = round4(HEALTH_WEIGHTS[s.key] / totalWeight);
    score += (HEALTH_WEIGHTS[s.key] / totalWeight) * s.score!;
  }
  score = Math.round(score);
  const band: HealthScoreResult['band'] = score >= 80 ? 'excellent' : score >= 65 ? 'good' : score >= 45 ? 'fair' : 'poor';
  const ranked = [...available].sort((a, b) => b.score! - a.score! || HEALTH_WEIGHTS[b.key] - HEALTH_WEIGHTS[a.key]);
  const summary = available.length
    ? `Your financial health score is ${score} (${band}). Strongest: ${ranked[0].label.toLowerCase()} (${ranked[0].score}); weakest: ${ranked[ranked.length - 1].label.toLowerCase()} (${ranked[ranked.length - 1].score}).`
    : 'There is not enough data to score: no transactions and no balances.';

  return {
    score,
    band,
    iso_currency_code: currency,
    period: { start: isoDate(start), end: input.today, days: HEALTH_WINDOW_DAYS },
    subscores,
    summary,
  };
}
