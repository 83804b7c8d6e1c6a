// defineOperation() turns a route declaration and a plain async function into the Lambda handler that
// API Gateway invokes and the local server calls: the same module in both runtimes. The function is
// typed from the route: its body is the route's parsed request, it must return the route's response,
// and `item` / `auth` are non-null exactly where the route guarantees them.
//
// Everything a request needs is read off the route object the handler passes in, never looked up in
// the whole table: a handler's bundle then carries its own route's schemas only (see
// functions/contracts/routes.ts). The fallback below is the one exception: its 405 answers list
// every path's methods.
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { ApiError } from '../contracts/errors';
import { PLAID_ENDPOINT_EQUIVALENT } from '../contracts/plaid-endpoints';
import { routeNotFoundMessage, suggestRoutes, type KnownRoute, type PlaidPaths } from '../contracts/route-suggestions';
import {
  ALIAS_PREFIX,
  CONTENT_TYPES,
  ROUTES,
  aliasPaths,
  greedyPrefixOf,
  plaidCall,
  type Protocol,
  type RequestOfRoute,
  type ResponseOfRoute,
  type Route,
  type TableRoute,
} from '../contracts/routes';
import type { AuthContext } from '../data/api-keys-repo';
import { itemForAccessToken, type ItemRecord } from '../data/items-repo';
import {
  authenticate,
  baseUrlOf,
  consoleGate,
  errorEnvelope,
  handlerStateOf,
  parseBody,
  powertools,
  requestContext,
  requestIdOf,
  schemaError,
  tokenKindError,
  versionCheck,
  type ApiEvent,
  type ApiResult,
  type ConsoleCaller,
  type ConsoleSessions,
  type MeterKindOf,
  type RequestInternal,
  type SignedInCaller,
} from './middleware';
import { inRequestScope, logger } from './observability';
import type { ProtocolHooks } from './protocols';
import { errorOutcome, isInlineInvocation, resultOutcome, type InlineInvocation, type InlineOutcome } from './route-functions';
import { runtime, type Deps } from './runtime';

// Where the base URL and request headers are read (they moved to ./middleware, which needs them too).
export { baseUrlOf, headerOf } from './middleware';

export interface OperationContext<
  Body,
  Item extends ItemRecord | null = ItemRecord | null,
  Auth extends AuthContext | null = AuthContext | null,
  RouteDeclaration extends Route = Route,
  Caller extends ConsoleCaller | null = ConsoleCaller | null,
> {
  body: Body;
  /** The caller's key on routes with `auth: 'key'`; null on the others (public documents, the Link page's API). */
  auth: Auth;
  /** The console caller on console routes (its session on `auth: 'session'` ones); null elsewhere. */
  caller: Caller;
  /** The item named by `access_token` on item routes (consent already checked); null elsewhere. */
  item: Item;
  deps: Deps;
  route: RouteDeclaration;
  requestId: string;
  /** {base_url}: scheme and host (plus the stage on a bare execute-api domain). */
  baseUrl: string;
  event: ApiEvent;
  /** Epoch ms (wall clock) at which Lambda stops this invocation, when the runtime says. */
  deadline?: number;
}

/** The context a route's handler receives, read off its route declaration. */
export type OperationContextOf<R extends TableRoute> = OperationContext<
  RequestOfRoute<R>,
  R['item'] extends true ? ItemRecord : null,
  R['auth'] extends 'key' ? AuthContext : null,
  R,
  R['auth'] extends 'session' ? SignedInCaller : R['console'] extends true ? ConsoleCaller : null
>;

/**
 * What a route's handler returns: its response schema's input for JSON routes (read-only all the
 * way down: the result is only checked and serialised, so constant tables may be returned as they
 * are); otherwise the text itself, or a rendered response when the page sets its own status and
 * headers (the hosted Link page and its SDK). A protocol route (GraphQL, MCP) always renders its own
 * response: its library decides status, content type and body.
 */
export type OperationResultOf<R extends TableRoute> = R['protocol'] extends Protocol
  ? RenderedResponse
  : R['responseKind'] extends 'json'
    ? ReadonlyDeep<ResponseOfRoute<R>>
    : string | RenderedResponse;

/** A text, HTML or script answer with its own status code and headers (security and caching). */
export interface RenderedResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /**
   * The catalogue code of a failure a protocol route answered itself (in its own format), for the
   * request log's `error_code` as the middlewares' refusals have it. Never sent.
   */
  errorCode?: string;
}

const isRendered = (result: unknown): result is RenderedResponse =>
  typeof result === 'object' && result !== null && typeof (result as RenderedResponse).body === 'string' && typeof (result as RenderedResponse).statusCode === 'number';

