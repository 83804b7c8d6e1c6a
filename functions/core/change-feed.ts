// The transactions change feed, as pure functions over feed entries.
//
// Each item has a monotonically increasing change sequence. Every ingestion batch that changes
// something takes the next sequence number s and writes one *version entry* per changed
// transaction, keyed `<s, zero-padded>#<transaction_id>`, carrying the transaction's state after the
// change, the sequence at which the transaction was first added (`addedSeq`) and, for a removal, a
// tombstone. The entry it replaces is marked `supersededBy = s` (and expires after the retention
// window), and the new entry names it (`prevSeq`), so that the next writer can undo a commit that
// died before publishing. Readers never read past the item's committed sequence.
//
// A source may report again an id it once withdrew (a statement re-imported after a deleting
// correction, a bank un-voiding a pending). That is a fresh add: a new incarnation with
// `addedSeq = s` that supersedes the tombstone, and the spans during which earlier incarnations
// were current are kept on the entry (`earlier`), so a reader can tell whether its caller still
// holds the id.
//
// A sync session reads one snapshot `snap` (the committed sequence when the session started) from
// the caller's `base` (everything up to base was delivered). The caller holds a transaction iff it
// was current at base: base falls in its current incarnation (addedSeq <= base) or in an earlier
// one. For each entry in key order:
//   - superseded by a version inside the snapshot  -> skip (that later version is delivered)
//   - tombstone the caller does not hold           -> skip (the caller never saw it: rule 5)
//   - tombstone                                   -> removed
//   - the caller does not hold it                 -> added
//   - otherwise                                   -> modified
// Because a session delivers exactly the state at `snap`, a change that lands while the caller is
// paging can neither be lost nor cause a removal of a row the caller was never sent: it belongs to
// the next session, which starts from base = snap.
//
// Beside the versions, the feed keeps a *date-ordered view* of the current transactions (what
// /v1/transactions/get and the derived products read) with, per month, the number of current
// transactions per day and account and a digest of each day's content. The counts give
// `total_transactions` and turn a page offset into a start key without reading the rows before it;
// the digests let an ingestion find the few days a window batch changes without reading the rest.
// The pure parts of both live below (planPage, windowDays, applyPlacements).
import { createHash } from 'node:crypto';

export interface FeedEntry<T> {
  sk: string;
  txnId: string;
  seq: number;
  addedSeq: number;
  removed: boolean;
  supersededBy?: number;
  /** The sequence of the version this entry replaced (none for a first add). */
  prevSeq?: number;
  /**
   * The spans `[addedSeq, removedSeq)` during which earlier incarnations of this id were current,
   * oldest first: absent unless the id was removed and then reported again.
   */
  earlier?: Array<[number, number]>;
  txn?: T;
  /**
   * A removal's account (the removed version's): readers limited to some accounts filter removals
   * by it. Absent on removals written before it was recorded.
   */
  accountId?: string;
}

export type Delivery<T> = { kind: 'added' | 'modified'; txn: T } | { kind: 'removed'; txnId: string; accountId?: string };

const SEQ_WIDTH = 12;
const pad = (seq: number) => String(seq).padStart(SEQ_WIDTH, '0');

export function feedKey(seq: number, txnId: string): string {
  return `${pad(seq)}#${txnId}`;
}

/** Sort key after every entry of sequences <= seq. */
export function afterSequence(seq: number): string {
  return `${pad(seq)}#\uffff`;
}

/** Whether a caller whose state is the feed at `base` holds the entry's transaction (entry.seq > base). */
export function heldAt(entry: Pick<FeedEntry<unknown>, 'addedSeq' | 'earlier'>, base: number): boolean {
  return entry.addedSeq <= base || (entry.earlier ?? []).some(([from, until]) => from <= base && base < until);
}

export function classify<T>(entry: FeedEntry<T>, base: number, snap: number): Delivery<T> | null {
  if (entry.supersededBy !== undefined && entry.supersededBy <= snap) return null;
  const held = heldAt(entry, base);
  if (entry.removed) return held ? { kind: 'removed', txnId: entry.txnId, ...(entry.accountId !== undefined ? { accountId: entry.accountId } : {}) } : null;
  return { kind: held ? 'modified' : 'added', txn: entry.txn as T };
}

