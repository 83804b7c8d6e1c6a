// The transactions change feed in DynamoDB (design: functions/core/change-feed.ts).
// Writers for one item are serialised by a lease on the item row and publish `committed_seq` only
// after their rows are written; readers never read past it.
//
// Rows of one item, all in its feed partition (keys.ts):
// - version entries `<seq>#<txn>`: what /v1/transactions/sync pages through;
// - the date-ordered view `D#<date>#<txn>#<seq>`: one row per version that is or was current, with
//   the sequence that made it current (`seq`) and, once replaced or removed, the one that ended it
//   (`until`). A reader at committed sequence C keeps the rows with seq <= C < until, so the rows a
//   commit writes before publishing are invisible until it publishes. Ended rows are deleted by a
//   later commit once no reader can still be on a snapshot that sees them (VIEW_GRACE_MS);
// - month rows `M#<yyyy-mm>`: per day, the current rows per account and a digest of the day; each
//   keeps the version its last commit wrote and the one before, for the same reason;
// - `STATS` (per month counts: total_transactions and page offsets without reading rows) and
//   `DIGEST` (per month digests, ended rows awaiting deletion), written in the publishing
//   transaction itself;
// - the directory `X#<bucket>`: transaction id -> current date and sequence (or removed), so a
//   change batch finds the current version of each id it names.
//
// A writer that dies after writing some rows leaves them beyond committed_seq; the next writer
// undoes them from the version entries (which are written first and name the versions they
// replace) before it plans its own batch.
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandOutput,
  isConditionalCheckFailed,
} from '../platform/aws/dynamodb';
import { createHash } from 'node:crypto';
import {
  afterSequence,
  applyPlacements,
  dayDigestsOf,
  digestOf,
  emptyMonth,
  emptyStats,
  feedKey,
  monthAt,
  monthDigest,
  monthOf,
  monthSummary,
  pageCollector,
  pageDayRanges,
  planBatch,
  planPage,
  windowChanges,
  windowDays,
  windowStartOf,
  windowStartsByAccount,
  type DayRange,
  type Delivery,
  type FeedEntry,
  type FeedStats,
  type MonthDays,
  type Placement,
  type PlacementChange,
  type TxnChange,
} from '../core/change-feed';
import { Transaction, type TransactionRecord } from '../contracts/schemas';
import type { Deps } from '../platform/runtime';
import { writeRows, type WriteRequest } from './dynamo';
import { keys } from './keys';

/** A transaction as the feed stores it: exactly the contract's Transaction. */
export type StoredTransaction = TransactionRecord;

/** Superseded versions are kept this long so that a paging session can finish on its snapshot. */
export const FEED_RETENTION_MS = 30 * 24 * 3600 * 1000;
/**
 * How long an ingestion holds the item's lease. A writer that dies keeps it until then, so whoever
 * meets IngestionBusyError retries for longer than this (the local refresh queue; SQS's
 * visibility timeout on AWS).
 */
export const INGESTION_LEASE_MS = 60_000;
/**
 * How long an ended row of the date-ordered view stays readable after the commit that ended it: a
 * reader's snapshot lives no longer than one request (a Lambda runs 15 minutes at most).
 */
export const VIEW_GRACE_MS = 15 * 60_000;

const TRANSACTION_FIELDS = Object.keys(Transaction.shape) as readonly (keyof StoredTransaction)[];

/** Field by field: rows read back from DynamoDB do not keep their key order. */
export const sameTransaction = (a: StoredTransaction, b: StoredTransaction) => TRANSACTION_FIELDS.every((f) => a[f] === b[f]);

const transactionDigest = (t: StoredTransaction) => digestOf(TRANSACTION_FIELDS.map((f) => t[f]));
const placementOf = (t: StoredTransaction): Placement => ({ date: t.date, accountId: t.account_id, digest: transactionDigest(t) });
const directoryBucket = (txnId: string) => createHash('sha256').update(txnId).digest('hex').slice(0, 2);

/** An item with committed transactions whose date-ordered view is missing: it was stored before the view existed. */
export class FeedViewMissingError extends Error {
  constructor(itemId: string) {
    super(`item ${itemId} has committed transactions but no date-ordered view (stored before the view existed): remove the item and connect it again`);
    this.name = 'FeedViewMissingError';
  }
}

export class IngestionBusyError extends Error {
  constructor(itemId: string) {
    super(`another ingestion holds the lease of ${itemId}`);
    this.name = 'IngestionBusyError';
  }
}

// ---------- rows ----------

type Row = Record<string, unknown>;

