// The middleware stack every operation runs (middy), in order:
//   requestContext  -> request id in, X-Request-Id / FC-Version / X-RateLimit-* out, access log
//   errorEnvelope   -> any failure becomes {"error": {type, code, message, request_id, documentation_url,
//                      display_message}} (on the GraphQL and MCP endpoints, that protocol's error
//                      format: ./protocols.ts; on the Plaid-compatible API, Plaid's error object: its
//                      route's ProtocolHooks)
//   versionCheck    -> optional FC-Version request header must equal the current version
//   authenticate    -> bearer key (on the Plaid-compatible API, Plaid's `secret`), live access,
//                      token bucket, monthly quota: one DynamoDB write on one of the key's metering
//                      shards (functions/data/api-keys-repo.ts)
//   consoleGate     -> the console's routes (Route.console): same-origin POSTs only; on `auth:
//                      'session'` routes the session cookie's session and its CSRF token
//   parseBody       -> content type, size, JSON, zod schema (naming the offending field); on the
//                      GraphQL and MCP endpoints only the size (their libraries parse the rest)
//
// A key-authenticated request is recorded in the request log once its answer is built (requestContext:
// one BatchWriteItem; a failure to record is logged and never changes the answer).
//
// Every response also gets a Cache-Control header: `no-store` unless the operation chose one (public
// documents are cacheable), since many carry tokens, keys or a caller's data.
//
// What one request learns on the way (its id, headers, caller, parsed body) lives in a RequestState
// that requestContext creates in middy's per-request `request.internal`; nothing is kept at module
// level, so concurrent requests in one process (the local server) never see each other's state.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { CONSOLE_SESSION_COOKIE, CONSOLE_SIGN_IN_COOKIE, CSRF_HEADER } from '../contracts/console-schemas';
import { ApiError, envelope } from '../contracts/errors';
import { describeSchemaIssues } from '../contracts/field-errors';
import { tokenFieldMismatch } from '../contracts/token-kinds';
import { LIMITS } from '../contracts/limits';
import type { Route } from '../contracts/routes';
import { API_VERSION } from '../contracts/schemas';
import { displayOfKey, isWellFormedApiKey } from '../core/api-keys';
import { secondsUntilMonthlyReset } from '../core/rate-limit';
import { authorizeAndMeter, rateLimitHeaderValues, type AuthContext } from '../data/api-keys-repo';
import { emitEvent } from '../data/events';
import { recordRequest, recordUsageNotice, requestLogEntryOf } from '../data/request-log-repo';
import { currentRequestId, logger, metrics, metricsEnabled } from './observability';
import { protocolErrorResponse, type ProtocolHooks } from './protocols';
import type { Deps } from './runtime';

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;

export interface RequestState {
  requestId: string;
  startedAt: number;
  headers: Record<string, string>;
  /** Lower-case names of the headers the request sent more than once. */
  repeatedHeaders: ReadonlySet<string>;
  responseHeaders: Record<string, string>;
  auth: AuthContext | null;
  /** The key's display form (`fc_sk_test_…abcd`), for the request log; never the key. */
  keyDisplay?: string;
  /** When the request arrived by the runtime's clock (Unix ms), on key-authenticated routes. */
  arrivedAt?: number;
  /** The item the request's access token named, once resolved. */
  itemId?: string;
  /** The console caller on console routes (consoleGate); null elsewhere. */
  caller: ConsoleCaller | null;
  /** Set-Cookie values the answer carries (success or error), as multiValueHeaders. */
  setCookies: string[];
  body: unknown;
  errorCode?: string;
}

/** What the middlewares share through middy's `request.internal` (a fresh object per request). */
export interface RequestInternal extends Record<string, unknown> {
  requestState?: RequestState;
}

export type ApiRequest = middy.Request<ApiEvent, ApiResult, Error, Context, RequestInternal>;
export type ApiMiddleware = middy.MiddlewareObj<ApiEvent, ApiResult, Error, Context, RequestInternal>;

const WIRING_MISTAKE = 'requestContext() must come before every other middleware of this stack';

export function stateOf(request: ApiRequest): RequestState {
  const state = request.internal.requestState;
  if (!state) throw new Error(WIRING_MISTAKE);
  return state;
}