type ReadonlyDeep<T> = T extends readonly (infer Element)[]
  ? readonly ReadonlyDeep<Element>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyDeep<T[K]> }
    : T;

export type OperationImpl<R extends TableRoute> = (ctx: OperationContextOf<R>) => Promise<OperationResultOf<R>> | OperationResultOf<R>;

export interface OperationOptions {
  /** Cache-Control of a successful answer; every other answer is `no-store` (see requestContext). */
  cacheControl?: string;
  /**
   * Which monthly quota a request counts against, where the route's `metering` cannot say: the MCP
   * server's requests count as AI when they call an ai_* tool (mcpMeterKind in ./protocols). The MCP
   * route's handler passes it, so that only its bundle carries the tool table; an MCP route without
   * it fails at load.
   */
  meterKind?: MeterKindOf;
  /**
   * How a session route finds the cookie's session and checks the CSRF token (the edge calls no use
   * case): every `auth: 'session'` route's handler passes app/console/session.ts consoleSessions; one
   * without it fails at load.
   */
  sessions?: ConsoleSessions;
  /**
   * Where the key travels and how errors look on a route that speaks another API's protocol: the
   * Plaid-compatible API's handler passes Plaid's credentials reader and error objects
   * (functions/surfaces/plaid/server.ts plaidProtocolHooks), so that only its bundle carries them; a
   * `plaid` route without them fails at load.
   */
  protocolHooks?: ProtocolHooks;
}

/** Public documents that are the same for every caller: shared caches may keep them a few minutes. */
export const PUBLIC_DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** A route's handler, carrying the route it was defined for (its id is checked against its module's name). */
export type RouteHandler = LambdaHandler & {
  readonly routeId: string;
  readonly route: Route;
  /** The route's own function, for invokeRoute (the MCP server's tools run it without a second HTTP request). */
  readonly impl: (ctx: OperationContext<unknown>) => unknown;
};

/**
 * The item an access token names. Unknown, removed, rotated-out and other applications' or
 * environments' tokens all get the same answer, so nothing leaks that an item exists.
 */
async function resolveItem(deps: Deps, route: Route, auth: AuthContext | null, body: unknown): Promise<ItemRecord> {
  // The table pairs every item route with key auth, and authenticate() has run by now.
  if (!auth) throw new Error(`${route.id} is an item route without an authenticated key`);
  const token = (body as { access_token: string }).access_token;
  const item = await itemForAccessToken(deps, token, auth.applicationId, auth.environment);
  if (!item) throw new ApiError('invalid_access_token');
  if (route.consent && !item.consentedProducts.includes(route.consent)) throw new ApiError(`${route.consent}_not_consented`);
  return item;
}

export function defineOperation<R extends TableRoute>(route: R, impl: OperationImpl<R>, options: OperationOptions = {}): RouteHandler {
  // An MCP request counts against the quota of the tool it calls; without the hook every call would count as API.
  if (route.protocol === 'mcp' && !options.meterKind) throw new Error(`${route.id} is an MCP route: pass options.meterKind (mcpMeterKind)`);
  // Without its hooks, a Plaid client's key would never be found and every refusal would be in our envelope.
  if (route.protocol === 'plaid' && !options.protocolHooks) throw new Error(`${route.id} speaks Plaid's API: pass options.protocolHooks (plaidProtocolHooks)`);
  // The middlewares establish what the route's types promise: the body parsed by its schema (an
  // empty object on bodyless routes), the key on key routes, the item on item routes.
  const untyped = impl as (ctx: OperationContext<unknown>) => unknown;
  return Object.assign(operation(route, untyped, options), { routeId: route.id, route, impl: untyped });
}

/** The request an inline call is made within: its caller (already authenticated and metered), ids and event. */
export interface InlineCall {
  deps: Deps;
  auth: AuthContext;
  requestId: string;
  baseUrl: string;
  event: ApiEvent;
  /** Epoch ms at which the enclosing invocation ends, when known (bounds a call handed to another function). */
  deadline?: number;
}

/**
 * Runs a key-authenticated JSON route's handler code for a caller the enclosing request has already
 * authenticated and metered (an MCP tool call): the same checks as over REST, in the same order
 * (test-key-only routes, the body against the route's schema with the same error codes, the access
 * token to its item and the product consent), then the route's own function; the answer is checked
 * against the response schema where responses are checked. Failures are the same ApiErrors.
 */
