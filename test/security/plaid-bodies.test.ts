// Malformed and hostile bodies on the Plaid-compatible API (POST /plaid/<endpoint>), every endpoint
// it serves. The route's own request schema is only `client_id`/`secret`, so the generic generators
// of ./body-mutations.ts would say little here: each endpoint starts from a body Plaid's client would
// send, then a field is broken (wrong JSON type) or filled with hostile text, or the whole body is
// not a JSON object. What is checked: never a 5xx, always Plaid's error object (error_type,
// error_code, error_message, display_message, request_id echoing X-Request-Id) when refused, and a
// refused request writes nothing.
import fc from 'fast-check';
import { PLAID_ENDPOINT_ROUTES } from '../../functions/contracts/plaid-endpoints';
import { makeKey, startTestStack, type CallResult, type TestStack } from '../support/stack';
import { quiesce, tableFingerprint } from './harness';

const SEED = Number(process.env.FC_SEED ?? 20261124);
const RUNS = Number(process.env.FC_RUNS ?? 15);
const CALL_TIMEOUT_MS = 20_000;

let stack: TestStack;
const key = makeKey('test');
let applicationId: string;
let accessToken: string;

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Plaid bodies', plan: 'enterprise', keys: [key] }]);
  applicationId = stack.keys[0].applicationId;
  const pt = await stack.call('/v1/sandbox/public_token/create', { key, body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] } });
  const exchanged = await stack.call('/v1/link/token/exchange', { key, body: { public_token: pt.json.public_token } });
  accessToken = exchanged.json.access_token;
  await stack.historyLoaded(exchanged.json.item_id);
  await quiesce(stack);
});
afterAll(() => stack.stop());

type PlaidPath = keyof typeof PLAID_ENDPOINT_ROUTES;

/** A body each endpoint accepts, as Plaid's client would send it (credentials travel in headers). */
const VALID_BODIES: Record<PlaidPath, () => Record<string, unknown>> = {
  '/link/token/create': () => ({ client_name: 'Bodies', language: 'en', country_codes: ['US'], products: ['transactions'], user: { client_user_id: 'user-1' } }),
  '/sandbox/public_token/create': () => ({ institution_id: 'ins_sandbox_first_bank', initial_products: ['transactions'] }),
  '/item/public_token/exchange': () => ({ public_token: 'public-sandbox-00000000-0000-0000-0000-000000000000' }),
  '/item/get': () => ({ access_token: accessToken }),
  '/item/remove': () => ({ access_token: accessToken }),
  '/item/webhook/update': () => ({ access_token: accessToken, webhook: null }),
  '/accounts/get': () => ({ access_token: accessToken }),
  '/accounts/balance/get': () => ({ access_token: accessToken }),
  '/transactions/sync': () => ({ access_token: accessToken, count: 100 }),
  '/transactions/get': () => ({ access_token: accessToken, start_date: '2026-01-01', end_date: '2026-11-01', options: { count: 10, offset: 0 } }),
  '/transactions/refresh': () => ({ access_token: accessToken }),
  '/institutions/search': () => ({ query: 'bank', products: ['transactions'], country_codes: ['US'] }),
  '/institutions/get_by_id': () => ({ institution_id: 'ins_sandbox_first_bank', country_codes: ['US'] }),
  '/sandbox/item/fire_webhook': () => ({ access_token: accessToken, webhook_code: 'SYNC_UPDATES_AVAILABLE' }),
  '/sandbox/item/reset_login': () => ({ access_token: accessToken }),
  '/webhook_verification_key/get': () => ({ key_id: 'no-such-key' }),
};
const PATHS = Object.keys(PLAID_ENDPOINT_ROUTES) as PlaidPath[];
/** Endpoints whose valid body changes or removes the item: hostile-but-valid text is not sent to them. */
const DESTRUCTIVE = new Set<PlaidPath>(['/item/remove', '/item/webhook/update', '/sandbox/item/reset_login', '/transactions/refresh', '/sandbox/item/fire_webhook']);

interface PlaidRequest {
  what: string;
  path: PlaidPath;
  body: string;
}

