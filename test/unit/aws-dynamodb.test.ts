// The in-house DynamoDB document client (functions/platform/aws/dynamodb.ts) against the AWS SDK's
// own (@aws-sdk/lib-dynamodb, as the runtime configured it): both talk to one loopback server shaped
// like DynamoDB, which records what each sends and gives both the same answer. What goes on the
// wire and what comes back to the caller must be the same, command by command; errors must carry
// what our repositories read from them, and retries must behave as the SDK's standard mode.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as Sdk from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as Ours from '../../functions/platform/aws/dynamodb';
import { storageFailureOf } from '../../functions/platform/middleware';
import { createDocumentClient, type DynamoDbCallStats } from '../../functions/platform/runtime';
import { rejectionOf } from '../support/rejection';

interface Recorded {
  target: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

type Answer = { status: number; body: object } | 'reset' | 'hang';

let server: Server;
let endpoint: string;
const recorded: Recorded[] = [];
/** Answers in order; the last one repeats. */
let answers: Answer[] = [{ status: 200, body: {} }];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      recorded.push({ target: String(req.headers['x-amz-target']), headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      if (answer === 'reset') {
        req.socket.destroy();
      } else if (answer !== 'hang') {
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `REQ${recorded.length}` });
        res.end(JSON.stringify(answer.body));
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  recorded.length = 0;
  answers = [{ status: 200, body: {} }];
  // No backoff waits: the retry schedule's randomness is the SDK's business, the attempts are ours.
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const TABLE = 'fincore-test';

function sdkClient(maxAttempts = 1): Sdk.DynamoDBDocumentClient {
  return Sdk.DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint, credentials, maxAttempts }), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

function ourClient(maxAttempts = 1, attemptTimeoutMs?: number): Ours.DynamoDbDocumentClient {
  return Ours.createDynamoDbDocumentClient({ region: 'us-east-1', endpoint, credentials, maxAttempts, ...(attemptTimeoutMs ? { attemptTimeoutMs } : {}) });
}

/** The error a call rejects with. */
const failure = (call: Promise<unknown>) => rejectionOf<Record<string, unknown>>(call);

const withoutMetadata = (output: object) => {
  const { $metadata: _metadata, ...rest } = output as { $metadata?: unknown };
  return rest;
};

/** Everything our rows hold: strings (empty too), numbers, booleans, null, nested maps and lists, sets, binary. */
function representativeItem(): Record<string, unknown> {
  return {
    pk: 'ITEM#item_1',
    sk: 'ACCT#acc_2',
    name: 'Café ☕',
    empty: '',
    amount: 12.34,
    negative: -0.5,
    count: 0,
    big: Number.MAX_SAFE_INTEGER,
    active: true,
    inactive: false,
    nothing: null,
    left_out: undefined,
    nested: { level: { deeper: ['a', 1, { x: null, gone: undefined }, new Uint8Array([7])], empty_map: {}, empty_list: [], bytes: new Uint8Array([5, 6]) }, also_gone: undefined },
    list: [1, 'two', false, null, [3], undefined],
    tags: new Set(['b', 'a']),
    seqs: new Set([3, 1, 2]),
    data: new Uint8Array([0, 1, 2, 250, 255]),
    buffer: Buffer.from('gzip bytes'),
    blobs: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
  };
}

/** The same item as DynamoDB answers with it (so the answers hold every attribute type). */
function wireItem(): Record<string, unknown> {
  return {
    pk: { S: 'ITEM#item_1' },
    sk: { S: 'ACCT#acc_2' },
    empty: { S: '' },
    amount: { N: '12.34' },
    big: { N: String(Number.MAX_SAFE_INTEGER) },
    active: { BOOL: true },
    nothing: { NULL: true },
    nested: { M: { level: { M: { deeper: { L: [{ S: 'a' }, { N: '1' }, { M: { x: { NULL: true } } }, { B: 'Bw==' }] }, empty_map: { M: {} }, empty_list: { L: [] }, bytes: { B: 'BQY=' } } } } },
    tags: { SS: ['a', 'b'] },
    seqs: { NS: ['1', '2', '3'] },
    data: { B: Buffer.from([0, 1, 2, 250, 255]).toString('base64') },
    blobs: { BS: ['AQ==', 'AgM='] },
  };
}

const key = { pk: 'ITEM#item_1', sk: 'ACCT#acc_2' };
const wireKey = { pk: { S: 'ITEM#item_1' }, sk: { S: 'ACCT#acc_2' } };

interface Case {
  name: string;
  sdk: () => object;
  ours: () => Ours.DocumentCommand<object, unknown>;
  answer: object;
}

// Each command with the inputs our repositories give it and an answer holding every output member
// lib-dynamodb translates.
const cases: Case[] = (() => {
  const get = { TableName: TABLE, Key: key, ConsistentRead: true, ProjectionExpression: '#d', ExpressionAttributeNames: { '#d': 'data' } };
  const put = {
    TableName: TABLE,
    Item: representativeItem(),
    ConditionExpression: 'attribute_not_exists(pk) OR #v < :v',
    ExpressionAttributeNames: { '#v': 'version' },
    ExpressionAttributeValues: { ':v': 3, ':unused': undefined },
    ReturnValues: 'ALL_OLD' as const,
  };
  const update = {
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'SET #n = :n, tags = :tags, nested.level = :m ADD seqs :s REMOVE gone',
    ExpressionAttributeNames: { '#n': 'name' },
    ExpressionAttributeValues: { ':n': '', ':tags': new Set(['x']), ':m': { a: [1, { b: undefined }] }, ':s': new Set([7]) },
    ReturnValues: 'ALL_NEW' as const,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const del = { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(pk) AND v = :v', ExpressionAttributeValues: { ':v': 1 }, ReturnValues: 'ALL_OLD' as const };
  const query = {
    TableName: TABLE,
    IndexName: 'gsi1',
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'amount > :min',
    ExpressionAttributeValues: { ':pk': 'ITEM#item_1', ':prefix': 'ACCT#', ':min': 0 },
    ExclusiveStartKey: key,
    ScanIndexForward: false,
    Limit: 25,
  };
  const scan = { TableName: TABLE, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': 'ITEM#' }, ExclusiveStartKey: undefined, Segment: 0, TotalSegments: 2 };
  const batchGet = { RequestItems: { [TABLE]: { Keys: [key, { pk: 'APP#a', sk: 'META' }], ConsistentRead: true } } };
  const batchWrite = { RequestItems: { [TABLE]: [{ PutRequest: { Item: representativeItem() } }, { DeleteRequest: { Key: key } }] } };
  const transactWrite = {
    TransactItems: [
      { ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression: 'attribute_exists(pk) AND s = :s', ExpressionAttributeValues: { ':s': 'active' } } },
      { Put: { TableName: TABLE, Item: representativeItem(), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Delete: { TableName: TABLE, Key: { pk: 'PUB#x', sk: 'PUB' }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': 2 } } },
      { Update: { TableName: TABLE, Key: key, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } },
    ],
    ClientRequestToken: 'token-1',
  };
  const transactGet = { TransactItems: [{ Get: { TableName: TABLE, Key: key } }, { Get: { TableName: TABLE, Key: { pk: 'APP#a', sk: 'META' } } }] };
  const collectionMetrics = { [TABLE]: [{ ItemCollectionKey: { pk: { S: 'ITEM#item_1' } }, SizeEstimateRangeGB: [0, 1] }] };
  return [
    { name: 'Get', sdk: () => new Sdk.GetCommand(get), ours: () => new Ours.GetCommand(get), answer: { Item: wireItem() } },
    { name: 'Get (no item)', sdk: () => new Sdk.GetCommand(get), ours: () => new Ours.GetCommand(get), answer: {} },
    {
      name: 'Put',
      sdk: () => new Sdk.PutCommand(put),
      ours: () => new Ours.PutCommand(put),
      answer: { Attributes: wireItem(), ConsumedCapacity: { TableName: TABLE, CapacityUnits: 2 }, ItemCollectionMetrics: { ItemCollectionKey: { pk: { S: 'p' } }, SizeEstimateRangeGB: [0, 1] } },
    },
    { name: 'Update', sdk: () => new Sdk.UpdateCommand(update), ours: () => new Ours.UpdateCommand(update), answer: { Attributes: wireItem() } },
    { name: 'Delete', sdk: () => new Sdk.DeleteCommand(del), ours: () => new Ours.DeleteCommand(del), answer: { Attributes: wireItem() } },
    {
      name: 'Query',
      sdk: () => new Sdk.QueryCommand(query),
      ours: () => new Ours.QueryCommand(query),
      answer: { Items: [wireItem(), { pk: { S: 'x' } }], Count: 2, ScannedCount: 3, LastEvaluatedKey: wireKey },
    },
    { name: 'Scan', sdk: () => new Sdk.ScanCommand(scan), ours: () => new Ours.ScanCommand(scan), answer: { Items: [], Count: 0, ScannedCount: 0 } },
    {
      name: 'BatchGet',
      sdk: () => new Sdk.BatchGetCommand(batchGet),
      ours: () => new Ours.BatchGetCommand(batchGet),
      answer: { Responses: { [TABLE]: [wireItem()] }, UnprocessedKeys: { [TABLE]: { Keys: [{ pk: { S: 'APP#a' }, sk: { S: 'META' } }], ConsistentRead: true } } },
    },
    {
      name: 'BatchWrite',
      sdk: () => new Sdk.BatchWriteCommand(batchWrite),
      ours: () => new Ours.BatchWriteCommand(batchWrite),
      answer: { UnprocessedItems: { [TABLE]: [{ PutRequest: { Item: wireItem() } }, { DeleteRequest: { Key: wireKey } }] }, ItemCollectionMetrics: collectionMetrics },
    },
    {
      name: 'TransactWrite',
      sdk: () => new Sdk.TransactWriteCommand(transactWrite),
      ours: () => new Ours.TransactWriteCommand(transactWrite),
      answer: { ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: 8 }], ItemCollectionMetrics: collectionMetrics },
    },
    {
      name: 'TransactGet',
      sdk: () => new Sdk.TransactGetCommand(transactGet),
      ours: () => new Ours.TransactGetCommand(transactGet),
      answer: { Responses: [{ Item: wireItem() }, {}] },
    },
  ];
})();

describe('the DynamoDB document client', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: sends what lib-dynamodb sends and returns what it returns', async (_name, c) => {
    answers = [{ status: 200, body: c.answer }];
    const theirs = (await sdkClient().send(c.sdk() as never)) as object;
    const mine = (await ourClient().send(c.ours())) as object;
    expect(recorded).toHaveLength(2);
    const [sdkRequest, ourRequest] = recorded;
    expect(ourRequest.target).toBe(sdkRequest.target);
    expect(ourRequest.headers['content-type']).toBe(sdkRequest.headers['content-type']);
    expect(ourRequest.body).toEqual(sdkRequest.body);
    expect(withoutMetadata(mine)).toEqual(withoutMetadata(theirs));
    expect((mine as { $metadata: object }).$metadata).toMatchObject({ httpStatusCode: 200, requestId: 'REQ2', attempts: 1 });
  });

  it('puts binary on the wire as base64 and hands it back as bytes', async () => {
    answers = [{ status: 200, body: { Item: { data: { B: Buffer.from('packed').toString('base64') } } } }];
    await ourClient().send(new Ours.PutCommand({ TableName: TABLE, Item: { ...key, data: Buffer.from('packed') } }));
    expect((recorded[0].body.Item as Record<string, unknown>).data).toEqual({ B: Buffer.from('packed').toString('base64') });
    const { Item } = await ourClient().send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(Item?.data).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(Item?.data as Uint8Array).toString('utf8')).toBe('packed');
  });

  it('refuses what lib-dynamodb refuses, before sending anything', async () => {
    const emptySet = () => ({ TableName: TABLE, Item: { ...key, tags: new Set<string>() } });
    await expect(sdkClient().send(new Sdk.PutCommand(emptySet()))).rejects.toThrow('Pass a non-empty set');
    await expect(ourClient().send(new Ours.PutCommand(emptySet()))).rejects.toThrow('Pass a non-empty set');
    expect(recorded).toHaveLength(0);
  });
});

