// End to end over HTTP against the local server; every response is checked against openapi.json.
import { connect } from 'node:net';
import { ROUTES, inPublicContract } from '../../functions/contracts/routes';
import { API_VERSION } from '../../functions/contracts/schemas';
import { createLocalServer, LOCAL_HEADERS_TIMEOUT_MS, LOCAL_REQUEST_TIMEOUT_MS } from '../../functions/platform/local/http-server';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

let stack: TestStack;
const sandboxKey = makeKey('test');
const freeLiveKey = makeKey('live');

beforeAll(async () => {
  stack = await startTestStack([
    { application: 'Acme', plan: 'enterprise', keys: [makeKey('test'), makeKey('live')] },
    { application: 'Hobby', plan: 'free', keys: [sandboxKey, freeLiveKey] },
  ]);
});
afterAll(() => stack.stop());

async function checked(method: string, path: string, init: CallInit = {}) {
  const res = await stack.call(path, { method, ...init });
  assertMatchesOpenApi(method, path, res);
  return res;
}

interface RawResponse {
  status: number;
  /** Header names lower-cased; the last value of a repeated header. */
  headers: Record<string, string>;
  json: { error: { type: string; code: string; message: string; request_id: string } };
}

/**
 * Sends bytes fetch would refuse or normalise (repeated headers, a forged Host, NUL, oversized
 * headers) and reads the answer until the server closes the connection.
 */
function rawRequest(head: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(stack.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const [statusLine, ...headerLines] = headText.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, json: JSON.parse(body) });
    });
    socket.end(`${head}Connection: close\r\n\r\n`);
  });
}

describe('every response', () => {
  it('carries X-Request-Id and FC-Version, and the error body repeats the request id', async () => {
    const ok = await checked('POST', '/v1/categories/get');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('fc-version')).toBe(API_VERSION);
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    const bad = await checked('POST', '/v1/categories/get', { key: null });
    expect(bad.status).toBe(401);
    expect(bad.json.error.request_id).toBe(bad.headers.get('x-request-id'));
    expect(bad.headers.get('fc-version')).toBe(API_VERSION);
  });

  it('carries the rate-limit headers when a key was presented', async () => {
    const res = await checked('POST', '/v1/categories/get');
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(1000);
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  });
});

