// The read-only GraphQL schema: items by access token, their accounts (with balances), transactions
// (a page like transactions/get, per item or per account, and the sync feed like transactions/sync),
// the data products, institutions and categories.
//
// Every object type that a REST route answers is generated from that route's response schema
// (contract-types.ts), so field names and types are the REST ones. Each field resolves through the
// same code as its REST route: the request schema of the route checks the arguments (same error
// codes), the consent the route declares is checked the same way, and the use case is the route's
// own (functions/app/reads.ts, sync.ts, products.ts, core/institutions.ts, core/taxonomy.ts). An
// ApiError in a field answers null for that field with the error at its path; the rest still answers.
import {
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNullableType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type * as z from 'zod';
import { ApiError, fail } from '../../contracts/errors';
import { LIMITS } from '../../contracts/limits';
import {
  accountsGet,
  assetsGet,
  categoriesGet,
  identityGet,
  incomeGet,
  institutionsGetById,
  institutionsSearch,
  investmentsHoldingsGet,
  investmentsTransactionsGet,
  itemsGet,
  liabilitiesGet,
  recurringGet,
  transactionsGet,
  transactionsSync,
  type RequestOf,
} from '../../contracts/routes';
import { findInstitution, searchInstitutions, toPublicInstitution } from '../../core/institutions';
import { CATEGORIES } from '../../core/taxonomy';
import { getTransactions, requireHistory, selectAccounts } from '../../app/reads';
import { syncTransactions } from '../../app/sync';
import { assetsOf, holdingsOf, identityOf, incomeOf, investmentTransactionsOf, liabilitiesOf, recurringOf } from '../../app/products';
import { publicItem, type ItemRecord, type StoredAccount } from '../../data/items-repo';
import { schemaError } from '../../platform/middleware';
import { ContractTypes } from './contract-types';
import type { GraphqlContext } from './context';

type Args = Record<string, unknown>;

/**
 * The REST routes whose checks and answers GraphQL reuses, by id. Named one by one rather than looked
 * up in the route table (routeById), so that the gateway's bundle holds these routes' schemas and
 * none of the other routes' (console, AI, Link).
 */
const EXPOSED_ROUTES = {
  'items.get': itemsGet,
  'accounts.get': accountsGet,
  'transactions.get': transactionsGet,
  'transactions.sync': transactionsSync,
  'identity.get': identityGet,
  'income.get': incomeGet,
  'assets.get': assetsGet,
  'investments.holdings.get': investmentsHoldingsGet,
  'investments.transactions.get': investmentsTransactionsGet,
  'liabilities.get': liabilitiesGet,
  'recurring.get': recurringGet,
  'institutions.search': institutionsSearch,
  'institutions.get_by_id': institutionsGetById,
  'categories.get': categoriesGet,
} as const;

/** A route GraphQL exposes (REST_EXPOSURE lists where each shows). */
export type ExposedRouteId = keyof typeof EXPOSED_ROUTES;
type Field = GraphQLFieldConfig<unknown, GraphqlContext, Args>;

/** Dates bounding "the whole history" when Account.transactions is given no dates. */
export const WHOLE_HISTORY = { from: '0001-01-01', to: '9999-12-31' } as const;

// ---------- what a resolved object carries for the fields below it ----------

/** An item node: the REST item fields, plus (out of band) the record and the token that named it. */
interface ItemSource {
  record: ItemRecord;
  accessToken: string;
}
const itemSources = new WeakMap<object, ItemSource>();
/** Accounts answered anywhere under an item know their item, for Account.transactions. */
const accountItems = new WeakMap<object, ItemSource>();

function itemNode(source: ItemSource): object {
  const node = publicItem(source.record);
  itemSources.set(node, source);
  return node;
}

function sourceOfItem(node: unknown): ItemSource {
  const source = typeof node === 'object' && node !== null ? itemSources.get(node) : undefined;
  if (!source) throw new Error('an Item field resolved without its item');
  return source;
}

/** Marks the accounts of a route's answer as the item's (the same objects, so REST equality holds). */
function withAccountsOf<T>(source: ItemSource, answer: T): T {
  const accounts = (answer as { accounts?: unknown }).accounts;
  if (Array.isArray(accounts)) for (const account of accounts as object[]) accountItems.set(account, source);
  return answer;
}

// ---------- the REST checks, reused ----------

/** Null (an explicit GraphQL null) and absent arguments alike are left out, as REST bodies leave them out. */
function present(values: Args): Args {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}

/** The arguments as the route's request body, checked by the route's own schema (same error codes as REST). */
function restBody<Id extends ExposedRouteId>(routeId: Id, body: Args): RequestOf<Id> {
  const schema = EXPOSED_ROUTES[routeId].request;
  if (!schema) throw new Error(`${routeId} takes no body`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw schemaError(parsed.error, body);
  return parsed.data as RequestOf<Id>;
}

/** The consent the route declares, checked as operation.ts checks it for REST (`<product>_not_consented`). */
function requireConsent(routeId: ExposedRouteId, item: ItemRecord): void {
  const consent = EXPOSED_ROUTES[routeId].consent;
  if (consent && !item.consentedProducts.includes(consent)) throw new ApiError(`${consent}_not_consented`);
}

async function loadItem(ctx: GraphqlContext, accessToken: unknown): Promise<object> {
  const { access_token } = restBody('items.get', { access_token: accessToken });
  return itemNode({ record: await ctx.itemByToken.load(access_token), accessToken: access_token });
}

// ---------- the schema ----------

const pageArgs = (dates: 'required' | 'optional'): GraphQLFieldConfigArgumentMap => {
  const date = dates === 'required' ? new GraphQLNonNull(GraphQLString) : GraphQLString;
  return {
    start_date: { type: date, description: dates === 'required' ? 'YYYY-MM-DD, inclusive.' : 'YYYY-MM-DD, inclusive; omitted: from the first transaction.' },
    end_date: { type: date, description: dates === 'required' ? 'YYYY-MM-DD, inclusive.' : 'YYYY-MM-DD, inclusive; omitted: to the last transaction.' },
    count: { type: GraphQLInt, defaultValue: LIMITS.pageDefault, description: `1 to ${LIMITS.pageMax}.` },
    offset: { type: GraphQLInt, defaultValue: 0 },
  };
};
const accountIdsArg = { account_ids: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description: 'Only these accounts of the item.' } };

function buildSchema(): GraphQLSchema {
  const types = new ContractTypes<GraphqlContext>({
    Item: () => itemRelations(),
    Account: () => ({ transactions: accountTransactions() }),
  });
  const response = (routeId: ExposedRouteId) => types.responseOf(EXPOSED_ROUTES[routeId]);
  const nullable = (type: GraphQLOutputType) => getNullableType(type) as GraphQLOutputType;

  /** A product field of Item: the route's whole response, after its argument check and consent. */
  const productField = (
    routeId: ExposedRouteId,
    answer: (ctx: GraphqlContext, item: ItemRecord, body: Args) => Promise<unknown> | unknown,
    args: GraphQLFieldConfigArgumentMap = {},
  ): Field => ({
    type: response(routeId),
    args,
    description: EXPOSED_ROUTES[routeId].summary,
    resolve: async (parent, given, ctx) => {
      const source = sourceOfItem(parent);
      const body = Object.keys(args).length === 0 ? {} : restBody(routeId, bodyOf(routeId, source, given));
      requireConsent(routeId, source.record);
      return withAccountsOf(source, await answer(ctx, source.record, body as Args));
    },
  });

  const itemRelations = (): GraphQLFieldConfigMap<unknown, GraphqlContext> => ({
    accounts: {
      type: nullable(types.propertyOf(accountsGet, 'accounts')),
      args: accountIdsArg,
      description: 'The consented accounts with cached balances, as /v1/accounts/get answers them.',
      resolve: async (parent, given: Args, ctx) => {
        const source = sourceOfItem(parent);
        const body = restBody('accounts.get', present({ access_token: source.accessToken, options: given.account_ids ? { account_ids: given.account_ids } : undefined }));
        const accounts = selectAccounts(await ctx.accountsOfItem.load(source.record), body.options?.account_ids);
        return withAccountsOf(source, { accounts }).accounts;
      },
    },
    transactions: productField('transactions.get', (ctx, item, body) => getTransactions(ctx.deps, item, body as RequestOf<'transactions.get'>), {
      ...pageArgs('required'),
      ...accountIdsArg,
    }),
    transactions_sync: productField(
      'transactions.sync',
      (ctx, item, body) => {
        const request = body as RequestOf<'transactions.sync'>;
        return syncTransactions(ctx.deps, item, request.cursor, request.count ?? LIMITS.pageDefault);
      },
      {
        cursor: { type: GraphQLString, description: 'next_cursor of the previous page; omitted: the whole history from the start.' },
        count: { type: GraphQLInt, defaultValue: LIMITS.pageDefault, description: `1 to ${LIMITS.pageMax}.` },
      },
    ),
    identity: productField('identity.get', (ctx, item) => identityOf(ctx.deps, item)),
    income: productField('income.get', (ctx, item) => incomeOf(ctx.deps, item)),
    assets: productField('assets.get', (ctx, item) => assetsOf(ctx.deps, item)),
    investments_holdings: productField('investments.holdings.get', (ctx, item) => holdingsOf(ctx.deps, item)),
    investments_transactions: productField(
      'investments.transactions.get',
      (ctx, item, body) => investmentTransactionsOf(ctx.deps, item, body as RequestOf<'investments.transactions.get'>),
      { ...pageArgs('optional'), ...accountIdsArg },
    ),
    liabilities: productField('liabilities.get', (ctx, item) => liabilitiesOf(ctx.deps, item)),
    recurring: productField('recurring.get', (ctx, item) => recurringOf(ctx.deps, item)),
  });

  /** This account's page of transactions/get: the item's range read once for all its accounts (context.ts). */
  const accountTransactions = (): Field => ({
    type: types.shapeOf(
      (transactionsGet.response as z.ZodObject).pick({ transactions: true, total_transactions: true }),
      'AccountTransactions',
    ),
    args: pageArgs('optional'),
    description: 'This account\'s transactions, paged as /v1/transactions/get pages them (newest first); omitted dates: the whole history.',
    resolve: async (parent, given, ctx) => {
      const account = parent as StoredAccount;
      const source = accountItems.get(account as object);
      if (!source) throw new Error('an Account resolved without its item');
      const body = restBody(
        'transactions.get',
        present({
          access_token: source.accessToken,
          start_date: given.start_date ?? WHOLE_HISTORY.from,
          end_date: given.end_date ?? WHOLE_HISTORY.to,
          options: present({ count: given.count, offset: given.offset, account_ids: [account.account_id] }),
        }),
      );
      requireConsent('transactions.get', source.record);
      // The checks of getTransactions, in its order.
      if (body.start_date > body.end_date) fail('invalid_date_range');
      requireHistory(source.record, 'initial_update_complete');
      const rows = await ctx.transactionsOfItem.load({ item: source.record, from: body.start_date, to: body.end_date });
      const mine = rows.filter((t) => t.account_id === account.account_id);
      const offset = body.options?.offset ?? 0;
      return { transactions: mine.slice(offset, offset + (body.options?.count ?? LIMITS.pageDefault)), total_transactions: mine.length };
    },
  });

  const query = new GraphQLObjectType<unknown, GraphqlContext>({
    name: 'Query',
    description: 'Read-only: every field answers what the REST route it names answers, with the same fields.',
    fields: () => ({
      item: {
        type: nullable(types.propertyOf(itemsGet, 'item')),
        args: { access_token: { type: new GraphQLNonNull(GraphQLString) } },
        description: 'The item an access token of your application and environment names (as /v1/items/get).',
        resolve: (_root, given: Args, ctx) => loadItem(ctx, given.access_token),
      },
      items: {
        type: new GraphQLNonNull(new GraphQLList(nullable(types.propertyOf(itemsGet, 'item')))),
        args: { access_tokens: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) } },
        description: `Several items at once (at most ${LIMITS.graphqlItemsMax} tokens per query): an entry whose token fails is null, with its error.`,
        resolve: (_root, given: Args, ctx) => (given.access_tokens as unknown[]).map((token) => loadItem(ctx, token)),
      },
      institutions: {
        type: nullable(types.propertyOf(institutionsSearch, 'institutions')),
        args: {
          query: { type: GraphQLString, defaultValue: '', description: 'Name search; empty browses by popularity.' },
          types: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
          country_codes: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
        },
        description: institutionsSearch.summary,
        resolve: (_root, given: Args) => searchInstitutions(restBody('institutions.search', present(given)), LIMITS.institutionSearchMaxResults),
      },
      institution: {
        type: nullable(types.propertyOf(institutionsGetById, 'institution')),
        args: { institution_id: { type: new GraphQLNonNull(GraphQLString) } },
        description: institutionsGetById.summary,
        resolve: (_root, given: Args) => {
          const { institution_id } = restBody('institutions.get_by_id', present(given));
          return toPublicInstitution(findInstitution(institution_id) ?? fail('institution_not_found'));
        },
      },
      categories: {
        type: nullable(types.propertyOf(categoriesGet, 'categories')),
        description: categoriesGet.summary,
        resolve: () => CATEGORIES,
      },
    }),
  });
  return new GraphQLSchema({ query });
}

