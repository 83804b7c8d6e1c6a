// When an item is refreshed on the schedule, and the math of the refresh-due index.
//
// Cadence: the plan's (functions/contracts/limits.ts PLAN_REFRESH_HOURS), unless the stage overrides
// it (STAGE_REFRESH_CADENCE), and never more often than MIN_SCHEDULED_REFRESH_HOURS. Declared here,
// not in lib/stage-config.ts, because the functions need it at run time (they pick their stage's
// entry by FC_STAGE); the stack's configuration shows the same entry.
//
// Index: every healthy item has one refresh-due row (functions/data/items-repo.ts) whose GSI entry
// sits in one of REFRESH_DUE_SHARDS partitions, ordered by when the item is due. The sweep reads
// only the entries whose time has come, so its cost follows the number of due items, not the table.
import { PLAN_NAMES, PLAN_REFRESH_HOURS, type PlanName } from '../contracts/limits';
import type { RuntimeStage } from '../contracts/stages';
import { shardOf } from './shards';

const HOUR_MS = 3_600_000;

/**
 * The floor no cadence goes below, for every connector (the connector port declares no minimum of
 * its own). Unattended access to a bank account is limited to four times in 24 hours under PSD2
 * (RTS on strong customer authentication, Art. 36(5)(b)), and institutions post transactions in
 * batches a few times a day: refreshing more often costs provider calls and finds nothing new.
 * What a user does right now is picked up by on-demand `/v1/items/refresh` and webhooks instead.
 */
export const MIN_SCHEDULED_REFRESH_HOURS = 6;

export interface StageRefreshCadence {
  /** Hours between scheduled refreshes for every plan on this stage, instead of the plan's cadence. */
  everyPlanHours?: number;
}

export const STAGE_REFRESH_CADENCE: Record<RuntimeStage, StageRefreshCadence> = {
  // Nothing runs the schedule locally; rows written there use the plans' cadence.
  local: {},
  // Simulated data that advances one step per refresh: every plan every 6 hours, as before.
  sandbox: { everyPlanHours: 6 },
  production: {},
};

/** Hours between two scheduled refreshes of an item of `plan` on `stage`. */
export function refreshIntervalHours(stage: RuntimeStage, plan: PlanName): number {
  return Math.max(MIN_SCHEDULED_REFRESH_HOURS, STAGE_REFRESH_CADENCE[stage].everyPlanHours ?? PLAN_REFRESH_HOURS[plan]);
}

export function refreshIntervalMs(stage: RuntimeStage, plan: PlanName): number {
  return refreshIntervalHours(stage, plan) * HOUR_MS;
}

/**
 * The interval before the first scheduled refresh of an item that has just become healthy, where
 * the caller names no due time (Link names one: due at once, its queued job doing the work). The
 * plan is not at hand where that happens, so it is the stage's shortest cadence; the refresh worker
 * then schedules the item on its plan's cadence.
 */
export function firstRefreshIntervalMs(stage: RuntimeStage): number {
  return Math.min(...PLAN_NAMES.map((plan) => refreshIntervalMs(stage, plan)));
}

/** Partitions of the refresh-due index: enough that no one partition's write rate gets near its limit. */
export const REFRESH_DUE_SHARDS = 16;

/** The shard of an item's due entry: stable for the item, spread evenly over the shards. */
export function refreshDueShard(itemId: string): number {
  return shardOf(itemId, REFRESH_DUE_SHARDS);
}

/** Every shard, for the sweep. */
export function refreshDueShards(): number[] {
  return Array.from({ length: REFRESH_DUE_SHARDS }, (_, shard) => shard);
}

/** Milliseconds zero-padded to a fixed width, so that string order is time order. */
export function paddedTime(ms: number): string {
  return String(ms).padStart(15, '0');
}

/** Sort key of an item's due entry: due time first, the item id keeps entries unique. */
export function refreshDueSortKey(dueAt: number, itemId: string): string {
  return `${paddedTime(dueAt)}#${itemId}`;
}

/** Every due entry at or before `now` sorts strictly below this. */
export function refreshDueUpperBound(now: number): string {
  return paddedTime(now + 1);
}
