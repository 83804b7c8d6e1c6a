// Token bucket per key, expressed as GCRA (generic cell rate algorithm) so that one DynamoDB
// conditional update can both check and consume a token without reading first.
//
// With rate r per second, emission interval T = 1000/r ms and burst capacity B = 3r tokens, the
// state is `tat` (theoretical arrival time, ms). A request at `now` is allowed iff
// max(tat, now) - now <= (B - 1) * T; it then moves tat to max(tat, now) + T. We store
// `gate = tat - (B - 1) * T` beside tat so the check is a plain comparison: gate <= now.
import { LIMITS, monthlyQuotaResetAt, PLANS, type PlanName } from '../contracts/limits';

export interface BucketParameters {
  ratePerSecond: number;
  burst: number;
  intervalMs: number;
  /** (B - 1) * T: how far ahead of now `tat` may run. */
  toleranceMs: number;
}

export function bucketFor(plan: PlanName): BucketParameters {
  const ratePerSecond = PLANS[plan].ratePerSecond;
  const burst = ratePerSecond * LIMITS.burstMultiplier;
  const intervalMs = 1000 / ratePerSecond;
  return { ratePerSecond, burst, intervalMs, toleranceMs: (burst - 1) * intervalMs };
}

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Unix seconds at which the bucket is full again. */
  reset: number;
}

/** Headers after a request moved the bucket to `tat`. */
export function headersAfter(bucket: BucketParameters, tat: number, now: number): RateLimitHeaders {
  const headroomMs = now + bucket.toleranceMs + bucket.intervalMs - tat;
  const remaining = Math.max(0, Math.min(bucket.burst, Math.floor(headroomMs / bucket.intervalMs + 1e-9)));
  return { limit: bucket.ratePerSecond, remaining, reset: Math.ceil(Math.max(tat, now) / 1000) };
}

/** Seconds until a refused request would be allowed (never below 1). */
export function retryAfterSeconds(gate: number, now: number): number {
  return Math.max(1, Math.ceil((gate - now) / 1000));
}

/** Seconds until the first of next month, UTC, when monthly quotas reset. */
export function secondsUntilMonthlyReset(now: number): number {
  return Math.max(1, Math.ceil((monthlyQuotaResetAt(now) - now) / 1000));
}
