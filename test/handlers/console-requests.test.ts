// The console's request log against DynamoDB Local: an entry holds the allow-listed fields only
// (never a body, token, key or secret), is written with its request id's lookup row in one
// BatchWriteItem that never throws into the request, and is found by request id (only by its own
// application and environment) or by time range, newest first across the four shards and across
// days, with route and status filters and a cursor that refuses tampering.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { ApiError } from '../../functions/contracts/errors';
import { searchRequests, type RequestSearchInput } from '../../functions/app/console/requests';
import { keys } from '../../functions/data/keys';
import {
  dayOf,
  recordRequest,
  REQUEST_LOG_FIELDS,
  REQUEST_LOG_RETENTION_DAYS,
  requestLogEntryOf,
  requestLogShardOf,
  type RequestFacts,
  type RequestLogEntry,
} from '../../functions/data/request-log-repo';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps } from '../support/embedded';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const HOUR = 3_600_000;
const APP = { applicationId: 'app_reqlog', environment: 'test' as const };
const API_KEY = 'fc_sk_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const ACCESS_TOKEN = 'access-sandbox-5c1d0e7a-1f2b-4c3d-9e8f-7a6b5c4d3e2f';
const WEBHOOK_SECRET = 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789';

const route = (id: string, path = `/v1/${id.replace(/\./g, '/')}`) => ({ id, method: 'POST' as const, path });

function facts(overrides: Partial<RequestFacts> = {}): RequestFacts {
  return {
    route: route('transactions.sync'),
    status: 200,
    latencyMs: 12.4,
    requestId: `req_${Math.random().toString(16).slice(2)}`,
    auth: { ...APP, keyDisplay: API_KEY },
    errorCode: null,
    itemId: null,
    at: NOW,
    ...overrides,
  };
}

async function record(deps: Deps, f: RequestFacts): Promise<RequestLogEntry> {
  const entry = requestLogEntryOf(f);
  if (!entry) throw new Error('no entry');
  expect(await recordRequest(deps, entry)).toEqual({ recorded: true });
  return entry;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the request log entry', () => {
  it('holds exactly the allow-listed fields: the route id and path template, the key as prefix…last4, a catalogued error code', () => {
    const entry = requestLogEntryOf(facts({ status: 400, errorCode: 'invalid_cursor', itemId: 'item_abc123', requestId: 'req_1' }));
    expect(entry).toEqual({
      application_id: 'app_reqlog',
      environment: 'test',
      route: 'transactions.sync',
      method: 'POST',
      path: '/v1/transactions/sync',
      status: 400,
      latency_ms: 12,
      request_id: 'req_1',
      key_display: 'fc_sk_test_…2345',
      error_code: 'invalid_cursor',
      item_id: 'item_abc123',
      at: '2026-11-21T12:00:00.000Z',
    });
    expect(Object.keys(entry ?? {}).sort()).toEqual([...REQUEST_LOG_FIELDS].sort());
  });

  it('never contains an access token, a key or a webhook secret the request carried, wherever they were passed', () => {
    // What a careless caller might hand over: the whole request state, with body, headers and a raw path.
    const requestState = {
      ...facts({ errorCode: `invalid_field ${ACCESS_TOKEN}`, itemId: ACCESS_TOKEN }),
      route: { ...route('webhooks.secret.rotate'), path: `/v1/webhooks/secret/rotate?access_token=${ACCESS_TOKEN}&key=${API_KEY}` },
      body: { access_token: ACCESS_TOKEN, secret: WEBHOOK_SECRET, api_key: API_KEY },
      headers: { authorization: `Bearer ${API_KEY}`, 'x-webhook-secret': WEBHOOK_SECRET },
      auth: { ...APP, keyDisplay: API_KEY, apiKey: API_KEY, secret: WEBHOOK_SECRET },
      rawPath: `/v1/items/get?access_token=${ACCESS_TOKEN}`,
    };
    const entry = requestLogEntryOf(requestState);
    const json = JSON.stringify(entry);
    for (const secret of [ACCESS_TOKEN, API_KEY, WEBHOOK_SECRET, API_KEY.slice(11, -4)]) expect(json).not.toContain(secret);
    expect(entry).toMatchObject({ path: '/v1/webhooks/secret/rotate', key_display: 'fc_sk_test_…2345', error_code: null, item_id: null });
    expect(Object.keys(entry ?? {}).sort()).toEqual([...REQUEST_LOG_FIELDS].sort());
  });

  it('keeps no key at all when what is passed as the key display is neither a key nor a display', () => {
    expect(requestLogEntryOf(facts({ auth: { ...APP, keyDisplay: `Bearer ${API_KEY}` } }))?.key_display).toBeNull();
    expect(requestLogEntryOf(facts({ auth: { ...APP, keyDisplay: 'fc_sk_live_…9xYz' } }))?.key_display).toBe('fc_sk_live_…9xYz');
  });

  it('files nothing for a request no key authenticated, or with a malformed request id', () => {
    expect(requestLogEntryOf(facts({ auth: null }))).toBeNull();
    expect(requestLogEntryOf(facts({ requestId: 'req#1' }))).toBeNull();
  });
});

