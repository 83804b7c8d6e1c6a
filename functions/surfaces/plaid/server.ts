// The Plaid-compatible surface (POST /plaid/<Plaid path>): Plaid's request and response shapes for
// the core journey, over the REST routes' own handler code. One HTTP request per invocation; the
// shared middlewares have already authenticated and metered the key that the request's `secret`
// names (./credentials.ts, handed to them by functions/api/plaid.call.ts) and size-checked the raw
// body, answering their own refusals in Plaid's format too.
//
// Each endpoint reads Plaid's request, runs our route inline (invokeRoute: the route's schema, access
// token, consent and use case, exactly as over REST), and writes Plaid's response with `request_id`.
// Any failure is Plaid's error object with Plaid's HTTP status (functions/core/plaid/errors.ts); a
// path that is not one of the endpoints below is Plaid's NOT_FOUND (404), naming the closest one.
// docs/plaid-migration.md has the field-by-field mapping and what Plaid offers that this does not.
import { ApiError } from '../../contracts/errors';
import { PLAID_ENDPOINT_ROUTES } from '../../contracts/plaid-endpoints';
import { ECHOED_PATH_LENGTH, closestPaths } from '../../contracts/route-suggestions';
import { greedyPrefixOf, plaidCall } from '../../contracts/routes';
import { storageFailureOf, storageUnavailable, type ApiEvent } from '../../platform/middleware';
import { logger } from '../../platform/observability';
import type { InlineCall, RenderedResponse } from '../../platform/operation';
import type { ProtocolHooks } from '../../platform/protocols';
import { accountsBalanceGet, accountsGet } from './accounts';
import { checkClientId, plaidBearerKey, plaidCredentialsOf } from './credentials';
import { PlaidFailure, plaidErrorResponse } from '../../core/plaid/errors';
import { institutionsGetById, institutionsSearch } from './institutions';
import { itemGet, itemRemove, itemWebhookUpdate } from './items';
import { itemPublicTokenExchange, linkTokenCreate } from './link';
import { sandboxItemFireWebhook, sandboxItemResetLogin, sandboxPublicTokenCreate } from './sandbox';
import { transactionsGet, transactionsRefresh, transactionsSync } from './transactions';
import { webhookVerificationKeyGet } from './verification-keys';

/** One HTTP request to the Plaid surface: the authenticated caller, the raw body and the Plaid path. */
export interface PlaidHttpCall extends InlineCall {
  body: string;
  /** The Plaid endpoint's path, below the surface's base path (`/transactions/sync`). */
  path: string;
}

type Endpoint = (call: InlineCall, body: unknown) => Promise<object>;

/** Every Plaid endpoint served, by path. */
export const PLAID_ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  '/link/token/create': linkTokenCreate,
  '/sandbox/public_token/create': sandboxPublicTokenCreate,
  '/item/public_token/exchange': itemPublicTokenExchange,
  '/item/get': itemGet,
  '/item/remove': itemRemove,
  '/item/webhook/update': itemWebhookUpdate,
  '/accounts/get': accountsGet,
  '/accounts/balance/get': accountsBalanceGet,
  '/transactions/sync': transactionsSync,
  '/transactions/get': transactionsGet,
  '/transactions/refresh': transactionsRefresh,
  '/institutions/search': institutionsSearch,
  '/institutions/get_by_id': institutionsGetById,
  '/sandbox/item/fire_webhook': sandboxItemFireWebhook,
  '/sandbox/item/reset_login': sandboxItemResetLogin,
  '/webhook_verification_key/get': webhookVerificationKeyGet,
};

/**
 * What the shared middlewares need from this API (functions/api/plaid.call.ts passes it): the key is
 * Plaid's `secret`, and what they refuse is answered as Plaid's error object with Plaid's status.
 */
export const plaidProtocolHooks: ProtocolHooks = { apiKeyOf: plaidBearerKey, errorResponse: plaidErrorResponse };

/**
 * The Plaid endpoint's path a request names: the greedy path parameter (API Gateway's `proxy`, which
 * the local server fills the same way), else what follows the route's prefix in the request's path.
 */
export function plaidPathOfEvent(event: Pick<ApiEvent, 'path' | 'pathParameters'>): string {
  const proxy = event.pathParameters?.proxy;
  if (proxy !== undefined) return proxy;
  const prefix = greedyPrefixOf(plaidCall.path) ?? '/';
  const at = event.path.indexOf(prefix);
  return at < 0 ? event.path : event.path.slice(at + prefix.length);
}

