// Every log line written while a request is served carries that request's id, wherever in the call
// it is written and after any await, with many requests in flight in one process (the local server).
import type { Context } from 'aws-lambda';
import { apiEvent } from '../support/api-event';
import { discoveryLlms } from '../../functions/contracts/routes';
import type * as ObservabilityModule from '../../functions/platform/observability';
import type * as OperationModule from '../../functions/platform/operation';
import type * as RuntimeModule from '../../functions/platform/runtime';

const CONCURRENT_REQUESTS = 24;


/** As the local server builds it: the Lambda request id is the request's id. */
function contextFor(requestId: string): Context {
  return { functionName: 'discovery-llms', awsRequestId: requestId, invokedFunctionArn: 'arn:local', memoryLimitInMB: '512', functionVersion: '$LATEST', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
}

/** A promise that resolves once `count` callers wait on it: every request is in flight at once. */
function barrier(count: number): () => Promise<void> {
  let waiting = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    waiting += 1;
    if (waiting === count) release();
    return all;
  };
}

// The logger reads its level once, at construction, and Powertools resets it to that level at every
// invocation: load the modules afresh with INFO on (the test environment silences logs).
let logger: typeof ObservabilityModule.logger;
let defineOperation: typeof OperationModule.defineOperation;
beforeAll(() => {
  const levelBefore = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports -- fresh module instances with the level above */
    logger = (require('../../functions/platform/observability') as typeof ObservabilityModule).logger;
    defineOperation = (require('../../functions/platform/operation') as typeof OperationModule).defineOperation;
    const { configureRuntime, createDeps } = require('../../functions/platform/runtime') as typeof RuntimeModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    // A public document touches no table: the endpoint is never dialled.
    configureRuntime(createDeps({ tableName: 'unused', stage: 'local', region: 'us-east-1', dynamodbEndpoint: 'http://127.0.0.1:9' }));
  });
  process.env.POWERTOOLS_LOG_LEVEL = levelBefore;
});

describe('per-request log context', () => {
  let written: string[];

  beforeEach(() => {
    written = [];
    // Powertools writes INFO to stdout and WARN and ERROR to stderr.
    for (const stream of [process.stdout, process.stderr]) {
      jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    }
  });

  afterEach(() => jest.restoreAllMocks());

  it(`stamps every line of ${CONCURRENT_REQUESTS} concurrent requests with its own request id, including lines logged deep in the call after awaits`, async () => {
    const allInFlight = barrier(CONCURRENT_REQUESTS);
    // The handler stands for app and data code: it logs through the shared `logger` with no request
    // id of its own, before and after yielding to the other requests.
    const handler = defineOperation(discoveryLlms, async ({ requestId }) => {
      logger.info('deep: before the await', { expected_request_id: requestId });
      await allInFlight();
      await new Promise((resolve) => setImmediate(resolve));
      logger.warn('deep: after the await', { expected_request_id: requestId });
      return 'ok';
    });
    const ids = Array.from({ length: CONCURRENT_REQUESTS }, (_, i) => `req_log_${i}`);
    const responses = await Promise.all(ids.map((id) => handler(apiEvent('GET', '/llms.txt', { headers: { Host: 'localhost' }, requestId: id }), contextFor(id))));
    expect(responses.map((r) => r.headers?.['X-Request-Id'])).toEqual(ids);

    const lines = written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const deep = lines.filter((l) => typeof l.message === 'string' && l.message.startsWith('deep:'));
    expect(deep).toHaveLength(CONCURRENT_REQUESTS * 2);
    for (const line of deep) {
      expect({ message: line.message, request_id: line.request_id, function_request_id: line.function_request_id }).toEqual({
        message: line.message,
        request_id: line.expected_request_id,
        function_request_id: line.expected_request_id,
      });
    }
    const access = lines.filter((l) => l.message === 'request');
    expect(access.map((l) => l.request_id).sort()).toEqual([...ids].sort());
    for (const line of access) expect(line.function_request_id).toBe(line.request_id);
  });

  it('writes without a request id outside any request', () => {
    logger.info('outside any request');
    const line = JSON.parse(written.join('').trim()) as Record<string, unknown>;
    expect(line.message).toBe('outside any request');
    expect(line.request_id).toBeUndefined();
  });
});
