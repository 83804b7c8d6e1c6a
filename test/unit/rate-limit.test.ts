import { LIMITS, PLAN_NAMES } from '../../functions/contracts/limits';
import {
  bucketFor,
  headersAfter,
  keyHeaders,
  MAX_METERING_SHARDS,
  retryAfterSeconds,
  secondsUntilMonthlyReset,
  shardBucketFor,
  shardsFor,
} from '../../functions/core/rate-limit';

describe('the token bucket parameters', () => {
  it('gives every plan a burst of three times its rate', () => {
    expect(bucketFor('free')).toMatchObject({ ratePerSecond: 10, burst: 30, intervalMs: 100, toleranceMs: 2900 });
    expect(bucketFor('enterprise')).toMatchObject({ ratePerSecond: 1000, burst: 3000, intervalMs: 1 });
  });

  it('reports a full bucket minus one after the first request', () => {
    const b = bucketFor('free');
    const now = 1_000_000;
    expect(headersAfter(b, now + b.intervalMs, now)).toEqual({ limit: 10, remaining: 29, reset: Math.ceil((now + 100) / 1000) });
  });

  it('reports zero remaining when the burst is spent, never a negative number', () => {
    const b = bucketFor('free');
    const now = 5_000_000;
    expect(headersAfter(b, now + 30 * b.intervalMs, now).remaining).toBe(0);
    expect(headersAfter(b, now + 40 * b.intervalMs, now).remaining).toBe(0);
  });

  it('refills one token per interval', () => {
    const b = bucketFor('free');
    const now = 5_000_000;
    const tat = now + 30 * b.intervalMs;
    expect(headersAfter(b, tat, now + 250).remaining).toBe(2);
  });

  it('asks to retry no sooner than one second later', () => {
    expect(retryAfterSeconds(1000, 999)).toBe(1);
    expect(retryAfterSeconds(5500, 1000)).toBe(5);
  });

  it('resets monthly quotas on the first of next month, UTC', () => {
    const now = Date.UTC(2026, 10, 30, 23, 59, 0);
    expect(secondsUntilMonthlyReset(now)).toBe(60);
  });
});

describe('metering shards', () => {
  const perShardBudget = LIMITS.partitionWritesPerSecond * LIMITS.meteringShardShareOfPartition;

  it('keeps each shard within its share of a partition at the full burst, with as few shards as that allows', () => {
    for (const plan of PLAN_NAMES) {
      const shards = shardsFor(plan);
      expect(bucketFor(plan).burst / shards).toBeLessThanOrEqual(perShardBudget);
      if (shards > 1) expect(bucketFor(plan).burst / (shards - 1)).toBeGreaterThan(perShardBudget);
    }
    expect(PLAN_NAMES.map(shardsFor)).toEqual([1, 1, 2, 10]);
    expect(MAX_METERING_SHARDS).toBe(10);
  });

  it('splits the plan bucket evenly: a one-shard plan keeps the plan bucket', () => {
    expect(shardBucketFor('free')).toEqual(bucketFor('free'));
    expect(shardBucketFor('startup')).toEqual(bucketFor('startup'));
    expect(shardBucketFor('growth')).toMatchObject({ ratePerSecond: 100, burst: 300, intervalMs: 10, toleranceMs: 2990 });
    expect(shardBucketFor('enterprise')).toMatchObject({ ratePerSecond: 100, burst: 300, intervalMs: 10 });
  });

  it('reports a one-shard key exactly as its one bucket', () => {
    const now = 7_000_000;
    for (const tat of [0, now - 5000, now + 100, now + 2900, now + 4000]) {
      expect(keyHeaders('free', [tat], now)).toEqual(headersAfter(bucketFor('free'), tat, now));
    }
  });

  it('sums the tokens left in every shard (a shard never seen counts full) and resets when the last shard is full', () => {
    const now = 7_000_000;
    const shard = shardBucketFor('enterprise');
    const tats = Array.from({ length: 10 }, (_, i) => (i < 3 ? now + 50 * shard.intervalMs : undefined));
    expect(keyHeaders('enterprise', tats, now)).toEqual({ limit: 1000, remaining: 3000 - 150, reset: Math.ceil((now + 50 * shard.intervalMs) / 1000) });
    const spent = Array.from({ length: 10 }, () => now + 300 * shard.intervalMs);
    expect(keyHeaders('enterprise', spent, now).remaining).toBe(0);
    expect(keyHeaders('enterprise', spent, now + 1000).remaining).toBe(1000);
  });
});
