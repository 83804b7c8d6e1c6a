// The edge's console and request-log work, invoked as Lambda would invoke the handlers: a
// key-authenticated request's request log entry (and that a failure to write it changes nothing in
// the answer), the console's cookies (attributes under a stage path, Secure off loopback only), the
// Cognito sign-in's start and callback with their state cookie and server-side row, and the local
// server sending several Set-Cookie headers as API Gateway does.
import type { Context } from 'aws-lambda';
import { BatchWriteCommand, GetCommand } from '../../functions/platform/aws/dynamodb';
import type { AddressInfo } from 'node:net';
import { generateApiKey, sha256Hex } from '../../functions/core/api-keys';
import { issueKey, putApplication } from '../../functions/data/api-keys-repo';
import { keys } from '../../functions/data/keys';
import { requestEntryById } from '../../functions/data/request-log-repo';
import { consoleCookie } from '../../functions/platform/middleware';
import { logger } from '../../functions/platform/observability';
import { createLocalServer } from '../../functions/platform/local/http-server';
import type { LambdaHandler } from '../../functions/platform/operation';
import { configureRuntime, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { embeddedDeps } from '../support/embedded';

// Before the handlers load: this process's console signs in through Cognito (app/console/session.ts reads it once).
process.env.FC_CONSOLE_COGNITO_DOMAIN = 'fincore-test.auth.us-east-1.amazoncognito.com';
process.env.FC_CONSOLE_COGNITO_CLIENT_ID = 'client123';
process.env.FC_CONSOLE_COGNITO_USER_POOL_ID = 'us-east-1_pool';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the environment above is set
const { handler: searchInstitutions } = require('../../functions/api/institutions.search') as { handler: LambdaHandler };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { handler: authStart } = require('../../functions/api/console.auth.start') as { handler: LambdaHandler };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { handler: authCallback } = require('../../functions/api/console.auth.callback') as { handler: LambdaHandler };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { handler: authLogin } = require('../../functions/api/console.auth.login') as { handler: LambdaHandler };

const context = { functionName: 'console-edge', awsRequestId: 'console-edge', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let deps: Deps;
const key = generateApiKey('test');
const app = { applicationId: 'app_edge', name: 'Edge', plan: 'enterprise' as const };

beforeAll(async () => {
  deps = await embeddedDeps();
  await putApplication(deps, app);
  await issueKey(deps, app, key);
  configureRuntime(deps);
});
afterEach(() => jest.restoreAllMocks());

const setCookiesOf = (res: { multiValueHeaders?: Record<string, Array<string | number | boolean>> }) => (res.multiValueHeaders?.['Set-Cookie'] ?? []).map(String);

describe('the request log hook', () => {
  it('files a key-authenticated request once its answer is built: route, status, the key shown as prefix and last four, never the body', async () => {
    const res = await searchInstitutions(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 'first bank' }, requestId: 'req_edge_logged' }), context);
    expect(res.statusCode).toBe(200);
    const entry = await requestEntryById(deps, { applicationId: app.applicationId, environment: 'test' }, 'req_edge_logged');
    expect(entry).toEqual({
      application_id: app.applicationId,
      environment: 'test',
      route: 'institutions.search',
      method: 'POST',
      path: '/v1/institutions/search',
      status: 200,
      latency_ms: expect.any(Number),
      request_id: 'req_edge_logged',
      key_display: `fc_sk_test_\u2026${key.slice(-4)}`,
      error_code: null,
      item_id: null,
      // The runtime's clock when the request arrived.
      at: new Date(deps.clock.now()).toISOString(),
    });
    expect(JSON.stringify(entry)).not.toContain('first bank');
  });

  it('files refusals after authentication with their error code, and nothing for a request no key authenticated', async () => {
    const bad = await searchInstitutions(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 7 }, requestId: 'req_edge_refused' }), context);
    expect(bad.statusCode).toBe(400);
    expect(await requestEntryById(deps, { applicationId: app.applicationId, environment: 'test' }, 'req_edge_refused')).toMatchObject({ status: 400, error_code: 'invalid_field' });
    const keyless = await searchInstitutions(apiEvent('POST', '/v1/institutions/search', { body: { query: 'x' }, requestId: 'req_edge_keyless' }), context);
    expect(keyless.statusCode).toBe(401);
    const lookup = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.requestIdLookup('req_edge_keyless') }));
    expect(lookup.Item).toBeUndefined();
  });

  it('answers exactly the same when the entry cannot be written, and logs a warning', async () => {
    const healthy = await searchInstitutions(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 'first bank' }, requestId: 'req_edge_before' }), context);
    const send = deps.ddb.send.bind(deps.ddb);
    jest.spyOn(deps.ddb, 'send').mockImplementation(((command: unknown) => {
      if (command instanceof BatchWriteCommand) return Promise.reject(Object.assign(new Error('write refused'), { name: 'InternalServerError', $metadata: { httpStatusCode: 500 } }));
      return send(command as Parameters<typeof send>[0]);
    }) as typeof deps.ddb.send);
    const warn = jest.spyOn(logger, 'warn');
    const res = await searchInstitutions(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 'first bank' }, requestId: 'req_edge_unlogged' }), context);
    expect([res.statusCode, res.body]).toEqual([200, healthy.body]);
    expect(warn.mock.calls.map(([message]) => message)).toContain('request log entry not recorded');
    jest.restoreAllMocks();
    expect(await requestEntryById(deps, { applicationId: app.applicationId, environment: 'test' }, 'req_edge_unlogged')).toBeUndefined();
  });
});

