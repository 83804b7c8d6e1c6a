// On Lambda, an answered request publishes a custom metric only when it failed: requests, latency and
// cold starts per route are the route function's free Lambda metrics. ServerError carries the route;
// ClientError is one series for the whole API. Workers publish Error only.
import type { Context } from 'aws-lambda';
import { apiEvent } from '../support/api-event';
import type * as ErrorsModule from '../../functions/contracts/errors';
import { discoveryLlms } from '../../functions/contracts/routes';
import type * as ObservabilityModule from '../../functions/platform/observability';
import type * as OperationModule from '../../functions/platform/operation';
import type * as RuntimeModule from '../../functions/platform/runtime';
import type * as DefineWorkerModule from '../../functions/workers/define-worker';

const context = { functionName: 'fincore-route', awsRequestId: 'req_metrics', invokedFunctionArn: 'arn:local', memoryLimitInMB: '512', functionVersion: '$LATEST', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

let observability: typeof ObservabilityModule;
let defineOperation: typeof OperationModule.defineOperation;
let defineWorker: typeof DefineWorkerModule.defineWorker;
let fail: typeof ErrorsModule.fail;
const published: Array<Record<string, unknown>> = [];

beforeAll(() => {
  const saved = process.env.AWS_LAMBDA_FUNCTION_NAME;
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'fincore-route';
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports -- fresh module instances that see a Lambda environment */
    observability = require('../../functions/platform/observability');
    defineOperation = (require('../../functions/platform/operation') as typeof OperationModule).defineOperation;
    defineWorker = (require('../../functions/workers/define-worker') as typeof DefineWorkerModule).defineWorker;
    fail = (require('../../functions/contracts/errors') as typeof ErrorsModule).fail;
    const { configureRuntime, createDeps } = require('../../functions/platform/runtime') as typeof RuntimeModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    configureRuntime(createDeps({ tableName: 'unused', stage: 'local', region: 'us-east-1', dynamodbEndpoint: 'http://127.0.0.1:9' }));
  });
  if (saved === undefined) delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  else process.env.AWS_LAMBDA_FUNCTION_NAME = saved;
});

beforeEach(() => {
  published.length = 0;
  const { metrics } = observability;
  jest.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
    published.push(metrics.serializeMetrics() as unknown as Record<string, unknown>);
    metrics.clearMetrics();
    metrics.clearDimensions();
    return metrics;
  });
  jest.spyOn(metrics, 'captureColdStartMetric');
});
afterEach(() => jest.restoreAllMocks());

const request = () => apiEvent('GET', '/llms.txt', { headers: { Host: 'localhost' }, requestId: 'req_metrics' });

it('is on, as on Lambda', () => {
  expect(observability.metricsEnabled).toBe(true);
});

it('publishes nothing for a successful request, and no cold-start metric', async () => {
  const handler = defineOperation(discoveryLlms, async () => 'ok');
  expect((await handler(request(), context)).statusCode).toBe(200);
  expect(published).toEqual([]);
  expect(observability.metrics.captureColdStartMetric).not.toHaveBeenCalled();
});

it('publishes ClientError without a route dimension for a 4xx, and ServerError with the route for a 5xx', async () => {
  const refused = defineOperation(discoveryLlms, async () => fail('institution_not_found'));
  const broken = defineOperation(discoveryLlms, async () => {
    throw new Error('broken for the test');
  });
  expect((await refused(request(), context)).statusCode).toBe(404);
  expect((await broken(request(), context)).statusCode).toBe(500);
  expect(published).toHaveLength(2);
  expect(published[0]).toMatchObject({ ClientError: 1 });
  expect(published[0]).not.toHaveProperty('route');
  expect(published[1]).toMatchObject({ ServerError: 1, route: 'discovery.llms' });
  for (const line of published) expect(Object.keys(line)).not.toEqual(expect.arrayContaining(['Latency', 'Success']));
});

it('has a worker publish Error with its name when it fails, and nothing when it succeeds', async () => {
  const worker = defineWorker('metrics-test', async (event: { ok: boolean }) => {
    if (!event.ok) throw new Error('failed for the test');
    return 'done';
  });
  await expect(worker({ ok: true }, context)).resolves.toBe('done');
  expect(published).toEqual([]);
  await expect(worker({ ok: false }, context)).rejects.toThrow('failed for the test');
  expect(published).toEqual([expect.objectContaining({ worker: 'metrics-test', Error: 1 })]);
});