// middy hands the base handler only (event, context). The request's state reaches it on a
// per-request view of the context (the caller's context object is never written to), which is how
// middy middlewares pass values to handlers.
const REQUEST_STATE = Symbol('fincore.requestState');
type ContextWithState = Context & { [REQUEST_STATE]?: RequestState };

function contextWithState(context: Context, state: RequestState): Context {
  const view = Object.create(context) as ContextWithState;
  view[REQUEST_STATE] = state;
  return view;
}

/** The state of the request this handler invocation serves (see requestContext). */
export function handlerStateOf(context: Context): RequestState {
  const state = (context as ContextWithState)[REQUEST_STATE];
  if (!state) throw new Error(WIRING_MISTAKE);
  return state;
}

/** Powertools around the whole stack: the Lambda context on every log line. */
export function powertools(): ApiMiddleware[] {
  return [injectLambdaContext(logger)];
}

/**
 * Custom metrics are kept to what no free metric shows, since each series costs 0.30 USD a month:
 * a route's requests, latency and cold starts are its function's own Lambda metrics (one function
 * per route) and REPORT lines. So an answered request publishes a metric only when it failed:
 * ServerError by route (rare, and what an operator pages on), ClientError as one series for the API
 * (every route sees some 4xx; the request log line carries route, status and error_code for a
 * breakdown in Logs Insights). Published at once, as one EMF line.
 */
