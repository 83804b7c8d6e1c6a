// How our AWS client reads answers that are not plain successes: errors named as the AWS SDK names
// them (SQS's query-protocol code kept in `Code`), and a success whose body is not JSON refused
// rather than read as an empty answer. A loopback server plays the service.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAwsJsonClient, SERVICES } from '../../functions/platform/aws/aws-json';
import { rejectionOf } from '../support/rejection';

let server: Server;
let endpoint: string;
let reply: { status: number; headers: Record<string, string>; body: string };

beforeAll(async () => {
  server = createServer((req, res) => {
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
