// Local stand-ins for the AWS APIs the bundles call, on 127.0.0.1, recording every call as the IAM
// authorization request AWS would evaluate (action, resource, condition keys):
// - a DynamoDB proxy in front of DynamoDB Local: it forwards every request unchanged and records, per
//   item touched, the leading (partition) key, as `dynamodb:LeadingKeys` sees it;
// - recording stubs of SQS (SendMessage, SendMessageBatch), Step Functions (StartExecution) and KMS (GenerateDataKey,
//   Decrypt) speaking the services' JSON protocols, and of Bedrock Runtime's Converse (REST-JSON). The KMS stub's ciphertext blob carries the data key and
//   the encryption context it was made under, and Decrypt refuses another context as KMS does;
// - Lambda's Invoke (REST-JSON, on the same endpoint as the JSON stubs, told apart by its path): the
//   invoked function runs in its own rehearsal container (AwsStubs.invokeFunction), and a function
//   that throws answers as Lambda does (HTTP 200, X-Amz-Function-Error, the runtime's error object).
//
// The caller is identified by its access key id (each function's process gets its own), as AWS
// identifies a role session by its credentials.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TABLE } from '../../functions/data/keys';
import { ENV } from './synth';

/** One authorization request: what AWS's IAM evaluation would see for (part of) one API call. */
export interface AwsCall {
  /** Access key id of the calling process (the function's logical id). */
  caller: string;
  action: string;
  resource: string;
  /** Multi-valued condition keys (dynamodb:LeadingKeys) and single-valued ones (kms:EncryptionContext:x). */
  context: Record<string, string | string[]>;
}

export interface SentMessage {
  queueUrl: string;
  body: string;
  groupId?: string;
}

export interface StartedExecution {
  stateMachineArn: string;
  name: string;
  input: string;
}