function recordFailure(routeId: string, status: number): void {
  if (status >= 500) {
    metrics.addDimension('route', routeId);
    metrics.addMetric('ServerError', MetricUnit.Count, 1);
  } else metrics.addMetric('ClientError', MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}

/**
 * A server error a protocol route answered in its own format with a success status (the MCP server's
 * JSON-RPC internal error): counted as the route's ServerError, as an HTTP 5xx is.
 */
export function recordServerError(routeId: string): void {
  recordFailure(routeId, 500);
}

/** Fires usage.limit_approaching; a failure is logged, never charged to the request. */
async function announceUsage(deps: Deps, state: RequestState, auth: AuthContext, thresholdPercent: number): Promise<void> {
  const limit = auth.usage.quota;
  if (limit === null) return; // an unlimited quota crosses no threshold
  const now = deps.clock.now();
  let eventId: string;
  try {
    eventId = await emitEvent(deps, auth, 'usage.limit_approaching', {
      quota: auth.usage.kind,
      threshold_percent: thresholdPercent,
      used: auth.usage.used,
      limit,
      resets_at: new Date(now + secondsUntilMonthlyReset(now) * 1000).toISOString(),
    });
  } catch (err) {
    logger.error('could not record usage.limit_approaching', { request_id: state.requestId, error: err as Error });
    return;
  }
  // The console's usage page lists the month's notices from this index (the event itself is found by id only).
  try {
    await recordUsageNotice(deps, auth, { quota: auth.usage.kind, thresholdPercent, used: auth.usage.used, limit, eventId, at: now });
  } catch (err) {
    logger.warn('could not index usage.limit_approaching for the console', { request_id: state.requestId, event_id: eventId, error: err as Error });
  }
}

/** Header names are case-insensitive; API Gateway passes them as the client sent them. */
function lowerCaseHeaders(event: ApiEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * The headers sent more than once. `headers` keeps only one value per name (API Gateway: the last),
 * so a repeat shows in `multiValueHeaders` (API Gateway REST and the local server fill it), or as
 * the same name in two spellings.
 */
function repeatedHeaderNames(event: ApiEvent): Set<string> {
  const counts = new Map<string, number>();
  const count = (name: string, n: number) => counts.set(name.toLowerCase(), (counts.get(name.toLowerCase()) ?? 0) + n);
  const multi = event.multiValueHeaders ?? {};
  for (const [name, values] of Object.entries(multi)) count(name, values?.length ?? 0);
  // A name missing from multiValueHeaders (a hand-built event) still counts once per spelling.
  for (const name of Object.keys(event.headers ?? {})) if (!(name in multi)) count(name, 1);
  return new Set([...counts].filter(([, n]) => n > 1).map(([name]) => name));
}

/**
 * A header that must appear once. Two values (two headers, or one comma-joined as proxies fold
 * them) would leave it to chance which one is honoured, so the request is refused instead.
 */
function singleHeader(state: RequestState, name: string, options: { commaJoined: boolean }): string | undefined {
  const value = state.headers[name];
  if (state.repeatedHeaders.has(name) || (options.commaJoined && value?.includes(','))) {
    throw new ApiError('duplicate_header', `The ${name} header appears more than once; send exactly one.`);
  }
  return value;
}

/** What made storage unavailable, named for the log; see storageFailureOf. */
export type StorageFailure =
  | 'connection refused'
  | 'connection reset'
  | 'connection timed out'
  | 'host unreachable'
  | 'disk full'
  | 'throttled'
  | 'storage service error';

const STORAGE_NETWORK_FAILURES: Readonly<Record<string, StorageFailure>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ECONNABORTED: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'host unreachable',
  ENOTFOUND: 'host unreachable',
  EAI_AGAIN: 'host unreachable',
};
const NETWORK_CODE_IN_MESSAGE = new RegExp(`\\b(${Object.keys(STORAGE_NETWORK_FAILURES).join('|')})\\b`);
/** DynamoDB Local keeps its tables in SQLite: a full disk surfaces as a 500 naming SQLite's error. */
const DISK_FULL = /SQLITE_FULL|database or disk is full|ENOSPC|no space left on device/i;
const THROTTLED = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
const SERVICE_FAILED = new Set(['InternalServerError', 'InternalFailure', 'ServiceUnavailable', 'ServiceUnavailableException']);

/** An error, the errors it wraps (`cause`) and the attempts an AggregateError bundles (`errors`). */
function errorChain(err: unknown, depth = 0): Record<string, unknown>[] {
  if (err === null || typeof err !== 'object' || depth > 5) return [];
  const node = err as Record<string, unknown>;
  const nested = [node.cause, ...(Array.isArray(node.errors) ? node.errors : [])];
  return [node, ...nested.flatMap((inner) => errorChain(inner, depth + 1))];
}

/**
 * Whether an error means storage (DynamoDB) cannot serve right now rather than that our code is
 * wrong, and why. AWS SDK errors carry `$metadata`: a network failure keeps Node's `code` (on the
 * error or its `cause`), a service error its `name` and HTTP status. The one place this is decided.
 */
export function storageFailureOf(err: unknown): StorageFailure | null {
  const chain = errorChain(err);
  const fromSdk = chain.some((node) => typeof node.$metadata === 'object' && node.$metadata !== null);
  for (const node of chain) {
    const code = typeof node.code === 'string' ? node.code : undefined;
    const message = typeof node.message === 'string' ? node.message : '';
    if (code === 'ENOSPC' || (fromSdk && DISK_FULL.test(message))) return 'disk full';
  }
  if (!fromSdk) return null;
  for (const node of chain) {
    // The SDK wraps an error it does not recognise as one (from another realm, say) into a new Error
    // whose message is all that is left of it ("... connect ECONNREFUSED 127.0.0.1:8000").
    const code =
      typeof node.code === 'string' ? node.code : typeof node.errno === 'string' ? node.errno : NETWORK_CODE_IN_MESSAGE.exec(String(node.message ?? ''))?.[1];
    if (code && code in STORAGE_NETWORK_FAILURES) return STORAGE_NETWORK_FAILURES[code];
    const name = typeof node.name === 'string' ? node.name : '';
    if (name === 'TimeoutError') return 'connection timed out';
    if (THROTTLED.has(name)) return 'throttled';
    const status = (node.$metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    if (SERVICE_FAILED.has(name) || (typeof status === 'number' && status >= 500)) return 'storage service error';
  }
  return null;
}

/** How long a caller should wait before retrying when storage is unavailable. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

/** The answer to a storage failure: 503 with Retry-After, the cause logged by name (never a stack). */
export function storageUnavailable(failure: StorageFailure, requestId: string): ApiError {
  logger.error(`storage unavailable: ${failure}`, { request_id: requestId, cause: failure });
  return new ApiError('storage_unavailable', undefined, { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) });
}

/** API Gateway's id for the request, or a fresh one where there is none. */
export function requestIdOf(event: ApiEvent): string {
  return event.requestContext?.requestId || `req_${randomUUID()}`;
}

/** A DNS name, an IPv4 address or a bracketed IPv6 address, with an optional port: nothing else. */
const HOST_AND_PORT = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::[0-9]{1,5})?$/i;
const STAGE_NAME = /^[A-Za-z0-9_-]{1,128}$/;
/** Where a request's own address cannot be trusted to name this deployment. */
const FALLBACK_HOST = 'localhost';

