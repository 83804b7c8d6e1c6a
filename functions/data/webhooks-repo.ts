// Webhook endpoints, the per-environment signing secrets (sealed), events with their outbox state,
// and deliveries with every attempt.
//
// Retention: events and deliveries carry `expires_at` (the table's TTL attribute), EVENT_RETENTION_DAYS
// after they were created. A delivery's attempts live in its row and its per-application index entry
// is that row's gsi1 attributes, so the TTL removes them with it. An event gets its `expires_at` only
// when it is marked published: an event still in the outbox never expires, however long publishing
// takes. DynamoDB deletes expired rows lazily (up to days late), so what the API shows (the
// deliveries list, replay) treats a row past its `expires_at` as absent.
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput, type QueryCommandOutput, isTransactionCanceled } from '../platform/aws/dynamodb';
import { queryByPrefix, writeIf, type Row } from './dynamo';
import { EVENT_RETENTION_DAYS } from '../contracts/limits';
import type { Environment } from '../contracts/schemas';
import { sha256Hex } from '../core/api-keys';
import { normalizeWebhookUrl } from '../core/webhook-url';
import { TABLE, keys } from './keys';
import type { SealedSecret } from '../platform/crypto/envelope';
import type { Deps } from '../platform/runtime';

// ---------- endpoints ----------

/**
 * What an endpoint receives: `fincore`, our `{id, type, created, data}` envelope signed with
 * FC-Signature (docs/webhooks-verify.md); `plaid`, Plaid's webhook bodies signed with a
 * Plaid-Verification JWT (an endpoint registered through the Plaid-compatible API, docs/plaid-migration.md).
 */
export type WebhookFormat = 'fincore' | 'plaid';

export interface WebhookEndpoint {
  endpointId: string;
  applicationId: string;
  environment: Environment;
  url: string;
  createdAt: string;
  format: WebhookFormat;
}

/**
 * An item's own webhook URL (the `webhook` of its link token, or /item/webhook/update), as the event
 * about the item recorded it when it was written: dispatch reads it with the event, so delivering
 * to it costs no read of the item. `format` is what the API that set it sends (our events, or
 * Plaid's bodies when the Plaid-compatible API set it).
 */
export interface ItemWebhook {
  itemId: string;
  url: string;
  format: WebhookFormat;
}

/**
 * Where a delivery goes: a registered endpoint (id `whep_...`), or an item's own webhook URL (id: the
 * item's, `item_...`). The id is the delivery's `endpoint_id` and part of its key.
 */
export interface WebhookDestination {
  id: string;
  url: string;
  format: WebhookFormat;
}

export const destinationOfEndpoint = (e: WebhookEndpoint): WebhookDestination => ({ id: e.endpointId, url: e.url, format: e.format });
export const destinationOfItem = (w: ItemWebhook): WebhookDestination => ({ id: w.itemId, url: w.url, format: w.format });
/** Whether a destination id is an item's (its own webhook URL) rather than a registered endpoint's. */
export const isItemDestination = (destinationId: string): boolean => destinationId.startsWith('item_');

const formatOf = (value: unknown): WebhookFormat => (value === 'plaid' ? 'plaid' : 'fincore');

const endpointFromRow = (r: Row): WebhookEndpoint => ({
  endpointId: r.endpoint_id,
  applicationId: r.application_id,
  environment: r.environment,
  url: r.url,
  createdAt: r.created_at,
  // Rows without `format` (every endpoint registered before Plaid-shaped ones existed) are ours.
  format: r.format === 'plaid' ? 'plaid' : 'fincore',
});

export async function listEndpoints(deps: Deps, applicationId: string, environment: Environment): Promise<WebhookEndpoint[]> {
  const k = keys.webhookEndpointsOf(applicationId, environment);
  return (await queryByPrefix(deps, k.pk, k.skPrefix)).map(endpointFromRow).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

export async function getEndpoint(deps: Deps, applicationId: string, environment: Environment, endpointId: string) {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.webhookEndpoint(applicationId, environment, endpointId), ConsistentRead: true }),
  );
  return res.Item ? endpointFromRow(res.Item) : undefined;
}

// Registration and removal are DynamoDB transactions over three rows: the endpoint, a uniqueness
// row per normalized URL (so one URL is one endpoint), and the environment's endpoint count (so the
// cap holds however many registrations race). A transaction that collides with another one on the
// count row is cancelled with TransactionConflict and is tried again.