describe('recording a request', () => {
  it('writes the entry and its lookup row in one BatchWriteItem, with the 35-day TTL and nothing beyond the entry', async () => {
    const deps = await embeddedDeps();
    const entry = requestLogEntryOf(facts({ requestId: 'req_one_write' }));
    if (!entry) throw new Error('no entry');
    const calls = deps.ddbCalls.count;
    expect(await recordRequest(deps, entry)).toEqual({ recorded: true });
    expect(deps.ddbCalls.count - calls).toBe(1);
    const key = keys.requestLogEntry(APP.applicationId, APP.environment, dayOf(entry.at), requestLogShardOf(entry.request_id), entry.at, entry.request_id);
    const row = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: key }))).Item;
    expect(Object.keys(row ?? {}).sort()).toEqual([...REQUEST_LOG_FIELDS, 'pk', 'sk', 'expires_at'].sort());
    expect(row?.expires_at).toBe(NOW / 1000 + REQUEST_LOG_RETENTION_DAYS * 86_400);
    const lookup = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.requestIdLookup('req_one_write') }))).Item;
    expect(lookup).toMatchObject({ application_id: APP.applicationId, environment: 'test', day: '2026-11-21', shard: requestLogShardOf('req_one_write') });
  });

  it('asks again for what DynamoDB left unprocessed, a bounded number of times, and never throws', async () => {
    const deps = await embeddedDeps();
    const entry = requestLogEntryOf(facts({ requestId: 'req_throttled' }));
    let calls = 0;
    const leaveOneUnprocessed = (times: number) =>
      ({
        ...deps,
        ddb: {
          send: async (command: { input: { RequestItems: Record<string, unknown[]> } }) => {
            calls += 1;
            const items = command.input.RequestItems[deps.config.tableName];
            return calls <= times ? { UnprocessedItems: { [deps.config.tableName]: items.slice(0, 1) } } : {};
          },
        },
      }) as unknown as Deps;
    expect(await recordRequest(leaveOneUnprocessed(2), entry)).toEqual({ recorded: true });
    expect(calls).toBe(3);
    calls = 0;
    const outcome = await recordRequest(leaveOneUnprocessed(99), entry);
    expect(outcome.recorded).toBe(false);
    expect(outcome.error).toMatch(/unprocessed after 3 tries/);
    expect(calls).toBe(3);
    const failing = { ...deps, ddb: { send: async () => Promise.reject(new Error('storage down')) } } as unknown as Deps;
    await expect(recordRequest(failing, entry)).resolves.toEqual({ recorded: false, error: 'storage down' });
  });
});

describe('finding a request by its id', () => {
  it('finds the entry of this application and environment, and answers as for no entry to any other', async () => {
    const deps = await embeddedDeps();
    const entry = await record(deps, facts({ requestId: 'req_from_envelope', status: 404, errorCode: 'event_not_found' }));
    expect(await searchRequests(deps, APP, { request_id: 'req_from_envelope' })).toEqual({ requests: [entry], next_cursor: null });
    expect(await searchRequests(deps, { ...APP, applicationId: 'app_other' }, { request_id: 'req_from_envelope' })).toEqual({ requests: [], next_cursor: null });
    expect(await searchRequests(deps, { ...APP, environment: 'live' }, { request_id: 'req_from_envelope' })).toEqual({ requests: [], next_cursor: null });
    expect(await searchRequests(deps, APP, { request_id: 'req_unknown' })).toEqual({ requests: [], next_cursor: null });
  });
});

