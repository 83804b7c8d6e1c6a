// The WebhookDelivery and ItemRefresh state machines as Amazon States Language: ONE definition of
// each, used by both runtimes. On AWS, lib/async-jobs-construct.ts passes the worker functions'
// ARNs (CloudFormation tokens) and deploys the result as the machine's definition; locally,
// functions/platform/local/workflows.ts passes placeholder ARNs (LOCAL_WORKER_ARNS) and runs the same
// JSON with aws-local-stepfunctions, mapping each placeholder to an in-process handler.
//
// Pure functions and plain data only: no CDK, no SDK, so the local server can import this cheaply.
//
// Every worker call is a `arn:aws:states:::lambda:invoke` Task whose Parameters are
// `{ FunctionName, Payload }`; the worker's return value arrives as `$.Payload` of the task result
// (the shape of a Lambda Invoke response), which ResultSelector reduces to what the machine needs.
import { DeliveryAttemptInput, DeliveryRef, RefreshExecutionInput, WEBHOOK_ATTEMPT_TIMEOUT_MS } from '../contracts/worker-messages';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from './webhook-schedule';

/** Amazon States Language, as JSON. Typed loosely: the validators and runtimes check the shape. */
export interface AslDefinition {
  Comment?: string;
  StartAt: string;
  TimeoutSeconds?: number;
  States: Record<string, AslState>;
}
export type AslState = { Type: 'Task' | 'Wait' | 'Choice' | 'Succeed' | 'Fail' | 'Pass' } & Record<string, unknown>;

export const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';

/** The delivery worker's own (Lambda) timeout: one webhook POST (9 s) plus the worker's overhead. */
export const DELIVERY_WORKER_TIMEOUT_SECONDS = Math.ceil(WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000) + 1;
/**
 * The dispatch worker's own timeout. It makes the first attempt of every delivery of its SQS batch
 * (up to 10 events, each to every endpoint of its environment) all at once, so the batch takes one
 * POST's limit, not one per endpoint; the rest is room for the calls around the POSTs (two Queries,
 * KMS Decrypt, one write per endpoint, StartExecution for failed attempts) and their SDK retries.
 * The webhook-events queue's visibility timeout is six times this (lib/async-jobs-construct.ts).
 */
export const DISPATCH_WORKER_TIMEOUT_SECONDS = 60;
/**
 * The task's limit on one delivery attempt. Comfortably above the worker's own timeout (a cold start's
 * init phase, up to 10 s, comes on top of it), so on AWS a slow attempt ends as the worker's own
 * timeout (an error the Catch records) rather than as a task timeout that abandons a POST still in
 * flight. Locally, where nothing else bounds a handler, it is the only limit.
 */
export const DELIVERY_ATTEMPT_TIMEOUT_SECONDS = 30;
/** The dead-letter worker's own timeout: it only writes one record. */
export const DEAD_LETTER_TIMEOUT_SECONDS = 10;
/** The dead-letter task's limit, above the worker's own timeout for the same reason as an attempt's. */
export const DEAD_LETTER_TASK_TIMEOUT_SECONDS = 30;
/** One item refresh (institution calls included). */
export const REFRESH_TIMEOUT_SECONDS = 120;

/** Error of the Fail state a WebhookDelivery execution ends in after its last failed attempt. */
export const WEBHOOK_UNDELIVERABLE = 'WebhookUndeliverable';
export const REFRESH_FAILED = 'ItemRefreshFailed';

/**
 * Errors of the Lambda service itself (throttling, a sandbox that failed to start), not of the
 * function: the invocation most likely never ran, so retrying it is safe. AWS recommends retrying
 * exactly these around every lambda:invoke task.
 */
export const LAMBDA_SERVICE_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/**
 * Lambda throttled the invocation: the worker never ran, so no POST was made. An attempt task retries
 * exactly this (with backoff) and keeps its attempt number, so throttling never uses up an attempt.
 * Other service errors are not retried inside an attempt: the worker may have run, and each attempt
 * is at most one POST.
 */