function entryRow(itemId: string, entry: FeedEntry<StoredTransaction>, now: number): Row {
  return {
    ...keys.feedEntry(itemId, entry.sk),
    txn_id: entry.txnId,
    seq: entry.seq,
    added_seq: entry.addedSeq,
    removed: entry.removed,
    ...(entry.prevSeq !== undefined ? { prev_seq: entry.prevSeq } : {}),
    ...(entry.earlier?.length ? { earlier: entry.earlier } : {}),
    ...(entry.txn ? { txn: entry.txn } : {}),
    ...(entry.accountId !== undefined ? { account_id: entry.accountId } : {}),
    ...(entry.supersededBy !== undefined
      ? { superseded_by: entry.supersededBy, expires_at: Math.floor((now + FEED_RETENTION_MS) / 1000) }
      : {}),
  };
}

function entryFromRow(row: Row): FeedEntry<StoredTransaction> {
  return {
    sk: row.sk as string,
    txnId: row.txn_id as string,
    seq: row.seq as number,
    addedSeq: row.added_seq as number,
    removed: row.removed as boolean,
    supersededBy: row.superseded_by as number | undefined,
    prevSeq: row.prev_seq as number | undefined,
    ...earlierFromRow(row),
    txn: row.txn as StoredTransaction | undefined,
    ...(typeof row.account_id === 'string' ? { accountId: row.account_id } : {}),
  };
}

/** A current (live) version's row in the date-ordered view; `until` ends it. */
function viewRow(itemId: string, entry: FeedEntry<StoredTransaction>, until?: { seq: number; now: number }): Row {
  const txn = entry.txn as StoredTransaction;
  return {
    ...keys.feedByDate(itemId, txn.date, entry.txnId, entry.seq),
    seq: entry.seq,
    added_seq: entry.addedSeq,
    ...(entry.earlier?.length ? { earlier: entry.earlier } : {}),
    txn,
    ...(until ? { until: until.seq, expires_at: Math.floor((until.now + VIEW_GRACE_MS) / 1000) + 24 * 3600 } : {}),
  };
}

const visibleAt = (row: Row, committedSeq: number) => (row.seq as number) <= committedSeq && (row.until === undefined || (row.until as number) > committedSeq);

function viewEntry(row: Row): FeedEntry<StoredTransaction> {
  const txn = row.txn as StoredTransaction;
  return { sk: feedKey(row.seq as number, txn.transaction_id), txnId: txn.transaction_id, seq: row.seq as number, addedSeq: row.added_seq as number, removed: false, ...earlierFromRow(row), txn };
}

/** The spans of earlier incarnations a row carries (only a transaction removed and reported again has any). */
function earlierFromRow(row: Row): Pick<FeedEntry<StoredTransaction>, 'earlier'> {
  const earlier = row.earlier as Array<[number, number]> | undefined;
  return earlier?.length ? { earlier } : {};
}

interface MonthRow {
  v: MonthDays;
  prev?: MonthDays;
}

/**
 * Directory entry: the current version's date (absent once removed), its sequence and when it was
 * first added; a tombstone also keeps the spans of its id's earlier incarnations (`p`), so that a
 * source reporting the id again re-adds it without reading the tombstone.
 */
interface DirectoryEntry {
  d?: string;
  s: number;
  a: number;
  p?: Array<[number, number]>;
}

/** The directory entry of a version. */
function directoryEntryOf(entry: FeedEntry<StoredTransaction>): DirectoryEntry {
  if (!entry.removed) return { d: (entry.txn as StoredTransaction).date, s: entry.seq, a: entry.addedSeq };
  return { s: entry.seq, a: entry.addedSeq, ...(entry.earlier?.length ? { p: entry.earlier } : {}) };
}

interface Graveyard {
  sk: string;
  at: number;
}

interface Digests {
  months: Record<string, string>;
  graveyard: Graveyard[];
}

// ---------- DynamoDB plumbing ----------

const put = (Item: Row): WriteRequest => ({ PutRequest: { Item } });
const del = (key: { pk: string; sk: string }): WriteRequest => ({ DeleteRequest: { Key: key } });

