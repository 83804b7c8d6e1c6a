// The pure parts of the transactions feed's date-ordered view: counts, digests, page planning and the
// window diff from digests, each checked against a brute-force model.
import fc from 'fast-check';
import {
  applyPlacements,
  combineDigests,
  dayDigestsOf,
  digestOf,
  EMPTY_DIGEST,
  emptyMonth,
  emptyStats,
  monthAt,
  monthDigest,
  monthOf,
  monthSummary,
  planBatch,
  planPage,
  windowChanges,
  windowStartsByAccount,
  windowDays,
  windowStartOf,
  type FeedEntry,
  type FeedStats,
  type MonthDays,
  type PageRequest,
} from '../../functions/core/change-feed';

interface Row {
  transaction_id: string;
  date: string;
  account_id: string;
  amount: number;
}

const ACCOUNTS = ['acct_a', 'acct_b', 'acct_c'];
const digest = (r: Row) => digestOf([r.transaction_id, r.date, r.account_id, r.amount]);
const placement = (r: Row) => ({ date: r.date, accountId: r.account_id, digest: digest(r) });

/** The view's months and stats for a set of current rows, built through applyPlacements. */
function viewOf(rows: readonly Row[], seq = 1): { stats: FeedStats; months: Map<string, MonthDays>; digests: Record<string, string> } {
  const base = new Map(rows.map((r) => [monthOf(r.date), emptyMonth()]));
  const applied = applyPlacements(base, [], rows.map((r) => ({ after: placement(r) })), seq);
  const stats: FeedStats = { ...emptyStats(), seq, accounts: applied.accounts };
  const digests: Record<string, string> = {};
  for (const [m, days] of applied.months) {
    const summary = monthSummary(days, applied.accounts.length);
    if (summary) {
      stats.months[m] = summary;
      digests[m] = monthDigest(days);
    }
  }
  return { stats, months: applied.months, digests };
}

/** planPage driven to its answer, loading months from `months` as it asks. */
function runPlan(stats: FeedStats, months: ReadonlyMap<string, MonthDays>, req: PageRequest) {
  const loaded = new Map<string, MonthDays>();
  for (;;) {
    const plan = planPage(stats, loaded, req);
    if (!('load' in plan)) return { plan, loads: loaded.size };
    for (const m of plan.load) loaded.set(m, months.get(m) ?? emptyMonth());
  }
}