export interface AwsStubs {
  dynamodbEndpoint: string;
  /**
   * A Bedrock Runtime stub (its REST path, so a server of its own): Converse answers a
   * prose refinement by prefixing every text it was offered with `Rehearsed: `, and offers no fills.
   */
  bedrockEndpoint: string;
  /** One endpoint for SQS, Step Functions, KMS and Secrets Manager: the X-Amz-Target header names the API. */
  stubEndpoint: string;
  calls: AwsCall[];
  messages: SentMessage[];
  executions: StartedExecution[];
  /** Anything a stub could not serve (an unexpected API): the rehearsal fails on it. */
  unexpected: string[];
  /**
   * Runs one invocation of the function named `functionName` (the Lambda stub's Invoke); set by the
   * rehearsal once its containers run. Resolves to the function's answer; rejects when it threw.
   */
  invokeFunction?: (functionName: string, payload: unknown) => Promise<unknown>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

function callerOf(req: IncomingMessage): string {
  const match = /Credential=([^/]+)\//.exec(String(req.headers.authorization ?? ''));
  return match ? match[1] : 'anonymous';
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

type AttributeValue = { S?: string; N?: string; B?: string };
type Key = Record<string, AttributeValue>;

const tableArn = (tableName: string) => `arn:aws:dynamodb:${ENV.region}:${ENV.account}:table/${tableName}`;
const leadingKeyOf = (key: Key | undefined): string[] => {
  const value = key?.[TABLE.partitionKey];
  return value?.S !== undefined ? [value.S] : [];
};

/** The partition key value a KeyConditionExpression fixes (`#pk = :v` or `pk = :v`). */
function queriedPartition(body: Record<string, unknown>): string[] {
  const expression = String(body.KeyConditionExpression ?? '');
  const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (body.ExpressionAttributeValues ?? {}) as Record<string, AttributeValue>;
  const index = body.IndexName ? TABLE.globalIndexes.find((i) => i.indexName === body.IndexName) : undefined;
  const partitionAttribute = index ? index.partitionKey : TABLE.partitionKey;
  for (const clause of expression.split(/\s+AND\s+/i)) {
    const match = /^\s*\(?\s*([#\w]+)\s*=\s*(:\w+)\s*\)?\s*$/.exec(clause);
    if (!match) continue;
    const attribute = match[1].startsWith('#') ? names[match[1]] : match[1];
    if (attribute === partitionAttribute && values[match[2]]?.S !== undefined) return [values[match[2]].S as string];
  }
  return [];
}

/** The authorization requests one DynamoDB API call makes (a transaction authorizes each item's action). */
export function dynamoDbAuthorizations(caller: string, operation: string, body: Record<string, unknown>): AwsCall[] {
  const single = (action: string, table: string, leading: string[], index?: string): AwsCall => ({
    caller,
    action: `dynamodb:${action}`,
    resource: index ? `${tableArn(table)}/index/${index}` : tableArn(table),
    context: { 'dynamodb:LeadingKeys': leading },
  });
  const table = String(body.TableName ?? '');
  switch (operation) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [single(operation, table, leadingKeyOf(body.Key as Key))];
    case 'PutItem':
      return [single(operation, table, leadingKeyOf(body.Item as Key))];
    case 'Query':
      return [single(operation, table, queriedPartition(body), body.IndexName as string | undefined)];
    case 'Scan':
      return [single(operation, table, [], body.IndexName as string | undefined)];
    case 'DescribeTable':
      return [single(operation, table, [])];
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return (body.TransactItems as Record<string, { TableName: string; Key?: Key; Item?: Key }>[]).map((entry) => {
        const [kind, part] = Object.entries(entry)[0];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' }[kind] ?? kind;
        return single(action, part.TableName, leadingKeyOf(part.Key ?? part.Item));
      });
    case 'BatchWriteItem':
      return Object.entries(body.RequestItems as Record<string, { PutRequest?: { Item: Key }; DeleteRequest?: { Key: Key } }[]>).map(([name, writes]) =>
        single('BatchWriteItem', name, [...new Set(writes.flatMap((w) => leadingKeyOf(w.PutRequest?.Item ?? w.DeleteRequest?.Key)))]),
      );
    case 'BatchGetItem':
      return Object.entries(body.RequestItems as Record<string, { Keys: Key[] }>).map(([name, read]) =>
        single('BatchGetItem', name, [...new Set(read.Keys.flatMap(leadingKeyOf))]),
      );
    default:
      return [single(operation, table, [])];
  }
}

/** A KMS ciphertext blob of the stub: the data key and the context it is bound to, tagged. */
const BLOB_TAG = 'rehearsal-kms:';

export async function startAwsStubs(dynamodbLocal: string, keyArnOf: (keyId: string) => string): Promise<AwsStubs> {
  const calls: AwsCall[] = [];
  const messages: SentMessage[] = [];
  const executions: StartedExecution[] = [];
  const unexpected: string[] = [];
  const executionNames = new Set<string>();
  const target = new URL(dynamodbLocal);

  const dynamo = createServer((req, res) => {
    void readBody(req).then((body) => {
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
      try {
        calls.push(...dynamoDbAuthorizations(callerOf(req), operation, JSON.parse(body.toString('utf8')) as Record<string, unknown>));
      } catch (err) {
        unexpected.push(`DynamoDB ${operation}: request not understood (${(err as Error).message})`);
      }
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err) => {
        res.writeHead(502).end(String(err));
      });
      upstream.end(body);
    });
  });

  const json = (res: ServerResponse, status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() }).end(JSON.stringify(payload));
  };
  const error = (res: ServerResponse, type: string, message: string) => json(res, 400, { __type: type, message });

