// The GraphQL gateway over real HTTP against the local stack: answers equal to the REST routes' for
// the same sandbox items, per-request batching (DynamoDB calls bounded by items, not accounts), the
// limits checked before a query runs, hostile input never answering 500, errors in the GraphQL format
// with our fields, isolation between applications and environments, metering, and graphql-http's
// audit of the GraphQL over HTTP spec.
import { auditServer } from 'graphql-http';
import { GraphQLObjectType, getNamedType, graphql } from 'graphql';
import { LIMITS } from '../../functions/contracts/limits';
import { authorizeAndMeter, monthlyUsage } from '../../functions/data/api-keys-repo';
import { createGraphqlContext } from '../../functions/surfaces/graphql/context';
import { RELATION_FIELDS, graphqlSchema } from '../../functions/surfaces/graphql/schema';
import { manualClock } from '../support/embedded';
import type { Json } from '../support/json';
import { meterReads } from '../support/read-units';
import { makeKey, startTestStack, type CallResult, type TestStack } from '../support/stack';

let stack: TestStack;
const key = makeKey('test');
const liveKey = makeKey('live');
const otherAppKey = makeKey('test');
const freeKey = makeKey('test');
const meteredKey = makeKey('test');
// The service's clock stands still: cursors, generated_at and the rate limiter's bucket are then the
// same for a GraphQL and a REST call made one after the other.
const clock = manualClock();
const ALL = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
const WIDE = { start_date: '2000-01-01', end_date: '2100-01-01' };

let token: string;
/** Three items of several accounts each, for the batching measure and items(access_tokens:). */
let three: string[];
let transactionsOnly: string;

interface GqlInit {
  key?: string | null;
  variables?: unknown;
  headers?: Record<string, string>;
}

function gql(query: string, init: GqlInit = {}): Promise<CallResult> {
  return stack.call('/v1/graphql', { key: init.key === undefined ? key : init.key, body: { query, variables: init.variables }, headers: init.headers });
}

async function rest(path: string, body: unknown, withKey = key): Promise<Json> {
  const res = await stack.call(path, { key: withKey, body });
  expect(res.status).toBe(200);
  return res.json;
}

/** Every REST field of a generated type (relations left out), nested objects expanded: the whole REST answer. */
function all(typeName: string): string {
  const type = graphqlSchema().getType(typeName);
  if (!(type instanceof GraphQLObjectType)) throw new Error(`${typeName} is not an object type`);
  return fieldsOf(type);
}
function fieldsOf(type: GraphQLObjectType): string {
  const relations = RELATION_FIELDS[type.name] ?? [];
  return Object.values(type.getFields())
    .filter((f) => !relations.includes(f.name))
    .map((f) => {
      const named = getNamedType(f.type);
      return named instanceof GraphQLObjectType ? `${f.name} { ${fieldsOf(named)} }` : f.name;
    })
    .join(' ');
}

async function connect(products: string[], username = 'user_good', withKey = key): Promise<{ access_token: string; item_id: string }> {
  const pt = await rest('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products, username }, withKey);
  const exchanged = await rest('/v1/link/token/exchange', { public_token: pt.public_token }, withKey);
  await stack.historyLoaded(exchanged.item_id);
  return exchanged;
}

const codesOf = (res: CallResult): string[] => (res.json?.errors ?? []).map((e: Json) => e.extensions?.code);

beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'GraphQL', plan: 'enterprise', keys: [key, liveKey] },
      { application: 'Other', plan: 'enterprise', keys: [otherAppKey] },
      { application: 'Small', plan: 'free', keys: [freeKey] },
      { application: 'Metered', plan: 'startup', keys: [meteredKey] },
    ],
    { clock },
  );
  token = (await connect(ALL)).access_token;
  three = [token, (await connect(ALL, 'user_good_second')).access_token, (await connect(ALL, 'user_good_third')).access_token];
  transactionsOnly = (await connect(['transactions'], 'user_good_narrow')).access_token;
}, 240_000);
afterAll(() => stack.stop());

