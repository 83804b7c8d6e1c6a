// Malformed and hostile bodies on the two protocol endpoints, POST /v1/graphql and POST /mcp, from
// the same generators as every REST route (./body-mutations.ts, over each route's documented request
// schema), plus each protocol's own hostile inputs. A protocol route answers in its own error format
// rather than the REST envelope, so what is checked is: never a 5xx, always within the time limit,
// always that protocol's error format carrying our code and the request's id, and no write.
import fc from 'fast-check';
import { routeById, type Route } from '../../functions/contracts/routes';
import { makeKey, startTestStack, type CallResult, type TestStack } from '../support/stack';
import { hostileButMaybeValidBody, invalidBody, type HostileRequest } from './body-mutations';
import { quiesce, rawCall, tableFingerprint } from './harness';

const SEED = Number(process.env.FC_SEED ?? 20261124);
const RUNS = Number(process.env.FC_RUNS ?? 15);
const MCP_ACCEPT = 'application/json, text/event-stream';

let stack: TestStack;
const key = makeKey('test');
let accessToken: string;

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Protocols', plan: 'enterprise', keys: [key] }]);
  const pt = await stack.call('/v1/sandbox/public_token/create', { key, body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] } });
  const exchanged = await stack.call('/v1/link/token/exchange', { key, body: { public_token: pt.json.public_token } });
  accessToken = exchanged.json.access_token;
  await stack.historyLoaded(exchanged.json.item_id);
  await quiesce(stack);
});
afterAll(() => stack.stop());

interface Protocol {
  route: Route;
  accept: string | undefined;
  valid: () => Record<string, unknown>;
  /** What is wrong with `res` as this protocol's refusal (empty when it is one). */
  refusalProblems: (res: CallResult) => string[];
  /** Whether `res` is this protocol's success (hostile but valid input may succeed). */
  succeeded: (res: CallResult) => boolean;
}

/** Our fields in a protocol error (functions/platform/protocols.ts errorFields), the id echoing X-Request-Id. */
function ourFieldsProblems(where: string, fields: Record<string, unknown> | undefined, res: CallResult): string[] {
  if (!fields || typeof fields !== 'object') return [`${where} is missing`];
  const problems: string[] = [];
  for (const name of ['type', 'code', 'request_id']) if (typeof fields[name] !== 'string' || fields[name] === '') problems.push(`${where}.${name} is not a non-empty string`);
  if (typeof fields.status !== 'number') problems.push(`${where}.status is not a number`);
  if (fields.request_id !== res.headers.get('x-request-id')) problems.push(`${where}.request_id differs from X-Request-Id`);
  return problems;
}

const PROTOCOLS: Protocol[] = [
  {
    route: routeById('graphql.query'),
    accept: undefined,
    valid: () => ({ query: 'query($t: String!) { item(access_token: $t) { item_id accounts { account_id } } }', variables: { t: accessToken } }),
    refusalProblems: (res) => {
      if (res.status !== 200 && (res.status < 400 || res.status > 499)) return [`status ${res.status} is neither 200 nor a 4xx`];
      const errors = res.json?.errors;
      if (!Array.isArray(errors) || errors.length === 0) return [`no errors in ${res.text.slice(0, 200)}`];
      if (res.json.data !== undefined && res.json.data !== null) return ['a refusal that carries data'];
      return errors.flatMap((e: { message?: unknown; extensions?: Record<string, unknown> }, i: number) => [
        ...(typeof e.message === 'string' && e.message !== '' ? [] : [`errors[${i}].message is not a non-empty string`]),
        ...ourFieldsProblems(`errors[${i}].extensions`, e.extensions, res),
      ]);
    },
    succeeded: (res) => res.status === 200 && res.json?.data !== undefined && res.json?.data !== null,
  },
  {
    route: routeById('mcp.call'),
    accept: MCP_ACCEPT,
    valid: () => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_accounts', arguments: { access_token: accessToken } } }),
    refusalProblems: (res) => {
      if (res.status >= 500) return [`status ${res.status}`];
      const messages = Array.isArray(res.json) ? res.json : [res.json];
      if (!messages.length || messages.some((m) => !m || typeof m !== 'object')) return [`not JSON-RPC: ${res.text.slice(0, 200)}`];
      return messages.flatMap((m: { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown; data?: Record<string, unknown> }; result?: { isError?: boolean; structuredContent?: { error?: Record<string, unknown> } } }) => {
        if (m.jsonrpc !== '2.0') return ['jsonrpc is not "2.0"'];
        if (m.error) {
          return [
            ...(Number.isInteger(m.error.code) ? [] : ['error.code is not an integer']),
            ...(typeof m.error.message === 'string' ? [] : ['error.message is not a string']),
            ...ourFieldsProblems('error.data', m.error.data, res),
          ];
        }
        // A tool's own refusal is a tool result marked isError, carrying the REST envelope.
        if (m.result?.isError) return ourFieldsProblems('result.structuredContent.error', m.result.structuredContent?.error, res);
        return ['neither a JSON-RPC error nor a tool error'];
      });
    },
    succeeded: (res) => res.status === 200 && res.json?.result !== undefined && !res.json.result.isError,
  },
];