describe('authentication', () => {
  it.each([
    ['no header', {}, 'missing_api_key'],
    ['a non-bearer scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'malformed_api_key'],
    ['a key of the wrong shape', { Authorization: 'Bearer sk_live_123' }, 'malformed_api_key'],
    ['an unknown key', { Authorization: `Bearer ${makeKey('test')}` }, 'invalid_api_key'],
  ])('answers 401 for %s', async (_label, headers, code) => {
    const res = await checked('POST', '/v1/institutions/search', { key: null, headers, body: { query: '' } });
    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ type: 'authentication_error', code });
  });

  it('answers 403 for a live key on a sandbox-only plan', async () => {
    const res = await checked('POST', '/v1/categories/get', { key: freeLiveKey });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('live_access_not_in_plan');
  });

  it('refuses live keys on sandbox helpers', async () => {
    const live = stack.keys.find((k) => k.application === 'Acme' && k.environment === 'live')!.key;
    const res = await checked('POST', '/v1/sandbox/public_token/create', {
      key: live,
      body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('test_key_required');
  });
});

describe('headers that must appear once', () => {
  it('refuses two Authorization headers with 400 duplicate_header, whichever comes last', async () => {
    const [first, second] = stack.keys.filter((k) => k.application === 'Acme').map((k) => k.key);
    const res = await rawRequest(`POST /v1/categories/get HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${first}\r\nAuthorization: Bearer ${second}\r\n`);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ type: 'invalid_request', code: 'duplicate_header', request_id: res.headers['x-request-id'] });
    expect(res.json.error.message).toContain('authorization');
    // The same two spelled differently are still two.
    const mixedCase = await rawRequest(`POST /v1/categories/get HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${first}\r\nauthorization: Bearer ${second}\r\n`);
    expect(mixedCase.json.error.code).toBe('duplicate_header');
  });

  it('refuses two keys folded into one comma-joined Authorization header', async () => {
    const res = await checked('POST', '/v1/categories/get', { key: null, headers: { Authorization: `Bearer ${sandboxKey}, Bearer ${freeLiveKey}` } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('duplicate_header');
  });
});

describe('requests Node cannot parse', () => {
  it('answers headers over the size limit with 431 and the JSON envelope, and closes the connection', async () => {
    const res = await rawRequest(`GET /v1/health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.connection).toBe('close');
    expect(res.headers['fc-version']).toBe(API_VERSION);
    expect(res.json.error).toMatchObject({ type: 'invalid_request', code: 'request_header_fields_too_large', request_id: res.headers['x-request-id'] });
    expect(res.json.error.request_id).toMatch(/^req_/);
  });

  it('refuses an Expect header other than 100-continue with 400 and the JSON envelope (no bare 417)', async () => {
    const res = await rawRequest('GET /v1/health HTTP/1.1\r\nHost: localhost\r\nExpect: banana\r\n');
    expect(res.status).toBe(400);
    expect(res.headers['fc-version']).toBe(API_VERSION);
    expect(res.json.error).toMatchObject({ type: 'invalid_request', code: 'request_rejected', request_id: res.headers['x-request-id'] });
    expect(res.json.error.message).toContain('Expect');
  });

  it("answers a body over API Gateway's own limit with 413 naming that limit, on an upload route too", async () => {
    const res = await stack.call('/v1/items/statements/upload', { rawBody: 'x'.repeat(11 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ code: 'request_too_large' });
    expect(res.json.error.message).toMatch(/10485760 bytes API Gateway accepts/);
  });

  it('answers a page request it cannot serve with an HTML page, as openapi.json declares for pages', async () => {
    const res = await checked('GET', '/link?token=%00%ff', { key: null });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('drops a connection whose request never finishes arriving within the request timeout, not after minutes', () => {
    const server = createLocalServer({ handlers: new Map(), fallback: async () => ({ statusCode: 404, body: '' }) });
    expect({ request: server.requestTimeout, headers: server.headersTimeout }).toEqual({ request: LOCAL_REQUEST_TIMEOUT_MS, headers: LOCAL_HEADERS_TIMEOUT_MS });
    expect(LOCAL_REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
  });

  it('answers a NUL in a header with 400 and the JSON envelope', async () => {
    const res = await rawRequest('GET /v1/health HTTP/1.1\r\nHost: localhost\r\nX-Evil: a\u0000b\r\n');
    expect(res.status).toBe(400);
    expect(res.headers.connection).toBe('close');
    expect(res.json.error).toMatchObject({ type: 'invalid_request', code: 'request_rejected', request_id: res.headers['x-request-id'] });
  });
});

describe('health', () => {
  it('answers 200 {status: ok} when storage answers, without a key, under /api too', async () => {
    for (const path of ['/v1/health', '/api/v1/health']) {
      const res = await checked('GET', path, { key: null });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: 'ok' });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('versioning', () => {
  it('accepts the current FC-Version and refuses any other with 400', async () => {
    expect((await checked('POST', '/v1/categories/get', { headers: { 'FC-Version': API_VERSION } })).status).toBe(200);
    const res = await checked('POST', '/v1/categories/get', { headers: { 'FC-Version': '2025-01-01' } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('unsupported_version');
  });
});

describe('routing', () => {
  it('answers /api/v1/... exactly like /v1/...', async () => {
    const a = await checked('POST', '/v1/institutions/search', { body: { query: 'sandbox' } });
    const b = await checked('POST', '/api/v1/institutions/search', { body: { query: 'sandbox' } });
    expect(b.status).toBe(200);
    expect(b.json).toEqual(a.json);
  });

  it('answers unknown paths with 404 route_not_found and wrong methods with 405 and Allow', async () => {
    const missing = await stack.call('/v1/nothing/here', { body: {} });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ type: 'not_found', code: 'route_not_found' });
    const wrong = await checked('GET', '/v1/items/get');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.json.error.code).toBe('method_not_allowed');
  });

  it('serves every route in the table at its declared method', async () => {
    for (const route of ROUTES) {
      const res = await stack.call(route.path, { method: route.method, body: route.method === 'POST' ? {} : undefined });
      expect({ id: route.id, status: res.status === 404 || res.status === 405 ? 'unrouted' : 'routed' }).toEqual({ id: route.id, status: 'routed' });
    }
  });
});

describe('discovery', () => {
  it('serves openapi.json with this deployment as the server', async () => {
    const res = await stack.call('/openapi.json', { method: 'GET', key: null });
    expect(res.status).toBe(200);
    expect(res.json.openapi).toBe('3.1.0');
    expect(res.json.servers).toEqual([{ url: stack.baseUrl, description: 'This deployment' }]);
    // Every route but the console's own (Route.console), which only its web app calls, and the
    // unlisted Plaid-compatible API (Plaid's contract, docs/plaid-migration.md).
    expect(Object.keys(res.json.paths)).toEqual(expect.arrayContaining(ROUTES.filter(inPublicContract).map((r) => r.path)));
    expect(Object.keys(res.json.paths).filter((path) => path.startsWith('/plaid'))).toEqual([]);
  });

  it('never advertises a base URL built from a forged Host or X-Forwarded-Proto', async () => {
    for (const [host, proto] of [
      ['localhost', 'javascript'],
      ['evil.example/x', 'http'],
      ['user@evil.example', 'http'],
      ['evil.example"><script>', 'http'],
    ]) {
      const head = (path: string) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Proto: ${proto}\r\n`;
      const openapi = await rawRequest(head('/openapi.json'));
      const url = (openapi.json as unknown as { servers: Array<{ url: string }> }).servers[0].url;
      expect(url).toMatch(/^https?:\/\/[a-z0-9.-]+(:[0-9]+)?$/);
      expect(url).not.toContain('evil');
    }
    const llms = await stack.call('/llms.txt', { method: 'GET', key: null, headers: { 'X-Forwarded-Proto': 'javascript' } });
    expect(llms.text).not.toContain('javascript:');
    expect(llms.text).toContain(`${stack.baseUrl}/openapi.json`);
  });

  it('lets caches keep the public documents for a few minutes, and no other answer', async () => {
    for (const path of ['/openapi.json', '/llms.txt', '/llms-full.txt']) {
      expect((await stack.call(path, { method: 'GET', key: null })).headers.get('cache-control')).toBe('public, max-age=300');
    }
    expect((await checked('POST', '/v1/categories/get')).headers.get('cache-control')).toBe('no-store');
    expect((await checked('POST', '/v1/categories/get', { key: null })).headers.get('cache-control')).toBe('no-store');
    expect((await stack.call('/v1/nothing/here', { body: {} })).headers.get('cache-control')).toBe('no-store');
  });

  it('serves llms.txt and llms-full.txt naming every operation', async () => {
    const index = await checked('GET', '/llms.txt', { key: null });
    const full = await checked('GET', '/llms-full.txt', { key: null });
    expect(index.headers.get('content-type')).toMatch(/^text\/plain/);
    for (const r of ROUTES.filter(inPublicContract)) {
      expect(index.text).toContain(`${r.method} ${r.path}`);
      expect(full.text).toContain(`### ${r.method} ${r.path}`);
    }
    // The console's own API is not for integrators or agents.
    expect(index.text).not.toContain('/console');
    expect(full.text).not.toContain('/console');
    expect(full.text).not.toContain('/plaid/');
    expect(full.text).not.toContain('session_required');
    expect(full.text).toContain('invalid_cursor');
    expect(full.text).toContain('access_token (string, required)');
  });
});

describe('categories', () => {
  it('returns 14 primary and 89 detailed categories, each described and mapped to Plaid', async () => {
    const res = await checked('POST', '/v1/categories/get');
    const categories = res.json.categories as Array<{ description: string; plaid_primary: string; detailed: Array<{ plaid_detailed: string }> }>;
    expect(categories).toHaveLength(14);
    expect(categories.flatMap((c) => c.detailed)).toHaveLength(89);
    for (const c of categories) {
      expect(c.description.length).toBeGreaterThan(10);
      expect(c.plaid_primary).toMatch(/^[A-Z_]+$/);
    }
  });

  it('accepts an empty object as the body too', async () => {
    expect((await checked('POST', '/v1/categories/get', { body: {} })).status).toBe(200);
  });
});

describe('institutions', () => {
  it('browses the most popular first with an empty query, at most 20', async () => {
    const res = await checked('POST', '/v1/institutions/search', { body: { query: '' } });
    const ranks = res.json.institutions.map((i: { popularity: number }) => i.popularity);
    expect(ranks.length).toBe(20);
    expect([...ranks].sort((a: number, b: number) => a - b)).toEqual(ranks);
  });

  it('always includes the sandbox network, several types and countries', async () => {
    const res = await checked('POST', '/v1/institutions/search', { body: { query: 'sandbox' } });
    const sandbox = res.json.institutions.filter((i: { sandbox: boolean }) => i.sandbox);
    expect(new Set(sandbox.map((i: { type: string }) => i.type)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(sandbox.flatMap((i: { country_codes: string[] }) => i.country_codes)).size).toBeGreaterThanOrEqual(4);
  });

  it('filters by type and country, case-insensitively', async () => {
    const res = await checked('POST', '/v1/institutions/search', { body: { query: 'SANDBOX', types: ['crypto_exchange'], country_codes: ['GB'] } });
    expect(res.json.institutions.length).toBeGreaterThan(0);
    for (const i of res.json.institutions) {
      expect(i.type).toBe('crypto_exchange');
      expect(i.country_codes).toContain('GB');
    }
  });

  it('gets one by id and answers 404 institution_not_found for an unknown id', async () => {
    const ok = await checked('POST', '/v1/institutions/get_by_id', { body: { institution_id: 'ins_sandbox_first_bank' } });
    expect(ok.json.institution.name).toBe('Sandbox First Bank');
    const missing = await checked('POST', '/v1/institutions/get_by_id', { body: { institution_id: 'ins_nope' } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('institution_not_found');
  });

  it('works the same with a sandbox-plan test key', async () => {
    const res = await checked('POST', '/v1/institutions/search', { key: sandboxKey, body: { query: 'first' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
  });
});
