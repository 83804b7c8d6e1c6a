// Token bucket per key, expressed as GCRA (generic cell rate algorithm) so that one DynamoDB
// conditional update can both check and consume a token without reading first.
//
// With rate r per second, emission interval T = 1000/r ms and burst capacity B = 3r tokens, the
// state is `tat` (theoretical arrival time, ms). A request at `now` is allowed iff
// max(tat, now) - now <= (B - 1) * T; it then moves tat to max(tat, now) + T. We store
// `gate = tat - (B - 1) * T` beside tat so the check is a plain comparison: gate <= now. Both only
// ever grow, so "gate > now" seen once stays true at that `now`: a bucket seen empty is empty.
//
// Sharding: one DynamoDB item takes at most one partition's writes (LIMITS.partitionWritesPerSecond),
// below what an enterprise key bursts to. A key's bucket is therefore split into `shardsFor(plan)`
// equal buckets (rate r/N, burst B/N), each on its own row in its own partition; a request is
// admitted by any shard that has a token, so the key as a whole admits exactly what one bucket of
// rate r and burst B would, as long as requests are refused only once every shard is empty.
import { LIMITS, monthlyQuotaResetAt, PLANS, type PlanName } from '../contracts/limits';

export interface BucketParameters {
  ratePerSecond: number;
  burst: number;
  intervalMs: number;
  /** (B - 1) * T: how far ahead of now `tat` may run. */
  toleranceMs: number;
}

function bucket(ratePerSecond: number): BucketParameters {
  const burst = ratePerSecond * LIMITS.burstMultiplier;
  const intervalMs = 1000 / ratePerSecond;
  return { ratePerSecond, burst, intervalMs, toleranceMs: (burst - 1) * intervalMs };
}

/** The key's bucket as the plan states it (what X-RateLimit-Limit reports). */
export function bucketFor(plan: PlanName): BucketParameters {
  return bucket(PLANS[plan].ratePerSecond);
}

/**
 * How many metering shards a key of this plan has: the fewest that keep each shard's share of the
 * plan's full burst within its share of one partition. Free and Startup: 1 (the key row alone);
 * Growth: 2; Enterprise: 10 (3,000 burst writes/s, 300 per shard).
 */
export function shardsFor(plan: PlanName): number {
  const perShardBudget = LIMITS.partitionWritesPerSecond * LIMITS.meteringShardShareOfPartition;
  return Math.max(1, Math.ceil(bucketFor(plan).burst / perShardBudget));
}

/** The most shards any plan has: every shard row a key can have had, whatever its plan history. */
export const MAX_METERING_SHARDS = Math.max(...(Object.keys(PLANS) as PlanName[]).map(shardsFor));

/** One shard's bucket: 1/N of the plan's rate and burst. With one shard, the plan's bucket. */
export function shardBucketFor(plan: PlanName): BucketParameters {
  return bucket(PLANS[plan].ratePerSecond / shardsFor(plan));
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

/**
 * The key's headers from each shard's `tat` (index = shard; undefined = never seen, so full): the
 * tokens left in all shards together, the plan's rate, and when the last shard is full again. With
 * one shard this is exactly `headersAfter(bucketFor(plan), tat, now)`.
 */
export function keyHeaders(plan: PlanName, shardTats: ReadonlyArray<number | undefined>, now: number): RateLimitHeaders {
  const shard = shardBucketFor(plan);
  let remaining = 0;
  let fullAgainAt = now;
  for (const tat of shardTats) {
    remaining += headersAfter(shard, tat ?? 0, now).remaining;
    fullAgainAt = Math.max(fullAgainAt, tat ?? 0);
  }
  return { limit: PLANS[plan].ratePerSecond, remaining: Math.min(bucketFor(plan).burst, remaining), reset: Math.ceil(fullAgainAt / 1000) };
}

/** Seconds until a refused request would be allowed (never below 1). */
export function retryAfterSeconds(gate: number, now: number): number {
  return Math.max(1, Math.ceil((gate - now) / 1000));
}

/** Seconds until the first of next month, UTC, when monthly quotas reset. */
export function secondsUntilMonthlyReset(now: number): number {
  return Math.max(1, Math.ceil((monthlyQuotaResetAt(now) - now) / 1000));
}