/** Consistent BatchGetItem of any number of keys; missing rows are simply absent from the result. */
async function getRows(deps: Deps, rowKeys: readonly { pk: string; sk: string }[]): Promise<Row[]> {
  const table = deps.config.tableName;
  const out: Row[] = [];
  for (let i = 0; i < rowKeys.length; i += 100) {
    let pending: Row[] = rowKeys.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed keys');
      const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      out.push(...((res.Responses?.[table] ?? []) as Row[]));
      pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Row[];
      if (pending.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
  return out;
}

/** Every row of the feed partition with a sort key in [from, to]. */
async function queryRange(deps: Deps, itemId: string, from: string, to: string): Promise<Row[]> {
  const out: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.feed(itemId).pk, ':from': from, ':to': to },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    out.push(...((res.Items ?? []) as Row[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

async function getRow(deps: Deps, key: { pk: string; sk: string }): Promise<Row | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: key, ConsistentRead: true }));
  return res.Item;
}

// ---------- readers ----------

/**
 * The item's current transactions dated in [from, to] (YYYY-MM-DD, inclusive) as of `committedSeq`,
 * newest first (date descending, then transaction_id). Reads the date-ordered view of that range only.
 */
export async function currentTransactionsBetween(deps: Deps, itemId: string, committedSeq: number, from: string, to: string): Promise<StoredTransaction[]> {
  const range = keys.feedByDateRange(itemId, from, to);
  const rows = (await queryRange(deps, itemId, range.skFrom, range.skTo)).filter((r) => visibleAt(r, committedSeq));
  if (rows.length === 0 && committedSeq > 0 && !(await getRow(deps, keys.feedStats(itemId)))) throw new FeedViewMissingError(itemId);
  return rows.map((r) => r.txn as StoredTransaction);
}

/** The item's current transactions (latest versions that are not removals) as of `committedSeq`, newest first. */
export async function currentTransactions(deps: Deps, itemId: string, committedSeq: number): Promise<StoredTransaction[]> {
  return currentTransactionsBetween(deps, itemId, committedSeq, '0000-01-01', '9999-12-31');
}

export interface TransactionsPageRequest {
  /** Inclusive dates, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Only transactions of these accounts count. */
  accountIds: readonly string[];
  offset: number;
  count: number;
}

export interface TransactionsPage {
  /** Matching transactions across all pages. */
  total: number;
  /** Newest first: date descending, then transaction_id ascending. */
  transactions: StoredTransaction[];
}

/** Two commits landing between a reader's reads makes it start over; more than this many in a row is an error. */
const PAGE_ATTEMPTS = 4;

/**
 * One page of the item's current transactions at the latest committed sequence. Reads the item's
 * counts, at most the month rows of the range's edge months and of the month the offset falls in,
 * then one Query starting at the page's first day: the rows before the page are never read.
 * Transactions of other accounts inside the page's dates are read and skipped.
 */
export async function readTransactionsPage(deps: Deps, itemId: string, committedSeq: number, req: TransactionsPageRequest): Promise<TransactionsPage> {
  for (let attempt = 0; attempt < PAGE_ATTEMPTS; attempt += 1) {
    const statsRow = await getRow(deps, keys.feedStats(itemId));
    if (!statsRow) {
      if (committedSeq > 0) throw new FeedViewMissingError(itemId);
      return { total: 0, transactions: [] };
    }
    const stats = statsFromRow(statsRow);
    const wanted = new Set(req.accountIds);
    const accounts = stats.accounts.flatMap((id, i) => (wanted.has(id) ? [i] : []));
    const everyAccount = accounts.length === stats.accounts.length;
    const loaded = new Map<string, MonthDays>();
    /** Loads month rows as of the stats' sequence; false when a commit replaced one meanwhile. */
    const loadMonths = async (months: readonly string[]): Promise<boolean> => {
      const rows = await getRows(deps, months.map((m) => keys.feedMonth(itemId, m)));
      const byMonth = new Map(rows.map((r) => [(r.sk as string).slice(2), r as unknown as MonthRow]));
      for (const m of months) {
        const version = monthAt(byMonth.get(m), stats.seq);
        if (!version) return false;
        loaded.set(m, version);
      }
      return true;
    };
    let plan = planPage(stats, loaded, { from: req.from, to: req.to, accounts, offset: req.offset });
    let raced = false;
    while ('load' in plan && !raced) {
      raced = !(await loadMonths(plan.load));
      if (!raced) plan = planPage(stats, loaded, { from: req.from, to: req.to, accounts, offset: req.offset });
    }
    if (raced || 'load' in plan) continue;
    if (!plan.start) return { total: plan.total, transactions: [] };
    const take = Math.min(req.count, plan.total - req.offset);
    const matches = (t: StoredTransaction) => everyAccount || wanted.has(t.account_id);
    const share = everyAccount ? 1 : shareOf(stats, accounts, req.from, req.to);
    if (share >= SPARSE_BELOW_SHARE) {
      // When other accounts' rows are interleaved, read ahead in proportion to their share.
      return { total: plan.total, transactions: await readFrom(deps, itemId, stats.seq, plan.start, req.from, take, matches, share) };
    }
    // Accounts with few of the rows: read only the days holding theirs, so the page costs its own
    // rows (and a month row per month it spans) rather than every other account's rows in between.
    let days = pageDayRanges(stats, loaded, { from: req.from, accounts }, plan.start, plan.start.skip + take, JOIN_BELOW_ROWS);
    while ('load' in days && !raced) {
      raced = !(await loadMonths(days.load));
      if (!raced) days = pageDayRanges(stats, loaded, { from: req.from, accounts }, plan.start, plan.start.skip + take, JOIN_BELOW_ROWS);
    }
    if (raced || 'load' in days) continue;
    return { total: plan.total, transactions: await readDayRanges(deps, itemId, stats.seq, days.ranges, plan.start.skip, take, matches) };
  }
  throw new Error(`the transactions of ${itemId} kept changing while being read`);
}

function statsFromRow(row: Row): FeedStats {
  return { seq: row.seq as number, accounts: row.accounts as string[], months: row.months as Record<string, number[]> };
}

/** The selected accounts' share of the rows of the months in range (at least a small floor). */
function shareOf(stats: FeedStats, accounts: readonly number[], from: string, to: string): number {
  let all = 0;
  let selected = 0;
  for (const [m, [, , ...counts]] of Object.entries(stats.months)) {
    if (m < monthOf(from) || m > monthOf(to)) continue;
    counts.forEach((n, i) => {
      all += n;
      if (accounts.includes(i)) selected += n;
    });
  }
  return all === 0 ? 1 : Math.max(selected / all, 0.02);
}

/**
 * Below this share of the range's rows, a page of some accounts reads only the days holding their
 * rows; at or above it, one Query reading through the others' rows costs at most 1/share of the
 * page, less than a month row per month spanned and a Query per day range.
 */
const SPARSE_BELOW_SHARE = 0.25;
/** Other accounts' rows between two selected days that one Query reads through rather than start another (about one 4 KB read unit). */
const JOIN_BELOW_ROWS = 8;
/** Day-range Queries of one page in flight at once. */
const RANGE_CONCURRENCY = 8;

/** The page's rows from day ranges (newest first): `skip` matching rows first, then `take`. */
async function readDayRanges(
  deps: Deps,
  itemId: string,
  committedSeq: number,
  ranges: readonly DayRange[],
  skip: number,
  take: number,
  matches: (t: StoredTransaction) => boolean,
): Promise<StoredTransaction[]> {
  const readRange = async (range: DayRange): Promise<StoredTransaction[]> => {
    const keyRange = keys.feedByDateRange(itemId, range.from, range.to);
    const rows = await queryRange(deps, itemId, keyRange.skFrom, keyRange.skTo);
    return rows.filter((row) => visibleAt(row, committedSeq) && matches(row.txn as StoredTransaction)).map((row) => row.txn as StoredTransaction);
  };
  const out: StoredTransaction[] = [];
  let toSkip = skip;
  for (let i = 0; i < ranges.length && out.length < take; i += RANGE_CONCURRENCY) {
    const batches = await Promise.all(ranges.slice(i, i + RANGE_CONCURRENCY).map(readRange));
    for (const txn of batches.flat()) {
      if (toSkip > 0) toSkip -= 1;
      else if (out.length < take) out.push(txn);
    }
  }
  if (out.length < take) throw new Error(`the date-ordered view of ${itemId} holds fewer rows than its counts`);
  return out;
}

async function readFrom(
  deps: Deps,
  itemId: string,
  committedSeq: number,
  start: { day: string; skip: number },
  from: string,
  take: number,
  matches: (t: StoredTransaction) => boolean,
  share: number,
): Promise<StoredTransaction[]> {
  const range = keys.feedByDateRange(itemId, from, start.day);
  const out: StoredTransaction[] = [];
  let skip = start.skip;
  let exclusiveStart: Record<string, unknown> | undefined;
  while (out.length < take) {
    const needed = skip + take - out.length;
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': range.pk, ':from': range.skFrom, ':to': range.skTo },
        ExclusiveStartKey: exclusiveStart,
        Limit: Math.min(1000, Math.ceil(needed / share)),
        ConsistentRead: true,
      }),
    );
    for (const row of (res.Items ?? []) as Row[]) {
      const txn = row.txn as StoredTransaction;
      if (!visibleAt(row, committedSeq) || !matches(txn)) continue;
      if (skip > 0) skip -= 1;
      else if (out.length < take) out.push(txn);
    }
    exclusiveStart = res.LastEvaluatedKey;
    if (!exclusiveStart) break;
  }
  if (out.length < take) throw new Error(`the date-ordered view of ${itemId} holds fewer rows than its counts`);
  return out;
}

