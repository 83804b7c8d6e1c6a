// Where an item's data comes from: the connector that serves it, reached through the connector
// port (core/connector-port.ts; connectorOfItem decides which adapter). Every connector's
// transactions are enriched here, at ingestion, by the descriptor rules engine.
import { connectorOfItem, type ConnectorEnv, type ItemConnection } from '../connectors';
import { ApiError, ERRORS, itemErrorOf, type ErrorCode } from '../contracts/errors';
import { windowChanges, type TxnChange } from '../core/change-feed';
import { ConnectorError, type ProviderSecrets, type SourceBatch, type SourceTransaction } from '../core/connector-port';
import { enrichTransaction } from '../core/enrichment/enrich';
import { emitEvent, newEvent, publishEvent } from '../data/events';
import { commitTransactions, type ChangeSource, type CommitResult, type StoredTransaction } from '../data/feed-repo';
import { INITIAL_UPDATE_DAYS } from '../contracts/limits';
import type { Environment, TransactionsUpdateStatus } from '../contracts/schemas';
import {
  advanceTransactionsUpdate,
  getItem,
  markSynced,
  putAccounts,
  recordSyncError,
  saveConnectorState,
  transactionsUpdateFields,
  updateItemState,
  type ItemRecord,
  type StoredAccount,
} from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { openProviderSecrets, sealProviderSecrets } from './provider-secrets';
import { todayOf } from './today';

export { todayOf } from './today';

export function enrich(raw: SourceTransaction): StoredTransaction {
  // the connector's MCC and counterparty name help where the descriptor rules abstain; they are not stored
  const e = enrichTransaction(raw.name, raw.amount, { mcc: raw.mcc, counterparty: raw.counterparty });
  return {
    transaction_id: raw.transaction_id,
    account_id: raw.account_id,
    date: raw.date,
    authorized_datetime: raw.authorized_datetime,
    name: raw.name,
    merchant_name: e.merchant_name,
    amount: raw.amount,
    iso_currency_code: raw.iso_currency_code,
    pending: raw.pending,
    category: e.category,
    category_detailed: e.category_detailed,
    payment_channel: e.payment_channel,
  };
}

/** A connector's batch with its transactions enriched: what ingestion commits. */
export interface SourceData {
  accounts: StoredAccount[];
  transactions: { kind: 'window'; transactions: StoredTransaction[] } | { kind: 'changes'; upserted: StoredTransaction[]; removed: string[] };
  /** The position the connector's next refresh resumes from, saved once the batch is committed. */
  cursor?: string;
}

/** A connector's batch, ready to ingest: its transactions enriched. */
export function ingestable(batch: SourceBatch): SourceData {
  const t = batch.transactions;
  return {
    accounts: batch.accounts,
    transactions:
      t.kind === 'window'
        ? { kind: 'window', transactions: t.transactions.map(enrich) }
        : { kind: 'changes', upserted: t.upserted.map(enrich), removed: t.removed },
    ...(batch.cursor !== undefined ? { cursor: batch.cursor } : {}),
  };
}

// ---------- reaching the connector ----------

/**
 * The deployment's connector configuration, for a call in `environment`. Test keys never consult it
 * (they reach the simulator, or the file importer, which needs nothing), so a test-key call never
 * reads the stage's secret.
 */
export async function connectorEnvFor(deps: Deps, environment: Environment): Promise<ConnectorEnv> {
  return environment === 'test' ? {} : deps.connectorConfig.load();
}

/**
 * A connector call failed in a way the item's state now shows (login_required, the last sync error);
 * the API answers with the ApiError it is. The refresh worker stops on it instead of retrying.
 */
export class ConnectorCallError extends ApiError {
  /** The connector's own account of the failure (ConnectorError.kind, and its retry hint). */
  connectorKind: ConnectorError['kind'] = 'provider_error';
  retryAfterSeconds: number | undefined;
}

const isErrorCode = (code: string | undefined): code is ErrorCode => code !== undefined && code in ERRORS;

/** What a ConnectorError means for the API caller. Connector messages never carry secrets (port rule). */
function apiErrorOf(err: ConnectorError): ConnectorCallError {
  const answer = answerOf(err);
  answer.connectorKind = err.kind;
  answer.retryAfterSeconds = err.details.retryAfterSeconds;
  return answer;
}

