// Worker inputs are parsed with their contract schemas: a malformed SQS body, Step Functions input
// or schedule event fails loudly (a batch item failure, or a throw) and never reaches the use case.
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as ItemRefreshWorker from '../../functions/workers/item-refresh';
import type * as ScheduledRefreshWorker from '../../functions/workers/scheduled-refresh';
import type * as DeadLetterWorker from '../../functions/workers/webhook-dead-letter';
import type * as DeliveryWorker from '../../functions/workers/webhook-delivery';
import type * as DispatchWorker from '../../functions/workers/webhook-dispatch';
import {
  DeadLetterInput,
  DeliveryAttemptInput,
  EventMessage,
  MalformedWorkerMessage,
  parseQueueBody,
  parseWorkerMessage,
  RefreshExecutionInput,
} from '../../functions/contracts/worker-messages';
import type * as Observability from '../../functions/platform/observability';
import { logger } from '../../functions/platform/observability';
import { itemRefreshAsl, RECORD_DEAD_LETTER_STATE, REFRESH_STATE, attemptState, webhookDeliveryAsl } from '../../functions/workers/state-machines';

const dispatchEvent = jest.fn(async (_deps: unknown, _eventId: string) => 1);
const deliverAttempt = jest.fn(async (_deps: unknown, _input: unknown) => ({ delivered: true, status: 200 }));
const deadLetter = jest.fn(async (_deps: unknown, _input: unknown) => undefined);
const sweepOutbox = jest.fn(async (_deps: unknown) => 0);
const refreshItem = jest.fn(async (_deps: unknown, _input: unknown) => ({ refreshed: true }));
const sweepDueRefreshes = jest.fn(async (_deps: unknown) => ({ due: 0, enqueued: 0, refused: 0 }));
const reapAbandonedConnections = jest.fn(async (_deps: unknown) => 0);
const requeueDueRemovals = jest.fn(async (_deps: unknown) => 0);

jest.mock('../../functions/app/webhooks', () => ({
  dispatchEvent: (deps: unknown, eventId: string) => dispatchEvent(deps, eventId),
  deliverAttempt: (deps: unknown, input: unknown) => deliverAttempt(deps, input),
  deadLetter: (deps: unknown, input: unknown) => deadLetter(deps, input),
  sweepOutbox: (deps: unknown) => sweepOutbox(deps),
}));
jest.mock('../../functions/app/link', () => ({ reapAbandonedConnections: (deps: unknown) => reapAbandonedConnections(deps) }));
jest.mock('../../functions/app/lifecycle', () => ({
  refreshItem: (deps: unknown, input: unknown) => refreshItem(deps, input),
  sweepDueRefreshes: (deps: unknown) => sweepDueRefreshes(deps),
  requeueDueRemovals: (deps: unknown) => requeueDueRemovals(deps),
}));
jest.mock('../../functions/platform/runtime', () => ({ runtime: () => ({ config: { tableName: 't' } }) }));

// After the mocks: the workers bind to the mocked modules.
/* eslint-disable @typescript-eslint/no-require-imports */
const dispatch = require('../../functions/workers/webhook-dispatch') as typeof DispatchWorker;
const refresh = require('../../functions/workers/item-refresh') as typeof ItemRefreshWorker;
const delivery = require('../../functions/workers/webhook-delivery') as typeof DeliveryWorker;
const deadLetterWorker = require('../../functions/workers/webhook-dead-letter') as typeof DeadLetterWorker;
const scheduled = require('../../functions/workers/scheduled-refresh') as typeof ScheduledRefreshWorker;
/* eslint-enable @typescript-eslint/no-require-imports */

const record = (messageId: string, body: string) => ({ messageId, body }) as SQSRecord;
const sqs = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

const execution = {
  delivery_id: 'evt_1:whep_1:0',
  event_id: 'evt_1',
  endpoint_id: 'whep_1',
  application_id: 'app_1',
  environment: 'test',
};
const attempt = { ...execution, attempt: 1 };

beforeEach(() => jest.clearAllMocks());
afterEach(() => jest.restoreAllMocks());

describe('worker message schemas', () => {
  it('parse well-formed messages into their typed shape', () => {
    expect(parseQueueBody(EventMessage, 'event message', '{"event_id":"evt_1"}')).toEqual({ event_id: 'evt_1' });
    expect(parseWorkerMessage(DeliveryAttemptInput, 'attempt', attempt)).toEqual(attempt);
    expect(parseWorkerMessage(RefreshExecutionInput, 'refresh', { item_id: 'item_1', reason: 'scheduled' })).toEqual({ item_id: 'item_1', reason: 'scheduled' });
  });

  it('refuse malformed ones with an error naming the message and the field', () => {
    expect(() => parseQueueBody(EventMessage, 'event message', 'not json')).toThrow(new MalformedWorkerMessage('event message', null));
    expect(() => parseQueueBody(EventMessage, 'event message', '{"eventId":"evt_1"}')).toThrow(/malformed event message: .*event_id/);
    expect(() => parseWorkerMessage(DeliveryAttemptInput, 'attempt', { ...attempt, environment: 'prod' })).toThrow(/environment/);
    expect(() => parseWorkerMessage(DeliveryAttemptInput, 'attempt', { ...attempt, attempt: 0 })).toThrow(/attempt/);
    expect(() => parseWorkerMessage(RefreshExecutionInput, 'refresh', { item_id: 'item_1', reason: 'because' })).toThrow(/reason/);
  });
});