const send = (protocol: Protocol, req: HostileRequest) =>
  rawCall(stack, protocol.route.path, { key, body: req.body, contentType: req.contentType, accept: protocol.accept });

const describeAnswer = (req: HostileRequest, res: CallResult, problems: string[]) => `${req.what}: ${problems.join('; ')} (answer ${res.status}: ${res.text.slice(0, 300)})`;

const json = (what: string, value: unknown): HostileRequest => ({ what, body: new TextEncoder().encode(JSON.stringify(value)), contentType: 'application/json' });

describe.each(PROTOCOLS.map((p) => [p.route.id, p] as const))('%s', (_id, protocol) => {
  it('answers its valid body with success (the generators start from a body that works)', async () => {
    const res = await send(protocol, json('the valid body', protocol.valid()));
    expect({ status: res.status, succeeded: protocol.succeeded(res) }).toEqual({ status: 200, succeeded: true });
  });

  it('refuses every schema-breaking body in its own error format with our code and request id, and writes nothing', async () => {
    const before = await tableFingerprint(stack);
    await fc.assert(
      fc.asyncProperty(invalidBody(protocol.route, protocol.valid()), async (req) => {
        const res = await send(protocol, req);
        const problems = protocol.refusalProblems(res);
        if (problems.length) throw new Error(describeAnswer(req, res, problems));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    await quiesce(stack);
    expect(await tableFingerprint(stack)).toBe(before);
  });

  it('answers hostile strings in free-text fields without a 5xx, either succeeding or refusing in its own format', async () => {
    const bodies = hostileButMaybeValidBody(protocol.route, protocol.valid());
    expect(bodies).not.toBeNull();
    await fc.assert(
      fc.asyncProperty(bodies!, async (req) => {
        const res = await send(protocol, req);
        if (protocol.succeeded(res)) return;
        const problems = protocol.refusalProblems(res);
        if (problems.length) throw new Error(describeAnswer(req, res, problems));
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

describe('protocol-specific hostile input', () => {
  const graphql = PROTOCOLS[0];
  const mcp = PROTOCOLS[1];

  it.each([
    ['a query nested 5,000 levels deep', { query: `{ ${'item(access_token: "x") { '.repeat(5000)}item_id${' }'.repeat(5000)} }` }],
    ['1,000 aliases of an item', { query: `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: item(access_token: "t${i}") { item_id }`).join(' ')} }` }],
    ['a fragment cycle', { query: 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }' }],
    ['a mutation', { query: 'mutation { x }' }],
    ['variables of the wrong type', { query: 'query($t: String!) { item(access_token: $t) { item_id } }', variables: { t: { nested: [1, 2] } } }],
    ['a query that is an object', { query: { kind: 'Document' } }],
    ['null bytes and bidi overrides in the query', { query: '{ categories { category \u0000 \u202e } }' }],
  ])('GraphQL: %s', async (_what, body) => {
    const res = await send(graphql, json(_what, body));
    expect(graphql.refusalProblems(res)).toEqual([]);
  });

  it.each([
    ['an unknown method', { jsonrpc: '2.0', id: 1, method: 'tools/destroy' }],
    ['an unknown tool', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'drop_tables', arguments: {} } }],
    ['arguments that are not an object', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_accounts', arguments: 'x' } }],
    ['a tool argument of the wrong type', { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_transactions', arguments: { access_token: 7 } } }],
    ['another application\'s style of token', { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_accounts', arguments: { access_token: 'fc_at_' + 'Q'.repeat(40) } } }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 6, method: 'tools/list' }],
    ['an empty batch', []],
    ['a batch of 1,000 messages', Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }))],
  ])('MCP: %s', async (_what, body) => {
    const res = await send(mcp, json(_what, body));
    expect(mcp.refusalProblems(res)).toEqual([]);
  });

  it('MCP: an initialize asking for a protocol version the server does not speak is answered with one it does (version negotiation)', async () => {
    const res = await send(mcp, json('initialize', { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
    expect(res.status).toBe(200);
    expect(res.json.result.protocolVersion).toMatch(/^20\d\d-\d\d-\d\d$/);
    expect(res.json.result.protocolVersion).not.toBe('1999-01-01');
  });

  it('MCP: a client that does not accept both JSON and an event stream gets 406 in the JSON-RPC format', async () => {
    const res = await rawCall(stack, '/mcp', { key, body: JSON.stringify(mcp.valid()), contentType: 'application/json', accept: 'application/json' });
    expect(res.status).toBe(406);
    expect(mcp.refusalProblems(res)).toEqual([]);
    expect(res.json.error.data.code).toBe('mcp_not_acceptable');
  });
});
