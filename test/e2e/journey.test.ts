// The integrator's core journey over HTTP: link token, connect (the page's API), exchange, item,
// accounts and balances, transactions sync and get. Every response is checked against openapi.json.
import { QueryCommand } from '../../functions/platform/aws/dynamodb';
import { updateItemState } from '../../functions/data/items-repo';
import type { Json } from '../support/json';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

let stack: TestStack;
const key = makeKey('test');
const liveKey = makeKey('live');

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Journey', plan: 'enterprise', keys: [key, liveKey] }]);
});
afterAll(() => stack.stop());

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

async function linkToken(extra: Record<string, unknown> = {}, useKey = key) {
  const res = await post('/v1/link/token/create', { user: { client_user_id: 'user-1' }, products: ['transactions'], ...extra }, { key: useKey });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

async function connectViaLinkApi(username = 'user_good', extra: Record<string, unknown> = {}) {
  const token = await linkToken(extra);
  const res = await post('/link/api/connect', { link_token: token, institution_id: 'ins_sandbox_first_bank', username, password: 'pass_good' }, { key: null });
  expect(res.status).toBe(200);
  return { token, res };
}

async function exchange(publicToken: string) {
  const res = await post('/v1/link/token/exchange', { public_token: publicToken });
  expect(res.status).toBe(200);
  return res.json as { access_token: string; item_id: string; rotated: boolean };
}

/** A connected sandbox item whose history the refresh worker has loaded. */
async function sandboxItem(products = ['transactions'], username?: string) {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products, ...(username ? { username } : {}) });
  expect(pt.status).toBe(200);
  const exchanged = await exchange(pt.json.public_token);
  await stack.historyLoaded(exchanged.item_id);
  return exchanged;
}

async function syncAll(accessToken: string, count = 500, cursor?: string) {
  const added: Json[] = [];
  let next = cursor;
  for (;;) {
    const res = await post('/v1/transactions/sync', { access_token: accessToken, count, ...(next ? { cursor: next } : {}) });
    expect(res.status).toBe(200);
    added.push(...res.json.added);
    next = res.json.next_cursor;
    if (!res.json.has_more) return { added, cursor: next!, last: res.json };
  }
}

describe('link tokens', () => {
  it('last 30 minutes and carry the fc_link_ prefix', async () => {
    const res = await post('/v1/link/token/create', { client_name: 'Budgeteer', user: { client_user_id: 'u' }, products: ['transactions', 'identity'] });
    expect(res.json.link_token).toMatch(/^fc_link_/);
    const minutes = (Date.parse(res.json.expiration) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('describe their session to the page, with the preselected institution', async () => {
    const token = await linkToken({ institution_id: 'ins_sandbox_first_bank', redirect_uri: 'https://app.example.com/done' });
    const res = await post('/link/api/session', { link_token: token }, { key: null });
    expect(res.json).toMatchObject({ mode: 'create', environment: 'test', products: ['transactions'], redirect_uri: 'https://app.example.com/done' });
    expect(res.json.institution.institution_id).toBe('ins_sandbox_first_bank');
  });

  it('refuse products the preselected institution does not support and unknown institutions', async () => {
    const unsupported = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['income'], institution_id: 'ins_sandbox_crypto_wallet' });
    expect([unsupported.status, unsupported.json.error.code]).toEqual([400, 'products_not_supported']);
    const unknown = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], institution_id: 'ins_nope' });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'institution_not_found']);
  });

  it('open update mode only for an item of the same application and environment', async () => {
    const { item_id } = await sandboxItem();
    const ok = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: item_id });
    expect(ok.status).toBe(200);
    const live = await post('/v1/link/token/create', { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: item_id }, { key: liveKey });
    expect([live.status, live.json.error.code]).toEqual([400, 'invalid_item_id']);
  });
});

