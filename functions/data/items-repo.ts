// Items, their access tokens and accounts; link sessions and public tokens. Tokens are stored only
// as SHA-256. Single-use things are spent with conditional writes.
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
  isConditionalCheckFailed,
  isTransactionCanceled,
} from '../platform/aws/dynamodb';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { PLAN_NAMES, type PlanName } from '../contracts/limits';
import { LINK_LANGUAGES, type LinkLanguage } from '../contracts/link-schemas';
import { ItemStatus, TRANSACTIONS_UPDATE_STATUSES, type AccountRecord, type Environment, type ItemError, type Product, type TransactionsUpdateStatus } from '../contracts/schemas';
import { canonicalJson } from '../core/canonical-json';
import { firstRefreshIntervalMs, refreshIntervalMs } from '../core/refresh-schedule';
import { tokenHash } from '../core/tokens';
import type { Deps } from '../platform/runtime';
import { isSealedSecret, type SealedSecret } from '../platform/crypto/envelope';
import { queryByPrefix, writeIf, writeRows, type Row } from './dynamo';
import { keys, TABLE } from './keys';
import type { WebhookFormat } from './webhooks-repo';

export type { ItemStatus };

export interface ItemRecord {
  itemId: string;
  applicationId: string;
  environment: Environment;
  institutionId: string;
  institutionName: string;
  status: ItemStatus;
  connector: string;
  error: z.output<typeof ItemError> | null;
  consentedProducts: Product[];
  lastSuccessfulSync: string | null;
  createdAt: string;
  committedSeq: number;
  /** HMAC secret of this item's sync cursors; never leaves the server. */
  cursorSecret: string;
  /**
   * The cursor secret before the user last changed the accounts the item shares (commitAccountSelection):
   * a cursor it signed is recognised, and refused with the reason (functions/app/sync.ts).
   */
  retiredCursorSecret: string | null;
  /**
   * A new item whose user has still to choose the accounts to share: it stays connecting (invisible,
   * no refreshes, no events) until the choice commits, and is reaped if it never comes.
   */
  awaitingSelection: boolean;
  accessTokenHash: string | null;
  /**
   * How the item's connector finds the user's login again (Connection.login): for the sandbox, the
   * sandbox username whose deterministic data the item serves. Secrets never go here: provider
   * tokens are sealed separately.
   */
  connectionLogin: string | null;
  clientUserId: string;
  webhook: string | null;
  /**
   * What the item's webhook URL receives: our events, or Plaid's bodies when the Plaid-compatible API
   * set it. Null for a URL stored before items had URLs of their own (its link token registered it as
   * an endpoint, which keeps receiving the item's events): it is no destination of its own.
   */
  webhookFormat: WebhookFormat | null;
  /** How far the item's transaction history has loaded (see TRANSACTIONS_UPDATE_STATUSES). */
  transactionsUpdateStatus: TransactionsUpdateStatus;
  /**
   * The connector's per-item secrets (OAuth tokens, a user's API key), sealed under an encryption
   * context bound to this item (functions/app/provider-secrets.ts); null for connectors that need none.
   * Lives on the item row, so removing the item deletes them with it.
   */
  providerSecrets: SealedSecret | null;
  /** Where the connector's next incremental refresh resumes (Connection.cursor); never a secret. */
  connectorCursor: string | null;
  /** The last failed pull from the connector, until a pull succeeds again (connector health). */
  lastSyncError: SyncError | null;
  /**
   * The accounts the user chose to share in Link's account selection: every read of the item's data
   * is limited to them (functions/app/reads.ts). Null for an item whose user made no selection (linked
   * before account selection existed, or through the sandbox helper): it shares all its accounts.
   */
  sharedAccountIds: string[] | null;
}

/** A failed pull, as the item shows it: the API error code, a message without secrets, and when. */
export interface SyncError {
  code: string;
  message: string;
  occurredAt: string;
}

/**
 * An item stored before history loaded in the background had it loaded before it became visible,
 * and an item without the transactions product has nothing to load: both are complete.
 */
const HISTORY_COMPLETE: TransactionsUpdateStatus = 'historical_update_complete';

function itemFromRow(row: Row): ItemRecord {
  return {
    itemId: row.item_id,
    applicationId: row.application_id,
    environment: row.environment,
    institutionId: row.institution_id,
    institutionName: row.institution_name,
    status: row.status,
    connector: row.connector,
    error: row.error ?? null,
    consentedProducts: row.consented_products,
    lastSuccessfulSync: row.last_successful_sync ?? null,
    createdAt: row.created_at,
    committedSeq: row.committed_seq ?? 0,
    cursorSecret: row.cursor_secret,
    retiredCursorSecret: typeof row.retired_cursor_secret === 'string' ? row.retired_cursor_secret : null,
    awaitingSelection: row.selection_pending === true,
    accessTokenHash: row.access_token_hash ?? null,
    // Rows written before the field's rename carry it as sandbox_username.
    connectionLogin: row.connection_login ?? row.sandbox_username ?? null,
    clientUserId: row.client_user_id,
    webhook: row.webhook ?? null,
    webhookFormat: row.webhook_format === 'plaid' || row.webhook_format === 'fincore' ? row.webhook_format : null,
    transactionsUpdateStatus: row.transactions_update_status ?? HISTORY_COMPLETE,
    providerSecrets: isSealedSecret(row.provider_secrets) ? row.provider_secrets : null,
    connectorCursor: typeof row.connector_cursor === 'string' ? row.connector_cursor : null,
    lastSyncError: row.last_sync_error ? { code: row.last_sync_error.code, message: row.last_sync_error.message, occurredAt: row.last_sync_error.occurred_at } : null,
    sharedAccountIds: Array.isArray(row.shared_account_ids) ? (row.shared_account_ids as string[]) : null,
  };
}

/** The contract's Item object. */
export function publicItem(item: ItemRecord) {
  return {
    item_id: item.itemId,
    institution_id: item.institutionId,
    institution_name: item.institutionName,
    status: item.status,
    connector: item.connector,
    error: item.error,
    consented_products: item.consentedProducts,
    last_successful_sync: item.lastSuccessfulSync,
    created_at: item.createdAt,
    transactions_update_status: item.transactionsUpdateStatus,
    last_sync_error: item.lastSyncError ? { code: item.lastSyncError.code, message: item.lastSyncError.message, occurred_at: item.lastSyncError.occurredAt } : null,
    webhook: item.webhook,
  };
}

/**
 * An item row whose Link connection is not committed yet (status `connecting`): invisible to every
 * read until the commit that issues its public token flips it to healthy; the reaper removes it and
 * what it owns when the connection never commits (see reapAbandonedConnection).
 */
const CONNECTING = 'connecting';

/** The item, unless it does not exist or its Link connection is not committed yet. */
export async function getItem(deps: Deps, itemId: string): Promise<ItemRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), ConsistentRead: true }));
  return res.Item && res.Item.status !== CONNECTING ? itemFromRow(res.Item) : undefined;
}