const MAX_TRANSACTION_TRIES = 12;

/** Cancellation codes of a transaction, one per item; null when it committed. */
async function transact(deps: Deps, items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>): Promise<string[] | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (err) {
      if (!isTransactionCanceled(err)) throw err;
      const codes = (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
      if (!codes.includes('TransactionConflict') || codes.includes('ConditionalCheckFailed') || attempt >= MAX_TRANSACTION_TRIES) return codes;
      // Full jitter: racing writers spread out instead of colliding again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 10 * 2 ** attempt)));
    }
  }
}

const urlHashOf = (url: string) => sha256Hex(normalizeWebhookUrl(url));

/**
 * Makes sure the environment's endpoint count row exists. Environments whose endpoints predate the
 * count get it from a listing: until the row exists no registration or removal can commit (both
 * require it), so the listing cannot be stale.
 */
async function ensureEndpointCount(deps: Deps, applicationId: string, environment: Environment): Promise<void> {
  const key = keys.webhookEndpointCount(applicationId, environment);
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: key, ConsistentRead: true }));
  if (res.Item) return;
  const count = (await listEndpoints(deps, applicationId, environment)).length;
  await writeIf(() =>
    deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: { ...key, endpoint_count: count, application_id: applicationId, environment },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/** The endpoint registered for this URL (same normalized form), if any. */
export async function endpointOfUrl(deps: Deps, applicationId: string, environment: Environment, url: string): Promise<WebhookEndpoint | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.webhookUrl(applicationId, environment, urlHashOf(url)), ConsistentRead: true }),
  );
  return res.Item ? getEndpoint(deps, applicationId, environment, res.Item.endpoint_id as string) : undefined;
}

export type InsertEndpointResult = { inserted: true } | { inserted: false; reason: 'duplicate_url' | 'too_many' | 'busy' };

/** Stores a new endpoint unless its URL is registered already or the environment has `max` endpoints. */
export async function insertEndpoint(deps: Deps, e: WebhookEndpoint, max: number): Promise<InsertEndpointResult> {
  await ensureEndpointCount(deps, e.applicationId, e.environment);
  const table = deps.config.tableName;
  const codes = await transact(deps, [
    {
      Put: {
        TableName: table,
        Item: {
          ...keys.webhookEndpoint(e.applicationId, e.environment, e.endpointId),
          endpoint_id: e.endpointId,
          application_id: e.applicationId,
          environment: e.environment,
          url: e.url,
          created_at: e.createdAt,
          // Only the exception is written: a row without it is ours (endpointFromRow).
          ...(e.format === 'plaid' ? { format: e.format } : {}),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: table,
        Item: { ...keys.webhookUrl(e.applicationId, e.environment, urlHashOf(e.url)), endpoint_id: e.endpointId, application_id: e.applicationId, environment: e.environment },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: table,
        Key: keys.webhookEndpointCount(e.applicationId, e.environment),
        UpdateExpression: 'SET endpoint_count = endpoint_count + :one',
        ConditionExpression: 'attribute_exists(pk) AND endpoint_count < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': max },
      },
    },
  ]);
  if (codes === null) return { inserted: true };
  if (codes[1] === 'ConditionalCheckFailed') return { inserted: false, reason: 'duplicate_url' };
  if (codes[2] === 'ConditionalCheckFailed') return { inserted: false, reason: 'too_many' };
  if (codes.includes('TransactionConflict')) return { inserted: false, reason: 'busy' };
  throw new Error(`registering a webhook endpoint was cancelled: ${codes.join(', ')}`);
}

