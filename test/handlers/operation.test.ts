// The operation pipeline invoked as Lambda would: the generic handler every planned route's function
// runs (functions/platform/planned-route.ts, route id from FC_ROUTE_ID), and the per-request state
// the middlewares share, under concurrent requests in one process.
import type { Context } from 'aws-lambda';
import { generateApiKey } from '../../functions/core/api-keys';
import { PLANNED_ROUTE_ID_VARIABLE } from '../../functions/contracts/routes';
import { issueKey, monthlyUsage, putApplication } from '../../functions/data/api-keys-repo';
import { plannedOperation, type LambdaHandler } from '../../functions/platform/operation';
import { logger } from '../../functions/platform/observability';
import { configureRuntime, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { embeddedDeps } from '../support/embedded';

let deps: Deps;
let key: string;

beforeAll(async () => {
  deps = await embeddedDeps();
  const app = { applicationId: 'app_planned', name: 'Planned', plan: 'enterprise' as const };
  await putApplication(deps, app);
  key = generateApiKey('test');
  await issueKey(deps, app, key);
});

afterEach(() => {
  delete process.env[PLANNED_ROUTE_ID_VARIABLE];
});

/** The module as a fresh function cold start would load it, with FC_ROUTE_ID set to `routeId`. */
function coldStart(routeId: string | undefined): LambdaHandler {
  if (routeId === undefined) delete process.env[PLANNED_ROUTE_ID_VARIABLE];
  else process.env[PLANNED_ROUTE_ID_VARIABLE] = routeId;
  let handler: LambdaHandler | undefined;
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports -- fresh module instances per simulated cold start */
    // The fresh registry has its own runtime module: hand it this file's table.
    (require('../../functions/platform/runtime') as { configureRuntime: typeof configureRuntime }).configureRuntime(deps);
    handler = (require('../../functions/platform/planned-route') as { handler: LambdaHandler }).handler;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  return handler!;
}


const context = { functionName: 'planned', awsRequestId: 'planned', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

const apiUsage = async () => (await monthlyUsage(deps, key, new Date(deps.clock.now()))).api;

describe('the planned-route handler', () => {
  it('authenticates, meters against its quota and validates before answering 501 not_implemented', async () => {
    const handler = coldStart('graphql.query');
    const before = await apiUsage();

    const anonymous = await handler(apiEvent('POST', '/v1/graphql', { body: { query: '{ __typename }' } }), context);
    expect(anonymous.statusCode).toBe(401);
    expect(JSON.parse(anonymous.body).error.code).toBe('missing_api_key');
    expect(await apiUsage()).toBe(before);

    const invalid = await handler(apiEvent('POST', '/v1/graphql', { key, body: {} }), context);
    expect(invalid.statusCode).toBe(400);
    expect(JSON.parse(invalid.body).error.code).toBe('missing_field');
    expect(await apiUsage()).toBe(before + 1);

    const valid = await handler(apiEvent('POST', '/v1/graphql', { key, body: { query: '{ __typename }' } }), context);
    expect(valid.statusCode).toBe(501);
    const error = JSON.parse(valid.body).error;
    expect(error).toMatchObject({ type: 'api_error', code: 'not_implemented' });
    expect(error.request_id).toBe(valid.headers?.['X-Request-Id']);
    expect(valid.headers?.['X-RateLimit-Limit']).toBeDefined();
    expect(await apiUsage()).toBe(before + 2);
  });

  it('answers a public planned page with 501 without a key', async () => {
    const res = await coldStart('graphql.ide')(apiEvent('GET', '/v1/graphql'), context);
    expect(res.statusCode).toBe(501);
    expect(JSON.parse(res.body).error.code).toBe('not_implemented');
  });

  it('refuses to start without a route id, or for a live or unknown route', () => {
    expect(() => coldStart(undefined)).toThrow(/FC_ROUTE_ID is not set/);
    expect(() => coldStart('items.get')).toThrow(/live/);
    expect(() => coldStart('ai.nothing')).toThrow(/No route/);
  });
});

describe('per-request state', () => {
  afterEach(() => jest.restoreAllMocks());

  it('keeps concurrent requests apart: each access log line and response carries its own request id and outcome', async () => {
    configureRuntime(deps);
    const handler = plannedOperation('graphql.query');
    const accessLog = jest.spyOn(logger, 'info');
    // One context object for all of them, as a careless caller might pass: it must not carry state.
    const shared = { ...context };
    const requests = Array.from({ length: 12 }, (_, i) => ({
      requestId: `req_concurrent_${i}`,
      // Alternate outcomes, so that a mix-up of state between requests shows in the status.
      init: i % 3 === 0 ? { body: { query: 'x' } } : i % 3 === 1 ? { key, body: {} } : { key, body: { query: 'x' } },
      status: i % 3 === 0 ? 401 : i % 3 === 1 ? 400 : 501,
    }));
    const responses = await Promise.all(
      requests.map((r) => handler(apiEvent('POST', '/v1/graphql', { ...r.init, requestId: r.requestId }), shared)),
    );
    expect(responses.map((res) => [res.headers?.['X-Request-Id'], res.statusCode])).toEqual(requests.map((r) => [r.requestId, r.status]));
    expect(responses.map((res) => JSON.parse(res.body).error.request_id)).toEqual(requests.map((r) => r.requestId));
    const lines = accessLog.mock.calls.filter(([message]) => message === 'request').map(([, attributes]) => attributes as Record<string, unknown>);
    expect(lines.map((l) => [l.request_id, l.status]).sort()).toEqual(requests.map((r) => [r.requestId, r.status]).sort());
    // The caller's context object is left as it was given.
    expect(Object.getOwnPropertySymbols(shared)).toEqual([]);
    expect(Object.keys(shared).sort()).toEqual(Object.keys(context).sort());
  });
});
