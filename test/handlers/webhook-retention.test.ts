// Events and deliveries are kept EVENT_RETENTION_DAYS: their rows carry the table's TTL attribute,
// and since DynamoDB deletes expired rows lazily (DynamoDB Local never does), the API treats a row
// past its expires_at as absent: the deliveries list drops it, replay answers event_not_found as for
// an unknown event. An event still in the outbox has no expiry, however long it waits there.
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '../../functions/platform/aws/dynamodb';
import { handler as listDeliveriesHandler } from '../../functions/api/webhooks.deliveries.list';
import { handler as replayHandler } from '../../functions/api/webhooks.events.replay';
import { registerEndpoint, replayEvent, sweepOutbox } from '../../functions/app/webhooks';
import { EVENT_RETENTION_DAYS } from '../../functions/contracts/limits';
import { generateApiKey } from '../../functions/core/api-keys';
import { emitEvent } from '../../functions/data/events';
import { issueKey, putApplication } from '../../functions/data/api-keys-repo';
import { keys } from '../../functions/data/keys';
import { getEvent, putEvent, unpublishedEvents } from '../../functions/data/webhooks-repo';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { configureRuntime, createDeps, NO_PORTS, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { manualClock, type ManualClock } from '../support/embedded';

const DAY_MS = 86_400_000;
const RETENTION_SECONDS = EVENT_RETENTION_DAYS * 86_400;
const context = { functionName: 'retention', awsRequestId: 'retention', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

interface Harness {
  deps: Deps & { clock: ManualClock };
  key: string;
  tenant: { applicationId: string; environment: 'test' };
  endpointId: string;
}

/**
 * A fresh table, an application with a test key and one endpoint; the event bus accepts everything
 * and delivery executions are only recorded (replays POST nothing here).
 */
async function harness(): Promise<Harness> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest (handlers layer)');
  const tableName = `wr_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  const deps = createDeps(
    { tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint, connectorEnv: {} },
    { clock: manualClock(), ports: { ...NO_PORTS, eventBus: { publish: async () => undefined }, deliveries: { start: async () => true } } },
  ) as Deps & { clock: ManualClock };
  const app = { applicationId: `app_ret_${randomUUID().slice(0, 8)}`, name: 'Retention', plan: 'enterprise' as const };
  await putApplication(deps, app);
  const key = generateApiKey('test');
  await issueKey(deps, app, key);
  const tenant = { applicationId: app.applicationId, environment: 'test' as const };
  const { endpoint: registered } = await registerEndpoint(deps, tenant, 'https://93.184.216.34/retention-hook');
  configureRuntime(deps);
  return { deps, key, tenant, endpointId: registered.endpointId };
}

async function rawRow(deps: Deps, key: { pk: string; sk: string }) {
  return (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: key, ConsistentRead: true }))).Item;
}

async function listAll(h: Harness, count: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const res = await listDeliveriesHandler(apiEvent('POST', '/v1/webhooks/deliveries/list', { key: h.key, body: { count, ...(cursor ? { cursor } : {}) } }), context);
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body) as { deliveries: { delivery_id: string }[]; next_cursor: string | null };
    pages.push(body.deliveries.map((d) => d.delivery_id));
    cursor = body.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

const replay = (h: Harness, eventId: string) => replayHandler(apiEvent('POST', '/v1/webhooks/events/replay', { key: h.key, body: { event_id: eventId } }), context);

const emit = (h: Harness) => emitEvent(h.deps, h.tenant, 'item.login_repaired', { item_id: 'item_retention' });

describe('event and delivery retention', () => {
  it('gives a published event expires_at = created + the retention, and each delivery created + the retention', async () => {
    const h = await harness();
    const eventId = await emit(h);
    const event = await rawRow(h.deps, keys.event(eventId));
    expect(event).toMatchObject({ published: true, expires_at: event!.created + RETENTION_SECONDS });
    expect(event!.gsi1pk).toBeUndefined();

    h.deps.clock.advance(3 * DAY_MS);
    const [deliveryId] = await replayEvent(h.deps, h.tenant, eventId);
    const delivery = await rawRow(h.deps, keys.delivery(eventId, h.endpointId, 0));
    expect(delivery).toMatchObject({ delivery_id: deliveryId, expires_at: Math.floor(h.deps.clock.now() / 1000) + RETENTION_SECONDS });
    // Its entry in the application's deliveries index is the same row: the TTL removes both.
    expect(delivery!.gsi1pk).toBe(keys.deliveriesOfApplication(h.tenant.applicationId, h.tenant.environment).gsi1pk);
  });

  it('keeps an unpublished event in the outbox with no expiry, however long it waits, and starts its retention on publish', async () => {
    const h = await harness();
    const created = Math.floor(h.deps.clock.now() / 1000);
    await putEvent(h.deps, { eventId: 'evt_waiting', type: 'item.login_repaired', created, ...h.tenant, data: { item_id: 'item_retention' } });
    h.deps.clock.advance((EVENT_RETENTION_DAYS + 5) * DAY_MS);

    expect((await rawRow(h.deps, keys.event('evt_waiting')))?.expires_at).toBeUndefined();
    expect(await unpublishedEvents(h.deps, h.deps.clock.now())).toEqual(['evt_waiting']);
    // Still an event the API knows: a replay of it is accepted.
    expect((await replay(h, 'evt_waiting')).statusCode).toBe(200);

    expect(await sweepOutbox(h.deps)).toBe(1);
    expect(await rawRow(h.deps, keys.event('evt_waiting'))).toMatchObject({ published: true, expires_at: created + RETENTION_SECONDS });
    expect(await unpublishedEvents(h.deps, h.deps.clock.now())).toEqual([]);
  });

  it('hides deliveries past their expires_at from the deliveries list, on every page, though the rows are still stored', async () => {
    const h = await harness();
    const eventId = await emit(h);
    const [oldest] = await replayEvent(h.deps, h.tenant, eventId);
    h.deps.clock.advance(10 * DAY_MS);
    const [middle] = await replayEvent(h.deps, h.tenant, eventId);
    h.deps.clock.advance(10 * DAY_MS);
    const [newest] = await replayEvent(h.deps, h.tenant, eventId);

    expect(await listAll(h, 20)).toEqual([[newest, middle, oldest]]);
    // One second past the oldest delivery's retention.
    h.deps.clock.advance((EVENT_RETENTION_DAYS - 20) * DAY_MS + 1000);
    expect(await rawRow(h.deps, keys.delivery(eventId, h.endpointId, 0))).toBeDefined();
    expect(await listAll(h, 20)).toEqual([[newest, middle]]);
    // Paging one at a time ends at the first expired delivery instead of returning it.
    expect((await listAll(h, 1)).flat()).toEqual([newest, middle]);
  });

  it('hides a delivery stored before retention existed (no expires_at) once it is older than the retention', async () => {
    const h = await harness();
    const createdAt = new Date(h.deps.clock.now()).toISOString();
    const deliveryId = `evt_legacy:${h.endpointId}:0`;
    await h.deps.ddb.send(
      new PutCommand({
        TableName: h.deps.config.tableName,
        Item: {
          ...keys.delivery('evt_legacy', h.endpointId, 0),
          ...keys.deliveryByApplication(h.tenant.applicationId, h.tenant.environment, createdAt, deliveryId),
          delivery_id: deliveryId,
          event_id: 'evt_legacy',
          event_type: 'item.login_repaired',
          endpoint_id: h.endpointId,
          url: 'https://93.184.216.34/retention-hook',
          application_id: h.tenant.applicationId,
          environment: h.tenant.environment,
          replay: 0,
          status: 'delivered',
          attempts: [],
          created_at: createdAt,
          finished_at: createdAt,
        },
      }),
    );
    expect(await listAll(h, 20)).toEqual([[deliveryId]]);
    h.deps.clock.advance(EVENT_RETENTION_DAYS * DAY_MS);
    expect(await listAll(h, 20)).toEqual([[]]);
  });

  it('answers a replay of an event past its retention with the not-found envelope an unknown event gets', async () => {
    const h = await harness();
    const eventId = await emit(h);
    h.deps.clock.advance(EVENT_RETENTION_DAYS * DAY_MS - 1000);
    expect((await replay(h, eventId)).statusCode).toBe(200);

    h.deps.clock.advance(1000);
    expect(await getEvent(h.deps, eventId)).toBeDefined(); // not deleted yet: the TTL is lazy
    const expired = await replay(h, eventId);
    const unknown = await replay(h, 'evt_neverexisted');
    expect(expired.statusCode).toBe(404);
    const error = JSON.parse(expired.body).error;
    expect(error).toMatchObject({ type: 'not_found', code: 'event_not_found', request_id: expired.headers?.['X-Request-Id'] });
    expect(unknown.statusCode).toBe(404);
    // The same envelope but for the request id.
    expect(error).toEqual({ ...JSON.parse(unknown.body).error, request_id: error.request_id });
  });
});
