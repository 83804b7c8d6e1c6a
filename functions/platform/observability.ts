// Structured logs (Powertools Logger), metrics (Powertools Metrics, EMF) and traces (X-Ray
// subsegments per AWS call, aws-call-tracing.ts). Secrets never reach a log line: handlers log no
// bodies or headers, and the formatter masks anything shaped like a key or token as a second line of defence.
//
// Every line written while a request is served carries that request's id (and its Lambda context),
// wherever in the call it is written: the operation pipeline runs each request inside its own
// AsyncLocalStorage scope holding a child logger, and the exported `logger` writes through the
// child of the scope it is called in. Requests served concurrently by one process (the local
// server) therefore never stamp each other's ids; outside any request (workers, start-up) the
// exported logger writes as itself.
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions, LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { AsyncLocalStorage } from 'node:async_hooks';

/** Matches every secret we mint: secret keys, access, public and link tokens, webhook secrets. */
export const SECRET_PATTERN = /(?:fc_(?:sk_(?:test|live)|at|pub|link)|whsec)_[A-Za-z0-9]+/g;

export function redactSecrets(text: string): string {
  return text.replace(SECRET_PATTERN, (match) => `${match.slice(0, match.lastIndexOf('_') + 1)}[redacted]`);
}

type LambdaContext = Parameters<Logger['addContext']>[0];

interface RequestScope {
  requestId: string;
  logger: Logger;
}

const requestScopes = new AsyncLocalStorage<RequestScope>();

/** Writes through the current request's child logger when there is one (see the header). */
class RequestScopedLogger extends Logger {
  /** Children are scoped loggers too, so a child writes as itself (its scope's logger is itself). */
  protected override createLogger(options?: ConstructorOptions): Logger {
    return new RequestScopedLogger(options);
  }

  protected override processLogItem(logLevel: number, input: LogItemMessage, extraInput: LogItemExtraInput): void {
    const scoped = requestScopes.getStore()?.logger;
    if (scoped instanceof RequestScopedLogger && scoped !== this) return scoped.processLogItem(logLevel, input, extraInput);
    super.processLogItem(logLevel, input, extraInput);
  }

  /** injectLambdaContext() calls this on the shared logger: the context belongs to the request's child. */
  public override addContext(context: LambdaContext): void {
    const scoped = requestScopes.getStore()?.logger;
    if (scoped && scoped !== this) return scoped.addContext(context);
    super.addContext(context);
  }
}

export const logger: Logger = new RequestScopedLogger({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fincore',
  jsonReplacerFn: (_key: string, value: unknown) => (typeof value === 'string' ? redactSecrets(value) : value),
});

/**
 * Runs `serve` (one request, start to finish) in its own log scope: every line `logger` writes
 * inside it, from any layer and after any await, carries `request_id`.
 */
export function inRequestScope<T>(requestId: string, serve: () => T): T {
  return requestScopes.run({ requestId, logger: logger.createChild({ persistentKeys: { request_id: requestId } }) }, serve);
}

/** The id of the request whose scope this code runs in, if any. */
export function currentRequestId(): string | undefined {
  return requestScopes.getStore()?.requestId;
}

// Outside Lambda (local server, tests, benches) nothing reads EMF lines, so metrics stay off there.
export const metricsEnabled =
  Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) && process.env.POWERTOOLS_METRICS_DISABLED !== 'true';

export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'Fincore',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fincore',
});

/**
 * Every AWS client (functions/platform/aws/) is built through tracer.traceAwsCalls, so DynamoDB, KMS,
 * SQS and Step Functions calls appear as subsegments of the function's trace (aws-call-tracing.ts). Outside a
 * sampled Lambda invocation (local server, tests, benches) it sends nothing.
 */
export { tracer } from './aws-call-tracing';