describe('answers equal to REST for the same item', () => {
  it('item and accounts (with balances) equal items/get and accounts/get', async () => {
    const res = await gql(`query($t: String!) { item(access_token: $t) { ${all('Item')} accounts { ${all('Account')} } } }`, { variables: { t: token } });
    expect(res.status).toBe(200);
    expect(res.json.errors).toBeUndefined();
    const { accounts, ...item } = res.json.data.item;
    expect(item).toEqual((await rest('/v1/items/get', { access_token: token })).item);
    expect(accounts).toEqual((await rest('/v1/accounts/get', { access_token: token })).accounts);
    expect(accounts.length).toBeGreaterThan(2);
    expect(accounts[0].balances).toHaveProperty('current');
  });

  it('a transactions page equals transactions/get, per item and per account', async () => {
    const page = { count: 37, offset: 11 };
    const res = await gql(
      `query($t: String!) { item(access_token: $t) {
        transactions(start_date: "${WIDE.start_date}", end_date: "${WIDE.end_date}", count: ${page.count}, offset: ${page.offset}) { ${all('TransactionsGetResponse')} }
        accounts { account_id byDates: transactions(start_date: "${WIDE.start_date}", end_date: "${WIDE.end_date}", count: ${page.count}, offset: ${page.offset}) { ${all('AccountTransactions')} }
                   whole: transactions(count: 5) { ${all('AccountTransactions')} } }
      } }`,
      { variables: { t: token } },
    );
    expect(res.json.errors).toBeUndefined();
    const { transactions, accounts } = res.json.data.item;
    expect(transactions).toEqual(await rest('/v1/transactions/get', { access_token: token, ...WIDE, options: page }));
    expect(transactions.transactions).toHaveLength(page.count);
    let accountsWithRows = 0;
    for (const account of accounts) {
      const expected = await rest('/v1/transactions/get', { access_token: token, ...WIDE, options: { ...page, account_ids: [account.account_id] } });
      expect(account.byDates).toEqual({ transactions: expected.transactions, total_transactions: expected.total_transactions });
      const firstFive = await rest('/v1/transactions/get', { access_token: token, ...WIDE, options: { count: 5, account_ids: [account.account_id] } });
      expect(account.whole).toEqual({ transactions: firstFive.transactions, total_transactions: firstFive.total_transactions });
      if (expected.total_transactions > 0) accountsWithRows += 1;
    }
    expect(accountsWithRows).toBeGreaterThan(1);
  });

  it('sync from no cursor equals transactions/sync, and its cursor continues like the REST one', async () => {
    const res = await gql(`query($t: String!) { item(access_token: $t) { transactions_sync(count: 50) { ${all('TransactionsSyncResponse')} } } }`, { variables: { t: token } });
    expect(res.json.errors).toBeUndefined();
    const sync = res.json.data.item.transactions_sync;
    const restSync = await rest('/v1/transactions/sync', { access_token: token, count: 50 });
    expect(sync).toEqual(restSync);
    expect(sync.has_more).toBe(true);
    const next = await gql(`query($t: String!, $c: String) { item(access_token: $t) { transactions_sync(cursor: $c, count: 50) { ${all('TransactionsSyncResponse')} } } }`, {
      variables: { t: token, c: sync.next_cursor },
    });
    expect(next.json.data.item.transactions_sync).toEqual(await rest('/v1/transactions/sync', { access_token: token, cursor: restSync.next_cursor, count: 50 }));
  });

  it.each([
    ['identity', '/v1/identity/get', 'IdentityGetResponse', {}],
    ['income', '/v1/income/get', 'IncomeGetResponse', {}],
    ['assets', '/v1/assets/get', 'AssetsGetResponse', {}],
    ['investments_holdings', '/v1/investments/holdings/get', 'InvestmentsHoldingsGetResponse', {}],
    ['investments_transactions', '/v1/investments/transactions/get', 'InvestmentsTransactionsGetResponse', { options: { count: 7, offset: 1 } }],
    ['liabilities', '/v1/liabilities/get', 'LiabilitiesGetResponse', {}],
    ['recurring', '/v1/recurring/get', 'RecurringGetResponse', {}],
  ])('%s equals %s', async (field, path, typeName, extra) => {
    const args = field === 'investments_transactions' ? '(count: 7, offset: 1)' : '';
    const res = await gql(`query($t: String!) { item(access_token: $t) { ${field}${args} { ${all(typeName)} } } }`, { variables: { t: token } });
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.item[field]).toEqual(await rest(path, { access_token: token, ...extra }));
  });

  it('institutions (search and by id) and categories equal their routes', async () => {
    const res = await gql(`{ institutions(query: "bank", types: ["bank"]) { ${all('Institution')} }
      institution(institution_id: "ins_sandbox_first_bank") { ${all('Institution')} } categories { ${all('Category')} } }`);
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.institutions).toEqual((await rest('/v1/institutions/search', { query: 'bank', types: ['bank'] })).institutions);
    expect(res.json.data.institution).toEqual((await rest('/v1/institutions/get_by_id', { institution_id: 'ins_sandbox_first_bank' })).institution);
    expect(res.json.data.categories).toEqual((await rest('/v1/categories/get', {})).categories);
  });
});

