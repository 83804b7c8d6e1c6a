// defineOperation() turns a route id and a plain async function into the Lambda handler that API
// Gateway invokes and the local server calls: the same module in both runtimes.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { ApiError } from '../contracts/errors';
import { CONTENT_TYPES, routeById, ROUTES, aliasPaths, type Route } from '../contracts/routes';
import type { AuthContext } from '../data/api-keys-repo';
import { itemForAccessToken, type ItemRecord } from '../data/items-repo';
import {
  authenticate,
  errorEnvelope,
  parseBody,
  requestContext,
  stateOf,
  versionCheck,
  type ApiEvent,
  type ApiResult,
} from './middleware';
import { logger } from './observability';
import { runtime, type Deps } from './runtime';

export interface OperationContext<Body> {
  body: Body;
  /** Null only on routes that take no API key (public documents, the Link page's API). */
  auth: AuthContext | null;
  /** The item named by `access_token` on item routes (consent already checked); null elsewhere. */
  item: ItemRecord | null;
  deps: Deps;
  route: Route;
  requestId: string;
  /** {base_url}: scheme and host (plus the stage on a bare execute-api domain). */
  baseUrl: string;
  event: ApiEvent;
}

export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;


export function baseUrlOf(event: ApiEvent, deps: Deps): string {
  if (deps.config.baseUrl) return deps.config.baseUrl.replace(/\/$/, '');
  const domain = event.requestContext?.domainName ?? event.headers?.host ?? event.headers?.Host ?? 'localhost';
  if (domain.includes('.execute-api.')) return `https://${domain}/${event.requestContext.stage}`;
  const proto = event.headers?.['x-forwarded-proto'] ?? event.headers?.['X-Forwarded-Proto'] ?? (deps.config.stage === 'local' ? 'http' : 'https');
  return `${proto}://${domain}`;
}

/**
 * The item an access token names. Unknown, removed, rotated-out and other applications' or
 * environments' tokens all get the same answer, so nothing leaks that an item exists.
 */
async function resolveItem(deps: Deps, route: Route, auth: AuthContext, body: unknown): Promise<ItemRecord> {
  const token = (body as { access_token: string }).access_token;
  const item = await itemForAccessToken(deps, token, auth.applicationId, auth.environment);
  if (!item) throw new ApiError('invalid_access_token');
  if (route.consent && !item.consentedProducts.includes(route.consent)) throw new ApiError(`${route.consent}_not_consented`);
  return item;
}

export function defineOperation<Body = Record<string, never>>(
  routeId: string,
  impl: (ctx: OperationContext<Body>) => Promise<unknown> | unknown,
): LambdaHandler {
  const route = routeById(routeId);
  const base = async (event: ApiEvent): Promise<ApiResult> => {
    const deps = runtime();
    const state = stateOf({ event });
    const item = route.item ? await resolveItem(deps, route, state.auth!, state.body) : null;
    const result = await impl({
      body: state.body as Body,
      auth: state.auth,
      item,
      deps,
      route,
      requestId: state.requestId,
      baseUrl: baseUrlOf(event, deps),
      event,
    });
    if (deps.config.validateResponses && route.responseKind === 'json') {
      // In tests every response is checked against its declared schema, so drift fails at the source.
      const checked = route.response.safeParse(result);
      if (!checked.success) {
        logger.error('response does not match its schema', { route: route.id, issues: checked.error.issues.slice(0, 3) });
        throw new ApiError('internal_error');
      }
    }
    return {
      statusCode: 200,
      headers: { 'Content-Type': CONTENT_TYPES[route.responseKind] },
      body: route.responseKind === 'json' ? JSON.stringify(result) : String(result),
    };
  };
  return middy<ApiEvent, ApiResult>(base, { timeoutEarlyInMillis: 0 })
    .use(requestContext(route))
    .use(errorEnvelope())
    .use(versionCheck())
    .use(authenticate(route, runtime))
    .use(parseBody(route));
}

/** A route that is in the contract but delivered by a later issue: validates, meters, answers 501. */
export function plannedOperation(routeId: string): LambdaHandler {
  return defineOperation(routeId, () => {
    throw new ApiError('not_implemented');
  });
}

/**
 * Unknown paths and wrong methods. On AWS, API Gateway sends these to one fallback function
 * (greedy proxy resource and ANY methods), locally the server does the same.
 */
export function fallbackOperation(): LambdaHandler {
  const allowed = new Map<string, string[]>();
  for (const r of ROUTES) {
    for (const p of aliasPaths(r)) allowed.set(p, [...(allowed.get(p) ?? []), r.method]);
  }
  const base = async (event: ApiEvent): Promise<ApiResult> => {
    const methods = allowed.get(event.path.replace(/\/+$/, '') || '/');
    if (methods) {
      throw new ApiError('method_not_allowed', `${event.path} accepts ${methods.join(', ')} only.`, { Allow: methods.join(', ') });
    }
    throw new ApiError('route_not_found', `No operation exists at ${event.httpMethod} ${event.path}.`);
  };
  return middy<ApiEvent, ApiResult>(base, { timeoutEarlyInMillis: 0 }).use(requestContext(null)).use(errorEnvelope());
}
