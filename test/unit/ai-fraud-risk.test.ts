// /v1/ai/fraud-risk rules answer: each signal on a hand-built history with a known answer, the
// controls that must not fire, and a sandbox item.
import { FraudRiskResult } from '../../functions/contracts/ai-schemas';
import { fraudRiskRules } from '../../functions/core/ai/fraud-risk';
import type { TransactionRecord } from '../../functions/contracts/schemas';
import { CARD, addDays, transactionBuilder } from '../support/histories';
import { inputOf, rawPayload, rawRow, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';
type Txn = ReturnType<ReturnType<typeof transactionBuilder>>;

/**
 * Whole Foods every Sunday from 2026-01-05: 21 visits before the review period (2026-06-02 to
 * 2026-07-01) at 90, 100 and 110 in turn (median 100, median absolute deviation 10), then 100 a
 * week in the period, and a bakery on today.
 */
function base(txn: ReturnType<typeof transactionBuilder>): Txn[] {
  const rows: Txn[] = [];
  for (let k = 0; k < 21; k++) rows.push(txn(addDays('2026-01-05', 7 * k), [90, 100, 110][k % 3], 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }));
  for (const d of ['2026-06-08', '2026-06-15', '2026-06-22', '2026-06-29']) rows.push(txn(d, 100, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }));
  rows.push(txn(TODAY, 12.5, 'CORNER BAKERY 0031', { detailed: 'food_and_drink_restaurants' }));
  return rows;
}
const risk = (rows: readonly TransactionRecord[], today = TODAY) => FraudRiskResult.parse(fraudRiskRules(inputOf(today, rows)));