export interface PageProgress<T> {
  deliveries: Delivery<T>[];
  /** Sort key of the last entry consumed (delivered or skipped). */
  lastSk: string | null;
  /** A deliverable entry beyond this page exists. */
  full: boolean;
}

/**
 * Feeds entries (in key order, all inside the snapshot) into a page of at most `count` deliveries.
 * Returns false once the page is full and another deliverable entry was seen (so has_more is true).
 */
export function pageCollector<T>(base: number, snap: number, count: number) {
  const progress: PageProgress<T> = { deliveries: [], lastSk: null, full: false };
  return {
    progress,
    offer(entry: FeedEntry<T>): boolean {
      const delivery = classify(entry, base, snap);
      if (delivery && progress.deliveries.length === count) {
        progress.full = true;
        return false;
      }
      if (delivery) progress.deliveries.push(delivery);
      progress.lastSk = entry.sk;
      return true;
    },
  };
}

export interface TxnChange<T> {
  txnId: string;
  /** New state; undefined means removal. */
  txn?: T;
}

/** The `earlier` field to carry to a next version: absent when there is none. */
const earlierOf = (earlier: Array<[number, number]> | undefined) => (earlier?.length ? { earlier } : {});

export interface PlannedWrite<T> {
  entries: FeedEntry<T>[];
  superseded: FeedEntry<T>[];
}

/**
 * Plans one ingestion batch at sequence `seq` against the current (latest) entry per transaction.
 * Unchanged states and removals of unknown or already-removed transactions produce no entry, so
 * an idempotent re-ingestion commits nothing. A state for a removed transaction is a fresh add
 * (addedSeq = seq) that supersedes the tombstone and remembers the removed incarnation's span.
 */
export function planBatch<T>(
  current: ReadonlyMap<string, FeedEntry<T>>,
  changes: readonly TxnChange<T>[],
  seq: number,
  sameState: (a: T, b: T) => boolean,
): PlannedWrite<T> {
  const entries: FeedEntry<T>[] = [];
  const superseded: FeedEntry<T>[] = [];
  const seen = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.txnId)) throw new Error(`transaction ${change.txnId} appears twice in one batch`);
    seen.add(change.txnId);
    const prev = current.get(change.txnId);
    const sk = feedKey(seq, change.txnId);
    if (change.txn === undefined) {
      if (!prev || prev.removed) continue;
      entries.push({ sk, txnId: change.txnId, seq, addedSeq: prev.addedSeq, removed: true, prevSeq: prev.seq, ...earlierOf(prev.earlier) });
      superseded.push({ ...prev, supersededBy: seq });
      continue;
    }
    if (prev && !prev.removed && sameState(prev.txn as T, change.txn)) continue;
    if (prev?.removed) {
      const earlier: Array<[number, number]> = [...(prev.earlier ?? []), [prev.addedSeq, prev.seq]];
      entries.push({ sk, txnId: change.txnId, seq, addedSeq: seq, removed: false, txn: change.txn, prevSeq: prev.seq, earlier });
    } else {
      entries.push({ sk, txnId: change.txnId, seq, addedSeq: prev?.addedSeq ?? seq, removed: false, txn: change.txn, ...(prev ? { prevSeq: prev.seq, ...earlierOf(prev.earlier) } : {}) });
    }
    if (prev) superseded.push({ ...prev, supersededBy: seq });
  }
  return { entries, superseded };
}

// ---------- window batches ----------

/** What the window rule needs of a transaction. */
export interface WindowTxn {
  transaction_id: string;
  account_id: string;
  date: string;
}

/** The first date a window batch covers: its oldest transaction's (an empty window covers nothing). */
export function windowStartOf(source: readonly WindowTxn[]): string {
  return source.reduce((min, t) => (t.date < min ? t.date : min), '9999-12-31');
}

