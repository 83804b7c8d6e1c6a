// A deployed route's cold start must not pay for AWS clients it never calls: the runtime builds its
// deps without loading the SQS, Step Functions or KMS client modules (functions/platform/aws/), and
// each is loaded and its client built on the first call that needs it (once, then reused).
import type * as RuntimeModule from '../../functions/platform/runtime';

/** What happened to the mocked client modules, in order: `load <module>`, `new <client>`, `call <operation>`. */
const mockClientEvents: string[] = [];

/** A client module whose factory `factory` builds a recording client answering `replies` per method. */
function mockClientModule(moduleName: string, factory: string, replies: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  mockClientEvents.push(`load ${moduleName}`);
  return {
    ...extra,
    [factory]: () => {
      mockClientEvents.push(`new ${moduleName} client`);
      return {
        /** Where the tracing middleware goes, as on the real client. */
        use: () => undefined,
        ...Object.fromEntries(
          Object.entries(replies).map(([method, reply]) => [
            method,
            async () => {
              mockClientEvents.push(`call ${method}`);
              return { ...(reply as object), $metadata: { attempts: 1, totalRetryDelay: 0 } };
            },
          ]),
        ),
      };
    },
  };
}

jest.mock('../../functions/platform/aws/sqs', () => mockClientModule('aws/sqs', 'createSqsClient', { sendMessage: {}, sendMessageBatch: { Failed: [] } }));
jest.mock('../../functions/platform/aws/sfn', () =>
  mockClientModule('aws/sfn', 'createSfnClient', { startExecution: { executionArn: 'arn:x', startDate: 0 } }, { EXECUTION_ALREADY_EXISTS: 'ExecutionAlreadyExists' }),
);
jest.mock('../../functions/platform/aws/kms', () =>
  mockClientModule('aws/kms', 'createKmsClient', { generateDataKey: { Plaintext: Buffer.alloc(32), CiphertextBlob: Buffer.from([1, 2, 3]) }, decrypt: { Plaintext: Buffer.alloc(32) } }),
);

const deployedEnv = {
  FC_TABLE_NAME: 'fincore-test',
  FC_STAGE: 'sandbox',
  AWS_REGION: 'eu-west-1',
  FC_SECRETS_KMS_KEY_ID: 'alias/fincore-secrets',
  FC_WEBHOOK_EVENTS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/events',
  FC_ITEM_REFRESH_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/refresh.fifo',
  FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:123456789012:stateMachine:delivery',
};

describe('AWS clients of the deployed runtime', () => {
  const savedEnv = { ...process.env };
  let runtimeModule: typeof RuntimeModule;

  beforeEach(() => {
    mockClientEvents.length = 0;
    Object.assign(process.env, deployedEnv);
    // A fresh module registry: runtime() caches its deps per process, as on a Lambda cold start.
    jest.isolateModules(() => {
      runtimeModule = jest.requireActual<typeof RuntimeModule>('../../functions/platform/runtime');
    });
  });

  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('builds the deps without loading the SQS, Step Functions or KMS clients', () => {
    const deps = runtimeModule.runtime();
    expect(deps.keyProvider.keyId).toBe('alias/fincore-secrets');
    expect(mockClientEvents).toEqual([]);
  });

  it('loads SQS and builds its client on the first enqueue, then reuses it', async () => {
    const { ports } = runtimeModule.runtime();
    await ports.eventBus.publish('evt_1');
    await ports.refreshQueue.enqueue({ item_id: 'item_1', reason: 'on_demand' });
    expect(mockClientEvents).toEqual(['load aws/sqs', 'new aws/sqs client', 'call sendMessage', 'call sendMessage']);
  });

  it('loads Step Functions and builds its client on the first delivery start', async () => {
    const { ports } = runtimeModule.runtime();
    const input = { delivery_id: 'evt_1:ep_1:0', event_id: 'evt_1', endpoint_id: 'ep_1', application_id: 'app_1', environment: 'test', body: '{}', attempts_made: 1 } as const;
    await expect(ports.deliveries.start(input)).resolves.toBe(true);
    expect(mockClientEvents).toEqual(['load aws/sfn', 'new aws/sfn client', 'call startExecution']);
  });

  it('loads KMS and builds its client on the first data key, then reuses it', async () => {
    const { keyProvider } = runtimeModule.runtime();
    const context = { application_id: 'app_1', environment: 'test', purpose: 'webhook_secret' };
    const { wrapped } = await keyProvider.generateDataKey(context);
    await keyProvider.decryptDataKey(wrapped, context);
    expect(mockClientEvents).toEqual(['load aws/kms', 'new aws/kms client', 'call generateDataKey', 'call decrypt']);
  });
});
