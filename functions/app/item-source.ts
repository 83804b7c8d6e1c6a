// Where an item's data comes from: the connector that serves it, reached through the connector
// port (core/connector-port.ts; connectorOfItem decides which adapter). Every connector's
// transactions are enriched at ingestion, by the descriptor rules engine (./enriched-batch).
import { ALL_ADAPTERS, type ItemConnection } from '../connectors';
import { windowChanges, type TxnChange } from '../core/change-feed';
import type { SourceBatch } from '../core/connector-port';
import { newEvent, publishEvent } from '../data/events';
import { commitTransactions, type ChangeSource, type CommitResult, type StoredTransaction } from '../data/feed-repo';
import { INITIAL_UPDATE_DAYS } from '../contracts/limits';
import type { TransactionsUpdateStatus } from '../contracts/schemas';
import { advanceTransactionsUpdate, markSynced, putAccounts, putChangedAccounts, saveConnectorState, transactionsUpdateFields, type ItemRecord } from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import type { Deps } from '../platform/runtime';
import { ingestable, type SourceData } from './enriched-batch';
import { withConnectorIn } from './item-connector';
import { sealProviderSecrets } from './provider-secrets';
import { todayOf } from './today';

export { todayOf } from './today';
export { enrich, ingestable, type SourceData } from './enriched-batch';
export { ConnectorCallError, connectorEnvFor } from './item-connector';

// ---------- reaching the connector ----------

/**
 * Runs `use` against the item's connector, with the item's provider secrets opened. A ConnectorError
 * is recorded on the item and answered as a ConnectorCallError (./item-connector); anything else is
 * a bug and propagates as it is.
 */
export async function withConnector<T>(
  deps: Deps,
  item: ItemRecord,
  use: (reached: ItemConnection) => Promise<T>,
  options: { recordsHealth?: boolean } = {},
): Promise<T> {
  return withConnectorIn(ALL_ADAPTERS, deps, item, use, options);
}

/**
 * Pulls one batch: the connector's rotated secrets are sealed and stored at once (before anything is
 * committed, so a rotated refresh token is never lost), then the batch is handed on enriched.
 */
export async function pullBatch(deps: Deps, item: ItemRecord, pull: (reached: ItemConnection) => Promise<SourceBatch>): Promise<SourceData> {
  const batch = await withConnector(deps, item, pull);
  if (batch.secrets) await saveConnectorState(deps, item.itemId, { providerSecrets: await sealProviderSecrets(deps, item, batch.secrets) });
  return ingestable(batch);
}

/**
 * After a committed pull: the connector's next position, and the item's freshness and health. A
 * commit that changed the feed set last_successful_sync and cleared last_sync_error already; a pull
 * that changed nothing still counts as a successful sync.
 */
async function afterSuccessfulPull(deps: Deps, item: ItemRecord, data: SourceData, committed: boolean, marksSynced = true): Promise<void> {
  if (data.cursor !== undefined && data.cursor !== item.connectorCursor) await saveConnectorState(deps, item.itemId, { cursor: data.cursor });
  if (marksSynced && !committed) await markSynced(deps, item.itemId, new Date(deps.clock.now()).toISOString());
}

/** The item's whole history as its connector reports it today. */
export async function fetchFromSource(deps: Deps, item: ItemRecord): Promise<SourceData> {
  return pullBatch(deps, item, ({ connector, connection }) => connector.initialHistory(connection, todayOf(deps)));
}

/**
 * Brings the item's change feed in line with the source: new and changed transactions are upserted;
 * a transaction the source no longer reports inside the source's own window (a pending that never
 * posted) is removed. Rows older than the window are history and stay.
 */
export function diffAgainstSource(source: readonly StoredTransaction[]) {
  return (latest: ReadonlyMap<string, { removed: boolean; txn?: StoredTransaction }>): TxnChange<StoredTransaction>[] => windowChanges(source, latest);
}

/**
 * The feed changes a batch means. A window batch is diffed against the feed (the rule above, applied
 * by the feed to the days the batch changes); a change batch is taken as it is, except that removing
 * a transaction the feed never had (or already removed) is dropped, so a source repeating itself
 * never writes a tombstone for nothing.
 */
export function changesFrom(batch: SourceData['transactions']): ChangeSource {
  return batch;
}