describe('errors', () => {
  it('ConditionalCheckFailedException: named, with the refused row as an attribute map, as the SDK gives it', async () => {
    answers = [
      {
        status: 400,
        body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed', Item: wireItem() },
      },
    ];
    const input = { TableName: TABLE, Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
    const theirs = await failure(sdkClient().send(new Sdk.UpdateCommand(input)));
    const mine = await failure(ourClient().send(new Ours.UpdateCommand(input)));
    expect(Ours.isConditionalCheckFailed(mine)).toBe(true);
    expect(Ours.isTransactionCanceled(mine)).toBe(false);
    if (!Ours.isConditionalCheckFailed(mine)) throw new Error('unreachable');
    expect(mine).toBeInstanceOf(Error);
    expect(mine.name).toBe(theirs.name);
    expect(mine.message).toBe(theirs.message);
    expect(mine.$fault).toBe(theirs.$fault);
    expect(mine.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 1 });
    expect(mine.Item).toEqual(theirs.Item);
    // What api-keys-repo does with it.
    expect(unmarshall(mine.Item!)).toEqual(unmarshall(theirs.Item as never));
  });

  it('TransactionCanceledException: the reasons in order, each with its code and row, as the SDK gives them', async () => {
    answers = [
      {
        status: 400,
        body: {
          __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
          Message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]',
          CancellationReasons: [
            { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: { pk: { S: 'METER#k' }, n: { N: '41' }, data: { B: 'AQI=' } } },
            { Code: 'None' },
          ],
        },
      },
    ];
    const input = {
      TransactItems: [
        { Update: { TableName: TABLE, Key: key, UpdateExpression: 'SET n = n + :one', ConditionExpression: 'n < :max', ExpressionAttributeValues: { ':one': 1, ':max': 41 } } },
        { Put: { TableName: TABLE, Item: { pk: 'B', sk: 'B' } } },
      ],
    };
    const theirs = await failure(sdkClient().send(new Sdk.TransactWriteCommand(input)));
    const mine = await failure(ourClient().send(new Ours.TransactWriteCommand(input)));
    if (!Ours.isTransactionCanceled(mine)) throw new Error(`not a cancelled transaction: ${String(mine)}`);
    expect(mine.name).toBe(theirs.name);
    expect(mine.message).toBe(theirs.message);
    expect(mine.CancellationReasons).toEqual(theirs.CancellationReasons);
    expect(mine.CancellationReasons?.map((r) => r.Code)).toEqual(['ConditionalCheckFailed', 'None']);
    expect(unmarshall(mine.CancellationReasons![0].Item!)).toEqual({ pk: 'METER#k', n: 41, data: new Uint8Array([1, 2]) });
  });

  it('TransactionConflictException is not retried and is told apart by name', async () => {
    answers = [{ status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#TransactionConflictException', message: 'Transaction is ongoing for the item' } }];
    const err = await failure(ourClient(3).send(new Ours.UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } })));
    expect(Ours.isTransactionConflict(err)).toBe(true);
    expect(recorded).toHaveLength(1);
  });

  it('throttling is retried up to the attempts allowed, then surfaces by name as "throttled" storage', async () => {
    answers = [{ status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' } }];
    const err = await failure(ourClient(3).send(new Ours.GetCommand({ TableName: TABLE, Key: key })));
    expect(recorded).toHaveLength(3);
    expect(err).toMatchObject({ name: 'ProvisionedThroughputExceededException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 3 } });
    expect(storageFailureOf(err)).toBe('throttled');
  });

  it('a 500 is retried and the next answer returned', async () => {
    answers = [{ status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'oops' } }, { status: 200, body: { Item: wireItem() } }];
    const out = await ourClient(3).send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(recorded).toHaveLength(2);
    expect(out.Item?.pk).toBe('ITEM#item_1');
    expect(out.$metadata).toMatchObject({ httpStatusCode: 200, attempts: 2 });
  });

  it('500s on every attempt surface as a storage service error', async () => {
    answers = [{ status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'oops' } }];
    const err = await failure(ourClient(2).send(new Ours.GetCommand({ TableName: TABLE, Key: key })));
    expect(recorded).toHaveLength(2);
    expect(err).toMatchObject({ name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500, attempts: 2 } });
    expect(storageFailureOf(err)).toBe('storage service error');
  });

  it('a dropped connection is retried', async () => {
    answers = ['reset', { status: 200, body: {} }];
    const out = await ourClient(3).send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(recorded).toHaveLength(2);
    expect(out.$metadata.attempts).toBe(2);
  });

  it('a refused connection surfaces, after its attempts, as "connection refused" storage', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const client = Ours.createDynamoDbDocumentClient({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, credentials, maxAttempts: 2 });
    const err = await failure(client.send(new Ours.GetCommand({ TableName: TABLE, Key: key })));
    expect(err).toMatchObject({ name: 'NetworkingError', code: 'ECONNREFUSED', $metadata: { attempts: 2 } });
    expect(storageFailureOf(err)).toBe('connection refused');
  });

  it('an attempt with no answer is abandoned after its timeout and surfaces as "connection timed out"', async () => {
    answers = ['hang'];
    const err = await failure(ourClient(1, 50).send(new Ours.GetCommand({ TableName: TABLE, Key: key })));
    expect(err).toMatchObject({ name: 'NetworkingError', code: 'ETIMEDOUT' });
    expect(storageFailureOf(err)).toBe('connection timed out');
  });
});