describe('retention', () => {
  it('finds nothing older than 35 days, by id or by range, even before the TTL has deleted it', async () => {
    const deps = await embeddedDeps();
    const day = 24 * HOUR;
    await record(deps, facts({ requestId: 'req_expired', at: NOW - 35 * day - 1 }));
    const kept = await record(deps, facts({ requestId: 'req_kept', at: NOW - 35 * day + HOUR }));
    expect(await searchRequests(deps, APP, { request_id: 'req_expired' })).toEqual({ requests: [], next_cursor: null });
    expect(await searchRequests(deps, APP, { request_id: 'req_kept' })).toEqual({ requests: [kept], next_cursor: null });
    const range = { from: new Date(NOW - 40 * day).toISOString(), to: new Date(NOW - 10 * day).toISOString() };
    expect(await searchRequests(deps, APP, range)).toEqual({ requests: [kept], next_cursor: null });
  });

  it('ends a search whose cursor stopped at entries that have passed out of retention since', async () => {
    const deps = await embeddedDeps();
    const day = 24 * HOUR;
    // Two entries of one shard on the oldest day kept, and a newer one.
    const sameShard = Array.from({ length: 64 }, (_, i) => `req_s${i}`).filter((id) => requestLogShardOf(id) === 0);
    await record(deps, facts({ requestId: sameShard[0], at: NOW - 35 * day + 90 * 60_000 }));
    await record(deps, facts({ requestId: sameShard[1], at: NOW - 35 * day + 60 * 60_000 }));
    await record(deps, facts({ requestId: 'req_newer', at: NOW - 34 * day }));
    const range = { from: new Date(NOW - 40 * day).toISOString(), to: new Date(NOW - 10 * day).toISOString() };
    const first = await searchRequests(deps, APP, { ...range, limit: 2 });
    expect(first.requests.map((e) => e.request_id)).toEqual(['req_newer', sameShard[0]]);
    expect(first.next_cursor).not.toBeNull();
    // Two hours on, both entries of that day are past their 35 days.
    deps.clock.advance(2 * HOUR);
    expect(await searchRequests(deps, APP, { cursor: first.next_cursor as string })).toEqual({ requests: [], next_cursor: null });
  });
});

