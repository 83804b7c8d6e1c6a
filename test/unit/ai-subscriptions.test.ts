// /v1/ai/subscriptions rules answer: known answers on hand-built histories and on a sandbox item.
import { SubscriptionsResult } from '../../functions/contracts/ai-schemas';
import { subscriptionsRules } from '../../functions/core/ai/subscriptions';
import { detectRecurring } from '../../functions/core/recurring';
import { CARD, CHECKING, months, transactionBuilder, ymd } from '../support/histories';
import { inputOf, rawPayload, sandboxItem, shuffled } from './ai-fixtures';

const TODAY = '2026-07-01';
const answer = (rows: Parameters<typeof inputOf>[1], today = TODAY) => SubscriptionsResult.parse(subscriptionsRules(inputOf(today, rows)));

describe('subscriptionsRules: hand-built histories', () => {
  test('a 9.99 monthly subscription costs 119.88 a year, 9.99 a month, next on its day of the month', () => {
    const txn = transactionBuilder(CARD);
    const rows = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 5), 9.99, 'SPOTIFY USA', { merchant: 'Spotify', detailed: 'entertainment_streaming' }));
    const result = answer(rows);
    expect(result.subscriptions).toHaveLength(1);
    expect(result.subscriptions[0]).toMatchObject({
      merchant: 'Spotify',
      cadence: 'monthly',
      last_amount: 9.99,
      monthly_cost: 9.99,
      annual_cost: 119.88,
      next_date: '2026-07-05',
      charge_count: 6,
      likely_unused: false,
      reason: null,
      price_change: null,
      signals: [],
    });
    expect(result.subscriptions[0].transaction_ids.sort()).toEqual(rows.map((t) => t.transaction_id).sort());
    expect(result.totals).toEqual([{ iso_currency_code: 'USD', count: 1, monthly_cost: 9.99, annual_cost: 119.88, likely_unused_annual_cost: 0 }]);
    expect(result.savings_notes).toEqual([]);
  });

  test('the same service on two accounts: the newer stream is flagged unused, with a note saving its annual cost', () => {
    const txn = transactionBuilder(CARD);
    const older = months(2025, 7, 12).map(([y, m]) => txn(ymd(y, m, 10), 11.99, 'SPOTIFY USA', { merchant: 'Spotify', detailed: 'entertainment_streaming' }));
    const newer = months(2026, 2, 5).map(([y, m]) =>
      txn(ymd(y, m, 20), 11.99, 'SPOTIFY USA', { merchant: 'Spotify', detailed: 'entertainment_streaming', account: CHECKING }),
    );
    const result = answer([...older, ...newer]);
    expect(result.subscriptions).toHaveLength(2);
    const flagged = result.subscriptions.filter((s) => s.likely_unused);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ account_id: CHECKING, first_date: '2026-02-20' });
    expect(flagged[0].reason).toContain('charged twice');
    expect(flagged[0].signals[0]).toMatchObject({ code: 'duplicate_subscription', counts_as_unused: true });
    expect(result.savings_notes).toEqual([
      expect.objectContaining({ code: 'cancel_duplicate', stream_ids: [flagged[0].stream_id], potential_annual_savings: 143.88 }),
    ]);
    expect(result.totals[0]).toMatchObject({ count: 2, annual_cost: 287.76, monthly_cost: 23.98, likely_unused_annual_cost: 143.88 });
  });

  describe('a shopping membership with no purchases at its merchant', () => {
    const build = (lastPurchase: string) => {
      const txn = transactionBuilder(CARD);
      const prime = months(2025, 7, 12).map(([y, m]) => txn(ymd(y, m, 3), 14.99, 'AMAZON PRIME*K29LA3', { merchant: 'Amazon', detailed: 'shopping_online_marketplaces' }));
      const purchases = [
        txn('2025-08-14', 42.17, 'AMAZON.COM*RT5KZ1', { merchant: 'Amazon', detailed: 'shopping_online_marketplaces' }),
        txn('2025-11-02', 18.5, 'AMAZON.COM*PL0QW2', { merchant: 'Amazon', detailed: 'shopping_online_marketplaces' }),
        txn(lastPurchase, 63.2, 'AMAZON.COM*MM83J4', { merchant: 'Amazon', detailed: 'shopping_online_marketplaces' }),
      ];
      return answer([...prime, ...purchases]);
    };

    test('no purchase for 90 days: likely unused, with a note to cancel', () => {
      const result = build('2026-02-01');
      expect(result.subscriptions).toHaveLength(1);
      const prime = result.subscriptions[0];
      expect(prime).toMatchObject({ merchant: 'Amazon', annual_cost: 179.88, likely_unused: true });
      expect(prime.signals.map((s) => s.code)).toEqual(['no_related_activity']);
      expect(prime.reason).toContain('since 2026-02-01');
      expect(result.savings_notes).toEqual([expect.objectContaining({ code: 'cancel_unused', potential_annual_savings: 179.88 })]);
    });

    test('a purchase within 90 days: in use', () => {
      const result = build('2026-06-15');
      expect(result.subscriptions[0].likely_unused).toBe(false);
      expect(result.subscriptions[0].signals).toEqual([]);
    });
  });

  test('content subscriptions are never called unused for lack of purchases', () => {
    const txn = transactionBuilder(CARD);
    const rows = months(2025, 7, 12).map(([y, m]) => txn(ymd(y, m, 8), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' }));
    expect(answer(rows).subscriptions[0].likely_unused).toBe(false);
  });

  test('three streaming services overlap: a note saving all but the dearest, but none flagged unused', () => {
    const txn = transactionBuilder(CARD);
    const rows = months(2026, 1, 6).flatMap(([y, m]) => [
      txn(ymd(y, m, 4), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' }),
      txn(ymd(y, m, 11), 7.99, 'HULU 877-8244858', { merchant: 'Hulu', detailed: 'entertainment_streaming' }),
      txn(ymd(y, m, 18), 13.99, 'DISNEY PLUS', { merchant: 'Disney+', detailed: 'entertainment_streaming' }),
    ]);
    const result = answer(rows);
    expect(result.subscriptions.map((s) => s.merchant)).toEqual(['Netflix', 'Disney+', 'Hulu']);
    for (const s of result.subscriptions) {
      expect(s.likely_unused).toBe(false);
      expect(s.signals).toEqual([expect.objectContaining({ code: 'overlapping_services', counts_as_unused: false })]);
    }
    expect(result.savings_notes).toHaveLength(1);
    expect(result.savings_notes[0]).toMatchObject({ code: 'consolidate_overlap', potential_annual_savings: 263.76 });
    expect(result.savings_notes[0].stream_ids).toEqual(result.subscriptions.map((s) => s.stream_id).sort());
    expect(result.totals[0]).toMatchObject({ count: 3, annual_cost: 449.64, monthly_cost: 37.47 });
  });

  test('a price rise: the change, the current price in the annual cost, and what it adds a year', () => {
    const txn = transactionBuilder(CARD);
    const rows = months(2025, 12, 7).map(([y, m], i) =>
      txn(ymd(y, m, 15), i < 4 ? 15.49 : 17.99, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' }),
    );
    const [netflix] = answer(rows).subscriptions;
    expect(netflix.price_change).toEqual({ from: 15.49, to: 17.99, change_pct: 16.14, date: '2026-04-15' });
    expect(netflix.annual_cost).toBe(215.88);
    expect(netflix.signals).toEqual([expect.objectContaining({ code: 'price_increase', counts_as_unused: false })]);
    expect(answer(rows).savings_notes).toEqual([expect.objectContaining({ code: 'price_increase', potential_annual_savings: 30 })]);
  });

  test('a subscription that stopped months ago is not a paid subscription', () => {
    const txn = transactionBuilder(CARD);
    const rows = months(2025, 1, 8).map(([y, m]) => txn(ymd(y, m, 5), 9.99, 'SPOTIFY USA', { merchant: 'Spotify', detailed: 'entertainment_streaming' }));
    expect(answer(rows).subscriptions).toEqual([]);
  });

  test('edge cases: no rows, only inflows, and a stream in another currency totalled apart', () => {
    expect(answer([])).toEqual({ subscriptions: [], totals: [], savings_notes: [] });
    const txn = transactionBuilder(CHECKING);
    const pay = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 1), -2500, 'PAYROLL ACME CORP', { detailed: 'income_wages' }));
    expect(answer(pay).subscriptions).toEqual([]);
    const eur = months(2026, 1, 6).map(([y, m]) =>
      txn(ymd(y, m, 9), 12.99, 'SPOTIFY AB STOCKHOLM', { merchant: 'Spotify', detailed: 'entertainment_streaming', currency: 'EUR' }),
    );
    const usd = months(2026, 1, 6).map(([y, m]) => txn(ymd(y, m, 12), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming' }));
    const result = answer([...eur, ...usd]);
    expect(result.totals).toEqual([
      { iso_currency_code: 'USD', count: 1, monthly_cost: 15.49, annual_cost: 185.88, likely_unused_annual_cost: 0 },
      { iso_currency_code: 'EUR', count: 1, monthly_cost: 12.99, annual_cost: 155.88, likely_unused_annual_cost: 0 },
    ]);
    // one of each currency is no overlap
    expect(result.savings_notes).toEqual([]);
  });
});

describe('subscriptionsRules: a sandbox item', () => {
  const { input, transactions } = sandboxItem('user_good', TODAY);
  const result = subscriptionsRules(input);

  test('every active subscription stream, priced at its latest charge, ordered by annual cost', () => {
    expect(SubscriptionsResult.parse(result)).toEqual(result);
    const streams = detectRecurring(transactions, TODAY).filter((s) => s.kind === 'subscription' && s.direction === 'outflow' && s.is_active);
    expect(streams.length).toBeGreaterThanOrEqual(3);
    expect(result.subscriptions.map((s) => s.stream_id).sort()).toEqual(streams.map((s) => s.stream_id).sort());
    const perYear = { weekly: 52, biweekly: 26, semi_monthly: 24, monthly: 12, quarterly: 4, annual: 1 } as const;
    for (const s of result.subscriptions) expect(s.annual_cost).toBeCloseTo(s.last_amount * perYear[s.cadence], 2);
    const costs = result.subscriptions.map((s) => s.annual_cost);
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const annual = result.subscriptions.reduce((sum, s) => sum + s.annual_cost, 0);
    expect(result.totals[0].annual_cost).toBeCloseTo(annual, 2);
  });

  test('the same answer from stored streams and from any row order', () => {
    expect(subscriptionsRules({ ...input, recurring: detectRecurring(transactions, TODAY) })).toEqual(result);
    expect(subscriptionsRules({ ...input, transactions: shuffled(transactions) })).toEqual(result);
  });

  test('a raw payload of 1,000 rows, without accounts', () => {
    const rows = rawPayload(1000, TODAY);
    const raw = SubscriptionsResult.parse(subscriptionsRules(inputOf(TODAY, rows)));
    for (const s of raw.subscriptions) expect(s.transaction_ids.every((id) => rows.some((r) => r.transaction_id === id))).toBe(true);
  });
});
