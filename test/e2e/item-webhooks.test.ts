// Webhook URLs per item, end to end over real HTTP with a loopback receiver: the `webhook` of link
// token creation and /v1/item/webhook/update make a URL the item's own destination (not an
// environment endpoint, so no cap), deliveries to it are signed with the environment's secret,
// logged with `destination: item`, retried and dead-lettered like any other; the secret is shown
// once; updates move deliveries and null stops them; a URL that is also an endpoint gets one
// delivery; another application cannot touch the item; bad URLs answer the error envelope.
import { verifyWebhook } from '../../functions/core/webhook-signature';
import { deliveriesOfEvent } from '../../functions/data/webhooks-repo';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { startReceiver, type Received, type Receiver } from '../support/receiver';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
/** Application Hooks: the items whose own URLs are exercised; no endpoint is ever registered for it. */
const key = makeKey('test');
const liveKey = makeKey('live');
/** Another application: isolation, and an environment whose first webhook is set by the update route. */
const otherKey = makeKey('test');
/** A third application: a URL that is both an endpoint and an item's webhook. */
const sharedKey = makeKey('test');
/** The Hooks test environment's signing secret, shown by the first link token created with a webhook. */
let secret: string;

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

const settle = () => stack.background.idle();

/**
 * A connected sandbox item of the key's application, its history loaded (nothing more on its way).
 * Identity only, unless asked: no transaction history to load, which keeps 26 of them quick.
 */
async function sandboxItem(username: string, k = key, products = ['identity']) {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products, username }, { key: k });
  const ex = await post('/v1/link/token/exchange', { public_token: pt.json.public_token }, { key: k });
  await stack.historyLoaded(ex.json.item_id);
  return ex.json as { access_token: string; item_id: string };
}

/** An item connected through hosted Link's API with the link token's `webhook`. */
async function linkedItem(webhook: string, username: string) {
  const lt = await post('/v1/link/token/create', { user: { client_user_id: username }, products: ['transactions'], webhook });
  const connected = await post('/link/api/connect', { link_token: lt.json.link_token, institution_id: 'ins_sandbox_first_bank', username, password: 'pass_good' }, { key: null });
  const ex = await post('/v1/link/token/exchange', { public_token: connected.json.public_token });
  await stack.historyLoaded(ex.json.item_id);
  return { ...(ex.json as { access_token: string; item_id: string }), webhookSecret: lt.json.webhook_secret as string | null };
}

function verified(r: Received, secrets = [secret]) {
  const result = verifyWebhook({ rawBody: r.body, signature: r.headers['fc-signature'], timestamp: r.headers['fc-timestamp'], secrets });
  if (!result.ok) throw new Error(`signature did not verify: ${result.reason}`);
  return result.event;
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);

beforeAll(async () => {
  stack = await startTestStack([
    { application: 'Hooks', plan: 'enterprise', keys: [key, liveKey] },
    { application: 'Other', plan: 'enterprise', keys: [otherKey] },
    { application: 'Shared', plan: 'enterprise', keys: [sharedKey] },
  ]);
  receiver = await startReceiver();
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

describe("the link token's webhook is the item's own URL", () => {
  it('delivers the item\u2019s events there, signed with the secret shown once, without registering an endpoint; another item\u2019s events go elsewhere', async () => {
    const first = await linkedItem(receiver.url('/item-a'), 'user_good_a');
    // The environment's first webhook: this call created the signing secret and shows it.
    expect(first.webhookSecret).toMatch(/^whsec_/);
    secret = first.webhookSecret as string;
    const second = await linkedItem(receiver.url('/item-b'), 'user_good_b');
    expect(second.webhookSecret).toBeNull();
    // Each item's URL reads back on the item itself.
    const read = await post('/v1/items/get', { access_token: first.access_token });
    expect(read.json.item).toMatchObject({ item_id: first.item_id, webhook: receiver.url('/item-a') });

    for (const [path, itemId] of [
      ['/item-a', first.item_id],
      ['/item-b', second.item_id],
    ] as const) {
      const events = at(path).map((r) => verified(r));
      expect(events.map((e) => [e.type, e.data.item_id, e.data.historical_update_complete])).toEqual([
        ['transactions.sync_updates_available', itemId, false],
        ['transactions.sync_updates_available', itemId, true],
      ]);
    }
    expect((await post('/v1/webhooks/endpoints/list', {})).json.endpoints).toEqual([]);

    const log = await post('/v1/webhooks/deliveries/list', { count: 50 });
    const toFirst = log.json.deliveries.filter((d: { endpoint_id: string }) => d.endpoint_id === first.item_id);
    expect(toFirst).toHaveLength(2);
    for (const d of toFirst) expect(d).toMatchObject({ destination: 'item', url: receiver.url('/item-a'), status: 'delivered' });
  });

  it('shows the secret on link token creation only when that call created it', async () => {
    const again = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], webhook: receiver.url('/again') });
    expect(again.json.webhook_secret).toBeNull();
    const without = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'] });
    expect(without.json.webhook_secret).toBeNull();
  });
});