describe('the webhook dispatch worker', () => {
  it('dispatches good messages and reports each malformed one as a batch item failure', async () => {
    const result = await dispatch.handler(sqs(record('m1', '{"event_id":"evt_1"}'), record('m2', '{"event":"evt_2"}'), record('m3', '{'), record('m4', '{"event_id":"evt_4"}')));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }]);
    expect(dispatchEvent.mock.calls.map(([, id]) => id)).toEqual(['evt_1', 'evt_4']);
  });

  it('dispatches the events of a batch all at once (the batch takes one first attempt, not one per event), and reports only the ones that did not finish', async () => {
    const ids = ['evt_1', 'evt_2', 'evt_3'];
    let allStarted!: () => void;
    const started = new Promise<void>((resolve) => (allStarted = resolve));
    dispatchEvent.mockImplementation(async (_deps, eventId) => {
      // Each dispatch holds until every one of the batch has begun: one at a time would never finish.
      if (dispatchEvent.mock.calls.length === ids.length) allStarted();
      await started;
      if (eventId === 'evt_2') throw new Error('StartExecution throttled');
      return 1;
    });
    const result = await dispatch.handler(sqs(...ids.map((id, i) => record(`m${i + 1}`, JSON.stringify({ event_id: id })))));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }]);
    expect(dispatchEvent.mock.calls.map(([, id]) => id)).toEqual(ids);
  });
});

describe('the item refresh worker', () => {
  it('refreshes from a queue message and from a state machine input', async () => {
    await refresh.handler(sqs(record('m1', '{"item_id":"item_1","reason":"on_demand"}')));
    await refresh.handler({ item_id: 'item_2', reason: 'scheduled' });
    expect(refreshItem.mock.calls.map(([, input]) => input)).toEqual([
      { item_id: 'item_1', reason: 'on_demand' },
      { item_id: 'item_2', reason: 'scheduled' },
    ]);
  });

  it('throws on a malformed message (the queue retries it, then dead-letters it) and refreshes nothing', async () => {
    await expect(refresh.handler(sqs(record('m1', '{"item_id":"item_1","reason":"on_demand"}'), record('m2', '{"item":"x"}')))).rejects.toThrow(MalformedWorkerMessage);
    await expect(refresh.handler({ item_id: 42 })).rejects.toThrow(/item_id/);
    expect(refreshItem).not.toHaveBeenCalled();
  });
});

describe('the delivery workers', () => {
  it('pass a well-formed input on', async () => {
    await expect(delivery.handler(attempt)).resolves.toEqual({ delivered: true, status: 200 });
    await expect(deadLetterWorker.handler({ ...execution, attempts: 5 })).resolves.toEqual({ recorded: true });
    expect(deliverAttempt).toHaveBeenCalledWith(expect.anything(), attempt);
    expect(deadLetter).toHaveBeenCalledWith(expect.anything(), { ...execution, attempts: 5 });
  });

  it('throw on a malformed input, which fails the attempt or the execution', async () => {
    await expect(delivery.handler({ ...attempt, attempt: 'one' })).rejects.toThrow(MalformedWorkerMessage);
    await expect(deadLetterWorker.handler({ delivery_id: 'evt_1:whep_1:0' })).rejects.toThrow(MalformedWorkerMessage);
    expect(deliverAttempt).not.toHaveBeenCalled();
    expect(deadLetter).not.toHaveBeenCalled();
  });
});

describe('the scheduled refresh worker', () => {
  const scheduleEvent = { version: '0', id: 'x', 'detail-type': 'Scheduled Event', source: 'aws.events', time: '2026-07-01T00:00:00Z', resources: [], detail: {} };

  it('runs on the EventBridge schedule event', async () => {
    await expect(scheduled.handler(scheduleEvent)).resolves.toEqual({ enqueued: 0, republished: 0, reaped: 0, purges: 0 });
    expect(sweepOutbox).toHaveBeenCalledTimes(1);
    expect(reapAbandonedConnections).toHaveBeenCalledTimes(1);
    expect(requeueDueRemovals).toHaveBeenCalledTimes(1);
  });

  it('refuses any other invocation before doing any work', async () => {
    await expect(scheduled.handler({})).rejects.toThrow(MalformedWorkerMessage);
    await expect(scheduled.handler({ ...scheduleEvent, source: 'custom' })).rejects.toThrow(/source/);
    expect(sweepOutbox).not.toHaveBeenCalled();
    expect(sweepDueRefreshes).not.toHaveBeenCalled();
  });

  it('queues the due refreshes through the refresh-due sweep and reports how many it queued', async () => {
    // The sweep itself (index reads, batches, claims) is tested against DynamoDB Local: test/handlers/refresh-due.test.ts.
    sweepDueRefreshes.mockResolvedValueOnce({ due: 4, enqueued: 3, refused: 1 });
    await expect(scheduled.handler(scheduleEvent)).resolves.toEqual({ enqueued: 3, republished: 0, reaped: 0, purges: 0 });
    expect(sweepDueRefreshes).toHaveBeenCalledTimes(1);
  });
});

