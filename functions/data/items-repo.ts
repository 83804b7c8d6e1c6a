// Items, their access tokens and accounts; link sessions and public tokens. Tokens are stored only
// as SHA-256. Single-use things are spent with conditional writes.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { AccountRecord, Environment, ItemStatus, Product } from '../contracts/schemas';
import { tokenHash } from '../core/tokens';
import type { Deps } from '../platform/runtime';
import { queryByPrefix, writeIf, type Row } from './dynamo';
import { keys } from './keys';

export type { ItemStatus };

export interface ItemRecord {
  itemId: string;
  applicationId: string;
  environment: Environment;
  institutionId: string;
  institutionName: string;
  status: ItemStatus;
  connector: string;
  error: { type: string; code: string; message: string } | null;
  consentedProducts: Product[];
  lastSuccessfulSync: string | null;
  createdAt: string;
  committedSeq: number;
  /** HMAC secret of this item's sync cursors; never leaves the server. */
  cursorSecret: string;
  accessTokenHash: string | null;
  /** The sandbox login whose deterministic data this item serves (sandbox connector only). */
  sandboxUsername: string | null;
  clientUserId: string;
  webhook: string | null;
}

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
    accessTokenHash: row.access_token_hash ?? null,
    sandboxUsername: row.sandbox_username ?? null,
    clientUserId: row.client_user_id,
    webhook: row.webhook ?? null,
  };
}

/** The contract's Item object (spec §2, ARCHITECTURE defaults). */
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
  };
}

export async function getItem(deps: Deps, itemId: string): Promise<ItemRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), ConsistentRead: true }));
  return res.Item ? itemFromRow(res.Item) : undefined;
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
  sandboxUsername: string | null;
  clientUserId: string;
  webhook: string | null;
  status?: ItemStatus;
  error?: ItemRecord['error'];
}

export async function createItem(deps: Deps, item: NewItem): Promise<ItemRecord> {
  const createdAt = new Date(deps.clock.now()).toISOString();
  const row = {
    ...keys.item(item.itemId),
    ...keys.itemByApplication(item.applicationId, item.environment, createdAt, item.itemId),
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
    sandbox_username: item.sandboxUsername,
    client_user_id: item.clientUserId,
    webhook: item.webhook,
  };
  await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: row, ConditionExpression: 'attribute_not_exists(pk)' }));
  return itemFromRow(row);
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
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/** Counts a refresh of the item; returns the new count (the sandbox simulator's step). */
export async function bumpRefreshCount(deps: Deps, itemId: string): Promise<number> {
  const res = await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: 'ADD refresh_count :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return res.Attributes?.refresh_count as number;
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
      ConditionExpression: 'attribute_exists(pk) AND spent = :false',
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
    if (err instanceof TransactionCanceledException) throw new TokenSpentError();
    throw err;
  }
}

export class TokenSpentError extends Error {
  constructor() {
    super('the token was spent concurrently');
    this.name = 'TokenSpentError';
  }
}

/** Deletes the item and everything it owns; its access token stops working at once. */
export async function removeItem(deps: Deps, item: ItemRecord): Promise<void> {
  const table = deps.config.tableName;
  if (item.accessTokenHash) await deps.ddb.send(new DeleteCommand({ TableName: table, Key: keys.accessToken(item.accessTokenHash) }));
  await deps.ddb.send(new DeleteCommand({ TableName: table, Key: keys.item(item.itemId) }));
  for (const pk of keys.itemPartitions(item.itemId)) {
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
      const rows = res.Items ?? [];
      for (let i = 0; i < rows.length; i += 25) {
        await deps.ddb.send(
          new BatchWriteCommand({
            RequestItems: { [table]: rows.slice(i, i + 25).map((r) => ({ DeleteRequest: { Key: { pk: r.pk, sk: r.sk } } })) },
          }),
        );
      }
      start = res.LastEvaluatedKey;
    } while (start);
  }
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
  redirectUri: string | null;
  /** ms since epoch */
  expiresAt: number;
  status: 'open' | 'completed';
  failedAttempts: number;
  mfa: { institutionId: string; username: string } | null;
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
    redirectUri: row.redirect_uri ?? null,
    expiresAt: row.expiration,
    status: row.status,
    failedAttempts: row.failed_attempts ?? 0,
    mfa: row.mfa ?? null,
  };
}

export async function putLinkSession(deps: Deps, s: Omit<LinkSessionRecord, 'status' | 'failedAttempts' | 'mfa'>): Promise<void> {
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
        expiration: s.expiresAt,
        expires_at: Math.ceil(s.expiresAt / 1000),
        status: 'open',
        failed_attempts: 0,
      },
    }),
  );
}

export async function getLinkSession(deps: Deps, linkToken: string): Promise<LinkSessionRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.linkToken(tokenHash(linkToken)), ConsistentRead: true }));
  return res.Item ? sessionFromRow(res.Item) : undefined;
}

/** Records a wrong credential or code; returns the new count. */
export async function recordFailedAttempt(deps: Deps, session: LinkSessionRecord): Promise<number> {
  const res = await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.linkToken(session.linkTokenHash),
      UpdateExpression: 'ADD failed_attempts :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return res.Attributes?.failed_attempts as number;
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

/** Spends the link session for one successful connection; false when it was already completed. */
export async function completeLinkSession(deps: Deps, session: LinkSessionRecord, itemId: string): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.linkToken(session.linkTokenHash),
        UpdateExpression: 'SET #status = :done, item_id = :item REMOVE mfa',
        ConditionExpression: '#status = :open',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'completed', ':open': 'open', ':item': itemId },
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
}

export async function putPublicToken(deps: Deps, publicToken: string, record: Omit<PublicTokenRecord, 'spent'>): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
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
      },
    }),
  );
}

export async function getPublicToken(deps: Deps, publicToken: string): Promise<PublicTokenRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.publicToken(tokenHash(publicToken)), ConsistentRead: true }));
  const row = res.Item;
  if (!row) return undefined;
  return { itemId: row.item_id, applicationId: row.application_id, environment: row.environment, expiresAt: row.expiration, spent: row.spent, rotate: row.rotate };
}