describe('errors in a field', () => {
  it('a product without consent is null with the REST code at its path; the other fields still answer', async () => {
    const restAnswer = await stack.call('/v1/identity/get', { key, body: { access_token: transactionsOnly } });
    const res = await gql(`query($t: String!) { item(access_token: $t) { item_id identity { identity { owners { names } } } recurring { recurring_streams { stream_id } } } }`, {
      variables: { t: transactionsOnly },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.item.item_id).toEqual(expect.any(String));
    expect(res.json.data.item.identity).toBeNull();
    expect(res.json.data.item.recurring).toBeNull();
    const identityError = res.json.errors.find((e: Json) => e.path.join('.') === 'item.identity');
    expect(identityError.extensions).toEqual({
      type: 'permission_denied',
      code: restAnswer.json.error.code,
      request_id: res.headers.get('x-request-id'),
      status: 403,
      documentation_url: restAnswer.json.error.documentation_url,
      display_message: restAnswer.json.error.display_message,
    });
    expect(identityError.extensions.code).toBe('identity_not_consented');
    expect(res.json.errors.find((e: Json) => e.path.join('.') === 'item.recurring').extensions.code).toBe('recurring_not_consented');
  });

  it('bad arguments get the REST codes: a malformed token, a foreign account id, an unknown institution, a reversed date range', async () => {
    const malformed = await stack.call('/v1/items/get', { key, body: { access_token: 'not-a-token' } });
    const res = await gql(`query($t: String!) {
      bad: item(access_token: "not-a-token") { item_id }
      good: item(access_token: $t) { accounts(account_ids: ["acc_not_mine"]) { account_id } reversed: transactions(start_date: "2026-02-01", end_date: "2026-01-01") { total_transactions } }
      institution(institution_id: "ins_nope") { name } }`, { variables: { t: token } });
    const byPath = Object.fromEntries(res.json.errors.map((e: Json) => [e.path.join('.'), e.extensions.code]));
    expect(byPath).toEqual({
      bad: malformed.json.error.code,
      'good.accounts': 'invalid_account_id',
      'good.reversed': 'invalid_date_range',
      institution: 'institution_not_found',
    });
    expect(res.json.data.good).not.toBeNull();
  });

  it('items(access_tokens:) answers each token on its own: a failing one is null with its error at its index', async () => {
    const res = await gql(`query($ts: [String!]!) { items(access_tokens: $ts) { item_id } }`, { variables: { ts: [three[0], 'fc_at_unknown0000', three[1]] } });
    expect(res.json.data.items[0].item_id).toEqual(expect.any(String));
    expect(res.json.data.items[1]).toBeNull();
    expect(res.json.data.items[2].item_id).toEqual(expect.any(String));
    expect(res.json.errors).toHaveLength(1);
    expect(res.json.errors[0]).toMatchObject({ path: ['items', 1], extensions: { code: 'invalid_access_token', status: 400 } });
  });
});

describe('isolation', () => {
  it("another application's key, and the same application's live key, get invalid_access_token like REST", async () => {
    for (const other of [otherAppKey, liveKey]) {
      const restAnswer = await stack.call('/v1/items/get', { key: other, body: { access_token: token } });
      expect(restAnswer.json.error.code).toBe('invalid_access_token');
      const res = await gql(`query($t: String!) { item(access_token: $t) { item_id accounts { account_id } } }`, { key: other, variables: { t: token } });
      expect(res.json.data.item).toBeNull();
      expect(codesOf(res)).toEqual(['invalid_access_token']);
    }
  });
});

describe('batching: DynamoDB calls grow with items, not with items x accounts', () => {
  const query = `query($ts: [String!]!) { items(access_tokens: $ts) { item_id accounts { account_id transactions(count: 100) { total_transactions transactions { transaction_id amount } } } } }`;

  async function readsFor(tokens: string[]) {
    const meter = meterReads(stack.deps);
    const auth = await authorizeAndMeter(stack.deps, key, 'api');
    const contextValue = createGraphqlContext({ deps: meter.deps, auth, requestId: 'req_batching' });
    const result = await graphql({ schema: graphqlSchema(), source: query, variableValues: { ts: tokens }, contextValue });
    expect(result.errors).toBeUndefined();
    const items = (result.data as Json).items as Array<{ accounts: Array<{ transactions: { transactions: unknown[] } }> }>;
    return { calls: meter.calls(), accounts: items.reduce((n, i) => n + i.accounts.length, 0), rows: items.flatMap((i) => i.accounts.flatMap((a) => a.transactions.transactions)).length };
  }

  it('1 item and 3 items of several accounts each: a constant number of calls per item', async () => {
    const one = await Promise.all(three.map((t) => readsFor([t])));
    const together = await readsFor(three);
    for (const single of one) {
      expect(single.accounts).toBeGreaterThanOrEqual(4);
      // The token, the item, its accounts, and its transactions read once for all its accounts.
      expect(single.calls).toBeLessThan(single.accounts);
    }
    expect(together.accounts).toBe(one.reduce((n, s) => n + s.accounts, 0));
    expect(together.rows).toBeGreaterThan(300);
    expect(together.calls).toBe(one.reduce((n, s) => n + s.calls, 0));
    expect(together.calls).toBeLessThanOrEqual(3 * Math.max(...one.map((s) => s.calls)));
  });
});

describe('limits checked before the query runs', () => {
  it('too many access tokens, in literals or variables, across aliases', async () => {
    const tokens = Array.from({ length: LIMITS.graphqlItemsMax + 1 }, (_, i) => `fc_at_x${i}`);
    const viaVariables = await gql(`query($ts: [String!]!) { items(access_tokens: $ts) { item_id } }`, { variables: { ts: tokens } });
    expect(codesOf(viaVariables)).toEqual(['graphql_too_many_items']);
    expect(viaVariables.json.data).toBeUndefined();
    const aliases = Array.from({ length: LIMITS.graphqlItemsMax + 1 }, (_, i) => `a${i}: item(access_token: "${token}") { item_id }`).join(' ');
    expect(codesOf(await gql(`{ ${aliases} }`))).toEqual(['graphql_too_many_items']);
  });

  it('a query nested too deep, and one nested thousands deep, are refused without running', async () => {
    const deep = `{ item(access_token: "${token}") { accounts { a { b { c { d { e { f { g { h { i } } } } } } } } } } }`;
    const res = await gql(deep);
    expect(codesOf(res)).toEqual(['graphql_query_too_deep']);
    const hostile = `{ ${'item(access_token: "x") { '.repeat(1)}${'a { '.repeat(5000)}b${' }'.repeat(5001)} }`;
    const refused = await gql(hostile);
    expect(refused.status).toBe(200);
    expect(codesOf(refused)).toEqual(['graphql_query_too_deep']);
  });

  it('a query whose cost estimate is over the limit (aliases x1000) is refused; a thousand __typename are not work', async () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `c${i}: categories { label detailed { label } }`).join(' ');
    const res = await gql(`{ ${aliases} }`);
    expect(codesOf(res)).toEqual(['graphql_query_too_costly']);
    expect(res.json.errors[0].message).toContain(String(LIMITS.graphqlMaxCost));
    const big = await gql(`query($ts: [String!]!) { items(access_tokens: $ts) { accounts { transactions(count: 500) { transactions { name } } } identity { accounts { transactions(count: 500) { total_transactions } } } } }`, {
      variables: { ts: [...three, ...three] },
    });
    expect(codesOf(big)).toEqual(['graphql_query_too_costly']);
    const cheap = await gql(`{ ${Array.from({ length: 1000 }, (_, i) => `t${i}: __typename`).join(' ')} }`);
    expect(cheap.json.data.t999).toBe('Query');
  });

  it('a query longer than the limit is invalid_field, as REST would answer it', async () => {
    const res = await gql(`{ categories { label } }${' '.repeat(LIMITS.graphqlQueryMaxLength)}`);
    expect(res.status).toBe(400);
    expect(codesOf(res)).toEqual(['invalid_field']);
  });

  it('introspection: test keys only', async () => {
    const test = await gql('{ __schema { queryType { name } } }');
    expect(test.json.data.__schema.queryType.name).toBe('Query');
    const live = await gql('{ __schema { queryType { name } } }', { key: liveKey });
    expect(codesOf(live)).toEqual(['graphql_introspection_disabled']);
    expect(live.json.errors[0].extensions).toMatchObject({ type: 'permission_denied', status: 403 });
    const hidden = await gql('query { ...F } fragment F on Query { __type(name: "Item") { name } }', { key: liveKey });
    expect(codesOf(hidden)).toEqual(['graphql_introspection_disabled']);
    const nested = await gql('{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }');
    expect(codesOf(nested)).toEqual(['graphql_validation_failed']);
  });

  it('only queries: mutations and subscriptions are refused', async () => {
    expect(codesOf(await gql('mutation { categories { label } }'))).toContain('graphql_operation_not_supported');
    expect(codesOf(await gql('subscription { categories { label } }'))).toContain('graphql_operation_not_supported');
  });
});