/** `transactions/sync/` and `/transactions/sync` alike. */
export function plaidPathOf(path: string): string {
  return `/${path.replace(/^\/+|\/+$/g, '')}`;
}

/**
 * Each Plaid endpoint by the paths of our routes it runs (`/link/token/exchange` for
 * /item/public_token/exchange): a Fincore path sent to the Plaid-compatible API names its Plaid twin.
 */
const PLAID_ENDPOINT_BY_OUR_PATH: ReadonlyMap<string, string> = new Map(
  Object.entries(PLAID_ENDPOINT_ROUTES).flatMap(([endpoint, ids]) => ids.slice(0, 1).map((id): [string, string] => [`/${id.replace(/\./g, '/')}`, endpoint])),
);

/** The served paths closest to an unknown one, best first, when any is close enough to be a slip. */
export function closestPlaidPaths(path: string): string[] {
  // No endpoint's path is this long: nothing to suggest, and the comparison's cost grows with it.
  if (path.length > 200) return [];
  // Someone used to our paths may keep /v1, or send our path itself.
  const bare = path.replace(/^\/v1(?=\/)/i, '');
  const twin = PLAID_ENDPOINT_BY_OUR_PATH.get(bare.toLowerCase());
  if (twin) return [twin];
  return closestPaths(bare, Object.keys(PLAID_ENDPOINTS));
}

/** The served path closest to an unknown one, when it is close enough to be a slip. */
export function closestPlaidPath(path: string): string | undefined {
  return closestPlaidPaths(path)[0];
}

function notFound(path: string): ApiError {
  const suggestions = closestPlaidPaths(path);
  const echoed = path.slice(0, ECHOED_PATH_LENGTH);
  const options = suggestions.length === 1 ? suggestions[0] : `${suggestions.slice(0, -1).join(', ')} or ${suggestions.at(-1)}`;
  return new ApiError(
    'route_not_found',
    suggestions.length > 0
      ? `No endpoint ${echoed} on the Plaid-compatible API. Did you mean ${options}?`
      : `No endpoint ${echoed} on the Plaid-compatible API. It serves: ${Object.keys(PLAID_ENDPOINTS).join(', ')}.`,
  );
}

/** Request headers by lower-case name, as the middleware reads them. */
function lowerCaseHeaders(call: PlaidHttpCall): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.event.headers ?? {})) if (typeof value === 'string') out[name.toLowerCase()] = value;
  return out;
}

function parseJsonBody(raw: string, contentType: string | undefined): unknown {
  // Plaid accepts JSON only, as `application/json` in UTF-8.
  const mediaType = contentType?.split(';')[0].trim().toLowerCase();
  if (mediaType !== undefined && mediaType !== 'application/json') throw new ApiError('invalid_content_type', 'Send the body as JSON with Content-Type: application/json.');
  try {
    return JSON.parse(raw.startsWith('\uFEFF') ? raw.slice(1) : raw);
  } catch {
    throw new ApiError('invalid_json', 'The body could not be parsed as JSON.');
  }
}

/**
 * Serves one request to the Plaid surface. Every failure is answered in Plaid's format here: ours
 * and Plaid's own errors as they are, storage unavailable as the middleware would classify it, and
 * anything unexpected logged and answered as an internal error (nothing of it leaked).
 */
export async function servePlaidRequest(call: PlaidHttpCall): Promise<RenderedResponse> {
  try {
    const headers = lowerCaseHeaders(call);
    const { clientId } = plaidCredentialsOf({ headers, rawBody: call.body });
    checkClientId(clientId, call.auth.applicationId);
    const path = plaidPathOf(call.path);
    const endpoint = Object.hasOwn(PLAID_ENDPOINTS, path) ? PLAID_ENDPOINTS[path] : undefined;
    if (!endpoint) throw notFound(path);
    const result = await endpoint(call, parseJsonBody(call.body, headers['content-type']));
    return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...result, request_id: call.requestId }) };
  } catch (err) {
    // Our code goes to the request log beside Plaid's answer; Plaid's own failures have none of ours.
    const answer = (error: ApiError | PlaidFailure): RenderedResponse => ({
      ...plaidErrorResponse(error, call.requestId, call.baseUrl),
      ...(error instanceof ApiError ? { errorCode: error.code } : {}),
    });
    if (err instanceof ApiError || err instanceof PlaidFailure) return answer(err);
    const storageFailure = storageFailureOf(err);
    if (storageFailure) return answer(storageUnavailable(storageFailure, call.requestId));
    logger.error('plaid request failed', { request_id: call.requestId, path: call.path.slice(0, ECHOED_PATH_LENGTH), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return answer(new ApiError('internal_error'));
  }
}
