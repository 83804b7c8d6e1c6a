// One function running another route's code in that route's own function: on AWS, the MCP server
// hands each tool call to the tool's route function (a synchronous Lambda invoke), so the MCP
// function's bundle carries the protocol and none of its fifteen tools' code (docs/architecture.md,
// "Surfaces that run other routes").
//
// The wire:
// - the caller sends an InlineInvocation: the route, the arguments, and the request the caller's own
//   middlewares already authenticated and metered (the key's AuthContext, request id, base URL and
//   the API Gateway event without its body and credentials);
// - the route's function (defineOperation, functions/platform/operation.ts) recognises it by its
//   marker, runs invokeRoute (the route's schema, access token, consent and code, exactly as inline)
//   and answers an InlineOutcome: the result, or the ApiError it raised (code, message, headers);
// - anything else that fails in the route's function (a bug, a timeout) reaches the caller as a
//   Lambda function error, which it treats as an internal error.
//
// Trust: an invocation's AuthContext is believed, so whoever may invoke a route's function may act
// as any tenant on that route. Hence: only the functions of ROUTE_INVOCATIONS' targets answer
// invocations at all (every other function is built with FC_BUNDLE_INLINE_CALLS=omit, which
// compiles the branch out, platform/bundled-sdks.ts); only a principal allowed lambda:InvokeFunction
// on such a function can send one (API Gateway only ever sends its proxy event, whose top level a
// client cannot shape); and the stack grants that to the MCP server's role alone, on its tools'
// functions alone (lib/api-grants.ts ROUTE_INVOCATIONS).
import { ApiError, ERRORS, type ErrorCode } from '../contracts/errors';
import type { AuthContext } from '../data/api-keys-repo';
import type * as LambdaModule from './aws/lambda';
import { endpointFromEnvironment } from './aws/aws-request';
import { notBundled } from './bundled-sdks';
import type { ApiEvent } from './middleware';
import { logger, tracer } from './observability';

/** `<route id>=<function name>` pairs, comma-separated: the functions this one may hand calls to (set by the stack). */
export const ROUTE_FUNCTIONS_ENV = 'FC_ROUTE_FUNCTIONS';

const INVOCATION_MARKER = 'fincoreInlineCall';
const OUTCOME_MARKER = 'fincoreInlineOutcome';

/** What the caller sends. */
export interface InlineInvocation {
  [INVOCATION_MARKER]: 1;
  routeId: string;
  auth: AuthContext;
  requestId: string;
  baseUrl: string;
  event: ApiEvent;
  args: unknown;
}

/** What the route's function answers. */
export type InlineOutcome =
  | { [OUTCOME_MARKER]: 1; result: unknown }
  | { [OUTCOME_MARKER]: 1; error: { code: string; message: string; headers: Record<string, string> } };

/** The call a caller hands over: its own, already authenticated and metered. */
export interface HandedCall {
  auth: AuthContext;
  requestId: string;
  baseUrl: string;
  event: ApiEvent;
  /** Epoch ms by which the caller's own invocation ends (Lambda's remaining time), if known. */
  deadline?: number;
}

export function isInlineInvocation(event: unknown): event is InlineInvocation {
  return typeof event === 'object' && event !== null && (event as Record<string, unknown>)[INVOCATION_MARKER] === 1;
}

export const resultOutcome = (result: unknown): InlineOutcome => ({ [OUTCOME_MARKER]: 1, result });
export const errorOutcome = (err: ApiError): InlineOutcome => ({ [OUTCOME_MARKER]: 1, error: { code: err.code, message: err.message, headers: err.headers } });

/**
 * The only headers handed over: what describes the client, never what authenticates it (the key was
 * checked by the caller; a cookie, a Plaid secret or any custom credential header stays behind).
 */
const HANDED_HEADERS = new Set(['host', 'user-agent', 'accept-language', 'x-forwarded-for', 'x-forwarded-proto']);

/**
 * The event as the route's function gets it: no body (the arguments travel on their own, and a body
 * may be up to the caller's size limit) and only the headers of HANDED_HEADERS.
 */