/**
 * Pulls accounts and transactions from the item's connector and commits what changed. A commit
 * that changed something carries its `transactions.sync_updates_available` event in the same
 * DynamoDB transaction (the outbox), and the event is then published.
 */
export async function syncFromSource(
  deps: Deps,
  item: ItemRecord,
  fetched?: SourceData,
  /** False when the caller records the sync itself (the refresh worker, with the next refresh's schedule). */
  marksSynced = true,
  /**
   * Runs after a commit that changed something, before its event is published (the refresh worker
   * computes the derived products a reader waits for, so the read the webhook prompts finds them).
   * A crash here leaves the event in the outbox, which the sweep publishes.
   */
  afterCommit?: (committedSeq: number) => Promise<unknown>,
): Promise<CommitResult | null> {
  const data = fetched ?? (await fetchFromSource(deps, item));
  await putChangedAccounts(deps, item.itemId, data.accounts, deps.clock.now());
  if (!item.consentedProducts.includes('transactions')) return null;
  const event = newEvent(deps, item, 'transactions.sync_updates_available', {
    item_id: item.itemId,
    initial_update_complete: true,
    historical_update_complete: true,
  });
  const result = await commitTransactions(deps, item.itemId, changesFrom(data.transactions), { announce: () => eventPut(deps, event) });
  if (result.committedSeq !== null) {
    if (afterCommit) await afterCommit(result.committedSeq);
    await publishEvent(deps, event.eventId);
  }
  await afterSuccessfulPull(deps, item, data, result.committedSeq !== null, marksSynced);
  return result;
}

/** The first day (YYYY-MM-DD) of a history load's initial stage: the INITIAL_UPDATE_DAYS days up to `today`. */
export function initialUpdateStart(today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - (INITIAL_UPDATE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The initial stage of a history batch: its transactions dated on or after `from`. A window stays a
 * window (its own start is then within the recent days, so nothing older is touched); removals wait
 * for the whole batch.
 */
export function recentPart(batch: SourceData['transactions'], from: string): SourceData['transactions'] {
  return batch.kind === 'window'
    ? { kind: 'window', transactions: batch.transactions.filter((t) => t.date >= from) }
    : { kind: 'changes', upserted: batch.upserted.filter((t) => t.date >= from), removed: [] };
}

/**
 * Commits one stage of a history load and records the stage reached. When the batch changes the
 * feed, the status is set by the publishing write itself, with its announcement. When it changes
 * nothing (nothing in the recent days, or a job running again after a crash that came after its
 * commit) the status moves in its own transaction with the announcement, only if the item is not
 * there yet: either way the feed and the status never disagree, and each stage is announced once.
 */
async function commitStage(deps: Deps, item: ItemRecord, batch: ChangeSource, status: TransactionsUpdateStatus): Promise<CommitResult> {
  const event = newEvent(deps, item, 'transactions.sync_updates_available', {
    item_id: item.itemId,
    initial_update_complete: true,
    historical_update_complete: status === 'historical_update_complete',
  });
  const result = await commitTransactions(deps, item.itemId, batch, { announce: () => eventPut(deps, event), itemFields: transactionsUpdateFields(status) });
  const announced = result.committedSeq !== null || (await advanceTransactionsUpdate(deps, item.itemId, status, eventPut(deps, event)));
  if (announced) await publishEvent(deps, event.eventId);
  return result;
}

/**
 * Loads a new item's history from its connector in two commits, each announced by a
 * `transactions.sync_updates_available` event: the most recent INITIAL_UPDATE_DAYS days
 * (`initial_update_complete`), then everything (`historical_update_complete`; the recent days are
 * already in the feed and the window's digests skip them). A stage the item already reached is not
 * committed again. Serialised with every other ingestion of the item by the feed's lease.
 */
export async function loadHistory(deps: Deps, item: ItemRecord): Promise<CommitResult[]> {
  const data = await fetchFromSource(deps, item);
  await putAccounts(deps, item.itemId, data.accounts, deps.clock.now());
  const stages: CommitResult[] = [];
  if (item.transactionsUpdateStatus === 'not_ready') {
    stages.push(await commitStage(deps, item, changesFrom(recentPart(data.transactions, initialUpdateStart(todayOf(deps)))), 'initial_update_complete'));
  }
  stages.push(await commitStage(deps, item, changesFrom(data.transactions), 'historical_update_complete'));
  await afterSuccessfulPull(deps, item, data, stages.some((st) => st.committedSeq !== null));
  return stages;
}