/**
 * The first date the window covers for each account it reports: that account's oldest transaction.
 * An account the batch reports nothing for is not in the window at all (its source was not read, or
 * had nothing): none of its rows is removed.
 */
export function windowStartsByAccount(source: readonly WindowTxn[]): Map<string, string> {
  const starts = new Map<string, string>();
  for (const t of source) {
    const start = starts.get(t.account_id);
    if (start === undefined || t.date < start) starts.set(t.account_id, t.date);
  }
  return starts;
}

/**
 * The changes a window batch means against what the feed holds: every transaction of the batch is
 * upserted (planBatch drops the unchanged ones), and a held transaction dated inside the window that
 * the batch no longer reports (a pending that never posted) is removed. The window is per account:
 * it starts at that account's oldest reported transaction, and an account the batch reports nothing
 * for keeps every row (windowStartsByAccount). Rows older than the window are history and stay.
 * `held` may be limited to the days where the batch differs from the feed, and `source` to the
 * transactions of those days, as long as `windowStart`, `reported` and `accountStarts` are the whole
 * batch's.
 */
export function windowChanges<T extends WindowTxn>(
  source: readonly T[],
  held: ReadonlyMap<string, { removed: boolean; txn?: T }>,
  windowStart: string = windowStartOf(source),
  reported: ReadonlySet<string> = new Set(source.map((t) => t.transaction_id)),
  accountStarts: ReadonlyMap<string, string> = windowStartsByAccount(source),
): TxnChange<T>[] {
  const changes: TxnChange<T>[] = source.map((txn) => ({ txnId: txn.transaction_id, txn }));
  for (const [txnId, entry] of held) {
    if (entry.removed || reported.has(txnId) || !entry.txn || entry.txn.date < windowStart) continue;
    const accountStart = accountStarts.get(entry.txn.account_id);
    if (accountStart !== undefined && entry.txn.date >= accountStart) changes.push({ txnId });
  }
  return changes;
}

// ---------- digests ----------

/** The digest of nothing: combining with it changes nothing. */
export const EMPTY_DIGEST = '0000000000000000';

/** A 64-bit digest of a transaction's field values, in a fixed field order. */
export function digestOf(values: readonly unknown[]): string {
  // undefined is not JSON: give it its own token so that it never hashes like null.
  const canonical = JSON.stringify(values.map((v) => (v === undefined ? { undefined: true } : v)));
  return createHash('sha256').update(canonical).digest('hex').slice(0, EMPTY_DIGEST.length);
}

/**
 * Combines digests order-independently (XOR), so a day's digest is maintained by combining in the
 * new state of a transaction and combining out the old one, without reading the day's other rows.
 */
