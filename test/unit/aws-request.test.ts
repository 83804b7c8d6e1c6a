// How our AWS client reads answers that are not plain successes: errors named as the AWS SDK names
// them (SQS's query-protocol code kept in `Code`), and a success whose body is not JSON refused
// rather than read as an empty answer. A loopback server plays the service.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAwsJsonClient, SERVICES } from '../../functions/platform/aws/aws-json';
import { createLambdaClient } from '../../functions/platform/aws/lambda';
import { rejectionOf } from '../support/rejection';

let server: Server;
let endpoint: string;
let reply: { status: number; headers: Record<string, string>; body: string };
let lastHeaders: IncomingHttpHeaders = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    lastHeaders = req.headers;
    req.resume();
    req.on('end', () => {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (service: (typeof SERVICES)[keyof typeof SERVICES]) =>
  createAwsJsonClient(service, { region: 'us-east-1', endpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });

const failure = (call: Promise<unknown>) => rejectionOf<Record<string, unknown>>(call);

it('names an SQS error from __type, as the SDK does, with the query-protocol code and fault in Code and Type', async () => {
  reply = {
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': 'AWS.SimpleQueueService.NonExistentQueue;Sender' },
    body: JSON.stringify({ __type: 'com.amazonaws.sqs#QueueDoesNotExist', message: 'The specified queue does not exist.' }),
  };
  const err = await failure(client(SERVICES.sqs).call('SendMessage', { QueueUrl: 'q', MessageBody: 'x' }));
  expect(err).toMatchObject({ name: 'QueueDoesNotExist', message: 'The specified queue does not exist.', Code: 'AWS.SimpleQueueService.NonExistentQueue', Type: 'Sender', $fault: 'client' });
});

it('refuses a success whose body is not a JSON object instead of reading it as an empty answer', async () => {
  reply = { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>proxy login</html>' };
  const err = await failure(client(SERVICES.dynamodb).call('GetItem', { TableName: 't', Key: {} }));
  expect(err).toMatchObject({ name: 'DeserializationError', $metadata: { httpStatusCode: 200, attempts: 1 } });

  // An empty body is an empty answer (some operations answer `{}` or nothing at all).
  reply = { status: 200, headers: {}, body: '' };
  await expect(client(SERVICES.dynamodb).call('PutItem', { TableName: 't', Item: {} })).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
});

it('keeps a non-JSON error body from hiding the status: a proxy\'s HTML 403 is a client error named by its status', async () => {
  reply = { status: 403, headers: { 'content-type': 'text/html' }, body: '<html>Forbidden</html>' };
  const err = await failure(client(SERVICES.kms).call('Decrypt', {}));
  expect(err).toMatchObject({ name: 'HttpError403', $fault: 'client', $metadata: { httpStatusCode: 403 } });
});

describe('the Lambda client (Invoke, REST-JSON)', () => {
  const lambda = () => createLambdaClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });

  it('names an error from x-amzn-errortype, as the SDK does for REST-JSON services', async () => {
    reply = {
      status: 404,
      headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException:http://internal.amazon.com/coral/com.amazonaws.lambda/' },
      body: JSON.stringify({ Type: 'User', message: 'Function not found: arn:aws:lambda:us-east-1:1:function:x' }),
    };
    const err = await failure(lambda().invoke({ FunctionName: 'x', Payload: '{}' }));
    expect(err).toMatchObject({ name: 'ResourceNotFoundException', message: 'Function not found: arn:aws:lambda:us-east-1:1:function:x', $fault: 'client' });
  });

  it("hands back a function error's body as the answer (HTTP 200): the caller tells it from its own outcome", async () => {
    reply = {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' },
      body: JSON.stringify({ errorType: 'TypeError', errorMessage: 'boom', trace: [] }),
    };
    await expect(lambda().invoke({ FunctionName: 'x', Payload: '{}' })).resolves.toMatchObject({ errorType: 'TypeError', errorMessage: 'boom' });
  });
});

describe('the trace header', () => {
  const saved = { name: process.env.AWS_LAMBDA_FUNCTION_NAME, trace: process.env._X_AMZN_TRACE_ID };
  afterEach(() => {
    for (const [name, value] of [['AWS_LAMBDA_FUNCTION_NAME', saved.name], ['_X_AMZN_TRACE_ID', saved.trace]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const ok = () => {
    reply = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"fincoreInlineOutcome":1,"result":{}}' };
  };
  const lambda = () => createLambdaClient({ region: 'us-east-1', endpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, maxAttempts: 1 });

  it("travels with each call inside Lambda, unsigned, so an invoked function joins the caller's trace", async () => {
    ok();
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'fincore-mcp';
    process.env._X_AMZN_TRACE_ID = 'Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1';
    await lambda().invoke({ FunctionName: 'x', Payload: '{}' });
    expect(lastHeaders['x-amzn-trace-id']).toBe(process.env._X_AMZN_TRACE_ID);
    expect(String(lastHeaders.authorization)).not.toMatch(/x-amzn-trace-id/);
  });

  it('is not sent outside Lambda', async () => {
    ok();
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    process.env._X_AMZN_TRACE_ID = 'Root=1-67891233-abcdef012345678912345678;Sampled=1';
    await lambda().invoke({ FunctionName: 'x', Payload: '{}' });
    expect(lastHeaders['x-amzn-trace-id']).toBeUndefined();
  });
});
