// Tenant isolation from the outside: every item-scoped route, called with a token that is not the
// caller's to use, answers exactly what an unknown token gets (same status, type and code).
import { ROUTES } from '../../functions/contracts/routes';
import { updateItemState } from '../../functions/data/items-repo';
import { makeKey, startTestStack, type TestStack } from '../support/stack';
import { VALID } from '../support/valid-bodies';

let stack: TestStack;
const ownKey = makeKey('test');
const ownLiveKey = makeKey('live');
const otherAppKey = makeKey('test');
const tokens: Record<string, string> = {};

async function exchangeSandbox(key: string, username = 'user_good') {
  const pt = await stack.call('/v1/sandbox/public_token/create', {
    key,
    body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'], username },
  });
  const ex = await stack.call('/v1/link/token/exchange', { key, body: { public_token: pt.json.public_token } });
  return ex.json as { access_token: string; item_id: string };
}

beforeAll(async () => {
  stack = await startTestStack([
    { application: 'Owner', plan: 'enterprise', keys: [ownKey, ownLiveKey] },
    { application: 'Other', plan: 'enterprise', keys: [otherAppKey] },
  ]);
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
  tokens.unknown = 'fc_at_' + 'Q'.repeat(40);
});
afterAll(() => stack.stop());

const itemRoutes = ROUTES.filter((r) => r.item);

const answer = async (path: string, key: string, body: Record<string, unknown>, accessToken: string) => {
  const res = await stack.call(path, { key, body: { ...body, access_token: accessToken } });
  return { status: res.status, type: res.json?.error?.type, code: res.json?.error?.code };
};

describe('isolation on every item-scoped route', () => {
  it('covers every item route', () => {
    expect(itemRoutes.length).toBeGreaterThanOrEqual(15);
  });

  it.each(itemRoutes.map((r) => [r.id, r] as const))('%s: foreign, other-environment, removed and rotated-out tokens look unknown', async (_id, route) => {
    const body = VALID[route.id];
    // items.remove really removes: it gets an item of its own so the others keep theirs.
    const valid = route.id === 'items.remove' ? (await exchangeSandbox(ownKey, 'user_good_removable')).access_token : tokens.valid;
    const unknownOwn = await answer(route.path, ownKey, body, tokens.unknown);
    expect(unknownOwn.status).toBeLessThan(500);
    // (a) another application's key with our valid token
    expect(await answer(route.path, otherAppKey, body, valid)).toEqual(await answer(route.path, otherAppKey, body, tokens.unknown));
    // (b) our own application's other-environment key
    expect(await answer(route.path, ownLiveKey, body, valid)).toEqual(await answer(route.path, ownLiveKey, body, tokens.unknown));
    // (c) a removed item's token, (d) a rotated-out token
    expect(await answer(route.path, ownKey, body, tokens.removed)).toEqual(unknownOwn);
    expect(await answer(route.path, ownKey, body, tokens.rotatedOut)).toEqual(unknownOwn);
    // and the valid token is not refused for being the caller's own
    expect((await answer(route.path, ownKey, body, valid)).code).not.toBe('invalid_access_token');
  });
});