export function combineDigests(a: string, b: string): string {
  return (BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(16).padStart(EMPTY_DIGEST.length, '0');
}

// ---------- per-month counts and digests of the date-ordered view ----------

export const monthOf = (date: string) => date.slice(0, 7);
const dayOf = (date: string) => date.slice(8, 10);

/** Where a current transaction sits in the date-ordered view. */
export interface Placement {
  date: string;
  accountId: string;
  digest: string;
}

/** A change of one transaction's place: absent `before` is an add, absent `after` a removal. */
export interface PlacementChange {
  before?: Placement;
  after?: Placement;
}

/** One day: the digest of its current transactions and how many each account has (by account index). */
export interface DaySummary {
  h: string;
  n: number[];
}

/** The days of one month as of a committed sequence; days without current transactions are absent. */
export interface MonthDays {
  seq: number;
  days: Record<string, DaySummary>;
}

export const emptyMonth = (): MonthDays => ({ seq: 0, days: {} });

/**
 * What a reader of the date-ordered view needs on every page: the committed sequence it describes,
 * the item's accounts (their index is their position here, and only grows), and per month
 * `[first day, last day, count of account 0, count of account 1, ...]`.
 */
export interface FeedStats {
  seq: number;
  accounts: string[];
  months: Record<string, number[]>;
}

export const emptyStats = (): FeedStats => ({ seq: 0, accounts: [], months: {} });

/**
 * Applies placement changes to the months they touch, as of sequence `seq`. `base` must hold the
 * current days of every month a change touches (emptyMonth() for a month with none). Returns the new
 * days of the touched months and the account list (new accounts appended).
 */
export function applyPlacements(
  base: ReadonlyMap<string, MonthDays>,
  accounts: readonly string[],
  changes: readonly PlacementChange[],
  seq: number,
): { months: Map<string, MonthDays>; accounts: string[] } {
  const accountList = [...accounts];
  const indexOf = (accountId: string) => {
    let i = accountList.indexOf(accountId);
    if (i < 0) i = accountList.push(accountId) - 1;
    return i;
  };
  const months = new Map<string, MonthDays>();
  const monthFor = (month: string) => {
    let m = months.get(month);
    if (!m) {
      const current = base.get(month);
      if (!current) throw new Error(`month ${month} was not loaded before applying changes to it`);
      m = { seq, days: Object.fromEntries(Object.entries(current.days).map(([d, s]) => [d, { h: s.h, n: [...s.n] }])) };
      months.set(month, m);
    }
    return m;
  };
  const apply = (p: Placement, sign: 1 | -1) => {
    const days = monthFor(monthOf(p.date)).days;
    const day = (days[dayOf(p.date)] ??= { h: EMPTY_DIGEST, n: [] });
    const i = indexOf(p.accountId);
    while (day.n.length <= i) day.n.push(0);
    day.n[i] += sign;
    if (day.n[i] < 0) throw new Error(`the counts of ${p.date} went negative: the view and the feed disagree`);
    day.h = combineDigests(day.h, p.digest);
    if (day.n.every((n) => n === 0)) delete days[dayOf(p.date)];
  };
  for (const change of changes) {
    if (change.before) apply(change.before, -1);
    if (change.after) apply(change.after, 1);
  }
  return { months, accounts: accountList };
}

/** The month's entry in FeedStats: `[first day, last day, ...count per account]`, or null when empty. */
export function monthSummary(month: MonthDays, accountCount: number): number[] | null {
  const days = Object.keys(month.days).sort();
  if (days.length === 0) return null;
  const counts = new Array<number>(accountCount).fill(0);
  for (const d of days) month.days[d].n.forEach((n, i) => (counts[i] += n));
  return [Number(days[0]), Number(days[days.length - 1]), ...counts];
}

export function monthDigest(month: MonthDays): string {
  return Object.values(month.days).reduce((h, d) => combineDigests(h, d.h), EMPTY_DIGEST);
}

/**
 * The version of a month row a reader at `committedSeq` must use: rows keep the version a commit
 * wrote and the one before it, so that a commit can write them before it publishes its sequence.
 * Null when both are newer (two commits landed since the reader took its snapshot: read again).
 */
export function monthAt(row: { v: MonthDays; prev?: MonthDays } | undefined, committedSeq: number): MonthDays | null {
  if (!row) return emptyMonth();
  if (row.v.seq <= committedSeq) return row.v;
  if (!row.prev) return emptyMonth();
  return row.prev.seq <= committedSeq ? row.prev : null;
}

// ---------- a window batch against the stored digests ----------

/** The digest of each day of a window batch (every day it reports is inside its window). */
export function dayDigestsOf<T extends WindowTxn>(source: readonly T[], digest: (t: T) => string): Map<string, string> {
  const days = new Map<string, string>();
  for (const t of source) days.set(t.date, combineDigests(days.get(t.date) ?? EMPTY_DIGEST, digest(t)));
  return days;
}

/**
 * Which days of the feed a window batch may change, found from digests alone. First call with the
 * month rows loaded so far: it answers which further month rows it needs (`load`). Then it answers
 * `read`, the days whose stored rows differ from the batch (read them to diff), and `plan`, the days
 * whose batch transactions must go through planBatch (the days read, and the days where the feed
 * holds nothing, whose transactions are new to that day). Every other day holds exactly what the
 * batch reports and is left alone.
 */
export function windowDays(
  batchDays: ReadonlyMap<string, string>,
  storedMonths: Readonly<Record<string, string>>,
  loaded: ReadonlyMap<string, MonthDays>,
  windowStart: string,
): { load: string[] } | { read: string[]; plan: Set<string> } {
  const batchMonths = new Map<string, string>();
  for (const [date, h] of batchDays) batchMonths.set(monthOf(date), combineDigests(batchMonths.get(monthOf(date)) ?? EMPTY_DIGEST, h));
  const firstMonth = monthOf(windowStart);
  // The window's first month may also hold days before the window: compare it day by day.
  const compare = Object.keys(storedMonths).filter(
    (m) => m >= firstMonth && storedMonths[m] !== EMPTY_DIGEST && (m === firstMonth || storedMonths[m] !== (batchMonths.get(m) ?? EMPTY_DIGEST)),
  );
  const load = compare.filter((m) => !loaded.has(m));
  if (load.length) return { load };
  const read: string[] = [];
  const plan = new Set<string>();
  const compared = new Set(compare);
  for (const m of compare) {
    const days = loaded.get(m)?.days ?? {};
    const dates = new Set([...Object.keys(days).map((d) => `${m}-${d}`), ...[...batchDays.keys()].filter((date) => monthOf(date) === m)]);
    for (const date of dates) {
      if (date < windowStart) continue;
      const stored = days[dayOf(date)]?.h ?? EMPTY_DIGEST;
      if (stored === (batchDays.get(date) ?? EMPTY_DIGEST)) continue;
      if (stored !== EMPTY_DIGEST) read.push(date);
      if (batchDays.has(date)) plan.add(date);
    }
  }
  for (const date of batchDays.keys()) {
    const m = monthOf(date);
    if (!compared.has(m) && (storedMonths[m] ?? EMPTY_DIGEST) === EMPTY_DIGEST) plan.add(date);
  }
  return { read: read.sort(), plan };
}

// ---------- a page of the date-ordered view ----------

export interface PageRequest {
  /** Inclusive dates, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Indexes (in FeedStats.accounts) of the accounts whose transactions count. */
  accounts: readonly number[];
  offset: number;
}

/** Where a page starts: skip `skip` matching rows of `day`, then take the page. */
export interface PageStart {
  day: string;
  skip: number;
}

/**
 * Plans one page of the date-ordered view (newest first) from the counts alone. Called first with the
 * month rows loaded so far, it answers which month rows it still needs (`load`: the edge months the
 * range only partly covers, and the month the offset falls in); then the total of matching rows and
 * where the page starts (null when the offset is past the end).
 */
export function planPage(stats: FeedStats, loaded: ReadonlyMap<string, MonthDays>, req: PageRequest): { load: string[] } | { total: number; start: PageStart | null } {
  const fromMonth = monthOf(req.from);
  const toMonth = monthOf(req.to);
  const countOf = (n: readonly number[]) => req.accounts.reduce((sum, i) => sum + (n[i] ?? 0), 0);
  const months = Object.keys(stats.months)
    .filter((m) => m >= fromMonth && m <= toMonth)
    .sort()
    .reverse();
  // Each month's matching rows, newest month first, with the days of the range inside it.
  const spans = months.map((m) => {
    const [first, last, ...counts] = stats.months[m];
    const lo = m === fromMonth ? Number(dayOf(req.from)) : 1;
    const hi = m === toMonth ? Number(dayOf(req.to)) : 31;
    const whole = lo <= first && hi >= last;
    const outside = hi < first || lo > last;
    return { m, lo, hi, whole, outside, counts };
  });
  const need = spans.filter((s) => !s.whole && !s.outside && !loaded.has(s.m)).map((s) => s.m);
  if (need.length) return { load: need };
  const daysIn = (s: (typeof spans)[number]) =>
    Object.entries(loaded.get(s.m)?.days ?? {})
      .filter(([d]) => Number(d) >= s.lo && Number(d) <= s.hi)
      .sort(([a], [b]) => (a < b ? 1 : -1));
  const totals = spans.map((s) => (s.outside ? 0 : s.whole ? countOf(s.counts) : daysIn(s).reduce((sum, [, day]) => sum + countOf(day.n), 0)));
  const total = totals.reduce((a, b) => a + b, 0);
  if (req.offset >= total) return { total, start: null };
  let before = 0;
  for (let i = 0; i < spans.length; i += 1) {
    if (before + totals[i] <= req.offset) {
      before += totals[i];
      continue;
    }
    const s = spans[i];
    const within = req.offset - before;
    // The page starts at the month's newest day in range: no need to know its days.
    if (within === 0) return { total, start: { day: `${s.m}-${String(s.hi).padStart(2, '0')}`, skip: 0 } };
    if (!loaded.has(s.m)) return { load: [s.m] };
    let seen = 0;
    for (const [d, day] of daysIn(s)) {
      const here = countOf(day.n);
      if (seen + here > within) return { total, start: { day: `${s.m}-${d}`, skip: within - seen } };
      seen += here;
    }
  }
  throw new Error('the month counts and their days disagree');
}

/** Consecutive days of the view to read with one Query, as inclusive dates (`from` the older). */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The days a page of some accounts' rows reads, when those accounts hold few of the item's rows: from
 * the page's first day back to the request's `from`, only the days holding selected rows, until
 * `wanted` selected rows are covered (the rows to skip on the first day and the page). Two such days
 * share one range when the other accounts' rows between them are at most `joinBelowRows` (reading
 * through them costs less than another Query). Months without selected rows are known from the
 * counts alone; the others need their month rows (`load`, asked for a few at a time).
 */
