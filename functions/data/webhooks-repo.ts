// Webhook endpoints, the per-environment signing secrets (sealed), events with their outbox state,
// and deliveries with every attempt.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryByPrefix, writeIf, type Row } from './dynamo';
import type { Environment } from '../contracts/schemas';
import { TABLE, keys } from './keys';
import type { SealedSecret } from '../platform/crypto/envelope';
import type { Deps } from '../platform/runtime';

// ---------- endpoints ----------

export interface WebhookEndpoint {
  endpointId: string;
  applicationId: string;
  environment: Environment;
  url: string;
  createdAt: string;
}

const endpointFromRow = (r: Row): WebhookEndpoint => ({
  endpointId: r.endpoint_id,
  applicationId: r.application_id,
  environment: r.environment,
  url: r.url,
  createdAt: r.created_at,
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

export async function putEndpoint(deps: Deps, e: WebhookEndpoint): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.webhookEndpoint(e.applicationId, e.environment, e.endpointId),
        endpoint_id: e.endpointId,
        application_id: e.applicationId,
        environment: e.environment,
        url: e.url,
        created_at: e.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function deleteEndpoint(deps: Deps, applicationId: string, environment: Environment, endpointId: string): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new DeleteCommand({
        TableName: deps.config.tableName,
        Key: keys.webhookEndpoint(applicationId, environment, endpointId),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    ),
  );
}

// ---------- signing secrets ----------

export interface SecretRecord {
  current: SealedSecret;
  previous: SealedSecret | null;
  /** ms; the previous secret still signs until then (rotation grace period). */
  previousExpiresAt: number | null;
  rotatedAt: string;
}

export async function getSecretRecord(deps: Deps, applicationId: string, environment: Environment): Promise<SecretRecord | undefined> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.webhookSecret(applicationId, environment), ConsistentRead: true }),
  );
  const r = res.Item;
  if (!r) return undefined;
  return { current: r.current, previous: r.previous ?? null, previousExpiresAt: r.previous_expires_at ?? null, rotatedAt: r.rotated_at };
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

export async function rotateSecretRecord(
  deps: Deps,
  applicationId: string,
  environment: Environment,
  next: SealedSecret,
  previous: SealedSecret,
  previousExpiresAt: number,
): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.webhookSecret(applicationId, environment),
      UpdateExpression: 'SET #current = :next, previous = :prev, previous_expires_at = :exp, rotated_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#current': 'current' },
      ExpressionAttributeValues: { ':next': next, ':prev': previous, ':exp': previousExpiresAt, ':at': new Date(deps.clock.now()).toISOString() },
    }),
  );
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
  published: boolean;
}

const eventFromRow = (r: Row): EventRecord => ({
  eventId: r.event_id,
  type: r.type,
  created: r.created,
  applicationId: r.application_id,
  environment: r.environment,
  data: r.data,
  published: r.published === true,
});

/** The event row as a Put, so callers can commit it in the same transaction as the change. */
export function eventPut(deps: Deps, e: Omit<EventRecord, 'published'>) {
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
      published: false,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

export async function putEvent(deps: Deps, e: Omit<EventRecord, 'published'>): Promise<void> {
  await deps.ddb.send(new PutCommand(eventPut(deps, e)));
}

export async function getEvent(deps: Deps, eventId: string): Promise<EventRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.event(eventId), ConsistentRead: true }));
  return res.Item ? eventFromRow(res.Item) : undefined;
}

export async function markPublished(deps: Deps, eventId: string): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.event(eventId),
      UpdateExpression: 'SET published = :true REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}

/** Unpublished events created before `before` (ms): what a crash between commit and publish left. */
export async function unpublishedEvents(deps: Deps, before: number, limit = 100): Promise<string[]> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :outbox AND gsi1sk < :before',
      ExpressionAttributeValues: { ':outbox': 'OUTBOX', ':before': new Date(before).toISOString() },
      Limit: limit,
    }),
  );
  return (res.Items ?? []).map((r) => r.event_id as string);
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
  endpointId: string;
  url: string;
  applicationId: string;
  environment: Environment;
  replay: number;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  createdAt: string;
  finishedAt: string | null;
}

const deliveryFromRow = (r: Row): DeliveryRecord => ({
  deliveryId: r.delivery_id,
  eventId: r.event_id,
  eventType: r.event_type,
  endpointId: r.endpoint_id,
  url: r.url,
  applicationId: r.application_id,
  environment: r.environment,
  replay: r.replay,
  status: r.status,
  attempts: r.attempts ?? [],
  createdAt: r.created_at,
  finishedAt: r.finished_at ?? null,
});

export function deliveryIdOf(eventId: string, endpointId: string, replay: number): string {
  return `${eventId}:${endpointId}:${replay}`;
}

export function parseDeliveryId(deliveryId: string): { eventId: string; endpointId: string; replay: number } | null {
  const m = /^(evt_[A-Za-z0-9]+):(whep_[A-Za-z0-9]+):(\d+)$/.exec(deliveryId);
  return m ? { eventId: m[1], endpointId: m[2], replay: Number(m[3]) } : null;
}

/** Creates the delivery row once; false when it exists (a duplicate dispatch of the same event). */
export async function createDelivery(deps: Deps, event: EventRecord, endpoint: WebhookEndpoint, replay: number): Promise<DeliveryRecord | null> {
  const createdAt = new Date(deps.clock.now()).toISOString();
  const deliveryId = deliveryIdOf(event.eventId, endpoint.endpointId, replay);
  const row = {
    ...keys.delivery(event.eventId, endpoint.endpointId, replay),
    ...keys.deliveryByApplication(event.applicationId, event.environment, createdAt, deliveryId),
    delivery_id: deliveryId,
    event_id: event.eventId,
    event_type: event.type,
    endpoint_id: endpoint.endpointId,
    url: endpoint.url,
    application_id: event.applicationId,
    environment: event.environment,
    replay,
    status: 'pending',
    attempts: [],
    created_at: createdAt,
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

/** Appends one attempt; the status moves on only from `pending` (an attempt after the end is ignored). */
export async function recordAttempt(deps: Deps, d: Pick<DeliveryRecord, 'eventId' | 'endpointId' | 'replay'>, attempt: DeliveryAttempt, status: DeliveryStatus): Promise<void> {
  // Only a pending delivery moves on; a late write after the end changes nothing.
  await writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.delivery(d.eventId, d.endpointId, d.replay),
        UpdateExpression: `SET attempts = list_append(attempts, :a), #status = :s${status === 'pending' ? '' : ', finished_at = :at'}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':a': [attempt], ':s': status, ':pending': 'pending', ...(status === 'pending' ? {} : { ':at': attempt.at }) },
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

export async function listDeliveries(
  deps: Deps,
  applicationId: string,
  environment: Environment,
  opts: { count: number; before?: string },
): Promise<{ deliveries: DeliveryRecord[]; next: string | null }> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: opts.before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `DLVS#${applicationId}#${environment}`, ...(opts.before ? { ':before': opts.before } : {}) },
      ScanIndexForward: false,
      Limit: opts.count,
    }),
  );
  const items = res.Items ?? [];
  return { deliveries: items.map(deliveryFromRow), next: res.LastEvaluatedKey ? (items[items.length - 1].gsi1sk as string) : null };
}