describe('console cookies', () => {
  const session = { path: '/console', maxAgeSeconds: 3600, sameSite: 'Strict' as const };
  it('are HttpOnly, scoped under the base URL path, and Secure except over http on a loopback address', () => {
    expect(consoleCookie('http://localhost:4010', 'c', 'v', session)).toBe('c=v; Path=/console; Max-Age=3600; HttpOnly; SameSite=Strict');
    expect(consoleCookie('http://127.0.0.1:4010', 'c', 'v', session)).not.toContain('Secure');
    expect(consoleCookie('https://abc.execute-api.us-east-1.amazonaws.com/sandbox', 'c', 'v', session)).toBe(
      'c=v; Path=/sandbox/console; Max-Age=3600; HttpOnly; SameSite=Strict; Secure',
    );
    expect(consoleCookie('http://192.168.1.20:4010', 'c', 'v', session)).toContain('; Secure');
    expect(consoleCookie('https://api.example.com/', 'c', '', { ...session, maxAgeSeconds: -5 })).toBe('c=; Path=/console; Max-Age=0; HttpOnly; SameSite=Strict; Secure');
  });
});

describe('Cognito sign-in through the edge', () => {
  it('starts: 302 to the hosted UI with PKCE, the state in a 10-minute Lax cookie on /console/api/auth, the verifier kept server-side', async () => {
    const res = await authStart(apiEvent('GET', '/console/api/auth/start'), context);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers?.Location));
    expect(`${location.origin}${location.pathname}`).toBe('https://fincore-test.auth.us-east-1.amazoncognito.com/oauth2/authorize');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost/console/api/auth/callback');
    const state = location.searchParams.get('state')!;
    expect(setCookiesOf(res)).toEqual([`fc_console_signin=${state}; Path=/console/api/auth; Max-Age=600; HttpOnly; SameSite=Lax`]);
    const row = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.signInState(sha256Hex(state)) }));
    expect(row.Item).toMatchObject({ redirect_uri: 'http://localhost/console/api/auth/callback', verifier: expect.any(String), expires_at: Math.ceil((deps.clock.now() + 600_000) / 1000) });
    // The verifier is never in what the browser gets.
    expect(JSON.stringify(res)).not.toContain(String(row.Item!.verifier));
  });

  it('refuses a callback without this browser\'s state cookie, or with another state, spending the kept sign-in; clears the state cookie', async () => {
    const started = await authStart(apiEvent('GET', '/console/api/auth/start'), context);
    const state = new URL(String(started.headers?.Location)).searchParams.get('state')!;
    const callback = (query: Record<string, string>, cookie?: string) => {
      const event = apiEvent('GET', '/console/api/auth/callback', { headers: cookie ? { Cookie: cookie } : {} });
      return authCallback({ ...event, queryStringParameters: query }, context);
    };
    const noCookie = await callback({ code: 'c', state });
    expect([noCookie.statusCode, JSON.parse(noCookie.body).error.code]).toEqual([400, 'sign_in_failed']);
    expect(setCookiesOf(noCookie)).toEqual(['fc_console_signin=; Path=/console/api/auth; Max-Age=0; HttpOnly; SameSite=Lax']);
    const otherState = await callback({ code: 'c', state: 'another-state' }, `fc_console_signin=${state}`);
    expect([otherState.statusCode, JSON.parse(otherState.body).error.code]).toEqual([400, 'sign_in_failed']);
    // Spent: the same state cannot be tried again.
    expect((await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.signInState(sha256Hex(state)) }))).Item).toBeUndefined();
  });

  it('offers no password sign-in where Cognito signs in', async () => {
    const res = await authLogin(apiEvent('POST', '/console/api/auth/login', { body: { email: 'a@example.com', password: 'whatever-password' } }), context);
    expect([res.statusCode, JSON.parse(res.body).error.code]).toEqual([400, 'sign_in_method_unavailable']);
  });
});

describe('the local server', () => {
  it('sends each value of multiValueHeaders as its own header (two cookies, two Set-Cookie), as API Gateway does', async () => {
    const twoCookies: LambdaHandler = async () => ({
      statusCode: 200,
      headers: { 'Content-Type': 'text/plain' },
      multiValueHeaders: { 'Set-Cookie': ['a=1; Path=/console; HttpOnly', 'b=; Path=/console/api/auth; Max-Age=0'] },
      body: 'ok',
    });
    const server = createLocalServer({ handlers: new Map([['console.session', twoCookies]]), fallback: twoCookies });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console/api/session`, { method: 'POST', body: '{}' });
      expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/console; HttpOnly', 'b=; Path=/console/api/auth; Max-Age=0']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
