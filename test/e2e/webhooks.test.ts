// Webhooks end to end with a real HTTP receiver on loopback: registration and secrets, signed
// deliveries on the retry schedule (compressed), dead letters, the outbox, de-duplication, refresh,
// the item lifecycle, rotation, replay and usage notices.
import { GetCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchEvent, sweepOutbox } from '../../functions/app/webhooks';
import { EVENT_TYPES } from '../../functions/contracts/events';
import { sha256Hex } from '../../functions/core/api-keys';
import { verifyWebhook } from '../../functions/core/webhook-signature';
import { keys, usageAttribute } from '../../functions/data/keys';
import { deliveriesOfEvent } from '../../functions/data/webhooks-repo';
import { startReceiver, type Received, type Receiver } from '../support/receiver';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
const key = makeKey('test');
const liveKey = makeKey('live');
let secret: string;

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

/** A connected sandbox item; its history loads in the background (tests wait with settle() or stack.historyLoaded). */
async function sandboxItem(username = 'user_good') {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'], username });
  const ex = await post('/v1/link/token/exchange', { public_token: pt.json.public_token });
  return ex.json as { access_token: string; item_id: string };
}

// Every delivered body is checked against its type's entry under `webhooks` in openapi.json.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')), 'openapi.json');

function assertPublishedShape(event: { type: string }): void {
  const ref = `openapi.json#/webhooks/${event.type}/post/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(event)) throw new Error(`${event.type} body does not match openapi.json: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(event)}`);
}

function verified(r: Received, secrets = [secret]) {
  const result = verifyWebhook({ rawBody: r.body, signature: r.headers['fc-signature'], timestamp: r.headers['fc-timestamp'], secrets });
  if (!result.ok) throw new Error(`signature did not verify: ${result.reason}`);
  assertPublishedShape(result.event);
  return result.event;
}

const settle = () => stack.background.idle();

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Hooks', plan: 'startup', keys: [key, liveKey] }]);
  receiver = await startReceiver();
  const created = await post('/v1/webhooks/endpoints/create', { url: receiver.url() });
  expect(created.json.created).toBe(true);
  secret = created.json.secret;
  expect(secret).toMatch(/^whsec_/);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});
beforeEach(async () => {
  await settle();
  receiver.received.length = 0;
  receiver.script([], 200);
});

describe('endpoints and secrets', () => {
  it('register idempotently per URL and show the secret only when it was created', async () => {
    const again = await post('/v1/webhooks/endpoints/create', { url: receiver.url() });
    expect(again.json).toMatchObject({ created: false, secret: null });
    const list = await post('/v1/webhooks/endpoints/list', {});
    expect(list.json.endpoints.map((e: { url: string }) => e.url)).toEqual([receiver.url()]);
  });

  it('refuse live endpoints that are not public https, and non-http schemes', async () => {
    for (const url of ['http://127.0.0.1:8080/h', 'https://127.0.0.1/h', 'https://10.0.0.1/h', 'https://169.254.169.254/latest']) {
      const res = await post('/v1/webhooks/endpoints/create', { url }, { key: liveKey });
      expect([url, res.status, res.json.error.code]).toEqual([url, 400, 'invalid_webhook_url']);
    }
    const creds = await post('/v1/webhooks/endpoints/create', { url: 'http://user:pw@127.0.0.1:9/h' });
    expect(creds.json.error.code).toBe('invalid_webhook_url');
  });

  it('keep the webhook field of link token creation for the item (no endpoint), and delete endpoints by id', async () => {
    const other = receiver.url('/from-link');
    const token = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], webhook: other });
    // The environment's secret exists already (beforeAll): not shown again.
    expect(token.json.webhook_secret).toBeNull();
    const before = await post('/v1/webhooks/endpoints/list', {});
    expect(before.json.endpoints.find((e: { url: string }) => e.url === other)).toBeUndefined();
    const found = (await post('/v1/webhooks/endpoints/create', { url: other })).json.endpoint;
    expect((await post('/v1/webhooks/endpoints/delete', { endpoint_id: found.endpoint_id })).json).toEqual({ deleted: true });
    const missing = await post('/v1/webhooks/endpoints/delete', { endpoint_id: found.endpoint_id });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'webhook_endpoint_not_found']);
  });

  it('keep secrets sealed at rest: the stored row holds no plaintext secret', async () => {
    const apps = stack.keys.filter((k) => k.environment === 'test');
    const row = await stack.deps.ddb.send(new GetCommand({ TableName: stack.deps.config.tableName, Key: keys.webhookSecret(apps[0].applicationId, 'test') }));
    expect(JSON.stringify(row.Item)).not.toContain(secret);
    expect(row.Item?.current).toMatchObject({ v: 1 });
  });
});

describe('delivery', () => {
  it('announces each stage of a new item\'s history with a signed transactions.sync_updates_available carrying its id and flags', async () => {
    const { item_id } = await sandboxItem();
    await stack.historyLoaded(item_id);
    const got = receiver.received.filter((r) => JSON.parse(r.body).data.item_id === item_id);
    expect(got).toHaveLength(2);
    const events = got.map((r) => verified(r));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['transactions.sync_updates_available', { item_id, initial_update_complete: true, historical_update_complete: false }],
      ['transactions.sync_updates_available', { item_id, initial_update_complete: true, historical_update_complete: true }],
    ]);
    for (const [i, event] of events.entries()) {
      expect(event.id).toMatch(/^evt_/);
      expect(typeof event.created).toBe('number');
      expect(got[i].headers['fc-event-id']).toBe(event.id);
    }
  });

  it('fires every event type of the catalogue from the sandbox, each body as openapi.json publishes it', async () => {
    const { access_token, item_id } = await sandboxItem('user_good_catalogue');
    await settle();
    receiver.received.length = 0;
    const fired = new Map<string, string>();
    for (const webhook_type of EVENT_TYPES) {
      const res = await post('/v1/sandbox/fire_webhook', { access_token, webhook_type });
      fired.set(res.json.event_id, webhook_type);
    }
    await settle();
    const events = receiver.received.map((r) => verified(r)).filter((e) => fired.has(e.id));
    expect(events.map((e) => e.type).sort()).toEqual([...EVENT_TYPES].sort());
    for (const e of events) expect(e.type).toBe(fired.get(e.id));
    expect(events.filter((e) => e.type.startsWith('item.') || e.type.startsWith('transactions.')).every((e) => e.data.item_id === item_id)).toBe(true);
  });

  it('retries a receiver that is down and delivers once, at the third attempt', async () => {
    const { access_token } = await sandboxItem('user_good_retry');
    await settle();
    receiver.received.length = 0;
    receiver.script([503, 503], 200);
    const fired = await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'item.error' });
    await settle();
    expect(receiver.received.map((r) => [r.status, r.headers['fc-delivery-attempt']])).toEqual([
      [503, '1'],
      [503, '2'],
      [200, '3'],
    ]);
    expect(verified(receiver.received[2]).id).toBe(fired.json.event_id);
    const [delivery] = await deliveriesOfEvent(stack.deps, fired.json.event_id);
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([503, 503, 200]);
  });

  it('makes exactly five attempts against a receiver that always fails, then records a dead letter', async () => {
    const { access_token } = await sandboxItem('user_good_dead');
    await settle();
    receiver.received.length = 0;
    receiver.script([], 500);
    const fired = await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'item.login_repaired' });
    await settle();
    expect(receiver.received.map((r) => r.headers['fc-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    const list = await post('/v1/webhooks/deliveries/list', { count: 20 });
    const dead = list.json.deliveries.find((d: { event_id: string }) => d.event_id === fired.json.event_id);
    expect(dead.status).toBe('dead_lettered');
    expect(dead.attempts).toHaveLength(5);
    expect(dead.attempts.every((a: { status_code: number; error: string }) => a.status_code === 500 && /500/.test(a.error))).toBe(true);
    expect(dead.finished_at).not.toBeNull();
  });

  it('still sends an event whose publish failed after it was committed (the outbox sweep)', async () => {
    const { access_token, item_id } = await sandboxItem('user_good_outbox');
    await settle();
    receiver.received.length = 0;
    const bus = stack.deps.ports.eventBus;
    const original = bus.publish;
    bus.publish = async () => {
      throw new Error('crash between commit and publish');
    };
    try {
      const fired = await post('/v1/sandbox/item/reset_login', { access_token });
      expect(fired.json).toEqual({ reset_login: true });
    } finally {
      bus.publish = original;
    }
    await settle();
    expect(receiver.received).toHaveLength(0);
    const later = { ...stack.deps, clock: { now: () => Date.now() + 31_000 } };
    expect(await sweepOutbox(later)).toBeGreaterThanOrEqual(1);
    await settle();
    const events = receiver.received.map((r) => verified(r));
    expect(events.filter((e) => e.type === 'item.error' && e.data.item_id === item_id)).toHaveLength(1);
  });

  it('makes one logical delivery when the same event is dispatched twice (duplicate queue message)', async () => {
    const { access_token } = await sandboxItem('user_good_dupe');
    await settle();
    receiver.received.length = 0;
    const fired = await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'transactions.sync_updates_available' });
    await Promise.all([dispatchEvent(stack.deps, fired.json.event_id), dispatchEvent(stack.deps, fired.json.event_id)]);
    await settle();
    expect(receiver.received.filter((r) => verified(r).id === fired.json.event_id)).toHaveLength(1);
    expect(await deliveriesOfEvent(stack.deps, fired.json.event_id)).toHaveLength(1);
  });

  it('replays an event as a new delivery with the same event id', async () => {
    const { access_token } = await sandboxItem('user_good_replay');
    await settle();
    const fired = await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'item.error' });
    await settle();
    receiver.received.length = 0;
    const replay = await post('/v1/webhooks/events/replay', { event_id: fired.json.event_id });
    expect(replay.json.delivery_ids).toHaveLength(1);
    await settle();
    expect(receiver.received.map((r) => verified(r).id)).toEqual([fired.json.event_id]);
    const unknown = await post('/v1/webhooks/events/replay', { event_id: 'evt_nope' });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'event_not_found']);
  });
});

describe('refresh and the item lifecycle', () => {
  it('refreshes on demand: answers at once, then the sync webhook announces adds, posts and a dropped pending', async () => {
    const { access_token, item_id } = await sandboxItem('user_good_refresh');
    await settle();
    let cursor: string | undefined;
    for (;;) {
      const page = await post('/v1/transactions/sync', { access_token, count: 500, ...(cursor ? { cursor } : {}) });
      cursor = page.json.next_cursor;
      if (!page.json.has_more) break;
    }
    receiver.received.length = 0;
    const res = await post('/v1/items/refresh', { access_token });
    expect(res.json).toEqual({ refreshing: true });
    await settle();
    const events = receiver.received.map((r) => verified(r)).filter((e) => e.data.item_id === item_id);
    expect(events.map((e) => e.type)).toEqual(['transactions.sync_updates_available']);
    const changes = await post('/v1/transactions/sync', { access_token, cursor, count: 500 });
    expect(changes.json.added.length).toBeGreaterThan(0);
    expect(changes.json.modified.some((t: { pending: boolean }) => t.pending === false)).toBe(true);
    expect(changes.json.removed.length).toBe(1);
  });

  it('resets a login: item.error fires, institution calls answer an item error, cached data still serves, update mode heals', async () => {
    const { access_token, item_id } = await sandboxItem('user_good_reset');
    await settle();
    receiver.received.length = 0;
    expect((await post('/v1/sandbox/item/reset_login', { access_token })).json).toEqual({ reset_login: true });
    await settle();
    expect(receiver.received.map((r) => verified(r)).map((e) => [e.type, e.data.item_id])).toEqual([['item.error', item_id]]);
    const balance = await post('/v1/accounts/balance/get', { access_token });
    expect([balance.status, balance.json.error.type, balance.json.error.code]).toEqual([400, 'item_error', 'item_login_required']);
    expect((await post('/v1/items/refresh', { access_token })).json.error.code).toBe('item_login_required');
    expect((await post('/v1/accounts/get', { access_token })).status).toBe(200);
    expect((await post('/v1/transactions/sync', { access_token, count: 5 })).status).toBe(200);
    expect((await post('/v1/items/get', { access_token })).json.item.status).toBe('login_required');

    receiver.received.length = 0;
    const lt = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: item_id });
    const connected = await post('/link/api/connect', { link_token: lt.json.link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' }, { key: null });
    const rotated = await post('/v1/link/token/exchange', { public_token: connected.json.public_token });
    expect(rotated.json.rotated).toBe(true);
    await settle();
    expect(receiver.received.map((r) => verified(r)).filter((e) => e.type === 'item.login_repaired').map((e) => e.data.item_id)).toEqual([item_id]);
    expect((await post('/v1/accounts/balance/get', { access_token: rotated.json.access_token })).status).toBe(200);
  });
});

describe('secret rotation', () => {
  it('signs with both the old and the new secret during the grace period', async () => {
    const { access_token } = await sandboxItem('user_good_rotate');
    await settle();
    const rotated = await post('/v1/webhooks/secret/rotate', { grace_period_hours: 2 });
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.json.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 3600_000);
    receiver.received.length = 0;
    await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'item.error' });
    await settle();
    const [delivery] = receiver.received;
    expect(String(delivery.headers['fc-signature']).split(',')).toHaveLength(2);
    verified(delivery, [secret]);
    verified(delivery, [rotated.json.secret]);
    expect(verifyWebhook({ rawBody: delivery.body, signature: delivery.headers['fc-signature'], timestamp: delivery.headers['fc-timestamp'], secret: 'whsec_wrong' })).toEqual({ ok: false, reason: 'signature_mismatch' });
    secret = rotated.json.secret;
  });
});

describe('usage notices', () => {
  it('fires usage.limit_approaching once at 80% and once at 95% of the monthly quota', async () => {
    const app = stack.keys.find((k) => k.key === key)!;
    const quota = 500_000;
    const setUsed = (n: number) =>
      stack.deps.ddb.send(
        new UpdateCommand({
          TableName: stack.deps.config.tableName,
          Key: keys.apiKey(sha256Hex(key)),
          UpdateExpression: 'SET #u = :n',
          ExpressionAttributeNames: { '#u': usageAttribute('api', new Date()) },
          ExpressionAttributeValues: { ':n': n },
        }),
      );
    receiver.received.length = 0;
    await setUsed(quota * 0.8 - 1);
    await post('/v1/categories/get', {});
    await post('/v1/categories/get', {});
    await setUsed(quota * 0.95 - 1);
    await post('/v1/categories/get', {});
    await post('/v1/categories/get', {});
    await settle();
    const notices = receiver.received.map((r) => verified(r)).filter((e) => e.type === 'usage.limit_approaching');
    expect(notices.map((e) => [e.data.quota, e.data.threshold_percent, e.data.used, e.data.limit])).toEqual([
      ['api', 80, quota * 0.8, quota],
      ['api', 95, quota * 0.95, quota],
    ]);
    expect(app.plan).toBe('startup');
  });
});

describe('webhook URLs with invisible characters', () => {
  const invisible = ['\u0000', '\u0007', '\u001b', '\u0085', '\u200b', '\u202e', '\u2066', '\ufeff'];
  const code = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

  it('refuses them on endpoint registration and on link token creation, naming the character, and stores nothing', async () => {
    for (const c of invisible) {
      const url = receiver.url(`/invisible${c}hook`);
      const direct = await post('/v1/webhooks/endpoints/create', { url });
      expect([code(c), direct.status, direct.json.error.type, direct.json.error.code]).toEqual([code(c), 400, 'invalid_request', 'invalid_webhook_url']);
      expect(direct.json.error.message).toContain(code(c));
      const viaLink = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], webhook: url });
      expect([code(c), viaLink.status, viaLink.json.error.code]).toEqual([code(c), 400, 'invalid_webhook_url']);
      expect(viaLink.json.error.message).toContain(code(c));
    }
    const list = await post('/v1/webhooks/endpoints/list', {});
    expect(list.json.endpoints.filter((e: { url: string }) => e.url.includes('invisible'))).toEqual([]);
  });
});

describe('deliveries list cursors', () => {
  it('pages with next_cursor, treats an empty cursor as none, and refuses any other cursor with invalid_cursor', async () => {
    const first = await post('/v1/webhooks/deliveries/list', { count: 1 });
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await post('/v1/webhooks/deliveries/list', { count: 1, cursor: first.json.next_cursor });
    expect(second.status).toBe(200);
    expect(second.json.deliveries[0].delivery_id).not.toBe(first.json.deliveries[0].delivery_id);
    const empty = await post('/v1/webhooks/deliveries/list', { count: 1, cursor: '' });
    expect(empty.json.deliveries).toEqual(first.json.deliveries);
    for (const cursor of ['garbage', '~', 'eyJwb3MiOjF9', '2026-13-45T99:99:99.999Z#evt_a:whep_b:0', `${first.json.next_cursor}x`]) {
      const res = await post('/v1/webhooks/deliveries/list', { count: 1, cursor });
      expect([cursor, res.status, res.json.error?.code]).toEqual([cursor, 400, 'invalid_cursor']);
    }
  });
});

describe('secret rotation, twice within the grace period', () => {
  it('keeps every secret still in its grace period signing, and says which ones and until when', async () => {
    const { access_token } = await sandboxItem('user_good_rotate2');
    await settle();
    const before = secret;
    const first = await post('/v1/webhooks/secret/rotate', { grace_period_hours: 24 });
    const second = await post('/v1/webhooks/secret/rotate', { grace_period_hours: 24 });
    const listed = second.json.signing_secrets as Array<{ last4: string; expires_at: string | null }>;
    expect(listed[0]).toEqual({ last4: second.json.secret.slice(-4), expires_at: null });
    expect(listed.map((s) => s.last4)).toEqual(expect.arrayContaining([first.json.secret.slice(-4), before.slice(-4)]));
    expect(listed.slice(1).every((s) => s.expires_at !== null && Date.parse(s.expires_at) > Date.now())).toBe(true);
    receiver.received.length = 0;
    await post('/v1/sandbox/fire_webhook', { access_token, webhook_type: 'item.error' });
    await settle();
    const [delivery] = receiver.received;
    expect(String(delivery.headers['fc-signature']).split(',')).toHaveLength(listed.length);
    for (const s of [before, first.json.secret, second.json.secret]) verified(delivery, [s]);
    secret = second.json.secret;
  });
});
