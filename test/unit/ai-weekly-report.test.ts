// /v1/ai/weekly-report rules answer: a known week on a hand-built history, a past week, and a
// sandbox item.
import { WeeklyReportResult } from '../../functions/contracts/ai-schemas';
import { weeklyReportRules } from '../../functions/core/ai/weekly-report';
import { CARD, CHECKING, addDays, months, transactionBuilder, ymd } from '../support/histories';
import { inputOf, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';

/**
 * The week 2026-06-25 .. 2026-07-01 and the 4 before (2026-05-28 .. 2026-06-24): Netflix 15.49 on
 * the 28th, rent 1,200 on the 3rd, payroll 2,000 every other Friday (2026-06-26 in the week),
 * groceries 90/110/80/120 in the prior weeks and 150 this week, 20 EUR abroad.
 */
function history() {
  const txn = transactionBuilder(CHECKING);
  const rows = months(2026, 1, 6).flatMap(([y, m]) => [
    txn(ymd(y, m, 28), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming', account: CARD }),
    txn(ymd(y, m, 3), 1200, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }),
  ]);
  for (let d = '2026-01-09'; d <= TODAY; d = addDays(d, 14)) rows.push(txn(d, -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
  const groceries = { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries', account: CARD };
  rows.push(
    txn('2026-05-30', 90, 'WHOLEFDS MKT 10234', groceries),
    txn('2026-06-06', 110, 'WHOLEFDS MKT 10234', groceries),
    txn('2026-06-13', 80, 'WHOLEFDS MKT 10234', groceries),
    txn('2026-06-20', 120, 'WHOLEFDS MKT 10234', groceries),
    txn('2026-06-27', 150, 'WHOLEFDS MKT 10234', groceries),
    txn('2026-06-29', 20, 'CAFE DE FLORE PARIS', { detailed: 'food_and_drink_coffee', currency: 'EUR', account: CARD }),
  );
  return rows;
}

describe('weeklyReportRules: hand-built history', () => {
  const rows = history();
  const result = WeeklyReportResult.parse(weeklyReportRules(inputOf(TODAY, rows)));
  const id = (date: string, amount: number) => rows.find((t) => t.date === date && t.amount === amount)!.transaction_id;

  test('totals against the 4-week average', () => {
    expect(result.week).toEqual({ start: '2026-06-25', end: TODAY, days: 7 });
    // prior: groceries 400 + Netflix 15.49 + rent 1,200 over 4 weeks
    expect(result.totals).toEqual({ spending: 165.49, income: 2000, net: 1834.51, transaction_count: 3, prior_weekly_average_spending: 403.87, change_pct: -59.02 });
    expect(result.other_currency_spending).toEqual([{ iso_currency_code: 'EUR', amount: 20, transaction_count: 1 }]);
  });

  test('categories against their prior weekly averages', () => {
    expect(result.categories).toEqual([
      { category: 'food_and_drink', label: 'Food & Drink', amount: 150, prior_weekly_average: 100, change: 50, change_pct: 50 },
      { category: 'entertainment', label: 'Entertainment', amount: 15.49, prior_weekly_average: 3.87, change: 11.62, change_pct: 300.26 },
      { category: 'rent_and_utilities', label: 'Rent & Utilities', amount: 0, prior_weekly_average: 300, change: -300, change_pct: -100 },
    ]);
  });

  test('largest charges, recurring charges, income and next week’s bills, with their ids and dates', () => {
    expect(result.largest_transactions.map((t) => [t.transaction_id, t.amount])).toEqual([
      [id('2026-06-27', 150), 150],
      [id('2026-06-28', 15.49), 15.49],
    ]);
    expect(result.recurring_charges).toEqual([
      expect.objectContaining({ transaction_id: id('2026-06-28', 15.49), merchant: 'Netflix', amount: 15.49, date: '2026-06-28', cadence: 'monthly' }),
    ]);
    expect(result.income_received).toEqual([{ transaction_id: id('2026-06-26', -2000), date: '2026-06-26', source: 'Payroll Acme Corp', amount: 2000 }]);
    expect(result.upcoming_bills).toEqual([
      expect.objectContaining({ merchant: 'Rent Payment Oak Apts', kind: 'bill', expected_date: '2026-07-03', expected_amount: 1200 }),
    ]);
  });

  test('a narrative from templates over those numbers', () => {
    expect(result.narrative).toBe(
      'You spent 165.49 USD in the week of 2026-06-25 to 2026-07-01, 59 % less than your 4-week average of 403.87 USD. ' +
        'Food & Drink led with 150.00 USD. The largest charge was 150.00 USD at Whole Foods Market. ' +
        '1 recurring charge came to 15.49 USD. You received 2,000.00 USD of income. ' +
        'Coming up in the next 7 days: 1 bill totalling 1,200.00 USD, starting with Rent Payment Oak Apts on 2026-07-03.',
    );
  });

  test('a past week: the bills of the week after are the ones that were charged', () => {
    const past = weeklyReportRules(inputOf(TODAY, rows), { weekEnding: '2026-05-31' });
    expect(past.week).toEqual({ start: '2026-05-25', end: '2026-05-31', days: 7 });
    expect(past.upcoming_bills).toEqual([
      expect.objectContaining({ merchant: 'Rent Payment Oak Apts', expected_date: '2026-06-03', expected_amount: 1200 }),
    ]);
  });

  test('edge cases: no rows, only inflows, a history shorter than the 4 weeks', () => {
    const empty = WeeklyReportResult.parse(weeklyReportRules(inputOf(TODAY, [])));
    expect(empty.totals).toEqual({ spending: 0, income: 0, net: 0, transaction_count: 0, prior_weekly_average_spending: 0, change_pct: null });
    expect(empty.narrative).toBe('You spent 0.00 USD in the week of 2026-06-25 to 2026-07-01. No recurring bills are expected in the next 7 days.');
    const txn = transactionBuilder(CHECKING);
    const onlyIn = weeklyReportRules(inputOf(TODAY, [txn('2026-06-26', -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' })]));
    expect(onlyIn.totals).toMatchObject({ spending: 0, income: 2000, change_pct: null });
    expect(onlyIn.categories).toEqual([]);
  });
});

describe('weeklyReportRules: a sandbox item', () => {
  const { input } = sandboxItem('user_good', TODAY);
  const result = WeeklyReportResult.parse(weeklyReportRules(input));

  test('category amounts add up to the spending; rows lie in the week; bills in the week after', () => {
    expect(result.categories.reduce((sum, c) => sum + c.amount, 0)).toBeCloseTo(result.totals.spending, 2);
    for (const t of [...result.largest_transactions, ...result.recurring_charges, ...result.income_received]) {
      expect(t.date >= result.week.start && t.date <= result.week.end).toBe(true);
    }
    for (const b of result.upcoming_bills) expect(b.expected_date > TODAY && b.expected_date <= addDays(TODAY, 7)).toBe(true);
    expect(result.largest_transactions.length).toBeLessThanOrEqual(5);
  });

  test('deterministic: the same answer from any row order', () => {
    expect(weeklyReportRules({ ...input, transactions: shuffled(input.transactions) })).toEqual(result);
  });
});