/**
 * The item, or a new one still connecting because its user has to choose the accounts to share
 * (as it will be once that choice commits); undefined otherwise.
 */
export async function getItemForSelection(deps: Deps, itemId: string): Promise<ItemRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), ConsistentRead: true }));
  if (!res.Item) return undefined;
  if (res.Item.status !== CONNECTING) return itemFromRow(res.Item);
  return res.Item.selection_pending === true ? itemFromRow({ ...res.Item, status: 'healthy' }) : undefined;
}

/** The item an access token names, only if it belongs to this application and environment. */
export async function itemForAccessToken(deps: Deps, accessToken: string, applicationId: string, environment: Environment): Promise<ItemRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.accessToken(tokenHash(accessToken)) }));
  const row = res.Item;
  if (!row || row.application_id !== applicationId || row.environment !== environment) return undefined;
  const item = await getItem(deps, row.item_id);
  if (!item || item.accessTokenHash !== tokenHash(accessToken)) return undefined;
  return item;
}

export interface NewItem {
  itemId: string;
  applicationId: string;
  environment: Environment;
  institutionId: string;
  institutionName: string;
  connector: string;
  consentedProducts: Product[];
  connectionLogin: string | null;
  clientUserId: string;
  webhook: string | null;
  webhookFormat?: WebhookFormat;
  status?: ItemStatus;
  error?: ItemRecord['error'];
  /** Omitted: the history is complete (an item written with its history, or without transactions). */
  transactionsUpdateStatus?: TransactionsUpdateStatus;
  /** The connector's per-item secrets, already sealed to this item (functions/app/provider-secrets.ts). */
  providerSecrets?: SealedSecret | null;
}

/** Writes an item straight away (no Link connection); a healthy one gets its refresh-due row with it. */
export async function createItem(deps: Deps, item: NewItem): Promise<ItemRecord> {
  const createdAt = new Date(deps.clock.now()).toISOString();
  const row = itemRow(item, createdAt);
  const healthy = row.status === ItemStatus.enum.healthy;
  await deps.ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: deps.config.tableName, Item: row, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: listingPut(deps, item.applicationId, item.environment, createdAt, item.itemId) },
        ...(healthy ? [{ Update: ensureRefreshDue(deps, item.itemId) }] : []),
      ],
    }),
  );
  return itemFromRow(row);
}

/**
 * Creates the row of an item that Link is connecting: status `connecting`, listed only under the
 * reaper's index until `deadline` (ms). commitLinkConnection makes it a healthy, visible item.
 */
export async function createConnectingItem(deps: Deps, item: Omit<NewItem, 'status' | 'error'>, deadline: number): Promise<ItemRecord> {
  const createdAt = new Date(deps.clock.now()).toISOString();
  const row = {
    ...itemRow(item, createdAt),
    ...keys.connectingItem(deadline, item.itemId),
    status: CONNECTING,
    connect_deadline: deadline,
  };
  await putItemRow(deps, row);
  // The record the connection works with is the item as it will be once committed.
  return itemFromRow({ ...row, status: 'healthy' });
}

/** Sort key of an item's listing row (keys.itemListing). */
const ITEM_LISTING_SK = keys.itemListing('', 'test', '', '').sk;

/** The item's listing under its application environment (keys.itemListing), put when the item commits. */
function listingPut(deps: Deps, applicationId: string, environment: Environment, createdAt: string, itemId: string) {
  return { TableName: deps.config.tableName, Item: { ...keys.itemListing(applicationId, environment, createdAt, itemId), item_id: itemId } };
}

async function putItemRow(deps: Deps, row: Row): Promise<ItemRecord> {
  await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: row, ConditionExpression: 'attribute_not_exists(pk)' }));
  return itemFromRow(row);
}

function itemRow(item: NewItem, createdAt: string): Row {
  return {
    ...keys.item(item.itemId),
    item_id: item.itemId,
    application_id: item.applicationId,
    environment: item.environment,
    institution_id: item.institutionId,
    institution_name: item.institutionName,
    status: item.status ?? 'healthy',
    connector: item.connector,
    error: item.error ?? null,
    consented_products: item.consentedProducts,
    created_at: createdAt,
    committed_seq: 0,
    cursor_secret: randomBytes(32).toString('base64url'),
    connection_login: item.connectionLogin,
    client_user_id: item.clientUserId,
    webhook: item.webhook,
    ...(item.webhook !== null ? { webhook_format: item.webhookFormat ?? 'fincore' } : {}),
    ...(item.transactionsUpdateStatus ? { transactions_update_status: item.transactionsUpdateStatus } : {}),
    ...(item.providerSecrets ? { provider_secrets: item.providerSecrets } : {}),
  };
}

/**
 * Stores what a pull from the connector left to keep: rotated provider secrets (sealed) and the
 * cursor of the next incremental refresh. Written before the pull's batch is committed, so a
 * rotated refresh token is never lost to a failed commit.
 */
export async function saveConnectorState(deps: Deps, itemId: string, state: { providerSecrets?: SealedSecret; cursor?: string }): Promise<void> {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (state.providerSecrets) {
    sets.push('provider_secrets = :secrets');
    values[':secrets'] = state.providerSecrets;
  }
  if (state.cursor !== undefined) {
    sets.push('connector_cursor = :cursor');
    values[':cursor'] = state.cursor;
  }
  if (!sets.length) return;
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    }),
  );
}

/** A pull succeeded: the item is fresh as of `at`, and its last sync error is cleared. */
export async function markSynced(deps: Deps, itemId: string, at: string): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: 'SET last_successful_sync = :at REMOVE last_sync_error',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

/** Records the item's last failed pull (connector health), or clears it after a pull that succeeded. */
export async function recordSyncError(deps: Deps, itemId: string, error: SyncError | null): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: error ? 'SET last_sync_error = :error' : 'REMOVE last_sync_error',
      ConditionExpression: 'attribute_exists(pk)',
      ...(error ? { ExpressionAttributeValues: { ':error': { code: error.code, message: error.message, occurred_at: error.occurredAt } } } : {}),
    }),
  );
}

export async function updateItemState(
  deps: Deps,
  itemId: string,
  patch: { status?: ItemStatus; error?: ItemRecord['error']; consentedProducts?: Product[]; webhook?: string | null },
): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const fields: Record<string, unknown> = {
    status: patch.status,
    error: patch.error,
    consented_products: patch.consentedProducts,
    webhook: patch.webhook,
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(`#${name} = :${name}`);
  }
  if (!sets.length) return;
  const update = {
    TableName: deps.config.tableName,
    Key: keys.item(itemId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  if (patch.status === undefined) {
    await deps.ddb.send(new UpdateCommand(update));
    return;
  }
  // The refresh-due row follows the status in the same transaction: only a healthy item is refreshed
  // on the schedule; one that needs its user (login_required) or failed waits for its repair.
  const due =
    patch.status === ItemStatus.enum.healthy
      ? { Update: ensureRefreshDue(deps, itemId) }
      : { Delete: { TableName: deps.config.tableName, Key: keys.refreshDue(itemId) } };
  await deps.ddb.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, due] }));
}

