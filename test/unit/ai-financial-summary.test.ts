// /v1/ai/financial-summary rules answer: known totals, changes and prose on a hand-built history,
// and consistency on a sandbox item.
import { FinancialSummaryResult } from '../../functions/contracts/ai-schemas';
import { financialSummaryRules } from '../../functions/core/ai/financial-summary';
import { CHECKING, transactionBuilder } from '../support/histories';
import { inputOf, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';

function history() {
  const txn = transactionBuilder(CHECKING);
  return [
    // previous period 2026-05-03 .. 2026-06-01
    txn('2026-05-03', 1000, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }),
    txn('2026-05-10', 150, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
    txn('2026-05-15', -3000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }),
    txn('2026-05-24', 150, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
    // this period 2026-06-02 .. 2026-07-01
    txn('2026-06-03', 1000, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }),
    txn('2026-06-05', 200, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
    txn('2026-06-15', -3000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }),
    txn('2026-06-19', 200, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
    txn('2026-06-20', 450, 'DELTA AIR LINES', { merchant: 'Delta', detailed: 'travel_flights' }),
    txn('2026-06-21', 80, 'CAFE DE FLORE PARIS', { detailed: 'food_and_drink_coffee', currency: 'EUR' }),
  ];
}

describe('financialSummaryRules: hand-built history', () => {
  const result = FinancialSummaryResult.parse(financialSummaryRules(inputOf(TODAY, history())));

  test('period totals against the previous period', () => {
    expect(result.period).toEqual({ start: '2026-06-02', end: TODAY, days: 30 });
    expect(result.previous_period).toEqual({ start: '2026-05-03', end: '2026-06-01', days: 30 });
    expect(result.totals).toEqual({ income: 3000, spending: 1850, net: 1150, transaction_count: 5 });
    expect(result.previous_totals).toEqual({ income: 3000, spending: 1300, net: 1700, transaction_count: 4 });
    expect(result.other_currency_spending).toEqual([{ iso_currency_code: 'EUR', amount: 80, transaction_count: 1 }]);
  });

  test('top categories and merchants', () => {
    expect(result.top_categories).toEqual([
      { category: 'rent_and_utilities', label: 'Rent & Utilities', amount: 1000, share: 0.5405, previous_amount: 1000, change_pct: 0, transaction_count: 1 },
      { category: 'travel', label: 'Travel', amount: 450, share: 0.2432, previous_amount: 0, change_pct: null, transaction_count: 1 },
      { category: 'food_and_drink', label: 'Food & Drink', amount: 400, share: 0.2162, previous_amount: 300, change_pct: 33.33, transaction_count: 2 },
    ]);
    expect(result.top_merchants).toEqual([
      { merchant: 'Rent Payment Oak Apts', amount: 1000, transaction_count: 1 },
      { merchant: 'Delta', amount: 450, transaction_count: 1 },
      { merchant: 'Whole Foods Market', amount: 400, transaction_count: 2 },
    ]);
  });

  test('notable changes: a new category, a new merchant and groceries up by a third, largest first', () => {
    expect(result.notable_changes.map((c) => [c.kind, c.subject, c.amount, c.previous_amount, c.change, c.change_pct])).toEqual([
      ['new_category', 'travel', 450, 0, 450, null],
      ['new_merchant', 'Delta', 450, 0, 450, null],
      ['category_up', 'food_and_drink', 400, 300, 100, 33.33],
    ]);
  });

  test('prose from templates that repeats the structured numbers', () => {
    expect(result.summary).toBe(
      'From 2026-06-02 to 2026-07-01 you earned 3,000.00 USD and spent 1,850.00 USD, keeping 1,150.00 USD. ' +
        'Spending was 42 % higher than in the previous 30 days (1,300.00 USD). ' +
        'Your biggest category was Rent & Utilities: 1,000.00 USD (54 % of spending).',
    );
    expect(result.highlights).toHaveLength(6);
    expect(result.highlights[5]).toBe('Also 80.00 EUR spent in EUR, not included in the totals.');
  });

  test('edge cases: no rows, only inflows, a shorter period', () => {
    const empty = FinancialSummaryResult.parse(financialSummaryRules(inputOf(TODAY, [])));
    expect(empty.totals).toEqual({ income: 0, spending: 0, net: 0, transaction_count: 0 });
    expect(empty.summary).toBe('From 2026-06-02 to 2026-07-01 there were no transactions in USD.');
    expect(empty.highlights).toEqual([]);
    const txn = transactionBuilder(CHECKING);
    const onlyIn = financialSummaryRules(inputOf(TODAY, [txn('2026-06-15', -3000, 'PAYROLL ACME CORP', { detailed: 'income_wages' })]));
    expect(onlyIn.totals).toEqual({ income: 3000, spending: 0, net: 3000, transaction_count: 1 });
    expect(onlyIn.top_categories).toEqual([]);
    const week = financialSummaryRules(inputOf(TODAY, history()), { periodDays: 7 });
    expect(week.period).toEqual({ start: '2026-06-25', end: TODAY, days: 7 });
    expect(week.totals.spending).toBe(0);
  });
});

describe('financialSummaryRules: a sandbox item', () => {
  const { input } = sandboxItem('user_good', TODAY);
  const result = FinancialSummaryResult.parse(financialSummaryRules(input));

  test('consistent totals, ordered tops, every change above its threshold', () => {
    expect(result.totals.net).toBeCloseTo(result.totals.income - result.totals.spending, 2);
    expect(result.totals.income).toBeGreaterThan(0);
    expect(result.top_categories.length).toBe(5);
    const amounts = result.top_categories.map((c) => c.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(result.top_categories.reduce((sum, c) => sum + c.share, 0)).toBeLessThanOrEqual(1.0001);
    for (const c of result.notable_changes) expect(Math.abs(c.change)).toBeGreaterThanOrEqual(25);
    expect(result.summary).toContain(result.period.start);
  });

  test('deterministic: the same answer from any row order', () => {
    expect(financialSummaryRules({ ...input, transactions: shuffled(input.transactions) })).toEqual(result);
  });
});
