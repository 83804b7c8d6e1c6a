// The transactions change feed, as pure functions over feed entries.
//
// Each item has a monotonically increasing change sequence. Every ingestion batch that changes
// something takes the next sequence number s and writes one *version entry* per changed
// transaction, keyed `<s, zero-padded>#<transaction_id>`, carrying the transaction's state after the
// change, the sequence at which the transaction was first added (`addedSeq`) and, for a removal, a
// tombstone. The entry it replaces is marked `supersededBy = s` (and expires after the retention
// window). Readers never read past the item's committed sequence.
//
// A sync session reads one snapshot `snap` (the committed sequence when the session started) from
// the caller's `base` (everything up to base was delivered). For each entry in key order:
//   - superseded by a version inside the snapshot  -> skip (that later version is delivered)
//   - tombstone first added after base            -> skip (the caller never saw it: rule 5)
//   - tombstone                                   -> removed
//   - first added after base                      -> added
//   - otherwise                                   -> modified
// Because a session delivers exactly the state at `snap`, a change that lands while the caller is
// paging can neither be lost nor cause a removal of a row the caller was never sent: it belongs to
// the next session, which starts from base = snap.

export interface FeedEntry<T> {
  sk: string;
  txnId: string;
  seq: number;
  addedSeq: number;
  removed: boolean;
  supersededBy?: number;
  txn?: T;
}

export type Delivery<T> = { kind: 'added' | 'modified'; txn: T } | { kind: 'removed'; txnId: string };

const SEQ_WIDTH = 12;
const pad = (seq: number) => String(seq).padStart(SEQ_WIDTH, '0');

export function feedKey(seq: number, txnId: string): string {
  return `${pad(seq)}#${txnId}`;
}

/** Sort key after every entry of sequences <= seq. */
export function afterSequence(seq: number): string {
  return `${pad(seq)}#\uffff`;
}

export function classify<T>(entry: FeedEntry<T>, base: number, snap: number): Delivery<T> | null {
  if (entry.supersededBy !== undefined && entry.supersededBy <= snap) return null;
  if (entry.removed) return entry.addedSeq > base ? null : { kind: 'removed', txnId: entry.txnId };
  return { kind: entry.addedSeq > base ? 'added' : 'modified', txn: entry.txn as T };
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

export interface PlannedWrite<T> {
  entries: FeedEntry<T>[];
  superseded: FeedEntry<T>[];
}

/**
 * Plans one ingestion batch at sequence `seq` against the current (latest) entry per transaction.
 * Unchanged states and removals of unknown or already-removed transactions produce no entry, so
 * an idempotent re-ingestion commits nothing.
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
    if (change.txn === undefined) {
      if (!prev || prev.removed) continue;
      entries.push({ sk: feedKey(seq, change.txnId), txnId: change.txnId, seq, addedSeq: prev.addedSeq, removed: true });
      superseded.push({ ...prev, supersededBy: seq });
      continue;
    }
    if (prev && !prev.removed && sameState(prev.txn as T, change.txn)) continue;
    if (prev && prev.removed) throw new Error(`transaction ${change.txnId} was removed and cannot come back; use a new id`);
    entries.push({ sk: feedKey(seq, change.txnId), txnId: change.txnId, seq, addedSeq: prev?.addedSeq ?? seq, removed: false, txn: change.txn });
    if (prev) superseded.push({ ...prev, supersededBy: seq });
  }
  return { entries, superseded };
}

/**
 * The latest entry per transaction, from all retained entries. When a crashed writer left two
 * unsuperseded versions of one transaction, the newest wins and the older ones are returned as
 * repairs for the next batch to mark superseded.
 */
export function latestEntries<T>(all: readonly FeedEntry<T>[]): { latest: Map<string, FeedEntry<T>>; repairs: FeedEntry<T>[] } {
  const latest = new Map<string, FeedEntry<T>>();
  const repairs: FeedEntry<T>[] = [];
  for (const entry of all) {
    if (entry.supersededBy !== undefined) continue;
    const prev = latest.get(entry.txnId);
    if (!prev || prev.seq < entry.seq) {
      if (prev) repairs.push({ ...prev, supersededBy: entry.seq });
      latest.set(entry.txnId, entry);
    } else {
      repairs.push({ ...entry, supersededBy: prev.seq });
    }
  }
  return { latest, repairs };
}