/**
 * Counts a refresh of the item on `today` (YYYY-MM-DD); returns the count of that day, 1 for the
 * day's first (the sandbox simulator's step). The count restarts each day: the simulator replays
 * that many steps over the day's generated data, so a lifetime count would make every refresh of a
 * long-lived item slower than the last.
 */
export async function bumpRefreshCount(deps: Deps, itemId: string, today: string): Promise<number> {
  const update = (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>) =>
    deps.ddb.send(new UpdateCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), ReturnValues: 'UPDATED_NEW', ...input }));
  // Two refreshes of one item can race across midnight: each write is conditional, and one that
  // loses to the other tries the other form again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const res = await update({
        UpdateExpression: 'ADD refresh_count :one',
        ConditionExpression: 'refresh_day = :today',
        ExpressionAttributeValues: { ':one': 1, ':today': today },
      });
      return res.Attributes?.refresh_count as number;
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
    }
    const started = await writeIf(() =>
      update({
        UpdateExpression: 'SET refresh_day = :today, refresh_count = :one',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(refresh_day) OR refresh_day <> :today)',
        ExpressionAttributeValues: { ':one': 1, ':today': today },
      }),
    );
    if (started) return 1;
  }
  throw new Error(`item ${itemId} is gone: its refresh count cannot be kept`);
}

// ---------- history readiness ----------

/** The item row's fields that record a readiness stage, for the feed commit that reaches it. */
export function transactionsUpdateFields(status: TransactionsUpdateStatus): Record<string, string> {
  return { transactions_update_status: status };
}

/**
 * Records that the item's history reached `status`, with the outbox row announcing it, in one
 * transaction, and only if the item is at an earlier stage: a job that runs again after a crash
 * (the stage's feed commit already made, or nothing to commit) neither moves the status back nor
 * announces a stage twice. False when the item is gone or already there.
 */
export async function advanceTransactionsUpdate(
  deps: Deps,
  itemId: string,
  status: TransactionsUpdateStatus,
  announcement: { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string },
): Promise<boolean> {
  // The statuses are declared in the order an item goes through them.
  const earlier = TRANSACTIONS_UPDATE_STATUSES.slice(0, TRANSACTIONS_UPDATE_STATUSES.indexOf(status));
  if (earlier.length === 0) return false;
  const values: Record<string, unknown> = { ':to': status };
  earlier.forEach((s, i) => (values[`:e${i}`] = s));
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: deps.config.tableName,
              Key: keys.item(itemId),
              UpdateExpression: 'SET transactions_update_status = :to',
              ConditionExpression: `attribute_exists(pk) AND transactions_update_status IN (${earlier.map((_, i) => `:e${i}`).join(', ')})`,
              ExpressionAttributeValues: values,
            },
          },
          { Put: announcement },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isTransactionCanceled(err) && err.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

// ---------- the refresh-due index (scheduled refresh) ----------
//
// Exactly the healthy items have a refresh-due row (keys.refreshDue, in the item's own partition).
// Every write that changes an item's status writes or deletes the row in the same transaction, and
// every other write to the row is conditional, so the two never disagree: the sweep refreshes only
// healthy items, and removing an item or breaking its login takes it off the schedule.

/**
 * The row's content. `refresh_interval_ms` is the cadence last applied (the plan's, once a refresh
 * has read it), so the sweep can move the row forward without reading the plan.
 */
function refreshDueAttributes(itemId: string, dueAt: number, intervalMs: number) {
  return { ...keys.refreshDueEntry(itemId, dueAt), item_id: itemId, due_at: dueAt, refresh_interval_ms: intervalMs };
}

/**
 * Puts an item that has just become healthy on the schedule, its first refresh one (shortest)
 * interval away unless `dueAt` says otherwise; an item already on it keeps its due time. A
 * transaction item, for the status write.
 */
function ensureRefreshDue(deps: Deps, itemId: string, dueAt?: number) {
  const interval = firstRefreshIntervalMs(deps.config.stage);
  const row = refreshDueAttributes(itemId, dueAt ?? deps.clock.now() + interval, interval);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets = Object.entries(row).map(([name, value], i) => {
    names[`#d${i}`] = name;
    values[`:d${i}`] = value;
    return `#d${i} = if_not_exists(#d${i}, :d${i})`;
  });
  return {
    TableName: deps.config.tableName,
    Key: keys.refreshDue(itemId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The plan of the item's application, or null when the application row is gone. */
async function planOfApplication(deps: Deps, applicationId: string): Promise<PlanName | null> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.application(applicationId), ProjectionExpression: '#plan', ExpressionAttributeNames: { '#plan': 'plan' } }),
  );
  const plan: unknown = res.Item?.plan;
  return PLAN_NAMES.find((name) => name === plan) ?? null;
}

/**
 * After a refresh: the item's next scheduled refresh is one interval of its plan from now. Only
 * while the item is healthy; false when it is not, or when a concurrent status change won (that
 * change wrote or deleted the row itself).
 *
 * Every scheduled refresh pays this, so it is two plain conditional writes (about 3 WRU) rather than
 * one transaction (8: a transaction bills each row twice, and the item row is over 1 KB). What the
 * transaction guaranteed still holds because the refresh-due row follows the item's status in the
 * status change's own transaction: it exists exactly while the item is healthy. So the item write
 * (freshness, when the pull succeeded) is conditional on the status, and the row write on the row
 * existing; a status change between the two deletes the row and the second write fails. Only a
 * healthy item without its row (which nothing leaves behind, but a store written before the
 * schedule existed may hold) takes the transaction, which checks the status and creates the row.
 */
export async function scheduleNextRefresh(deps: Deps, item: ItemRecord, options: { retryInMs?: number; syncedAt?: string } = {}): Promise<boolean> {
  const plan = await planOfApplication(deps, item.applicationId);
  const planInterval = plan ? refreshIntervalMs(deps.config.stage, plan) : firstRefreshIntervalMs(deps.config.stage);
  // A retry after a failed pull comes sooner than the plan's interval, never later.
  const interval = options.retryInMs !== undefined ? Math.min(planInterval, options.retryInMs) : planInterval;
  const table = deps.config.tableName;
  const healthy = {
    ConditionExpression: '#status = :healthy',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':healthy': ItemStatus.enum.healthy },
  };
  if (options.syncedAt !== undefined) {
    // A refresh that pulled successfully records its freshness, only while the item is healthy.
    const recorded = await writeIf(() =>
      deps.ddb.send(
        new UpdateCommand({
          TableName: table,
          Key: keys.item(item.itemId),
          UpdateExpression: 'SET last_successful_sync = :at REMOVE last_sync_error',
          ...healthy,
          ExpressionAttributeValues: { ...healthy.ExpressionAttributeValues, ':at': options.syncedAt },
        }),
      ),
    );
    if (!recorded) return false;
  }
  const row = refreshDueAttributes(item.itemId, deps.clock.now() + interval, interval);
  const moved = await writeIf(() =>
    deps.ddb.send(
      new PutCommand({ TableName: table, Item: { ...keys.refreshDue(item.itemId), ...row }, ConditionExpression: 'attribute_exists(pk)' }),
    ),
  );
  if (moved) return true;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: table, Key: keys.item(item.itemId), ...healthy } },
          { Put: { TableName: table, Item: { ...keys.refreshDue(item.itemId), ...row } } },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isTransactionCanceled(err)) return false;
    throw err;
  }
}

