// The transactions change feed in DynamoDB (design: functions/core/change-feed.ts).
// Writers for one item are serialised by a lease on the item row and publish `committed_seq` only
// after their entries are written; readers never read past it.
import { BatchWriteCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  afterSequence,
  latestEntries,
  pageCollector,
  planBatch,
  type Delivery,
  type FeedEntry,
  type TxnChange,
} from '../core/change-feed';
import { Transaction, type TransactionRecord } from '../contracts/schemas';
import type { Deps } from '../platform/runtime';
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

function toRow(itemId: string, entry: FeedEntry<StoredTransaction>, now: number) {
  return {
    ...keys.feedEntry(itemId, entry.sk),
    txn_id: entry.txnId,
    seq: entry.seq,
    added_seq: entry.addedSeq,
    removed: entry.removed,
    ...(entry.txn ? { txn: entry.txn } : {}),
    ...(entry.supersededBy !== undefined
      ? { superseded_by: entry.supersededBy, expires_at: Math.floor((now + FEED_RETENTION_MS) / 1000) }
      : {}),
  };
}

function fromRow(row: Record<string, unknown>): FeedEntry<StoredTransaction> {
  return {
    sk: row.sk as string,
    txnId: row.txn_id as string,
    seq: row.seq as number,
    addedSeq: row.added_seq as number,
    removed: row.removed as boolean,
    supersededBy: row.superseded_by as number | undefined,
    txn: row.txn as StoredTransaction | undefined,
  };
}

async function batchPut(deps: Deps, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 25) {
    let pending = rows.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 8) throw new Error('DynamoDB kept returning unprocessed items');
      const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [deps.config.tableName]: pending } }));
      pending = (res.UnprocessedItems?.[deps.config.tableName] ?? []) as typeof pending;
      if (pending.length) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
    }
  }
}

/** Every retained entry of the item's feed, in key order. */
export async function readWholeFeed(deps: Deps, itemId: string): Promise<FeedEntry<StoredTransaction>[]> {
  const out: FeedEntry<StoredTransaction>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.feed(itemId).pk },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const row of res.Items ?? []) out.push(fromRow(row));
    start = res.LastEvaluatedKey;
  } while (start);
  return out;
}

/** The item's current transactions (latest versions that are not removals), committed or not. */
export async function currentTransactions(deps: Deps, itemId: string, committedSeq: number): Promise<StoredTransaction[]> {
  const all = (await readWholeFeed(deps, itemId)).filter((e) => e.seq <= committedSeq);
  const { latest } = latestEntries(all.map((e) => (e.supersededBy !== undefined && e.supersededBy > committedSeq ? { ...e, supersededBy: undefined } : e)));
  return [...latest.values()].filter((e) => !e.removed).map((e) => e.txn as StoredTransaction);
}

export interface CommitResult {
  /** The new committed sequence, or null when the batch changed nothing. */
  committedSeq: number | null;
  added: number;
  modified: number;
  removed: number;
}

const TRANSACTION_FIELDS = Object.keys(Transaction.shape) as readonly (keyof StoredTransaction)[];

/** Field by field: rows read back from DynamoDB do not keep their key order. */
export const sameTransaction = (a: StoredTransaction, b: StoredTransaction) => TRANSACTION_FIELDS.every((f) => a[f] === b[f]);

/**
 * What one ingestion commits: the changes themselves, or a function that computes them from the
 * item's latest entries (a diff against the connector's batch), called once the lease is held.
 */
export type ChangeSource =
  | readonly TxnChange<StoredTransaction>[]
  | ((latest: ReadonlyMap<string, FeedEntry<StoredTransaction>>) => TxnChange<StoredTransaction>[]);

export interface CommitOptions {
  /**
   * A row to put in the same transaction as the commit when the batch changes something (the
   * outbox event announcing it), so a change is never committed without its announcement.
   */
  announce?: (committedSeq: number) => { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string };
}

/**
 * Applies one ingestion batch to an item's feed. Serialised per item by a lease; the sequence is
 * published only after every entry is written, so readers can never skip a gap.
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
    if (err instanceof ConditionalCheckFailedException) throw new IngestionBusyError(itemId);
    throw err;
  }
  const committed = (lease.Attributes?.committed_seq as number | undefined) ?? 0;
  // A crashed writer may have reserved sequences it never committed; never reuse them.
  const seq = Math.max(committed + 1, lease.Attributes?.reserved_seq as number);
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
    const { latest, repairs } = latestEntries(await readWholeFeed(deps, itemId));
    const changes = typeof source === 'function' ? source(latest) : source;
    const plan = planBatch(latest, changes, seq, sameTransaction);
    if (plan.entries.length === 0 && repairs.length === 0) {
      await release('', {});
      return { committedSeq: null, added: 0, modified: 0, removed: 0 };
    }
    // New versions first, then the superseded marks: a crash in between leaves a duplicate that the
    // next writer repairs, never a transaction without a current version.
    await batchPut(deps, plan.entries.map((e) => toRow(itemId, e, now)));
    await batchPut(deps, [...plan.superseded, ...repairs].map((e) => toRow(itemId, e, now)));
    const commit = {
      TableName: table,
      Key: keys.item(itemId),
      UpdateExpression: 'SET committed_seq = :seq, reserved_seq = :seq, last_successful_sync = :at REMOVE ingest_lease_until',
      ConditionExpression: 'ingest_lease_until = :until',
      ExpressionAttributeValues: { ':seq': seq, ':at': new Date(now).toISOString(), ':until': now + INGESTION_LEASE_MS },
    };
    const announcement = plan.entries.length > 0 ? options.announce?.(seq) : undefined;
    if (announcement) {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: [{ Update: commit }, { Put: announcement }] }));
    } else {
      await deps.ddb.send(new UpdateCommand(commit));
    }
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

export class IngestionBusyError extends Error {
  constructor(itemId: string) {
    super(`another ingestion holds the lease of ${itemId}`);
    this.name = 'IngestionBusyError';
  }
}

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
      if (!collector.offer(fromRow(row))) {
        open = false;
        break;
      }
    }
    start = res.LastEvaluatedKey;
    if (!start) break;
  }
  return { deliveries: collector.progress.deliveries, lastSk: collector.progress.lastSk, hasMore: collector.progress.full };
}
