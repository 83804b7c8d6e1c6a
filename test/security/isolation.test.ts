// Tenant isolation from the outside. Every item-scoped route (from the route table), called with a
// token that is not the caller's to use, answers exactly what an unknown token gets; every webhook
// management route, called by another application or environment about this one's endpoints and
// events, answers exactly what an unknown id gets. Same status, type, code and message: the answer
// never tells whether the thing exists elsewhere.
import { ROUTES } from '../../functions/contracts/routes';
import { updateItemState } from '../../functions/data/items-repo';
import { startReceiver, type Receiver } from '../support/receiver';
import { makeKey, startTestStack, type TestStack } from '../support/stack';
import { VALID } from '../support/valid-bodies';
import { envelopeProblems, errorShape, quiesce, tableFingerprint } from './harness';

let stack: TestStack;
let receiver: Receiver;
const ownKey = makeKey('test');
const ownLiveKey = makeKey('live');
const otherAppKey = makeKey('test');
const otherAppLiveKey = makeKey('live');
const tokens: Record<'valid' | 'removed' | 'rotatedOut' | 'unknown', string> = { valid: '', removed: '', rotatedOut: '', unknown: 'fc_at_' + 'Q'.repeat(40) };
/** The owner's (test environment) webhook endpoint and one event delivered to it. */
const owned = { endpointId: '', eventId: '' };

async function exchangeSandbox(key: string, username = 'user_good') {
  const pt = await stack.call('/v1/sandbox/public_token/create', {
    key,
    body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'], username },
  });
  const ex = await stack.call('/v1/link/token/exchange', { key, body: { public_token: pt.json.public_token } });
  await stack.historyLoaded(ex.json.item_id);
  return ex.json as { access_token: string; item_id: string };
}

