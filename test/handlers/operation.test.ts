// The operation pipeline invoked as Lambda would: the per-request state the middlewares share, under
// concurrent requests in one process.
import type { Context } from 'aws-lambda';
import { generateApiKey } from '../../functions/core/api-keys';
import { issueKey, putApplication } from '../../functions/data/api-keys-repo';
import { handler as searchInstitutions } from '../../functions/api/institutions.search';
import { handler as plaidCall } from '../../functions/api/plaid.call';
import { defineOperation } from '../../functions/platform/operation';
import { plaidCall as plaidCallRoute } from '../../functions/contracts/routes';
import { logger } from '../../functions/platform/observability';
import { configureRuntime, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { embeddedDeps } from '../support/embedded';

let deps: Deps;
let key: string;

beforeAll(async () => {
  deps = await embeddedDeps();
  const app = { applicationId: 'app_operation', name: 'Operation', plan: 'enterprise' as const };
  await putApplication(deps, app);
  key = generateApiKey('test');
  await issueKey(deps, app, key);
});

const context = { functionName: 'operation', awsRequestId: 'operation', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

describe('per-request state', () => {
  afterEach(() => jest.restoreAllMocks());

  it('keeps concurrent requests apart: each access log line and response carries its own request id and outcome', async () => {
    configureRuntime(deps);
    const handler = searchInstitutions;
    const accessLog = jest.spyOn(logger, 'info');
    // One context object for all of them, as a careless caller might pass: it must not carry state.
    const shared = { ...context };
    const requests = Array.from({ length: 12 }, (_, i) => ({
      requestId: `req_concurrent_${i}`,
      // Alternate outcomes, so that a mix-up of state between requests shows in the status.
      init: i % 3 === 0 ? { body: { query: 'bank' } } : i % 3 === 1 ? { key, body: {} } : { key, body: { query: 'bank' } },
      status: i % 3 === 0 ? 401 : i % 3 === 1 ? 400 : 200,
    }));
    const responses = await Promise.all(
      requests.map((r) => handler(apiEvent('POST', '/v1/institutions/search', { ...r.init, requestId: r.requestId }), shared)),
    );
    expect(responses.map((res) => [res.headers?.['X-Request-Id'], res.statusCode])).toEqual(requests.map((r) => [r.requestId, r.status]));
    // Each refusal's envelope names its own request; each success is a search answer, not an envelope.
    const bodies = responses.map((res) => JSON.parse(res.body) as { error?: { request_id: string }; institutions?: unknown[] });
    expect(bodies.map((b, i) => (requests[i].status === 200 ? Array.isArray(b.institutions) : b.error?.request_id))).toEqual(
      requests.map((r) => (r.status === 200 ? true : r.requestId)),
    );
    const lines = accessLog.mock.calls.filter(([message]) => message === 'request').map(([, attributes]) => attributes as Record<string, unknown>);
    expect(lines.map((l) => [l.request_id, l.status]).sort()).toEqual(requests.map((r) => [r.requestId, r.status]).sort());
    // The caller's context object is left as it was given.
    expect(Object.getOwnPropertySymbols(shared)).toEqual([]);
    expect(Object.keys(shared).sort()).toEqual(Object.keys(context).sort());
  });
});

describe('a route that speaks another API (the Plaid-compatible API)', () => {
  const plaidEvent = (proxy: string, init: { headers?: Record<string, string>; body?: unknown; requestId: string }) => {
    const event = apiEvent('POST', `/plaid/${proxy}`, init);
    return { ...event, resource: '/plaid/{proxy+}', pathParameters: { proxy } };
  };

  it('cannot be defined without the hooks that find its key and render its errors', () => {
    expect(() => defineOperation(plaidCallRoute, () => ({ statusCode: 200, headers: {}, body: '{}' }))).toThrow(/protocolHooks/);
  });

  it("authenticates Plaid's secret, answers every refusal as Plaid's error, and hands API Gateway only the proxy response's own fields", async () => {
    configureRuntime(deps);
    const headers = { 'PLAID-CLIENT-ID': 'app_operation', 'PLAID-SECRET': key };
    const found = await plaidCall(plaidEvent('institutions/search', { headers, body: { query: 'bank', country_codes: [] }, requestId: 'req_plaid_ok' }), context);
    expect(found.statusCode).toBe(200);
    expect(JSON.parse(found.body)).toMatchObject({ institutions: expect.any(Array), request_id: 'req_plaid_ok' });
    // A bearer key is not where Plaid's clients send theirs: refused by the middleware, in Plaid's format.
    const bearer = await plaidCall(plaidEvent('institutions/search', { headers: { Authorization: `Bearer ${key}` }, body: { query: 'bank' }, requestId: 'req_plaid_bearer' }), context);
    expect([bearer.statusCode, JSON.parse(bearer.body)]).toEqual([400, expect.objectContaining({ error_type: 'INVALID_REQUEST', error_code: 'MISSING_FIELDS', request_id: 'req_plaid_bearer' })]);
    // Refused by the endpoint: our code stays with the request (its log entry), off the answer.
    const refused = await plaidCall(plaidEvent('item/get', { headers, body: { access_token: 'fc_at_unknown' }, requestId: 'req_plaid_refused' }), context);
    expect(refused.statusCode).toBe(400);
    for (const answer of [found, bearer, refused]) expect(Object.keys(answer).sort()).toEqual(['body', 'headers', 'statusCode']);
  });
});
