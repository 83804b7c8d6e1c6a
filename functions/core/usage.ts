// When a monthly quota's use crosses 80% and then 95%, a usage.limit_approaching event fires.
// Counters move by exactly one per admitted request (one atomic write), so "the request that made
// the counter equal the threshold" happens exactly once per month per quota per threshold.

export const USAGE_THRESHOLDS_PERCENT = [80, 95] as const;

export function crossedThreshold(used: number, quota: number | null): number | null {
  if (quota === null || quota <= 0) return null;
  return USAGE_THRESHOLDS_PERCENT.find((pct) => used === Math.ceil((quota * pct) / 100)) ?? null;
}