describe('connecting through the Link page API', () => {
  it('connects user_good and returns a public token, metadata and the redirect', async () => {
    const { res } = await connectViaLinkApi('user_good', { redirect_uri: 'https://app.example.com/done?x=1' });
    expect(res.json.status).toBe('connected');
    expect(res.json.public_token).toMatch(/^fc_pub_/);
    expect(res.json.metadata.accounts.length).toBeGreaterThanOrEqual(4);
    const redirect = new URL(res.json.redirect_url);
    expect(redirect.origin + redirect.pathname).toBe('https://app.example.com/done');
    expect(redirect.searchParams.get('x')).toBe('1');
    expect(redirect.searchParams.get('public_token')).toBe(res.json.public_token);
    expect(redirect.searchParams.get('item_id')).toBe(res.json.metadata.item_id);
  });

  it('asks user_mfa for a code, refuses a wrong one (retryable), accepts 1234', async () => {
    const token = await linkToken();
    const first = await post('/link/api/connect', { link_token: token, institution_id: 'ins_sandbox_first_bank', username: 'user_mfa', password: 'pass_good' }, { key: null });
    expect(first.json.status).toBe('mfa_required');
    const wrong = await post('/link/api/mfa', { link_token: token, code: '0000' }, { key: null });
    expect([wrong.status, wrong.json.error.type, wrong.json.error.code]).toEqual([400, 'item_error', 'invalid_mfa_code']);
    expect(wrong.json.error.message).toMatch(/attempts? left/);
    const right = await post('/link/api/mfa', { link_token: token, code: '1234' }, { key: null });
    expect(right.json.status).toBe('connected');
  });

  it('ends user_locked in the item error, and anything else is invalid credentials without connecting', async () => {
    const token = await linkToken();
    const locked = await post('/link/api/connect', { link_token: token, institution_id: 'ins_sandbox_first_bank', username: 'user_locked', password: 'pass_good' }, { key: null });
    expect([locked.status, locked.json.error.code]).toEqual([400, 'item_locked']);
    const other = await linkToken();
    const invalid = await post('/link/api/connect', { link_token: other, institution_id: 'ins_sandbox_first_bank', username: 'someone', password: 'pass_good' }, { key: null });
    expect([invalid.status, invalid.json.error.code]).toEqual([400, 'invalid_credentials']);
    const session = await post('/link/api/session', { link_token: other }, { key: null });
    expect(session.status).toBe(200);
  });

  it('locks a link after five failed attempts', async () => {
    const token = await linkToken();
    const attempt = () => post('/link/api/connect', { link_token: token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'nope' }, { key: null });
    const codes = [];
    for (let i = 0; i < 6; i += 1) codes.push((await attempt()).json.error.code);
    expect(codes).toEqual(['invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'invalid_credentials', 'too_many_attempts', 'too_many_attempts']);
  });

  it('refuses a link token once it has connected', async () => {
    const { token } = await connectViaLinkApi();
    const again = await post('/link/api/session', { link_token: token }, { key: null });
    expect([again.status, again.json.error.code]).toEqual([400, 'link_token_used']);
  });

  it('answers provider_error (502) for a live key, whose institutions have no enabled connector', async () => {
    const token = await linkToken({}, liveKey);
    const res = await post('/link/api/connect', { link_token: token, institution_id: 'ins_chase', username: 'user_good', password: 'pass_good' }, { key: null });
    expect([res.status, res.json.error.type]).toEqual([502, 'provider_error']);
  });
});

describe('exchange', () => {
  it('gives a permanent fc_at_ token once; two racing exchanges give exactly one success', async () => {
    const { res } = await connectViaLinkApi();
    const publicToken = res.json.public_token;
    const [a, b] = await Promise.all([
      stack.call('/v1/link/token/exchange', { key, body: { public_token: publicToken } }),
      stack.call('/v1/link/token/exchange', { key, body: { public_token: publicToken } }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 400]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(winner.json).toMatchObject({ item_id: res.json.metadata.item_id, rotated: false });
    expect(winner.json.access_token).toMatch(/^fc_at_/);
    expect(loser.json.error.code).toBe('public_token_used');
  });

  it('treats another environment\u2019s public token as unknown', async () => {
    const { res } = await connectViaLinkApi();
    const other = await post('/v1/link/token/exchange', { public_token: res.json.public_token }, { key: liveKey });
    expect([other.status, other.json.error.code]).toEqual([400, 'invalid_public_token']);
  });
});

describe('items', () => {
  it('report status, institution, consent and the last sync time', async () => {
    const { access_token, item_id } = await sandboxItem(['transactions', 'identity']);
    const res = await post('/v1/items/get', { access_token });
    expect(res.json.item).toMatchObject({ item_id, status: 'healthy', institution_id: 'ins_sandbox_first_bank', connector: 'sandbox', consented_products: ['transactions', 'identity'], error: null });
    expect(Date.parse(res.json.item.last_successful_sync)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('remove: the token dies at once, and the queued purge deletes every row the item owned but its purge row', async () => {
    const { access_token, item_id } = await sandboxItem();
    expect((await post('/v1/items/remove', { access_token })).json).toEqual({ removed: true });
    const after = await post('/v1/items/get', { access_token });
    expect([after.status, after.json.error.code]).toEqual([400, 'invalid_access_token']);
    // The refresh worker runs the purge the removal queued: only the purge row is left, for the
    // second purge after the grace (test/handlers/item-listing.test.ts).
    await stack.background.idle();
    const left = async (pk: string) =>
      ((await stack.deps.ddb.send(
        new QueryCommand({ TableName: stack.deps.config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
      )).Items ?? []).map((row) => row.sk);
    expect(await left(`FEED#${item_id}`)).toEqual([]);
    expect(await left(`ITEM#${item_id}`)).toEqual(['PURGE']);
  });
});

describe('accounts', () => {
  it('lists checking, savings, credit, brokerage, crypto and loan accounts with balances', async () => {
    const { access_token } = await sandboxItem();
    const res = await post('/v1/accounts/get', { access_token });
    expect(new Set(res.json.accounts.map((a: { type: string }) => a.type))).toEqual(new Set(['depository', 'credit', 'investment', 'crypto', 'loan']));
    const subtypes = res.json.accounts.map((a: { subtype: string }) => a.subtype);
    expect(subtypes).toEqual(expect.arrayContaining(['checking', 'savings', 'brokerage']));
    expect(res.json.item.status).toBe('healthy');
  });

  it('filters by account_ids and rejects ids of another item with invalid_account_id', async () => {
    const mine = await sandboxItem();
    const theirs = await sandboxItem(['transactions'], 'user_good_other');
    const accounts = (await post('/v1/accounts/get', { access_token: mine.access_token })).json.accounts;
    const foreignId = (await post('/v1/accounts/get', { access_token: theirs.access_token })).json.accounts[0].account_id;
    const one = await post('/v1/accounts/balance/get', { access_token: mine.access_token, options: { account_ids: [accounts[0].account_id] } });
    expect(one.json.accounts.map((a: { account_id: string }) => a.account_id)).toEqual([accounts[0].account_id]);
    const bad = await post('/v1/accounts/get', { access_token: mine.access_token, options: { account_ids: [accounts[0].account_id, foreignId] } });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'invalid_account_id']);
  });

  it('gives different logins different data and the same login the same data', async () => {
    const a1 = await sandboxItem(['transactions'], 'user_good_alpha');
    const a2 = await sandboxItem(['transactions'], 'user_good_alpha');
    const b = await sandboxItem(['transactions'], 'user_good_beta');
    const masks = async (t: string) => (await post('/v1/accounts/get', { access_token: t })).json.accounts.map((a: Json) => [a.mask, a.balances.current]);
    expect(await masks(a1.access_token)).toEqual(await masks(a2.access_token));
    expect(await masks(b.access_token)).not.toEqual(await masks(a1.access_token));
  });
});

describe('transactions', () => {
  it('sync pages the full history as added, then reports nothing new after the last cursor', async () => {
    const { access_token } = await sandboxItem();
    const { added, cursor } = await syncAll(access_token, 500);
    expect(added.length).toBeGreaterThan(1000);
    expect(new Set(added.map((t) => t.transaction_id)).size).toBe(added.length);
    const dates = added.map((t) => t.date).sort();
    const spanDays = (Date.parse(dates[dates.length - 1]) - Date.parse(dates[0])) / 86_400_000;
    expect(spanDays).toBeGreaterThan(700);
    expect(added.some((t) => t.pending)).toBe(true);
    expect(added.filter((t) => t.category !== null).length / added.length).toBeGreaterThan(0.8);
    const again = await post('/v1/transactions/sync', { access_token, cursor });
    expect(again.json).toMatchObject({ added: [], modified: [], removed: [], has_more: false });
  });

  it('honours count and defaults to 100', async () => {
    const { access_token } = await sandboxItem();
    expect((await post('/v1/transactions/sync', { access_token })).json.added).toHaveLength(100);
    const seven = await post('/v1/transactions/sync', { access_token, count: 7 });
    expect(seven.json.added).toHaveLength(7);
    expect(seven.json.has_more).toBe(true);
  });

  it('rejects forged, garbage and other items\u2019 cursors with invalid_cursor', async () => {
    const a = await sandboxItem();
    const b = await sandboxItem();
    const page = await post('/v1/transactions/sync', { access_token: a.access_token, count: 5 });
    const cursor: string = page.json.next_cursor;
    const [payload, sig] = cursor.split('.');
    const forgedPayload = Buffer.from(JSON.stringify(JSON.parse(Buffer.from(payload, 'base64url').toString()).map((v: unknown, i: number) => (i === 2 ? (v as number) + 1 : v)))).toString('base64url');
    expect(forgedPayload).not.toBe(payload);
    for (const bad of ['garbage', `${payload}.AAAA`, `${forgedPayload}.${sig}`, cursor + 'x']) {
      const res = await post('/v1/transactions/sync', { access_token: a.access_token, cursor: bad });
      expect([res.status, res.json.error.type, res.json.error.code]).toEqual([400, 'invalid_request', 'invalid_cursor']);
    }
    const foreign = await post('/v1/transactions/sync', { access_token: b.access_token, cursor });
    expect(foreign.json.error.code).toBe('invalid_cursor');
  });

  it('keeps a cursor valid after update mode rotates the token', async () => {
    const { access_token, item_id } = await sandboxItem();
    const { cursor } = await syncAll(access_token);
    await updateItemState(stack.deps, item_id, { status: 'login_required', error: { type: 'item_error', code: 'item_login_required', message: 'x' } });
    const token = await linkToken({ update_item_id: item_id });
    const connected = await post('/link/api/connect', { link_token: token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' }, { key: null });
    const rotated = await exchange(connected.json.public_token);
    expect(rotated).toMatchObject({ item_id, rotated: true });
    const old = await post('/v1/items/get', { access_token });
    expect(old.json.error.code).toBe('invalid_access_token');
    const item = await post('/v1/items/get', { access_token: rotated.access_token });
    expect(item.json.item.status).toBe('healthy');
    const after = await post('/v1/transactions/sync', { access_token: rotated.access_token, cursor });
    expect(after.status).toBe(200);
    expect(after.json.removed).toEqual([]);
  });

  it('get: date range, count, offset, account filter, total, newest first', async () => {
    const { access_token } = await sandboxItem();
    const all = await post('/v1/transactions/get', { access_token, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 500 } });
    const total = all.json.total_transactions;
    expect(total).toBeGreaterThan(1000);
    const dates = all.json.transactions.map((t: { date: string }) => t.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page2 = await post('/v1/transactions/get', { access_token, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 10, offset: 10 } });
    expect(page2.json.transactions).toEqual(all.json.transactions.slice(10, 20));
    const month = await post('/v1/transactions/get', { access_token, start_date: dates[50], end_date: dates[50], options: { count: 500 } });
    expect(month.json.transactions.every((t: { date: string }) => t.date === dates[50])).toBe(true);
    const account = all.json.accounts[0].account_id;
    const filtered = await post('/v1/transactions/get', { access_token, start_date: '2000-01-01', end_date: '2100-01-01', options: { account_ids: [account] } });
    expect(filtered.json.accounts.map((a: { account_id: string }) => a.account_id)).toEqual([account]);
    expect(filtered.json.transactions.every((t: { account_id: string }) => t.account_id === account)).toBe(true);
    const reversed = await post('/v1/transactions/get', { access_token, start_date: '2026-02-01', end_date: '2026-01-01' });
    expect(reversed.json.error.code).toBe('invalid_date_range');
  });

  it('answers 403 with a product-naming code when the item did not consent to transactions', async () => {
    const { access_token } = await sandboxItem(['identity']);
    const res = await post('/v1/transactions/sync', { access_token });
    expect([res.status, res.json.error.type, res.json.error.code]).toEqual([403, 'permission_denied', 'transactions_not_consented']);
    expect((await post('/v1/accounts/get', { access_token })).status).toBe(200);
  });
});