/** One due entry as the sweep read it. */
export interface DueRefresh {
  itemId: string;
  /** The entry's sort key when read: the claim is conditional on it. */
  dueSortKey: string;
  intervalMs: number;
}

/** One page of a shard's entries due at or before `now`, oldest first. */
export async function dueRefreshes(
  deps: Deps,
  shard: number,
  now: number,
  page: { limit: number; start?: Record<string, unknown> },
): Promise<{ due: DueRefresh[]; next?: Record<string, unknown> }> {
  const { rows, next } = await listedBefore(deps, keys.refreshDueBefore(shard, now), { ...page, projection: 'item_id, gsi1sk, refresh_interval_ms' });
  const due = rows.map((row) => ({ itemId: row.item_id as string, dueSortKey: row.gsi1sk as string, intervalMs: row.refresh_interval_ms as number }));
  return { due, next };
}

/**
 * Moves a due entry to `nextDueAt` once its refresh is queued, so the next sweeps do not queue it
 * again while it waits or runs. Conditional on the entry being as the sweep read it: a refresh that
 * already rescheduled the item, or a status change that took it off the schedule, wins.
 */
export async function claimDueRefresh(deps: Deps, due: DueRefresh, nextDueAt: number): Promise<boolean> {
  const entry = keys.refreshDueEntry(due.itemId, nextDueAt);
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.refreshDue(due.itemId),
        UpdateExpression: 'SET gsi1sk = :next, due_at = :at',
        ConditionExpression: 'gsi1sk = :seen',
        ExpressionAttributeValues: { ':next': entry.gsi1sk, ':at': nextDueAt, ':seen': due.dueSortKey },
      }),
    ),
  );
}

/** When the item is next due on the schedule, and at which interval; undefined when it is not on it. */
export async function refreshDueOf(deps: Deps, itemId: string): Promise<{ dueAt: number; intervalMs: number } | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.refreshDue(itemId), ConsistentRead: true }));
  return res.Item ? { dueAt: res.Item.due_at as number, intervalMs: res.Item.refresh_interval_ms as number } : undefined;
}

// ---------- accounts ----------

export type StoredAccount = AccountRecord;

export async function putAccounts(deps: Deps, itemId: string, accounts: StoredAccount[], refreshedAt: number): Promise<void> {
  for (let i = 0; i < accounts.length; i += 25) {
    await deps.ddb.send(
      new BatchWriteCommand({
        RequestItems: {
          [deps.config.tableName]: accounts.slice(i, i + 25).map((account) => ({
            PutRequest: { Item: { ...keys.account(itemId, account.account_id), account, balances_refreshed_at: refreshedAt } },
          })),
        },
      }),
    );
  }
}

/**
 * A refresh's accounts, written only where they differ from the stored ones (one Query instead of a
 * write per account: most refreshes move no balance). An unchanged account keeps its older
 * `balances_refreshed_at`, so a balance read within the cache's 15 minutes of such a refresh asks
 * the institution again: rarer, and cheaper, than rewriting every account on every refresh.
 * Returns how many accounts were written.
 */
export async function putChangedAccounts(deps: Deps, itemId: string, accounts: StoredAccount[], refreshedAt: number): Promise<number> {
  const k = keys.accountsOfItem(itemId);
  const stored = new Map((await queryByPrefix(deps, k.pk, k.skPrefix)).map((row) => [(row.account as StoredAccount).account_id, canonicalJson(row.account)]));
  const changed = accounts.filter((account) => stored.get(account.account_id) !== canonicalJson(account));
  await putAccounts(deps, itemId, changed, refreshedAt);
  return changed.length;
}

export async function listAccounts(deps: Deps, itemId: string): Promise<{ accounts: StoredAccount[]; oldestRefresh: number }> {
  const k = keys.accountsOfItem(itemId);
  const rows = await queryByPrefix(deps, k.pk, k.skPrefix);
  return {
    accounts: rows.map((r) => r.account as StoredAccount).sort((a, b) => a.account_id.localeCompare(b.account_id)),
    oldestRefresh: rows.length ? Math.min(...rows.map((r) => r.balances_refreshed_at as number)) : 0,
  };
}

// ---------- access tokens ----------

/** Gives an item its first access token (create-mode exchange), spending the public token atomically. */
export async function issueAccessToken(
  deps: Deps,
  args: { publicTokenHash: string; item: ItemRecord; accessToken: string; rotate: boolean },
): Promise<void> {
  const newHash = tokenHash(args.accessToken);
  const table = deps.config.tableName;
  const spend = {
    Update: {
      TableName: table,
      Key: keys.publicToken(args.publicTokenHash),
      UpdateExpression: 'SET spent = :true',
      // A token awaiting the user's account selection cannot be exchanged (commitAccountSelection).
      ConditionExpression: 'attribute_exists(pk) AND spent = :false AND attribute_not_exists(selection_pending)',
      ExpressionAttributeValues: { ':true': true, ':false': false },
    },
  };
  const putToken = {
    Put: {
      TableName: table,
      Item: { ...keys.accessToken(newHash), item_id: args.item.itemId, application_id: args.item.applicationId, environment: args.item.environment },
    },
  };
  const pointItem = {
    Update: {
      TableName: table,
      Key: keys.item(args.item.itemId),
      UpdateExpression: 'SET access_token_hash = :new',
      ConditionExpression: args.item.accessTokenHash === null ? 'attribute_not_exists(access_token_hash)' : 'access_token_hash = :old',
      ExpressionAttributeValues: { ':new': newHash, ...(args.item.accessTokenHash === null ? {} : { ':old': args.item.accessTokenHash }) },
    },
  };
  const dropOld = args.item.accessTokenHash && args.rotate ? [{ Delete: { TableName: table, Key: keys.accessToken(args.item.accessTokenHash) } }] : [];
  try {
    await deps.ddb.send(new TransactWriteCommand({ TransactItems: [spend, putToken, pointItem, ...dropOld] }));
  } catch (err) {
    if (isTransactionCanceled(err)) throw new TokenSpentError();
    throw err;
  }
}

export class TokenSpentError extends Error {
  constructor() {
    super('the token was spent concurrently');
    this.name = 'TokenSpentError';
  }
}

/** How long the purge queued by a removal has before the scheduled reaper queues it again. */
export const PURGE_DEADLINE_MS = 15 * 60_000;
/**
 * How long after a purge its item is purged once more before its purge row goes: longer than any
 * writer that resolved the item before its removal can still run (a route's 29 s, the refresh
 * worker's 2 minutes), so rows such a writer puts after the first purge are deleted too.
 */
