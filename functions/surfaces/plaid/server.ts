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
import { greedyPrefixOf, plaidCall } from '../../contracts/routes';
import { storageFailureOf, storageUnavailable, type ApiEvent } from '../../platform/middleware';
import { logger } from '../../platform/observability';
import type { InlineCall, RenderedResponse } from '../../platform/operation';
import type { ProtocolHooks } from '../../platform/protocols';
import { accountsBalanceGet, accountsGet } from './accounts';
import { checkClientId, plaidBearerKey, plaidCredentialsOf } from './credentials';
import { PlaidFailure, plaidErrorResponse } from '../../core/plaid/errors';
import { institutionsGetById, institutionsSearch } from './institutions';
import { itemGet, itemRemove } from './items';
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

/** Edit distance of two short strings (for the closest-path suggestion). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** The served path closest to an unknown one, when it is close enough to be a slip. */
export function closestPlaidPath(path: string): string | undefined {
  let best: { path: string; distance: number } | undefined;
  for (const candidate of Object.keys(PLAID_ENDPOINTS)) {
    const d = distance(path.toLowerCase(), candidate);
    if (!best || d < best.distance) best = { path: candidate, distance: d };
  }
  return best && best.distance <= Math.max(2, Math.floor(best.path.length / 4)) ? best.path : undefined;
}

/** Characters of an unknown path echoed in the error. */
const ECHOED_PATH_LENGTH = 100;

function notFound(path: string): ApiError {
  const suggestion = closestPlaidPath(path);
  const echoed = path.slice(0, ECHOED_PATH_LENGTH);
  return new ApiError(
    'route_not_found',
    suggestion
      ? `No endpoint ${echoed} on the Plaid-compatible API. Did you mean ${suggestion}?`
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
      ...plaidErrorResponse(error, call.requestId),
      ...(error instanceof ApiError ? { errorCode: error.code } : {}),
    });
    if (err instanceof ApiError || err instanceof PlaidFailure) return answer(err);
    const storageFailure = storageFailureOf(err);
    if (storageFailure) return answer(storageUnavailable(storageFailure, call.requestId));
    logger.error('plaid request failed', { request_id: call.requestId, path: call.path.slice(0, ECHOED_PATH_LENGTH), error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    return answer(new ApiError('internal_error'));
  }
}
