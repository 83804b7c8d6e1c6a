// The one way our functions call AWS: a signed HTTPS request to a service's JSON API, retried the
// way the AWS SDK's "standard" retry mode does, with the service's error turned into an error whose
// `name` is the service's error code. DynamoDB, SQS, Step Functions, KMS and Secrets Manager all
// speak the AWS JSON protocol (POST /, `X-Amz-Target: <prefix>.<Operation>`); Bedrock Runtime's
// Converse is a JSON POST to its own path. Clients for each are in this folder.
//
// Why not the AWS SDK: see sigv4.ts. What the SDK did for us and this module now does, on purpose:
// - credentials from the environment (what Lambda gives every function; local runs pass their own);
// - keep-alive connections (one agent per process), a per-attempt timeout;
// - up to 3 attempts for throttling, 5xx and connection errors, with exponential backoff and full
//   jitter (base 100 ms, 500 ms after throttling, capped at 20 s), like the SDK's standard mode;
// - middleware hooks around each call (X-Ray subsegments, call and capacity counting).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { signRequest, type AwsCredentials } from './sigv4';

/** What a call resolves to: the service's JSON output plus how the call went. */
export type AwsOutput<T> = T & { $metadata: AwsCallMetadata };

export interface AwsCallMetadata {
  httpStatusCode?: number;
  requestId?: string;
  /** Attempts made, retries included. */
  attempts: number;
  totalRetryDelay: number;
}

/** An error the service answered (its code is `name`), or a call that got no answer after its attempts. */
export class AwsServiceError extends Error {
  readonly $metadata: AwsCallMetadata;
  readonly $fault: 'client' | 'server';
  /** The error body's other fields (e.g. DynamoDB's CancellationReasons, Item). */
  readonly [field: string]: unknown;

  constructor(name: string, message: string, metadata: AwsCallMetadata, fault: 'client' | 'server', fields: Record<string, unknown> = {}) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$metadata = metadata;
    this.$fault = fault;
  }
}

/** True when `err` is the service's error named `code` (e.g. ConditionalCheckFailedException). */
export function isAwsError(err: unknown, code: string): err is AwsServiceError {
  return err instanceof Error && err.name === code && '$metadata' in err;
}

export interface AwsCall {
  /** The client's service name in traces and errors: DynamoDB, SQS, SFN, KMS, SecretsManager, BedrockRuntime. */
  serviceName: string;
  operation: string;
  input: object;
}

/** Runs around each call (all its attempts): tracing, counting. Must call `next` exactly once. */
export type AwsMiddleware = (call: AwsCall, next: () => Promise<AwsOutput<object>>) => Promise<AwsOutput<object>>;

export interface AwsEndpointOptions {
  region: string;
  /** Overrides the service's regional endpoint (DynamoDB Local, tests' stubs). */
  endpoint?: string;
  /** Defaults to the environment's (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN). */
  credentials?: AwsCredentials;
  maxAttempts?: number;
  /** Milliseconds one attempt may take before it is abandoned (and retried). */
  attemptTimeoutMs?: number;
  /**
   * Which failures may be retried, in place of the standard rule (throttling, 5xx, transient codes
   * and connection errors): a call that must not run twice keeps only the failures after which the
   * service guarantees it did not act (Lambda's Invoke, aws/lambda.ts).
   */
  retryable?: (failure: AwsServiceError) => boolean;
}

export interface HttpCall {
  method: 'POST' | 'GET';
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Abandons the call (no further attempts) when it fires: a caller that stopped waiting. */
  signal?: AbortSignal;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const BASE_DELAY_MS = 100;
const THROTTLING_BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 20_000;

const THROTTLING_CODES = new Set([
  'Throttling',
  'ThrottlingException',
  'ThrottledException',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'TransactionInProgressException',
  'RequestLimitExceeded',
  'BandwidthLimitExceeded',
  'LimitExceededException',
  'RequestThrottled',
  'SlowDown',
  'PriorRequestNotComplete',
  'EC2ThrottledException',
]);
const TRANSIENT_CODES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalError', 'InternalFailure', 'ServiceUnavailable']);
const NETWORK_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH']);

// One keep-alive agent per scheme and process: a warm Lambda reuses its TLS connections.
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 50 });
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 50 });