// ---------- the writer ----------

export interface CommitResult {
  /** The new committed sequence, or null when the batch changed nothing. */
  committedSeq: number | null;
  added: number;
  modified: number;
  removed: number;
}

/**
 * What one ingestion commits: explicit changes, or a connector batch in one of its two shapes
 * (core/connector-port.ts). A `window` batch is diffed against what the feed holds inside its dates:
 * what the window no longer reports is removed. A `changes` batch is applied as it is; removing a
 * transaction the feed never had (or already removed) is dropped.
 */
export type ChangeSource =
  | readonly TxnChange<StoredTransaction>[]
  | { kind: 'window'; transactions: readonly StoredTransaction[] }
  | { kind: 'changes'; upserted: readonly StoredTransaction[]; removed: readonly string[] };

export interface CommitOptions {
  /**
   * A row to put in the same transaction as the commit when the batch changes something (the
   * outbox event announcing it), so a change is never committed without its announcement.
   */
  announce?: (committedSeq: number) => { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string };
  /**
   * Attributes of the item row to set in the publishing write when the batch changes something (a
   * history-load stage reached), so the item's state never disagrees with its committed feed.
   */
  itemFields?: Record<string, string | number>;
}

/** What a writer holds of the item's view while it plans and writes one batch, as of `committed`. */
class WriterView {
  readonly months = new Map<string, MonthDays>();
  readonly directory = new Map<string, Record<string, DirectoryEntry>>();