/** A request header's value by its lower-case name (API Gateway passes names as the client sent them). */
export function headerOf(event: ApiEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === name && typeof value === 'string') return value;
  return undefined;
}

function validHost(candidate: string | undefined): string | undefined {
  const host = candidate?.trim();
  if (!host || host.length > 260 || !HOST_AND_PORT.test(host)) return undefined;
  const port = /:([0-9]+)$/.exec(host)?.[1];
  return port !== undefined && Number(port) > 65535 ? undefined : host.toLowerCase();
}

/**
 * {base_url}, as openapi.json, llms.txt and the Link flow advertise it. The configured FC_BASE_URL
 * when there is one. Otherwise it is derived from the request, which the caller controls (Host,
 * X-Forwarded-Proto), so only a well-formed host[:port] is taken and only http or https (http only
 * in the local stage); anything else falls back to a safe default rather than reaching a document.
 */
export function baseUrlOf(event: ApiEvent, deps: { config: Pick<Deps['config'], 'baseUrl' | 'stage'> }): string {
  if (deps.config.baseUrl) return deps.config.baseUrl.replace(/\/$/, '');
  const local = deps.config.stage === 'local';
  const host = validHost(event.requestContext?.domainName) ?? validHost(headerOf(event, 'host')) ?? FALLBACK_HOST;
  const stage = event.requestContext?.stage;
  if (host.includes('.execute-api.') && stage && STAGE_NAME.test(stage)) return `https://${host}/${stage}`;
  const forwarded = headerOf(event, 'x-forwarded-proto')?.trim().toLowerCase();
  const scheme = local && (forwarded === 'http' || forwarded === 'https') ? forwarded : local ? 'http' : 'https';
  return `${scheme}://${host}`;
}

/**
 * Files a key-authenticated request in the request log (functions/data/request-log-repo.ts): route,
 * status, latency, request id, the key's display form, error code, item id; never a body, token or
 * key. A request no application authenticated has nowhere to be filed. Never throws: the answer is
 * already built and must not change because its log entry could not be written.
 */
async function recordInRequestLog(route: Route, deps: () => Deps, state: RequestState, status: number, latencyMs: number): Promise<void> {
  if (route.auth !== 'key' || !state.auth) return;
  try {
    const entry = requestLogEntryOf({
      route,
      status,
      latencyMs,
      requestId: state.requestId,
      auth: { applicationId: state.auth.applicationId, environment: state.auth.environment, keyDisplay: state.keyDisplay ?? null },
      errorCode: state.errorCode ?? null,
      itemId: state.itemId ?? null,
      at: state.arrivedAt ?? deps().clock.now(),
    });
    const outcome = await recordRequest(deps(), entry);
    if (outcome.error) logger.warn('request log entry not recorded', { request_id: state.requestId, route: route.id, cause: outcome.error });
  } catch (err) {
    logger.warn('request log entry not recorded', { request_id: state.requestId, route: route.id, error: err as Error });
  }
}

/**
 * The request's state, the headers every answer carries and the access log line; with `deps`, a
 * key-authenticated request's request log entry too.
 */
export function requestContext(route: Route | null, deps?: () => Deps): ApiMiddleware {
  const finish = async (request: ApiRequest) => {
    const state = stateOf(request);
    const response = request.response ?? { statusCode: 500, body: '' };
    response.headers = {
      'Cache-Control': 'no-store',
      ...response.headers,
      ...state.responseHeaders,
      'X-Request-Id': state.requestId,
      'FC-Version': API_VERSION,
    };
    // Several cookies need several Set-Cookie headers: API Gateway and the local server send each value of multiValueHeaders.
    if (state.setCookies.length > 0) response.multiValueHeaders = { ...response.multiValueHeaders, 'Set-Cookie': state.setCookies };
    request.response = response;
    const latencyMs = Date.now() - state.startedAt;
    // The request id goes on this line itself, not on the shared logger: requests served
    // concurrently by one process must never stamp each other's ids.
    logger.info('request', {
      request_id: state.requestId,
      route: route?.id ?? 'unmatched',
      method: request.event.httpMethod,
      path: request.event.path,
      status: response.statusCode,
      latency_ms: latencyMs,
      application_id: state.auth?.applicationId,
      environment: state.auth?.environment,
      key_id: state.auth?.keyId,
      error_code: state.errorCode,
    });
    if (metricsEnabled && response.statusCode >= 400) recordFailure(route?.id ?? 'unmatched', response.statusCode);
    if (route && deps) await recordInRequestLog(route, deps, state, response.statusCode, latencyMs);
  };
  return {
    before: (request: ApiRequest) => {
      const state: RequestState = {
        requestId: currentRequestId() ?? requestIdOf(request.event),
        startedAt: Date.now(),
        headers: lowerCaseHeaders(request.event),
        repeatedHeaders: repeatedHeaderNames(request.event),
        responseHeaders: {},
        auth: null,
        caller: null,
        setCookies: [],
        body: undefined,
      };
      request.internal.requestState = state;
      request.context = contextWithState(request.context, state);
    },
    after: finish,
    onError: finish,
  };
}