describe('searching a time range', () => {
  const ROUTES = ['transactions.sync', 'accounts.get', 'items.refresh'];
  const STATUSES = [200, 200, 400, 404, 500, 429];

  /** 90 requests over the last 45 hours (two UTC days): routes and statuses in turn, one every 30 minutes. */
  async function history(deps: Deps): Promise<RequestLogEntry[]> {
    const entries: RequestLogEntry[] = [];
    for (let i = 0; i < 90; i += 1) {
      entries.push(
        await record(deps, facts({ requestId: `req_h${i}`, route: route(ROUTES[i % 3]), status: STATUSES[i % 6], at: NOW - i * 30 * 60_000 })),
      );
    }
    // Another application's and another environment's requests never show.
    await record(deps, facts({ requestId: 'req_other_app', auth: { applicationId: 'app_other', environment: 'test' } }));
    await record(deps, facts({ requestId: 'req_other_env', auth: { ...APP, environment: 'live' } }));
    return entries;
  }

  async function allPages(deps: Deps, input: RequestSearchInput): Promise<{ pages: RequestLogEntry[][]; cursors: string[] }> {
    const pages: RequestLogEntry[][] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchRequests(deps, APP, { ...input, ...(cursor ? { cursor } : {}) });
      pages.push(page.requests);
      cursor = page.next_cursor ?? undefined;
      if (cursor) cursors.push(cursor);
    } while (cursor && pages.length < 100);
    return { pages, cursors };
  }

  it('pages through every entry of the range newest first, each page in time order across the four shards and across days', async () => {
    const deps = await embeddedDeps();
    const entries = await history(deps);
    expect(new Set(entries.map((e) => requestLogShardOf(e.request_id))).size).toBe(4);
    const { pages } = await allPages(deps, { from: new Date(NOW - 48 * HOUR).toISOString(), to: new Date(NOW).toISOString(), limit: 7 });
    expect(pages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    const seen = pages.flat();
    expect(seen.map((e) => e.request_id)).toEqual(entries.map((e) => e.request_id));
    expect(seen).toEqual(entries);
  });

  it('searches the last day when no range is given', async () => {
    const deps = await embeddedDeps();
    const entries = await history(deps);
    const { pages } = await allPages(deps, { limit: 100 });
    expect(pages.flat().map((e) => e.request_id)).toEqual(entries.filter((e) => Date.parse(e.at) >= NOW - 24 * HOUR).map((e) => e.request_id));
  });

  it('filters by route, by exact status and by status class, within the range', async () => {
    const deps = await embeddedDeps();
    const entries = await history(deps);
    const from = new Date(NOW - 30 * HOUR).toISOString();
    const to = new Date(NOW - 2 * HOUR).toISOString();
    const inRange = entries.filter((e) => e.at >= from && e.at <= to);
    const ids = async (input: RequestSearchInput) => (await allPages(deps, { from, to, limit: 5, ...input })).pages.flat().map((e) => e.request_id);
    expect(await ids({ route: 'accounts.get' })).toEqual(inRange.filter((e) => e.route === 'accounts.get').map((e) => e.request_id));
    expect(await ids({ status: 404 })).toEqual(inRange.filter((e) => e.status === 404).map((e) => e.request_id));
    expect(await ids({ status: '4xx' })).toEqual(inRange.filter((e) => e.status >= 400 && e.status < 500).map((e) => e.request_id));
    expect(await ids({ status: '5xx', route: 'items.refresh' })).toEqual(inRange.filter((e) => e.status === 500 && e.route === 'items.refresh').map((e) => e.request_id));
    expect(await ids({ status: '2xx' })).toEqual(inRange.filter((e) => e.status === 200).map((e) => e.request_id));
  });

  it('refuses a range longer than 31 days, or backwards', async () => {
    const deps = await embeddedDeps();
    const day = 24 * HOUR;
    expect((await refusal(searchRequests(deps, APP, { from: new Date(NOW - 32 * day).toISOString(), to: new Date(NOW).toISOString() }))).code).toBe('invalid_date_range');
    expect((await refusal(searchRequests(deps, APP, { from: new Date(NOW).toISOString(), to: new Date(NOW - HOUR).toISOString() }))).code).toBe('invalid_date_range');
    await expect(searchRequests(deps, APP, { from: new Date(NOW - 31 * day).toISOString(), to: new Date(NOW).toISOString() })).resolves.toEqual({ requests: [], next_cursor: null });
  });

  it('refuses with 400 a cursor that was tampered with, belongs to another application, or is used with other filters', async () => {
    const deps = await embeddedDeps();
    await history(deps);
    const first = await searchRequests(deps, APP, { limit: 5 });
    const cursor = first.next_cursor as string;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown> & { shards: unknown[] };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
    const tampered = [
      `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`,
      'not a cursor',
      encode({ ...decoded, shards: decoded.shards.map(() => '2020-01-01T00:00:00.000Z#req_x') }),
      encode({ ...decoded, shards: [...decoded.shards, null] }),
      encode({ ...decoded, day: '2026-12-25' }),
      encode({ ...decoded, from: '2020-01-01T00:00:00.000Z' }),
      encode({ ...decoded, extra: true }),
    ];
    for (const bad of tampered) {
      const err = await refusal(searchRequests(deps, APP, { cursor: bad }));
      expect({ code: err.code, status: err.status }).toEqual({ code: 'invalid_cursor', status: 400 });
    }
    expect((await refusal(searchRequests(deps, { ...APP, applicationId: 'app_other' }, { cursor }))).code).toBe('invalid_cursor');
    expect((await refusal(searchRequests(deps, APP, { cursor, route: 'accounts.get' }))).code).toBe('invalid_cursor');
    const second = await searchRequests(deps, APP, { cursor, limit: 5 });
    expect(second.requests).toHaveLength(5);
    expect(second.requests[0].at < first.requests[4].at).toBe(true);
  });
});
