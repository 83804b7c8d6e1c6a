// Compile-time checks of defineOperation's inference from a route declaration. Nothing here runs:
// `npm run typecheck` fails if a line marked @ts-expect-error stops being an error (the typing got
// looser) or if an unmarked line becomes one (the typing got stricter or wrong).
import { discoveryLlms, institutionsSearch, itemsGet, itemsRemove, linkSession, transactionsSync } from '../../functions/contracts/routes';
import { publicItem } from '../../functions/data/items-repo';
import { defineOperation } from '../../functions/platform/operation';

// An item route gets a non-null item and the key; its body is the parsed request.
defineOperation(itemsGet, ({ item, auth, body }) => {
  const token: string = body.access_token;
  const app: string = auth.applicationId;
  void token;
  void app;
  return { item: publicItem(item) };
});

// The response must have the route's shape.
// @ts-expect-error a field the response schema does not have, and the required one missing
defineOperation(itemsGet, () => ({ items: [] }));

// @ts-expect-error wrong type for a declared field
defineOperation(itemsRemove, () => ({ removed: 'yes' }));

// Optional fields stay optional; fields are typed from the schema.
defineOperation(transactionsSync, ({ body }) => {
  // @ts-expect-error cursor is optional, so it may be undefined
  const cursor: string = body.cursor;
  void cursor;
  return { added: [], modified: [], removed: [], next_cursor: '', has_more: false, accounts: [] } as never;
});

// A route without an item gets item: null; a keyless route gets auth: null.
defineOperation(institutionsSearch, ({ item }) => {
  // @ts-expect-error institutions.search is not an item route
  void item.itemId;
  return { institutions: [] };
});
defineOperation(linkSession, ({ auth }) => {
  // @ts-expect-error the Link page's API is authenticated by its link token, not a key
  void auth.applicationId;
  return {} as never;
});

// @ts-expect-error a route id is not a route: handlers bind to the declaration itself
defineOperation('items.get', () => ({ item: null }));
// @ts-expect-error a route that is not in the table
defineOperation({ ...itemsGet, id: 'items.explode' as const }, () => ({}));

// Text routes return a string.
defineOperation(discoveryLlms, () => 'text');
// @ts-expect-error a text route cannot return an object
defineOperation(discoveryLlms, () => ({ text: 'x' }));
