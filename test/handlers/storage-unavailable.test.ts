// When DynamoDB cannot serve (connection refused: the local engine died; a full disk), requests
// answer 503 storage_unavailable with Retry-After and one log line naming the cause, not a 500 with
// a stack; the health route says so; the public documents, which touch no table, still answer.
import type { Context } from 'aws-lambda';
import { createServer } from 'node:net';
import type { DynamoDbDocumentClient } from '../../functions/platform/aws/dynamodb';
import { generateApiKey } from '../../functions/core/api-keys';
import { handler as healthHandler } from '../../functions/api/health.get';
import { handler as openApiHandler } from '../../functions/api/discovery.openapi';
import { handler as categoriesHandler } from '../../functions/api/categories.get';
import { logger } from '../../functions/platform/observability';
import { configureRuntime, createDeps, type Deps } from '../../functions/platform/runtime';
import { apiEvent } from '../support/api-event';
import { embeddedDeps } from '../support/embedded';


const context = { functionName: 'storage', awsRequestId: 'storage', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function depsWithUnreachableStorage(port: number): Deps {
  return createDeps({ tableName: 'unreachable', stage: 'local', region: 'us-east-1', dynamodbEndpoint: `http://127.0.0.1:${port}` });
}

/** Deps whose every DynamoDB call fails the way DynamoDB Local does when SQLite finds the disk full. */
function depsWithFullDisk(base: Deps): Deps {
  const diskFull = Object.assign(new Error('The request processing has failed because of an unknown error, exception or failure. [SQLITE_FULL] database or disk is full'), {
    name: 'InternalFailure',
    $fault: 'server',
    $metadata: { httpStatusCode: 500, attempts: 3 },
  });
  const ddb = { send: async () => Promise.reject(diskFull) } as unknown as DynamoDbDocumentClient;
  return { ...base, ddb };
}

let healthy: Deps;
beforeAll(async () => {
  healthy = await embeddedDeps();
});
afterEach(() => jest.restoreAllMocks());

describe('storage unavailable', () => {
  it('answers 503 storage_unavailable with Retry-After when the connection is refused, logging the cause once by name', async () => {
    configureRuntime(depsWithUnreachableStorage(await closedPort()));
    const errors = jest.spyOn(logger, 'error');
    const res = await categoriesHandler(apiEvent('POST', '/v1/categories/get', { key: generateApiKey('test') }), context);
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['Retry-After']).toBe('5');
    const body = JSON.parse(res.body);
    expect(body.error).toMatchObject({ type: 'api_error', code: 'storage_unavailable', request_id: res.headers?.['X-Request-Id'] });
    expect(errors.mock.calls.map(([message]) => message)).toEqual(['storage unavailable: connection refused']);
    // The cause by name, not the raw error and its stack.
    expect(errors.mock.calls[0][1]).toEqual({ request_id: body.error.request_id, cause: 'connection refused' });
  });

  it('answers 503 when the engine reports a full disk', async () => {
    configureRuntime(depsWithFullDisk(healthy));
    const errors = jest.spyOn(logger, 'error');
    const res = await categoriesHandler(apiEvent('POST', '/v1/categories/get', { key: generateApiKey('test') }), context);
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error.code).toBe('storage_unavailable');
    expect(errors.mock.calls.map(([message]) => message)).toEqual(['storage unavailable: disk full']);
  });

  it('still serves openapi.json, which touches no table', async () => {
    configureRuntime(depsWithUnreachableStorage(await closedPort()));
    const res = await openApiHandler(apiEvent('GET', '/openapi.json'), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).openapi).toBe('3.1.0');
  });
});

describe('the health route', () => {
  it('answers 200 {status: ok} when storage answers', async () => {
    configureRuntime(healthy);
    const res = await healthHandler(apiEvent('GET', '/v1/health'), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });

  it('answers 503 storage_unavailable with the envelope when storage is unreachable or full', async () => {
    for (const deps of [depsWithUnreachableStorage(await closedPort()), depsWithFullDisk(healthy)]) {
      configureRuntime(deps);
      const res = await healthHandler(apiEvent('GET', '/v1/health'), context);
      expect(res.statusCode).toBe(503);
      expect(res.headers?.['Retry-After']).toBe('5');
      expect(JSON.parse(res.body).error).toMatchObject({ type: 'api_error', code: 'storage_unavailable', request_id: res.headers?.['X-Request-Id'] });
    }
  });
});