export async function deleteEndpoint(deps: Deps, applicationId: string, environment: Environment, endpointId: string): Promise<boolean> {
  const endpoint = await getEndpoint(deps, applicationId, environment, endpointId);
  if (!endpoint) return false;
  await ensureEndpointCount(deps, applicationId, environment);
  const table = deps.config.tableName;
  const urlKey = keys.webhookUrl(applicationId, environment, urlHashOf(endpoint.url));
  const urlRow = await deps.ddb.send(new GetCommand({ TableName: table, Key: urlKey, ConsistentRead: true }));
  // Endpoints stored before URL rows existed have none; the row is only ever this endpoint's.
  const releaseUrl =
    urlRow.Item?.endpoint_id === endpointId
      ? [{ Delete: { TableName: table, Key: urlKey, ConditionExpression: 'endpoint_id = :id', ExpressionAttributeValues: { ':id': endpointId } } }]
      : [];
  const codes = await transact(deps, [
    { Delete: { TableName: table, Key: keys.webhookEndpoint(applicationId, environment, endpointId), ConditionExpression: 'attribute_exists(pk)' } },
    ...releaseUrl,
    {
      Update: {
        TableName: table,
        Key: keys.webhookEndpointCount(applicationId, environment),
        UpdateExpression: 'SET endpoint_count = endpoint_count - :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    },
  ]);
  if (codes === null) return true;
  if (codes[0] === 'ConditionalCheckFailed') return false; // deleted by a concurrent call
  throw new Error(`deleting a webhook endpoint was cancelled: ${codes.join(', ')}`);
}

// ---------- signing secrets ----------

/** A replaced secret that still signs until `expiresAt` (ms): its rotation's grace period. */
export interface RetiringSecret {
  sealed: SealedSecret;
  expiresAt: number;
}

export interface SecretRecord {
  current: SealedSecret;
  retiring: RetiringSecret[];
  /** Bumped by every rotation; a rotation writes only over the generation it read. */
  generation: number;
  rotatedAt: string;
}

function secretFromRow(r: Row): SecretRecord {
  // Rows written before several secrets could retire at once hold one `previous`.
  const retiring: RetiringSecret[] = Array.isArray(r.retiring)
    ? r.retiring.map((x: Row) => ({ sealed: x.sealed, expiresAt: x.expires_at }))
    : r.previous && typeof r.previous_expires_at === 'number'
      ? [{ sealed: r.previous, expiresAt: r.previous_expires_at }]
      : [];
  return { current: r.current, retiring, generation: typeof r.generation === 'number' ? r.generation : 0, rotatedAt: r.rotated_at };
}

export async function getSecretRecord(deps: Deps, applicationId: string, environment: Environment): Promise<SecretRecord | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.webhookSecret(applicationId, environment), ConsistentRead: true }),
  );
  return res.Item ? secretFromRow(res.Item) : undefined;
}

/** Creates the environment's first secret; false when one exists already (a racing first use). */
export async function createSecretRecord(deps: Deps, applicationId: string, environment: Environment, sealed: SealedSecret): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: { ...keys.webhookSecret(applicationId, environment), current: sealed, rotated_at: new Date(deps.clock.now()).toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * Replaces the current secret and the retiring list, provided no other rotation committed since
 * `read` was read (false otherwise: read again and retry), so a racing rotation never drops a secret.
 */
export async function rotateSecretRecord(
  deps: Deps,
  applicationId: string,
  environment: Environment,
  read: Pick<SecretRecord, 'generation'>,
  next: SealedSecret,
  retiring: RetiringSecret[],
): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.webhookSecret(applicationId, environment),
        UpdateExpression: 'SET #current = :next, retiring = :retiring, generation = :generation, rotated_at = :at REMOVE previous, previous_expires_at',
        ConditionExpression: read.generation === 0 ? 'attribute_exists(pk) AND attribute_not_exists(generation)' : 'generation = :read',
        ExpressionAttributeNames: { '#current': 'current' },
        ExpressionAttributeValues: {
          ':next': next,
          ':retiring': retiring.map((x) => ({ sealed: x.sealed, expires_at: x.expiresAt })),
          ':generation': read.generation + 1,
          ':at': new Date(deps.clock.now()).toISOString(),
          ...(read.generation === 0 ? {} : { ':read': read.generation }),
        },
      }),
    ),
  );
}

// ---------- item webhook URLs ----------

/**
 * Sets (or, with null, clears) an item's own webhook URL and, in the same transaction, writes the
 * event that announces it into the outbox: either both happen or neither. False when the item is
 * not the tenant's (or no longer exists).
 */
export async function setItemWebhook(
  deps: Deps,
  item: { itemId: string; applicationId: string; environment: Environment },
  webhook: { url: string; format: WebhookFormat } | null,
  announcement: NewEventRecord,
): Promise<boolean> {
  const table = deps.config.tableName;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: keys.item(item.itemId),
              // An item's URL always has its format; a cleared one has none (items-repo ItemRecord.webhookFormat).
              UpdateExpression: webhook ? 'SET webhook = :url, webhook_format = :format' : 'SET webhook = :url REMOVE webhook_format',
              ConditionExpression: 'attribute_exists(pk) AND application_id = :app AND environment = :env',
              ExpressionAttributeValues: {
                ':url': webhook?.url ?? null,
                ':app': item.applicationId,
                ':env': item.environment,
                ...(webhook ? { ':format': webhook.format } : {}),
              },
            },
          },
          { Put: eventPut(deps, announcement) },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isTransactionCanceled(err) && (err.CancellationReasons ?? [])[0]?.Code === 'ConditionalCheckFailed') return false;
    throw err;
  }
}