describe('fraudRiskRules: hand-built histories', () => {
  test('a quiet history: grade low, nothing flagged, the review period and history measured', () => {
    const result = risk(base(transactionBuilder(CARD)));
    expect(result).toMatchObject({
      grade: 'low',
      score: 0,
      signals: [],
      review_period: { start: '2026-06-02', end: TODAY, days: 30 },
      transactions_reviewed: 5,
      history_days: 148,
    });
  });

  test('a duplicate charge is flagged with both ids', () => {
    const txn = transactionBuilder(CARD);
    const a = txn('2026-06-20', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' });
    const b = txn('2026-06-20', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' });
    const result = risk([...base(txn), a, b]);
    expect(result.signals).toEqual([
      {
        type: 'duplicate_charge',
        severity: 'medium',
        transaction_ids: [a.transaction_id, b.transaction_id],
        merchant: 'Best Buy',
        amount: 89.99,
        iso_currency_code: 'USD',
        first_date: '2026-06-20',
        last_date: '2026-06-20',
        baseline: null,
        explanation: '2 charges of 89.99 USD at Best Buy within 2 days (2026-06-20 to 2026-06-20).',
      },
    ]);
    expect(result).toMatchObject({ grade: 'medium', score: 20 });
  });

  test('not duplicates: days apart, a pending copy beside its posted row, a second coffee', () => {
    const txn = transactionBuilder(CARD);
    const rows = [
      ...base(txn),
      txn('2026-06-10', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' }),
      txn('2026-06-15', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' }),
      txn('2026-06-20', 45, 'TARGET 00012', { merchant: 'Target', detailed: 'shopping_superstores' }),
      txn('2026-06-21', 45, 'TARGET 00012', { merchant: 'Target', detailed: 'shopping_superstores', pending: true }),
      txn('2026-06-24', 4.5, 'STARBUCKS STORE 0412', { merchant: 'Starbucks', detailed: 'food_and_drink_coffee' }),
      txn('2026-06-24', 4.5, 'STARBUCKS STORE 0412', { merchant: 'Starbucks', detailed: 'food_and_drink_coffee' }),
    ];
    expect(risk(rows).signals).toEqual([]);
  });

  test('an amount unusual for the merchant: robust z against its median and MAD', () => {
    const txn = transactionBuilder(CARD);
    const big = txn('2026-06-25', 640, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' });
    const result = risk([...base(txn), big]);
    expect(result.signals).toHaveLength(1);
    expect(result.signals[0]).toMatchObject({
      type: 'unusual_amount',
      severity: 'high',
      transaction_ids: [big.transaction_id],
      amount: 640,
      // 0.6745 * (640 - 100) / 10
      baseline: { median: 100, mad: 10, robust_z: 36.42, history_count: 21 },
    });
    expect(result.grade).toBe('high');
  });

  test('a price that rose a little is not unusual', () => {
    const txn = transactionBuilder(CARD);
    expect(risk([...base(txn), txn('2026-06-26', 130, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' })]).signals).toEqual([]);
  });

  test('card testing: four tiny charges within two days', () => {
    const txn = transactionBuilder(CARD);
    const tiny = [
      txn('2026-06-12', 1, 'APPLE.COM/BILL'),
      txn('2026-06-12', 0.5, 'GOOGLE *TEMPORARY HOLD'),
      txn('2026-06-13', 1.99, 'DIGITAL GOODS 8812'),
      txn('2026-06-13', 1, 'MSFT *STORE'),
    ];
    const result = risk([...base(txn), ...tiny]);
    expect(result.signals).toHaveLength(1);
    expect(result.signals[0]).toMatchObject({ type: 'card_testing', severity: 'medium', amount: 4.49, merchant: null, first_date: '2026-06-12', last_date: '2026-06-13' });
    expect([...result.signals[0].transaction_ids].sort()).toEqual(tiny.map((t) => t.transaction_id).sort());
    // two tiny charges are not a burst
    expect(risk([...base(transactionBuilder(CARD)), ...tiny.slice(0, 2)]).signals).toEqual([]);
  });

  test('a first purchase at a new merchant, far above the usual ceiling', () => {
    const txn = transactionBuilder(CARD);
    const watch = txn('2026-06-18', 4200, 'ROLEX BOUTIQUE NYC', { detailed: 'shopping_other' });
    const result = risk([...base(txn), watch]);
    expect(result.signals).toEqual([expect.objectContaining({ type: 'new_merchant_large_amount', severity: 'high', transaction_ids: [watch.transaction_id], amount: 4200 })]);
  });

  test('spending in a currency never seen before: one signal for the currency, with every row', () => {
    const txn = transactionBuilder(CARD);
    const hotel = txn('2026-06-22', 300, 'HOTEL LUTETIA PARIS', { detailed: 'travel_lodging', currency: 'EUR' });
    const cafe = txn('2026-06-23', 20, 'CAFE DE FLORE PARIS', { detailed: 'food_and_drink_coffee', currency: 'EUR' });
    const result = risk([...base(txn), hotel, cafe]);
    expect(result.signals).toEqual([
      expect.objectContaining({ type: 'new_currency', severity: 'low', iso_currency_code: 'EUR', amount: 320, transaction_ids: [hotel.transaction_id, cafe.transaction_id] }),
    ]);
    expect(result).toMatchObject({ grade: 'low', score: 5 });
  });

  test('all at once: ordered by severity then date, score capped at 100', () => {
    const txn = transactionBuilder(CARD);
    const rows = [
      ...base(txn),
      txn('2026-06-20', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' }),
      txn('2026-06-20', 89.99, 'BEST BUY 00012', { merchant: 'Best Buy', detailed: 'shopping_electronics' }),
      txn('2026-06-25', 640, 'WHOLEFDS MKT 10234', { merchant: 'Whole Foods Market', detailed: 'food_and_drink_groceries' }),
      txn('2026-06-12', 1, 'APPLE.COM/BILL'),
      txn('2026-06-12', 0.5, 'GOOGLE *TEMPORARY HOLD'),
      txn('2026-06-13', 1.99, 'DIGITAL GOODS 8812'),
      txn('2026-06-18', 4200, 'ROLEX BOUTIQUE NYC', { detailed: 'shopping_other' }),
      txn('2026-06-22', 300, 'HOTEL LUTETIA PARIS', { detailed: 'travel_lodging', currency: 'EUR' }),
    ];
    const result = risk(rows);
    expect(result.signals.map((s) => s.type)).toEqual(['unusual_amount', 'new_merchant_large_amount', 'duplicate_charge', 'card_testing', 'new_currency']);
    expect(result).toMatchObject({ grade: 'high', score: 100 });
    expect(risk(shuffled(rows))).toEqual(result);
  });

  test('a short raw payload has no history: no new-merchant or new-currency signals, duplicates still found', () => {
    const rows = [
      rawRow('a', 'ROLEX BOUTIQUE NYC', 4200, '2026-06-18'),
      rawRow('b', 'HOTEL LUTETIA PARIS', 300, '2026-06-19', 'EUR'),
      rawRow('c', 'BEST BUY 00012', 89.99, '2026-06-20'),
      rawRow('d', 'BEST BUY 00012', 89.99, '2026-06-21'),
    ];
    const result = risk(rows);
    expect(result.history_days).toBe(0);
    expect(result.signals.map((s) => [s.type, s.transaction_ids])).toEqual([['duplicate_charge', ['c', 'd']]]);
  });

  test('an old export is reviewed at its own latest date; no rows at all is low risk', () => {
    const old = risk([rawRow('a', 'TARGET 00012', 20, '2024-03-10'), rawRow('b', 'TARGET 00012', 25, '2024-03-31')]);
    expect(old.review_period).toEqual({ start: '2024-03-02', end: '2024-03-31', days: 30 });
    expect(old.transactions_reviewed).toBe(2);
    expect(risk([])).toMatchObject({ grade: 'low', score: 0, transactions_reviewed: 0, review_period: { end: TODAY } });
  });
});

describe('fraudRiskRules: a sandbox item and the largest raw payload', () => {
  const { input } = sandboxItem('user_good', TODAY);
  const result = FraudRiskResult.parse(fraudRiskRules(input));

  test('every flagged id is a reviewed transaction; the grade follows the score rule', () => {
    const byId = new Map(input.transactions.map((t) => [t.transaction_id, t]));
    for (const s of result.signals) {
      for (const id of s.transaction_ids) {
        const t = byId.get(id)!;
        expect(t.date >= result.review_period.start && t.date <= result.review_period.end).toBe(true);
      }
    }
    const points = result.signals.reduce((sum, s) => sum + ({ high: 40, medium: 20, low: 5 } as const)[s.severity], 0);
    expect(result.score).toBe(Math.min(100, points));
    expect(result.history_days).toBeGreaterThan(600);
  });

  test('deterministic: the same answer from any row order', () => {
    expect(fraudRiskRules({ ...input, transactions: shuffled(input.transactions) })).toEqual(result);
  });

  test('1,000 raw rows', () => {
    expect(FraudRiskResult.parse(fraudRiskRules(inputOf(TODAY, rawPayload(1000, TODAY)))).transactions_reviewed).toBeGreaterThan(0);
  });
});