  constructor(
    private readonly deps: Deps,
    private readonly itemId: string,
    readonly committed: number,
    readonly stats: FeedStats,
    readonly digests: Digests,
  ) {}

  static async open(deps: Deps, itemId: string, committed: number): Promise<WriterView> {
    // Both rows are published with committed_seq: an item that never committed has neither.
    if (committed === 0) return new WriterView(deps, itemId, committed, emptyStats(), { months: {}, graveyard: [] });
    const [statsRow, digestsRow] = await Promise.all([getRow(deps, keys.feedStats(itemId)), getRow(deps, keys.feedDigests(itemId))]);
    if (!statsRow || !digestsRow) throw new FeedViewMissingError(itemId);
    const digests: Digests = { months: digestsRow.months as Record<string, string>, graveyard: digestsRow.graveyard as Graveyard[] };
    return new WriterView(deps, itemId, committed, statsFromRow(statsRow), digests);
  }

  async loadMonths(months: Iterable<string>): Promise<void> {
    const missing = [...new Set(months)].filter((m) => !this.months.has(m));
    if (missing.length === 0) return;
    // A month the feed holds nothing in has no row worth reading.
    const stored = missing.filter((m) => this.stats.months[m]);
    for (const m of missing) if (!this.stats.months[m]) this.months.set(m, emptyMonth());
    const rows = await getRows(this.deps, stored.map((m) => keys.feedMonth(this.itemId, m)));
    const byMonth = new Map(rows.map((r) => [(r.sk as string).slice(2), r as unknown as MonthRow]));
    for (const m of stored) {
      const version = monthAt(byMonth.get(m), this.committed);
      if (!version) throw new Error(`month ${m} of ${this.itemId} is ahead of the committed sequence`);
      this.months.set(m, version);
    }
  }

  async loadBuckets(txnIds: Iterable<string>): Promise<void> {
    const missing = [...new Set([...txnIds].map(directoryBucket))].filter((b) => !this.directory.has(b));
    if (missing.length === 0) return;
    if (this.committed === 0) {
      for (const b of missing) this.directory.set(b, {});
      return;
    }
    const rows = await getRows(this.deps, missing.map((b) => keys.feedDirectory(this.itemId, b)));
    const byBucket = new Map(rows.map((r) => [(r.sk as string).slice(2), r.e as Record<string, DirectoryEntry>]));
    for (const b of missing) this.directory.set(b, { ...(byBucket.get(b) ?? {}) });
  }

  entryOf(txnId: string): DirectoryEntry | undefined {
    return this.directory.get(directoryBucket(txnId))?.[txnId];
  }

  setEntry(txnId: string, entry: DirectoryEntry | undefined): void {
    const bucket = this.directory.get(directoryBucket(txnId));
    if (!bucket) throw new Error(`directory bucket of ${txnId} was not loaded`);
    if (entry) bucket[txnId] = entry;
    else delete bucket[txnId];
  }

  /** The current version of each id (live with its state, or a tombstone), through the directory. */
  async lookUp(ids: readonly string[]): Promise<Map<string, FeedEntry<StoredTransaction>>> {
    const found = new Map<string, FeedEntry<StoredTransaction>>();
    const txnIds = [...new Set(ids)];
    if (txnIds.length === 0 || this.committed === 0) return found;
    await this.loadBuckets(txnIds);
    const live: Array<{ pk: string; sk: string }> = [];
    for (const txnId of txnIds) {
      const e = this.entryOf(txnId);
      if (!e) continue;
      if (e.d === undefined) found.set(txnId, { sk: feedKey(e.s, txnId), txnId, seq: e.s, addedSeq: e.a, removed: true, ...(e.p?.length ? { earlier: e.p } : {}) });
      else live.push(keys.feedByDate(this.itemId, e.d, txnId, e.s));
    }
    for (const row of await getRows(this.deps, live)) {
      const entry = viewEntry(row);
      found.set(entry.txnId, entry);
    }
    if (found.size !== txnIds.filter((id) => this.entryOf(id)).length) throw new Error(`the directory of ${this.itemId} names rows that do not exist`);
    return found;
  }

