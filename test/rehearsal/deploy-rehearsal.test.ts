// The deploy rehearsal: the artefact we deploy, run as Lambda would run it. One synthesis with
// bundling (synth.ts), then every function's bundle in its own warm Node process with the
// template's environment (functions.ts), against DynamoDB Local behind a recording proxy and
// recording stubs of SQS, Step Functions and KMS (aws-stubs.ts). It drives the sandbox journey, every
// product route, webhooks management with replay, the Link page's API and every worker with the
// event shape its trigger delivers, asserts the answers, and checks every AWS call each function
// made against that function's synthesized IAM policy (iam.ts).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UpdateCommand } from '../../functions/platform/aws/dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, SQSEvent } from 'aws-lambda';
import { ROUTES, aliasPaths, routeById } from '../../functions/contracts/routes';
import { AI_MODEL_BY_STAGE } from '../../functions/contracts/stages';
import { keys } from '../../functions/data/keys';
import { listPlaidKeys } from '../../functions/data/plaid-keys-repo';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { applySeed } from '../../functions/platform/local/seed';
import { createDeps, type Deps } from '../../functions/platform/runtime';
import { generateApiKey, sha256Hex } from '../../functions/core/api-keys';
import { CONSOLE_SESSION, csrfTokenOf } from '../../functions/app/console/session';
import { CONSOLE_SESSION_COOKIE, CONSOLE_SIGN_IN_COOKIE } from '../../functions/contracts/console-schemas';
import { createSession, createUser } from '../../functions/data/console-sessions-repo';
import { apiEvent } from '../support/api-event';
import { apiMethods } from '../cdk/template-helpers';
import type { Json } from '../support/json';
import { startAwsStubs, type AwsCall, type AwsStubs } from './aws-stubs';
import { REHEARSAL_REST_API_ID, keyArnOf, rehearsedFunctions, standInResolver, startContainer, type Container, type RehearsedFunction } from './functions';
import { allowedBy, allowedOnlyVacuously, statementAllows, tableAccessReport } from './iam';
import { synthesizeWithBundles, type Synthesis } from './synth';

const STAGE = 'sandbox';
/** Processes started at once: the machine has two cores, and loading a bundle is CPU-bound. */
const PARALLEL = 2;

let synthesis: Synthesis;
let stubs: AwsStubs;
let functions: RehearsedFunction[];
const containers = new Map<string, Container>();
const unresolved = new Set<string>();
/** `POST /v1/items/get` -> the logical id of the function API Gateway integrates there. */
const routeFunction = new Map<string, string>();
const invoked = new Set<string>();
const key = generateApiKey('test');
/** A live key: its Link and item calls read the stage's connector credentials (Secrets Manager). */
const liveKey = generateApiKey('live');
let layerStarted = 0;
/** The seeded application's id (Plaid's `client_id`). */
let seededApplicationId: string;
/** The rehearsal's table, reached directly (not through the recording proxy): setup, not a function's calls. */
let tableDeps: Deps;

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

beforeAll(async () => {
  layerStarted = Date.now();
  const dynamodbLocal = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!dynamodbLocal) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through `npm run test:rehearsal`');
  synthesis = synthesizeWithBundles(STAGE);
  const tableName = `rehearsal_${randomUUID().slice(0, 8)}`;
  await ensureTable(dynamodbLocal, tableName);
  stubs = await startAwsStubs(dynamodbLocal, keyArnOf);
  functions = rehearsedFunctions(synthesis.directory, synthesis.resources, { tableName, stubEndpoint: stubs.stubEndpoint }, unresolved);
  for (const method of apiMethods(synthesis.resources)) routeFunction.set(`${method.httpMethod} ${method.path}`, method.functionLogicalId);

  // The application and its key exist before any function runs (as after onboarding), written
  // directly rather than through the proxy: they are not a function's calls.
  tableDeps = createDeps({ tableName, stage: STAGE, region: 'us-east-1', dynamodbEndpoint: dynamodbLocal });
  const seeded = await applySeed(tableDeps, [
    { application: 'Rehearsal', plan: 'enterprise', keys: [key, liveKey] },
  ]);
  seededApplicationId = seeded[0].applicationId;

  await inParallel(functions, PARALLEL, async (fn) => {
    containers.set(fn.logicalId, await startContainer(fn, { dynamodb: stubs.dynamodbEndpoint, stubs: stubs.stubEndpoint, bedrock: stubs.bedrockEndpoint }));
  });
  // A function invoked by another (the MCP server's tool calls) runs in its own container, by the name its Ref stands for.
  stubs.invokeFunction = (functionName, payload) => {
    const fn = functions.find((f) => f.logicalId.replace(/\W/g, '-') === functionName);
    if (!fn) return Promise.reject(Object.assign(new Error(`no function ${functionName}`), { notFound: true }));
    return containerOf(fn.logicalId).invoke(payload);
  };
}, 300_000);

afterAll(async () => {
  for (const container of containers.values()) container.stop();
  await stubs?.close();
});

function containerOf(logicalId: string): Container {
  const container = containers.get(logicalId);
  if (!container) throw new Error(`no running function ${logicalId}`);
  invoked.add(logicalId);
  return container;
}

/** The worker construct `<name>` of the AsyncJobs construct (logical id `AsyncJobs<name>Function<hash>`). */
function worker(name: string): Container {
  const fn = functions.find((f) => new RegExp(`^AsyncJobs${name}Function[0-9A-F]{8}$`).test(f.logicalId));
  if (!fn) throw new Error(`no worker ${name} in the template (functions: ${functions.map((f) => f.label).join(', ')})`);
  return containerOf(fn.logicalId);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The Set-Cookie values (multiValueHeaders), in order. */
  cookies: string[];
  body: string;
  json: Json;
}

/** Invokes the function API Gateway integrates at `method path`, with a REST proxy event. */
async function call(
  method: string,
  path: string,
  init: {
    body?: unknown;
    /** A body sent as it is (a browser form), instead of `body` as JSON; its Content-Type goes in `headers`. */
    rawBody?: string;
    key?: string | null;
    query?: Record<string, string>;
    resource?: string;
    /** A greedy resource's path parameters (`proxy`), as API Gateway passes them. */
    pathParameters?: Record<string, string>;
    headers?: Record<string, string>;
    domainName?: string;
  } = {},
): Promise<Answer> {
  const domainName = init.domainName ?? 'api.rehearsal.example';
  const resource = init.resource ?? path;
  const logicalId = routeFunction.get(`${method} ${resource}`) ?? routeFunction.get(`ANY ${resource}`);
  if (!logicalId) throw new Error(`API Gateway has no method ${method} ${resource}`);
  const event = apiEvent(method, path, { body: init.body, key: init.key === null ? undefined : (init.key ?? key) }) as APIGatewayProxyEvent & { requestContext: Record<string, unknown> };
  event.resource = resource;
  if (init.rawBody !== undefined) event.body = init.rawBody;
  event.pathParameters = init.pathParameters ?? null;
  event.queryStringParameters = init.query ?? null;
  event.multiValueQueryStringParameters = init.query ? Object.fromEntries(Object.entries(init.query).map(([k, v]) => [k, [v]])) : null;
  event.headers = { Host: domainName, 'User-Agent': 'fincore-rehearsal', 'X-Forwarded-Proto': 'https', ...event.headers, ...init.headers };
  event.multiValueHeaders = Object.fromEntries(Object.entries(event.headers).map(([name, value]) => [name, [value ?? '']]));
  event.requestContext = {
    ...event.requestContext,
    stage: STAGE,
    resourcePath: resource,
    httpMethod: method,
    path: `/${STAGE}${path}`,
    protocol: 'HTTP/1.1',
    accountId: '111111111111',
    apiId: 'rehearsal',
    domainName,
    requestTimeEpoch: Date.now(),
    identity: {
      sourceIp: '198.51.100.20',
      userAgent: 'fincore-rehearsal',
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      user: null,
      userArn: null,
    },
  };
  const result = await containerOf(logicalId).invoke<APIGatewayProxyResult>(event);
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  let json: Json;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const cookies = (result.multiValueHeaders?.['Set-Cookie'] ?? []).map(String);
  return { status: result.statusCode, headers: (result.headers ?? {}) as Record<string, string>, cookies, body, json };
}

