// The AWS adapters of the background ports and the connector configuration, against loopback fakes
// of the services' documented JSON protocols: the event and refresh messages SQS gets, the
// StartExecution call (a name already used means "started before", not an error), and the connector
// secret read from Secrets Manager's SecretString.
import { createAwsPorts, createSecretsManagerConnectorConfig } from '../../functions/platform/aws-ports';
import { AwsJsonError, AwsJsonFake, FAKE_CREDENTIALS } from '../support/aws-json-fake';
import { FakeSqs } from '../support/fake-sqs';

const keys = { AWS_ACCESS_KEY_ID: FAKE_CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: FAKE_CREDENTIALS.secretAccessKey };
const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:delivery';
const DELIVERY = { delivery_id: 'evt_1:whep_1:0', event_id: 'evt_1', endpoint_id: 'whep_1', application_id: 'app_1', environment: 'test' as const, body: '{}', attempts_made: 1 };

describe('events and refreshes on SQS', () => {
  const sqs = new FakeSqs();
  beforeAll(() => sqs.start());
  afterAll(() => sqs.close());
  beforeEach(() => sqs.reset());

  it('publishes an event as a plain message and a refresh as a FIFO message of its item\'s group', async () => {
    const events = 'https://sqs.us-east-1.amazonaws.com/123456789012/events';
    const refresh = 'https://sqs.us-east-1.amazonaws.com/123456789012/refresh.fifo';
    const ports = createAwsPorts({ ...sqs.env(), FC_WEBHOOK_EVENTS_QUEUE_URL: events, FC_ITEM_REFRESH_QUEUE_URL: refresh }, 'us-east-1');
    await ports.eventBus.publish('evt_1');
    await ports.refreshQueue.enqueue({ item_id: 'item_1', reason: 'on_demand' });
    expect(sqs.server.requests.map((r) => [r.target, r.accessKeyId])).toEqual([
      ['AmazonSQS.SendMessage', 'AKIDLOOPBACK'],
      ['AmazonSQS.SendMessage', 'AKIDLOOPBACK'],
    ]);
    expect(sqs.server.inputsOf('SendMessage')).toEqual([
      { QueueUrl: events, MessageBody: '{"event_id":"evt_1"}' },
      { QueueUrl: refresh, MessageBody: '{"item_id":"item_1","reason":"on_demand"}', MessageGroupId: 'item_1', MessageDeduplicationId: expect.stringMatching(/^item_1-on_demand-\d+$/) },
    ]);
  });
});

describe('deliveries on Step Functions', () => {
  const names = new Set<string>();
  const sfn = new AwsJsonFake({
    'AWSStepFunctions.StartExecution': (input) => {
      if (input.stateMachineArn === `${MACHINE}-gone`) throw new AwsJsonError('StateMachineDoesNotExist', 'no such machine');
      const name = String(input.name);
      if (names.has(name)) throw new AwsJsonError('ExecutionAlreadyExists', `Execution Already Exists: '${name}'`);
      names.add(name);
      return { executionArn: `${MACHINE.replace(':stateMachine:', ':execution:')}:${name}`, startDate: 1_764_000_000.123 };
    },
  });
  beforeAll(() => sfn.start());
  afterAll(() => sfn.close());
  const ports = (machine = MACHINE) => createAwsPorts({ ...keys, AWS_ENDPOINT_URL_SFN: sfn.endpoint, FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN: machine }, 'us-east-1');

  it('starts one execution per delivery, named after it, and reports a second start of it as not started', async () => {
    await expect(ports().deliveries.start(DELIVERY)).resolves.toBe(true);
    await expect(ports().deliveries.start(DELIVERY)).resolves.toBe(false);
    const [first] = sfn.requests;
    expect(first.target).toBe('AWSStepFunctions.StartExecution');
    expect(first.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(first.headers.authorization).toMatch(/Credential=AKIDLOOPBACK\/\d{8}\/us-east-1\/states\/aws4_request, /);
    // Execution names allow letters, digits, - and _: the delivery id's colons become dashes.
    expect(first.input).toEqual({ stateMachineArn: MACHINE, name: 'evt_1-whep_1-0', input: JSON.stringify(DELIVERY) });
    expect(sfn.requests).toHaveLength(2);
  });

  it('passes any other refusal through', async () => {
    await expect(ports(`${MACHINE}-gone`).deliveries.start({ ...DELIVERY, delivery_id: 'evt_2:whep_1:0' })).rejects.toMatchObject({ name: 'StateMachineDoesNotExist', message: 'no such machine' });
  });
});

describe('the connector configuration in Secrets Manager', () => {
  const SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:fincore-connectors-AbCdEf';
  let secretString: string | undefined = '{}';
  let refusal: AwsJsonError | undefined;
  const secrets = new AwsJsonFake({
    'secretsmanager.GetSecretValue': (input) => {
      if (refusal) throw refusal;
      return { ARN: input.SecretId, Name: 'fincore-connectors', VersionId: 'v1', VersionStages: ['AWSCURRENT'], CreatedDate: 1_764_000_000.5, ...(secretString === undefined ? {} : { SecretString: secretString }) };
    },
  });
  beforeAll(() => secrets.start());
  afterAll(() => secrets.close());
  beforeEach(() => {
    secrets.requests.length = 0;
    refusal = undefined;
  });
  const config = (env: NodeJS.ProcessEnv = {}) =>
    createSecretsManagerConnectorConfig(SECRET, 'us-east-1', { ...keys, AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint, ...env });

  it('lays the secret\'s JSON object over the function\'s environment, read once per container', async () => {
    secretString = JSON.stringify({ PLAID_CLIENT_ID: 'from-secret', PLAID_SECRET: 's3cr3t' });
    const source = config({ PLAID_CLIENT_ID: 'from-env', FC_STAGE: 'sandbox' });
    const loaded = await source.load();
    expect(loaded).toMatchObject({ PLAID_CLIENT_ID: 'from-secret', PLAID_SECRET: 's3cr3t', FC_STAGE: 'sandbox' });
    await source.load();
    expect(secrets.requests.map((r) => [r.target, r.input])).toEqual([['secretsmanager.GetSecretValue', { SecretId: SECRET }]]);
    expect(secrets.requests[0].headers['content-type']).toBe('application/x-amz-json-1.1');
    expect(secrets.requests[0].headers.authorization).toMatch(/Credential=AKIDLOOPBACK\/\d{8}\/us-east-1\/secretsmanager\/aws4_request, /);
  });

  it('refuses a secret that is not an object of strings, and reads again after a failure', async () => {
    secretString = '["a"]';
    await expect(config().load()).rejects.toThrow('must be a JSON object of variable names to strings');
    secretString = JSON.stringify({ PLAID_SECRET: 42 });
    await expect(config().load()).rejects.toThrow("the connector secret's PLAID_SECRET must be a string");
    secretString = 'not json';
    await expect(config().load()).rejects.toThrow(SyntaxError);

    const source = config();
    refusal = new AwsJsonError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    await expect(source.load()).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    refusal = undefined;
    secretString = JSON.stringify({ PLAID_SECRET: 'later' });
    await expect(source.load()).resolves.toMatchObject({ PLAID_SECRET: 'later' });
  });

  it('takes a secret without text as no values', async () => {
    secretString = undefined;
    await expect(config({ FC_STAGE: 'sandbox' }).load()).resolves.toMatchObject({ FC_STAGE: 'sandbox' });
  });
});