export const PURGE_GRACE_MS = 5 * 60_000;

/**
 * Removes an item at once for every reader: its access token, schedule, item row and listing go in
 * one transaction, which also leaves a purge row (keys.itemPurge) listing the item for deletion of
 * everything else it owns (accounts, products, the feed: thousands of rows for a long history, too
 * many to delete within a request). The caller queues that purge (purgeRemovedItem); the purge row
 * makes sure it happens even if the queueing is lost (the scheduled reaper queues it again).
 */
export async function removeItem(deps: Deps, item: ItemRecord): Promise<void> {
  const table = deps.config.tableName;
  const itemPk = keys.item(item.itemId).pk;
  await deps.ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table, Key: keys.refreshDue(item.itemId) } },
        ...(item.accessTokenHash ? [{ Delete: { TableName: table, Key: keys.accessToken(item.accessTokenHash) } }] : []),
        { Delete: { TableName: table, Key: keys.item(item.itemId) } },
        { Delete: { TableName: table, Key: { pk: itemPk, sk: ITEM_LISTING_SK } } },
        {
          Put: {
            TableName: table,
            Item: { ...keys.itemPurge(item.itemId), ...keys.purgingItem(deps.clock.now() + PURGE_DEADLINE_MS, item.itemId), item_id: item.itemId },
          },
        },
      ],
    }),
  );
}

/**
 * Deletes what a removed item owns: everything in its partitions but the purge row. The first purge
 * keeps the purge row and lists it again PURGE_GRACE_MS on (rows a writer still running may yet put
 * are deleted by the next); a purge at least that long after the first deletes the purge row last.
 * Only once the item row is gone: a live item is never touched. True once nothing is left.
 */
export async function purgeRemovedItem(deps: Deps, itemId: string): Promise<boolean> {
  const table = deps.config.tableName;
  // The row itself, whatever its status: a connection still being made (CONNECTING) is not removed.
  const row = await deps.ddb.send(new GetCommand({ TableName: table, Key: keys.item(itemId), ConsistentRead: true, ProjectionExpression: 'pk' }));
  if (row.Item) return false;
  await deletePartitions(deps, itemId);
  const purge = await deps.ddb.send(new GetCommand({ TableName: table, Key: keys.itemPurge(itemId), ConsistentRead: true }));
  if (!purge.Item) return true;
  const now = deps.clock.now();
  const firstPurgedAt = purge.Item.purged_at as number | undefined;
  if (firstPurgedAt !== undefined && now - firstPurgedAt >= PURGE_GRACE_MS) {
    await deps.ddb.send(new DeleteCommand({ TableName: table, Key: keys.itemPurge(itemId) }));
    return true;
  }
  await deps.ddb.send(
    new UpdateCommand({
      TableName: table,
      Key: keys.itemPurge(itemId),
      UpdateExpression: 'SET purged_at = if_not_exists(purged_at, :now), gsi1sk = :listed',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now, ':listed': keys.purgingItem((firstPurgedAt ?? now) + PURGE_GRACE_MS, itemId).gsi1sk },
    }),
  ).catch((err: unknown) => {
    if (!isConditionalCheckFailed(err)) throw err;
  });
  return false;
}

/** Lists a removal's purge row again at `nextDeadline`, so the next sweeps do not queue it again meanwhile (false when it is gone or was moved already). */
export async function relistRemoval(deps: Deps, itemId: string, listedSortKey: string, nextDeadline: number): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.itemPurge(itemId),
        UpdateExpression: 'SET gsi1sk = :next',
        ConditionExpression: 'gsi1sk = :listed',
        ExpressionAttributeValues: { ':listed': listedSortKey, ':next': keys.purgingItem(nextDeadline, itemId).gsi1sk },
      }),
    ),
  );
}

/** Removed items whose purge row is listed up to `now` (a first purge's grace ended, or the queued purge was lost), oldest first. */
export async function listDueRemovals(deps: Deps, now: number, limit = 50): Promise<Array<{ itemId: string; listed: string }>> {
  const { rows } = await listedBefore(deps, keys.purgingBefore(now + 1), { limit, projection: 'item_id, gsi1sk' });
  return rows.map((r) => ({ itemId: r.item_id as string, listed: r.gsi1sk as string }));
}

/** The item ids of a deadline-ordered gsi1 list (CONNECTING, PURGING) up to a deadline, oldest first. */
async function itemsListedBefore(deps: Deps, k: { gsi1pk: string; gsi1skBefore: string }, limit: number): Promise<string[]> {
  const { rows } = await listedBefore(deps, k, { limit, projection: 'item_id' });
  return rows.map((row) => row.item_id as string);
}

/** One page of a gsi1 list whose sort keys start with a time (due, deadline): the entries before `gsi1skBefore`, oldest first. */
async function listedBefore(
  deps: Deps,
  k: { gsi1pk: string; gsi1skBefore: string },
  page: { limit: number; projection: string; start?: Record<string, unknown> },
): Promise<{ rows: Row[]; next?: Record<string, unknown> }> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ':before': k.gsi1skBefore },
      ProjectionExpression: page.projection,
      Limit: page.limit,
      ExclusiveStartKey: page.start,
    }),
  );
  return { rows: (res.Items ?? []) as Row[], next: res.LastEvaluatedKey };
}

async function deletePartitions(deps: Deps, itemId: string, options: { keepItemRow?: boolean } = {}): Promise<void> {
  const table = deps.config.tableName;
  const itemKey = keys.item(itemId);
  for (const pk of keys.itemPartitions(itemId)) {
    let start: Record<string, unknown> | undefined;
    do {
      const res: QueryCommandOutput = await deps.ddb.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ProjectionExpression: 'pk, sk',
          ExclusiveStartKey: start,
        }),
      );
      const purgeRow = keys.itemPurge(itemId);
      const rows = (res.Items ?? []).filter(
        (r) => !(options.keepItemRow && r.pk === itemKey.pk && r.sk === itemKey.sk) && !(r.pk === purgeRow.pk && r.sk === purgeRow.sk),
      );
      // What DynamoDB leaves unprocessed is sent again (writeRows): nothing of a removed item stays.
      await writeRows(deps, rows.map((r) => ({ DeleteRequest: { Key: { pk: r.pk, sk: r.sk } } })));
      start = res.LastEvaluatedKey;
    } while (start);
  }
}

// ---------- Link connections that never committed ----------

/** Items whose Link connection passed its deadline without committing (a crash, a lost request). */
export async function listAbandonedConnections(deps: Deps, now: number, limit = 100): Promise<string[]> {
  // Sort keys start with the deadline, so "before now + 1" is every deadline at or before now.
  return itemsListedBefore(deps, keys.connectingBefore(now + 1), limit);
}

/**
 * Removes an item whose Link connection never committed, with its accounts and feed. Only a row that
 * is still connecting past its deadline qualifies (a commit after the deadline is refused, so the
 * two cannot both win). The item row goes last: it is what leads here, so a crash part-way leaves it
 * listed and the next pass finishes the job.
 */