/**
 * {base_url} for an error's documentation_url. The runtime's configuration is read as the answer is
 * built; should it be unreadable (the very failure being answered, say), the request alone names
 * the base URL as a deployment without FC_BASE_URL would.
 */
function errorBaseUrlOf(event: ApiEvent, deps: () => Deps): string {
  let config: Pick<Deps['config'], 'baseUrl' | 'stage'>;
  try {
    config = deps().config;
  } catch {
    config = { stage: event.requestContext?.stage === 'local' ? 'local' : 'sandbox' };
  }
  return baseUrlOf(event, { config });
}

export function errorEnvelope(route: Route | null, hooks: ProtocolHooks | undefined, deps: () => Deps): ApiMiddleware {
  return {
    onError: (request: ApiRequest) => {
      const state = stateOf(request);
      const baseUrl = errorBaseUrlOf(request.event, deps);
      let apiError: ApiError;
      const storageFailure = request.error instanceof ApiError ? null : storageFailureOf(request.error);
      if (request.error instanceof ApiError) {
        apiError = request.error;
      } else if (storageFailure) {
        apiError = storageUnavailable(storageFailure, state.requestId);
      } else {
        // Raw errors are never serialised: log the whole thing, answer a generic 500.
        logger.error('unhandled error', { request_id: state.requestId, error: request.error as Error });
        apiError = new ApiError('internal_error');
      }
      state.errorCode = apiError.code;
      const protocol = route?.protocol;
      request.response = hooks
        ? hooks.errorResponse(apiError, state.requestId, baseUrl)
        : protocol === 'graphql' || protocol === 'mcp'
          ? protocolErrorResponse(protocol, apiError, state.requestId, state.headers.accept, baseUrl)
          : {
              statusCode: apiError.status,
              headers: { 'Content-Type': 'application/json', ...apiError.headers },
              body: JSON.stringify(envelope(apiError, state.requestId, baseUrl)),
            };
    },
  };
}

export function versionCheck(): ApiMiddleware {
  return {
    before: (request: ApiRequest) => {
      const requested = singleHeader(stateOf(request), 'fc-version', { commaJoined: true });
      if (requested !== undefined && requested.trim() !== API_VERSION) {
        throw new ApiError('unsupported_version');
      }
    },
  };
}

/** Which monthly quota a request counts against, from its raw body (the MCP server: the tool it calls). */
export type MeterKindOf = (rawBody: string) => 'api' | 'ai';

/** The bearer key of the Authorization header: exactly one, well formed. */
function bearerKeyOf(state: RequestState): string {
  // A bearer key never contains a comma, so a comma means two values folded into one.
  const header = singleHeader(state, 'authorization', { commaJoined: true });
  if (header === undefined || header.trim() === '') throw new ApiError('missing_api_key');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match || !isWellFormedApiKey(match[1])) throw new ApiError('malformed_api_key');
  return match[1];
}

/**
 * Authenticates and meters the key: the Authorization bearer key, or where the route's protocol
 * carries it elsewhere (Plaid's `secret`), the key its hooks read.
 */