/**
 * Marks the webhook of an open Link session as Plaid-shaped (the Plaid-compatible API's
 * /link/token/create): the item the session connects gets Plaid's bodies at that URL.
 */
export async function markLinkSessionWebhookPlaid(deps: Deps, linkTokenHash: string): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.linkToken(linkTokenHash),
      UpdateExpression: 'SET webhook_format = :plaid',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':plaid': 'plaid' },
    }),
  );
}

// ---------- retention ----------

const RETENTION_SECONDS = EVENT_RETENTION_DAYS * 86_400;

/** When (Unix seconds) a row created at `createdSeconds` has outlived the retention. */
const retentionEndOf = (createdSeconds: number) => createdSeconds + RETENTION_SECONDS;

/**
 * Whether a record's retention has ended at `now` (ms). The TTL deletes such rows some time later;
 * until then readers that expose them must drop them.
 */
export function isExpired(record: { expiresAt: number | null }, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt * 1000 <= now;
}

// ---------- events (with outbox state) ----------

export interface EventRecord {
  eventId: string;
  type: string;
  /** Unix seconds */
  created: number;
  applicationId: string;
  environment: Environment;
  data: Record<string, unknown>;
  /** The item's own webhook URL when the event is about an item that had one as it was written. */
  itemWebhook?: ItemWebhook | null;
  published: boolean;
  /** Unix seconds; null while the event is in the outbox (it never expires there). */
  expiresAt: number | null;
}

/** An event about to be written: into the outbox, so not published and without an expiry yet. */
export type NewEventRecord = Omit<EventRecord, 'published' | 'expiresAt'>;

function itemWebhookFromRow(value: unknown): ItemWebhook | null {
  if (typeof value !== 'object' || value === null) return null;
  const w = value as Row;
  return typeof w.item_id === 'string' && typeof w.url === 'string' ? { itemId: w.item_id, url: w.url, format: formatOf(w.format) } : null;
}

function eventFromRow(r: Row): EventRecord {
  const published = r.published === true;
  return {
    eventId: r.event_id,
    type: r.type,
    created: r.created,
    applicationId: r.application_id,
    environment: r.environment,
    data: r.data,
    itemWebhook: itemWebhookFromRow(r.item_webhook),
    published,
    // Events published before retention existed have no expires_at: they expire by the same rule.
    expiresAt: typeof r.expires_at === 'number' ? r.expires_at : published && typeof r.created === 'number' ? retentionEndOf(r.created) : null,
  };
}

/**
 * The event row as a Put, so callers can commit it in the same transaction as the change. It has no
 * expires_at: it gets one when it is published (markPublished).
 */
export function eventPut(deps: Deps, e: NewEventRecord) {
  const createdAt = new Date(e.created * 1000).toISOString();
  return {
    TableName: deps.config.tableName,
    Item: {
      ...keys.event(e.eventId),
      ...keys.outbox(createdAt, e.eventId),
      event_id: e.eventId,
      type: e.type,
      created: e.created,
      application_id: e.applicationId,
      environment: e.environment,
      data: e.data,
      ...(e.itemWebhook ? { item_webhook: { item_id: e.itemWebhook.itemId, url: e.itemWebhook.url, format: e.itemWebhook.format } } : {}),
      published: false,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function putEvent(deps: Deps, e: NewEventRecord): Promise<void> {
  await deps.ddb.send(new PutCommand(eventPut(deps, e)));
}

export async function getEvent(deps: Deps, eventId: string): Promise<EventRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.event(eventId), ConsistentRead: true }));
  return res.Item ? eventFromRow(res.Item) : undefined;
}

/**
 * Takes the event out of the outbox and starts its retention: expires_at = created + the retention,
 * computed from the row's own `created` in the same write (so marking twice writes the same value).
 * Rows without `created` (none are written so) count from now.
 */
export async function markPublished(deps: Deps, eventId: string): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.event(eventId),
      UpdateExpression: 'SET published = :true, expires_at = if_not_exists(created, :now) + :retention REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true, ':now': Math.floor(deps.clock.now() / 1000), ':retention': RETENTION_SECONDS },
    }),
  );
}