export async function reapAbandonedConnection(deps: Deps, itemId: string, now: number): Promise<boolean> {
  const table = deps.config.tableName;
  const stillAbandoned = {
    ConditionExpression: '#status = :connecting AND connect_deadline <= :now',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':connecting': CONNECTING, ':now': now },
  };
  const claimed = await writeIf(() =>
    deps.ddb.send(new UpdateCommand({ TableName: table, Key: keys.item(itemId), UpdateExpression: 'SET reaping_at = :now', ...stillAbandoned })),
  );
  if (!claimed) return false;
  await deletePartitions(deps, itemId, { keepItemRow: true });
  await writeIf(() => deps.ddb.send(new DeleteCommand({ TableName: table, Key: keys.item(itemId), ...stillAbandoned })));
  return true;
}

// ---------- link sessions and public tokens ----------

export interface LinkSessionRecord {
  linkTokenHash: string;
  linkSessionId: string;
  applicationId: string;
  environment: Environment;
  clientName: string;
  clientUserId: string;
  products: Product[];
  institutionId: string | null;
  updateItemId: string | null;
  webhook: string | null;
  /** Set by the Plaid-compatible API's /link/token/create (functions/data/webhooks-repo.ts markLinkSessionWebhookPlaid). */
  webhookFormat?: WebhookFormat;
  redirectUri: string | null;
  /** The language hosted Link is shown in. */
  language: LinkLanguage;
  /** ms since epoch */
  expiresAt: number;
  status: 'open' | 'completed';
  failedAttempts: number;
  mfa: { institutionId: string; username: string } | null;
  /** An OAuth consent under way (Link's oauth method), until the user comes back or starts another. */
  oauth: PendingOauth | null;
  /** Update mode shows the account selection again (the link token's update.account_selection_enabled). */
  accountSelectionEnabled?: boolean;
  /** The item a completed session connected (its public token may still await the account selection). */
  completedItemId?: string | null;
}

/**
 * What a Link session keeps while the user consents at the provider: the SHA-256 of the `state` it
 * sent (never the state itself), and what the connector's beginOauth asked to keep, sealed.
 */
export interface PendingOauth {
  stateHash: string;
  institutionId: string;
  pending: SealedSecret;
  /** ms since epoch: a consent not finished by then is refused. */
  expiresAt: number;
  /**
   * The sandbox bank's consent: 'awaiting' until the user submits Allow or Deny on its page, which
   * records the answer here; absent for real providers, whose consent is recorded at the provider.
   */
  sandboxDecision?: SandboxOauthDecision;
}

export type SandboxOauthDecision = 'awaiting' | 'allow' | 'deny';

function pendingOauthFromRow(value: unknown): PendingOauth | null {
  if (typeof value !== 'object' || value === null) return null;
  const row = value as Row;
  if (typeof row.state_hash !== 'string' || !isSealedSecret(row.pending)) return null;
  const decision = row.sandbox_decision;
  const sandboxDecision = decision === 'awaiting' || decision === 'allow' || decision === 'deny' ? { sandboxDecision: decision as SandboxOauthDecision } : {};
  return { stateHash: row.state_hash, institutionId: row.institution_id, pending: row.pending, expiresAt: row.expiration, ...sandboxDecision };
}

function sessionFromRow(row: Row): LinkSessionRecord {
  return {
    linkTokenHash: row.pk.slice('LINK#'.length),
    linkSessionId: row.link_session_id,
    applicationId: row.application_id,
    environment: row.environment,
    clientName: row.client_name,
    clientUserId: row.client_user_id,
    products: row.products,
    institutionId: row.institution_id ?? null,
    updateItemId: row.update_item_id ?? null,
    webhook: row.webhook ?? null,
    webhookFormat: row.webhook_format === 'plaid' ? 'plaid' : 'fincore',
    redirectUri: row.redirect_uri ?? null,
    // Sessions stored before the page spoke other languages have none: English.
    language: (LINK_LANGUAGES as readonly unknown[]).includes(row.language) ? (row.language as LinkLanguage) : 'en',
    expiresAt: row.expiration,
    status: row.status,
    failedAttempts: row.failed_attempts ?? 0,
    mfa: row.mfa ?? null,
    oauth: pendingOauthFromRow(row.oauth),
    accountSelectionEnabled: row.account_selection_enabled === true,
    completedItemId: typeof row.item_id === 'string' ? row.item_id : null,
  };
}

export async function putLinkSession(deps: Deps, s: Omit<LinkSessionRecord, 'status' | 'failedAttempts' | 'mfa' | 'oauth'>): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.linkToken(s.linkTokenHash),
        link_session_id: s.linkSessionId,
        application_id: s.applicationId,
        environment: s.environment,
        client_name: s.clientName,
        client_user_id: s.clientUserId,
        products: s.products,
        institution_id: s.institutionId,
        update_item_id: s.updateItemId,
        webhook: s.webhook,
        redirect_uri: s.redirectUri,
        language: s.language,
        expiration: s.expiresAt,
        expires_at: Math.ceil(s.expiresAt / 1000),
        status: 'open',
        failed_attempts: 0,
        ...(s.accountSelectionEnabled ? { account_selection_enabled: true } : {}),
      },
    }),
  );
}

export async function getLinkSession(deps: Deps, linkToken: string): Promise<LinkSessionRecord | undefined> {
  return getLinkSessionByHash(deps, tokenHash(linkToken));
}

export async function getLinkSessionByHash(deps: Deps, linkTokenHash: string): Promise<LinkSessionRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.linkToken(linkTokenHash), ConsistentRead: true }));
  return res.Item ? sessionFromRow(res.Item) : undefined;
}

/**
 * Counts a wrong credential or code, but only while the session is open and under `max` failures:
 * the check and the increment are one conditional write, so concurrent wrong answers can never
 * count past `max`. Returns the new count, or null when the session was already locked (or spent).
 */
export async function recordFailedAttempt(deps: Deps, session: LinkSessionRecord, max: number): Promise<number | null> {
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkToken(session.linkTokenHash),
        UpdateExpression: 'ADD failed_attempts :one',
        ConditionExpression: '#status = :open AND (attribute_not_exists(failed_attempts) OR failed_attempts < :max)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':one': 1, ':open': 'open', ':max': max },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return res.Attributes?.failed_attempts as number;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return null;
    throw err;
  }
}

/** Gives back an attempt reserved by recordFailedAttempt that did not fail (the input was accepted, or never judged). */
export async function releaseFailedAttempt(deps: Deps, session: LinkSessionRecord): Promise<void> {
  await writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkToken(session.linkTokenHash),
        UpdateExpression: 'ADD failed_attempts :minus',
        ConditionExpression: 'failed_attempts > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    ),
  );
}

export async function setPendingMfa(deps: Deps, session: LinkSessionRecord, mfa: LinkSessionRecord['mfa']): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.linkToken(session.linkTokenHash),
      UpdateExpression: 'SET mfa = :mfa',
      ConditionExpression: '#status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':mfa': mfa, ':open': 'open' },
    }),
  );
}