  const invoke = async (req: IncomingMessage, res: ServerResponse, functionName: string, raw: Buffer): Promise<void> => {
    const caller = callerOf(req);
    calls.push({ caller, action: 'lambda:InvokeFunction', resource: `arn:aws:lambda:${ENV.region}:${ENV.account}:function:${functionName}`, context: {} });
    const restError = (status: number, type: string, message: string): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.lambda/`, 'x-amzn-requestid': randomUUID() }).end(JSON.stringify({ Type: 'User', message }));
    };
    if (req.headers['x-amz-invocation-type'] !== undefined && req.headers['x-amz-invocation-type'] !== 'RequestResponse') {
      unexpected.push(`${caller}: Lambda Invoke of ${functionName} as ${String(req.headers['x-amz-invocation-type'])}`);
      return restError(400, 'InvalidParameterValueException', 'only RequestResponse is stubbed');
    }
    if (!stubs.invokeFunction) return restError(404, 'ResourceNotFoundException', `Function not found: ${functionName}`);
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      return restError(400, 'InvalidRequestContentException', 'Could not parse request body into json');
    }
    try {
      const answer = await stubs.invokeFunction(functionName, payload);
      res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST', 'x-amzn-requestid': randomUUID() }).end(JSON.stringify(answer ?? null));
    } catch (err) {
      if ((err as { notFound?: boolean }).notFound) return restError(404, 'ResourceNotFoundException', `Function not found: ${functionName}`);
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled', 'x-amzn-requestid': randomUUID() })
        .end(JSON.stringify({ errorType: 'Error', errorMessage: String((err as Error).message).split('\n')[0], trace: [] }));
    }
  };

  const stub = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const caller = callerOf(req);
      const invocation = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url ?? '');
      if (req.method === 'POST' && invocation) {
        void invoke(req, res, decodeURIComponent(invocation[1]), raw);
        return;
      }
      const targetHeader = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      switch (targetHeader) {
        case 'AmazonSQS.SendMessage': {
          const queueUrl = String(body.QueueUrl);
          const name = queueUrl.split('/').pop() ?? '';
          calls.push({ caller, action: 'sqs:SendMessage', resource: `arn:aws:sqs:${ENV.region}:${ENV.account}:${name}`, context: {} });
          messages.push({ queueUrl, body: String(body.MessageBody), groupId: body.MessageGroupId as string | undefined });
          return json(res, 200, {
            MessageId: randomUUID(),
            MD5OfMessageBody: createHash('md5').update(String(body.MessageBody)).digest('hex'),
            ...(body.MessageGroupId ? { SequenceNumber: String(Date.now()) } : {}),
          });
        }
        case 'AmazonSQS.SendMessageBatch': {
          // One authorization request per call: IAM authorises SendMessageBatch as sqs:SendMessage.
          const queueUrl = String(body.QueueUrl);
          const name = queueUrl.split('/').pop() ?? '';
          calls.push({ caller, action: 'sqs:SendMessage', resource: `arn:aws:sqs:${ENV.region}:${ENV.account}:${name}`, context: {} });
          const entries = (body.Entries ?? []) as { Id: string; MessageBody: string; MessageGroupId?: string }[];
          if (entries.length === 0 || entries.length > 10) return error(res, entries.length ? 'AWS.SimpleQueueService.TooManyEntriesInBatchRequest' : 'AWS.SimpleQueueService.EmptyBatchRequest', `${entries.length} entries`);
          for (const entry of entries) messages.push({ queueUrl, body: String(entry.MessageBody), groupId: entry.MessageGroupId });
          return json(res, 200, {
            Successful: entries.map((entry) => ({
              Id: entry.Id,
              MessageId: randomUUID(),
              MD5OfMessageBody: createHash('md5').update(String(entry.MessageBody)).digest('hex'),
              ...(entry.MessageGroupId ? { SequenceNumber: String(Date.now()) } : {}),
            })),
            Failed: [],
          });
        }
        case 'AWSStepFunctions.StartExecution': {
          const arn = String(body.stateMachineArn);
          calls.push({ caller, action: 'states:StartExecution', resource: arn, context: {} });
          const name = String(body.name ?? randomUUID());
          if (executionNames.has(`${arn}:${name}`)) return error(res, 'ExecutionAlreadyExists', `Execution Already Exists: '${name}'`);
          executionNames.add(`${arn}:${name}`);
          executions.push({ stateMachineArn: arn, name, input: String(body.input ?? '{}') });
          return json(res, 200, { executionArn: `${arn.replace(':stateMachine:', ':execution:')}:${name}`, startDate: Date.now() / 1000 });
        }
        case 'TrentService.GenerateDataKey': {
          const keyArn = keyArnOf(String(body.KeyId));
          const context = (body.EncryptionContext ?? {}) as Record<string, string>;
          calls.push({ caller, action: 'kms:GenerateDataKey', resource: keyArn, context: encryptionContextKeys(context) });
          const plaintext = randomBytes(32);
          const blob = Buffer.from(BLOB_TAG + JSON.stringify({ keyArn, context, key: plaintext.toString('base64') }));
          return json(res, 200, { KeyId: keyArn, Plaintext: plaintext.toString('base64'), CiphertextBlob: blob.toString('base64') });
        }
        case 'TrentService.Decrypt': {
          const keyArn = keyArnOf(String(body.KeyId));
          const context = (body.EncryptionContext ?? {}) as Record<string, string>;
          calls.push({ caller, action: 'kms:Decrypt', resource: keyArn, context: encryptionContextKeys(context) });
          const text = Buffer.from(String(body.CiphertextBlob), 'base64').toString('utf8');
          if (!text.startsWith(BLOB_TAG)) return error(res, 'InvalidCiphertextException', 'not a ciphertext of this key');
          const sealed = JSON.parse(text.slice(BLOB_TAG.length)) as { keyArn: string; context: Record<string, string>; key: string };
          if (sealed.keyArn !== keyArn) return error(res, 'IncorrectKeyException', 'sealed under another key');
          if (JSON.stringify(sortedEntries(sealed.context)) !== JSON.stringify(sortedEntries(context))) {
            return error(res, 'InvalidCiphertextException', 'encryption context does not match');
          }
          return json(res, 200, { KeyId: keyArn, Plaintext: sealed.key, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
        }
        case 'secretsmanager.GetSecretValue': {
          // The stage's connector credentials: an operator who enabled nothing yet (the stack's default).
          const secretId = String(body.SecretId);
          calls.push({ caller, action: 'secretsmanager:GetSecretValue', resource: secretId, context: {} });
          return json(res, 200, { ARN: secretId, Name: secretId.split(':').pop(), SecretString: '{}', VersionId: 'v1', VersionStages: ['AWSCURRENT'], CreatedDate: Date.now() / 1000 });
        }
        default:
          unexpected.push(`${caller}: no stub for ${targetHeader || `${req.method} ${req.url}`}`);
          return error(res, 'UnknownOperationException', `the rehearsal has no stub for ${targetHeader}`);
      }
    });
  });

  const bedrock = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const caller = callerOf(req);
      const match = /^\/model\/([^/]+)\/converse$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        unexpected.push(`${caller}: no Bedrock stub for ${req.method} ${req.url}`);
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'no stub' }));
        return;
      }
      const modelId = decodeURIComponent(match[1]);
      // IAM authorises Converse as bedrock:InvokeModel on the model's ARN (foundation models have no account).
      calls.push({ caller, action: 'bedrock:InvokeModel', resource: `arn:aws:bedrock:${ENV.region}::foundation-model/${modelId}`, context: {} });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: Array<{ content: Array<{ text: string }> }> };
      const input = JSON.parse(body.messages[0].content[0].text) as { texts?: Record<string, string>; rows?: unknown[] };
      const answer = input.texts
        ? { texts: Object.fromEntries(Object.entries(input.texts).map(([pointer, text]) => [pointer, `Rehearsed: ${text}`])) }
        : { fills: [] };
      res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() }).end(
        JSON.stringify({
          output: { message: { role: 'assistant', content: [{ text: JSON.stringify(answer) }] } },
          stopReason: 'end_turn',
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          metrics: { latencyMs: 1 },
        }),
      );
    });
  });

  const [dynamodbEndpoint, stubEndpoint, bedrockEndpoint] = await Promise.all([listen(dynamo), listen(stub), listen(bedrock)]);
  const close = (server: Server) => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  const stubs: AwsStubs = {
    dynamodbEndpoint,
    stubEndpoint,
    bedrockEndpoint,
    calls,
    messages,
    executions,
    unexpected,
    close: async () => {
      await Promise.all([close(dynamo), close(stub), close(bedrock)]);
    },
  };
  return stubs;
}

const sortedEntries = (context: Record<string, string>) => Object.entries(context).sort(([a], [b]) => a.localeCompare(b));

/** KMS's condition keys for an encryption context: one kms:EncryptionContext:<k> per pair, and the key set. */
function encryptionContextKeys(context: Record<string, string>): Record<string, string | string[]> {
  return {
    ...Object.fromEntries(Object.entries(context).map(([k, v]) => [`kms:EncryptionContext:${k}`, v])),
    'kms:EncryptionContextKeys': Object.keys(context),
  };
}
