// defineWorker() turns a worker's plain async function into the Lambda handler its queue, state
// machine or schedule invokes, with the Powertools idioms the routes have (powertools() in
// functions/platform/middleware.ts): the Lambda context on every log line and, on Lambda (where
// something reads the EMF lines), the worker's outcome metric flushed after each invocation, plus a
// cold-start metric. The function's result and errors pass through untouched, so an SQS batch
// response, a state machine's payload and a failure that asks for a retry are exactly as it made them.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger, metrics, metricsEnabled } from '../platform/observability';

/**
 * The handler Lambda invokes. The context is optional for in-process callers (tests, scripts):
 * without one the middlewares see an empty context, as a plain call to the function would.
 */
export type WorkerHandler<Event, Result> = (event: Event, context?: Context) => Promise<Result>;

type WorkerMiddleware<Event, Result> = middy.MiddlewareObj<Event, Result, Error, Context>;

/**
 * Counts each invocation as Success or Error under the worker's name. Besides being worth having,
 * it gives every flush a metric: logMetrics warns on each invocation that records none.
 */
function invocationOutcome<Event, Result>(worker: string): WorkerMiddleware<Event, Result> {
  const record = (outcome: 'Success' | 'Error') => {
    metrics.addDimension('worker', worker);
    metrics.addMetric(outcome, MetricUnit.Count, 1);
  };
  return { after: () => record('Success'), onError: () => record('Error') };
}

function powertools<Event, Result>(worker: string): WorkerMiddleware<Event, Result>[] {
  const logContext: WorkerMiddleware<Event, Result> = injectLambdaContext(logger);
  if (!metricsEnabled) return [logContext];
  // After logMetrics, so that its after/onError (middy runs them in reverse) records before the flush.
  return [logContext, logMetrics(metrics, { captureColdStartMetric: true }), invocationOutcome(worker)];
}

export function defineWorker<Event, Result>(worker: string, work: (event: Event) => Promise<Result>): WorkerHandler<Event, Result> {
  // No early timeout: Lambda's own limit (and the state machine's task timeout) end a slow worker,
  // as they did before it was wrapped.
  const handler = middy<Event, Result, Error, Context>((event: Event) => work(event), { timeoutEarlyInMillis: 0 }).use(powertools<Event, Result>(worker));
  return (event, context) => handler(event, context ?? ({} as Context));
}