/** Records the OAuth consent a Link session started (replacing one started before). */
export async function setPendingOauth(deps: Deps, session: LinkSessionRecord, oauth: PendingOauth): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.linkToken(session.linkTokenHash),
      UpdateExpression: 'SET oauth = :oauth',
      ConditionExpression: '#status = :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':oauth': {
          state_hash: oauth.stateHash,
          institution_id: oauth.institutionId,
          pending: oauth.pending,
          expiration: oauth.expiresAt,
          ...(oauth.sandboxDecision ? { sandbox_decision: oauth.sandboxDecision } : {}),
        },
        ':open': 'open',
      },
    }),
  );
}

/**
 * Records the user's answer on the sandbox bank page against the consent whose state hash is
 * `stateHash`, once: false when the session holds no such consent awaiting an answer (another
 * state, already answered or redeemed, or a spent session).
 */
export async function recordSandboxOauthDecision(deps: Deps, session: LinkSessionRecord, stateHash: string, decision: 'allow' | 'deny'): Promise<boolean> {
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkToken(session.linkTokenHash),
        UpdateExpression: 'SET oauth.sandbox_decision = :decision',
        ConditionExpression: '#status = :open AND oauth.state_hash = :hash AND oauth.sandbox_decision = :awaiting',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':open': 'open', ':hash': stateHash, ':awaiting': 'awaiting', ':decision': decision },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
}

/**
 * Takes the session's pending OAuth consent if its state hash is `stateHash`: one conditional write
 * removes it, so a state is redeemed at most once even by concurrent callbacks. Null when the
 * session holds no consent with that state (another state, already redeemed, or a spent session).
 */
export async function takePendingOauth(deps: Deps, session: LinkSessionRecord, stateHash: string): Promise<PendingOauth | null> {
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkToken(session.linkTokenHash),
        UpdateExpression: 'REMOVE oauth',
        ConditionExpression: '#status = :open AND oauth.state_hash = :hash',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':open': 'open', ':hash': stateHash },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return pendingOauthFromRow(res.Attributes?.oauth);
  } catch (err) {
    if (isConditionalCheckFailed(err)) return null;
    throw err;
  }
}

/** What commitLinkConnection does to the item. */
export type ItemCommit =
  /** A new item: its connecting row becomes a healthy item listed under its application. */
  | { kind: 'create'; item: ItemRecord }
  /** Update mode: the existing item is healthy again, with the session's products and webhook. */
  | { kind: 'repair'; item: ItemRecord; consentedProducts: Product[]; webhook: string | null; providerSecrets?: SealedSecret; connectionLogin?: string };

export type ConnectionCommitOutcome = 'committed' | 'session_spent' | 'item_gone';

/**
 * The one write that makes a Link connection real: the item (created or repaired), the single-use
 * public token, the spent link session and the outbox rows announcing it, all or nothing. Until it
 * succeeds the session stays open (the user can retry) and a new item stays invisible. The session
 * must be open with fewer than `maxAttempts` failures; a new item must still be within its deadline.
 */
export async function commitLinkConnection(
  deps: Deps,
  args: {
    session: LinkSessionRecord | null;
    maxAttempts: number;
    item: ItemCommit;
    publicToken: string;
    publicTokenRecord: Omit<PublicTokenRecord, 'spent'>;
    outbox: { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string }[];
    /**
     * When the item's first scheduled refresh is due, if it is not on the schedule yet (default: one
     * shortest interval on). A new item whose history is still to load is due at once, so that the
     * scheduled sweep loads it even if the job queued for it is lost.
     */
    firstRefreshDueAt?: number;
    /**
     * A new item whose user chooses the accounts to share next: the session is spent and the public
     * token issued, but the item stays connecting (invisible, off the refresh schedule, announcing
     * nothing) with its deadline moved to this time (ms); commitAccountSelection makes it healthy,
     * and the reaper removes it if the choice never comes.
     */
    awaitSelectionUntil?: number;
  },
): Promise<ConnectionCommitOutcome> {
  const table = deps.config.tableName;
  const now = deps.clock.now();
  const item = args.item.item;
  const awaiting = args.item.kind === 'create' && args.awaitSelectionUntil !== undefined;
  const itemUpdate: NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update'] =
    args.item.kind === 'create' && args.awaitSelectionUntil !== undefined
      ? {
          TableName: table,
          Key: keys.item(item.itemId),
          UpdateExpression: 'SET connect_deadline = :until, gsi1sk = :gsk, selection_pending = :true',
          ConditionExpression: '#status = :connecting AND connect_deadline > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':connecting': CONNECTING,
            ':now': now,
            ':until': args.awaitSelectionUntil,
            ':true': true,
            ':gsk': keys.connectingItem(args.awaitSelectionUntil, item.itemId).gsi1sk,
          },
        }
      : args.item.kind === 'create'
      ? {
          TableName: table,
          Key: keys.item(item.itemId),
          // Off the reaper's index; listed under its application by its own row (below).
          UpdateExpression: 'SET #status = :healthy REMOVE connect_deadline, gsi1pk, gsi1sk',
          ConditionExpression: '#status = :connecting AND connect_deadline > :now',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':healthy': 'healthy',
            ':connecting': CONNECTING,
            ':now': now,
          },
        }
      : {
          TableName: table,
          Key: keys.item(item.itemId),
          // A repair with a new consent replaces the provider secrets (and the provider's reference) with it.
          UpdateExpression: `SET #status = :healthy, #error = :null, consented_products = :products, webhook = :webhook, webhook_format = :webhookFormat${args.item.providerSecrets ? ', provider_secrets = :secrets' : ''}${args.item.connectionLogin !== undefined ? ', connection_login = :login' : ''}`,
          ConditionExpression: 'attribute_exists(pk) AND #status <> :connecting',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: {
            ':healthy': 'healthy',
            ':null': null,
            ':connecting': CONNECTING,
            ':products': args.item.consentedProducts,
            ':webhook': args.item.webhook,
            ':webhookFormat': item.webhookFormat,
            ...(args.item.providerSecrets ? { ':secrets': args.item.providerSecrets } : {}),
            ...(args.item.connectionLogin !== undefined ? { ':login': args.item.connectionLogin } : {}),
          },
        };
  const spendSession = args.session
    ? [
        {
          Update: {
            TableName: table,
            Key: keys.linkToken(args.session.linkTokenHash),
            UpdateExpression: 'SET #status = :done, item_id = :item REMOVE mfa',
            ConditionExpression: '#status = :open AND (attribute_not_exists(failed_attempts) OR failed_attempts < :max)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':done': 'completed', ':open': 'open', ':item': item.itemId, ':max': args.maxAttempts },
          },
        },
      ]
    : [];
  const putPublic = { Put: { ...publicTokenPut(deps, args.publicToken, args.publicTokenRecord), ConditionExpression: 'attribute_not_exists(pk)' } };
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          ...spendSession,
          { Update: itemUpdate },
          putPublic,
          ...args.outbox.map((Put) => ({ Put })),
          // The healthy item is on the refresh schedule and listed under its application from the
          // same commit (last: the reasons read below are indexed from the start); one awaiting its
          // account selection is neither yet.
          ...(args.item.kind === 'create' && !awaiting ? [{ Put: listingPut(deps, item.applicationId, item.environment, item.createdAt, item.itemId) }] : []),
          ...(awaiting ? [] : [{ Update: ensureRefreshDue(deps, item.itemId, args.firstRefreshDueAt) }]),
        ],
      }),
    );
    return 'committed';
  } catch (err) {
    if (!isTransactionCanceled(err)) throw err;
    const reasons = err.CancellationReasons ?? [];
    if (args.session && reasons[0]?.Code === 'ConditionalCheckFailed') return 'session_spent';
    if (reasons[spendSession.length]?.Code === 'ConditionalCheckFailed') return 'item_gone';
    throw err;
  }
}