describe('every worker handler', () => {
  const scheduleEvent = { version: '0', id: 'x', 'detail-type': 'Scheduled Event', source: 'aws.events', time: '2026-07-01T00:00:00Z', resources: [], detail: {} };
  const lambdaContext = {
    functionName: 'fincore-worker',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:fincore-worker',
    memoryLimitInMB: '256',
    awsRequestId: 'req-worker-1',
    getRemainingTimeInMillis: () => 60_000,
  } as unknown as Context;

  it('puts the Lambda context on the log lines and returns exactly what the worker returns', async () => {
    const addContext = jest.spyOn(logger, 'addContext');
    await expect(dispatch.handler(sqs(record('m1', '{"event_id":"evt_1"}'), record('m2', '{')), lambdaContext)).resolves.toEqual({
      batchItemFailures: [{ itemIdentifier: 'm2' }],
    });
    await expect(refresh.handler({ item_id: 'item_1', reason: 'scheduled' }, lambdaContext)).resolves.toEqual({ refreshed: true });
    await expect(delivery.handler(attempt, lambdaContext)).resolves.toEqual({ delivered: true, status: 200 });
    await expect(deadLetterWorker.handler({ ...execution, attempts: 5 }, lambdaContext)).resolves.toEqual({ recorded: true });
    await expect(scheduled.handler(scheduleEvent, lambdaContext)).resolves.toEqual({ enqueued: 0, republished: 0, reaped: 0, purges: 0 });
    expect(addContext).toHaveBeenCalledTimes(5);
    for (const [context] of addContext.mock.calls) expect(context).toBe(lambdaContext);
  });

  it("throws the worker's own error, with a Lambda context or without one", async () => {
    const failure = new Error('institution down');
    refreshItem.mockRejectedValueOnce(failure).mockRejectedValueOnce(failure);
    await expect(refresh.handler({ item_id: 'item_1', reason: 'on_demand' }, lambdaContext)).rejects.toBe(failure);
    await expect(refresh.handler({ item_id: 'item_1', reason: 'on_demand' })).rejects.toBe(failure);
  });

  it('on Lambda, publishes an Error metric for a failed invocation and nothing for a successful one', async () => {
    const saved = process.env.AWS_LAMBDA_FUNCTION_NAME;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'fincore-worker';
    try {
      let worker!: typeof DeliveryWorker;
      let observability!: typeof Observability;
      jest.isolateModules(() => {
        /* eslint-disable @typescript-eslint/no-require-imports */
        observability = require('../../functions/platform/observability');
        worker = require('../../functions/workers/webhook-delivery');
        /* eslint-enable @typescript-eslint/no-require-imports */
      });
      expect(observability.metricsEnabled).toBe(true);
      const published: unknown[] = [];
      const { metrics } = observability;
      jest.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
        published.push(metrics.serializeMetrics());
        metrics.clearMetrics();
        metrics.clearDimensions();
        return metrics;
      });
      await expect(worker.handler(attempt, lambdaContext)).resolves.toEqual({ delivered: true, status: 200 });
      expect(published).toEqual([]);
      await expect(worker.handler({ ...attempt, attempt: 0 }, lambdaContext)).rejects.toThrow(/malformed delivery attempt input/);
      expect(published).toEqual([expect.objectContaining({ worker: 'webhook-delivery', Error: 1 })]);
    } finally {
      if (saved === undefined) delete process.env.AWS_LAMBDA_FUNCTION_NAME;
      else process.env.AWS_LAMBDA_FUNCTION_NAME = saved;
    }
  });
});

describe('the worker modules', () => {
  it('reach storage only through the data layer: none imports the AWS SDK itself', () => {
    const dir = join(__dirname, '../../functions/workers');
    const sdkImports = readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from '@aws-sdk\//.test(readFileSync(join(dir, file), 'utf8')));
    expect(sdkImports).toEqual([]);
  });
});

describe('the state machines', () => {
  const asl = { ...webhookDeliveryAsl({ deliveryWorkerArn: 'delivery', deadLetterWorkerArn: 'dead-letter' }).States, ...itemRefreshAsl({ refreshWorkerArn: 'refresh' }).States };
  const payloadFields = (state: string) => Object.keys((asl[state].Parameters as { Payload: object }).Payload).map((field) => field.replace(/\.\$$/, ''));

  it('hand each worker every field of its contract schema, no more and no fewer', () => {
    expect(payloadFields(attemptState(1)).sort()).toEqual(Object.keys(DeliveryAttemptInput.shape).sort());
    expect(payloadFields(RECORD_DEAD_LETTER_STATE).sort()).toEqual(Object.keys(DeadLetterInput.shape).sort());
    expect(payloadFields(REFRESH_STATE).sort()).toEqual(Object.keys(RefreshExecutionInput.shape).sort());
  });
});
