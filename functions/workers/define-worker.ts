// defineWorker() turns a worker's plain async function into the Lambda handler its queue, state
// machine or schedule invokes, with the Powertools idioms the routes have (powertools() in
// functions/platform/middleware.ts): the Lambda context on every log line and, on Lambda (where
// something reads the EMF lines), the worker's outcome metric flushed after each invocation, plus a
// cold-start metric. The function's result and errors pass through untouched, so an SQS batch
// response, a state machine's payload and a failure that asks for a retry are exactly as it made them.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
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
 * Counts a failed invocation as Error under the worker's name, published at once. Successes are not
 * counted: the function's own Lambda metrics (Invocations, Errors, Duration) are free and per
 * function, and a custom series costs 0.30 USD a month each, so only what Lambda cannot see is worth
 * one (a failure the retry or the dead-letter path absorbs). Cold starts are in the REPORT lines
 * (Init Duration) and the X-Ray traces. An invocation that records nothing publishes nothing.
 */
function failureCount<Event, Result>(worker: string): WorkerMiddleware<Event, Result> {
  return {
    onError: () => {
      metrics.addDimension('worker', worker);
      metrics.addMetric('Error', MetricUnit.Count, 1);
      metrics.publishStoredMetrics();
    },
  };
}

function powertools<Event, Result>(worker: string): WorkerMiddleware<Event, Result>[] {
  const logContext: WorkerMiddleware<Event, Result> = injectLambdaContext(logger);
  return metricsEnabled ? [logContext, failureCount(worker)] : [logContext];
}

export function defineWorker<Event, Result>(worker: string, work: (event: Event) => Promise<Result>): WorkerHandler<Event, Result> {
  // No early timeout: Lambda's own limit (and the state machine's task timeout) end a slow worker,
  // as they did before it was wrapped.
  const handler = middy<Event, Result, Error, Context>((event: Event) => work(event), { timeoutEarlyInMillis: 0 }).use(powertools<Event, Result>(worker));
  return (event, context) => handler(event, context ?? ({} as Context));
}