describe('hostile and malformed requests never answer 500', () => {
  const raw = (rawBody: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    stack.call('/v1/graphql', { key, rawBody, headers });

  it.each([
    ['a body that is not JSON', () => raw('{"query": '), 400, 'invalid_json'],
    ['an empty body', () => raw(''), 400, 'invalid_json'],
    ['a JSON array', () => raw('[1,2]'), 400, 'invalid_json'],
    ['no query', () => raw('{"variables": {}}'), 400, 'missing_field'],
    ['the query as an object', () => raw('{"query": {"a": 1}}'), 400, 'invalid_field'],
    ['variables as an array', () => raw('{"query": "{ categories { label } }", "variables": [1]}'), 400, 'invalid_field'],
    ['a text/plain body', () => raw('{"query": "{ categories { label } }"}', { 'Content-Type': 'text/plain' }), 415, 'invalid_content_type'],
    ['a syntax error', () => gql('{ categories { label }'), 200, 'graphql_syntax_error'],
    ['an unknown field', () => gql('{ nope }'), 200, 'graphql_validation_failed'],
    ['a fragment cycle', () => gql('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'), 200, 'graphql_validation_failed'],
    ['a variable of the wrong type', () => gql('query($t: String!) { item(access_token: $t) { item_id } }', { variables: { t: 42 } }), 200, 'graphql_validation_failed'],
    ['a missing variable', () => gql('query($t: String!) { item(access_token: $t) { item_id } }'), 200, 'graphql_validation_failed'],
    ['two operations and no operationName', () => gql('query A { categories { label } } query B { categories { label } }'), 200, 'graphql_validation_failed'],
  ])('%s', async (_name, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.json.data).toBeUndefined();
    expect(res.json.errors[0].extensions).toMatchObject({ code, request_id: res.headers.get('x-request-id') });
  });

  it('huge variables are read, and an oversized body is 413 in the GraphQL format', async () => {
    const huge = await gql('query($v: [String!]) { categories { label } institutions(country_codes: $v) { name } }', {
      variables: { v: Array.from({ length: 20_000 }, () => 'x'.repeat(40)) },
    });
    expect(huge.status).toBe(200);
    expect(huge.json.data.categories.length).toBe(14);
    expect(huge.json.data.institutions).toBeNull();
    expect(huge.json.errors).toMatchObject([{ path: ['institutions'], extensions: { code: 'invalid_field' } }]);
    const tooLarge = await gql('{ categories { label } }', { variables: { v: 'x'.repeat(LIMITS.bodyMaxBytes) } });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json.errors[0].extensions).toMatchObject({ code: 'request_too_large', status: 413 });
  });

  it('GET /v1/graphql is not the query endpoint and does not fail', async () => {
    const res = await stack.call(`/v1/graphql?query=${encodeURIComponent('{ categories { label } }')}`, { method: 'GET', key });
    expect(res.status).not.toBe(500);
  });
});

