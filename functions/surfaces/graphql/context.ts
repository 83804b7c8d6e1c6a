// What one GraphQL request's resolvers share: the caller (already authenticated and metered by the
// route's middlewares) and per-request loaders. The loaders batch and de-duplicate within the request
// only (a new set per request, never a cache across callers): an access token is resolved once
// however many fields name it, an item's accounts are read once, and an item's transactions are read
// once per date range however many of its accounts ask for them. So a query's DynamoDB calls grow with
// the items it names, not with items x accounts.
import DataLoader from 'dataloader';
import { ApiError } from '../../contracts/errors';
import { tokenFieldSentence } from '../../contracts/token-kinds';
import { cachedAccounts, sharedTransactionsBetween } from '../../app/reads';
import type { AuthContext } from '../../data/api-keys-repo';
import type { StoredTransaction } from '../../data/feed-repo';
import { itemForAccessToken, type ItemRecord, type StoredAccount } from '../../data/items-repo';
import type { Deps } from '../../platform/runtime';

/** The caller of one HTTP request. */
export type GraphqlCaller = {
  deps: Deps;
  auth: AuthContext;
  requestId: string;
};

/** The transactions of one item dated in [from, to] (inclusive, YYYY-MM-DD). */
export interface ItemTransactionsKey {
  item: ItemRecord;
  from: string;
  to: string;
}

// Type aliases, not interfaces: graphql-http's context must be assignable to a record.
export type GraphqlContext = GraphqlCaller & {
  /** An access token of the caller's application and environment -> its item; any other: invalid_access_token, as over REST. */
  itemByToken: DataLoader<string, ItemRecord>;
  /** Every account of an item (cached balances), ordered by account_id as accounts/get orders them. */
  accountsOfItem: DataLoader<ItemRecord, StoredAccount[], string>;
  /** An item's current transactions in a date range, newest first, as transactions/get orders them. */
  transactionsOfItem: DataLoader<ItemTransactionsKey, StoredTransaction[], string>;
};

export function createGraphqlContext(caller: GraphqlCaller): GraphqlContext {
  const { deps, auth } = caller;
  return {
    ...caller,
    itemByToken: new DataLoader<string, ItemRecord>((tokens) =>
      Promise.all(
        tokens.map(async (token) => (await itemForAccessToken(deps, token, auth.applicationId, auth.environment)) ?? new ApiError('invalid_access_token', tokenFieldSentence('access_token', token))),
      ),
    ),
    accountsOfItem: new DataLoader<ItemRecord, StoredAccount[], string>((items) => Promise.all(items.map((item) => cachedAccounts(deps, item))), {
      cacheKeyFn: (item) => item.itemId,
    }),
    transactionsOfItem: new DataLoader<ItemTransactionsKey, StoredTransaction[], string>(
      (keys) => Promise.all(keys.map(({ item, from, to }) => sharedTransactionsBetween(deps, item, from, to))),
      { cacheKeyFn: ({ item, from, to }) => `${item.itemId}|${from}|${to}` },
    ),
  };
}
