// The MCP server over real HTTP against the local stack, through the official SDK client
// (Streamable HTTP): it connects, lists exactly the fifteen tools with their routes' input schemas,
// calls each against a sandbox item with every product consented and gets the REST route's own
// answer as structured content; bad arguments, foreign tokens and missing consent are MCP errors the
// client can read (never a 500); a missing or bad key is a 401 in JSON-RPC form; metering follows the
// tool's route. Also the descriptor at GET /mcp and /api/mcp and the two /.well-known documents.
import { UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_INFO, MCP_TOOLS, type McpToolName } from '../../functions/contracts/mcp-tools';
import { routeById } from '../../functions/contracts/routes';
import { PLANS } from '../../functions/contracts/limits';
import { sha256Hex } from '../../functions/core/api-keys';
import { monthlyUsage, revokeKey } from '../../functions/data/api-keys-repo';
import { keys, usageAttribute } from '../../functions/data/keys';
import { toolInputSchema } from '../../functions/surfaces/mcp/tool-definitions';
import { manualClock } from '../support/embedded';
import type { Json } from '../support/json';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const clock = manualClock();
const key = makeKey('test');
const otherAppKey = makeKey('test');
const revokedKey = makeKey('test');
const freeKey = makeKey('test');
const ALL_PRODUCTS = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
const clients: Client[] = [];
let client: Client;
let accessToken: string;
let itemId: string;

async function connect(options: { key?: string | null; path?: string } = {}): Promise<Client> {
  const bearer = options.key === undefined ? key : options.key;
  const mcp = new Client({ name: 'fincore-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(stack.baseUrl + (options.path ?? '/mcp')), {
    requestInit: { headers: bearer === null ? {} : { Authorization: `Bearer ${bearer}` } },
  });
  await mcp.connect(transport);
  clients.push(mcp);
  return mcp;
}

const call = (name: string, args: Record<string, unknown>, via: Client = client) => via.callTool({ name, arguments: args }) as Promise<CallToolResult>;

async function rest(tool: McpToolName, body: unknown, restKey = key) {
  const route = routeById(MCP_TOOLS.find((t) => t.name === tool)!.route);
  return stack.call(route.path, { body, key: restKey });
}

/** A JSON-RPC POST as any HTTP client would send it (headers the Streamable HTTP transport requires). */
function rawPost(body: string, headers: Record<string, string> = {}) {
  return fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, ...headers },
    body,
  });
}

beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'MCP', plan: 'enterprise', keys: [key] },
      { application: 'Other', plan: 'enterprise', keys: [otherAppKey] },
      { application: 'Revoked', plan: 'enterprise', keys: [revokedKey] },
      { application: 'Hobby', plan: 'free', keys: [freeKey] },
    ],
    { clock },
  );
  // Rules only, whatever the developer's environment names.
  stack.deps.model = null;
  await revokeKey(stack.deps, revokedKey);
  client = await connect();
  // The item: a sandbox public token from REST, exchanged through the tool.
  const created = await stack.call('/v1/sandbox/public_token/create', { body: { institution_id: 'ins_sandbox_first_bank', products: ALL_PRODUCTS }, key });
  expect(created.status).toBe(200);
  const exchanged = await call('exchange_public_token', { public_token: created.json.public_token });
  expect(exchanged.isError).toBeFalsy();
  ({ access_token: accessToken, item_id: itemId } = exchanged.structuredContent as { access_token: string; item_id: string });
  await stack.historyLoaded(itemId);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stack.stop();
});

