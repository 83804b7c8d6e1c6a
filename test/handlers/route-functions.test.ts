// The wire between the MCP function and a tool's route function (functions/platform/route-functions.ts)
// at its edges, with the handler modules invoked as Lambda invokes them and a loopback Lambda
// (test/support/lambda-fake.ts) between them: a route function that fails is an internal error the
// caller can read (nothing leaked) and a ServerError metric, a throttled invoke is retried but one
// that may have run is not, the caller's deadline bounds the call, no credential header is handed
// over, a function refuses an invocation meant for another route, an unknown error code is not
// trusted, and the same handler still answers API Gateway's events.
import type { Context } from 'aws-lambda';
import { generateApiKey } from '../../functions/core/api-keys';
import { issueKey, putApplication, type AuthContext } from '../../functions/data/api-keys-repo';
import { handler as institutionsSearch } from '../../functions/api/institutions.search';
import { handler as mcpCall } from '../../functions/api/mcp.call';
import type { LambdaHandler } from '../../functions/platform/operation';
import { metrics } from '../../functions/platform/observability';
import { invokeRouteFunction, type InlineInvocation } from '../../functions/platform/route-functions';
import { configureRuntime, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { embeddedDeps } from '../support/embedded';
import { startLambdaFake, type FakeLambdaHandler, type LambdaFake } from '../support/lambda-fake';
import { rejectionOf } from '../support/rejection';

const context = { functionName: 'route-functions', awsRequestId: 'route-functions', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const key = generateApiKey('test');
const app = { applicationId: 'app_route_functions', name: 'Route functions', plan: 'enterprise' as const };
const auth: AuthContext = {
  applicationId: app.applicationId,
  environment: 'test',
  keyId: 'key_rf',
  plan: 'enterprise',
  rateLimit: { limit: 1000, remaining: 999, reset: 0 },
  usage: { kind: 'api', used: 1, quota: null },
};
const ENV_NAMES = ['FC_ROUTE_FUNCTIONS', 'AWS_ENDPOINT_URL_LAMBDA', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;
const saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));

let deps: Deps;
let lambda: LambdaFake;
/** What the institutions.search function does with an invocation; the test may swap it. */
let searchFunction: FakeLambdaHandler = (event, ctx) => (institutionsSearch as unknown as FakeLambdaHandler)(event, ctx);

beforeAll(async () => {
  deps = await embeddedDeps();
  await putApplication(deps, app);
  await issueKey(deps, app, key);
  configureRuntime(deps);
  lambda = await startLambdaFake(new Map([['fn-search', (event, ctx) => searchFunction(event, ctx)]]));
  process.env.FC_ROUTE_FUNCTIONS = 'institutions.search=fn-search,items.get=fn-missing';
  process.env.AWS_ENDPOINT_URL_LAMBDA = lambda.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'AKIDTEST';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
});
afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await lambda.close();
});
afterEach(() => {
  searchFunction = (event, ctx) => (institutionsSearch as unknown as FakeLambdaHandler)(event, ctx);
});

async function callTool(name: string, args: Record<string, unknown>, init: { headers?: Record<string, string>; context?: Context } = {}) {
  const res = await mcpCall(
    apiEvent('POST', '/mcp', {
      key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      headers: { Accept: 'application/json, text/event-stream', ...init.headers },
    }),
    init.context ?? context,
  );
  return { status: res.statusCode, json: JSON.parse(res.body) as { result?: { isError?: boolean; structuredContent: Record<string, unknown> }; error?: { code: number; message: string; data: Record<string, unknown> } } };
}

const call = { auth, requestId: 'req_rf', baseUrl: 'https://api.example.test', event: apiEvent('POST', '/mcp', { key, body: {} }) };

it("answers a tool call with the route function's answer, as the route answers over REST", async () => {
  const before = lambda.invocations.length;
  const { status, json } = await callTool('search_institutions', { query: 'sandbox' });
  expect(status).toBe(200);
  expect(json.result?.isError).toBeFalsy();
  const rest = await institutionsSearch(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 'sandbox' } }), context);
  expect(json.result?.structuredContent).toEqual(JSON.parse(rest.body));
  expect(lambda.invocations.length - before).toBe(1);
});

it('answers a route function that failed (a Lambda function error) as a JSON-RPC internal error, with nothing of the failure in it, and counts a ServerError', async () => {
  searchFunction = async () => {
    throw new Error('secret detail: connection string postgres://x');
  };
  const counted = jest.spyOn(metrics, 'addMetric');
  const { status, json } = await callTool('search_institutions', { query: 'sandbox' });
  expect(status).toBe(200);
  expect(json.error).toMatchObject({ code: -32603, data: { code: 'internal_error', status: 500 } });
  expect(JSON.stringify(json)).not.toMatch(/secret detail|postgres/);
  expect(counted.mock.calls.filter(([name]) => name === 'ServerError')).toHaveLength(1);
  counted.mockRestore();
});

it.each(['service-exception', 'connection-reset'] as const)('does not retry an invoke that may have run the tool (%s): one run, an internal error', async (kind) => {
  const before = lambda.invocations.length;
  lambda.failNextAfterRun(kind);
  const { json } = await callTool('search_institutions', { query: 'sandbox' });
  expect(json.error).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
  expect(lambda.invocations.length - before).toBe(1);
});

