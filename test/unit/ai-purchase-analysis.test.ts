// /v1/ai/purchase-analysis rules answer: each verdict on a hand-built history with known numbers.
import { PurchaseAnalysisResult } from '../../functions/contracts/ai-schemas';
import { purchaseAnalysisRules } from '../../functions/core/ai/purchase-analysis';
import type { AccountRecord } from '../../functions/contracts/schemas';
import { CHECKING, addDays, months, transactionBuilder, ymd } from '../support/histories';
import { account, inputOf, sandboxItem } from './ai-fixtures';

const TODAY = '2026-07-01';

/**
 * Rent 1,200 on the 3rd; payroll 2,000 every other Friday (next 2026-07-10, then 2026-07-24);
 * groceries 10.00 a day for 84 days (essential); restaurants 40/60/80 on 15 irregular days
 * (discretionary, 900). In the 90 days to today: spending 3,600 + 840 + 900 = 5,340, so 59.33 a
 * day, and 300 a month of discretionary spending.
 */
function history(o: { payroll?: boolean } = {}) {
  const txn = transactionBuilder(CHECKING);
  const rows = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 3), 1200, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }));
  if (o.payroll !== false) for (let d = '2026-01-09'; d <= TODAY; d = addDays(d, 14)) rows.push(txn(d, -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
  for (let i = 0; i < 84; i++) rows.push(txn(addDays(TODAY, -i), 10, `CORNER MARKET #${i}`, { detailed: 'food_and_drink_groceries' }));
  [1, 4, 9, 11, 17, 22, 30, 33, 41, 46, 52, 58, 63, 71, 80].forEach((back, i) =>
    rows.push(txn(addDays(TODAY, -back), [40, 60, 80][i % 3], `LUCIAS TRATTORIA #${i}`, { detailed: 'food_and_drink_restaurants' })),
  );
  return rows;
}
const analyse = (liquid: number | null, amount: number, rows = history()) => {
  const accounts: AccountRecord[] | null = liquid === null ? null : [account(CHECKING, 'depository', liquid)];
  return PurchaseAnalysisResult.parse(purchaseAnalysisRules(inputOf(TODAY, rows, accounts), { description: 'Noise-cancelling headphones', amount }));
};

describe('purchaseAnalysisRules: hand-built history', () => {
  test('buy: a comfortable buffer after the purchase and the rent due before payday', () => {
    const result = analyse(5000, 150);
    expect(result).toMatchObject({
      purchase: { description: 'Noise-cancelling headphones', amount: 150, iso_currency_code: 'USD' },
      verdict: 'buy',
      liquid_balance: 5000,
      upcoming_outflows: 1200,
      upcoming_inflows: 4000,
      next_income_date: '2026-07-10',
      balance_after_purchase: 3650,
      buffer_days_after_purchase: 61.52,
      safety_buffer: 830.62,
      average_daily_spending: 59.33,
      monthly_discretionary_spending: 300,
      share_of_monthly_discretionary: 0.5,
      wait_until: null,
    });
    expect(result.reasons.map((r) => r.code)).toEqual(['comfortable_buffer']);
    expect(result.recommendation).toMatch(/^Buy/);
  });

  test('waits for pay, not for a small interest credit that comes first', () => {
    // A monthly interest credit of 4.10 on the 2nd, before the rent on the 3rd: the next income is
    // still the payroll on the 10th, so the rent counts as due before it.
    const txn = transactionBuilder(CHECKING);
    const rows = history();
    for (const [y, m] of months(2026, 1, 6)) rows.push(txn(ymd(y, m, 2), -4.1, 'INTEREST PAYMENT', { detailed: 'income_interest_earned' }));
    const result = analyse(5000, 150, rows);
    expect(result).toMatchObject({ next_income_date: '2026-07-10', upcoming_outflows: 1200, balance_after_purchase: 3650 });
  });

  test('opportunity cost at the documented 7 % a year, compounded yearly', () => {
    expect(analyse(5000, 150).opportunity_cost).toMatchObject({
      annual_rate: 0.07,
      projections: [
        { years: 5, future_value: 210.38, growth: 60.38 },
        { years: 10, future_value: 295.07, growth: 145.07 },
      ],
    });
  });

  test('wait until payday: the purchase leaves less than 14 days of spending after the rent', () => {
    const result = analyse(2000, 300);
    expect(result).toMatchObject({ verdict: 'wait', balance_after_purchase: 500, wait_until: '2026-07-10' });
    expect(result.reasons.map((r) => r.code)).toEqual(['thin_buffer', 'covered_after_next_income']);
    expect(result.recommendation).toContain('Wait until 2026-07-10');
  });

  test('wait: affordable, but more than a month of discretionary spending', () => {
    const result = analyse(5000, 450);
    expect(result).toMatchObject({ verdict: 'wait', share_of_monthly_discretionary: 1.5, wait_until: null });
    expect(result.reasons.map((r) => r.code)).toEqual(['comfortable_buffer', 'large_share_of_discretionary']);
  });

  test('skip: more than the balance', () => {
    const result = analyse(200, 300);
    expect(result.verdict).toBe('skip');
    expect(result.reasons.map((r) => r.code)).toEqual(['insufficient_funds']);
  });

  test('skip: affordable today, but the month ends short once the rent is paid and no income comes', () => {
    const result = analyse(1000, 800, history({ payroll: false }));
    expect(result).toMatchObject({ verdict: 'skip', next_income_date: null, upcoming_inflows: 0 });
    expect(result.reasons.map((r) => r.code)).toEqual(['short_after_upcoming_bills', 'large_share_of_discretionary']);
  });

  test('edge cases: no balances, no history, a non-positive amount', () => {
    const noBalances = analyse(null, 30);
    expect(noBalances).toMatchObject({ verdict: 'buy', liquid_balance: null, balance_after_purchase: null, buffer_days_after_purchase: null });
    expect(noBalances.reasons.map((r) => r.code)).toEqual(['no_balance_data', 'small_share_of_discretionary']);
    expect(analyse(null, 200).verdict).toBe('wait');

    const fresh = analyse(1000, 100, []);
    expect(fresh).toMatchObject({ verdict: 'buy', average_daily_spending: 0, safety_buffer: 0, share_of_monthly_discretionary: null, buffer_days_after_purchase: null });
    expect(() => purchaseAnalysisRules(inputOf(TODAY, [], null), { description: 'x', amount: 0 })).toThrow(RangeError);
  });
});

describe('purchaseAnalysisRules: a sandbox item', () => {
  const { input } = sandboxItem('user_good', TODAY);

  test('the verdict turns from buy to skip as the amount grows past the balance', () => {
    const small = PurchaseAnalysisResult.parse(purchaseAnalysisRules(input, { description: 'Headphones', amount: 50 }));
    expect(small.verdict).toBe('buy');
    expect(small.next_income_date).not.toBeNull();
    const huge = purchaseAnalysisRules(input, { description: 'A car', amount: small.liquid_balance! + 1 });
    expect(huge.verdict).toBe('skip');
    expect(huge.reasons[0].code).toBe('insufficient_funds');
  });
});
