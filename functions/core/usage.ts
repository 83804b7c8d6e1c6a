// Monthly quotas and the usage.limit_approaching thresholds (80 % and 95 % of a quota).
//
// A key's month has one committed count per quota, on its key row: every unit admitted on the key
// row itself (+1 per request, as on a one-shard key), plus every unit lent to another metering shard
// ahead of use (a chunk at a time, see `borrowFor`). Units are only ever admitted out of the committed
// count (a shard admits only while it has lent units left), and the count never exceeds the quota,
// so no month admits more than its quota and no request is counted twice.
//
// A threshold fires on the one write that moves the committed count onto it. +1 steps land on every
// value; a borrow either stops short of the next threshold or ends exactly on it from a known count,
// so each threshold is reached by exactly one write (and one admitted request) per month.
import { shardBucketFor } from './rate-limit';
import type { PlanName } from '../contracts/limits';

export const USAGE_THRESHOLDS_PERCENT = [80, 95] as const;

/** The threshold (percent) a committed count of `used` sits exactly on, if any. */
export function crossedThreshold(used: number, quota: number | null): number | null {
  if (quota === null || quota <= 0) return null;
  return USAGE_THRESHOLDS_PERCENT.find((pct) => used === Math.ceil((quota * pct) / 100)) ?? null;
}

/** The committed counts a borrow may not step over: each threshold, and the quota itself. */
function boundaries(quota: number): number[] {
  const counts = USAGE_THRESHOLDS_PERCENT.map((pct) => Math.ceil((quota * pct) / 100));
  return [...new Set([...counts, quota])].sort((a, b) => a - b);
}

/**
 * How many units a shard asks for when it runs out: one second of its share of the plan's rate, so
 * the key row sees about one borrow per shard per second at full load and little is left lent out
 * when the month's quota runs dry.
 */
export function allotmentChunk(plan: PlanName): number {
  return Math.max(1, Math.ceil(shardBucketFor(plan).ratePerSecond));
}

/**
 * A borrow of `units` from the committed count, valid only while the count is what the condition
 * says (the writer checks it atomically with the borrow).
 */
export type Borrow =
  | { units: number; committedAtMost: number; committedExactly?: undefined; reaches: null }
  | { units: number; committedExactly: number; committedAtMost?: undefined; reaches: number | null };

/**
 * The borrow to make when the committed count is at least `committed` (a count seen earlier: it
 * only grows), or null when nothing is left. Short of the next boundary (threshold or quota), the
 * borrow is `wanted` units under the condition that the count is still low enough not to reach it.
 * Otherwise it takes exactly the units up to the boundary from exactly `committed`: that write is
 * then known to be the one that reached it (`reaches`: the threshold's percent, null for the quota).
 */
export function borrowFor(committed: number, quota: number, wanted: number): Borrow | null {
  if (committed >= quota || wanted < 1) return null;
  const next = boundaries(quota).find((count) => count > committed)!;
  if (committed + wanted < next) return { units: wanted, committedAtMost: next - wanted - 1, reaches: null };
  return { units: next - committed, committedExactly: committed, reaches: crossedThreshold(next, quota) };
}