export const LAMBDA_THROTTLED = 'Lambda.TooManyRequestsException';
export const THROTTLE_RETRY = { ErrorEquals: [LAMBDA_THROTTLED], IntervalSeconds: 2, MaxAttempts: 5, BackoffRate: 2 };

/** Placeholder worker ARNs of the local runtime (any ARN-shaped string would do). */
export const LOCAL_WORKER_ARNS = {
  delivery: 'arn:aws:lambda:local:000000000000:function:webhook-delivery',
  deadLetter: 'arn:aws:lambda:local:000000000000:function:webhook-dead-letter',
  refresh: 'arn:aws:lambda:local:000000000000:function:item-refresh',
} as const;

/** State names, shared by the definitions, the local runner (wait overrides) and tests. */
export const NEXT_ATTEMPT_STATE = 'NextAttempt';
export const attemptState = (attempt: number) => `Attempt${attempt}`;
export const attemptCheckState = (attempt: number) => `Attempt${attempt}Delivered`;
export const waitState = (attempt: number) => `WaitBeforeAttempt${attempt}`;
export const RECORD_DEAD_LETTER_STATE = 'RecordDeadLetter';
export const REFRESH_STATE = 'Refresh';

/** The execution input's fields each attempt gets (its schema's, but the attempt number). */
const ATTEMPT_FIELDS = Object.keys(DeliveryAttemptInput.shape).filter((f) => f !== 'attempt');
/** Which delivery: what the dead letter gets. */
const DELIVERY_REF_FIELDS = Object.keys(DeliveryRef.shape);
const REFRESH_FIELDS = Object.keys(RefreshExecutionInput.shape);
const passThrough = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [`${f}.$`, `$.${f}`]));

export interface WebhookDeliveryArns {
  deliveryWorkerArn: string;
  deadLetterWorkerArn: string;
}

/**
 * Attempt n (1-based) runs WEBHOOK_RETRY_DELAYS_SECONDS[n-1] seconds after attempt n-1 failed (the
 * first at once). The execution begins after the attempts its input says were made already
 * (`attempts_made`): dispatch makes attempt 1 itself and starts an execution only when it failed,
 * which then begins with the wait before attempt 2; a replay begins with attempt 1. Each attempt
 * is one invocation of the delivery worker with the delivery, the body and `attempt: n`, retried
 * inside the task only when Lambda throttled it (the worker never ran), so each attempt is at most
 * one POST. A failure is anything but `{ delivered: true }`: a non-2xx status, a worker error or a
 * task timeout (caught and recorded in `$.outcome`). After the last failed attempt the dead-letter worker records the webhook (with
 * `attempts`) and the execution fails with WebhookUndeliverable. The execution input stays intact
 * throughout: results only ever land in `$.outcome`.
 */
