// Throws malformed input at every route and asserts the error envelope, the right 4xx status and
// never a 5xx. Mutations are derived from the request schemas in openapi.json, so a new route or
// field is covered without touching this file (only a minimal valid body must be added below).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES, type Route } from '../../functions/contracts/routes';
import type { Json } from '../support/json';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { startTestStack, type CallResult, type TestStack } from '../support/stack';
import { TOKEN, VALID } from '../support/valid-bodies';

const spec = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));
const SCHEMA_CODES = ['invalid_json', 'missing_field', 'invalid_field', 'unknown_field', 'invalid_content_type', 'request_too_large'];

function resolve(node: Json): Json {
  while (node?.$ref) node = node.$ref.replace('#/', '').split('/').reduce((a: Json, k: string) => a[k], spec);
  return node;
}

function requestSchema(route: Route): { properties: Record<string, Json>; required: string[] } {
  const schema = resolve(spec.paths[route.path].post.requestBody.content['application/json'].schema);
  return { properties: schema.properties ?? {}, required: schema.required ?? [] };
}

function wrongTypeFor(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'twelve';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'not-an-array';
  return 'not-an-object';
}

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

// The GraphQL and MCP endpoints answer bad bodies in their own protocol's format:
// test/security/protocol-bodies.test.ts. The console's own routes are not in openapi.json, which this
// suite checks every answer against: test/security/malformed-bodies.test.ts sends them bad bodies
// with a signed-in session.
// A route without a JSON body (the sandbox bank's browser form) reads its own: test/e2e/link-oauth-redirect.test.ts.
const postRoutes = ROUTES.filter((r) => r.method === 'POST' && r.request !== null && !r.protocol && !r.console);

function expectRejected(route: Route, res: CallResult, status: number, code?: string | string[]) {
  assertMatchesOpenApi('POST', route.path, res);
  expect({ route: route.id, status: res.status }).toEqual({ route: route.id, status });
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(Object.keys(res.json.error).sort()).toEqual(['code', 'display_message', 'documentation_url', 'message', 'request_id', 'type']);
  expect(res.json.error.request_id).toBe(res.headers.get('x-request-id'));
  if (code) expect([code].flat()).toContain(res.json.error.code);
}