const post = (path: string, body: unknown, init: { key?: string | null } = {}) => call('POST', path, { body, ...init });

function expectStatus(answer: Answer, status: number): void {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${answer.body.slice(0, 600)}`);
}

const PRODUCTS = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
let accessToken: string;
let itemId: string;
/** The healthy item the hosted Link connects (the journey's item has its login reset by then). */
let linkItemId: string;

describe('the sandbox journey', () => {
  it('creates a sandbox public token, exchanges it, loads its history in the refresh worker, lists accounts and syncs transactions', async () => {
    const before = stubs.messages.length;
    const publicToken = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: PRODUCTS });
    expectStatus(publicToken, 200);
    expect(publicToken.json.public_token).toMatch(/^fc_pub_/);

    const exchanged = await post('/v1/link/token/exchange', { public_token: publicToken.json.public_token });
    expectStatus(exchanged, 200);
    accessToken = exchanged.json.access_token;
    itemId = exchanged.json.item_id;
    expect(accessToken).toBeTruthy();

    // Connecting answered before the history loaded: the job it queued runs in the refresh worker.
    const queued = stubs.messages.slice(before).filter((m) => m.queueUrl.endsWith('.fifo'));
    expect(queued.map((m) => JSON.parse(m.body))).toEqual([{ item_id: itemId, reason: 'initial_history' }]);
    expect((await post('/v1/items/get', { access_token: accessToken })).json.item.transactions_update_status).toBe('not_ready');
    expect(await worker('ItemRefreshWorker').invoke(sqsBatch(queued.map((m) => m.body)))).toMatchObject({ refreshed: true, history: true });
    expect((await post('/v1/items/get', { access_token: accessToken })).json.item.transactions_update_status).toBe('historical_update_complete');

    const accounts = await post('/v1/accounts/get', { access_token: accessToken });
    expectStatus(accounts, 200);
    expect(accounts.json.accounts.length).toBeGreaterThan(0);

    let cursor: string | undefined;
    let added = 0;
    for (let page = 0; page < 20; page++) {
      const sync = await post('/v1/transactions/sync', { access_token: accessToken, count: 500, ...(cursor ? { cursor } : {}) });
      expectStatus(sync, 200);
      added += sync.json.added.length;
      cursor = sync.json.next_cursor;
      if (!sync.json.has_more) break;
    }
    expect(added).toBeGreaterThan(0);
  });
});

describe('product routes', () => {
  /** Per route: extra body fields, and the list in the answer that must not be empty. */
  const cases: Record<string, { body?: Record<string, unknown>; list: (json: Json) => unknown[] }> = {
    'items.get': { list: (json) => [json.item.item_id] },
    'accounts.balance.get': { list: (json) => json.accounts },
    'transactions.get': { body: { start_date: '2000-01-01', end_date: '2100-01-01' }, list: (json) => json.transactions },
    'identity.get': { list: (json) => json.identity.owners },
    'income.get': { list: (json) => json.income_streams },
    'liabilities.get': { list: (json) => json.accounts },
    'recurring.get': { list: (json) => json.recurring_streams },
    'assets.get': { list: (json) => json.accounts },
    'investments.holdings.get': { list: (json) => json.holdings },
    'investments.transactions.get': { list: (json) => json.investment_transactions },
  };
  it.each(Object.keys(cases))('%s answers 200 with data for the journey item', async (routeId) => {
    const answer = await post(routeById(routeId).path, { access_token: accessToken, ...cases[routeId].body });
    expectStatus(answer, 200);
    expect(cases[routeId].list(answer.json).length).toBeGreaterThan(0);
  });

  it('answers the catalogue routes without an item', async () => {
    expectStatus(await post('/v1/categories/get', {}), 200);
    const search = await post('/v1/institutions/search', { query: 'bank' });
    expectStatus(search, 200);
    expect(search.json.institutions.length).toBeGreaterThan(0);
    expectStatus(await post('/v1/institutions/get_by_id', { institution_id: 'ins_sandbox_first_bank' }), 200);
  });

  it('answers the public documents and health without a key', async () => {
    for (const path of ['/openapi.json', '/llms.txt', '/llms-full.txt', '/v1/health']) {
      expectStatus(await call('GET', path, { key: null }), 200);
    }
    // The browsable reference and the errors page: HTML from their own bundles (Redoc's assets packed in).
    const reference = await call('GET', '/docs', { key: null });
    expectStatus(reference, 200);
    expect(reference.body).toContain('openapi.json');
    const errors = await call('GET', '/docs/errors', { key: null });
    expectStatus(errors, 200);
    expect(errors.body).toContain('id="invalid_cursor"');
  });

  it('answers an unknown path 404 through the fallback', async () => {
    const unknown = await call('POST', '/v1/nothing/here', { body: {}, resource: '/{proxy+}' });
    expectStatus(unknown, 404);
  });
});

describe('GraphQL gateway', () => {
  it('answers a query over the journey item with the same accounts as REST, and its products, from its own bundle', async () => {
    const query = `query($t: String!) {
      item(access_token: $t) {
        item_id
        accounts { account_id balances { current } transactions(count: 3) { transactions { transaction_id } } }
        identity { identity { owners { names } } }
        recurring { recurring_streams { stream_id } }
      }
      categories { category }
    }`;
    const answer = await call('POST', '/v1/graphql', { body: { query, variables: { t: accessToken } } });
    expectStatus(answer, 200);
    expect(answer.json.errors).toBeUndefined();
    const item = answer.json.data.item;
    expect(item.item_id).toBe(itemId);
    const rest = await post('/v1/accounts/get', { access_token: accessToken });
    expect(item.accounts.map((a: Json) => a.account_id)).toEqual(rest.json.accounts.map((a: Json) => a.account_id));
    expect(item.accounts.some((a: Json) => a.transactions.transactions.length > 0)).toBe(true);
    expect(item.identity.identity.owners.length).toBeGreaterThan(0);
    expect(item.recurring.recurring_streams.length).toBeGreaterThan(0);
    expect(answer.json.data.categories.length).toBeGreaterThan(0);
  });

  it('answers a missing key 401 in the GraphQL error format', async () => {
    const answer = await call('POST', '/v1/graphql', { body: { query: '{ categories { category } }' }, key: null });
    expectStatus(answer, 401);
    expect(answer.json.errors[0].extensions).toMatchObject({ code: 'missing_api_key', status: 401 });
  });
});

describe('item lifecycle and sandbox controls', () => {
  it('accepts a refresh and enqueues it on the refresh queue, which the refresh worker runs from an SQS batch', async () => {
    const before = stubs.messages.length;
    const refresh = await post('/v1/items/refresh', { access_token: accessToken });
    expectStatus(refresh, 200);
    expect(refresh.json.refreshing).toBe(true);
    const enqueued = stubs.messages.slice(before).filter((m) => m.queueUrl.endsWith('.fifo'));
    expect(enqueued).toHaveLength(1);
    expect(JSON.parse(enqueued[0].body)).toMatchObject({ item_id: itemId, reason: 'on_demand' });
    const result = await worker('ItemRefreshWorker').invoke(sqsBatch(enqueued.map((m) => m.body)));
    expect(result).toMatchObject({ refreshed: true });
  });

  it("sets and clears the item's own webhook URL (the item and its event in one transaction)", async () => {
    const set = await post('/v1/item/webhook/update', { access_token: accessToken, webhook: 'https://93.184.215.14/item-hook' });
    expectStatus(set, 200);
    expect(set.json).toMatchObject({ item: { item_id: itemId }, webhook: 'https://93.184.215.14/item-hook' });
    expectStatus(await post('/v1/item/webhook/update', { access_token: accessToken, webhook: null }), 200);
  });

  it('fires a sandbox webhook and resets the login', async () => {
    expectStatus(await post('/v1/sandbox/fire_webhook', { access_token: accessToken, webhook_type: 'item.error' }), 200);
    expectStatus(await post('/v1/sandbox/item/reset_login', { access_token: accessToken }), 200);
  });
});

describe('hosted Link', () => {
  it('serves the page and SDK, and connects through the page API (with MFA)', async () => {
    // The webhook field is the item's own URL; checking it seals the environment's signing secret (KMS).
    const created = await post('/v1/link/token/create', { user: { client_user_id: 'rehearsal-user' }, products: ['transactions'], webhook: 'https://93.184.215.14/link-hook' });
    expectStatus(created, 200);
    const linkToken = created.json.link_token as string;
    const page = await call('GET', '/link', { key: null, query: { token: linkToken } });
    expectStatus(page, 200);
    expect(page.body).toContain('<html');
    expectStatus(await call('GET', '/link/sdk.js', { key: null }), 200);

    const session = await post('/link/api/session', { link_token: linkToken }, { key: null });
    expectStatus(session, 200);
    expectStatus(await post('/link/api/institutions', { link_token: linkToken, query: 'bank' }, { key: null }), 200);
    const connect = await post('/link/api/connect', { link_token: linkToken, institution_id: 'ins_sandbox_first_bank', username: 'user_mfa', password: 'pass_good' }, { key: null });
    expectStatus(connect, 200);
    expect(connect.json.status).toBe('mfa_required');
    const mfa = await post('/link/api/mfa', { link_token: linkToken, code: '1234' }, { key: null });
    expectStatus(mfa, 200);
    expect(mfa.json.public_token).toMatch(/^fc_pub_/);
    linkItemId = mfa.json.metadata.item_id;
  });
});

describe('statement import and Link\u2019s other consent steps', () => {
  const statement = readFileSync(join(__dirname, '../../../shared/statements/ofx__bb.ofx')).toString('base64');

  it('creates an item from an uploaded statement and takes another upload of it through the API, adding nothing twice', async () => {
    const linkToken = (await post('/v1/link/token/create', { user: { client_user_id: 'rehearsal-import' }, products: ['transactions'] })).json.link_token as string;
    const method = await post('/link/api/method', { link_token: linkToken, institution_id: 'ins_chase' }, { key: null });
    expectStatus(method, 200);
    expect(method.json.file_upload).toBe(true);
    const uploaded = await post('/link/api/upload', { link_token: linkToken, institution_id: 'ins_chase', file_name: 'bb.ofx', file_base64: statement }, { key: null });
    expectStatus(uploaded, 200);
    const importToken = (await post('/v1/link/token/exchange', { public_token: uploaded.json.public_token })).json.access_token as string;
    const again = await post('/v1/items/statements/upload', { access_token: importToken, file_name: 'bb.ofx', file_base64: statement });
    expectStatus(again, 200);
    expect(again.json.transactions).toEqual({ added: 0, modified: 0, removed: 0 });
  });

  it('answers the OAuth, API-key and address steps from their bundles (a sandbox institution takes none of them)', async () => {
    const linkToken = (await post('/v1/link/token/create', { user: { client_user_id: 'rehearsal-consent' }, products: ['transactions'] })).json.link_token as string;
    const oauth = await post('/link/api/oauth/start', { link_token: linkToken, institution_id: 'ins_sandbox_first_bank' }, { key: null });
    expect([oauth.status, oauth.json.error.type]).toEqual([400, 'invalid_request']);
    const complete = await post('/link/api/oauth/complete', { link_token: linkToken, state: 'not-the-state', code: 'x' }, { key: null });
    expect(complete.status).toBe(400);
    const consent = await post('/link/api/consent', { link_token: linkToken, institution_id: 'ins_sandbox_first_bank', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }, { key: null });
    expect(consent.status).toBe(400);
    const callback = await call('GET', '/link/oauth/callback', { key: null, query: { state: 'x', code: 'y' } });
    expectStatus(callback, 200);
    expect(callback.body).toContain('<html');
  });

  it('runs the sandbox\u2019s OAuth redirect (the bank page, the resume) and the account selection from their bundles', async () => {
    // A loopback redirect_uri: the sandbox bank returns only to one of those or to an allowlisted one.
    const redirectUri = 'http://127.0.0.1:9/oauth-return';
    // Identity only: the item has no history to load, so it is not due for the scheduled refresh below.
    const linkToken = (await post('/v1/link/token/create', { user: { client_user_id: 'rehearsal-oauth' }, products: ['identity'], redirect_uri: redirectUri })).json.link_token as string;
    const started = await post('/link/api/oauth/start', { link_token: linkToken, institution_id: 'ins_sandbox_thames_bank' }, { key: null });
    expectStatus(started, 200);
    const query = Object.fromEntries(new URL(started.json.authorize_url as string).searchParams);
    const bank = await call('GET', '/link/sandbox/oauth/authorize', { key: null, query });
    expectStatus(bank, 200);
    expect(bank.body).toContain('Allow');
    const form = new URLSearchParams({ session: query.session, state: query.state, decision: 'allow' }).toString();
    const allowed = await call('POST', '/link/sandbox/oauth/authorize', { key: null, rawBody: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectStatus(allowed, 303);
    const received = allowed.headers.Location;
    expect(received.startsWith(`${redirectUri}?oauth_state_id=`)).toBe(true);
    const step = await post('/link/api/oauth/resume', { link_token: linkToken, received_redirect_uri: received, account_selection: true }, { key: null });
    expectStatus(step, 200);
    expect(step.json.status).toBe('select_accounts');
    const chosen = [step.json.accounts[0].account_id as string];
    const selected = await post('/link/api/accounts/select', { link_token: linkToken, public_token: step.json.public_token, account_ids: chosen }, { key: null });
    expectStatus(selected, 200);
    const oauthToken = (await post('/v1/link/token/exchange', { public_token: step.json.public_token })).json.access_token as string;
    const accounts = await post('/v1/accounts/get', { access_token: oauthToken });
    expectStatus(accounts, 200);
    expect(accounts.json.accounts.map((a: { account_id: string }) => a.account_id)).toEqual(chosen);
  });

  it('reads the stage\u2019s connector credentials for a live key, and falls back to a statement upload when none is configured', async () => {
    const linkToken = (await post('/v1/link/token/create', { user: { client_user_id: 'rehearsal-live' }, products: ['transactions'] }, { key: liveKey })).json.link_token as string;
    const before = stubs.calls.filter((c) => c.action === 'secretsmanager:GetSecretValue').length;
    const method = await post('/link/api/method', { link_token: linkToken, institution_id: 'ins_chase' }, { key: null });
    expectStatus(method, 200);
    expect(method.json).toEqual({ institution_id: 'ins_chase', method: 'file', file_upload: true });
    expect(stubs.calls.filter((c) => c.action === 'secretsmanager:GetSecretValue').length).toBe(before + 1);
  });
});

const sqsBatch = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: randomUUID(),
    receiptHandle: `rehearsal-${i}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'rehearsal', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:111111111111:rehearsal',
    awsRegion: 'us-east-1',
  })),
});

