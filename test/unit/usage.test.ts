import fc from 'fast-check';
import { PLANS } from '../../functions/contracts/limits';
import { allotmentChunk, borrowFor, crossedThreshold, type Borrow } from '../../functions/core/usage';

describe('usage thresholds', () => {
  it('sits on 80 % and 95 % of a quota, rounded up, and nowhere else', () => {
    expect(crossedThreshold(8_000, 10_000)).toBe(80);
    expect(crossedThreshold(9_500, 10_000)).toBe(95);
    expect(crossedThreshold(8_001, 10_000)).toBeNull();
    expect(crossedThreshold(10_000, 10_000)).toBeNull();
    expect(crossedThreshold(8, 9)).toBe(80);
    expect(crossedThreshold(5, null)).toBeNull();
  });
});

describe('borrowing quota units for a metering shard', () => {
  const quota = 10_000;

  it('lends a shard one second of its share of the plan rate at a time', () => {
    expect(allotmentChunk('growth')).toBe(100);
    expect(allotmentChunk('free')).toBe(PLANS.free.ratePerSecond);
  });

  it('borrows the wanted units while the count stays short of the next threshold', () => {
    expect(borrowFor(1_000, quota, 100)).toEqual({ units: 100, committedAtMost: 8_000 - 101, reaches: null });
  });

  it('takes exactly the units up to a threshold from exactly the count it knows, and says so', () => {
    expect(borrowFor(7_950, quota, 100)).toEqual({ units: 50, committedExactly: 7_950, reaches: 80 });
    expect(borrowFor(9_499, quota, 100)).toEqual({ units: 1, committedExactly: 9_499, reaches: 95 });
    expect(borrowFor(9_990, quota, 100)).toEqual({ units: 10, committedExactly: 9_990, reaches: null });
  });

  it('lends nothing once the count is at the quota', () => {
    expect(borrowFor(quota, quota, 100)).toBeNull();
    expect(borrowFor(quota + 3, quota, 100)).toBeNull();
  });

  /** The count after a borrow made from a count seen at `known`, when the count is really `actual`; null when its condition fails. */
  function apply(borrow: Borrow, actual: number): number | null {
    const holds = borrow.committedExactly !== undefined ? actual === borrow.committedExactly : actual <= borrow.committedAtMost;
    return holds ? actual + borrow.units : null;
  }

  it('never lets the count pass the quota, and every write that reaches a threshold ends on it and says so, however writers race', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.record({ borrow: fc.boolean(), stale: fc.nat(20), wanted: fc.integer({ min: 1, max: 60 }) }), { minLength: 1, maxLength: 400 }),
        (smallQuota, writes) => {
          const thresholds = [...new Set([80, 95].map((pct) => Math.ceil((smallQuota * pct) / 100)))];
          let count = 0;
          const announced: number[] = [];
          for (const w of writes) {
            const before = count;
            let said: number | null = null;
            if (w.borrow) {
              // A writer that saw the count a little while ago (never above what it is now).
              const borrow = borrowFor(Math.max(0, count - w.stale), smallQuota, w.wanted);
              const after = borrow ? apply(borrow, count) : null;
              if (after === null) continue;
              count = after;
              said = borrow!.reaches;
            } else if (count < smallQuota) {
              count += 1; // the ApiKey row's own +1 step
              said = crossedThreshold(count, smallQuota);
            }
            expect(count).toBeLessThanOrEqual(smallQuota);
            const passed = thresholds.filter((at) => before < at && at <= count);
            expect(passed.length).toBeLessThanOrEqual(1);
            if (passed.length === 1) {
              expect(count).toBe(passed[0]);
              expect(said).toBe(crossedThreshold(passed[0], smallQuota));
              announced.push(passed[0]);
            } else {
              expect(said).toBeNull();
            }
          }
          // The count only grows: each threshold it reached was announced by exactly one write.
          expect(announced).toEqual(thresholds.filter((at) => at <= count));
        },
      ),
    );
  });
});