describe('errors the middlewares raise, in the GraphQL format', () => {
  it('401 without a key', async () => {
    const res = await gql('{ categories { label } }', { key: null });
    expect(res.status).toBe(401);
    expect(res.json.errors[0].extensions).toEqual({
      type: 'authentication_error',
      code: 'missing_api_key',
      request_id: res.headers.get('x-request-id'),
      status: 401,
      documentation_url: `${stack.baseUrl}/docs/errors#missing_api_key`,
      display_message: null,
    });
  });

  it('429 past the burst, with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 45 }, () => gql('{ __typename }', { key: freeKey })));
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].json.errors[0].extensions).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded', status: 429 });
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('HTTP semantics', () => {
  it('answers application/graphql-response+json when asked, with 400 for a request that cannot run', async () => {
    const headers = { Accept: 'application/graphql-response+json' };
    const ok = await gql('{ categories { label } }', { headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('application/graphql-response+json');
    const invalid = await gql('{ nope }', { headers });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toContain('application/graphql-response+json');
    const unacceptable = await gql('{ categories { label } }', { headers: { Accept: 'text/html' } });
    expect(unacceptable.status).toBe(200);
    expect(unacceptable.headers.get('content-type')).toContain('application/json');
  });

  it('counts one HTTP request as one API request, whatever the query resolves', async () => {
    const month = new Date(clock.now());
    const meteredToken = (await connect(['transactions'], 'user_good_metered', meteredKey)).access_token;
    const before = (await monthlyUsage(stack.deps, meteredKey, month)).api;
    const res = await gql(`query($t: String!) { a: item(access_token: $t) { accounts { transactions(count: 50) { total_transactions } } } b: item(access_token: $t) { item_id } categories { label } }`, {
      key: meteredKey,
      variables: { t: meteredToken },
    });
    expect(res.json.errors).toBeUndefined();
    expect((await monthlyUsage(stack.deps, meteredKey, month)).api - before).toBe(1);
  });

  it('passes every MUST audit of graphql-http (GraphQL over HTTP)', async () => {
    const fetchFn = (input: string | URL, init: RequestInit = {}) =>
      fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init.headers).entries()), authorization: `Bearer ${key}` } });
    const results = await auditServer({ url: `${stack.baseUrl}/v1/graphql`, fetchFn });
    const must = results.filter((r) => r.name.startsWith('MUST'));
    expect(must.length).toBeGreaterThanOrEqual(10);
    expect(must.filter((r) => r.status !== 'ok').map((r) => `${r.name}: ${'reason' in r ? r.reason : ''}`)).toEqual([]);
    // The SHOULD and MAY results are listed in docs/graphql.md.
    if (process.env.FC_PRINT_GRAPHQL_AUDIT) for (const r of results) process.stdout.write(`${r.id} ${r.status} ${r.name}\n`);
  });
});
