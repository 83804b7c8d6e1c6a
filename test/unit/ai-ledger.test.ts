// Shared arithmetic of the AI rules answers (functions/core/ai/ledger.ts) and the response schemas'
// documented examples.
import * as z from 'zod';
import * as AiSchemas from '../../functions/contracts/ai-schemas';
import { flowOf, homeCurrency, merchantLabel, money, projectStream, round2 } from '../../functions/core/ai/ledger';
import { dayNumber, isoDate } from '../../functions/core/calendar';
import { account } from './ai-fixtures';

const n = (date: string) => dayNumber(date)!;
const project = (predicted: string, cadence: Parameters<typeof projectStream>[0]['cadence'], from: string, to: string, last = predicted) =>
  projectStream({ is_active: true, predicted_next_date: predicted, last_date: last, cadence }, n(from), n(to)).map(isoDate);

describe('projectStream', () => {
  test('monthly keeps the day of the month, clamped to short months', () => {
    expect(project('2026-01-31', 'monthly', '2026-01-01', '2026-04-30')).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
  });

  test('a month-end stream stays on month ends', () => {
    expect(project('2026-06-30', 'monthly', '2026-06-01', '2026-08-31', '2026-05-31')).toEqual(['2026-06-30', '2026-07-31', '2026-08-31']);
    expect(project('2026-06-30', 'monthly', '2026-06-01', '2026-08-31', '2026-05-30')).toEqual(['2026-06-30', '2026-07-30', '2026-08-30']);
    expect(project('2026-07-15', 'semi_monthly', '2026-07-02', '2026-08-31', '2026-06-30')).toEqual(['2026-07-15', '2026-07-31', '2026-08-15', '2026-08-31']);
  });

  test('weekly, biweekly, quarterly and annual steps', () => {
    expect(project('2026-07-03', 'weekly', '2026-07-02', '2026-07-20')).toEqual(['2026-07-03', '2026-07-10', '2026-07-17']);
    expect(project('2026-07-03', 'biweekly', '2026-07-02', '2026-07-31')).toEqual(['2026-07-03', '2026-07-17', '2026-07-31']);
    expect(project('2026-08-15', 'quarterly', '2026-07-02', '2027-03-01')).toEqual(['2026-08-15', '2026-11-15', '2027-02-15']);
    expect(project('2026-09-16', 'annual', '2026-07-02', '2028-01-01')).toEqual(['2026-09-16', '2027-09-16']);
  });

  test('semi-monthly on the two days of the last and the next occurrence', () => {
    expect(project('2026-07-15', 'semi_monthly', '2026-07-02', '2026-08-31', '2026-06-29')).toEqual(['2026-07-15', '2026-07-29', '2026-08-15', '2026-08-29']);
  });

  test('an overdue occurrence is expected at once; an inactive stream never', () => {
    expect(project('2026-06-28', 'monthly', '2026-07-02', '2026-08-31')).toEqual(['2026-07-02', '2026-07-28', '2026-08-28']);
    expect(projectStream({ is_active: false, predicted_next_date: '2026-07-05', last_date: '2026-06-05', cadence: 'monthly' }, n('2026-07-02'), n('2026-07-31'))).toEqual([]);
    expect(projectStream({ is_active: true, predicted_next_date: null, last_date: '2026-06-05', cadence: 'monthly' }, n('2026-07-02'), n('2026-07-31'))).toEqual([]);
  });
});

describe('ledger helpers', () => {
  test('money and rounding', () => {
    expect(money(1234.5, 'USD')).toBe('1,234.50 USD');
    expect(money(-0.004, 'EUR')).toBe('0.00 EUR');
    expect(money(-1000000, 'GBP')).toBe('-1,000,000.00 GBP');
    expect(round2(1.005)).toBe(1.01);
    expect(round2(-2.675)).toBe(-2.68);
  });

  test('what a row does to the money', () => {
    const row = (amount: number, category_detailed: string | null, name = 'X') => ({ amount, category_detailed, category: null, name });
    expect(flowOf(row(10, 'food_and_drink_coffee'))).toBe('spending');
    expect(flowOf(row(10, null))).toBe('spending');
    expect(flowOf(row(500, 'loan_payments_credit_card'))).toBe('card_payment');
    expect(flowOf(row(500, 'transfer_out_savings'))).toBe('transfer');
    expect(flowOf(row(60, 'transfer_out_cash_withdrawal'))).toBe('spending');
    expect(flowOf(row(-2000, 'income_wages'))).toBe('income');
    expect(flowOf(row(-20, 'income_refunds'))).toBe('refund');
    expect(flowOf(row(-2000, null, 'ACME DIRECT DEP'))).toBe('income');
    expect(flowOf(row(-50, 'transfer_in_p2p'))).toBe('transfer');
  });

  test('home currency: the depository accounts first, else the most common in the rows', () => {
    expect(homeCurrency([account('a', 'depository', 1, { currency: 'EUR' }), account('b', 'credit', 1)], [])).toBe('EUR');
    const rows = ['GBP', 'USD', 'GBP'].map((c) => ({ iso_currency_code: c }) as Parameters<typeof homeCurrency>[1][number]);
    expect(homeCurrency(null, rows)).toBe('GBP');
    expect(homeCurrency(null, [])).toBe('USD');
  });

  test('merchant labels: the merchant name, else the descriptor without codes', () => {
    expect(merchantLabel({ merchant_name: 'Netflix', name: 'NETFLIX.COM 866' })).toBe('Netflix');
    expect(merchantLabel({ merchant_name: null, name: 'CORNER MARKET #0042 SEATTLE' })).toBe('Corner Market Seattle');
  });
});

describe('response schemas', () => {
  test.each([
    'SubscriptionsResult',
    'CashflowResult',
    'HealthScoreResult',
    'FinancialSummaryResult',
    'FraudRiskResult',
    'PurchaseAnalysisResult',
    'WeeklyReportResult',
  ] as const)('%s: its documented example is a valid answer', (name) => {
    const schema = AiSchemas[name];
    const example = (z.globalRegistry.get(schema) as { example?: unknown } | undefined)?.example;
    expect(example).toBeDefined();
    expect(() => schema.parse(example)).not.toThrow();
  });
});