/**
 * Unpublished events created before `before` (ms): what a crash between commit and publish left.
 * One Query per outbox partition (keys.outboxPartitions), the oldest `limit` of them all.
 */
export async function unpublishedEvents(deps: Deps, before: number, limit = 100): Promise<string[]> {
  const pages = await Promise.all(
    keys.outboxPartitions().map((partition) =>
      deps.ddb.send(
        new QueryCommand({
          TableName: deps.config.tableName,
          IndexName: TABLE.globalIndexes[0].indexName,
          KeyConditionExpression: 'gsi1pk = :outbox AND gsi1sk < :before',
          ExpressionAttributeValues: { ':outbox': partition, ':before': new Date(before).toISOString() },
          Limit: limit,
        }),
      ),
    ),
  );
  return pages
    .flatMap((page) => page.Items ?? [])
    .sort((a, b) => String(a.gsi1sk).localeCompare(String(b.gsi1sk)))
    .slice(0, limit)
    .map((r) => r.event_id as string);
}

// ---------- deliveries ----------

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead_lettered' | 'cancelled';

export interface DeliveryRecord {
  deliveryId: string;
  eventId: string;
  eventType: string;
  /** The destination's id: an endpoint's, or the item's for a delivery to its own webhook URL. */
  endpointId: string;
  destination: 'endpoint' | 'item';
  url: string;
  applicationId: string;
  environment: Environment;
  replay: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  createdAt: string;
  finishedAt: string | null;
  /** Unix seconds: created + the retention. */
  expiresAt: number;
}

const secondsOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const deliveryFromRow = (r: Row): DeliveryRecord => ({
  deliveryId: r.delivery_id,
  eventId: r.event_id,
  eventType: r.event_type,
  endpointId: r.endpoint_id,
  destination: isItemDestination(r.endpoint_id) ? 'item' : 'endpoint',
  url: r.url,
  applicationId: r.application_id,
  environment: r.environment,
  replay: r.replay,
  status: r.status,
  attempts: r.attempts ?? [],
  createdAt: r.created_at,
  finishedAt: r.finished_at ?? null,
  // Deliveries written before retention existed have no expires_at: they expire by the same rule.
  expiresAt: typeof r.expires_at === 'number' ? r.expires_at : retentionEndOf(secondsOf(r.created_at)),
});

export function deliveryIdOf(eventId: string, endpointId: string, replay: number): string {
  return `${eventId}:${endpointId}:${replay}`;
}

export function parseDeliveryId(deliveryId: string): { eventId: string; endpointId: string; replay: number } | null {
  const m = /^(evt_[A-Za-z0-9]+):((?:whep|item)_[A-Za-z0-9]+):(\d+)$/.exec(deliveryId);
  return m ? { eventId: m[1], endpointId: m[2], replay: Number(m[3]) } : null;
}

/** A delivery row written with its first attempt already made (dispatch attempts before it writes). */
export interface FirstAttempt {
  attempt: DeliveryAttempt;
  status: Extract<DeliveryStatus, 'pending' | 'delivered'>;
}

/**
 * Creates the delivery row once; null when it exists (another dispatch of the same event). A replay
 * creates it pending with no attempt; dispatch, with its first attempt and that attempt's outcome.
 */
export async function createDelivery(deps: Deps, event: EventRecord, destination: Pick<WebhookDestination, 'id' | 'url'>, replay: number, first?: FirstAttempt): Promise<DeliveryRecord | null> {
  const now = deps.clock.now();
  const createdAt = new Date(now).toISOString();
  const deliveryId = deliveryIdOf(event.eventId, destination.id, replay);
  const row = {
    ...keys.delivery(event.eventId, destination.id, replay),
    ...keys.deliveryByApplication(event.applicationId, event.environment, createdAt, deliveryId),
    delivery_id: deliveryId,
    event_id: event.eventId,
    event_type: event.type,
    endpoint_id: destination.id,
    url: destination.url,
    application_id: event.applicationId,
    environment: event.environment,
    replay,
    status: first?.status ?? 'pending',
    attempts: first ? [first.attempt] : [],
    created_at: createdAt,
    ...(first?.status === 'delivered' ? { finished_at: first.attempt.at } : {}),
    expires_at: retentionEndOf(Math.floor(now / 1000)),
  };
  const created = await writeIf(() => deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: row, ConditionExpression: 'attribute_not_exists(pk)' })));
  return created ? deliveryFromRow(row) : null;
}