describe('GraphiQL', () => {
  it('serves the page and, from the same bundle, every asset it loads, with the bytes its integrity pins', async () => {
    const page = await call('GET', '/v1/graphql', { key: null });
    expectStatus(page, 200);
    const assets = [...page.body.matchAll(/(?:src|href)="\?asset=([^&]+)&amp;v=([0-9a-f]+)" integrity="sha384-([^"]+)"/g)];
    expect(assets.map(([, name]) => name)).toEqual(['graphiql.css', 'react.js', 'react-dom.js', 'graphiql.js']);
    for (const [, name, version, integrity] of assets) {
      const asset = await call('GET', '/v1/graphql', { key: null, query: { asset: name!, v: version! } });
      expectStatus(asset, 200);
      expect(createHash('sha384').update(asset.body, 'utf8').digest('base64')).toBe(integrity);
    }
  });
});

describe('webhooks', () => {
  let endpointId: string;
  let eventId: string;

  it('creates, lists an endpoint and rotates the secret', async () => {
    // A public address literal: accepted without DNS, and unreachable in the rehearsal's network.
    const created = await post('/v1/webhooks/endpoints/create', { url: 'https://93.184.215.14/fincore-rehearsal' });
    expectStatus(created, 200);
    endpointId = created.json.endpoint.endpoint_id;
    expect(endpointId).toBeTruthy();
    const listed = await post('/v1/webhooks/endpoints/list', {});
    expectStatus(listed, 200);
    expect(JSON.stringify(listed.json)).toContain(endpointId);
    expectStatus(await post('/v1/webhooks/secret/rotate', { grace_period_hours: 1 }), 200);
  });

  it('dispatches queued events (SQS batch: the first attempt fails, unreachable), retries (Step Functions task input) and dead-letters', async () => {
    const fired = await post('/v1/sandbox/fire_webhook', { access_token: accessToken, webhook_type: 'item.error' });
    expectStatus(fired, 200);
    const eventMessages = stubs.messages.filter((m) => !m.queueUrl.endsWith('.fifo'));
    expect(eventMessages.length).toBeGreaterThan(0);
    const before = stubs.executions.length;
    const dispatched = await worker('WebhookDispatchWorker').invoke<{ batchItemFailures: unknown[] }>(sqsBatch(eventMessages.map((m) => m.body)));
    expect(dispatched.batchItemFailures).toEqual([]);
    const started = stubs.executions.slice(before);
    expect(started.length).toBeGreaterThan(0);
    const input = started.map((e) => JSON.parse(e.input) as Record<string, unknown>).find((i) => i.endpoint_id === endpointId);
    if (!input) throw new Error(`no delivery started for ${endpointId}: ${JSON.stringify(started)}`);
    eventId = String(input.event_id);
    // Dispatch made attempt 1 itself; the execution begins at attempt 2.
    expect(input.attempts_made).toBe(1);

    const outcome = await worker('WebhookDeliveryWorker').invoke<{ delivered: boolean; status: number }>({ ...input, attempt: 2 });
    expect(outcome).toMatchObject({ delivered: false, status: 0 });
    const dead = await worker('WebhookDeadLetterWorker').invoke<{ recorded: boolean }>({ ...input, attempts: 5 });
    expect(dead.recorded).toBe(true);

    // The attempt and the dead letter are on the delivery's row, which the list shows.
    const deliveries = await post('/v1/webhooks/deliveries/list', { count: 100 });
    expectStatus(deliveries, 200);
    const delivery = (deliveries.json.deliveries as Json[]).find((d) => d.delivery_id === input.delivery_id);
    expect(delivery).toMatchObject({ event_id: eventId, status: 'dead_lettered' });
    expect(delivery.attempts.map((a: Json) => a.attempt)).toEqual([1, 2]);
  });

  it('replays an event: a new delivery execution starts', async () => {
    const before = stubs.executions.length;
    const replay = await post('/v1/webhooks/events/replay', { event_id: eventId });
    expectStatus(replay, 200);
    expect(replay.json.delivery_ids.length).toBeGreaterThan(0);
    expect(stubs.executions.length).toBeGreaterThan(before);
  });

  it('deletes the endpoint', async () => {
    expectStatus(await post('/v1/webhooks/endpoints/delete', { endpoint_id: endpointId }), 200);
  });
});