export function authenticate(route: Route, deps: () => Deps, meterKind?: MeterKindOf, hooks?: ProtocolHooks): ApiMiddleware {
  return {
    before: async (request: ApiRequest) => {
      // Public documents need no key; the Link page's API is authenticated by its link token.
      if (route.auth !== 'key') return;
      const state = stateOf(request);
      const key = hooks ? hooks.apiKeyOf({ headers: state.headers, repeatedHeaders: state.repeatedHeaders, rawBody: rawBodyOf(request.event) }) : bearerKeyOf(state);
      state.arrivedAt = deps().clock.now();
      state.keyDisplay = displayOfKey(key).display;
      const auth = await authorizeAndMeter(deps(), key, meterKindOf(route, request.event, meterKind));
      state.auth = auth;
      // The meter marks the one request per month whose write reached a threshold.
      if (auth.usage.thresholdReached !== undefined) await announceUsage(deps(), state, auth, auth.usage.thresholdReached);
      state.responseHeaders = { ...state.responseHeaders, ...rateLimitHeaderValues(auth.rateLimit) };
      if (route.testKeysOnly && auth.environment !== 'test') throw new ApiError('test_key_required');
    },
    onError: (request: ApiRequest) => {
      // A refused request still tells the caller where its bucket stands.
      const state = stateOf(request);
      if (request.error instanceof ApiError && request.error.status === 429) {
        state.responseHeaders = { ...state.responseHeaders, ...request.error.headers };
      }
    },
  };
}

// ---------- the console: same-origin calls, the session cookie, CSRF ----------

/** A signed-in console session as the edge sees it (functions/app/console/session.ts makes them). */
export interface ConsoleSession {
  /** SHA-256 of the session token: identifies the session without being it. */
  tokenHash: string;
  user: { userId: string; email: string; name: string };
  identity: 'local' | 'cognito';
  csrfToken: string;
  /** ISO 8601: the earlier of the idle and the absolute deadline. */
  expiresAt: string;
}

/**
 * How the edge finds a cookie's session and checks its CSRF token. The edge calls no use case, so the
 * console's handlers pass these in (defineOperation's `sessions`: app/console/session.ts consoleSessions).
 */
export interface ConsoleSessions {
  current(deps: Deps, token: string | null): Promise<ConsoleSession | null>;
  csrfMatches(session: ConsoleSession, header: string | undefined): boolean;
}

/** The caller of a console route, as its handler receives it (`ctx.caller`). */
export interface ConsoleCaller {
  /** Where the request came from (API Gateway's sourceIp; the local server's socket). */
  clientAddress: string;
  /** The User-Agent header, cut to 200 characters. */
  userAgent: string;
  /** The session cookie's value as sent; null without one. */
  sessionToken: string | null;
  /** The signed-in session: set on `auth: 'session'` routes (the gate refused the request otherwise). */
  session: ConsoleSession | null;
  /** A cookie the request sent, by name (the first one of that name). */
  cookie(name: string): string | undefined;
  /** Sets the session cookie of a new session (a sign-in), kept until the session's absolute deadline. */
  startSession(token: string, expiresAt: string): void;
  /** Clears the session cookie (a sign-out). */
  endSession(): void;
  /** Keeps a Cognito sign-in's state for its way back (auth/start), at most `maxAgeSeconds`. */
  keepSignInState(state: string, maxAgeSeconds: number): void;
  /** Clears the Cognito sign-in's state (auth/callback). */
  clearSignInState(): void;
}

/** A console caller that is signed in: what `auth: 'session'` routes' handlers receive. */
export type SignedInCaller = ConsoleCaller & { session: ConsoleSession };