export async function getDelivery(deps: Deps, eventId: string, endpointId: string, replay: number): Promise<DeliveryRecord | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.delivery(eventId, endpointId, replay), ConsistentRead: true }),
  );
  return res.Item ? deliveryFromRow(res.Item) : undefined;
}

export async function deliveriesOfEvent(deps: Deps, eventId: string): Promise<DeliveryRecord[]> {
  const k = keys.deliveriesOfEvent(eventId);
  return (await queryByPrefix(deps, k.pk, k.skPrefix)).map(deliveryFromRow);
}

// ---------- what dispatch and a delivery attempt read (one call each) ----------

/** Every row a strongly consistent Query matches, all pages. */
async function queryAll(deps: Deps, query: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'ConsistentRead'>): Promise<Row[]> {
  const rows: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({ ...query, TableName: deps.config.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    rows.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows;
}

/**
 * An event and every delivery of it (replays included): its partition in one Query. Dispatch reads
 * this rather than the event alone, so a repeated dispatch sees what an earlier one already did.
 */
export async function eventWithDeliveries(deps: Deps, eventId: string): Promise<{ event: EventRecord | undefined; deliveries: DeliveryRecord[] }> {
  const rows = await queryAll(deps, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.eventPartition(eventId).pk } });
  const eventSk = keys.event(eventId).sk;
  const deliveryPrefix = keys.deliveriesOfEvent(eventId).skPrefix;
  const eventRow = rows.find((r) => r.sk === eventSk);
  return { event: eventRow ? eventFromRow(eventRow) : undefined, deliveries: rows.filter((r) => String(r.sk).startsWith(deliveryPrefix)).map(deliveryFromRow) };
}

/**
 * Every endpoint of an environment (oldest first) and its secret record, in one Query over the
 * sort-key range that holds both; the other rows in that range are dropped.
 */
export async function webhookTargets(deps: Deps, applicationId: string, environment: Environment): Promise<{ endpoints: WebhookEndpoint[]; secret: SecretRecord | undefined }> {
  const range = keys.webhookTargetsRange(applicationId, environment);
  const rows = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': range.pk, ':from': range.skFrom, ':to': range.skTo },
  });
  const endpointPrefix = keys.webhookEndpointsOf(applicationId, environment).skPrefix;
  const secretSk = keys.webhookSecret(applicationId, environment).sk;
  const secretRow = rows.find((r) => r.sk === secretSk);
  return {
    endpoints: rows
      .filter((r) => String(r.sk).startsWith(endpointPrefix))
      .map(endpointFromRow)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    secret: secretRow ? secretFromRow(secretRow) : undefined,
  };
}

const BATCH_GET_TRIES = 5;

/**
 * An item's webhook URL as its row holds it now, as a destination; undefined when it was cleared, is
 * a URL stored before items had their own (no format: an endpoint receives those), or the row is not
 * the tenant's (which unique item ids rule out, but which is checked all the same).
 */
function itemDestinationFromRow(r: Row, tenant: { applicationId: string; environment: Environment }): WebhookDestination | undefined {
  if (r.application_id !== tenant.applicationId || r.environment !== tenant.environment || typeof r.webhook !== 'string' || (r.webhook_format !== 'fincore' && r.webhook_format !== 'plaid')) return undefined;
  return { id: r.item_id, url: r.webhook, format: formatOf(r.webhook_format) };
}

/**
 * What a retry attempt needs, in one BatchGetItem (strongly consistent): the delivery (is it still
 * pending?), its destination (an endpoint: still registered? its URL; an item's own webhook URL: the
 * item row, for the URL it has now) and the environment's secret record. Keys DynamoDB leaves
 * unprocessed (throttling) are asked for again.
 */