/** The request body of an item route from a field's arguments: the item's token, and the paging options where the route nests them. */
function bodyOf(routeId: ExposedRouteId, source: ItemSource, given: Args): Args {
  const { count, offset, account_ids, ...rest } = given;
  const paged = routeId === 'transactions.get' || routeId === 'investments.transactions.get';
  return present({
    access_token: source.accessToken,
    ...rest,
    ...(paged ? { options: present({ count, offset, account_ids }) } : present({ count, offset, account_ids })),
  });
}

let built: GraphQLSchema | undefined;

/** The schema, built once per process (it is the same for every caller). */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchema();
  return built;
}

/**
 * Where each REST route's response shows in GraphQL: either the whole response as one field's type,
 * or its properties as fields. test/unit/graphql-contract.test.ts walks each beside the REST schema.
 */
export const REST_EXPOSURE: ReadonlyArray<{ route: ExposedRouteId; response: string } | { route: ExposedRouteId; properties: Record<string, string> }> = [
  { route: 'items.get', properties: { item: 'Query.item' } },
  { route: 'accounts.get', properties: { accounts: 'Item.accounts', item: 'Query.item' } },
  { route: 'transactions.get', response: 'Item.transactions' },
  { route: 'transactions.sync', response: 'Item.transactions_sync' },
  { route: 'identity.get', response: 'Item.identity' },
  { route: 'income.get', response: 'Item.income' },
  { route: 'assets.get', response: 'Item.assets' },
  { route: 'investments.holdings.get', response: 'Item.investments_holdings' },
  { route: 'investments.transactions.get', response: 'Item.investments_transactions' },
  { route: 'liabilities.get', response: 'Item.liabilities' },
  { route: 'recurring.get', response: 'Item.recurring' },
  { route: 'institutions.search', properties: { institutions: 'Query.institutions' } },
  { route: 'institutions.get_by_id', properties: { institution: 'Query.institution' } },
  { route: 'categories.get', properties: { categories: 'Query.categories' } },
];

/** Fields GraphQL adds to generated types (relations), which no REST response has. */
export const RELATION_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Item: ['accounts', 'transactions', 'transactions_sync', 'identity', 'income', 'assets', 'investments_holdings', 'investments_transactions', 'liabilities', 'recurring'],
  Account: ['transactions'],
};
