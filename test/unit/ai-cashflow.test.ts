// /v1/ai/cashflow rules answer: known forecasts on hand-built histories and on a sandbox item.
import { CashflowResult } from '../../functions/contracts/ai-schemas';
import { cashflowRules } from '../../functions/core/ai/cashflow';
import { CARD, CHECKING, addDays, months, transactionBuilder, ymd } from '../support/histories';
import { account, inputOf, rawPayload, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';

/** Rent 1,200 on the 3rd, payroll 2,000 every other Friday (next 2026-07-10), 10.00 a day of everyday spending, Netflix on the card. */
function history(o: { everyday?: boolean } = {}) {
  const txn = transactionBuilder(CHECKING);
  const rows = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 3), 1200, 'RENT PAYMENT OAK APTS', { detailed: 'rent_and_utilities_rent' }));
  for (let d = '2026-01-09'; d <= TODAY; d = addDays(d, 14)) rows.push(txn(d, -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
  for (const [y, m] of months(2026, 1, 6)) {
    rows.push(txn(ymd(y, m, 20), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming', account: CARD }));
  }
  if (o.everyday !== false) {
    for (let i = 0; i < 84; i++) rows.push(txn(addDays(TODAY, -i), 10, `CORNER MARKET #${i}`, { detailed: 'food_and_drink_groceries' }));
  }
  return rows;
}
const accounts = [account(CHECKING, 'depository', 1000), account(CARD, 'credit', 300, { limit: 5000 })];
const forecast = (rows: ReturnType<typeof history>, horizonDays?: number, accts: typeof accounts | null = accounts) =>
  CashflowResult.parse(cashflowRules(inputOf(TODAY, rows, accts), horizonDays === undefined ? {} : { horizonDays }));

describe('cashflowRules: hand-built histories', () => {
  test('a horizon of 7 gives 7 days: rent on the 3rd and 10.00 a day from 1,000', () => {
    const result = forecast(history(), 7);
    expect(result).toMatchObject({
      horizon_days: 7,
      start_date: '2026-07-02',
      end_date: '2026-07-08',
      balance_source: 'depository_accounts',
      starting_balance: 1000,
      account_ids: [CHECKING],
      baseline_daily_spend: 10,
      baseline_weeks: 12,
      total_inflow: 0,
      total_outflow: 1270,
      ending_balance: -270,
      lowest_balance: { date: '2026-07-08', balance: -270 },
    });
    expect(result.daily.map((d) => d.balance)).toEqual([990, -220, -230, -240, -250, -260, -270]);
    expect(result.daily[1]).toMatchObject({ date: '2026-07-03', inflow: 0, outflow: 1210 });
    expect(result.drivers).toEqual([
      { stream_id: result.daily[1].stream_ids[0], direction: 'outflow', kind: 'bill', merchant: 'Rent Payment Oak Apts', cadence: 'monthly', amount: 1200, dates: ['2026-07-03'], total: 1200 },
    ]);
    expect(result.low_balance_warning).toMatchObject({ threshold: 70, first_date: '2026-07-03', days_below: 6, severity: 'high' });
  });

  test('a horizon of 14 reaches the next payday; the card subscription is paid through the card, not from checking', () => {
    const result = forecast(history(), 14);
    expect(result.daily).toHaveLength(14);
    const payday = result.daily.find((d) => d.date === '2026-07-10')!;
    expect(payday.inflow).toBe(2000);
    expect(payday.balance).toBe(1000 - 1200 - 9 * 10 + 2000);
    expect(result.drivers.map((d) => d.merchant)).toEqual(['Payroll Acme Corp', 'Rent Payment Oak Apts']);
    expect(result.ending_balance).toBe(1000 - 1200 + 2000 - 140);
  });

  test('default horizon 30; monthly rent lands again on the 3rd within 45 days', () => {
    expect(forecast(history()).daily).toHaveLength(30);
    const rent = forecast(history(), 45).drivers.find((d) => d.kind === 'bill')!;
    expect(rent.dates).toEqual(['2026-07-03', '2026-08-03']);
    expect(rent.total).toBe(2400);
  });

  test('the baseline is the median week: one large one-off purchase does not move it', () => {
    const txn = transactionBuilder(CHECKING);
    const rows = [...history(), txn('2026-06-20', 1800, 'BEST BUY 00012', { detailed: 'shopping_electronics' })];
    expect(forecast(rows, 7).baseline_daily_spend).toBe(10);
  });

  test('a raw payload (no accounts) starts from 0 and says so; every stream counts', () => {
    const result = forecast(history({ everyday: false }), 7, null);
    expect(result).toMatchObject({ balance_source: 'none', starting_balance: 0, account_ids: [], low_balance_warning: null, baseline_daily_spend: 0 });
    expect(result.note).toContain('starts from 0');
    // the card subscription (2026-07-20) is outside 7 days; at 30 days it is in
    expect(forecast(history({ everyday: false }), 30, null).drivers.map((d) => d.merchant)).toContain('Netflix');
  });

  test('edge cases: no rows, only inflows, other currencies, an out-of-range horizon', () => {
    const empty = forecast([], 3, null);
    expect(empty.daily.map((d) => d.balance)).toEqual([0, 0, 0]);
    expect(empty).toMatchObject({ drivers: [], baseline_weeks: 0, iso_currency_code: 'USD' });

    const txn = transactionBuilder(CHECKING);
    const pay = [];
    for (let d = '2026-01-09'; d <= TODAY; d = addDays(d, 14)) pay.push(txn(d, -2000, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
    const onlyIn = forecast(pay, 10, [account(CHECKING, 'depository', 50)]);
    expect(onlyIn.ending_balance).toBe(2050);
    expect(onlyIn.low_balance_warning).toBeNull();

    const eur = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 5), 900, 'LOYER PARIS', { detailed: 'rent_and_utilities_rent', currency: 'EUR' }));
    expect(forecast([...history(), ...eur], 7).drivers.map((d) => d.merchant)).toEqual(['Rent Payment Oak Apts']);

    expect(() => cashflowRules(inputOf(TODAY, [], null), { horizonDays: 0 })).toThrow(RangeError);
    expect(() => cashflowRules(inputOf(TODAY, [], null), { horizonDays: 366 })).toThrow(RangeError);
    expect(forecast([], 365, null).daily).toHaveLength(365);
  });
});

describe('cashflowRules: a sandbox item', () => {
  const { input, accounts: sandboxAccounts } = sandboxItem('user_good', TODAY);
  const result = CashflowResult.parse(cashflowRules(input, { horizonDays: 60 }));
  const depository = sandboxAccounts.filter((a) => a.type === 'depository');

  test('starts from the depository balances, and every day follows from the day before', () => {
    expect(result.account_ids).toEqual(depository.map((a) => a.account_id).sort());
    expect(result.starting_balance).toBeCloseTo(depository.reduce((sum, a) => sum + a.balances.current, 0), 2);
    let balance = result.starting_balance;
    for (const day of result.daily) {
      balance += day.inflow - day.outflow;
      expect(day.balance).toBeCloseTo(balance, 2);
    }
    expect(result.ending_balance).toBeCloseTo(result.starting_balance + result.total_inflow - result.total_outflow, 2);
    const min = Math.min(...result.daily.map((d) => d.balance));
    expect(result.lowest_balance.balance).toBe(min);
  });

  test('payroll drives it: a biweekly or semi-monthly inflow with dates inside the horizon', () => {
    const payroll = result.drivers.find((d) => d.kind === 'payroll')!;
    expect(payroll.direction).toBe('inflow');
    expect(payroll.dates.length).toBeGreaterThanOrEqual(4);
    for (const d of result.drivers) for (const date of d.dates) expect(date >= result.start_date && date <= result.end_date).toBe(true);
    const ids = new Set(result.daily.flatMap((d) => d.stream_ids));
    expect([...ids].sort()).toEqual(result.drivers.map((d) => d.stream_id).sort());
  });

  test('deterministic: the same answer from any row order', () => {
    expect(cashflowRules({ ...input, transactions: shuffled(input.transactions) }, { horizonDays: 60 })).toEqual(result);
  });

  test('a raw payload of 1,000 rows over a year, at the longest horizon', () => {
    const raw = CashflowResult.parse(cashflowRules(inputOf(TODAY, rawPayload(1000, TODAY)), { horizonDays: 365 }));
    expect(raw.daily).toHaveLength(365);
    expect(raw.balance_source).toBe('none');
  });
});
