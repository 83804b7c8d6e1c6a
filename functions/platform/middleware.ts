// The middleware stack every operation runs (middy), in order:
//   requestContext  -> request id in, X-Request-Id / FC-Version / X-RateLimit-* out, access log
//   errorEnvelope   -> any failure becomes {"error": {type, code, message, request_id}}
//   versionCheck    -> optional FC-Version request header must equal the current version
//   authenticate    -> bearer key, live access, token bucket, monthly quota: one DynamoDB write
//   parseBody       -> content type, size, JSON, zod schema (naming the offending field)
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError, envelope, type ErrorCode } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { Route } from '../contracts/routes';
import { API_VERSION } from '../contracts/schemas';
import { isWellFormedApiKey } from '../core/api-keys';
import { authorizeAndMeter, rateLimitHeaderValues, type AuthContext } from '../data/api-keys-repo';
import { logger, metrics, metricsEnabled } from './observability';
import { crossedThreshold } from '../core/usage';
import { emitEvent } from '../app/webhooks';
import { secondsUntilMonthlyReset } from '../core/rate-limit';

/** Fires usage.limit_approaching; a failure is logged, never charged to the request. */
async function announceUsage(deps: Deps, auth: AuthContext, thresholdPercent: number): Promise<void> {
  const now = deps.clock.now();
  try {
    await emitEvent(deps, auth, 'usage.limit_approaching', {
      quota: auth.usage.kind,
      threshold_percent: thresholdPercent,
      used: auth.usage.used,
      limit: auth.usage.quota,
      resets_at: new Date(now + secondsUntilMonthlyReset(now) * 1000).toISOString(),
    });
  } catch (err) {
    logger.error('could not record usage.limit_approaching', { error: err as Error });
  }
}
import type { Deps } from './runtime';

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;
export type ApiRequest = middy.Request<ApiEvent, ApiResult, Error>;

export interface RequestState {
  requestId: string;
  startedAt: number;
  headers: Record<string, string>;
  responseHeaders: Record<string, string>;
  auth: AuthContext | null;
  body: unknown;
  errorCode?: string;
}

// Per-request state, keyed by the event object so the base handler can reach it too.
const states = new WeakMap<ApiEvent, RequestState>();

export function stateOf(request: { event: ApiEvent }): RequestState {
  let state = states.get(request.event);
  if (!state) {
    state = { requestId: '', startedAt: Date.now(), headers: {}, responseHeaders: {}, auth: null, body: undefined };
    states.set(request.event, state);
  }
  return state;
}

/** Header names are case-insensitive; API Gateway passes them as the client sent them. */
function lowerCaseHeaders(event: ApiEvent): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (typeof value === 'string') out[name.toLowerCase()] = value;
  }
  return out;
}

export function requestContext(route: Route | null): middy.MiddlewareObj<ApiEvent, ApiResult> {
  const finish = (request: ApiRequest) => {
    const state = stateOf(request);
    const response = request.response ?? { statusCode: 500, body: '' };
    response.headers = {
      ...response.headers,
      ...state.responseHeaders,
      'X-Request-Id': state.requestId,
      'FC-Version': API_VERSION,
    };
    request.response = response;
    const latencyMs = Date.now() - state.startedAt;
    logger.info('request', {
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
    if (metricsEnabled) {
      metrics.addDimension('route', route?.id ?? 'unmatched');
      const outcome = response.statusCode >= 500 ? 'ServerError' : response.statusCode >= 400 ? 'ClientError' : 'Success';
      metrics.addMetric(outcome, MetricUnit.Count, 1);
      metrics.addMetric('Latency', MetricUnit.Milliseconds, latencyMs);
      metrics.publishStoredMetrics();
    }
  };
  return {
    before: (request: ApiRequest) => {
      const state = stateOf(request);
      state.requestId = request.event.requestContext?.requestId || `req_${randomUUID()}`;
      state.startedAt = Date.now();
      state.headers = lowerCaseHeaders(request.event);
      logger.appendKeys({ request_id: state.requestId });
    },
    after: finish,
    onError: finish,
  };
}

export function errorEnvelope(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    onError: (request: ApiRequest) => {
      const state = stateOf(request);
      let apiError: ApiError;
      if (request.error instanceof ApiError) {
        apiError = request.error;
      } else {
        // Raw errors are never serialised: log the whole thing, answer a generic 500.
        logger.error('unhandled error', { error: request.error as Error });
        apiError = new ApiError('internal_error');
      }
      state.errorCode = apiError.code;
      request.response = {
        statusCode: apiError.status,
        headers: { 'Content-Type': 'application/json', ...apiError.headers },
        body: JSON.stringify(envelope(apiError, state.requestId)),
      };
    },
  };
}

export function versionCheck(): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: (request: ApiRequest) => {
      const requested = stateOf(request).headers['fc-version'];
      if (requested !== undefined && requested.trim() !== API_VERSION) {
        throw new ApiError('unsupported_version');
      }
    },
  };
}

export function authenticate(route: Route, deps: () => Deps): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: async (request: ApiRequest) => {
      // Public documents need no key; the Link page's API is authenticated by its link token.
      if (route.auth !== 'key') return;
      const state = stateOf(request);
      const header = state.headers['authorization'];
      if (header === undefined || header.trim() === '') throw new ApiError('missing_api_key');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match || !isWellFormedApiKey(match[1])) throw new ApiError('malformed_api_key');
      const auth = await authorizeAndMeter(deps(), match[1], route.metering === 'ai' ? 'ai' : 'api');
      state.auth = auth;
      const threshold = crossedThreshold(auth.usage.used, auth.usage.quota);
      if (threshold !== null) await announceUsage(deps(), auth, threshold);
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

/** Maps a zod issue to our codes, naming the field (dot path) in the message. */
function schemaError(error: z.ZodError, body: unknown): ApiError {
  const issue = error.issues[0];
  const valueAtPath = issue.path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );
  const path = issue.path.map(String).join('.');
  let code: ErrorCode = 'invalid_field';
  let message: string;
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((k) => (path ? `${path}.${k}` : k));
    code = 'unknown_field';
    message = `Unknown field${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`;
  } else if (issue.code !== 'custom' && valueAtPath === undefined) {
    code = 'missing_field';
    message = `Missing required field: ${path}.`;
  } else if (issue.code === 'custom' && typeof issue.params?.code === 'string') {
    code = issue.params.code as ErrorCode;
    message = `${path ? `${path}: ` : ''}${issue.message}.`;
  } else {
    message = `Invalid field ${path || '(body)'}: ${issue.message}.`;
  }
  return new ApiError(code, message);
}

export function parseBody(route: Route): middy.MiddlewareObj<ApiEvent, ApiResult> {
  return {
    before: (request: ApiRequest) => {
      if (route.request === null) return;
      const state = stateOf(request);
      const { event } = request;
      const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
      if (Buffer.byteLength(raw, 'utf8') > LIMITS.bodyMaxBytes) throw new ApiError('request_too_large');
      let parsed: unknown;
      if (raw.trim() === '') {
        if (!route.bodyOptional) {
          throw new ApiError('invalid_json', 'The request body is empty; send a JSON object.');
        }
        parsed = {};
      } else {
        const contentType = (state.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        if (contentType !== 'application/json') throw new ApiError('invalid_content_type');
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
      if (!result.success) throw schemaError(result.error, parsed);
      state.body = result.data;
    },
  };
}