/**
 * Counts one call of the Link page's API in a fixed window; false (and nothing counted) when the
 * window already holds `limit` calls. One conditional write on a small row that expires on its own.
 */
export async function countLinkCall(
  deps: Deps,
  counter: { scope: 'token' | 'address'; idHash: string; windowStart: number; windowMs: number },
  limit: number,
): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkCallWindow(counter.scope, counter.idHash, counter.windowStart),
        UpdateExpression: 'ADD calls :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(calls) OR calls < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil((counter.windowStart + 2 * counter.windowMs) / 1000) },
      }),
    ),
  );
}

export interface PublicTokenRecord {
  itemId: string;
  applicationId: string;
  environment: Environment;
  expiresAt: number;
  spent: boolean;
  rotate: boolean;
  /**
   * The user has still to choose the accounts to share (Link's account selection): the token cannot
   * be exchanged until commitAccountSelection records the choice.
   */
  selectionPending?: boolean;
}

function publicTokenPut(deps: Deps, publicToken: string, record: Omit<PublicTokenRecord, 'spent'>) {
  return {
    TableName: deps.config.tableName,
    Item: {
      ...keys.publicToken(tokenHash(publicToken)),
      item_id: record.itemId,
      application_id: record.applicationId,
      environment: record.environment,
      expiration: record.expiresAt,
      expires_at: Math.ceil(record.expiresAt / 1000),
      rotate: record.rotate,
      spent: false,
      ...(record.selectionPending ? { selection_pending: true } : {}),
    },
  };
}

/**
 * Issues another public token for a new item still awaiting its account selection (Link's page
 * reloaded at that step: the first token's plaintext is gone with the old page). Whichever token's
 * selection commits first activates the item; the others then fail on the item's condition.
 */
export async function putSelectionToken(deps: Deps, publicToken: string, record: Omit<PublicTokenRecord, 'spent' | 'selectionPending' | 'rotate'>): Promise<void> {
  await deps.ddb.send(
    new PutCommand({ ...publicTokenPut(deps, publicToken, { ...record, rotate: false, selectionPending: true }), ConditionExpression: 'attribute_not_exists(pk)' }),
  );
}

export async function getPublicToken(deps: Deps, publicToken: string): Promise<PublicTokenRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.publicToken(tokenHash(publicToken)), ConsistentRead: true }));
  const row = res.Item;
  if (!row) return undefined;
  return { itemId: row.item_id, applicationId: row.application_id, environment: row.environment, expiresAt: row.expiration, spent: row.spent, rotate: row.rotate, selectionPending: row.selection_pending === true };
}

export type AccountSelectionOutcome = 'committed' | 'token_refused' | 'item_gone';

/**
 * Records the accounts the user chose in Link's account selection, in one transaction: the item's
 * consent is limited to them and the public token becomes exchangeable. The token must still be
 * unspent, unexpired and awaiting its selection, so a replayed or concurrent selection changes
 * nothing ('token_refused'); 'item_gone' when the item was removed (or reaped) meanwhile.
 *
 * A new item awaiting its selection (ItemRecord.awaitingSelection) becomes healthy, visible and
 * scheduled in the same write (`activate`). When the shared accounts change (`rotateCursorSecret`), a
 * new secret replaces the item's cursor secret, keeping the old one as retired so that a cursor issued before
 * is refused with the reason. `outbox` holds the events the choice announces.
 */
export async function commitAccountSelection(
  deps: Deps,
  args: {
    publicToken: string;
    item: ItemRecord;
    accountIds: string[];
    activate?: { firstRefreshDueAt?: number };
    rotateCursorSecret?: boolean;
    outbox?: { TableName: string; Item: Record<string, unknown>; ConditionExpression?: string }[];
  },
): Promise<AccountSelectionOutcome> {
  const table = deps.config.tableName;
  const now = deps.clock.now();
  const item = args.item;
  const sets = ['shared_account_ids = :ids'];
  const values: Record<string, unknown> = { ':ids': args.accountIds, ':connecting': CONNECTING };
  if (args.rotateCursorSecret) {
    sets.push('cursor_secret = :secret', 'retired_cursor_secret = :retired');
    values[':secret'] = randomBytes(32).toString('base64url');
    values[':retired'] = item.cursorSecret;
  }
  let itemUpdate;
  if (args.activate) {
    itemUpdate = {
      TableName: table,
      Key: keys.item(item.itemId),
      // Off the reaper's index; listed under its application by its own row (below).
      UpdateExpression: `SET #status = :healthy, ${sets.join(', ')} REMOVE connect_deadline, selection_pending, gsi1pk, gsi1sk`,
      ConditionExpression: '#status = :connecting AND selection_pending = :true AND connect_deadline > :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ...values, ':healthy': 'healthy', ':true': true, ':now': now },
    };
  } else {
    itemUpdate = {
      TableName: table,
      Key: keys.item(item.itemId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND #status <> :connecting',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    };
  }
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: keys.publicToken(tokenHash(args.publicToken)),
              UpdateExpression: 'REMOVE selection_pending',
              ConditionExpression: 'selection_pending = :true AND spent = :false AND expiration > :now AND item_id = :item',
              ExpressionAttributeValues: { ':true': true, ':false': false, ':now': now, ':item': item.itemId },
            },
          },
          { Update: itemUpdate },
          ...(args.outbox ?? []).map((Put) => ({ Put })),
          // A new item joins the refresh schedule and its application's listing with its activation.
          ...(args.activate
            ? [{ Put: listingPut(deps, item.applicationId, item.environment, item.createdAt, item.itemId) }, { Update: ensureRefreshDue(deps, item.itemId, args.activate.firstRefreshDueAt) }]
            : []),
        ],
      }),
    );
    return 'committed';
  } catch (err) {
    if (!isTransactionCanceled(err)) throw err;
    const reasons = err.CancellationReasons ?? [];
    if (reasons[0]?.Code === 'ConditionalCheckFailed') return 'token_refused';
    if (reasons[1]?.Code === 'ConditionalCheckFailed') return 'item_gone';
    throw err;
  }
}
