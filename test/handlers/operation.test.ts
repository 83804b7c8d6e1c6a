// The operation pipeline invoked as Lambda would: the per-request state the middlewares share, under
// concurrent requests in one process.
import type { Context } from 'aws-lambda';
import { generateApiKey } from '../../functions/core/api-keys';
import { issueKey, putApplication } from '../../functions/data/api-keys-repo';
import { handler as searchInstitutions } from '../../functions/api/institutions.search';
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