export async function attemptState(
  deps: Deps,
  d: Pick<DeliveryRecord, 'eventId' | 'endpointId' | 'replay' | 'applicationId' | 'environment'>,
): Promise<{ delivery: DeliveryRecord | undefined; destination: WebhookDestination | undefined; secret: SecretRecord | undefined }> {
  const toItem = isItemDestination(d.endpointId);
  const wanted = {
    delivery: keys.delivery(d.eventId, d.endpointId, d.replay),
    destination: toItem ? keys.item(d.endpointId) : keys.webhookEndpoint(d.applicationId, d.environment, d.endpointId),
    secret: keys.webhookSecret(d.applicationId, d.environment),
  };
  const table = deps.config.tableName;
  const rows: Row[] = [];
  let pending: Record<string, unknown>[] = Object.values(wanted);
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > BATCH_GET_TRIES) throw new Error('reading a delivery attempt\'s rows kept being throttled');
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 25 * 2 ** attempt)));
    const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    rows.push(...(res.Responses?.[table] ?? []));
    pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  const find = (key: { pk: string; sk: string }) => rows.find((r) => r.pk === key.pk && r.sk === key.sk);
  const [delivery, destination, secret] = [find(wanted.delivery), find(wanted.destination), find(wanted.secret)];
  return {
    delivery: delivery && deliveryFromRow(delivery),
    destination: destination && (toItem ? itemDestinationFromRow(destination, d) : destinationOfEndpoint(endpointFromRow(destination))),
    secret: secret && secretFromRow(secret),
  };
}

/**
 * Appends one attempt; the status moves on only from `pending` (an attempt after the end is ignored).
 * `url`, when given, is where this attempt went now (an item's webhook URL changed since the delivery
 * was created): the row then names the URL its latest attempt was sent to.
 */
export async function recordAttempt(
  deps: Deps,
  d: Pick<DeliveryRecord, 'eventId' | 'endpointId' | 'replay'>,
  attempt: DeliveryAttempt,
  status: DeliveryStatus,
  url?: string,
): Promise<void> {
  // Only a pending delivery moves on; a late write after the end changes nothing.
  await writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.delivery(d.eventId, d.endpointId, d.replay),
        UpdateExpression: `SET attempts = list_append(attempts, :a), #status = :s${status === 'pending' ? '' : ', finished_at = :at'}${url === undefined ? '' : ', #url = :url'}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status', ...(url === undefined ? {} : { '#url': 'url' }) },
        ExpressionAttributeValues: {
          ':a': [attempt],
          ':s': status,
          ':pending': 'pending',
          ...(status === 'pending' ? {} : { ':at': attempt.at }),
          ...(url === undefined ? {} : { ':url': url }),
        },
      }),
    ),
  );
}

export async function finishDelivery(deps: Deps, d: Pick<DeliveryRecord, 'eventId' | 'endpointId' | 'replay'>, status: DeliveryStatus): Promise<void> {
  // Only a pending delivery moves on; a late write after the end changes nothing.
  await writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.delivery(d.eventId, d.endpointId, d.replay),
        UpdateExpression: 'SET #status = :s, finished_at = :at',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':s': status, ':pending': 'pending', ':at': new Date(deps.clock.now()).toISOString() },
      }),
    ),
  );
}

// A deliveries page cursor is the position (GSI sort key) of the last delivery of the page before.
const DELIVERY_POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#(evt_[A-Za-z0-9]+:(?:whep|item)_[A-Za-z0-9]+:\d+)$/;

/** Whether `cursor` is a position `listDeliveries` could have returned as `next`. */
export function isDeliveryCursor(cursor: string): boolean {
  const m = DELIVERY_POSITION.exec(cursor);
  if (!m) return false;
  const at = Date.parse(m[1]);
  return Number.isFinite(at) && new Date(at).toISOString() === m[1] && parseDeliveryId(m[2]) !== null;
}

/**
 * A page of the environment's deliveries, newest first, without expired ones. A delivery expires
 * `created + retention`, and the index orders by creation time, so the expired ones are exactly the
 * oldest: once a page holds one, no later page holds a live one, and the list ends there.
 */
export async function listDeliveries(
  deps: Deps,
  applicationId: string,
  environment: Environment,
  opts: { count: number; before?: string },
): Promise<{ deliveries: DeliveryRecord[]; next: string | null }> {
  const { gsi1pk } = keys.deliveriesOfApplication(applicationId, environment);
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: opts.before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ...(opts.before ? { ':before': opts.before } : {}) },
      ScanIndexForward: false,
      Limit: opts.count,
    }),
  );
  const items = res.Items ?? [];
  const now = deps.clock.now();
  const live = items.filter((r) => !isExpired(deliveryFromRow(r), now));
  const reachedExpired = live.length < items.length;
  return {
    deliveries: live.map(deliveryFromRow),
    next: res.LastEvaluatedKey && !reachedExpired ? (items[items.length - 1].gsi1sk as string) : null,
  };
}