describe('the handshake and the tool list', () => {
  it('initializes with the server info and the tools capability', () => {
    expect(client.getServerVersion()).toMatchObject({ name: MCP_SERVER_INFO.name, version: MCP_SERVER_INFO.version });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists exactly the fifteen tools, each with its route\'s request schema as input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    expect(tools).toHaveLength(15);
    for (const [index, tool] of tools.entries()) {
      expect({ name: tool.name, description: tool.description }).toEqual({ name: MCP_TOOLS[index].name, description: MCP_TOOLS[index].description });
      expect(tool.inputSchema).toEqual(toolInputSchema(MCP_TOOLS[index]));
      expect(tool.inputSchema.type).toBe('object');
    }
    // Shared request shapes (a named zod schema) are inlined at the root, as MCP requires.
    expect(tools.find((t) => t.name === 'get_item')!.inputSchema).toMatchObject({ type: 'object', required: ['access_token'], additionalProperties: false });
  });

  it('answers at /api/mcp as at /mcp', async () => {
    const aliased = await connect({ path: '/api/mcp' });
    expect((await aliased.listTools()).tools).toHaveLength(15);
  });
});

/** Each tool with the arguments it is called with, through MCP and through its REST route alike. */
const SAME_AS_REST: [McpToolName, () => Record<string, unknown>][] = [
  ['search_institutions', () => ({ query: 'bank' })],
  ['get_item', () => ({ access_token: accessToken })],
  ['list_accounts', () => ({ access_token: accessToken })],
  ['get_transactions', () => ({ access_token: accessToken, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 50, offset: 10 } })],
  ['sync_transactions', () => ({ access_token: accessToken, count: 40 })],
  ['get_recurring', () => ({ access_token: accessToken })],
  ['get_investments', () => ({ access_token: accessToken })],
  ['get_liabilities', () => ({ access_token: accessToken })],
  ['ai_categorize', () => ({ access_token: accessToken })],
  ['ai_cashflow_forecast', () => ({ access_token: accessToken, horizon_days: 45 })],
  ['ai_purchase_analysis', () => ({ access_token: accessToken, purchase: { description: 'A new laptop', amount: 1800 } })],
  ['ai_financial_summary', () => ({ access_token: accessToken })],
  ['ai_health_score', () => ({ access_token: accessToken })],
];