export function webhookDeliveryAsl({ deliveryWorkerArn, deadLetterWorkerArn }: WebhookDeliveryArns): AslDefinition {
  const attempts = WEBHOOK_RETRY_DELAYS_SECONDS.length;
  const states: Record<string, AslState> = {};
  const entryOf = (attempt: number) => (WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1] > 0 ? waitState(attempt) : attemptState(attempt));
  const attemptsMade = (comparison: Record<string, number>) => ({
    And: [{ Variable: '$.attempts_made', IsPresent: true }, { Variable: '$.attempts_made', ...comparison }],
  });

  // One Choice (one state transition) picks where the execution begins.
  states[NEXT_ATTEMPT_STATE] = {
    Type: 'Choice',
    Comment: 'Begin after the attempts already made (attempts_made): dispatch makes the first one itself',
    Choices: [
      ...WEBHOOK_RETRY_DELAYS_SECONDS.slice(1).map((_, i) => ({ ...attemptsMade({ NumericEquals: i + 1 }), Next: entryOf(i + 2) })),
      { ...attemptsMade({ NumericGreaterThanEquals: attempts }), Next: RECORD_DEAD_LETTER_STATE },
    ],
    Default: entryOf(1),
  };

  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const delay = WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1];
    if (delay > 0) {
      states[waitState(attempt)] = { Type: 'Wait', Seconds: delay, Next: attemptState(attempt) };
    }
    states[attemptState(attempt)] = {
      Type: 'Task',
      Comment: `Delivery attempt ${attempt} of ${attempts}: one POST to the endpoint`,
      Resource: LAMBDA_INVOKE,
      Parameters: {
        FunctionName: deliveryWorkerArn,
        Payload: { ...passThrough(ATTEMPT_FIELDS), attempt },
      },
      TimeoutSeconds: DELIVERY_ATTEMPT_TIMEOUT_SECONDS,
      Retry: [THROTTLE_RETRY],
      ResultSelector: { 'delivered.$': '$.Payload.delivered', 'status.$': '$.Payload.status' },
      ResultPath: '$.outcome',
      // A worker error or a timeout is a failed attempt like a non-2xx answer.
      Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.outcome', Next: attemptCheckState(attempt) }],
      Next: attemptCheckState(attempt),
    };
    states[attemptCheckState(attempt)] = {
      Type: 'Choice',
      Choices: [
        {
          And: [
            { Variable: '$.outcome.delivered', IsPresent: true },
            { Variable: '$.outcome.delivered', BooleanEquals: true },
          ],
          Next: 'Delivered',
        },
      ],
      Default: attempt < attempts ? entryOf(attempt + 1) : RECORD_DEAD_LETTER_STATE,
    };
  }

  states[RECORD_DEAD_LETTER_STATE] = {
    Type: 'Task',
    Comment: 'Every attempt failed: record the webhook as undeliverable',
    Resource: LAMBDA_INVOKE,
    Parameters: {
      FunctionName: deadLetterWorkerArn,
      Payload: { ...passThrough(DELIVERY_REF_FIELDS), attempts },
    },
    TimeoutSeconds: DEAD_LETTER_TASK_TIMEOUT_SECONDS,
    Retry: [{ ErrorEquals: LAMBDA_SERVICE_ERRORS, IntervalSeconds: 2, MaxAttempts: 2, BackoffRate: 2 }],
    ResultPath: null,
    Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: null, Next: 'DeliveryFailed' }],
    Next: 'DeliveryFailed',
  };
  states.Delivered = { Type: 'Succeed' };
  states.DeliveryFailed = {
    Type: 'Fail',
    Error: WEBHOOK_UNDELIVERABLE,
    Cause: `No attempt of ${attempts} succeeded`,
  };

  return {
    Comment: `Deliver one webhook event to one endpoint: ${attempts} attempts after ${WEBHOOK_RETRY_DELAYS_SECONDS.join(', ')} s`,
    StartAt: NEXT_ATTEMPT_STATE,
    States: states,
  };
}

export interface ItemRefreshArns {
  refreshWorkerArn: string;
}

/**
 * One refresh of one item. Only errors of the Lambda service are retried (twice, with backoff);
 * an error of the worker itself fails the execution (the next scheduled or on-demand refresh tries
 * again; the worker is idempotent per item).
 */
export function itemRefreshAsl({ refreshWorkerArn }: ItemRefreshArns): AslDefinition {
  return {
    Comment: 'Refresh one item from its institution',
    StartAt: REFRESH_STATE,
    States: {
      [REFRESH_STATE]: {
        Type: 'Task',
        Resource: LAMBDA_INVOKE,
        Parameters: { FunctionName: refreshWorkerArn, Payload: passThrough(REFRESH_FIELDS) },
        TimeoutSeconds: REFRESH_TIMEOUT_SECONDS,
        Retry: [{ ErrorEquals: LAMBDA_SERVICE_ERRORS, IntervalSeconds: 2, MaxAttempts: 2, BackoffRate: 2 }],
        ResultPath: null,
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'RefreshFailed' }],
        Next: 'Refreshed',
      },
      Refreshed: { Type: 'Succeed' },
      RefreshFailed: { Type: 'Fail', Error: REFRESH_FAILED, Cause: 'The refresh worker failed' },
    },
  };
}