export async function invokeRoute(handler: RouteHandler, call: InlineCall, args: unknown): Promise<unknown> {
  const { route } = handler;
  if (route.auth !== 'key' || route.responseKind !== 'json' || route.protocol) throw new Error(`${route.id} cannot be invoked inline`);
  if (route.testKeysOnly && call.auth.environment !== 'test') throw new ApiError('test_key_required');
  let body: unknown = {};
  if (route.request) {
    const given = args ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) throw new ApiError('invalid_json', 'The arguments must be a JSON object.');
    const parsed = route.request.safeParse(given);
    if (!parsed.success) throw schemaError(parsed.error, given, route.request);
    const wrongKind = tokenKindError(parsed.data);
    if (wrongKind) throw wrongKind;
    body = parsed.data;
  }
  const item = route.item ? await resolveItem(call.deps, route, call.auth, body) : null;
  const result = await handler.impl({ body, auth: call.auth, caller: null, item, deps: call.deps, route, requestId: call.requestId, baseUrl: call.baseUrl, event: call.event });
  if (call.deps.config.validateResponses) {
    const checked = route.response.safeParse(result);
    if (!checked.success) {
      logger.error('response does not match its schema', { request_id: call.requestId, route: route.id, issues: checked.error.issues.slice(0, 3) });
      throw new ApiError('internal_error');
    }
  }
  return result;
}

/** Serves each request in its own log scope (functions/platform/observability.ts), from its first middleware on. */
function scoped(handler: LambdaHandler): LambdaHandler {
  return (event, context) => inRequestScope(requestIdOf(event), () => handler(event, context));
}

function operation(route: Route, impl: (ctx: OperationContext<unknown>) => unknown, options: OperationOptions = {}): LambdaHandler {
  const base = async (event: ApiEvent, context: Context): Promise<ApiResult> => {
    const deps = runtime();
    const state = handlerStateOf(context);
    const item = route.item ? await resolveItem(deps, route, state.auth, state.body) : null;
    if (item) state.itemId = item.itemId;
    const result = await impl({
      body: state.body ?? {},
      auth: state.auth,
      caller: state.caller,
      item,
      deps,
      route,
      requestId: state.requestId,
      baseUrl: baseUrlOf(event, deps),
      event,
      ...(typeof context?.getRemainingTimeInMillis === 'function' ? { deadline: Date.now() + context.getRemainingTimeInMillis() } : {}),
    });
    if (route.protocol) {
      if (!isRendered(result)) throw new Error(`${route.id} is a protocol route: its handler must return a rendered response`);
      const { errorCode, ...response } = result;
      if (errorCode !== undefined) state.errorCode = errorCode;
      return response;
    }
    if (deps.config.validateResponses && route.responseKind === 'json') {
      // In tests every response is checked against its declared schema, so drift fails at the source.
      const checked = route.response.safeParse(result);
      if (!checked.success) {
        logger.error('response does not match its schema', { request_id: state.requestId, route: route.id, issues: checked.error.issues.slice(0, 3) });
        throw new ApiError('internal_error');
      }
    }
    const headers = { 'Content-Type': CONTENT_TYPES[route.responseKind], ...(options.cacheControl ? { 'Cache-Control': options.cacheControl } : {}) };
    if (route.responseKind !== 'json' && isRendered(result)) {
      return { statusCode: result.statusCode, headers: { ...headers, ...result.headers }, body: result.body };
    }
    return { statusCode: 200, headers, body: route.responseKind === 'json' ? JSON.stringify(result) : String(result) };
  };
  const http = scoped(
    middy<ApiEvent, ApiResult, Error, Context, RequestInternal>(base, { timeoutEarlyInMillis: 0 })
      .use(powertools())
      .use(requestContext(route, runtime))
      .use(errorEnvelope(route, options.protocolHooks, runtime))
      .use(versionCheck())
      .use(authenticate(route, runtime, options.meterKind, options.protocolHooks))
      .use(consoleGate(route, runtime, options.sessions))
      .use(parseBody(route)),
  );
  // Read exactly so, in one expression: esbuild substitutes the literal switch (lib/bundled-sdks.ts)
  // and folds the condition, so a function no other one hands calls to is built without that code.
  return process.env.FC_BUNDLE_INLINE_CALLS !== 'omit' && runsInline(route) ? withInlineCalls(http, route, impl) : http;
}

/**
 * A route another function hands calls to (./route-functions.ts): its invocation, not an API Gateway
 * event, gets the route's code through invokeRoute, and answers an InlineOutcome.
 */
function withInlineCalls(http: LambdaHandler, route: Route, impl: (ctx: OperationContext<unknown>) => unknown): LambdaHandler {
  const handler = (event: ApiEvent | InlineInvocation, context: Context) =>
    isInlineInvocation(event) ? answerInlineInvocation(route, impl, event) : http(event, context);
  return handler as LambdaHandler;
}