describe('every tool answers what its REST route answers', () => {
  it('covers all fifteen tools here (two that mint tokens are compared by shape below)', () => {
    const covered = [...SAME_AS_REST.map(([name]) => name), 'create_link_url', 'exchange_public_token'].sort();
    expect(covered).toEqual(MCP_TOOLS.map((t) => t.name).sort());
  });

  it.each(SAME_AS_REST)('%s', async (name, args) => {
    const viaMcp = await call(name, args());
    const viaRest = await rest(name, args());
    expect(viaRest.status).toBe(200);
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent).toEqual(viaRest.json);
    expect(viaMcp.content).toEqual([{ type: 'text', text: expect.stringMatching(/\S/) }]);
  });

  it('renders a short text beside the structured content', async () => {
    const accounts = await call('list_accounts', { access_token: accessToken });
    const count = (accounts.structuredContent as { accounts: unknown[] }).accounts.length;
    expect((accounts.content[0] as { text: string }).text).toMatch(new RegExp(`^${count} accounts:\\n- `));
    const score = await call('ai_health_score', { access_token: accessToken });
    const { score: value, band } = score.structuredContent as { score: number; band: string };
    expect((score.content[0] as { text: string }).text).toContain(`Health score ${value}/100 (${band}, engine rules)`);
  });

  it('create_link_url: a link token like REST\'s, and the hosted Link address in the text', async () => {
    const args = { client_name: 'MCP test', user: { client_user_id: 'user-1' }, products: ['transactions'] };
    const viaMcp = await call('create_link_url', args);
    const viaRest = await rest('create_link_url', args);
    expect(viaMcp.isError).toBeFalsy();
    const token = (viaMcp.structuredContent as { link_token: string }).link_token;
    // Each call mints its own token; with the clock fixed, everything else is the same.
    expect(viaMcp.structuredContent).toEqual({ ...viaRest.json, link_token: token });
    expect(token).not.toBe(viaRest.json.link_token);
    expect((viaMcp.content[0] as { text: string }).text).toContain(`${stack.baseUrl}/link?token=${encodeURIComponent(token)}`);
    const page = await fetch(`${stack.baseUrl}/link?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
  });

  it('exchange_public_token: an access token REST accepts for the same item', async () => {
    const viaRest = await stack.call('/v1/items/get', { body: { access_token: accessToken }, key });
    expect(viaRest.status).toBe(200);
    expect(viaRest.json.item.item_id).toBe(itemId);
    const created = await stack.call('/v1/sandbox/public_token/create', { body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] }, key });
    const first = await call('exchange_public_token', { public_token: created.json.public_token });
    expect(first.structuredContent).toEqual({ access_token: expect.stringMatching(/^fc_at_/), item_id: expect.any(String), rotated: false });
    // The public token is single-use: the second exchange is the REST route's error, as a tool error.
    const again = await call('exchange_public_token', { public_token: created.json.public_token });
    const restAgain = await rest('exchange_public_token', { public_token: created.json.public_token });
    expect(again.isError).toBe(true);
    expect((again.structuredContent as { error: Json }).error).toMatchObject({ code: restAgain.json.error.code, type: restAgain.json.error.type, status: restAgain.status });
  });
});

/** The error a tool result carries (isError: true), as docs/mcp.md describes it. */
function toolError(result: CallToolResult) {
  expect(result.isError).toBe(true);
  const { error } = result.structuredContent as { error: { type: string; code: string; message: string; request_id: string; status: number } };
  expect(error.request_id).toMatch(/^req_/);
  expect((result.content[0] as { text: string }).text).toContain(error.code);
  return error;
}

describe('bad calls are MCP errors the client can read, never a 500', () => {
  it('a missing access_token: the route\'s missing_field, naming the field', async () => {
    const error = toolError(await call('get_item', {}));
    const viaRest = await rest('get_item', {});
    expect(error).toEqual({ ...viaRest.json.error, request_id: error.request_id, status: 400 });
    expect(error.code).toBe('missing_field');
    expect(error.message).toContain('access_token');
  });

  it('a wrong type: invalid_field', async () => {
    const args = { access_token: accessToken, start_date: 20260101, end_date: '2026-02-01' };
    const error = toolError(await call('get_transactions', args));
    expect(error).toMatchObject({ type: 'invalid_request', code: 'invalid_field', status: 400 });
    expect(error.message).toContain('start_date');
    expect((await rest('get_transactions', args)).json.error.code).toBe('invalid_field');
  });

  it('an unknown field: unknown_field', async () => {
    const error = toolError(await call('get_item', { access_token: accessToken, include_everything: true }));
    expect(error).toMatchObject({ code: 'unknown_field', status: 400 });
    expect(error.message).toContain('include_everything');
  });

  it('another application\'s access token: invalid_access_token, as over REST', async () => {
    const other = await connect({ key: otherAppKey });
    const error = toolError(await call('list_accounts', { access_token: accessToken }, other));
    const viaRest = await rest('list_accounts', { access_token: accessToken }, otherAppKey);
    expect({ code: error.code, status: error.status }).toEqual({ code: 'invalid_access_token', status: viaRest.status });
    expect(viaRest.json.error.code).toBe('invalid_access_token');
  });

  it('a product the item did not consent to: the route\'s consent error', async () => {
    const created = await stack.call('/v1/sandbox/public_token/create', { body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] }, key });
    const exchanged = await call('exchange_public_token', { public_token: created.json.public_token });
    const token = (exchanged.structuredContent as { access_token: string }).access_token;
    const error = toolError(await call('get_liabilities', { access_token: token }));
    expect(error).toMatchObject({ code: 'liabilities_not_consented', status: (await rest('get_liabilities', { access_token: token })).status });
  });

  it('an unknown tool: a JSON-RPC invalid-params error with our fields', async () => {
    const failure = await call('transfer_money', {}).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((failure as McpError).message).toContain('Unknown tool "transfer_money"');
    expect((failure as McpError).data).toEqual({
      type: 'invalid_request',
      code: 'invalid_field',
      request_id: expect.stringMatching(/^req_/),
      status: 400,
      documentation_url: expect.stringMatching(/\/docs\/errors#invalid_field$/),
      display_message: null,
    });
  });

  it('arguments that are not an object: a JSON-RPC invalid-params error', async () => {
    const res = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_item', arguments: 'fc_at_x' } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; error: { code: number } };
    expect(body).toMatchObject({ id: 7, error: { code: ErrorCode.InvalidParams } });
  });

  it('protocol methods with bad params: a JSON-RPC invalid-params error naming the problem, not an internal error', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ jsonrpc: '2.0', id: 11, method: 'initialize' }, /^Invalid initialize request: params/],
      [{ jsonrpc: '2.0', id: 12, method: 'initialize', params: {} }, /^Invalid initialize request: params\.protocolVersion/],
      [{ jsonrpc: '2.0', id: 13, method: 'initialize', params: { protocolVersion: '2025-03-26' } }, /^Invalid initialize request: params\.(capabilities|clientInfo)/],
      [{ jsonrpc: '2.0', id: 14, method: 'tools/list', params: { cursor: 5 } }, /^Invalid tools\/list request: params\.cursor/],
      [{ jsonrpc: '2.0', id: 15, method: 'tools/call', params: { name: 7 } }, /^Invalid tools\/call request: params\.name/],
    ];
    for (const [message, expected] of cases) {
      const res = await rawPost(JSON.stringify(message));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { error: { code: number; message: string; data: { code: string } } };
      expect(body.error.code).toBe(ErrorCode.InvalidParams);
      expect(body.error.message).toMatch(expected);
      expect(body.error.data.code).toBe('invalid_field');
    }
  });

  it('a body that is not JSON: a JSON-RPC parse error with status 400', async () => {
    const res = await rawPost('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError } });
  });

  it('a batch is refused whole (one HTTP request, one tool call, one unit), and runs none of its tools', async () => {
    const ai = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'ai_health_score', arguments: { access_token: accessToken } } };
    const res = await rawPost(JSON.stringify([{ ...ai, id: 1 }, { ...ai, id: 2 }]), { 'Mcp-Protocol-Version': '2025-03-26' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { code: 'mcp_invalid_message', status: 400 } } });
  });

  it('a byte-order mark before the message changes neither what runs nor the quota it counts against', async () => {
    const usage = () => monthlyUsage(stack.deps, key, new Date(clock.now()));
    const before = await usage();
    const res = await rawPost(`\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ai_health_score', arguments: { access_token: accessToken } } })}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: CallToolResult }).result.isError).toBeFalsy();
    const after = await usage();
    expect({ ai: after.ai - before.ai, api: after.api - before.api }).toEqual({ ai: 1, api: 0 });
  });
});