describe('scheduled work and removal', () => {
  it('runs the scheduled refresh from an EventBridge schedule event, queueing a due item with SendMessageBatch', async () => {
    // Make the Link item due now, as time would (its history load was due at once; once loaded, its
    // next refresh is hours away).
    await tableDeps.ddb.send(
      new UpdateCommand({
        TableName: tableDeps.config.tableName,
        Key: keys.refreshDue(linkItemId),
        UpdateExpression: 'SET gsi1sk = :due',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':due': keys.refreshDueEntry(linkItemId, 0).gsi1sk },
      }),
    );
    const before = stubs.messages.length;
    const result = await worker('ScheduledRefreshWorker').invoke<{ enqueued: number }>({
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '111111111111',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: ['arn:aws:events:us-east-1:111111111111:rule/rehearsal'],
      detail: {},
    });
    expect(result.enqueued).toBe(1);
    const queued = stubs.messages.slice(before).filter((m) => m.queueUrl.endsWith('.fifo'));
    expect(queued.map((m) => [JSON.parse(m.body), m.groupId])).toEqual([[{ item_id: linkItemId, reason: 'scheduled' }, linkItemId]]);
  });

  it('removes the item', async () => {
    expectStatus(await post('/v1/items/remove', { access_token: accessToken }), 200);
  });
});

describe('the Plaid-compatible API', () => {
  /** One request as Plaid's client sends it: POST /plaid/<endpoint>, the credentials in PLAID-CLIENT-ID and PLAID-SECRET. */
  const plaid = (endpoint: string, body: Record<string, unknown>) =>
    call('POST', `/plaid${endpoint}`, {
      body,
      key: null,
      resource: '/plaid/{proxy+}',
      pathParameters: { proxy: endpoint.slice(1) },
      headers: { 'PLAID-CLIENT-ID': seededApplicationId, 'PLAID-SECRET': key },
    });
  const hook = 'https://93.184.215.14/plaid-rehearsal';
  let plaidToken: string;

  it('serves Plaid\'s endpoints from its bundle: a sandbox item with a Plaid-shaped webhook, its accounts, institutions, its webhook key', async () => {
    const institutions = await plaid('/institutions/search', { query: 'sandbox first', country_codes: ['US'] });
    expectStatus(institutions, 200);
    expect(institutions.json.institutions[0].institution_id).toBe('ins_sandbox_first_bank');
    // Registering the Plaid-shaped endpoint creates the environment's Plaid webhook key (KMS, its own purpose).
    const publicToken = await plaid('/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', initial_products: ['transactions'], options: { webhook: hook } });
    expectStatus(publicToken, 200);
    const exchanged = await plaid('/item/public_token/exchange', { public_token: publicToken.json.public_token });
    expectStatus(exchanged, 200);
    plaidToken = exchanged.json.access_token;
    const accounts = await plaid('/accounts/get', { access_token: plaidToken });
    expectStatus(accounts, 200);
    expect(accounts.json).toMatchObject({ item: { item_id: exchanged.json.item_id }, request_id: expect.any(String) });
    expect(accounts.json.accounts.length).toBeGreaterThan(0);
    const [plaidKey] = await listPlaidKeys(tableDeps, seededApplicationId, 'test');
    const jwk = await plaid('/webhook_verification_key/get', { key_id: plaidKey.kid });
    expectStatus(jwk, 200);
    expect(jwk.json.key).toMatchObject({ kid: plaidKey.kid, alg: 'ES256', kty: 'EC', crv: 'P-256', expired_at: null });
    expect(stubs.calls.some((c) => c.action === 'kms:GenerateDataKey' && c.context['kms:EncryptionContext:purpose'] === 'plaid_webhook_key')).toBe(true);
  });

  it("answers a refusal of the middlewares in Plaid's format", async () => {
    const refused = await call('POST', '/plaid/accounts/get', {
      body: { access_token: plaidToken },
      key: null,
      resource: '/plaid/{proxy+}',
      pathParameters: { proxy: 'accounts/get' },
      headers: { 'PLAID-CLIENT-ID': seededApplicationId },
    });
    expectStatus(refused, 400);
    expect(refused.json).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'MISSING_FIELDS', request_id: expect.any(String) });
  });

  it('delivers Plaid\'s webhook body, each attempt signed with the Plaid webhook key in the dispatch and delivery workers', async () => {
    const messagesBefore = stubs.messages.length;
    const fired = await plaid('/sandbox/item/fire_webhook', { access_token: plaidToken, webhook_code: 'SYNC_UPDATES_AVAILABLE' });
    expectStatus(fired, 200);
    const eventMessages = stubs.messages.slice(messagesBefore).filter((m) => !m.queueUrl.endsWith('.fifo'));
    expect(eventMessages.length).toBeGreaterThan(0);
    const before = stubs.executions.length;
    const dispatched = await worker('WebhookDispatchWorker').invoke<{ batchItemFailures: unknown[] }>(sqsBatch(eventMessages.map((m) => m.body)));
    expect(dispatched.batchItemFailures).toEqual([]);
    const endpoints = (await post('/v1/webhooks/endpoints/list', {})).json.endpoints as Json[];
    const endpointId = endpoints.find((e) => e.url === hook)?.endpoint_id;
    const input = stubs.executions
      .slice(before)
      .map((e) => JSON.parse(e.input) as Record<string, unknown>)
      .find((i) => i.endpoint_id === endpointId);
    if (!input) throw new Error(`no delivery started for the Plaid-shaped endpoint: ${JSON.stringify(stubs.executions.slice(before))}`);
    expect(JSON.parse(String(input.body))).toMatchObject({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', environment: 'sandbox' });
    const outcome = await worker('WebhookDeliveryWorker').invoke<{ delivered: boolean; status: number; error?: string }>({ ...input, attempt: 2 });
    // Signed, then unreachable (the rehearsal has no Internet): a signing failure would name the key instead.
    expect(outcome).toMatchObject({ delivered: false, status: 0 });
    expect(outcome.error).not.toMatch(/Plaid webhook signing key|decrypt/i);
    const byId = new Map(functions.map((f) => [f.accessKeyId, f.logicalId]));
    const signers = stubs.calls.filter((c) => c.action === 'kms:Decrypt' && c.context['kms:EncryptionContext:purpose'] === 'plaid_webhook_key').map((c) => byId.get(c.caller) ?? '');
    expect(signers.some((id) => /^AsyncJobsWebhookDispatchWorkerFunction/.test(id))).toBe(true);
    expect(signers.some((id) => /^AsyncJobsWebhookDeliveryWorkerFunction/.test(id))).toBe(true);
  });

  it("keeps /link/token/create's webhook (its session marked Plaid-shaped) and /item/webhook/update's as the item's own URL", async () => {
    const itemHook = 'https://93.184.215.14/plaid-item';
    const link = await plaid('/link/token/create', { client_name: 'Rehearsal', language: 'en', country_codes: ['US'], products: ['transactions'], user: { client_user_id: 'rehearsal-plaid' }, webhook: itemHook });
    expectStatus(link, 200);
    const updated = await plaid('/item/webhook/update', { access_token: plaidToken, webhook: itemHook });
    expectStatus(updated, 200);
    expect(updated.json).toMatchObject({ item: { webhook: itemHook }, request_id: expect.any(String) });
  });
});