export function credentialsFromEnvironment(env: NodeJS.ProcessEnv = process.env): AwsCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new AwsServiceError(
      'CredentialsProviderError',
      'no AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set (Lambda sets them for the function role)',
      { attempts: 0, totalRetryDelay: 0 },
      'client',
    );
  }
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

function send(url: URL, call: HttpCall, headers: Record<string, string>, timeoutMs: number): Promise<RawResponse> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || undefined,
        method: call.method,
        path: call.path,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(call.body)) },
        agent: secure ? httpsAgent : httpAgent,
        ...(call.signal ? { signal: call.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer from ${url.host} within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(call.body);
  });
}

/**
 * The service's error code: `__type` (`namespace#Code`, sometimes with `:detail`), as the SDK names
 * errors (SQS's `x-amzn-query-error` header, its older query-protocol code, goes into the error's
 * `Code` field as the SDK puts it: queryErrorFields), else Bedrock's `x-amzn-errortype` header.
 */
function errorCodeOf(response: RawResponse, body: Record<string, unknown>): string {
  const raw = (typeof body.__type === 'string' && body.__type) || (typeof body.code === 'string' && body.code) || (typeof body.Code === 'string' && body.Code) || '';
  const fromType = raw.split('#').pop()?.split(':')[0] ?? '';
  if (fromType) return fromType;
  const queryError = response.headers['x-amzn-query-error'];
  if (typeof queryError === 'string' && queryError.includes(';')) return queryError.split(';')[0];
  const headerType = response.headers['x-amzn-errortype'];
  if (typeof headerType === 'string' && headerType) return headerType.split(':')[0];
  return response.status >= 500 ? 'InternalFailure' : `HttpError${response.status}`;
}

/** SQS's query-protocol code and fault (`AWS.SimpleQueueService.NonExistentQueue;Sender`) as the SDK exposes them. */
function queryErrorFields(response: RawResponse): Record<string, string> {
  const queryError = response.headers['x-amzn-query-error'];
  if (typeof queryError !== 'string' || !queryError.includes(';')) return {};
  const [code, type] = queryError.split(';');
  return { Code: code, Type: type };
}