  /** The rows current at `committed` on the given days (YYYY-MM-DD), by transaction id. */
  async readDays(days: readonly string[]): Promise<Map<string, FeedEntry<StoredTransaction>>> {
    const held = new Map<string, FeedEntry<StoredTransaction>>();
    // Days a few apart are read in one Query (the days between are few rows; a Query costs at least one unit).
    const sorted = [...days].sort().reverse();
    const runs: Array<[string, string]> = [];
    for (const day of sorted) {
      const last = runs[runs.length - 1];
      if (last && Date.parse(last[1]) - Date.parse(day) <= 3 * 86_400_000) last[1] = day;
      else runs.push([day, day]);
    }
    const results = await Promise.all(
      runs.map(([newest, oldest]) => {
        const range = keys.feedByDateRange(this.itemId, oldest, newest);
        return queryRange(this.deps, this.itemId, range.skFrom, range.skTo);
      }),
    );
    const wantedDays = new Set(days);
    for (const row of results.flat()) {
      if (!visibleAt(row, this.committed) || !wantedDays.has((row.txn as StoredTransaction).date)) continue;
      const entry = viewEntry(row);
      held.set(entry.txnId, entry);
    }
    return held;
  }
}

/** The current version of every transaction the batch touches, and the changes it means. */
async function resolveBatch(
  view: WriterView,
  source: ChangeSource,
): Promise<{ latest: Map<string, FeedEntry<StoredTransaction>>; changes: TxnChange<StoredTransaction>[] }> {
  if (!('kind' in source)) {
    return { latest: await view.lookUp(source.map((c) => c.txnId)), changes: [...source] };
  }
  if (source.kind === 'changes') {
    const changes = [...source.upserted.map((txn) => ({ txnId: txn.transaction_id, txn })), ...source.removed.map((txnId) => ({ txnId }))];
    return { latest: await view.lookUp(changes.map((c) => c.txnId)), changes };
  }
  // A window: the digests say which days differ; only those days and the ids new to them are read.
  const windowStart = windowStartOf(source.transactions);
  const batchDays = dayDigestsOf(source.transactions, transactionDigest);
  let days = windowDays(batchDays, view.digests.months, view.months, windowStart);
  while ('load' in days) {
    await view.loadMonths(days.load);
    days = windowDays(batchDays, view.digests.months, view.months, windowStart);
  }
  const planned = days.plan;
  const held = await view.readDays(days.read);
  const candidates = source.transactions.filter((t) => planned.has(t.date));
  const elsewhere = await view.lookUp(candidates.filter((t) => !held.has(t.transaction_id)).map((t) => t.transaction_id));
  const reported = new Set(source.transactions.map((t) => t.transaction_id));
  return { latest: new Map([...held, ...elsewhere]), changes: windowChanges(candidates, held, windowStart, reported, windowStartsByAccount(source.transactions)) };
}

/**
 * Applies one ingestion batch to an item's feed, reading only what the batch touches. Serialised
 * per item by a lease; the sequence is published only after every row is written, so readers never
 * see part of a batch.
 */