describe('middlewares and the runtime client', () => {
  it('see the command\'s native input (what they set there is sent) and its native output', async () => {
    answers = [{ status: 200, body: { Item: wireItem() } }];
    const client = ourClient();
    const seen: Array<{ serviceName: string; operation: string; input: object; output: object }> = [];
    client.use(async (call, next) => {
      (call.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      const output = await next();
      seen.push({ ...call, output });
      return output;
    });
    await client.send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(seen).toEqual([
      { serviceName: 'DynamoDB', operation: 'GetItem', input: { TableName: TABLE, Key: key, ReturnConsumedCapacity: 'INDEXES' }, output: expect.objectContaining({ Item: expect.objectContaining({ pk: 'ITEM#item_1', amount: 12.34 }) }) },
    ]);
    expect(recorded[0].body).toMatchObject({ Key: wireKey, ReturnConsumedCapacity: 'INDEXES' });
  });

  it('gives a transaction without a ClientRequestToken one token, the same on every attempt, so a retry after a lost answer cannot commit twice', async () => {
    answers = [
      { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'lost' } },
      { status: 200, body: {} },
    ];
    await ourClient(3).send(new Ours.TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key } }] }));
    expect(recorded).toHaveLength(2);
    const [first, second] = recorded.map((r) => r.body.ClientRequestToken);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);

    // A caller's own token is kept; another transaction gets another token; other operations get none.
    recorded.length = 0;
    answers = [{ status: 200, body: {} }, { status: 200, body: {} }, { status: 200, body: {} }];
    await ourClient().send(new Ours.TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key } }], ClientRequestToken: 'mine' }));
    await ourClient().send(new Ours.TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key } }] }));
    await ourClient().send(new Ours.PutCommand({ TableName: TABLE, Item: key }));
    expect(recorded[0].body.ClientRequestToken).toBe('mine');
    expect(recorded[1].body.ClientRequestToken).not.toBe(first);
    expect(recorded[2].body.ClientRequestToken).toBeUndefined();
  });

  it('counts every call, failed ones too, and sums consumed capacity (one figure or one per table) only when asked', async () => {
    const stats: DynamoDbCallStats = { count: 0, capacityUnits: 0, trackCapacity: false };
    const client = createDocumentClient({ tableName: TABLE, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint }, stats);

    answers = [{ status: 200, body: { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 5 } } }];
    await client.send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(recorded[0].body.ReturnConsumedCapacity).toBeUndefined();
    expect(stats).toEqual({ count: 1, capacityUnits: 0, trackCapacity: false });

    stats.trackCapacity = true;
    answers = [{ status: 200, body: { ConsumedCapacity: { TableName: TABLE, CapacityUnits: 0.5 } } }];
    await client.send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    answers = [{ status: 200, body: { ConsumedCapacity: [{ TableName: TABLE, CapacityUnits: 4 }, { TableName: 'other', CapacityUnits: 2 }] } }];
    await client.send(new Ours.TransactWriteCommand({ TransactItems: [{ Put: { TableName: TABLE, Item: key } }] }));
    expect(recorded.slice(1).map((r) => r.body.ReturnConsumedCapacity)).toEqual(['TOTAL', 'TOTAL']);
    expect(stats.capacityUnits).toBe(6.5);

    answers = [{ status: 400, body: { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'no' } }];
    await expect(client.send(new Ours.PutCommand({ TableName: TABLE, Item: key, ConditionExpression: 'attribute_not_exists(pk)' }))).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
    expect(stats.count).toBe(4);
  });

  it('on Lambda, goes where AWS_ENDPOINT_URL_DYNAMODB points (as the SDK does) with the function\'s credentials', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { AWS_ENDPOINT_URL_DYNAMODB: endpoint, AWS_ACCESS_KEY_ID: 'AKIDFUNCTION', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'session' });
    try {
      const client = createDocumentClient({ tableName: TABLE, stage: 'production', region: 'us-east-1' }, { count: 0, capacityUnits: 0, trackCapacity: false });
      await client.send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    } finally {
      process.env = saved;
    }
    expect(recorded).toHaveLength(1);
    expect(recorded[0].headers.authorization).toMatch(/Credential=AKIDFUNCTION\//);
    expect(recorded[0].headers['x-amz-security-token']).toBe('session');
  });

  it('signs with the local credentials against the configured endpoint', async () => {
    const client = createDocumentClient({ tableName: TABLE, stage: 'local', region: 'eu-west-1', dynamodbEndpoint: endpoint }, { count: 0, capacityUnits: 0, trackCapacity: false });
    await client.send(new Ours.GetCommand({ TableName: TABLE, Key: key }));
    expect(recorded[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=[^,]*x-amz-target/);
    expect(recorded[0].target).toBe('DynamoDB_20120810.GetItem');
  });
});