describe('authentication: the REST semantics in JSON-RPC form', () => {
  it.each([
    ['no key', null, 'missing_api_key'],
    ['an unknown key', makeKey('test'), 'invalid_api_key'],
    ['a revoked key', revokedKey, 'revoked_api_key'],
  ])('%s: the SDK client fails to connect with the 401', async (_label, bearer, code) => {
    const failure = await connect({ key: bearer }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(401);
    // The transport puts the answer's body in the message: our error is readable there.
    expect((failure as Error).message).toContain(code);
  });

  it('answers 401 with a JSON-RPC error carrying our fields', async () => {
    const res = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { Authorization: '' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32001,
        message: expect.any(String),
        data: {
          type: 'authentication_error',
          code: 'missing_api_key',
          request_id: res.headers.get('x-request-id'),
          status: 401,
          documentation_url: `${stack.baseUrl}/docs/errors#missing_api_key`,
          display_message: null,
        },
      },
    });
  });
});

describe('metering follows the tool\'s route', () => {
  const usage = () => monthlyUsage(stack.deps, key, new Date(clock.now()));

  it('at the AI quota, an ai_* call is a 429 JSON-RPC error while other tools still answer', async () => {
    const hobby = await connect({ key: freeKey });
    await stack.deps.ddb.send(
      new UpdateCommand({
        TableName: stack.deps.config.tableName,
        Key: keys.apiKey(sha256Hex(freeKey)),
        UpdateExpression: 'SET #u = :n',
        ExpressionAttributeNames: { '#u': usageAttribute('ai', new Date(clock.now())) },
        ExpressionAttributeValues: { ':n': PLANS.free.aiPerMonth },
      }),
    );
    const args = { transactions: [{ id: 't1', description: 'NETFLIX.COM', amount: 15.49 }] };
    const failure = await call('ai_categorize', args, hobby).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(StreamableHTTPError);
    expect((failure as StreamableHTTPError).code).toBe(429);
    expect((failure as Error).message).toContain('monthly_ai_quota_exceeded');
    const raw = await rawPost(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ai_categorize', arguments: args } }), {
      Authorization: `Bearer ${freeKey}`,
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await raw.json()).toMatchObject({ id: null, error: { code: -32029, data: { type: 'rate_limit_error', code: 'monthly_ai_quota_exceeded', status: 429 } } });
    // The API quota is another: the non-AI tools still answer.
    const search = await call('search_institutions', { query: 'first' }, hobby);
    expect(search.isError).toBeFalsy();
  });

  it('an ai_* call counts against the AI quota, any other call against the API quota', async () => {
    const before = await usage();
    await call('ai_health_score', { access_token: accessToken });
    expect(await usage()).toEqual({ api: before.api, ai: before.ai + 1 });
    await call('get_item', { access_token: accessToken });
    expect(await usage()).toEqual({ api: before.api + 1, ai: before.ai + 1 });
    await client.listTools();
    expect(await usage()).toEqual({ api: before.api + 2, ai: before.ai + 1 });
  });
});