beforeAll(async () => {
  stack = await startTestStack([
    { application: 'Owner', plan: 'enterprise', keys: [ownKey, ownLiveKey] },
    { application: 'Other', plan: 'enterprise', keys: [otherAppKey, otherAppLiveKey] },
  ]);
  receiver = await startReceiver();
  tokens.valid = (await exchangeSandbox(ownKey)).access_token;
  const removed = await exchangeSandbox(ownKey, 'user_good_removed');
  await stack.call('/v1/items/remove', { key: ownKey, body: { access_token: removed.access_token } });
  tokens.removed = removed.access_token;
  const rotating = await exchangeSandbox(ownKey, 'user_good_rotating');
  await updateItemState(stack.deps, rotating.item_id, { status: 'login_required', error: { type: 'item_error', code: 'item_login_required', message: 'x' } });
  const lt = await stack.call('/v1/link/token/create', { key: ownKey, body: { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: rotating.item_id } });
  const connected = await stack.call('/link/api/connect', {
    key: null,
    body: { link_token: lt.json.link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' },
  });
  const rotated = await stack.call('/v1/link/token/exchange', { key: ownKey, body: { public_token: connected.json.public_token } });
  expect(rotated.json.rotated).toBe(true);
  tokens.rotatedOut = rotating.access_token;

  const endpoint = await stack.call('/v1/webhooks/endpoints/create', { key: ownKey, body: { url: receiver.url('/owner') } });
  expect(endpoint.status).toBe(200);
  owned.endpointId = endpoint.json.endpoint.endpoint_id;
  const fired = await stack.call('/v1/sandbox/fire_webhook', { key: ownKey, body: { access_token: tokens.valid, webhook_type: 'item.error' } });
  expect(fired.status).toBe(200);
  owned.eventId = fired.json.event_id;
  await quiesce(stack);
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

const itemRoutes = ROUTES.filter((r) => r.item);

const answer = async (path: string, key: string, body: Record<string, unknown>) => errorShape(await stack.call(path, { key, body }));
const withToken = (path: string, key: string, body: Record<string, unknown>, accessToken: string) => answer(path, key, { ...body, access_token: accessToken });

describe('isolation on every item-scoped route', () => {
  it('covers every item route', () => {
    expect(itemRoutes.length).toBeGreaterThanOrEqual(15);
  });

  it.each(itemRoutes.map((r) => [r.id, r] as const))('%s: foreign, other-environment, removed and rotated-out tokens look unknown', async (_id, route) => {
    const body = VALID[route.id];
    // items.remove really removes: it gets an item of its own so the others keep theirs.
    const valid = route.id === 'items.remove' ? (await exchangeSandbox(ownKey, 'user_good_removable')).access_token : tokens.valid;
    const unknownRes = await stack.call(route.path, { key: ownKey, body: { ...body, access_token: tokens.unknown } });
    expect(envelopeProblems(unknownRes)).toEqual([]);
    const unknownOwn = errorShape(unknownRes);
    // (a) another application's key with our valid token
    expect(await withToken(route.path, otherAppKey, body, valid)).toEqual(await withToken(route.path, otherAppKey, body, tokens.unknown));
    // (b) our own application's other-environment key
    expect(await withToken(route.path, ownLiveKey, body, valid)).toEqual(await withToken(route.path, ownLiveKey, body, tokens.unknown));
    // (c) a removed item's token, (d) a rotated-out token
    expect(await withToken(route.path, ownKey, body, tokens.removed)).toEqual(unknownOwn);
    expect(await withToken(route.path, ownKey, body, tokens.rotatedOut)).toEqual(unknownOwn);
    // and the valid token is not refused for being the caller's own
    expect((await withToken(route.path, ownKey, body, valid)).code).not.toBe('invalid_access_token');
  });
});

describe('isolation of webhook management', () => {
  /** Keys that do not own the endpoint and event: another application (both environments), our live environment. */
  const strangers = [
    ['another application (test)', otherAppKey],
    ['another application (live)', otherAppLiveKey],
    ['the same application, other environment', ownLiveKey],
  ] as const;
  const unknownEndpoint = 'whep_' + 'Z'.repeat(20);
  const unknownEvent = 'evt_' + 'Z'.repeat(24);

  it.each(strangers)('%s: deleting the endpoint answers as for an unknown endpoint, and deletes nothing', async (_who, key) => {
    const before = await tableFingerprint(stack);
    const foreign = await stack.call('/v1/webhooks/endpoints/delete', { key, body: { endpoint_id: owned.endpointId } });
    expect(envelopeProblems(foreign)).toEqual([]);
    expect(errorShape(foreign)).toEqual(await answer('/v1/webhooks/endpoints/delete', key, { endpoint_id: unknownEndpoint }));
    expect(await tableFingerprint(stack)).toBe(before);
  });

  it.each(strangers)('%s: replaying the event answers as for an unknown event, and delivers nothing', async (_who, key) => {
    const before = await tableFingerprint(stack);
    const received = receiver.received.length;
    const foreign = await stack.call('/v1/webhooks/events/replay', { key, body: { event_id: owned.eventId } });
    expect(envelopeProblems(foreign)).toEqual([]);
    expect(errorShape(foreign)).toEqual(await answer('/v1/webhooks/events/replay', key, { event_id: unknownEvent }));
    // naming the owner's endpoint as the target changes nothing
    const targeted = await answer('/v1/webhooks/events/replay', key, { event_id: owned.eventId, endpoint_id: owned.endpointId });
    expect(targeted).toEqual(await answer('/v1/webhooks/events/replay', key, { event_id: unknownEvent, endpoint_id: owned.endpointId }));
    await quiesce(stack);
    expect(receiver.received.length).toBe(received);
    expect(await tableFingerprint(stack)).toBe(before);
  });

  it.each(strangers)('%s: lists neither the endpoint nor its deliveries', async (_who, key) => {
    const endpoints = await stack.call('/v1/webhooks/endpoints/list', { key, body: {} });
    expect(endpoints.status).toBe(200);
    expect(JSON.stringify(endpoints.json)).not.toContain(owned.endpointId);
    const deliveries = await stack.call('/v1/webhooks/deliveries/list', { key, body: { count: 100 } });
    expect(deliveries.status).toBe(200);
    expect(JSON.stringify(deliveries.json)).not.toContain(owned.eventId);
    expect(JSON.stringify(deliveries.json)).not.toContain(owned.endpointId);
  });

  it('the owner still has its endpoint and can replay its event (the checks above were not vacuous)', async () => {
    const endpoints = await stack.call('/v1/webhooks/endpoints/list', { key: ownKey, body: {} });
    expect(endpoints.json.endpoints.map((e: { endpoint_id: string }) => e.endpoint_id)).toContain(owned.endpointId);
    const deliveries = await stack.call('/v1/webhooks/deliveries/list', { key: ownKey, body: { count: 100 } });
    expect(deliveries.json.deliveries.map((d: { event_id: string }) => d.event_id)).toContain(owned.eventId);
    const replay = await stack.call('/v1/webhooks/events/replay', { key: ownKey, body: { event_id: owned.eventId, endpoint_id: owned.endpointId } });
    expect(replay.status).toBe(200);
    expect(replay.json.delivery_ids).toHaveLength(1);
    await quiesce(stack);
  });
});