describe('AI routes', () => {
  let aiToken: string;
  const model = AI_MODEL_BY_STAGE[STAGE];

  beforeAll(async () => {
    const publicToken = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
    expectStatus(publicToken, 200);
    const exchanged = await post('/v1/link/token/exchange', { public_token: publicToken.json.public_token });
    expectStatus(exchanged, 200);
    aiToken = exchanged.json.access_token;
    // A new item's history is loaded by the refresh worker: run it, from the queued job when there is one.
    const item = await post('/v1/items/get', { access_token: aiToken });
    if (item.json.item.transactions_update_status !== 'historical_update_complete') {
      const queued = stubs.messages.filter((m) => m.queueUrl.endsWith('.fifo') && JSON.parse(m.body).item_id === exchanged.json.item_id);
      const bodies = queued.length ? queued.map((m) => m.body) : [JSON.stringify({ item_id: exchanged.json.item_id, reason: 'initial_history' })];
      await worker('ItemRefreshWorker').invoke(sqsBatch(bodies));
    }
  });

  const rows = [
    { id: 'r1', description: 'NETFLIX.COM', amount: 15.49, date: '2026-05-03' },
    { id: 'r2', description: 'ZXQV 8812 KLMP', amount: 12, date: '2026-05-04' },
  ];
  const bodies = (): Record<string, Record<string, unknown>> => ({
    'ai.categorize': { transactions: rows },
    'ai.merchant': { description: 'ZXQV 8812 KLMP' },
    'ai.subscriptions': { access_token: aiToken },
    'ai.cashflow': { access_token: aiToken, horizon_days: 14 },
    'ai.health-score': { access_token: aiToken },
    'ai.financial-summary': { access_token: aiToken },
    'ai.fraud-risk': { transactions: rows },
    'ai.purchase-analysis': { access_token: aiToken, purchase: { description: 'Laptop', amount: 900 } },
    'ai.weekly-report': { access_token: aiToken },
  });

  it.each(ROUTES.filter((r) => r.tag === 'AI').map((r) => r.id))('%s answers 200 from its bundle, through the stage model where it refines prose', async (routeId) => {
    const before = stubs.calls.filter((c) => c.action === 'bedrock:InvokeModel').length;
    const answer = await post(routeById(routeId).path, bodies()[routeId]);
    expectStatus(answer, 200);
    const asked = stubs.calls.filter((c) => c.action === 'bedrock:InvokeModel').length - before;
    if (answer.json.engine === 'ai') {
      expect(answer.json.model).toBe(model?.bedrockModelId);
      expect(asked).toBe(1);
      expect(answer.body).toContain('Rehearsed: ');
    } else {
      // categorize and merchant: the stub fills no row, so the rules answer stands.
      expect({ routeId, engine: answer.json.engine }).toEqual({ routeId, engine: 'rules' });
      expect(['ai.categorize', 'ai.merchant', 'ai.fraud-risk']).toContain(routeId);
    }
  });

  /** One JSON-RPC message to the MCP server's function, as an MCP client sends it. */
  const mcp = (message: Record<string, unknown>, init: { key?: string | null; path?: string } = {}) =>
    call('POST', init.path ?? '/mcp', {
      body: { jsonrpc: '2.0', ...message },
      key: init.key,
      headers: { Accept: 'application/json, text/event-stream' },
    });

  /** The functions the MCP server's function invoked since `from` (by the access key id of its process), by logical id. */
  const invokedByMcp = (from: number) => {
    const mcpFunction = routeFunction.get('POST /mcp');
    const caller = functions.find((f) => f.logicalId === mcpFunction)!.accessKeyId;
    return stubs.calls
      .slice(from)
      .filter((c) => c.action === 'lambda:InvokeFunction')
      .map((c) => ({ caller: c.caller === caller ? 'mcp.call' : c.caller, function: functions.find((f) => c.resource.endsWith(`:function:${f.logicalId.replace(/\W/g, '-')}`))?.logicalId }));
  };

  it('serves the MCP server from its bundle: initialize, the fifteen tools, and a tool call that answers as its REST route', async () => {
    const init = await mcp({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rehearsal', version: '1' } } });
    expectStatus(init, 200);
    expect(init.json.result.serverInfo.name).toBe('fincore');
    const listed = await mcp({ id: 2, method: 'tools/list' }, { path: '/api/mcp' });
    expectStatus(listed, 200);
    expect(listed.json.result.tools).toHaveLength(15);
    const from = stubs.calls.length;
    const accounts = await mcp({ id: 3, method: 'tools/call', params: { name: 'list_accounts', arguments: { access_token: aiToken } } });
    expectStatus(accounts, 200);
    // The tool ran in accounts/get's own function, handed over by one Lambda invoke.
    expect(invokedByMcp(from)).toEqual([{ caller: 'mcp.call', function: routeFunction.get('POST /v1/accounts/get') }]);
    const rest = await post('/v1/accounts/get', { access_token: aiToken });
    expect(accounts.json.result.structuredContent).toEqual(rest.json);
  });

  it('answers a handed-over call only in the functions of the tools: another key route treats one as a malformed event', async () => {
    // A forged invocation claiming the seeded application, sent straight to a function no route invokes.
    const forged = {
      fincoreInlineCall: 1,
      routeId: 'webhooks.endpoints.create',
      auth: { applicationId: seededApplicationId, environment: 'test', keyId: 'forged', plan: 'enterprise', rateLimit: { limit: 1, remaining: 1, reset: 0 }, usage: { kind: 'api', used: 0, quota: null } },
      requestId: 'req_forged',
      baseUrl: 'https://rehearsal.example',
      event: { httpMethod: 'POST', path: '/v1/webhooks/endpoints/create', headers: {}, multiValueHeaders: {}, requestContext: {} },
      args: { url: 'https://forged.example/hook' },
    };
    const answer = (await containerOf(routeFunction.get('POST /v1/webhooks/endpoints/create')!).invoke(forged)) as Record<string, unknown>;
    expect(answer.fincoreInlineOutcome).toBeUndefined();
    expect(Number(answer.statusCode)).toBeGreaterThanOrEqual(400);
    const listed = await post('/v1/webhooks/endpoints/list', {});
    expect(JSON.stringify(listed.json)).not.toContain('forged.example');
    // The same shape of invocation, for its own route, is answered by a tool's function.
    const handed = { ...forged, routeId: 'institutions.search', event: { ...forged.event, path: '/v1/institutions/search' }, args: { query: 'first' } };
    const outcome = (await containerOf(routeFunction.get('POST /v1/institutions/search')!).invoke(handed)) as { fincoreInlineOutcome?: number; result?: { institutions: unknown[] } };
    expect(outcome.fincoreInlineOutcome).toBe(1);
    expect(outcome.result?.institutions.length).toBeGreaterThan(0);
  });

  it("answers a tool's error as its route does, through the route's function: the REST envelope and status in an error result", async () => {
    const from = stubs.calls.length;
    // A well-formed token no item has: the item token's last characters changed.
    const unknownToken = `${aiToken.slice(0, -4)}${aiToken.endsWith('aaaa') ? 'bbbb' : 'aaaa'}`;
    const refused = await mcp({ id: 6, method: 'tools/call', params: { name: 'get_item', arguments: { access_token: unknownToken } } });
    expectStatus(refused, 200);
    expect(refused.json.result.isError).toBe(true);
    expect(refused.json.result.structuredContent.error).toMatchObject({ code: 'invalid_access_token', status: 400 });
    const badArgument = await mcp({ id: 7, method: 'tools/call', params: { name: 'get_transactions', arguments: { access_token: aiToken, start_date: 'soon' } } });
    expect(badArgument.json.result.structuredContent.error).toMatchObject({ type: 'invalid_request', status: 400 });
    expect(invokedByMcp(from).map((c) => c.function)).toEqual([routeFunction.get('POST /v1/items/get'), routeFunction.get('POST /v1/transactions/get')]);
  });

  it('runs an AI tool through the MCP server, which asks the stage model as the AI route does', async () => {
    const before = stubs.calls.filter((c) => c.action === 'bedrock:InvokeModel').length;
    const from = stubs.calls.length;
    const answer = await mcp({ id: 4, method: 'tools/call', params: { name: 'ai_health_score', arguments: { access_token: aiToken } } });
    expectStatus(answer, 200);
    expect(invokedByMcp(from).map((c) => c.function)).toEqual([routeFunction.get('POST /v1/ai/health-score')]);
    expect(answer.json.result.isError).toBeFalsy();
    expect(answer.json.result.structuredContent.engine).toBe('ai');
    expect(stubs.calls.filter((c) => c.action === 'bedrock:InvokeModel').length - before).toBe(1);
  });

  it('answers a missing key 401 as a JSON-RPC error, and the MCP descriptor and discovery documents without one', async () => {
    const refused = await mcp({ id: 5, method: 'tools/list' }, { key: null });
    expectStatus(refused, 401);
    expect(refused.json.error.data).toMatchObject({ code: 'missing_api_key', status: 401 });
    for (const path of ['/mcp', '/api/mcp', '/.well-known/mcp.json', '/.well-known/ai-plugin.json']) {
      expectStatus(await call('GET', path, { key: null }), 200);
    }
  });

  it("asked the stage model only from the AI functions (the MCP server's ai_* tools run there), on its foundation-model ARN", () => {
    const callers = ROUTES.filter((r) => r.tag === 'AI');
    const aiFunctions = new Set(callers.flatMap((r) => aliasPaths(r).map((p) => routeFunction.get(`POST ${p}`))));
    const byId = new Map(functions.map((f) => [f.accessKeyId, f.logicalId]));
    const modelCalls = stubs.calls.filter((c) => c.action === 'bedrock:InvokeModel');
    expect(modelCalls.length).toBeGreaterThanOrEqual(6);
    for (const call of modelCalls) {
      expect(aiFunctions.has(byId.get(call.caller))).toBe(true);
      expect(call.resource).toBe(`arn:aws:bedrock:us-east-1::foundation-model/${model?.bedrockModelId}`);
    }
  });
});

describe('the console', () => {
  /** API Gateway's own host for the REST API: {base_url} is then `https://<host>/<stage>`. */
  const host = `${REHEARSAL_REST_API_ID}.execute-api.us-east-1.amazonaws.com`;
  const baseUrl = `https://${host}/${STAGE}`;

  interface SignedIn {
    userId: string;
    email: string;
    token: string;
    csrf: string;
  }
  let owner: SignedIn;
  let invitee: SignedIn;
  let organizationId: string;
  let applicationId: string;
  /** A test key issued through the console, and what the API did with it. */
  let consoleKey: string;
  let consoleItem: { itemId: string; accessToken: string };
  let endpointId: string;

  /**
   * A console user signed in through Cognito, as the callback leaves them (the local password sign-in
   * is refused on AWS, and Cognito is not reachable from here): the user with its Cognito identity,
   * and a session row whose token the cookie carries.
   */
  async function signedInUser(email: string, name: string): Promise<SignedIn> {
    const user = await createUser(tableDeps, { email, name, identity: { provider: 'cognito', subject: `sub-${randomUUID()}` } });
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    await createSession(tableDeps, {
      tokenHash: sha256Hex(token),
      userId: user.userId,
      email: user.email,
      name: user.name,
      identity: 'cognito',
      createdAt: now,
      absoluteExpiresAt: now + CONSOLE_SESSION.absoluteMs,
      idleMs: CONSOLE_SESSION.idleMs,
    });
    return { userId: user.userId, email: user.email, token, csrf: csrfTokenOf(token) };
  }

  /** A console call as the console's page makes it: same origin, the session cookie, the CSRF token. */
  const consoleCall = (routeId: string, body: unknown, as: SignedIn | null, init: { csrf?: string } = {}) =>
    call('POST', routeById(routeId).path, {
      body,
      key: null,
      domainName: host,
      headers: {
        Origin: `https://${host}`,
        'Sec-Fetch-Site': 'same-origin',
        ...(as ? { Cookie: `${CONSOLE_SESSION_COOKIE}=${as.token}`, 'X-CSRF-Token': init.csrf ?? as.csrf } : {}),
      },
    });
  const ok = async (routeId: string, body: unknown, as: SignedIn = owner): Promise<Json> => {
    const answer = await consoleCall(routeId, body, as);
    expectStatus(answer, 200);
    return answer.json;
  };
  const scope = (environment: 'test' | 'live' = 'test') => ({ application_id: applicationId, environment });

  beforeAll(async () => {
    owner = await signedInUser(`owner-${randomUUID().slice(0, 8)}@rehearsal.example`, 'Rehearsal Owner');
    invitee = await signedInUser(`dev-${randomUUID().slice(0, 8)}@rehearsal.example`, 'Rehearsal Developer');
  });

  it('serves the page, which signs in through Cognito on AWS, and refuses password sign-in and sign-up', async () => {
    const page = await call('GET', '/console/', { key: null, resource: '/console', domainName: host });
    expectStatus(page, 200);
    expect(page.body).toContain('<meta name="fc-console-identity" content="cognito">');
    const login = await consoleCall('console.auth.login', { email: owner.email, password: 'not-a-password-here' }, null);
    expect(login.json.error.code).toBe('sign_in_method_unavailable');
    const signup = await consoleCall('console.auth.signup', { email: owner.email, password: 'Not-a-password-1', name: 'x', invitation_token: 'fc_inv_x' }, null);
    expect(signup.json.error.code).toBe('sign_in_method_unavailable');
  });

  it('sends the browser to the hosted UI with PKCE, back to the callback URL the app client allows, keeping the state in a cookie under the stage path', async () => {
    const start = await call('GET', '/console/api/auth/start', { key: null, domainName: host });
    expectStatus(start, 302);
    const location = new URL(start.headers.Location);
    expect(`${location.origin}${location.pathname}`).toBe(`https://fincore-console-rehearsal-111111111111.auth.us-east-1.amazoncognito.com/oauth2/authorize`);
    expect(location.searchParams.get('client_id')).toBe('rehearsalconsoleclient');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    // The redirect URI must be one the template's app client lists, byte for byte, or Cognito refuses it.
    const [[, client]] = Object.entries(synthesis.resources).filter(([, r]) => r.Type === 'AWS::Cognito::UserPoolClient');
    const callbackUrls = standInResolver(synthesis.resources, { tableName: 'unused', stubEndpoint: 'unused' }, unresolved)(client.Properties!.CallbackURLs) as string[];
    expect(callbackUrls).toEqual([`${baseUrl}/console/api/auth/callback`]);
    expect(location.searchParams.get('redirect_uri')).toBe(callbackUrls[0]);
    const stateCookie = start.cookies.find((c) => c.startsWith(`${CONSOLE_SIGN_IN_COOKIE}=`));
    expect(stateCookie).toMatch(new RegExp(`; Path=/${STAGE}/console/api/auth; Max-Age=600; HttpOnly; SameSite=Lax; Secure$`));
    const state = stateCookie!.split(';')[0].split('=')[1];
    expect(state).toBe(location.searchParams.get('state'));

    // Back from Cognito: the sign-in's state is taken (one use); the code cannot be redeemed from
    // here (no Internet), which the callback answers as the provider being unavailable.
    const callback = await call('GET', '/console/api/auth/callback', {
      key: null,
      domainName: host,
      query: { code: 'rehearsal-code', state },
      headers: { Cookie: `${CONSOLE_SIGN_IN_COOKIE}=${state}` },
    });
    expect(callback.json.error.code).toBe('identity_provider_unavailable');
    expect(callback.cookies.find((c) => c.startsWith(`${CONSOLE_SIGN_IN_COOKIE}=;`))).toContain('Max-Age=0');
    const again = await call('GET', '/console/api/auth/callback', { key: null, domainName: host, query: { code: 'rehearsal-code', state }, headers: { Cookie: `${CONSOLE_SIGN_IN_COOKIE}=${state}` } });
    expect(again.json.error.code).toBe('sign_in_failed');
  });

  it('answers the session with the CSRF token, and refuses a missing cookie or a wrong CSRF token', async () => {
    const session = await ok('console.session', {});
    expect(session).toMatchObject({ user: { user_id: owner.userId }, organizations: [], csrf_token: owner.csrf, identity: 'cognito' });
    expect((await consoleCall('console.session', {}, null)).json.error.code).toBe('session_required');
    expect((await consoleCall('console.orgs.create', { name: 'x' }, owner, { csrf: 'wrong' })).json.error.code).toBe('csrf_failed');
  });

  it('creates an organisation and an application, issues a test key shown once, and lists it without the secret', async () => {
    organizationId = (await ok('console.orgs.create', { name: 'Rehearsal Org' })).organization_id;
    expect((await ok('console.session', {})).organizations).toEqual([expect.objectContaining({ organization_id: organizationId, role: 'owner' })]);
    applicationId = (await ok('console.applications.create', { organization_id: organizationId, name: 'Console App', plan: 'growth' })).application_id;
    expect((await ok('console.applications.list', { organization_id: organizationId })).applications.map((a: Json) => a.application_id)).toEqual([applicationId]);
    expect((await ok('console.applications.update', { application_id: applicationId, name: 'Console App (renamed)' })).name).toBe('Console App (renamed)');
    const created = await ok('console.keys.create', { application_id: applicationId, environment: 'test' });
    consoleKey = created.key;
    expect(consoleKey).toMatch(/^fc_sk_test_/);
    const listed = await consoleCall('console.keys.list', { application_id: applicationId }, owner);
    expectStatus(listed, 200);
    expect(listed.json.keys).toEqual([expect.objectContaining({ key_id: created.key_id, status: 'active' })]);
    expect(listed.body).not.toContain(consoleKey);
  });

  it('records a data route\u2019s request in the request log, under the route function\u2019s own policy, and finds it by request id', async () => {
    const before = stubs.calls.length;
    const categories = await post('/v1/categories/get', {}, { key: consoleKey });
    expectStatus(categories, 200);
    const requestId = categories.headers['X-Request-Id'];
    const fn = functions.find((f) => f.logicalId === routeFunction.get('POST /v1/categories/get'))!;
    const logWrite = stubs.calls.slice(before).filter((c) => c.caller === fn.accessKeyId && c.action === 'dynamodb:BatchWriteItem');
    expect(logWrite).toHaveLength(1);
    expect([...logWrite[0].context['dynamodb:LeadingKeys']].sort()).toEqual([`REQID#${requestId}`, expect.stringMatching(new RegExp(`^REQLOG#${applicationId}#test#\\d{4}-\\d{2}-\\d{2}#[0-3]$`))].sort());
    expect(allowedBy(fn.statements, logWrite[0])).toBe(true);

    const found = await ok('console.requests.search', { ...scope(), request_id: requestId });
    expect(JSON.stringify(found)).toContain(requestId);
    expect(JSON.stringify(found)).toContain('categories.get');
    // And by route and status over the day's shards (Queries, newest first).
    expect(JSON.stringify(await ok('console.requests.search', { ...scope(), route: 'categories.get', status: 200 }))).toContain(requestId);
    // An error answer's request id finds its entry too.
    const refused = await post('/v1/items/get', { access_token: 'not an access token' }, { key: consoleKey });
    expect(refused.status).toBe(400);
    const refusedEntry = await ok('console.requests.search', { ...scope(), request_id: refused.headers['X-Request-Id'] });
    expect(JSON.stringify(refusedEntry)).toContain(`"${refused.json.error.code}"`);
  });

  it('shows usage, an item and its refresh, for the console\u2019s own application', async () => {
    const publicToken = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] }, { key: consoleKey });
    expectStatus(publicToken, 200);
    const exchanged = await post('/v1/link/token/exchange', { public_token: publicToken.json.public_token }, { key: consoleKey });
    expectStatus(exchanged, 200);
    consoleItem = { itemId: exchanged.json.item_id, accessToken: exchanged.json.access_token };

    const usage = await ok('console.usage.get', scope());
    expect(usage.used.api).toBeGreaterThanOrEqual(4);
    expect(usage.connected_users.count).toBe(1);
    expect(usage.daily.some((d: Json) => (d.api ?? 0) >= 4)).toBe(true);

    expect((await ok('console.items.get', { ...scope(), item_id: consoleItem.itemId })).item).toMatchObject({ item_id: consoleItem.itemId, institution_id: 'ins_sandbox_first_bank' });
    const before = stubs.messages.length;
    expect(await ok('console.items.refresh', { ...scope(), item_id: consoleItem.itemId })).toEqual({ refreshing: true });
    expect(stubs.messages.slice(before).filter((m) => m.queueUrl.endsWith('.fifo')).map((m) => JSON.parse(m.body))).toEqual([{ item_id: consoleItem.itemId, reason: 'on_demand' }]);
  });

  it('manages webhooks: an endpoint with its secret shown once, rotation, the delivery log, a replay, removal', async () => {
    const created = await ok('console.webhooks.endpoints.create', { ...scope(), url: 'https://93.184.215.14/console-rehearsal' });
    endpointId = created.endpoint.endpoint_id;
    expect(created.secret).toEqual(expect.any(String));
    expect((await ok('console.webhooks.endpoints.list', scope())).endpoints.map((e: Json) => e.endpoint_id)).toEqual([endpointId]);
    expect(await ok('console.webhooks.secret.rotate', { ...scope(), grace_hours: 1 })).toMatchObject({ secret: expect.any(String) });
    const fired = await post('/v1/sandbox/fire_webhook', { access_token: consoleItem.accessToken, webhook_type: 'item.error' }, { key: consoleKey });
    expectStatus(fired, 200);
    const executions = stubs.executions.length;
    const replayed = await ok('console.webhooks.events.replay', { ...scope(), event_id: fired.json.event_id });
    expect(replayed.delivery_ids.length).toBe(1);
    expect(stubs.executions.length).toBe(executions + 1);
    const deliveries = await ok('console.webhooks.deliveries.list', scope());
    expect(deliveries.deliveries.map((d: Json) => d.delivery_id)).toContain(replayed.delivery_ids[0]);
    expect(await ok('console.webhooks.endpoints.delete', { ...scope(), endpoint_id: endpointId })).toEqual({ deleted: true });
  });

  it('invites a member, who joins, is limited by their role, changed and removed; invitations are listed and revoked', async () => {
    const invitation = await ok('console.invitations.create', { organization_id: organizationId, email: invitee.email, role: 'developer' });
    const token = String(invitation.invitation_url).split('#/invitations/')[1];
    expect(invitation.invitation_url).toBe(`${baseUrl}/console/#/invitations/${token}`);
    expect(await ok('console.invitations.accept', { token }, invitee)).toMatchObject({ organization_id: organizationId, role: 'developer', joined: true });
    const members = await ok('console.members.list', { organization_id: organizationId });
    expect(members.members.map((m: Json) => [m.user_id, m.role]).sort()).toEqual([[owner.userId, 'owner'], [invitee.userId, 'developer']].sort());
    // A developer may not issue live keys (and the refusal is audited).
    expect((await consoleCall('console.keys.create', { application_id: applicationId, environment: 'live' }, invitee)).json.error.code).toBe('role_forbidden');
    expect(await ok('console.members.update', { organization_id: organizationId, user_id: invitee.userId, role: 'viewer' })).toEqual({ user_id: invitee.userId, role: 'viewer' });
    expect(await ok('console.members.remove', { organization_id: organizationId, user_id: invitee.userId })).toMatchObject({ removed: true });

    const pending = await ok('console.invitations.create', { organization_id: organizationId, email: 'later@rehearsal.example', role: 'viewer' });
    expect((await ok('console.invitations.list', { organization_id: organizationId })).invitations.map((i: Json) => i.invitation_id)).toEqual([pending.invitation_id]);
    expect(await ok('console.invitations.revoke', { organization_id: organizationId, invitation_id: pending.invitation_id })).toMatchObject({ revoked: true });
  });

  it('revokes the key, shows the audit log, deletes an empty organisation and signs out', async () => {
    const [key] = (await ok('console.keys.list', { application_id: applicationId })).keys;
    expect(await ok('console.keys.revoke', { application_id: applicationId, key_id: key.key_id })).toMatchObject({ status: 'revoked' });
    expect((await post('/v1/categories/get', {}, { key: consoleKey })).json.error.code).toBe('revoked_api_key');

    const audit = await ok('console.audit.list', { organization_id: organizationId });
    const actions = audit.entries.map((e: Json) => `${e.action} ${e.outcome}`);
    expect(actions).toEqual(expect.arrayContaining(['console.keys.create allowed', 'console.keys.create denied', 'console.keys.revoke allowed', 'console.members.remove allowed']));

    const scratch = await ok('console.orgs.create', { name: 'Scratch' });
    expect(await ok('console.orgs.delete', { organization_id: scratch.organization_id, confirm_name: 'Scratch' })).toMatchObject({ deleted: true });

    const out = await consoleCall('console.auth.logout', {}, owner);
    expectStatus(out, 200);
    expect(out.cookies).toEqual([expect.stringMatching(new RegExp(`^${CONSOLE_SESSION_COOKIE}=; Path=/${STAGE}/console; Max-Age=0; HttpOnly; SameSite=Strict; Secure$`))]);
    expect((await consoleCall('console.session', {}, owner)).json.error.code).toBe('session_required');
  });
});

