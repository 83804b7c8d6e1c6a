import { bucketFor, headersAfter, retryAfterSeconds, secondsUntilMonthlyReset } from '../../functions/core/rate-limit';

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
