// The cadence of scheduled refreshes (per plan, per stage, never below the floor) and the math of the
// refresh-due index (shard of an item, sort keys whose string order is time order, the "due by now"
// bound the sweep queries with).
import { PLAN_NAMES, PLAN_REFRESH_HOURS } from '../../functions/contracts/limits';
import { DEPLOYED_STAGES, RUNTIME_STAGES } from '../../functions/contracts/stages';
import {
  firstRefreshIntervalMs,
  MIN_SCHEDULED_REFRESH_HOURS,
  REFRESH_DUE_SHARDS,
  refreshDueShard,
  refreshDueShards,
  refreshDueSortKey,
  refreshDueUpperBound,
  refreshIntervalHours,
  refreshIntervalMs,
  STAGE_REFRESH_CADENCE,
} from '../../functions/core/refresh-schedule';
import { keys } from '../../functions/data/keys';

const HOUR = 3_600_000;

describe('the refresh cadence', () => {
  it("is the plan's on production and locally, slower for smaller plans, a few times a day at most", () => {
    for (const stage of ['production', 'local'] as const) {
      expect(PLAN_NAMES.map((plan) => refreshIntervalHours(stage, plan))).toEqual([24, 12, 8, 6]);
      for (const plan of PLAN_NAMES) expect(refreshIntervalMs(stage, plan)).toBe(PLAN_REFRESH_HOURS[plan] * HOUR);
    }
  });

  it('is the same for every plan on the sandbox stage (its override)', () => {
    for (const plan of PLAN_NAMES) expect(refreshIntervalHours('sandbox', plan)).toBe(STAGE_REFRESH_CADENCE.sandbox.everyPlanHours);
  });

  it('never goes below the floor, whatever a plan or a stage asks for', () => {
    expect(MIN_SCHEDULED_REFRESH_HOURS).toBeGreaterThanOrEqual(6);
    for (const stage of RUNTIME_STAGES) for (const plan of PLAN_NAMES) expect(refreshIntervalHours(stage, plan)).toBeGreaterThanOrEqual(MIN_SCHEDULED_REFRESH_HOURS);
    const saved = STAGE_REFRESH_CADENCE.production.everyPlanHours;
    try {
      STAGE_REFRESH_CADENCE.production.everyPlanHours = 1;
      expect(refreshIntervalHours('production', 'enterprise')).toBe(MIN_SCHEDULED_REFRESH_HOURS);
    } finally {
      STAGE_REFRESH_CADENCE.production.everyPlanHours = saved;
    }
  });

  it("puts an item that just became healthy on the stage's shortest cadence until a refresh reads its plan", () => {
    expect(firstRefreshIntervalMs('production')).toBe(6 * HOUR);
    expect(firstRefreshIntervalMs('sandbox')).toBe(refreshIntervalMs('sandbox', 'free'));
    for (const stage of DEPLOYED_STAGES) for (const plan of PLAN_NAMES) expect(firstRefreshIntervalMs(stage)).toBeLessThanOrEqual(refreshIntervalMs(stage, plan));
  });
});

describe('the refresh-due index', () => {
  it('gives an item one stable shard, and spreads items over every shard', () => {
    expect(refreshDueShard('item_abc')).toBe(refreshDueShard('item_abc'));
    const counts = new Array<number>(REFRESH_DUE_SHARDS).fill(0);
    for (let i = 0; i < 16_000; i += 1) counts[refreshDueShard(`item_${i.toString(36)}`)] += 1;
    expect(refreshDueShards()).toEqual(counts.map((_, shard) => shard));
    // 1,000 expected per shard: none near empty, none hot.
    expect(Math.min(...counts)).toBeGreaterThan(850);
    expect(Math.max(...counts)).toBeLessThan(1150);
  });

  it('orders entries by due time as strings, whatever the number of digits', () => {
    const times = [5, 999, 1_000, 1_700_000_000_000, 1_800_000_000_000, 99_999_999_999_999];
    const sortKeys = times.map((t, i) => refreshDueSortKey(t, `item_${'z'.repeat(6 - i)}`));
    expect([...sortKeys].sort()).toEqual(sortKeys);
  });

  it('bounds "due at or before now": an entry due at now is in, one due a millisecond later is out', () => {
    const now = Date.UTC(2026, 10, 21, 12);
    expect(refreshDueSortKey(now, 'item_a') < refreshDueUpperBound(now)).toBe(true);
    expect(refreshDueSortKey(now - 1, 'item_zzzzzzzz') < refreshDueUpperBound(now)).toBe(true);
    expect(refreshDueSortKey(now + 1, 'item_a') < refreshDueUpperBound(now)).toBe(false);
  });

  it("keys an item's row in the item's own partition and its index entry under its shard", () => {
    expect(keys.refreshDue('item_a')).toEqual({ pk: keys.item('item_a').pk, sk: 'REFRESHDUE' });
    expect(keys.itemPartitions('item_a')).toContain(keys.refreshDue('item_a').pk);
    expect(keys.refreshDueEntry('item_a', 42)).toEqual({ gsi1pk: `DUE#${refreshDueShard('item_a')}`, gsi1sk: refreshDueSortKey(42, 'item_a') });
    expect(keys.refreshDueBefore(3, 42)).toEqual({ gsi1pk: 'DUE#3', gsi1skBefore: refreshDueUpperBound(42) });
  });
});
