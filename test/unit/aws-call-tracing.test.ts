// AWS calls become X-Ray subsegments sent to the daemon address Lambda gives, only for sampled
// invocations: our DynamoDB client talks to a loopback HTTP server shaped like DynamoDB, and a
// loopback UDP socket plays the X-Ray daemon.
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDynamoDbDocumentClient, GetCommand, type DynamoDbDocumentClient } from '../../functions/platform/aws/dynamodb';
import { daemonAddress, sampledTrace, traceAwsCalls, type Subsegment } from '../../functions/platform/aws-call-tracing';

const TRACE_ID = '1-6743a1b2-0123456789abcdef01234567';
const PARENT_ID = '53995c3f42cd8ad8';

let daemon: Socket;
let dynamo: Server;
const received: string[] = [];
const waiters: Array<() => void> = [];
/** What the fake DynamoDB answers next: status and body (the first of several in turn, the last repeating). */
let replies: Array<{ status: number; body: object }> = [{ status: 200, body: {} }];

beforeAll(async () => {
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    received.push(message.toString('utf8'));
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
  dynamo = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const reply = replies.length > 1 ? replies.shift()! : replies[0];
      res.writeHead(reply.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ123' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => dynamo.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  daemon.close();
  await new Promise((resolve) => dynamo.close(resolve));
});

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  received.length = 0;
  replies = [{ status: 200, body: {} }];
  jest.restoreAllMocks();
});

function client(maxAttempts = 1): DynamoDbDocumentClient {
  return traceAwsCalls(
    createDynamoDbDocumentClient({
      region: 'eu-west-1',
      endpoint: `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts,
    }),
  );
}

function invocation(sampled: boolean): void {
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=${sampled ? 1 : 0}`;
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
  process.env.AWS_REGION = 'eu-west-1';
}

async function nextDocument(): Promise<{ header: unknown; subsegment: Subsegment }> {
  if (received.length === 0) await new Promise<void>((resolve) => waiters.push(resolve));
  const [header, body] = received.shift()!.split('\n');
  return { header: JSON.parse(header), subsegment: JSON.parse(body) as Subsegment };
}

const getItem = () => new GetCommand({ TableName: 'fincore-test', Key: { pk: 'A', sk: 'B' } });

describe('X-Ray subsegments for AWS calls', () => {
  it('sends one subsegment per call of a sampled invocation, under the invocation trace and parent', async () => {
    invocation(true);
    await client().send(getItem());
    const { header, subsegment } = await nextDocument();
    expect(header).toEqual({ format: 'json', version: 1 });
    expect(subsegment).toMatchObject({
      name: 'DynamoDB',
      type: 'subsegment',
      namespace: 'aws',
      trace_id: TRACE_ID,
      parent_id: PARENT_ID,
      aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ123', retries: 0, table_name: 'fincore-test' },
      http: { response: { status: 200 } },
    });
    expect(subsegment.id).toMatch(/^[0-9a-f]{16}$/);
    expect(subsegment.end_time).toBeGreaterThanOrEqual(subsegment.start_time);
    expect(subsegment.error ?? subsegment.fault).toBeUndefined();
  });

  it('marks a 4xx answer as an error (a throttle too when 429) and a 5xx as a fault, and still throws', async () => {
    invocation(true);
    replies = [{ status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'nope' } }];
    await expect(client().send(getItem())).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    const clientError = (await nextDocument()).subsegment;
    expect(clientError).toMatchObject({ error: true, http: { response: { status: 400 } } });
    expect(clientError.fault).toBeUndefined();
    expect(clientError.cause?.exceptions[0]).toMatchObject({ type: 'ConditionalCheckFailedException', remote: true });

    replies = [{ status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' } }];
    await expect(client().send(getItem())).rejects.toBeDefined();
    expect((await nextDocument()).subsegment).toMatchObject({ fault: true, http: { response: { status: 500 } } });
  });

  it('makes one subsegment of a call and its retries, counting the retries', async () => {
    invocation(true);
    jest.spyOn(Math, 'random').mockReturnValue(0);
    replies = [
      { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'boom' } },
      { status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'slow down' } },
      { status: 200, body: {} },
    ];
    await client(3).send(getItem());
    const { subsegment } = await nextDocument();
    expect(subsegment).toMatchObject({ aws: { operation: 'GetItem', retries: 2 }, http: { response: { status: 200 } } });
    expect(subsegment.error ?? subsegment.fault).toBeUndefined();
    expect(received).toHaveLength(0);
  });

  it('sends nothing for an unsampled invocation or without a daemon address', async () => {
    invocation(false);
    await client().send(getItem());
    invocation(true);
    delete process.env.AWS_XRAY_DAEMON_ADDRESS;
    await client().send(getItem());
    // A sampled call after them is the first document the daemon sees.
    invocation(true);
    await client().send(new GetCommand({ TableName: 'marker', Key: { pk: 'A' } }));
    expect((await nextDocument()).subsegment.aws.table_name).toBe('marker');
    expect(received).toHaveLength(0);
  });

  it('reads the trace header and daemon address in the forms Lambda sets', () => {
    expect(sampledTrace(`Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1;Lineage=a:1`)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID });
    expect(sampledTrace(`Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=0`)).toBeUndefined();
    expect(sampledTrace(`Root=${TRACE_ID};Sampled=1`)).toBeUndefined();
    expect(sampledTrace(undefined)).toBeUndefined();
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
    expect(daemonAddress('nonsense')).toBeUndefined();
  });
});