describe('the deployed artefact', () => {
  it('resolves every environment variable and policy reference to a stand-in', () => {
    expect([...unresolved]).toEqual([]);
  });

  it('invoked every route function and every worker', () => {
    const routeFunctions = new Set(ROUTES.flatMap((r) => aliasPaths(r).map((p) => routeFunction.get(`${r.method} ${p}`) ?? 'missing')));
    const notInvoked = functions.filter((f) => (routeFunctions.has(f.logicalId) || f.logicalId.startsWith('AsyncJobs')) && !invoked.has(f.logicalId)).map((f) => f.label);
    expect(notInvoked).toEqual([]);
  });

  it('made no AWS call the stubs do not serve', () => {
    expect(stubs.unexpected).toEqual([]);
  });

  it("made only AWS calls its function's synthesized IAM policy allows", () => {
    const byId = new Map(functions.map((f) => [f.accessKeyId, f]));
    const denied = [
      ...new Set(
        stubs.calls
          .filter((c) => !allowedBy(byId.get(c.caller)?.statements ?? [], c))
          .map((c) => `${byId.get(c.caller)?.label ?? c.caller}: ${c.action} on ${c.resource}${describeContext(c)}`),
      ),
    ];
    expect(denied).toEqual([]);
  });

  it('makes no call that a dynamodb:LeadingKeys grant allows only because the call names no partition', () => {
    // ForAllValues holds for an empty set: a Scan under a LeadingKeys-limited grant reads every partition.
    const byId = new Map(functions.map((f) => [f.accessKeyId, f]));
    const vacuous = [
      ...new Set(
        stubs.calls
          .filter((c) => allowedOnlyVacuously(byId.get(c.caller)?.statements ?? [], c))
          .map((c) => `${byId.get(c.caller)?.label ?? c.caller}: ${c.action} on ${c.resource}`),
      ),
    ];
    expect(vacuous).toEqual([]);
  });
});

