// Transport behaviour against a tiny local HTTP server: retries (429 with and without Retry-After,
// 5xx on a retry-safe and on an unsafe call, network errors), timeouts and error mapping. The sleeper
// is injected: it records the delays and returns at once.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { Fincore, FincoreError } from '@fincore/sdk';

/** Answers queued per path; records each request. */
const queue = new Map();
const seen = [];
let server;
let baseUrl;

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ path: req.url, method: req.method, headers: req.headers, body });
      const answers = queue.get(req.url) ?? [];
      const answer = answers.shift() ?? { status: 500, body: { error: { type: 'api_error', code: 'internal_error', message: 'no answer queued', request_id: 'req_none' } } };
      if (answer.hang) return; // never answers: the client's timeout must fire
      res.writeHead(answer.status, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_header', ...(answer.headers ?? {}) });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

function setup(answers, options = {}) {
  queue.clear();
  seen.length = 0;
  for (const [path, list] of Object.entries(answers)) queue.set(path, [...list]);
  const sleeps = [];
  const client = new Fincore({ apiKey: 'fc_sk_test_abcdefghijklmnop', baseUrl: `${baseUrl}/`, sleep: async (ms) => void sleeps.push(ms), ...options });
  return { client, sleeps };
}

const ok = (body) => ({ status: 200, body });
const apiError = (status, type, code, headers) => ({ status, headers, body: { error: { type, code, message: `${code} happened`, request_id: `req_${code}` } } });
const ITEM = { item: { item_id: 'item_1' }, status: null };

test('sends the bearer key and JSON to the operation path, returns the parsed body', async () => {
  const { client } = setup({ '/v1/items/get': [ok(ITEM)] });
  assert.deepEqual(await client.items.get({ access_token: 'fc_at_abc' }), ITEM);
  assert.equal(seen[0].method, 'POST');
  assert.equal(seen[0].headers.authorization, 'Bearer fc_sk_test_abcdefghijklmnop');
  assert.equal(seen[0].headers['content-type'], 'application/json');
  assert.equal(seen[0].headers['fc-version'], undefined);
  assert.deepEqual(JSON.parse(seen[0].body), { access_token: 'fc_at_abc' });
});

test('an optional body may be omitted (sends {}) and apiVersion is sent as FC-Version', async () => {
  const { client } = setup({ '/v1/categories/get': [ok({ categories: [] })] }, { apiVersion: '2026-07-01' });
  await client.products.categoriesGet();
  assert.equal(seen[0].body, '{}');
  assert.equal(seen[0].headers['fc-version'], '2026-07-01');
});

test('429 is retried after Retry-After seconds, even on a call that is not retry-safe', async () => {
  const { client, sleeps } = setup({ '/v1/link/token/exchange': [apiError(429, 'rate_limit_error', 'rate_limit_exceeded', { 'Retry-After': '3' }), ok({ access_token: 'fc_at_x', item_id: 'item_1' })] });
  const answer = await client.link.tokenExchange({ public_token: 'fc_pub_1' });
  assert.equal(answer.access_token, 'fc_at_x');
  assert.deepEqual(sleeps, [3000]);
  assert.equal(seen.length, 2);
});

test('429 without Retry-After backs off exponentially; after maxRetries the error is raised', async () => {
  const limited = apiError(429, 'rate_limit_error', 'rate_limit_exceeded');
  const { client, sleeps } = setup({ '/v1/items/get': [limited, limited, limited] });
  const error = await client.items.get({ access_token: 'fc_at_abc' }).then(() => null, (e) => e);
  assert.ok(error instanceof FincoreError);
  assert.equal(error.status, 429);
  assert.equal(error.code, 'rate_limit_exceeded');
  assert.deepEqual(sleeps, [500, 1000]);
  assert.equal(seen.length, 3);
});

for (const code of ['monthly_api_quota_exceeded', 'monthly_ai_quota_exceeded']) {
  test(`429 ${code} is never retried and keeps its Retry-After`, async () => {
    const { client, sleeps } = setup({ '/v1/items/get': [apiError(429, 'rate_limit_error', code, { 'Retry-After': '30' }), ok(ITEM)] });
    const error = await client.items.get({ access_token: 'fc_at_abc' }).then(() => null, (e) => e);
    assert.ok(error instanceof FincoreError);
    assert.deepEqual([error.status, error.code, error.retryAfter], [429, code, 30]);
    assert.deepEqual(sleeps, []);
    assert.equal(seen.length, 1);
  });
}

test('a Retry-After over 60 seconds is raised at once with its value, never slept', async () => {
  const { client, sleeps } = setup({ '/v1/accounts/get': [apiError(429, 'rate_limit_error', 'rate_limit_exceeded', { 'Retry-After': '61' }), ok({ accounts: [] })] });
  const error = await client.accounts.get({ access_token: 'fc_at_abc' }).then(() => null, (e) => e);
  assert.ok(error instanceof FincoreError);
  assert.deepEqual([error.status, error.code, error.retryAfter], [429, 'rate_limit_exceeded', 61]);
  assert.deepEqual(sleeps, []);
  assert.equal(seen.length, 1);
});

test('a Retry-After of exactly 60 seconds is still waited out', async () => {
  const { client, sleeps } = setup({ '/v1/accounts/get': [apiError(503, 'api_error', 'storage_unavailable', { 'Retry-After': '60' }), ok({ accounts: [] })] });
  assert.deepEqual(await client.accounts.get({ access_token: 'fc_at_abc' }), { accounts: [] });
  assert.deepEqual(sleeps, [60000]);
});

test('5xx on a retry-safe call is retried with backoff', async () => {
  const { client, sleeps } = setup({ '/v1/accounts/get': [apiError(503, 'api_error', 'storage_unavailable', { 'Retry-After': '1' }), apiError(500, 'api_error', 'internal_error'), ok({ accounts: [] })] });
  assert.deepEqual(await client.accounts.get({ access_token: 'fc_at_abc' }), { accounts: [] });
  assert.deepEqual(sleeps, [1000, 1000]);
});

test('5xx on a call that is not retry-safe is raised at once', async () => {
  const { client, sleeps } = setup({ '/v1/link/token/exchange': [apiError(500, 'api_error', 'internal_error'), ok({})] });
  const error = await client.link.tokenExchange({ public_token: 'fc_pub_1' }).then(() => null, (e) => e);
  assert.equal(error.status, 500);
  assert.deepEqual(sleeps, []);
  assert.equal(seen.length, 1);
});

test('maxRetries 0 disables retries; per-call options override the client', async () => {
  const limited = apiError(429, 'rate_limit_error', 'rate_limit_exceeded');
  const { client, sleeps } = setup({ '/v1/items/get': [limited, limited] }, { maxRetries: 0 });
  await assert.rejects(client.items.get({ access_token: 'fc_at_abc' }), FincoreError);
  assert.deepEqual(sleeps, []);
  queue.set('/v1/items/get', [limited, ok(ITEM)]);
  assert.deepEqual(await client.items.get({ access_token: 'fc_at_abc' }, { maxRetries: 1 }), ITEM);
});

test('4xx is never retried and maps every envelope field', async () => {
  const { client, sleeps } = setup({ '/v1/items/get': [apiError(400, 'invalid_input', 'invalid_access_token')] });
  const error = await client.items.get({ access_token: 'fc_at_abc' }).then(() => null, (e) => e);
  assert.ok(error instanceof FincoreError);
  assert.ok(error instanceof Error);
  assert.deepEqual(
    { status: error.status, type: error.type, code: error.code, message: error.message, requestId: error.requestId },
    { status: 400, type: 'invalid_input', code: 'invalid_access_token', message: 'invalid_access_token happened', requestId: 'req_invalid_access_token' },
  );
  assert.deepEqual(sleeps, []);
});

test('a non-JSON error body still maps (status, request id from the header)', async () => {
  const { client } = setup({ '/v1/items/get': [{ status: 502, body: '<html>bad gateway</html>' }] }, { maxRetries: 0 });
  const error = await client.items.get({ access_token: 'fc_at_abc' }).then(() => null, (e) => e);
  assert.deepEqual([error.status, error.type, error.code, error.requestId], [502, 'api_error', 'http_502', 'req_header']);
});

test('a timeout is a connection_error; retried only when retry-safe', async () => {
  const { client, sleeps } = setup({ '/v1/items/get': [{ hang: true }, ok(ITEM)], '/v1/link/token/exchange': [{ hang: true }] }, { timeoutMs: 50 });
  assert.deepEqual(await client.items.get({ access_token: 'fc_at_abc' }), ITEM);
  assert.deepEqual(sleeps, [500]);
  const error = await client.link.tokenExchange({ public_token: 'fc_pub_1' }).then(() => null, (e) => e);
  assert.deepEqual([error.status, error.type, error.code], [0, 'connection_error', 'timeout']);
});

test('a refused connection is a network_error, retried on a safe call', async () => {
  const sleeps = [];
  const client = new Fincore({ apiKey: 'fc_sk_test_abcdefghijklmnop', baseUrl: 'http://127.0.0.1:9', sleep: async (ms) => void sleeps.push(ms) });
  const error = await client.institutions.search({ query: 'bank' }).then(() => null, (e) => e);
  assert.deepEqual([error.status, error.type, error.code], [0, 'connection_error', 'network_error']);
  assert.deepEqual(sleeps, [500, 1000]);
});

test('every method group is present', () => {
  const { client } = setup({});
  for (const group of ['institutions', 'link', 'items', 'accounts', 'transactions', 'products', 'ai', 'webhooks', 'sandbox']) assert.equal(typeof client[group], 'object', group);
  assert.equal(typeof client.transactions.sync, 'function');
  assert.equal(typeof client.sandbox.publicTokenCreate, 'function');
});