describe('bad input on every route', () => {
  it('has a minimal valid body for every POST route, and that body passes validation', async () => {
    for (const route of postRoutes) {
      expect({ route: route.id, hasBody: VALID[route.id] !== undefined }).toEqual({ route: route.id, hasBody: true });
      const res = await stack.call(route.path, { body: VALID[route.id] });
      expect({ route: route.id, serverError: res.status >= 500 }).toEqual({ route: route.id, serverError: false });
      expect({ route: route.id, code: SCHEMA_CODES.includes(res.json?.error?.code) ? res.json.error.code : 'accepted' }).toEqual({
        route: route.id,
        code: 'accepted',
      });
    }
  });

  it.each(postRoutes.map((r) => [r.id, r] as const))('%s: malformed JSON, non-object JSON and wrong content type', async (_id, route) => {
    expectRejected(route, await stack.call(route.path, { rawBody: '{"access_token": ', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    for (const raw of ['[]', 'null', '42', '"text"']) {
      expectRejected(route, await stack.call(route.path, { rawBody: raw, headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    }
    const asText = await stack.call(route.path, { rawBody: JSON.stringify(VALID[route.id]), headers: { 'Content-Type': 'text/plain' } });
    if (Object.keys(VALID[route.id]).length > 0 || !route.bodyOptional) expectRejected(route, asText, 415, 'invalid_content_type');
  });

  it('rejects any charset but UTF-8 with 415, and accepts UTF-8 however it is spelled', async () => {
    const route = ROUTES.find((r) => r.id === 'institutions.search')!;
    const body = { query: 'sandbox' };
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(body), 'utf16le')]).toString('latin1');
    for (const contentType of ['application/json; charset=utf-16', 'application/json;charset="UTF-16LE"', 'application/json; charset=iso-8859-1']) {
      const res = await stack.call(route.path, { rawBody: utf16, headers: { 'Content-Type': contentType } });
      expectRejected(route, res, 415, 'invalid_content_type');
      expect(res.json.error.message).toMatch(/UTF-8/);
    }
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON; Charset="UTF-8"']) {
      const res = await stack.call(route.path, { rawBody: JSON.stringify(body), headers: { 'Content-Type': contentType } });
      expect({ contentType, status: res.status }).toEqual({ contentType, status: 200 });
    }
  });

  it.each(postRoutes.map((r) => [r.id, r] as const))('%s: every required field missing, wrong types, unknown fields', async (_id, route) => {
    const valid = VALID[route.id];
    const { required } = requestSchema(route);
    for (const field of required) {
      const body = { ...valid };
      delete body[field];
      const res = await stack.call(route.path, { body });
      expectRejected(route, res, 400, 'missing_field');
      expect(res.json.error.message).toContain(field);
    }
    for (const field of Object.keys(valid)) {
      const res = await stack.call(route.path, { body: { ...valid, [field]: wrongTypeFor(valid[field]) } });
      expectRejected(route, res, 400, 'invalid_field');
      expect(res.json.error.message).toContain(field);
    }
    const unknown = await stack.call(route.path, { body: { ...valid, surprise_field: true } });
    expectRejected(route, unknown, 400, 'unknown_field');
    expect(unknown.json.error.message).toContain('surprise_field');
  });

  it.each(postRoutes.map((r) => [r.id, r] as const))('%s: strings and arrays beyond their bounds', async (_id, route) => {
    const valid = VALID[route.id];
    const { properties } = requestSchema(route);
    for (const [field, raw] of Object.entries(properties)) {
      const prop = resolve(raw);
      let value: unknown;
      if (prop.type === 'string' && prop.maxLength !== undefined) value = 'a'.repeat(prop.maxLength + 1);
      else if (prop.type === 'array' && prop.maxItems !== undefined) {
        const sample = Array.isArray(valid[field]) ? (valid[field] as unknown[])[0] : 'x';
        value = Array.from({ length: prop.maxItems + 1 }, () => sample);
      } else continue;
      const res = await stack.call(route.path, { body: { ...valid, [field]: value } });
      expectRejected(route, res, 400, 'invalid_field');
      expect(res.json.error.message).toContain(field);
    }
  });

  it('names nested fields in the message', async () => {
    const route = ROUTES.find((r) => r.id === 'link.token.create')!;
    const res = await stack.call(route.path, { body: { user: {}, products: ['transactions'] } });
    expectRejected(route, res, 400, 'missing_field');
    expect(res.json.error.message).toContain('user.client_user_id');
    const badEnum = await stack.call(route.path, { body: { user: { client_user_id: 'u' }, products: ['crypto'] } });
    expectRejected(route, badEnum, 400, 'invalid_field');
    expect(badEnum.json.error.message).toContain('products[0]');
  });

  it('rejects a body over 1 MiB with 413, and one over the gateway limit too', async () => {
    const route = ROUTES.find((r) => r.id === 'institutions.search')!;
    const big = await stack.call(route.path, { body: { query: 'x'.repeat(1024 * 1024 + 10) } });
    expectRejected(route, big, 413, 'request_too_large');
    const huge = await stack.call(route.path, { rawBody: `{"query":"${'x'.repeat(11 * 1024 * 1024)}"}`, headers: { 'Content-Type': 'application/json' } });
    expect(huge.status).toBe(413);
    expect(huge.json.error.code).toBe('request_too_large');
  });

  it('rejects impossible dates even when they match the pattern', async () => {
    const route = ROUTES.find((r) => r.id === 'transactions.get')!;
    const res = await stack.call(route.path, { body: { ...VALID['transactions.get'], start_date: '2026-02-30' } });
    expectRejected(route, res, 400, 'invalid_field');
    expect(res.json.error.message).toContain('start_date');
  });

  it('rejects counts outside 1..500 and negative offsets', async () => {
    const sync = ROUTES.find((r) => r.id === 'transactions.sync')!;
    for (const count of [0, 501, 1.5]) {
      expectRejected(sync, await stack.call(sync.path, { body: { access_token: TOKEN, count } }), 400, 'invalid_field');
    }
    const get = ROUTES.find((r) => r.id === 'transactions.get')!;
    expectRejected(get, await stack.call(get.path, { body: { ...VALID['transactions.get'], options: { offset: -1 } } }), 400, 'invalid_field');
    expectRejected(get, await stack.call(get.path, { body: { ...VALID['transactions.get'], options: { account_ids: [] } } }), 400, 'invalid_field');
  });
});