/** What the recorded calls say about each role's grants (printed, not asserted: one run's coverage). */
function leastPrivilegeReport(): string[] {
  const lines: string[] = [];
  for (const fn of functions) {
    const calls = stubs.calls.filter((c) => c.caller === fn.accessKeyId);
    if (!invoked.has(fn.logicalId)) continue;
    const name = fn.label.replace(/^\S+ \((.*)\)$/, '$1');
    const grantsKms = fn.statements.some((s) => s.actions.some((a) => /^kms:(Decrypt|GenerateDataKey)$/i.test(a)) && s.resources.some((r) => r.includes(':key/key-DataSecretsKey')));
    if (grantsKms && !calls.some((c) => c.action.startsWith('kms:'))) lines.push(`  ${name}: holds the secrets-key grant, made no KMS call`);
    // Partitions touched against partitions granted (test/rehearsal/iam.ts tableAccessReport).
    lines.push(...tableAccessReport(fn.statements, calls).map((line) => `  ${name}: ${line}`));
    const kmsContexts = [...new Set(calls.filter((c) => c.action.startsWith('kms:')).map((c) => String(c.context['kms:EncryptionContext:purpose'] ?? '?')))];
    if (kmsContexts.length) lines.push(`  ${name}: KMS encryption context purpose ${kmsContexts.join(', ')}`);
    const unconditioned = calls.filter((c) => c.action.startsWith('kms:') && fn.statements.some((st) => !st.conditions && statementAllows(st, c)));
    if (unconditioned.length) lines.push(`  ${name}: a KMS grant without encryption-context condition allows its calls`);
  }
  return lines;
}

function describeContext(call: AwsCall): string {
  const entries = Object.entries(call.context).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : true));
  return entries.length ? ` (${entries.map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : v}`).join(', ')})` : '';
}

afterAll(() => {
  if (!functions) return;
  const callers = new Set(stubs.calls.map((c) => c.caller));
  const inits = [...containers.values()].map((c) => c.initMs).sort((a, b) => a - b);
  console.log(
    [
      `deploy rehearsal (${STAGE}): synth ${synthesis.reused ? 'reused from cache' : `${(synthesis.synthMs / 1000).toFixed(1)} s`}, layer ${((Date.now() - layerStarted) / 1000).toFixed(1)} s`,
      `functions: ${functions.length} loaded, ${invoked.size} invoked, ${callers.size} made AWS calls; AWS calls recorded: ${stubs.calls.length}`,
      `module load (init) ms: min ${inits[0]?.toFixed(0)}, median ${inits[Math.floor(inits.length / 2)]?.toFixed(0)}, max ${inits[inits.length - 1]?.toFixed(0)}`,
      'least privilege (from the recorded calls):',
      ...leastPrivilegeReport(),
    ].join('\n'),
  );
});