describe('the descriptor and the discovery documents', () => {
  it.each(['/mcp', '/api/mcp'])('GET %s: the server, its endpoint, bearer auth and the tools with their input schemas', async (path) => {
    const res = await stack.call(path, { method: 'GET', key: null, headers: { Accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.json).toMatchObject({
      name: MCP_SERVER_INFO.name,
      version: MCP_SERVER_INFO.version,
      endpoint: `${stack.baseUrl}/mcp`,
      alternate_endpoints: [`${stack.baseUrl}/api/mcp`],
      transport: { type: 'streamable-http', stateless: true },
      authentication: { type: 'bearer', header: 'Authorization', required: true },
    });
    const { tools } = await client.listTools();
    expect((res.json.tools as Json[]).map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).toEqual(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    );
    expect(res.json.tools[0].rest_route).toEqual({ method: 'POST', path: '/v1/institutions/search' });
  });

  it('GET that accepts only an event stream (the client\'s SSE probe): 405 with Allow', async () => {
    const res = await stack.call('/mcp', { method: 'GET', key: null, headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, GET');
    expect(res.json.error).toMatchObject({ type: 'invalid_request', code: 'method_not_allowed' });
  });

  it('/.well-known/mcp.json points at the endpoint, the descriptor and openapi.json', async () => {
    const res = await stack.call('/.well-known/mcp.json', { method: 'GET', key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.json).toMatchObject({
      serverInfo: { name: MCP_SERVER_INFO.name, version: MCP_SERVER_INFO.version },
      transport: { type: 'streamable-http', endpoint: `${stack.baseUrl}/mcp` },
      authentication: { required: true, schemes: ['bearer'] },
      openapi: `${stack.baseUrl}/openapi.json`,
    });
    expect((res.json.tools as Json[]).map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    expect((await fetch(res.json.openapi as string)).status).toBe(200);
  });

  it('/.well-known/ai-plugin.json: the manifest with openapi.json and the MCP server', async () => {
    const res = await stack.call('/.well-known/ai-plugin.json', { method: 'GET', key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.json).toMatchObject({
      schema_version: 'v1',
      name_for_model: MCP_SERVER_INFO.name,
      auth: { type: 'user_http', authorization_type: 'bearer' },
      api: { type: 'openapi', url: `${stack.baseUrl}/openapi.json` },
      mcp: { url: `${stack.baseUrl}/mcp`, transport: 'streamable-http', discovery: `${stack.baseUrl}/.well-known/mcp.json` },
    });
  });
});
