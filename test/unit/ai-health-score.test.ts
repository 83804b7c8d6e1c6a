// /v1/ai/health-score rules answer: a hand-computed score, missing subscores, and a sandbox item.
import { HEALTH_SUBSCORE_KEYS, HealthScoreResult } from '../../functions/contracts/ai-schemas';
import { healthScoreRules } from '../../functions/core/ai/health-score';
import { CARD, CHECKING, addDays, months, transactionBuilder, ymd } from '../support/histories';
import { account, inputOf, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';

/**
 * January to June 2026: payroll 2,000 every other Friday (7 paydays from 2026-04-03 to 2026-06-26,
 * the 90-day window), rent 1,200, a student loan 300 and groceries 400 a month, one 35.00 overdraft
 * fee in May. In the window: income 14,000, spending 3,600 + 900 + 1,200 + 35 = 5,735.
 */
function history() {
  const txn = transactionBuilder(CHECKING);
  const rows = months(2026, 1, 6).flatMap(([y, m]) => [
    txn(ymd(y, m, 3), 1200, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }),
    txn(ymd(y, m, 10), 300, 'NELNET STUDENT LOAN', { detailed: 'loan_payments_student_loan' }),
    txn(ymd(y, m, 15), 400, 'WHOLEFDS MKT', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
  ]);
  for (let d = '2026-01-09'; d <= TODAY; d = addDays(d, 14)) rows.push(txn(d, -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
  rows.push(txn('2026-05-20', 35, 'OVERDRAFT FEE', { detailed: 'bank_fees_overdraft' }));
  return rows;
}
const accounts = [account(CHECKING, 'depository', 5000), account(CARD, 'credit', 1000, { limit: 5000 })];
const subscore = (r: HealthScoreResult, key: string) => r.subscores.find((s) => s.key === key)!;

describe('healthScoreRules: hand-built history', () => {
  const result = HealthScoreResult.parse(healthScoreRules(inputOf(TODAY, history(), accounts)));

  test('each subscore measured and scored on its curve', () => {
    expect(result.subscores.map((s) => s.key)).toEqual([...HEALTH_SUBSCORE_KEYS]);
    expect(subscore(result, 'savings_rate')).toMatchObject({ value: 0.5904, score: 100, weight: 0.25 });
    // 5,000 / (5,735 / 90) = 78.47 days; 90 days scores 100
    expect(subscore(result, 'emergency_buffer')).toMatchObject({ value: 78.47, score: 87, weight: 0.2 });
    // full months covered by the history: February to June (it starts 2026-01-03), spending 1,900
    // four times and 1,935 once: mean 1,907, standard deviation 14
    expect(subscore(result, 'spending_stability')).toMatchObject({ value: 0.0073, score: 100 });
    expect(subscore(result, 'spending_stability').explanation).toContain('last 5 full months');
    // 1,000 of 5,000: halfway from 10 % (100) to 30 % (70)
    expect(subscore(result, 'credit_utilization')).toMatchObject({ value: 0.2, score: 85, weight: 0.15 });
    expect(subscore(result, 'debt_to_income')).toMatchObject({ value: 0.0643, score: 100 });
    expect(subscore(result, 'income_regularity')).toMatchObject({ value: 1, score: 100 });
    expect(subscore(result, 'fees')).toMatchObject({ value: 1, unit: 'count', score: 75 });
    for (const s of result.subscores) expect(s.explanation.length).toBeGreaterThan(10);
  });

  test('the overall score is the weighted sum: 25 + 17.4 + 10 + 12.75 + 10 + 10 + 7.5 = 92.65', () => {
    expect(result.score).toBe(93);
    expect(result.band).toBe('excellent');
    expect(result.period).toEqual({ start: '2026-04-03', end: TODAY, days: 90 });
    expect(result.summary).toContain('93 (excellent)');
  });

  test('without balances, the buffer and utilization drop out and the other weights scale up', () => {
    const raw = HealthScoreResult.parse(healthScoreRules(inputOf(TODAY, history(), null)));
    expect(subscore(raw, 'emergency_buffer')).toMatchObject({ value: null, score: null, weight: 0 });
    expect(subscore(raw, 'credit_utilization')).toMatchObject({ value: null, score: null, weight: 0 });
    expect(subscore(raw, 'savings_rate').weight).toBe(0.3846);
    // (25 + 10 + 10 + 10 + 7.5) / 0.65
    expect(raw.score).toBe(96);
  });

  test('spending more than income scores the savings rate 0', () => {
    const txn = transactionBuilder(CHECKING);
    const rows = [txn('2026-06-01', -1000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }), txn('2026-06-05', 1100, 'BEST BUY 00012', { detailed: 'shopping_electronics' })];
    expect(subscore(healthScoreRules(inputOf(TODAY, rows, null)), 'savings_rate')).toMatchObject({ value: -0.1, score: 0 });
  });

  test('edge cases: nothing at all, only inflows, rows in another currency', () => {
    const empty = HealthScoreResult.parse(healthScoreRules(inputOf(TODAY, [], null)));
    expect(empty.score).toBe(0);
    expect(empty.subscores.every((s) => s.score === null && s.weight === 0)).toBe(true);

    const txn = transactionBuilder(CHECKING);
    const onlyIn = healthScoreRules(inputOf(TODAY, [txn('2026-06-01', -1000, 'PAYROLL ACME CORP', { detailed: 'income_wages' })], accounts));
    expect(subscore(onlyIn, 'savings_rate')).toMatchObject({ value: 1, score: 100 });
    expect(subscore(onlyIn, 'emergency_buffer').value).toBeNull();

    const withEur = [...history(), txn('2026-06-10', 5000, 'HOTEL LUTETIA PARIS', { detailed: 'travel_lodging', currency: 'EUR' })];
    expect(healthScoreRules(inputOf(TODAY, withEur, accounts))).toEqual(healthScoreRules(inputOf(TODAY, history(), accounts)));
  });
});

describe('healthScoreRules: a sandbox item', () => {
  const { input } = sandboxItem('user_good', TODAY);
  const result = HealthScoreResult.parse(healthScoreRules(input));

  test('all seven subscores, weights summing to 1, the score their weighted sum', () => {
    expect(result.subscores.map((s) => s.key)).toEqual([...HEALTH_SUBSCORE_KEYS]);
    const scored = result.subscores.filter((s) => s.score !== null);
    expect(scored.length).toBe(7);
    expect(scored.reduce((sum, s) => sum + s.weight, 0)).toBeCloseTo(1, 3);
    expect(Math.abs(result.score - scored.reduce((sum, s) => sum + s.weight * s.score!, 0))).toBeLessThanOrEqual(0.51);
  });

  test('deterministic: the same answer from any row order', () => {
    expect(healthScoreRules({ ...input, transactions: shuffled(input.transactions) })).toEqual(result);
  });
});