/** A JSON object body; null when the body is not one (an empty body is an empty object). */
function parseJson(text: string): Record<string, unknown> | null {
  if (text.trim().length === 0) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Full-jitter backoff: a random wait up to base x 2^(attempt-1), capped. */
function backoffMs(attempt: number, throttled: boolean): number {
  const base = throttled ? THROTTLING_BASE_DELAY_MS : BASE_DELAY_MS;
  return Math.floor(Math.random() * Math.min(MAX_DELAY_MS, base * 2 ** (attempt - 1)));
}

/**
 * One call: signed, retried, parsed. `service` is the signing name, `endpoint` the service's base URL.
 * Resolves to the parsed JSON output; rejects with AwsServiceError.
 */
export async function callAws(
  scope: { serviceName: string; signingName: string; endpoint: string; options: AwsEndpointOptions },
  call: HttpCall,
): Promise<AwsOutput<Record<string, unknown>>> {
  const url = new URL(scope.endpoint);
  const maxAttempts = Math.max(1, scope.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
  const timeoutMs = scope.options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  let totalRetryDelay = 0;
  for (let attempt = 1; ; attempt++) {
    const credentials = scope.options.credentials ?? credentialsFromEnvironment();
    const headers = withTraceHeader(
      signRequest(
        { method: call.method, host: url.host, path: call.path, headers: call.headers, body: call.body },
        { service: scope.signingName, region: scope.options.region, credentials, now: new Date() },
      ),
    );
    let failure: AwsServiceError;
    let throttled = false;
    try {
      const response = await send(url, call, headers, timeoutMs);
      const requestIdHeader = response.headers['x-amzn-requestid'] ?? response.headers['x-amz-request-id'];
      const metadata: AwsCallMetadata = {
        httpStatusCode: response.status,
        ...(typeof requestIdHeader === 'string' ? { requestId: requestIdHeader } : {}),
        attempts: attempt,
        totalRetryDelay,
      };
      const parsed = parseJson(response.body);
      if (response.status >= 200 && response.status < 300) {
        // A success whose body is not the service's JSON (a proxy's HTML page, a misrouted endpoint)
        // must not read as an empty answer ("no such item"): the SDK fails to deserialise it too.
        if (parsed === null) {
          throw new AwsServiceError('DeserializationError', `${scope.serviceName} answered HTTP ${response.status} with a body that is not a JSON object`, metadata, 'client');
        }
        return Object.assign(parsed, { $metadata: metadata });
      }
      const body = parsed ?? {};
      const code = errorCodeOf(response, body);
      const { __type: _type, message: lower, Message: upper, ...fields } = body;
      const message = typeof lower === 'string' ? lower : typeof upper === 'string' ? upper : `${scope.serviceName} answered HTTP ${response.status}`;
      failure = new AwsServiceError(code, message, metadata, response.status >= 500 ? 'server' : 'client', { ...fields, ...queryErrorFields(response) });
      throttled = response.status === 429 || THROTTLING_CODES.has(code);
      const retryable = scope.options.retryable ? scope.options.retryable(failure) : throttled || response.status >= 500 || TRANSIENT_CODES.has(code);
      if (!retryable || attempt >= maxAttempts) throw failure;
    } catch (err) {
      if (err instanceof AwsServiceError) throw err;
      const networkCode = (err as NodeJS.ErrnoException).code ?? '';
      failure = new AwsServiceError(
        NETWORK_ERROR_CODES.has(networkCode) ? 'NetworkingError' : 'RequestError',
        `${scope.serviceName} ${call.path}: ${(err as Error).message}`,
        { attempts: attempt, totalRetryDelay },
        'server',
        { code: networkCode },
      );
      const retryable = scope.options.retryable ? scope.options.retryable(failure) : NETWORK_ERROR_CODES.has(networkCode);
      if (!retryable || attempt >= maxAttempts) throw failure;
    }
    const delay = backoffMs(attempt, throttled);
    totalRetryDelay += delay;
    await sleep(delay);
  }
}

/**
 * Inside Lambda, the invocation's trace header travels with each call (unsigned), as the SDK's
 * recursion-detection middleware sends it: a function another one invokes (the MCP server's tool
 * calls) joins its caller's X-Ray trace, and Lambda's recursive-loop detection can see the chain.
 */
function withTraceHeader(headers: Record<string, string>): Record<string, string> {
  const trace = process.env._X_AMZN_TRACE_ID;
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME || !trace || Object.keys(headers).some((name) => name.toLowerCase() === 'x-amzn-trace-id')) return headers;
  return { ...headers, 'x-amzn-trace-id': trace };
}

/** Runs `call` through `middlewares` (first is outermost). */
export function withMiddlewares(middlewares: readonly AwsMiddleware[], call: AwsCall, last: () => Promise<AwsOutput<object>>): Promise<AwsOutput<object>> {
  const run = (index: number): Promise<AwsOutput<object>> => (index >= middlewares.length ? last() : middlewares[index](call, () => run(index + 1)));
  return run(0);
}

/**
 * The endpoint the AWS SDKs' configuration variables name for a service, `AWS_ENDPOINT_URL_<SERVICE>`
 * (SQS, SFN, KMS, SECRETS_MANAGER, BEDROCK_RUNTIME, DYNAMODB) and then `AWS_ENDPOINT_URL`: how local
 * stand-ins and the deploy rehearsal point a function elsewhere. Undefined on AWS (the regional one).
 */
export function endpointFromEnvironment(service: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL || undefined;
}

/** RFC 3986 encoding of a REST path label (a model ARN's `/` and `:`, a function name or ARN), as the SDKs encode one. */
export const encodePathLabel = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The regional endpoint of a service whose host is `<prefix>.<region>.amazonaws.com`. */
export function regionalEndpoint(prefix: string, region: string): string {
  return `https://${prefix}.${region}.amazonaws.com`;
}
