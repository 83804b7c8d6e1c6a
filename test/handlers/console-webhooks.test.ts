// The console's webhooks against DynamoDB Local: endpoints (the signing secret shown once, only by
// the call that created it), rotation (the new secret shown once), the delivery log with every
// attempt and its dead letters, and replay; no other answer carries a secret, nor a URL's query.
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  replayWebhookEvent,
  rotateWebhookSecret,
} from '../../functions/app/console/webhooks';
import { ApiError } from '../../functions/contracts/errors';
import type { DeliveryExecutionInput } from '../../functions/contracts/worker-messages';
import type { ApplicationScope } from '../../functions/data/request-log-repo';
import { createDelivery, destinationOfEndpoint, finishDelivery, listEndpoints, putEvent, recordAttempt, type DeliveryStatus, type EventRecord, type WebhookEndpoint } from '../../functions/data/webhooks-repo';
import { NO_PORTS, type Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';

const SCOPE: ApplicationScope = { applicationId: 'app_console_wh', environment: 'test' };
const URL_A = 'https://93.184.216.34/hook-a';
const URL_B = 'https://93.184.216.34/hook-b';

async function harness(): Promise<{ deps: Deps & { clock: ManualClock }; started: DeliveryExecutionInput[] }> {
  const deps = await embeddedDeps();
  const started: DeliveryExecutionInput[] = [];
  const deliveries = {
    start: async (input: DeliveryExecutionInput) => {
      started.push(input);
      return true;
    },
  };
  return { deps: { ...deps, ports: { ...NO_PORTS, deliveries } }, started };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

async function event(deps: Deps, eventId: string, scope: ApplicationScope = SCOPE): Promise<EventRecord> {
  const record = {
    eventId,
    type: 'transactions.sync_updates_available',
    created: Math.floor(deps.clock.now() / 1000),
    applicationId: scope.applicationId,
    environment: scope.environment,
    data: { item_id: 'item_wh' },
  };
  await putEvent(deps, record);
  return { ...record, published: false, expiresAt: null };
}

/** A delivery with its attempts so far and where it ended. */
async function delivery(deps: Deps & { clock: ManualClock }, e: EventRecord, endpoint: WebhookEndpoint, outcome: DeliveryStatus, attempts: number) {
  deps.clock.advance(1000);
  await createDelivery(deps, e, destinationOfEndpoint(endpoint), 0);
  const ref = { eventId: e.eventId, endpointId: endpoint.endpointId, replay: 0 };
  for (let n = 1; n <= attempts; n += 1) {
    const last = n === attempts;
    const delivered = outcome === 'delivered' && last;
    await recordAttempt(
      deps,
      ref,
      { attempt: n, at: new Date(deps.clock.now()).toISOString(), status_code: delivered ? 200 : 503, latency_ms: 40 + n, error: delivered ? null : 'endpoint answered HTTP 503' },
      delivered ? 'delivered' : 'pending',
    );
  }
  if (outcome === 'dead_lettered' || outcome === 'cancelled') await finishDelivery(deps, ref, outcome);
}

describe('console webhook endpoints and secrets', () => {
  it('shows the signing secret once, to the call that created it, and a rotated secret once; nothing else carries one', async () => {
    const { deps } = await harness();
    const first = await createWebhookEndpoint(deps, SCOPE, { url: URL_A });
    expect(first).toMatchObject({ created: true, endpoint: { url: URL_A } });
    expect(first.secret).toMatch(/^whsec_/);
    const second = await createWebhookEndpoint(deps, SCOPE, { url: URL_B });
    expect(second).toMatchObject({ created: true, secret: null });
    expect(await createWebhookEndpoint(deps, SCOPE, { url: URL_A })).toMatchObject({ created: false, secret: null, endpoint: { endpoint_id: first.endpoint.endpoint_id } });

    const rotated = await rotateWebhookSecret(deps, SCOPE, { grace_hours: 2 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(first.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(deps.clock.now() + 2 * 3_600_000).toISOString());
    expect(rotated.signing_secrets.map((s) => s.last4)).toEqual([rotated.secret.slice(-4), (first.secret as string).slice(-4)]);

    const e = await event(deps, 'evt_consolesecret');
    const [endpointA] = await listEndpoints(deps, SCOPE.applicationId, SCOPE.environment);
    await delivery(deps, e, endpointA, 'delivered', 1);
    const listed = JSON.stringify([
      await listWebhookEndpoints(deps, SCOPE),
      await listWebhookDeliveries(deps, SCOPE, {}),
      await listWebhookDeliveries(deps, SCOPE, { status: 'delivered' }),
      await createWebhookEndpoint(deps, SCOPE, { url: URL_B }),
    ]);
    for (const secret of [first.secret as string, rotated.secret]) {
      expect(listed).not.toContain(secret);
      expect(listed).not.toContain(secret.slice('whsec_'.length, -4));
    }
    expect((await listWebhookEndpoints(deps, SCOPE)).endpoints.map((x) => Object.keys(x).sort())).toEqual([
      ['created_at', 'endpoint_id', 'url'],
      ['created_at', 'endpoint_id', 'url'],
    ]);
  });

  it("masks a URL's query (which may carry the receiver's token) in every answer, and drops user info and fragment; URLs without them are shown as stored", async () => {
    const { deps } = await harness();
    const withToken = 'https://93.184.216.34/hook-q?token=s3cret-receiver-token&x=1#part';
    const created = await createWebhookEndpoint(deps, SCOPE, { url: withToken });
    expect(created.endpoint.url).toBe('https://93.184.216.34/hook-q?\u2026');
    await createWebhookEndpoint(deps, SCOPE, { url: URL_A });
    const e = await event(deps, 'evt_consolemask');
    const stored = await listEndpoints(deps, SCOPE.applicationId, SCOPE.environment);
    expect(stored.map((x) => x.url).sort()).toEqual([URL_A, withToken].sort());
    await delivery(deps, e, stored.find((x) => x.url === withToken)!, 'delivered', 1);
    const listed = await listWebhookEndpoints(deps, SCOPE);
    expect(listed.endpoints.map((x) => x.url).sort()).toEqual([URL_A, 'https://93.184.216.34/hook-q?\u2026'].sort());
    const deliveries = await listWebhookDeliveries(deps, SCOPE, {});
    expect(deliveries.deliveries.map((d) => d.url)).toEqual(['https://93.184.216.34/hook-q?\u2026']);
    const again = await createWebhookEndpoint(deps, SCOPE, { url: withToken });
    for (const answer of [created, listed, deliveries, again]) {
      expect(JSON.stringify(answer)).not.toContain('s3cret-receiver-token');
      expect(JSON.stringify(answer)).not.toContain('#part');
    }
  });

  it('deletes an endpoint once; a second delete, or another environment, is told it does not exist', async () => {
    const { deps } = await harness();
    const created = await createWebhookEndpoint(deps, SCOPE, { url: URL_A });
    expect((await refusal(deleteWebhookEndpoint(deps, { ...SCOPE, environment: 'live' }, { endpoint_id: created.endpoint.endpoint_id }))).code).toBe('webhook_endpoint_not_found');
    expect(await deleteWebhookEndpoint(deps, SCOPE, { endpoint_id: created.endpoint.endpoint_id })).toEqual({ deleted: true });
    expect((await refusal(deleteWebhookEndpoint(deps, SCOPE, { endpoint_id: created.endpoint.endpoint_id }))).code).toBe('webhook_endpoint_not_found');
    expect((await listWebhookEndpoints(deps, SCOPE)).endpoints).toEqual([]);
  });
});

describe('the console delivery log', () => {
  async function log() {
    const { deps, started } = await harness();
    await createWebhookEndpoint(deps, SCOPE, { url: URL_A });
    await createWebhookEndpoint(deps, SCOPE, { url: URL_B });
    const [endpointA, endpointB] = await listEndpoints(deps, SCOPE.applicationId, SCOPE.environment);
    const outcomes: Array<[DeliveryStatus, number]> = [
      ['delivered', 1],
      ['dead_lettered', 8],
      ['pending', 2],
      ['dead_lettered', 8],
      ['delivered', 3],
      ['dead_lettered', 8],
    ];
    const events: EventRecord[] = [];
    for (const [i, [outcome, attempts]] of outcomes.entries()) {
      const e = await event(deps, `evt_consolelog${i}`);
      events.push(e);
      await delivery(deps, e, i % 2 === 0 ? endpointA : endpointB, outcome, attempts);
    }
    // Another environment's deliveries never show.
    const liveScope = { ...SCOPE, environment: 'live' as const };
    await delivery(deps, await event(deps, 'evt_consolelive', liveScope), { ...endpointA, environment: 'live' }, 'dead_lettered', 1);
    return { deps, started, events, endpointA, endpointB };
  }

  it('lists deliveries newest first with every attempt (time, HTTP status, latency, error), a page at a time', async () => {
    const { deps, events } = await log();
    const page1 = await listWebhookDeliveries(deps, SCOPE, { count: 4 });
    expect(page1.deliveries.map((d) => d.event_id)).toEqual(['evt_consolelog5', 'evt_consolelog4', 'evt_consolelog3', 'evt_consolelog2']);
    const page2 = await listWebhookDeliveries(deps, SCOPE, { count: 4, cursor: page1.next_cursor as string });
    expect(page2.deliveries.map((d) => d.event_id)).toEqual(['evt_consolelog1', 'evt_consolelog0']);
    expect(page2.next_cursor).toBeNull();
    const retried = page1.deliveries.find((d) => d.event_id === 'evt_consolelog4');
    expect(retried?.status).toBe('delivered');
    expect(retried?.attempts).toEqual([
      { attempt: 1, at: expect.any(String), status_code: 503, latency_ms: 41, error: 'endpoint answered HTTP 503' },
      { attempt: 2, at: expect.any(String), status_code: 503, latency_ms: 42, error: 'endpoint answered HTTP 503' },
      { attempt: 3, at: expect.any(String), status_code: 200, latency_ms: 43, error: null },
    ]);
    expect(events).toHaveLength(6);
  });

  it('lists the dead letters alone when asked for status dead_lettered, a page at a time', async () => {
    const { deps } = await log();
    const page1 = await listWebhookDeliveries(deps, SCOPE, { status: 'dead_lettered', count: 2 });
    expect(page1.deliveries.map((d) => [d.event_id, d.status, d.attempts.length])).toEqual([
      ['evt_consolelog5', 'dead_lettered', 8],
      ['evt_consolelog3', 'dead_lettered', 8],
    ]);
    const page2 = await listWebhookDeliveries(deps, SCOPE, { status: 'dead_lettered', count: 2, cursor: page1.next_cursor as string });
    expect(page2).toMatchObject({ deliveries: [{ event_id: 'evt_consolelog1', status: 'dead_lettered' }], next_cursor: null });
    expect((await listWebhookDeliveries(deps, SCOPE, { status: 'pending' })).deliveries.map((d) => d.event_id)).toEqual(['evt_consolelog2']);
  });

  it('refuses a cursor it did not hand out', async () => {
    const { deps } = await log();
    const err = await refusal(listWebhookDeliveries(deps, SCOPE, { cursor: 'evt_x:whep_y:0' }));
    expect({ code: err.code, status: err.status }).toEqual({ code: 'invalid_cursor', status: 400 });
  });

  it('replays an event to every endpoint or to one, and only an event of this environment', async () => {
    const { deps, started, endpointB } = await log();
    const all = await replayWebhookEvent(deps, SCOPE, { event_id: 'evt_consolelog1' });
    expect(all.delivery_ids).toHaveLength(2);
    const one = await replayWebhookEvent(deps, SCOPE, { event_id: 'evt_consolelog1', endpoint_id: endpointB.endpointId });
    expect(one.delivery_ids).toEqual([`evt_consolelog1:${endpointB.endpointId}:2`]);
    expect(started.map((s) => s.delivery_id)).toEqual([...all.delivery_ids, ...one.delivery_ids]);
    expect((await refusal(replayWebhookEvent(deps, SCOPE, { event_id: 'evt_consolelive' }))).code).toBe('event_not_found');
    expect((await refusal(replayWebhookEvent(deps, { ...SCOPE, applicationId: 'app_other' }, { event_id: 'evt_consolelog1' }))).code).toBe('event_not_found');
    expect((await refusal(replayWebhookEvent(deps, SCOPE, { event_id: 'evt_consolelog1', endpoint_id: 'whep_nosuch' }))).code).toBe('webhook_endpoint_not_found');
  });
});