describe('/v1/item/webhook/update', () => {
  it('moves the item\u2019s deliveries to the new URL, announces it there, and stops them with null', async () => {
    const item = await sandboxItem('user_good_move', key, ['transactions']);
    expect(receiver.received).toHaveLength(0);

    const set = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/old') });
    expect(set.status).toBe(200);
    expect(set.json).toMatchObject({ item: { item_id: item.item_id }, webhook: receiver.url('/old') });
    // Run alone, this test is the environment's first webhook: the secret is shown then, once.
    secret ??= set.json.webhook_secret;
    const moved = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/new') });
    expect(moved.json).toMatchObject({ webhook: receiver.url('/new'), webhook_secret: null });
    await settle();
    expect(at('/old').map((r) => verified(r)).map((e) => [e.type, e.data])).toEqual([['item.webhook_updated', { item_id: item.item_id, new_webhook_url: receiver.url('/old') }]]);
    expect(at('/new').map((r) => verified(r)).map((e) => [e.type, e.data])).toEqual([['item.webhook_updated', { item_id: item.item_id, new_webhook_url: receiver.url('/new') }]]);

    receiver.received.length = 0;
    const fired = await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.error' });
    await settle();
    expect(receiver.received.map((r) => [r.path, verified(r).id])).toEqual([['/new', fired.json.event_id]]);

    receiver.received.length = 0;
    expect((await post('/v1/items/get', { access_token: item.access_token })).json.item.webhook).toBe(receiver.url('/new'));
    const cleared = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: null });
    expect(cleared.json).toMatchObject({ item: { webhook: null }, webhook: null, webhook_secret: null });
    expect((await post('/v1/items/get', { access_token: item.access_token })).json.item.webhook).toBeNull();
    await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.login_repaired' });
    await post('/v1/items/refresh', { access_token: item.access_token });
    await settle();
    expect(receiver.received).toEqual([]);
  });

  it('gives 26 items of one environment (beyond the endpoint cap of 10) a URL each, and each receives only its own events', async () => {
    const items = [];
    for (let i = 0; i < 26; i++) items.push(await sandboxItem(`user_good_many${i}`));
    for (const [i, item] of items.entries()) {
      const res = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url(`/many-${i}`) });
      expect(res.status).toBe(200);
    }
    await settle();
    receiver.received.length = 0;
    const fired = new Map<string, string>();
    for (const item of items) {
      const res = await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.login_repaired' });
      fired.set(item.item_id, res.json.event_id);
    }
    await settle();
    for (const [i, item] of items.entries()) {
      expect([i, at(`/many-${i}`).map((r) => verified(r)).map((e) => [e.id, e.data.item_id])]).toEqual([i, [[fired.get(item.item_id), item.item_id]]]);
    }
    expect(receiver.received).toHaveLength(26);
    expect((await post('/v1/webhooks/endpoints/list', {})).json.endpoints).toEqual([]);
  }, 240_000);

  it('retries a failing item URL on the schedule and records a dead letter after five attempts', async () => {
    const item = await sandboxItem('user_good_flaky');
    await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/flaky') });
    await settle();
    receiver.received.length = 0;

    receiver.script([503, 503], 200);
    const recovered = await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.error' });
    await settle();
    expect(receiver.received.map((r) => [r.path, r.status, r.headers['fc-delivery-attempt']])).toEqual([
      ['/flaky', 503, '1'],
      ['/flaky', 503, '2'],
      ['/flaky', 200, '3'],
    ]);
    expect(verified(receiver.received[2]).id).toBe(recovered.json.event_id);
    const [delivery] = await deliveriesOfEvent(stack.deps, recovered.json.event_id);
    expect(delivery).toMatchObject({ destination: 'item', endpointId: item.item_id, status: 'delivered' });

    receiver.received.length = 0;
    receiver.script([], 500);
    const dead = await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.login_repaired' });
    await settle();
    expect(receiver.received.map((r) => r.headers['fc-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    const log = await post('/v1/webhooks/deliveries/list', { count: 20 });
    const entry = log.json.deliveries.find((d: { event_id: string }) => d.event_id === dead.json.event_id);
    expect(entry).toMatchObject({ destination: 'item', endpoint_id: item.item_id, status: 'dead_lettered' });
    expect(entry.attempts).toHaveLength(5);

    // A replay of the item's delivery, named by the id the log shows, goes to the item's URL again.
    receiver.received.length = 0;
    receiver.script([], 200);
    const replay = await post('/v1/webhooks/events/replay', { event_id: dead.json.event_id, endpoint_id: item.item_id });
    expect(replay.json.delivery_ids).toEqual([`${dead.json.event_id}:${item.item_id}:1`]);
    await settle();
    expect(receiver.received.map((r) => [r.path, verified(r).id])).toEqual([['/flaky', dead.json.event_id]]);
  });

  it('shows the environment\u2019s secret when this call created it, once', async () => {
    const item = await sandboxItem('user_good_other', otherKey);
    const first = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/other') }, { key: otherKey });
    expect(first.json.webhook_secret).toMatch(/^whsec_/);
    const second = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/other-2') }, { key: otherKey });
    expect(second.json.webhook_secret).toBeNull();
    await settle();
    // Deliveries of that environment are signed with that secret.
    expect(at('/other-2').map((r) => verified(r, [first.json.webhook_secret]).type)).toEqual(['item.webhook_updated']);
  });

  it('refuses another application\u2019s access token as items/get does, and changes nothing', async () => {
    const item = await sandboxItem('user_good_guarded');
    await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/guarded') });
    const foreign = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: receiver.url('/stolen') }, { key: otherKey });
    const asRead = await post('/v1/items/get', { access_token: item.access_token }, { key: otherKey });
    expect([400, 404]).toContain(foreign.status);
    expect([foreign.status, foreign.json.error.code]).toEqual([asRead.status, asRead.json.error.code]);
    await settle();
    receiver.received.length = 0;
    await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.error' });
    await settle();
    expect(receiver.received.map((r) => r.path)).toEqual(['/guarded']);
  });

  it('answers bad URLs with the error envelope, as endpoint registration does', async () => {
    const item = await sandboxItem('user_good_badurls');
    const cases: Array<[string, unknown, string]> = [
      ['not a URL', 'not a url', 'invalid_field'],
      ['too long', `https://hooks.example.com/${'a'.repeat(1000)}`, 'invalid_field'],
      ['private address', 'https://10.0.0.1/hook', 'invalid_webhook_url'],
      ['link-local address', 'http://169.254.169.254/latest', 'invalid_webhook_url'],
      ['credentials', 'http://user:pw@127.0.0.1:9/h', 'invalid_webhook_url'],
    ];
    for (const [what, webhook, code] of cases) {
      const res = await post('/v1/item/webhook/update', { access_token: item.access_token, webhook });
      expect([what, res.status, res.json.error.type, res.json.error.code]).toEqual([what, 400, 'invalid_request', code]);
    }
    // Live keys: https only, as for endpoints (link token creation checks the URL the same way).
    const live = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], webhook: 'http://93.184.216.34/hook' }, { key: liveKey });
    expect([live.status, live.json.error.code]).toEqual([400, 'invalid_webhook_url']);
    const missing = await post('/v1/item/webhook/update', { access_token: item.access_token });
    expect([missing.status, missing.json.error.type]).toEqual([400, 'invalid_request']);
  });
});

describe('a URL that is both an endpoint and an item\u2019s webhook', () => {
  it('gets one delivery per event, as the endpoint', async () => {
    const shared = receiver.url('/shared');
    const endpoint = await post('/v1/webhooks/endpoints/create', { url: shared }, { key: sharedKey });
    const sharedSecret = endpoint.json.secret as string;
    const item = await sandboxItem('user_good_shared', sharedKey);
    await post('/v1/item/webhook/update', { access_token: item.access_token, webhook: shared }, { key: sharedKey });
    await settle();
    receiver.received.length = 0;
    const fired = await post('/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.error' }, { key: sharedKey });
    await settle();
    expect(receiver.received.map((r) => [r.path, verified(r, [sharedSecret]).id])).toEqual([['/shared', fired.json.event_id]]);
    const deliveries = await deliveriesOfEvent(stack.deps, fired.json.event_id);
    expect(deliveries.map((d) => [d.destination, d.endpointId])).toEqual([['endpoint', endpoint.json.endpoint.endpoint_id]]);
  });
});