/** Routes whose code invokeRoute can run for another function: key-authenticated JSON routes. */
const runsInline = (route: Route) => route.auth === 'key' && route.responseKind === 'json' && !route.protocol;

/**
 * Runs a handed-over call (./route-functions.ts) in its own log scope: an ApiError is the outcome,
 * anything else fails the invocation (logged here with its stack; the caller sees a function error).
 */
async function answerInlineInvocation(route: Route, impl: (ctx: OperationContext<unknown>) => unknown, invocation: InlineInvocation): Promise<InlineOutcome> {
  return inRequestScope(invocation.requestId, async () => {
    if (invocation.routeId !== route.id) {
      logger.error('inline call for another route', { route: route.id, asked: String(invocation.routeId).slice(0, 100) });
      throw new Error(`this function runs ${route.id}, not ${String(invocation.routeId).slice(0, 100)}`);
    }
    const deps = runtime();
    const handler = Object.assign(() => Promise.reject(new Error('not an HTTP call')), { routeId: route.id, route, impl }) as RouteHandler;
    // Who the caller says it serves: the trust this call rests on, in this function's own log.
    const caller = { application_id: invocation.auth.applicationId, environment: invocation.auth.environment, key_id: invocation.auth.keyId };
    try {
      const result = await invokeRoute(handler, { deps, auth: invocation.auth, requestId: invocation.requestId, baseUrl: invocation.baseUrl, event: invocation.event }, invocation.args);
      logger.info('inline call', { route: route.id, ...caller });
      return resultOutcome(JSON.parse(JSON.stringify(result)) as unknown);
    } catch (err) {
      if (err instanceof ApiError) {
        logger.info('inline call', { route: route.id, ...caller, error_code: err.code });
        return errorOutcome(err);
      }
      logger.error('inline call failed', { route: route.id, ...caller, error: err instanceof Error ? err.stack ?? err.message : String(err) });
      throw err;
    }
  });
}

/**
 * Unknown paths and wrong methods. On AWS, API Gateway sends these to one fallback function
 * (greedy proxy resource and ANY methods), locally the server does the same.
 */
export function fallbackOperation(): LambdaHandler {
  const allowed = new Map<string, string[]>();
  // A greedy path (`/plaid/{proxy+}`) allows its methods on every path below its prefix.
  const allowedBelow = new Map<string, string[]>();
  for (const r of ROUTES) {
    for (const p of aliasPaths(r)) {
      const prefix = greedyPrefixOf(p);
      if (prefix) allowedBelow.set(prefix, [...(allowedBelow.get(prefix) ?? []), r.method]);
      else allowed.set(p, [...(allowed.get(p) ?? []), r.method]);
    }
  }
  const methodsBelow = (path: string) => [...allowedBelow].find(([prefix]) => path.startsWith(prefix) && path.length > prefix.length)?.[1];
  // A 404 names the routes the caller most likely meant; the console's own only to a console path.
  const publicRoutes: KnownRoute[] = ROUTES.filter((r) => !r.console).map((r) => ({ method: r.method, path: r.path, id: r.id }));
  const consoleRoutes: KnownRoute[] = ROUTES.filter((r) => r.console).map((r) => ({ method: r.method, path: r.path, id: r.id }));
  const plaid: PlaidPaths = { prefix: (greedyPrefixOf(plaidCall.path) ?? '/plaid/').replace(/\/$/, ''), endpoints: PLAID_ENDPOINT_EQUIVALENT };
  const base = async (event: ApiEvent): Promise<ApiResult> => {
    // One trailing slash reaches the route without it, as in API Gateway's matching (and the local
    // server's): `/console//` is no route's path, whatever the method.
    const methods = allowed.get(event.path.replace(/\/$/, '') || '/') ?? methodsBelow(event.path);
    if (methods && !methods.includes(event.httpMethod)) {
      throw new ApiError('method_not_allowed', `${event.path} accepts ${methods.join(', ')} only.`, { Allow: methods.join(', ') });
    }
    const request = { method: event.httpMethod, path: event.path };
    const known = event.path.startsWith('/console') ? [...consoleRoutes, ...publicRoutes] : publicRoutes;
    throw new ApiError('route_not_found', routeNotFoundMessage(request, suggestRoutes(request, known, plaid, ALIAS_PREFIX)));
  };
  return scoped(
    middy<ApiEvent, ApiResult, Error, Context, RequestInternal>(base, { timeoutEarlyInMillis: 0 })
      .use(powertools())
      .use(requestContext(null))
      .use(errorEnvelope(null, undefined, runtime)),
  );
}
