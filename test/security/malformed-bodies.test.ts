// Property-based malformed input on every POST route, generated from the route's own zod schema
// (./body-mutations.ts): whatever breaks the schema is refused with a 4xx error envelope, within a
// bounded time, and writes nothing; hostile but schema-valid strings never cause a 5xx.
//
// The runs are seeded: a failure prints fast-check's seed and counterexample; FC_SEED=<n> replays
// another seed, FC_RUNS=<n> changes the number of bodies per route.
import fc from 'fast-check';
import { ROUTES, type Route } from '../../functions/contracts/routes';
import { ensureConsoleOwner } from '../../functions/platform/local/console-owner';
import { makeKey, startTestStack, type TestStack } from '../support/stack';
import { APP, ORG, TOKEN, VALID } from '../support/valid-bodies';
import { hostileButMaybeValidBody, invalidBody, requestJsonSchema, type HostileRequest } from './body-mutations';
import { envelopeProblems, quiesce, rawCall, tableFingerprint } from './harness';

const SEED = Number(process.env.FC_SEED ?? 20260611);
const RUNS = Number(process.env.FC_RUNS ?? 15);

let stack: TestStack;
const key = makeKey('test');
/** The valid bodies with a real access token and link token, so a wrongly accepted body would act. */
const validBodies: Record<string, Record<string, unknown>> = {};
/** The console's routes are sent by a signed-in owner (session cookie and CSRF token), so their bodies are parsed at all. */
const consoleHeaders: Record<string, string> = {};

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Acme', plan: 'enterprise', keys: [key] }]);
  const pt = await stack.call('/v1/sandbox/public_token/create', { key, body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'], username: 'user_good' } });
  const exchanged = await stack.call('/v1/link/token/exchange', { key, body: { public_token: pt.json.public_token } });
  const link = await stack.call('/v1/link/token/create', { key, body: { user: { client_user_id: 'u' }, products: ['transactions'] } });
  expect([pt.status, exchanged.status, link.status, pt.text]).toEqual([200, 200, 200, pt.text]);
  const owner = await ensureConsoleOwner(stack.deps, { applicationIds: stack.keys.map((k) => k.applicationId) });
  const signIn = await fetch(`${stack.baseUrl}/console/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: owner.email, password: owner.password }),
  });
  const session = /^fc_console_session=([^;]+)/.exec(signIn.headers.getSetCookie().join('\n'))?.[1];
  expect([signIn.status, typeof session]).toEqual([200, 'string']);
  consoleHeaders.Cookie = `fc_console_session=${session}`;
  consoleHeaders['X-CSRF-Token'] = ((await signIn.json()) as { csrf_token: string }).csrf_token;
  for (const route of postRoutes) {
    const body: Record<string, unknown> = { ...VALID[route.id] };
    if (body.access_token === TOKEN) body.access_token = exchanged.json.access_token;
    if (typeof body.link_token === 'string') body.link_token = link.json.link_token;
    if (body.organization_id === ORG) body.organization_id = owner.organizationId;
    if (body.application_id === APP) body.application_id = stack.keys[0].applicationId;
    validBodies[route.id] = body;
  }
  await quiesce(stack);
});
afterAll(() => stack.stop());

// The GraphQL and MCP endpoints answer bad bodies in their own protocol's format: protocol-bodies.test.ts.
const postRoutes = ROUTES.filter(
  (r): r is Route & { request: NonNullable<Route['request']> } => r.method === 'POST' && r.request !== null && !r.protocol,
);

const send = (route: Route, req: HostileRequest) =>
  rawCall(stack, route.path, { key, body: req.body, contentType: req.contentType, headers: route.console ? consoleHeaders : undefined });

const describeAnswer = (req: HostileRequest, status: number, text: string, problems: string[]) =>
  `${req.what}: ${problems.join('; ')} (answer ${status}: ${text.slice(0, 300)})`;

describe('malformed bodies on every POST route, derived from the route table', () => {
  it('derives a JSON Schema and has a valid body for every POST route', () => {
    expect(postRoutes.length).toBeGreaterThanOrEqual(30);
    for (const route of postRoutes) {
      expect({ route: route.id, hasBody: VALID[route.id] !== undefined }).toEqual({ route: route.id, hasBody: true });
      expect({ route: route.id, type: requestJsonSchema(route).type }).toEqual({ route: route.id, type: 'object' });
    }
  });

  it.each(postRoutes.map((r) => [r.id, r] as const))('%s: every schema-breaking body gets a 4xx envelope and writes nothing', async (_id, route) => {
    const before = await tableFingerprint(stack);
    await fc.assert(
      fc.asyncProperty(invalidBody(route, validBodies[route.id]), async (req) => {
        const res = await send(route, req);
        const problems = envelopeProblems(res);
        // A console route must judge the body itself, not stop at the session or CSRF check.
        if (['session_required', 'csrf_failed'].includes(res.json?.error?.code)) problems.push(`stopped before the body by ${res.json.error.code}`);
        if (problems.length) throw new Error(describeAnswer(req, res.status, res.text, problems));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    await quiesce(stack);
    expect(await tableFingerprint(stack)).toBe(before);
  });

  it.each(postRoutes.map((r) => [r.id, r] as const))('%s: hostile strings in free-text fields never cause a 5xx', async (_id, route) => {
    const bodies = hostileButMaybeValidBody(route, validBodies[route.id]);
    if (!bodies) return;
    await fc.assert(
      fc.asyncProperty(bodies, async (req) => {
        const res = await send(route, req);
        if (res.status >= 500) throw new Error(describeAnswer(req, res.status, res.text, ['server error']));
        if (res.status >= 400) {
          const problems = envelopeProblems(res);
          if (problems.length) throw new Error(describeAnswer(req, res.status, res.text, problems));
        }
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
    await quiesce(stack);
  });
});
