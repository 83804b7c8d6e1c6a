// The GraphQL gateway's checks before a query runs (query-limits.ts) and how its errors are rendered
// (errors.ts): codes, the cost model on the shapes integrators send, hostile documents, and internal
// errors that never show their message.
import { GraphQLError, getIntrospectionQuery, parse, validate } from 'graphql';
import { ApiError } from '../../functions/contracts/errors';
import { LIMITS } from '../../functions/contracts/limits';
import { formatErrorFor } from '../../functions/surfaces/graphql/errors';
import { checkQueryLimits } from '../../functions/surfaces/graphql/query-limits';
import { graphqlSchema } from '../../functions/surfaces/graphql/schema';

const schema = graphqlSchema();
const codes = (query: string, variables: Record<string, unknown> = {}, environment: 'test' | 'live' = 'test') =>
  checkQueryLimits(schema, parse(query), variables, environment).map((e) => (e.originalError as ApiError).code);
const tokens = (n: number) => Array.from({ length: n }, (_, i) => `fc_at_t${i}`);

describe('the cost estimate', () => {
  const itemsWithTransactions = (count: number) => `query($ts: [String!]!) { items(access_tokens: $ts) { accounts { transactions(count: ${count}) { transactions { name amount } } } } }`;

  it('admits three items with their accounts and 100 transactions each', () => {
    expect(codes(itemsWithTransactions(100), { ts: tokens(3) })).toEqual([]);
  });

  it('multiplies lists by their count (or its default) and by the access tokens named', () => {
    // 10 items x 20 accounts (estimate) x 500 rows is far past the limit; 1 item x 500 rows is not.
    expect(codes(itemsWithTransactions(500), { ts: tokens(10) })).toEqual(['graphql_query_too_costly']);
    expect(codes(itemsWithTransactions(500), { ts: tokens(1) })).toEqual([]);
    // Without a count, the argument's default (100) applies: the same as count: 100.
    const defaulted = `query($ts: [String!]!) { items(access_tokens: $ts) { accounts { transactions { transactions { name } } } } }`;
    expect(codes(defaulted, { ts: tokens(10) })).toEqual(codes(itemsWithTransactions(LIMITS.pageDefault), { ts: tokens(10) }));
  });

  it('counts aliases, and a fragment spread many times, without walking it exponentially', () => {
    const aliases = Array.from({ length: 200 }, (_, i) => `c${i}: categories { detailed { label } }`).join(' ');
    expect(codes(`{ ${aliases} }`)).toEqual(['graphql_query_too_costly']);
    const levels = 40;
    const bomb = [
      'query { ...F0 }',
      ...Array.from({ length: levels }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`),
      `fragment F${levels} on Query { categories { label } }`,
    ].join('\n');
    // 2^40 expansions would never finish (the test would time out); memoised, it is one visit per fragment.
    expect(codes(bomb)).toEqual(['graphql_query_too_costly']);
  });

  it('reads a variable\'s declared default as it would read the value sent', () => {
    const withDefault = (n: number) => `query($t: [String!]! = [${tokens(n).map((t) => `"${t}"`).join(', ')}]) { items(access_tokens: $t) { item_id } }`;
    expect(codes(withDefault(LIMITS.graphqlItemsMax))).toEqual([]);
    expect(codes(withDefault(1000))).toEqual(['graphql_too_many_items']);
    // A value sent wins over the default.
    expect(codes(withDefault(1000), { t: tokens(1) })).toEqual([]);
    // A defaulted count is priced at its value, not at the argument's default.
    const counted = (count: string) => `query($ts: [String!]!, $c: Int = ${count}) { items(access_tokens: $ts) { accounts { transactions(count: $c) { transactions { name } } } } }`;
    expect(codes(counted('500'), { ts: tokens(10) })).toEqual(['graphql_query_too_costly']);
    // A single token where a list is expected is a list of one, and counts.
    expect(codes(`{ ${Array.from({ length: 11 }, (_, i) => `a${i}: items(access_tokens: "fc_at_${i}") { item_id }`).join(' ')} }`)).toEqual(['graphql_too_many_items']);
  });

  it('prices every storage read, however little it selects: aliases with other arguments are reads of their own', () => {
    const reads = (n: number, field: (i: number) => string) => `{ item(access_token: "fc_at_x") { ${Array.from({ length: n }, (_, i) => `a${i}: ${field(i)}`).join(' ')} } }`;
    const perRead = (i: number) => `transactions(start_date: "2000-01-${String((i % 28) + 1).padStart(2, '0')}", end_date: "2100-01-01") { total_transactions }`;
    const allowed = Math.floor(LIMITS.graphqlMaxCost / LIMITS.graphqlReadCost) - 1;
    expect(codes(reads(allowed, perRead))).toEqual([]);
    expect(codes(reads(1000, perRead))).toEqual(['graphql_query_too_costly']);
    expect(codes(reads(1000, () => 'transactions_sync(count: 500) { has_more }'))).toEqual(['graphql_query_too_costly']);
    // Inside accounts, Account.transactions is one read per item (the loader shares it), not per account.
    const perAccount = (n: number) => `{ item(access_token: "fc_at_x") { accounts { ${Array.from({ length: n }, (_, i) => `a${i}: transactions(start_date: "2000-01-0${(i % 9) + 1}") { total_transactions }`).join(' ')} } } }`;
    expect(codes(perAccount(10))).toEqual([]);
    expect(codes(perAccount(1000))).toEqual(['graphql_query_too_costly']);
    // Reads are paid per item named.
    const productsOf =
      '{ identity { accounts { account_id } } income { income_streams { stream_id } } recurring { recurring_streams { stream_id } } liabilities { accounts { account_id } } assets { accounts { account_id } } }';
    expect(codes(`query($ts: [String!]!) { items(access_tokens: $ts) ${productsOf} }`, { ts: tokens(2) })).toEqual([]);
    expect(codes(`query($ts: [String!]!) { items(access_tokens: $ts) ${productsOf} }`, { ts: tokens(10) })).toEqual(['graphql_query_too_costly']);
  });

  it('stops on a fragment cycle (graphql reports it) instead of looping', () => {
    expect(codes('{ ...A } fragment A on Query { ...B } fragment B on Query { categories { label } ...A }')).toEqual([]);
  });
});

describe('the other checks', () => {
  it('access tokens over every item and items field, aliases included', () => {
    expect(codes('query($ts: [String!]!) { items(access_tokens: $ts) { item_id } }', { ts: tokens(LIMITS.graphqlItemsMax) })).toEqual([]);
    expect(codes('query($ts: [String!]!) { items(access_tokens: $ts) { item_id } one: item(access_token: "fc_at_x") { item_id } }', { ts: tokens(LIMITS.graphqlItemsMax) })).toEqual([
      'graphql_too_many_items',
    ]);
  });

  it('depth, counting made-up fields too, and stopping past the limit', () => {
    expect(codes('{ item(access_token: "x") { transactions(start_date: "a", end_date: "b") { accounts { transactions { transactions { name } } } } } }')).toEqual([]);
    expect(codes(`{ item(access_token: "x") { ${'a { '.repeat(10)}b${' }'.repeat(10)} } }`)).toEqual(['graphql_query_too_deep']);
  });

  it('refuses mutations and subscriptions, and introspection for live keys only', () => {
    expect(codes('mutation { x }')).toEqual(['graphql_operation_not_supported']);
    expect(codes('subscription { x }')).toEqual(['graphql_operation_not_supported']);
    expect(codes('{ __schema { types { name } } }')).toEqual([]);
    expect(codes('{ __schema { types { name } } }', {}, 'live')).toEqual(['graphql_introspection_disabled']);
    expect(codes('{ ... on Query { __type(name: "Item") { name } } }', {}, 'live')).toEqual(['graphql_introspection_disabled']);
    expect(codes('{ __typename }', {}, 'live')).toEqual([]);
  });

  it("admits the standard introspection query (GraphiQL's) for test keys, and graphql validates it", () => {
    expect(codes(getIntrospectionQuery())).toEqual([]);
    expect(validate(schema, parse(getIntrospectionQuery()))).toEqual([]);
  });
});

describe('error rendering', () => {
  const format = formatErrorFor('req_1', 'https://api.example.test');

  it('an ApiError keeps its message, path and locations, with our fields in extensions', () => {
    const error = new GraphQLError('wrapped', { path: ['item', 'identity'], originalError: new ApiError('identity_not_consented') });
    expect(format(error).toJSON()).toEqual({
      message: new ApiError('identity_not_consented').message,
      path: ['item', 'identity'],
      extensions: {
        type: 'permission_denied',
        code: 'identity_not_consented',
        request_id: 'req_1',
        status: 403,
        documentation_url: 'https://api.example.test/docs/errors#identity_not_consented',
        display_message: expect.stringMatching(/^[A-Z][^_]*\.$/),
      },
    });
  });

  it('anything else a resolver throws is internal_error, never its message', () => {
    const error = new GraphQLError('Cannot read properties of undefined (secret_table_name)', { path: ['item'], originalError: new TypeError('secret_table_name') });
    const rendered = format(error).toJSON();
    expect(JSON.stringify(rendered)).not.toContain('secret_table_name');
    expect(rendered).toMatchObject({ path: ['item'], extensions: { code: 'internal_error', status: 500, request_id: 'req_1' } });
  });

  it('a storage failure in a resolver is storage_unavailable, as over REST', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
    expect(format(new GraphQLError('x', { originalError: refused })).toJSON().extensions).toMatchObject({ code: 'storage_unavailable', status: 503 });
  });

  it("graphql-http's request errors get our REST codes", () => {
    expect(format(new Error('Unparsable JSON body')).toJSON().extensions).toMatchObject({ code: 'invalid_json', status: 400 });
    expect(format(new Error('Missing query')).toJSON().extensions).toMatchObject({ code: 'missing_field' });
    expect(format(new Error('Invalid variables')).toJSON().extensions).toMatchObject({ code: 'invalid_field' });
  });
});