function handedEvent(event: ApiEvent): ApiEvent {
  const keep = <V>(headers: Record<string, V> | null | undefined) =>
    Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => HANDED_HEADERS.has(name.toLowerCase())));
  return { ...event, body: null, isBase64Encoded: false, headers: keep(event.headers), multiValueHeaders: keep(event.multiValueHeaders) } as ApiEvent;
}

/**
 * Time kept back from the caller's deadline: an invoke still running then is abandoned, so the caller
 * answers its own error (and writes its request log) before Lambda stops it.
 */
const DEADLINE_RESERVE_MS = 1_000;

/** The route -> function name map of ROUTE_FUNCTIONS_ENV, or undefined when the variable is unset. */
export function routeFunctionNames(env: NodeJS.ProcessEnv = process.env): ReadonlyMap<string, string> | undefined {
  const value = env[ROUTE_FUNCTIONS_ENV];
  if (!value) return undefined;
  const names = new Map<string, string>();
  for (const pair of value.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1) throw new Error(`${ROUTE_FUNCTIONS_ENV}: "${pair}" is not <route id>=<function name>`);
    names.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return names;
}

// The client's module behind its build-time switch (bundled-sdks.ts): only a function granted an
// invoke carries it.
let client: LambdaModule.LambdaClient | undefined;
function lambdaClient(region: string): LambdaModule.LambdaClient {
  if (!client) {
    /* eslint-disable-next-line @typescript-eslint/no-require-imports */
    const lambda = process.env.FC_BUNDLE_LAMBDA === 'omit' ? notBundled('lambda') : (require('./aws/lambda') as typeof LambdaModule);
    const endpoint = endpointFromEnvironment('LAMBDA');
    client = tracer.traceAwsCalls(
      lambda.createLambdaClient({
        region,
        ...(endpoint ? { endpoint } : {}),
        // A tool may run as long as its function's own timeout (an AI route waits on the model): no
        // attempt is cut short here, the caller's deadline bounds the call (invokeRouteFunction).
        // Only failures after which Lambda did not run the function are retried (invokeRetryable).
        attemptTimeoutMs: 15 * 60_000,
      }),
    );
  }
  return client;
}

/**
 * Runs `routeId`'s code in its own function for a call this function has authenticated and metered:
 * resolves to what the route answered, throws the ApiError it raised, and throws a plain Error when
 * the function failed otherwise (the caller's internal error).
 */
export async function invokeRouteFunction(routeId: string, call: HandedCall, args: unknown, region: string, env: NodeJS.ProcessEnv = process.env): Promise<unknown> {
  const functionName = routeFunctionNames(env)?.get(routeId);
  if (!functionName) throw new Error(`${ROUTE_FUNCTIONS_ENV} names no function for ${routeId}`);
  const invocation: InlineInvocation = {
    [INVOCATION_MARKER]: 1,
    routeId,
    auth: call.auth,
    requestId: call.requestId,
    baseUrl: call.baseUrl,
    event: handedEvent(call.event),
    args,
  };
  const signal = call.deadline === undefined ? undefined : AbortSignal.timeout(Math.max(1, call.deadline - Date.now() - DEADLINE_RESERVE_MS));
  const { $metadata: _metadata, ...answer } = await lambdaClient(region).invoke({ FunctionName: functionName, Payload: JSON.stringify(invocation) }, signal ? { signal } : {});
  if (answer[OUTCOME_MARKER] !== 1) {
    // A function error: the runtime's { errorType, errorMessage } (its stack stays in that function's log).
    logger.error('route function failed', { route: routeId, function: functionName, error_type: String(answer.errorType ?? 'unknown') });
    throw new Error(`${routeId}'s function failed: ${String(answer.errorType ?? 'no outcome in its answer')}`);
  }
  const outcome = answer as InlineOutcome;
  if ('error' in outcome) {
    const code = outcome.error.code;
    if (!Object.hasOwn(ERRORS, code)) throw new Error(`${routeId}'s function answered an unknown error code ${code}`);
    throw new ApiError(code as ErrorCode, outcome.error.message, outcome.error.headers);
  }
  return outcome.result;
}