function answerOf(err: ConnectorError): ConnectorCallError {
  switch (err.kind) {
    case 'login_required':
      return new ConnectorCallError('item_login_required');
    case 'rate_limited': {
      const wait = err.details.retryAfterSeconds;
      return new ConnectorCallError(
        'provider_error',
        `The institution's provider is limiting requests for this item${wait ? `; retry after ${wait} s` : '; retry later'}.`,
        wait ? { 'Retry-After': String(wait) } : {},
      );
    }
    case 'invalid_input':
      return new ConnectorCallError(isErrorCode(err.details.code) ? err.details.code : 'invalid_field', err.message);
    case 'provider_error':
      return new ConnectorCallError('provider_error', `The institution's provider failed: ${err.message}`);
  }
}

/**
 * Records a failed pull on a committed item (connector health: `last_sync_error`) and, when the
 * provider wants the user again, moves the item to login_required with its `item.error` event. An
 * item Link is still connecting is left alone: the connection fails and is discarded.
 */
async function recordFailure(deps: Deps, item: ItemRecord, err: ConnectorError, answer: ApiError): Promise<void> {
  const current = await getItem(deps, item.itemId);
  if (!current) return;
  await recordSyncError(deps, item.itemId, { code: answer.code, message: answer.message, occurredAt: new Date(deps.clock.now()).toISOString() });
  if (err.kind === 'login_required' && current.status === 'healthy') {
    const error = itemErrorOf('item_login_required');
    await updateItemState(deps, item.itemId, { status: 'login_required', error });
    await emitEvent(deps, current, 'item.error', { item_id: item.itemId, error });
  }
}

/**
 * Runs `use` against the item's connector, with the item's provider secrets opened. A ConnectorError
 * is recorded on the item (recordFailure) and answered as a ConnectorCallError; anything else is a
 * bug and propagates as it is.
 */
export async function withConnector<T>(
  deps: Deps,
  item: ItemRecord,
  use: (reached: ItemConnection) => Promise<T>,
  options: { recordsHealth?: boolean } = {},
): Promise<T> {
  const secrets = await openProviderSecrets(deps, item);
  const saveSecrets = async (rotated: ProviderSecrets) => saveConnectorState(deps, item.itemId, { providerSecrets: await sealProviderSecrets(deps, item, rotated) });
  const reached = connectorOfItem(item, await connectorEnvFor(deps, item.environment), secrets, saveSecrets);
  try {
    return await use(reached);
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    const answer = apiErrorOf(err);
    logger.warn('connector call failed', { item_id: item.itemId, connector: item.connector, kind: err.kind, code: answer.code });
    // What the user supplied (a file that is not a statement) says nothing about the connector's
    // health, nor does a product read (a product the connector does not offer); a lost consent
    // always moves the item to login_required.
    if (err.kind !== 'invalid_input' && (options.recordsHealth !== false || err.kind === 'login_required')) await recordFailure(deps, item, err, answer).catch((recordErr: unknown) =>
      logger.error('could not record the connector failure on the item', { item_id: item.itemId, error: recordErr as Error }),
    );
    throw answer;
  }
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
 * commit that changed the feed set last_successful_sync already; a pull that changed nothing still
 * counts as a successful sync.
 */
async function afterSuccessfulPull(deps: Deps, item: ItemRecord, data: SourceData, committed: boolean, marksSynced = true): Promise<void> {
  if (data.cursor !== undefined && data.cursor !== item.connectorCursor) await saveConnectorState(deps, item.itemId, { cursor: data.cursor });
  if (marksSynced && (!committed || item.lastSyncError)) await markSynced(deps, item.itemId, new Date(deps.clock.now()).toISOString());
}

/** The item's whole history as its connector reports it today. */
export async function fetchFromSource(deps: Deps, item: ItemRecord): Promise<SourceData> {
  return pullBatch(deps, item, ({ connector, connection }) => connector.initialHistory(connection, todayOf(deps)));
}

/** The item's accounts and current balances, from its connector. */
export async function sourceAccounts(deps: Deps, item: ItemRecord): Promise<StoredAccount[]> {
  return withConnector(deps, item, ({ connector, connection }) => connector.accounts(connection, todayOf(deps)));
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
): Promise<CommitResult | null> {
  const data = fetched ?? (await fetchFromSource(deps, item));
  await putAccounts(deps, item.itemId, data.accounts, deps.clock.now());
  if (!item.consentedProducts.includes('transactions')) return null;
  const event = newEvent(deps, item, 'transactions.sync_updates_available', {
    item_id: item.itemId,
    initial_update_complete: true,
    historical_update_complete: true,
  });
  const result = await commitTransactions(deps, item.itemId, changesFrom(data.transactions), { announce: () => eventPut(deps, event) });
  if (result.committedSeq !== null) await publishEvent(deps, event.eventId);
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