const dateArb = fc.record({ m: fc.integer({ min: 1, max: 14 }), d: fc.integer({ min: 1, max: 28 }) }).map(({ m, d }) => {
  const y = 2025 + Math.floor((m - 1) / 12);
  return `${y}-${String(((m - 1) % 12) + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
});
const rowsArb = fc
  .array(fc.record({ date: dateArb, account: fc.integer({ min: 0, max: 2 }), amount: fc.integer({ min: 1, max: 50 }) }), { maxLength: 120 })
  .map((rs) => rs.map((r, i): Row => ({ transaction_id: `txn_${String(i).padStart(4, '0')}`, date: r.date, account_id: ACCOUNTS[r.account], amount: r.amount })));

describe('digests', () => {
  it('combine order-independently, and combining a digest out again restores the day', () => {
    const a = digestOf(['txn_1', 4.5]);
    const b = digestOf(['txn_2', 9]);
    expect(combineDigests(a, b)).toBe(combineDigests(b, a));
    expect(combineDigests(combineDigests(a, b), b)).toBe(a);
    expect(combineDigests(a, a)).toBe(EMPTY_DIGEST);
  });

  it('tell a missing field from a null one', () => {
    expect(digestOf([undefined])).not.toBe(digestOf([null]));
  });
});

describe('per-month counts', () => {
  it('count rows per day and account, and return to nothing when every row is removed', () => {
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const { stats, months } = viewOf(rows);
        for (const [m, summary] of Object.entries(stats.months)) {
          const inMonth = rows.filter((r) => monthOf(r.date) === m);
          const [first, last, ...counts] = summary;
          expect(first).toBe(Math.min(...inMonth.map((r) => Number(r.date.slice(8)))));
          expect(last).toBe(Math.max(...inMonth.map((r) => Number(r.date.slice(8)))));
          expect(counts).toEqual(stats.accounts.map((a) => inMonth.filter((r) => r.account_id === a).length));
        }
        const undone = applyPlacements(months, stats.accounts, rows.map((r) => ({ before: placement(r) })), 2);
        for (const days of undone.months.values()) expect(days.days).toEqual({});
      }),
    );
  });

  it('refuse to count below zero (the view and the feed would disagree)', () => {
    expect(() => applyPlacements(new Map([['2026-01', emptyMonth()]]), [], [{ before: { date: '2026-01-02', accountId: 'a', digest: EMPTY_DIGEST } }], 1)).toThrow(/negative/);
  });

  it('give a reader the version of a month row as of its snapshot', () => {
    const v1: MonthDays = { seq: 3, days: {} };
    const v2: MonthDays = { seq: 5, days: { '01': { h: EMPTY_DIGEST, n: [1] } } };
    expect(monthAt({ v: v2, prev: v1 }, 5)).toBe(v2);
    expect(monthAt({ v: v2, prev: v1 }, 4)).toBe(v1);
    expect(monthAt({ v: v2, prev: { seq: 4, days: {} } }, 3)).toBeNull();
    expect(monthAt(undefined, 9)).toEqual(emptyMonth());
  });
});

describe('planning a page of the date-ordered view', () => {
  it('finds the total and the first row of any page from the counts, as sorting every row would', () => {
    fc.assert(
      fc.property(
        rowsArb,
        dateArb,
        dateArb,
        fc.subarray([0, 1, 2], { minLength: 1 }),
        fc.integer({ min: 0, max: 130 }),
        (rows, a, b, accountIdx, offset) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const { stats, months } = viewOf(rows);
          const wanted = accountIdx.map((i) => ACCOUNTS[i]);
          const accounts = stats.accounts.flatMap((id, i) => (wanted.includes(id) ? [i] : []));
          const { plan } = runPlan(stats, months, { from, to, accounts, offset });
          const matching = rows.filter((r) => r.date >= from && r.date <= to && wanted.includes(r.account_id));
          expect(plan.total).toBe(matching.length);
          if (offset >= matching.length) {
            expect(plan.start).toBeNull();
            return;
          }
          const start = plan.start!;
          expect(start.day <= to).toBe(true);
          // Everything newer than the start day is exactly what the offset skips, less the rows skipped on that day.
          expect(matching.filter((r) => r.date > start.day).length + start.skip).toBe(offset);
          // A start inside a day names a real day; a start at zero may be just the upper bound of a month.
          if (start.skip > 0) expect(matching.filter((r) => r.date === start.day).length).toBeGreaterThan(start.skip);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('needs no month row for the first page of a range that covers whole months', () => {
    const rows: Row[] = Array.from({ length: 60 }, (_, i) => ({ transaction_id: `t${i}`, date: `2026-0${1 + (i % 6)}-1${i % 9}`, account_id: 'acct_a', amount: i }));
    const { stats, months } = viewOf(rows);
    const first = runPlan(stats, months, { from: '2026-01-01', to: '2026-12-31', accounts: [0], offset: 0 });
    expect(first.loads).toBe(0);
    expect(first.plan).toEqual({ total: 60, start: { day: '2026-06-31', skip: 0 } });
    // A later page reads the one month its offset falls in.
    expect(runPlan(stats, months, { from: '2026-01-01', to: '2026-12-31', accounts: [0], offset: 15 }).loads).toBe(1);
  });
});

describe('a window batch against the stored digests', () => {
  const feedOf = (rows: readonly Row[]) =>
    new Map<string, FeedEntry<Row>>(rows.map((r) => [r.transaction_id, { sk: r.transaction_id, txnId: r.transaction_id, seq: 1, addedSeq: 1, removed: false, txn: r }]));
  const same = (a: Row, b: Row) => a.date === b.date && a.amount === b.amount && a.account_id === b.account_id;
  const effect = (entries: FeedEntry<Row>[]) => entries.map((e) => [e.txnId, e.removed, e.txn?.date, e.txn?.amount]).sort();

  it('plans exactly what diffing the whole feed would, reading only the days that differ', () => {
    fc.assert(
      fc.property(
        rowsArb,
        fc.array(fc.record({ kind: fc.constantFrom('keep', 'edit', 'move', 'drop'), i: fc.nat() }), { maxLength: 40 }),
        fc.array(dateArb, { maxLength: 5 }),
        (stored, edits, newDates) => {
          if (stored.length === 0) return;
          const batch = new Map(stored.map((r) => [r.transaction_id, r]));
          for (const e of edits) {
            const r = stored[e.i % stored.length];
            if (e.kind === 'edit') batch.set(r.transaction_id, { ...r, amount: r.amount + 1 });
            if (e.kind === 'move') batch.set(r.transaction_id, { ...r, date: newDates[0] ?? r.date });
            if (e.kind === 'drop') batch.delete(r.transaction_id);
          }
          newDates.forEach((date, i) => batch.set(`txn_new_${i}`, { transaction_id: `txn_new_${i}`, date, account_id: 'acct_b', amount: 7 }));
          const source = [...batch.values()];
          const feed = feedOf(stored);
          const whole = planBatch(feed, windowChanges(source, feed), 2, same).entries;

          const { months, digests } = viewOf(stored);
          const windowStart = windowStartOf(source);
          const batchDays = dayDigestsOf(source, digest);
          const loaded = new Map<string, MonthDays>();
          let days = windowDays(batchDays, digests, loaded, windowStart);
          while ('load' in days) {
            for (const m of days.load) loaded.set(m, months.get(m) ?? emptyMonth());
            days = windowDays(batchDays, digests, loaded, windowStart);
          }
          const read = new Set(days.read);
          const held = feedOf(stored.filter((r) => read.has(r.date)));
          const candidates = source.filter((t) => days.plan.has(t.date));
          // What the directory would answer for the candidates not found on the days read.
          const elsewhere = feedOf(stored.filter((r) => candidates.some((c) => c.transaction_id === r.transaction_id) && !held.has(r.transaction_id)));
          const reported = new Set(source.map((t) => t.transaction_id));
          const targeted = planBatch(new Map([...held, ...elsewhere]), windowChanges(candidates, held, windowStart, reported, windowStartsByAccount(source)), 2, same).entries;
          expect(effect(targeted)).toEqual(effect(whole));
          // Days that hold exactly what the batch reports are never read.
          for (const day of read) {
            const storedDay = stored.filter((r) => r.date === day).map(digest).reduce(combineDigests, EMPTY_DIGEST);
            expect(storedDay).not.toBe(batchDays.get(day) ?? EMPTY_DIGEST);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads nothing when the batch reports what the feed holds', () => {
    const stored: Row[] = Array.from({ length: 40 }, (_, i) => ({ transaction_id: `t${i}`, date: `2026-0${1 + (i % 5)}-0${1 + (i % 9)}`, account_id: 'acct_a', amount: i }));
    const { months, digests } = viewOf(stored);
    const batchDays = dayDigestsOf(stored, digest);
    const windowStart = windowStartOf(stored);
    const first = windowDays(batchDays, digests, new Map(), windowStart);
    // Only the window's first month is compared day by day (it may hold days before the window).
    expect(first).toEqual({ load: ['2026-01'] });
    expect(windowDays(batchDays, digests, new Map([['2026-01', months.get('2026-01')!]]), windowStart)).toEqual({ read: [], plan: new Set() });
  });
});

describe('planning a batch', () => {
  it('names the version each new entry replaces, so an unpublished commit can be undone', () => {
    const prev: FeedEntry<Row> = { sk: 'x', txnId: 't1', seq: 4, addedSeq: 2, removed: false, txn: { transaction_id: 't1', date: '2026-01-01', account_id: 'a', amount: 1 } };
    const plan = planBatch(new Map([['t1', prev]]), [{ txnId: 't1', txn: { ...prev.txn!, amount: 2 } }, { txnId: 't2', txn: { ...prev.txn!, transaction_id: 't2' } }], 7, (a, b) => a.amount === b.amount);
    expect(plan.entries.map((e) => [e.txnId, e.prevSeq])).toEqual([
      ['t1', 4],
      ['t2', undefined],
    ]);
  });
});

describe('the window rule is per account', () => {
  const row = (id: string, account: string, date: string) => ({ transaction_id: id, account_id: account, date });
  const held = new Map(
    [row('a1', 'A', '2026-01-05'), row('a2', 'A', '2026-01-10'), row('b1', 'B', '2026-01-07'), row('a0', 'A', '2025-12-01')].map((t) => [t.transaction_id, { removed: false, txn: t }]),
  );

  it('removes what an account it reports no longer has, and never touches an account it reports nothing for', () => {
    // The source read account A from 2026-01-05 and did not read B at all.
    const removed = windowChanges([row('a1', 'A', '2026-01-05')], held)
      .filter((c) => !('txn' in c) || c.txn === undefined)
      .map((c) => c.txnId);
    expect(removed).toEqual(['a2']);
  });

  it('starts each account\u2019s window at that account\u2019s oldest reported row', () => {
    // B is read from 2026-01-08 only: its row of 2026-01-07 is older than its window and stays.
    const removed = windowChanges([row('a1', 'A', '2026-01-05'), row('b2', 'B', '2026-01-08')], held)
      .filter((c) => !('txn' in c) || c.txn === undefined)
      .map((c) => c.txnId);
    expect(removed).toEqual(['a2']);
  });
});
