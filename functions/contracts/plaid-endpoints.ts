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

/** Every route the Plaid-compatible API runs inline, once each. */
export const PLAID_SURFACE_ROUTES: readonly RouteId[] = /* @__PURE__ */ (() => [...new Set<RouteId>(Object.values(PLAID_ENDPOINT_ROUTES).flat())])();