export function pageDayRanges(
  stats: FeedStats,
  loaded: ReadonlyMap<string, MonthDays>,
  req: Pick<PageRequest, 'from' | 'accounts'>,
  start: PageStart,
  wanted: number,
  joinBelowRows: number,
): { load: string[] } | { ranges: DayRange[] } {
  const countOf = (n: readonly number[]) => req.accounts.reduce((sum, i) => sum + (n[i] ?? 0), 0);
  const sumOf = (n: readonly number[]) => n.reduce((a, b) => a + (b ?? 0), 0);
  const months = Object.keys(stats.months)
    .filter((m) => m >= monthOf(req.from) && m <= monthOf(start.day))
    .sort()
    .reverse();
  const ranges: DayRange[] = [];
  let covered = 0;
  let gap = Infinity;
  for (let i = 0; i < months.length && covered < wanted; i += 1) {
    const m = months[i];
    const [, , ...counts] = stats.months[m];
    if (countOf(counts) === 0) {
      gap += sumOf(counts);
      continue;
    }
    const month = loaded.get(m);
    if (!month) {
      // This month and the next ones likely to hold the rest of the page, in one read.
      const load: string[] = [];
      let expected = covered;
      for (let j = i; j < months.length && (load.length === 0 || expected < wanted) && load.length < MONTHS_PER_LOAD; j += 1) {
        const [, , ...c] = stats.months[months[j]];
        if (countOf(c) > 0 && !loaded.has(months[j])) load.push(months[j]);
        expected += countOf(c);
      }
      return { load };
    }
    const days = Object.entries(month.days)
      .map(([d, day]) => [`${m}-${d}`, day] as const)
      .filter(([date]) => date >= req.from && date <= start.day)
      .sort(([a], [b]) => (a < b ? 1 : -1));
    for (const [date, day] of days) {
      const selected = countOf(day.n);
      if (selected === 0) {
        gap += sumOf(day.n);
        continue;
      }
      const open = ranges[ranges.length - 1];
      if (open && gap <= joinBelowRows) open.from = date;
      else ranges.push({ from: date, to: date });
      gap = 0;
      covered += selected;
      if (covered >= wanted) break;
    }
  }
  return { ranges };
}

/** Month rows a page of a few accounts asks for in one read, at most. */
const MONTHS_PER_LOAD = 25;