export async function commitTransactions(deps: Deps, itemId: string, source: ChangeSource, options: CommitOptions = {}): Promise<CommitResult> {
  const now = deps.clock.now();
  const table = deps.config.tableName;
  let lease;
  try {
    lease = await deps.ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.item(itemId),
        UpdateExpression: 'SET ingest_lease_until = :until, reserved_seq = if_not_exists(reserved_seq, :zero) + :one',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(ingest_lease_until) OR ingest_lease_until < :now)',
        ExpressionAttributeValues: { ':until': now + INGESTION_LEASE_MS, ':now': now, ':zero': 0, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new IngestionBusyError(itemId);
    throw err;
  }
  const committed = (lease.Attributes?.committed_seq as number | undefined) ?? 0;
  const reserved = lease.Attributes?.reserved_seq as number;
  // A writer that died may have reserved sequences it never committed; never reuse them.
  const seq = Math.max(committed + 1, reserved);
  const release = (extra: string, values: Record<string, unknown>) =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: table,
        Key: keys.item(itemId),
        UpdateExpression: `REMOVE ingest_lease_until ${extra}`.trim(),
        ConditionExpression: 'ingest_lease_until = :until',
        ExpressionAttributeValues: { ':until': now + INGESTION_LEASE_MS, ...values },
      }),
    );
  try {
    // Sequences reserved beyond the committed one belong to writers that stopped before publishing.
    if (reserved - 1 > committed) await undoUnpublished(deps, itemId, committed, reserved - 1, now);
    const view = await WriterView.open(deps, itemId, committed);
    const { latest, changes } = await resolveBatch(view, source);
    const plan = planBatch(latest, changes, seq, sameTransaction);
    if (plan.entries.length === 0) {
      // Nothing was written: the next writer has nothing to undo.
      await release('SET reserved_seq = :committed', { ':committed': committed });
      return { committedSeq: null, added: 0, modified: 0, removed: 0 };
    }
    // 1. The new versions, first: they are the record the next writer undoes from if this one dies.
    // A removal records the removed version's account, so readers limited to some accounts can filter it.
    for (const e of plan.entries) if (e.removed) e.accountId = latest.get(e.txnId)?.txn?.account_id;
    await writeRows(deps, plan.entries.map((e) => put(entryRow(itemId, e, now))));
    // 2. Everything derived from them, still invisible to readers.
    const derived = await derivedWrites(view, itemId, plan.entries, latest, seq, now);
    await writeRows(deps, derived.rows);
    // 3. Ended view rows no reader can still see.
    const due = view.digests.graveyard.filter((g) => g.at <= now - VIEW_GRACE_MS);
    await writeRows(deps, due.map((g) => del({ pk: keys.feed(itemId).pk, sk: g.sk })));
    // 4. Publish: the sequence, the counts and the digests in one transaction (with the announcement).
    const graveyard = [...view.digests.graveyard.filter((g) => g.at > now - VIEW_GRACE_MS), ...derived.ended.map((sk) => ({ sk, at: now }))];
    const extra = Object.entries(options.itemFields ?? {});
    const commit = {
      TableName: table,
      Key: keys.item(itemId),
      // A commit is a successful sync: it records the item's freshness and clears an earlier sync error.
      UpdateExpression: `SET committed_seq = :seq, reserved_seq = :seq, last_successful_sync = :at${extra.map((_, i) => `, #f${i} = :f${i}`).join('')} REMOVE ingest_lease_until, last_sync_error`,
      ConditionExpression: 'ingest_lease_until = :until',
      ...(extra.length ? { ExpressionAttributeNames: Object.fromEntries(extra.map(([name], i) => [`#f${i}`, name])) } : {}),
      ExpressionAttributeValues: {
        ':seq': seq,
        ':at': new Date(now).toISOString(),
        ':until': now + INGESTION_LEASE_MS,
        ...Object.fromEntries(extra.map(([, value], i) => [`:f${i}`, value])),
      },
    };
    const announcement = options.announce?.(seq);
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: commit },
          { Put: { TableName: table, Item: { ...keys.feedStats(itemId), ...derived.stats } } },
          { Put: { TableName: table, Item: { ...keys.feedDigests(itemId), months: derived.monthDigests, graveyard } } },
          ...(announcement ? [{ Put: announcement }] : []),
        ],
      }),
    );
    return {
      committedSeq: seq,
      added: plan.entries.filter((e) => !e.removed && e.addedSeq === seq).length,
      modified: plan.entries.filter((e) => !e.removed && e.addedSeq !== seq).length,
      removed: plan.entries.filter((e) => e.removed).length,
    };
  } catch (err) {
    await release('', {}).catch(() => undefined);
    throw err;
  }
}

/** The rows a batch's new versions imply: superseded marks, view rows, month rows, directory buckets, new counts. */
async function derivedWrites(
  view: WriterView,
  itemId: string,
  entries: readonly FeedEntry<StoredTransaction>[],
  latest: ReadonlyMap<string, FeedEntry<StoredTransaction>>,
  seq: number,
  now: number,
): Promise<{ rows: WriteRequest[]; ended: string[]; stats: FeedStats; monthDigests: Record<string, string> }> {
  const rows: WriteRequest[] = [];
  const ended: string[] = [];
  const placements: PlacementChange[] = [];
  await view.loadBuckets(entries.map((e) => e.txnId));
  for (const entry of entries) {
    const prev = latest.get(entry.txnId);
    if (prev && !prev.removed) {
      rows.push(put(entryRow(itemId, { ...prev, supersededBy: seq }, now)));
      const endedRow = viewRow(itemId, prev, { seq, now });
      rows.push(put(endedRow));
      ended.push(endedRow.sk as string);
    } else if (prev) {
      // A removed transaction reported again: its tombstone has no view row to end, but a session
      // whose snapshot includes the re-add must skip it (the new incarnation is what it delivers).
      rows.push(put(entryRow(itemId, { ...prev, supersededBy: seq }, now)));
    }
    if (!entry.removed) rows.push(put(viewRow(itemId, entry)));
    view.setEntry(entry.txnId, directoryEntryOf(entry));
    placements.push({ before: prev?.txn && placementOf(prev.txn), after: entry.txn && placementOf(entry.txn) });
  }
  const touched = placements.flatMap((p) => [p.before, p.after]).flatMap((p) => (p ? [monthOf(p.date)] : []));
  await view.loadMonths(touched);
  const applied = applyPlacements(view.months, view.stats.accounts, placements, seq);
  const stats: FeedStats = { seq, accounts: applied.accounts, months: { ...view.stats.months } };
  const monthDigests = { ...view.digests.months };
  for (const [m, days] of applied.months) {
    rows.push(put({ ...keys.feedMonth(itemId, m), v: days, prev: view.months.get(m) }));
    const summary = monthSummary(days, applied.accounts.length);
    if (summary) {
      stats.months[m] = summary;
      monthDigests[m] = monthDigest(days);
    } else {
      delete stats.months[m];
      delete monthDigests[m];
    }
  }
  const buckets = new Set(entries.map((e) => directoryBucket(e.txnId)));
  for (const b of buckets) rows.push(put({ ...keys.feedDirectory(itemId, b), e: view.directory.get(b) }));
  return { rows, ended, stats, monthDigests };
}