/** The cookies a request sent, by name, the first of each name (the most specific path, as browsers order them). */
function requestCookies(event: ApiEvent): Map<string, string> {
  const headers = Object.entries(event.multiValueHeaders ?? {})
    .filter(([name]) => name.toLowerCase() === 'cookie')
    .flatMap(([, values]) => values ?? []);
  if (headers.length === 0) headers.push(...Object.entries(event.headers ?? {}).filter(([name]) => name.toLowerCase() === 'cookie').map(([, value]) => value ?? ''));
  const cookies = new Map<string, string>();
  for (const pair of headers.join(';').split(';')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    if (!cookies.has(name)) cookies.set(name, pair.slice(separator + 1).trim());
  }
  return cookies;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

interface CookieAttributes {
  path: string;
  maxAgeSeconds: number;
  sameSite: 'Strict' | 'Lax';
}

/**
 * The Set-Cookie value of a console cookie: HttpOnly always; Secure unless the console is served over
 * plain http on a loopback address (the local stage, where browsers would drop a Secure cookie); the
 * path under the base URL's own path (an execute-api stage prefix, say), so no other path sees it.
 */
export function consoleCookie(baseUrl: string, name: string, value: string, attributes: CookieAttributes): string {
  const url = new URL(baseUrl);
  const secure = !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  const path = `${url.pathname.replace(/\/+$/, '')}${attributes.path}`;
  return [`${name}=${value}`, `Path=${path}`, `Max-Age=${Math.max(0, Math.floor(attributes.maxAgeSeconds))}`, 'HttpOnly', `SameSite=${attributes.sameSite}`, ...(secure ? ['Secure'] : [])].join('; ');
}

/** The session cookie is sent to the console's page and API only. */
const SESSION_COOKIE_PATH = '/console';
/** The Cognito sign-in's state goes to its start and callback only. */
const SIGN_IN_COOKIE_PATH = '/console/api/auth';

/**
 * A console POST must come from the console's own page: a browser that says the request is
 * cross-site (Sec-Fetch-Site), or names another origin (Origin), is refused before anything runs.
 * Clients that send neither (not a browser) still need the session's CSRF token.
 */
function refuseCrossSite(state: RequestState, baseUrl: string): void {
  const site = state.headers['sec-fetch-site']?.trim().toLowerCase();
  if (site === 'cross-site') throw new ApiError('csrf_failed', 'The console API answers the console\u2019s own page only: this request came from another site.');
  const origin = state.headers.origin?.trim();
  if (origin === undefined) return;
  let sameOrigin = false;
  try {
    sameOrigin = new URL(origin).origin === new URL(baseUrl).origin;
  } catch {
    // `null` (a sandboxed or privacy-sensitive context) or garbage: not this origin.
  }
  if (!sameOrigin) throw new ApiError('csrf_failed', 'The console API answers the console\u2019s own page only: this request came from another origin.');
}

/**
 * The console's routes (Route.console): the caller (address, user agent, cookies); POSTs from this
 * origin only; on `auth: 'session'` routes the session of the session cookie (401 session_required
 * without one) and, except on console.session, X-CSRF-Token matching it (403 csrf_failed). Console
 * routes are never metered, rate-limited by a key or recorded in the request log.
 */
export function consoleGate(route: Route, deps: () => Deps, sessions?: ConsoleSessions): ApiMiddleware {
  if (route.auth === 'session' && !sessions) throw new Error(`${route.id} is a session route: pass options.sessions (app/console/session.ts consoleSessions)`);
  return {
    before: async (request: ApiRequest) => {
      // A session route is checked whatever its other flags say: `auth: 'session'` alone means signed in.
      if (!route.console && route.auth !== 'session') return;
      const state = stateOf(request);
      const { event } = request;
      const base = baseUrlOf(event, deps());
      if (route.method === 'POST') refuseCrossSite(state, base);
      const cookies = requestCookies(event);
      const set = (name: string, value: string, attributes: CookieAttributes) => state.setCookies.push(consoleCookie(base, name, value, attributes));
      const caller: ConsoleCaller = {
        clientAddress: event.requestContext?.identity?.sourceIp || 'unknown',
        userAgent: (state.headers['user-agent'] ?? '').slice(0, 200),
        sessionToken: cookies.get(CONSOLE_SESSION_COOKIE) || null,
        session: null,
        cookie: (name) => cookies.get(name),
        startSession: (token, expiresAt) =>
          // Whole seconds to the deadline (the milliseconds since the session began are not a second lost).
          set(CONSOLE_SESSION_COOKIE, token, { path: SESSION_COOKIE_PATH, sameSite: 'Strict', maxAgeSeconds: Math.round((Date.parse(expiresAt) - deps().clock.now()) / 1000) }),
        endSession: () => set(CONSOLE_SESSION_COOKIE, '', { path: SESSION_COOKIE_PATH, sameSite: 'Strict', maxAgeSeconds: 0 }),
        keepSignInState: (value, maxAgeSeconds) => set(CONSOLE_SIGN_IN_COOKIE, value, { path: SIGN_IN_COOKIE_PATH, sameSite: 'Lax', maxAgeSeconds }),
        clearSignInState: () => set(CONSOLE_SIGN_IN_COOKIE, '', { path: SIGN_IN_COOKIE_PATH, sameSite: 'Lax', maxAgeSeconds: 0 }),
      };
      state.caller = caller;
      if (route.auth !== 'session' || !sessions) return;
      const session = await sessions.current(deps(), caller.sessionToken);
      if (!session) throw new ApiError('session_required');
      if (!route.csrfExempt && !sessions.csrfMatches(session, singleHeader(state, CSRF_HEADER, { commaJoined: false }))) throw new ApiError('csrf_failed');
      caller.session = session;
    },
    onError: (request: ApiRequest) => {
      // A cookie whose session ended is of no further use: the browser may drop it.
      const caller = request.internal.requestState?.caller;
      if (request.error instanceof ApiError && request.error.code === 'session_required' && caller?.sessionToken) caller.endSession();
    },
  };
}

/**
 * Which monthly quota a request counts against: its route's, unless the operation decides per request
 * (the MCP server, where a request that calls an ai_* tool counts as AI).
 */
function meterKindOf(route: Route, event: ApiEvent, meterKind: MeterKindOf | undefined): 'api' | 'ai' {
  if (meterKind) return meterKind(rawBodyOf(event));
  return route.metering === 'ai' ? 'ai' : 'api';
}

function rawBodyOf(event: ApiEvent): string {
  return event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
}

/**
 * A parsed body whose token field holds a token of another kind (a link token as public_token): the
 * field's usual refusal, naming the kind it got and where that kind goes; null when there is none.
 */
export function tokenKindError(body: unknown): ApiError | null {
  const mismatch = tokenFieldMismatch(body);
  return mismatch ? new ApiError(mismatch.code, mismatch.message) : null;
}

/**
 * A body's schema violations as our error: the field named (`options.count`, `account_ids[2]`) and
 * what it accepts, in sentences (functions/contracts/field-errors.ts). `schema` is the schema that
 * reported them: with it, an unknown field names the closest real one and bounds read as ranges.
 */
export function schemaError(error: z.ZodError, body: unknown, schema?: z.ZodType): ApiError {
  const { code, message } = describeSchemaIssues(error.issues, body, schema);
  return new ApiError(code, message);
}

/** The media type and charset of a Content-Type header, lower-cased; the charset unquoted, undefined when absent. */
function contentTypeOf(header: string): { mediaType: string; charset: string | undefined } {
  const [mediaType, ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const separator = parameter.indexOf('=');
    if (separator < 0 || parameter.slice(0, separator).trim().toLowerCase() !== 'charset') continue;
    charset = parameter
      .slice(separator + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { mediaType: mediaType.trim().toLowerCase(), charset };
}

export function parseBody(route: Route): ApiMiddleware {
  return {
    before: (request: ApiRequest) => {
      if (route.request === null) return;
      const state = stateOf(request);
      const raw = rawBodyOf(request.event);
      const maxBytes = route.bodyMaxBytes ?? LIMITS.bodyMaxBytes;
      if (Buffer.byteLength(raw, 'utf8') > maxBytes) {
        throw route.bodyMaxBytes === undefined ? new ApiError('request_too_large') : new ApiError('request_too_large', `The request body is larger than the ${maxBytes} bytes this operation accepts.`);
      }
      // A protocol's own library parses its body (and answers a bad one in its own format).
      if (route.protocol) {
        state.body = raw;
        return;
      }
      let parsed: unknown;
      if (raw.trim() === '') {
        if (!route.bodyOptional) {
          throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
        }
        parsed = {};
      } else {
        const { mediaType, charset } = contentTypeOf(singleHeader(state, 'content-type', { commaJoined: false }) ?? '');
        if (mediaType !== 'application/json') throw new ApiError('invalid_content_type');
        // The body is decoded as UTF-8 (RFC 8259 requires it): any other charset would be misread.
        if (charset !== undefined && charset !== 'utf-8') {
          throw new ApiError('invalid_content_type', `The request body must be UTF-8 JSON; charset=${charset} is not accepted.`);
        }
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new ApiError('invalid_json');
        }
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new ApiError('invalid_json', 'The request body must be a JSON object.');
      }
      const result = route.request.safeParse(parsed);
      if (!result.success) throw schemaError(result.error, parsed, route.request);
      const wrongKind = tokenKindError(result.data);
      if (wrongKind) throw wrongKind;
      state.body = result.data;
    },
  };
}