async function send(req: PlaidRequest): Promise<CallResult> {
  const res = await fetch(`${stack.baseUrl}/plaid${req.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'PLAID-CLIENT-ID': applicationId, 'PLAID-SECRET': key },
    body: req.body,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** What is wrong with `res` as Plaid's refusal (empty when it is one). */
function plaidRefusalProblems(res: CallResult): string[] {
  if (res.status < 400 || res.status > 499) return [`status ${res.status} is not a 4xx`];
  const e = res.json as Record<string, unknown> | undefined;
  if (!e || typeof e !== 'object') return [`not a JSON object: ${res.text.slice(0, 200)}`];
  const problems: string[] = [];
  for (const name of ['error_type', 'error_code', 'error_message', 'request_id']) if (typeof e[name] !== 'string' || e[name] === '') problems.push(`${name} is not a non-empty string`);
  if (e.display_message !== null && typeof e.display_message !== 'string') problems.push('display_message is neither null nor a string');
  if (e.request_id !== res.headers.get('x-request-id')) problems.push('request_id differs from X-Request-Id');
  return problems;
}

const describeAnswer = (req: PlaidRequest, res: CallResult, problems: string[]) => `${req.path} ${req.what}: ${problems.join('; ')} (answer ${res.status}: ${res.text.slice(0, 300)})`;

/** JSON values of the wrong type for any field these endpoints take. */
const WRONG_TYPES: unknown[] = [42, -1.5, true, null, [], ['x'], {}, { nested: { deeper: [1] } }];
/** Strings that must never break anything, wherever they land. */
const HOSTILE_TEXT = ['', ' ', '\u0000', '\u202e\u202dabc', 'a'.repeat(10_000), "' OR 1=1 --", '${jndi:ldap://x}', '../../../etc/passwd', '<script>alert(1)</script>', '\ud83d\udcb8'.repeat(500), 'NaN'];

/** Bodies that break the endpoint's contract: a field of the wrong JSON type, or no JSON object at all. */
const invalidRequest: fc.Arbitrary<PlaidRequest> = fc.constantFrom(...PATHS).chain((path) => {
  const valid = VALID_BODIES[path]();
  const fields = Object.keys(valid);
  const wrongField = fc.tuple(fc.constantFrom(...fields), fc.constantFrom(...WRONG_TYPES)).map(([field, value]) => ({
    what: `${field} = ${JSON.stringify(value)}`,
    path,
    body: JSON.stringify({ ...valid, [field]: value }),
  }));
  const notAnObject = fc.constantFrom('', 'null', '[]', '"text"', '12', '{"a":', '{"access_token": "x",}', '\u0000{}', `${'['.repeat(5000)}${']'.repeat(5000)}`).map((body) => ({ what: `body ${JSON.stringify(body.slice(0, 20))}`, path, body }));
  return fc.oneof(wrongField, notAnObject);
});

/** Bodies of the right shape whose strings are hostile: refusal or success, never a 5xx. */
const hostileRequest: fc.Arbitrary<PlaidRequest> = fc.constantFrom(...PATHS.filter((p) => !DESTRUCTIVE.has(p))).chain((path) => {
  const valid = VALID_BODIES[path]();
  const stringFields = Object.keys(valid).filter((f) => typeof valid[f] === 'string');
  if (!stringFields.length) return fc.constant({ what: 'the valid body', path, body: JSON.stringify(valid) });
  return fc.tuple(fc.constantFrom(...stringFields), fc.constantFrom(...HOSTILE_TEXT)).map(([field, text]) => ({
    what: `${field} = ${JSON.stringify(text.slice(0, 20))}`,
    path,
    body: JSON.stringify({ ...valid, [field]: text }),
  }));
});

describe('the Plaid-compatible API under malformed and hostile bodies', () => {
  it.each(PATHS.filter((p) => !DESTRUCTIVE.has(p) && p !== '/item/public_token/exchange' && p !== '/webhook_verification_key/get'))(
    '%s answers its valid body (the generators start from a body that works)',
    async (path) => {
      const res = await send({ what: 'the valid body', path, body: JSON.stringify(VALID_BODIES[path]()) });
      expect({ status: res.status, requestId: typeof res.json?.request_id }).toEqual({ status: 200, requestId: 'string' });
    },
  );

  it('refuses every contract-breaking body in Plaid\'s error format, and writes nothing', async () => {
    const before = await tableFingerprint(stack);
    await fc.assert(
      fc.asyncProperty(invalidRequest, async (req) => {
        const res = await send(req);
        const problems = plaidRefusalProblems(res);
        if (problems.length) throw new Error(describeAnswer(req, res, problems));
      }),
      { seed: SEED, numRuns: RUNS * 4 },
    );
    await quiesce(stack);
    expect(await tableFingerprint(stack)).toBe(before);
  });

  it('answers hostile text in every string field without a 5xx, either succeeding or refusing in Plaid\'s format', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (req) => {
        const res = await send(req);
        if (res.status === 200) return;
        const problems = plaidRefusalProblems(res);
        if (problems.length) throw new Error(describeAnswer(req, res, problems));
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });
});
