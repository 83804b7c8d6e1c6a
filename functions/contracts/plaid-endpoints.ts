// The Plaid endpoints the Plaid-compatible API serves (functions/surfaces/plaid/server.ts
// PLAID_ENDPOINTS), each with the REST routes whose handler code it runs inline (invokeRoute).
// Its one function (`plaid.call`) reaches exactly what those routes reach, so the stack derives its
// grants from them (lib/api-grants.ts), as it does the MCP server's from its tools.
// test/unit/plaid-server.test.ts holds the paths to the server's table; test/cdk/route-capabilities.test.ts
// holds the grants this yields to the code the route's handler reaches.
import type { RouteId } from './routes';

export const PLAID_ENDPOINT_ROUTES = {
  // Update mode reads the item its access_token names (items.get).
  '/link/token/create': ['link.token.create', 'items.get'],
  '/sandbox/public_token/create': ['sandbox.public_token.create'],
  '/item/public_token/exchange': ['link.token.exchange'],
  '/item/get': ['items.get'],
  '/item/remove': ['items.remove'],
  // The item through items.get; the change is item.webhook.update's use case with Plaid's format.
  '/item/webhook/update': ['items.get', 'item.webhook.update'],
  '/accounts/get': ['accounts.get'],
  '/accounts/balance/get': ['accounts.balance.get'],
  '/transactions/sync': ['transactions.sync', 'accounts.get'],
  '/transactions/get': ['transactions.get', 'items.get'],
  '/transactions/refresh': ['items.refresh'],
  '/institutions/search': ['institutions.search'],
  '/institutions/get_by_id': ['institutions.get_by_id'],
  '/sandbox/item/fire_webhook': ['sandbox.fire_webhook'],
  '/sandbox/item/reset_login': ['sandbox.item.reset_login'],
  // The surface's own key store (functions/app/plaid-webhook-keys.ts), no route.
  '/webhook_verification_key/get': [],
} as const satisfies Readonly<Record<string, readonly RouteId[]>>;

/**
 * Each Plaid endpoint's own equivalent among our routes: the route that does what the endpoint does
 * (not the first route it runs: `/item/webhook/update` reads the item through items.get but is
 * item.webhook.update). Null where we have none. "Did you mean ...?" names it for Plaid's path sent
 * to our base URL (functions/contracts/route-suggestions.ts).
 */
export const PLAID_ENDPOINT_EQUIVALENT = {
  '/link/token/create': 'link.token.create',
  '/sandbox/public_token/create': 'sandbox.public_token.create',
  '/item/public_token/exchange': 'link.token.exchange',
  '/item/get': 'items.get',
  '/item/remove': 'items.remove',
  '/item/webhook/update': 'item.webhook.update',
  '/accounts/get': 'accounts.get',
  '/accounts/balance/get': 'accounts.balance.get',
  '/transactions/sync': 'transactions.sync',
  '/transactions/get': 'transactions.get',
  '/transactions/refresh': 'items.refresh',
  '/institutions/search': 'institutions.search',
  '/institutions/get_by_id': 'institutions.get_by_id',
  '/sandbox/item/fire_webhook': 'sandbox.fire_webhook',
  '/sandbox/item/reset_login': 'sandbox.item.reset_login',
  // Our webhooks are signed with a shared secret: no key to fetch.
  '/webhook_verification_key/get': null,
} as const satisfies Readonly<Record<keyof typeof PLAID_ENDPOINT_ROUTES, RouteId | null>>;

/** Every route the Plaid-compatible API runs inline, once each. */
export const PLAID_SURFACE_ROUTES: readonly RouteId[] = /* @__PURE__ */ (() => [...new Set<RouteId>(Object.values(PLAID_ENDPOINT_ROUTES).flat())])();