/**
 * Undoes what writers that stopped before publishing left in (committed, reservedUpTo]: their new
 * versions name the versions they replaced, so every derived row is put back as it was at
 * `committed`. The new versions themselves go last, so that an undo that stops half-way is found
 * and finished by the next writer.
 */
async function undoUnpublished(deps: Deps, itemId: string, committed: number, reservedUpTo: number, now: number): Promise<void> {
  const orphans = (await queryRange(deps, itemId, feedKey(committed + 1, ''), afterSequence(reservedUpTo))).map(entryFromRow);
  if (orphans.length === 0) return;
  const replaced = new Map(
    (await getRows(deps, orphans.flatMap((o) => (o.prevSeq !== undefined ? [keys.feedEntry(itemId, feedKey(o.prevSeq, o.txnId))] : [])))).map((r) => {
      const e = entryFromRow(r);
      return [e.txnId, e];
    }),
  );
  const view = new WriterView(deps, itemId, committed, emptyStats(), { months: {}, graveyard: [] });
  const buckets = new Set(orphans.map((o) => directoryBucket(o.txnId)));
  const bucketRows = await getRows(deps, [...buckets].map((b) => keys.feedDirectory(itemId, b)));
  for (const b of buckets) view.directory.set(b, { ...((bucketRows.find((r) => r.sk === `X#${b}`)?.e as Record<string, DirectoryEntry>) ?? {}) });
  const rows: WriteRequest[] = [];
  const months = new Set<string>();
  for (const orphan of orphans) {
    if (orphan.txn) {
      rows.push(del(keys.feedByDate(itemId, orphan.txn.date, orphan.txnId, orphan.seq)));
      months.add(monthOf(orphan.txn.date));
    }
    const before = replaced.get(orphan.txnId);
    if (!before) {
      view.setEntry(orphan.txnId, undefined);
      continue;
    }
    // The version the orphan replaced is current again: a live one, or the tombstone of a removed
    // transaction the orphan reported again.
    rows.push(put(entryRow(itemId, { ...before, supersededBy: undefined }, now)));
    if (before.txn) {
      rows.push(put(viewRow(itemId, before)));
      months.add(monthOf(before.txn.date));
    }
    view.setEntry(orphan.txnId, directoryEntryOf(before));
  }
  for (const b of buckets) rows.push(put({ ...keys.feedDirectory(itemId, b), e: view.directory.get(b) }));
  for (const row of await getRows(deps, [...months].map((m) => keys.feedMonth(itemId, m)))) {
    const month = row as unknown as MonthRow & { pk: string; sk: string };
    if (month.v.seq <= committed) continue;
    rows.push(month.prev ? put({ pk: month.pk, sk: month.sk, v: month.prev }) : del({ pk: month.pk, sk: month.sk }));
  }
  await writeRows(deps, rows);
  await writeRows(deps, orphans.map((o) => del(keys.feedEntry(itemId, o.sk))));
}

// ---------- /v1/transactions/sync ----------

export interface SyncPage {
  deliveries: Delivery<StoredTransaction>[];
  lastSk: string | null;
  hasMore: boolean;
}

/** Reads one page of deliverable changes in (pos, snap] for a session that started from `base`. */
export async function readSyncPage(deps: Deps, itemId: string, base: number, snap: number, pos: string, count: number): Promise<SyncPage> {
  const collector = pageCollector<StoredTransaction>(base, snap, count);
  const from = `${pos}\u0000`;
  const to = afterSequence(snap);
  // Nothing was committed after the caller's position: no query needed.
  if (from > to) return { deliveries: [], lastSk: null, hasMore: false };
  let start: Record<string, unknown> | undefined;
  let open = true;
  while (open) {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.feed(itemId).pk, ':from': from, ':to': to },
        ExclusiveStartKey: start,
        Limit: count + 1 + Math.ceil(count / 4),
        ConsistentRead: true,
      }),
    );
    for (const row of res.Items ?? []) {
      if (!collector.offer(entryFromRow(row))) {
        open = false;
        break;
      }
    }
    start = res.LastEvaluatedKey;
    if (!start) break;
  }
  return { deliveries: collector.progress.deliveries, lastSk: collector.progress.lastSk, hasMore: collector.progress.full };
}