it("gives up on a tool still running near the MCP function's own deadline, and answers its internal error in time", async () => {
  let ran = false;
  searchFunction = () => {
    ran = true;
    return new Promise(() => undefined);
  };
  // 1.2 s left: the invoke is abandoned 1 s before that (DEADLINE_RESERVE_MS).
  const shortLived = { ...context, getRemainingTimeInMillis: () => 1_200 } as Context;
  const { json } = await callTool('search_institutions', { query: 'sandbox' }, { context: shortLived });
  expect(ran).toBe(true);
  expect(json.error).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
});

it("hands over no credential: only the client-describing headers of the caller's request", async () => {
  const before = lambda.invocations.length;
  await callTool('search_institutions', { query: 'sandbox' }, {
    headers: { Cookie: 'fc_session=s', 'X-Api-Key': key, 'Plaid-Secret': 'plaid-secret', 'Proxy-Authorization': 'Basic eA==', 'X-Custom-Token': 't', 'User-Agent': 'agent/1.0' },
  });
  const [handed] = lambda.invocations.slice(before);
  const { event } = handed.payload as InlineInvocation;
  expect(Object.keys(event.headers ?? {}).sort()).toEqual(['User-Agent']);
  expect(Object.keys(event.multiValueHeaders ?? {}).sort()).toEqual(['User-Agent']);
  expect(JSON.stringify(handed.payload)).not.toContain(key);
  expect(JSON.stringify(handed.payload)).not.toMatch(/plaid-secret|fc_session|eA==/);
});

it('answers a tool whose function does not exist as an internal error (a deployment fault, not the caller\'s)', async () => {
  const { json } = await callTool('get_item', { access_token: 'access-sandbox-00000000-0000-4000-8000-000000000000' });
  expect(json.error).toMatchObject({ code: -32603, data: { code: 'internal_error' } });
});

it('retries an invoke Lambda throttled (429 TooManyRequestsException), and the tool answers', async () => {
  const before = lambda.invocations.length;
  lambda.throttleNext(1);
  const { json } = await callTool('search_institutions', { query: 'sandbox' });
  expect(json.result?.isError).toBeFalsy();
  expect(lambda.invocations.length - before).toBe(1);
});

it("carries the route's ApiError across: code and message", async () => {
  const err = await rejectionOf<{ name: string; code: string; status: number; message: string }>(invokeRouteFunction('institutions.search', call, { query: 42 }, 'us-east-1'));
  expect(err).toMatchObject({ name: 'ApiError', code: 'invalid_field', status: 400 });
  expect(err.message).toMatch(/query/);
});

it("carries an ApiError's headers across (a Retry-After)", async () => {
  searchFunction = async () => ({ fincoreInlineOutcome: 1, error: { code: 'rate_limit_exceeded', message: 'Slow down.', headers: { 'Retry-After': '3' } } });
  const err = await rejectionOf<{ code: string; headers: Record<string, string> }>(invokeRouteFunction('institutions.search', call, {}, 'us-east-1'));
  expect(err).toMatchObject({ code: 'rate_limit_exceeded', headers: { 'Retry-After': '3' } });
});

it('does not trust an error code the catalogue does not have', async () => {
  searchFunction = async () => ({ fincoreInlineOutcome: 1, error: { code: 'made_up', message: 'x', headers: {} } });
  await expect(invokeRouteFunction('institutions.search', call, {}, 'us-east-1')).rejects.toThrow(/unknown error code made_up/);
});

it('refuses a route FC_ROUTE_FUNCTIONS does not name, before any invoke', async () => {
  const before = lambda.invocations.length;
  await expect(invokeRouteFunction('accounts.get', call, {}, 'us-east-1')).rejects.toThrow(/names no function for accounts.get/);
  expect(lambda.invocations.length).toBe(before);
});

describe("a route's function receiving an invocation", () => {
  const invocation = (routeId: string, args: unknown): InlineInvocation => ({
    fincoreInlineCall: 1,
    routeId,
    auth,
    requestId: 'req_inline',
    baseUrl: 'https://api.example.test',
    event: apiEvent('POST', '/mcp', {}),
    args,
  });
  const invoke = (event: unknown) => (institutionsSearch as unknown as (event: unknown, context: Context) => Promise<unknown>)(event, context);

  it('runs its route for an invocation of that route, and answers the outcome', async () => {
    const outcome = (await invoke(invocation('institutions.search', { query: 'sandbox' }))) as { fincoreInlineOutcome: number; result: { institutions: unknown[] } };
    expect(outcome.fincoreInlineOutcome).toBe(1);
    expect(outcome.result.institutions.length).toBeGreaterThan(0);
  });

  it('refuses (fails the invocation) an invocation meant for another route', async () => {
    await expect(invoke(invocation('items.get', { access_token: 'x' }))).rejects.toThrow(/runs institutions.search, not items.get/);
  });

  it("answers API Gateway's events as before: a proxy event never reads as an invocation", async () => {
    const res = await (institutionsSearch as LambdaHandler)(apiEvent('POST', '/v1/institutions/search', { key, body: { query: 'sandbox', fincoreInlineCall: 1 } }), context);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('unknown_field');
  });
});
