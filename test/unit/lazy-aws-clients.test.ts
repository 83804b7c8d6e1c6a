// A deployed route's cold start must not pay for SDKs it never calls: the runtime builds its deps
// without loading the SQS, Step Functions or KMS SDKs, and each is loaded and its client built on
// the first call that needs it (once, then reused).
import type * as RuntimeModule from '../../functions/platform/runtime';

/** What happened to the mocked SDKs, in order: `load <package>`, `new <Client>`, `send <Command>`. */
const mockSdkEvents: string[] = [];

function mockSdk(packageName: string, clientName: string, reply: unknown): Record<string, unknown> {
  mockSdkEvents.push(`load ${packageName}`);
  const actual = jest.requireActual<Record<string, unknown>>(packageName);
  class RecordingClient {
    /** Where the tracing middleware goes, as on a real SDK client. */
    readonly middlewareStack = { add: () => undefined };
    constructor() {
      mockSdkEvents.push(`new ${clientName}`);
    }
    async send(command: object): Promise<unknown> {
      mockSdkEvents.push(`send ${command.constructor.name}`);
      return reply;
    }
  }
  return { ...actual, [clientName]: RecordingClient };
}

jest.mock('@aws-sdk/client-sqs', () => mockSdk('@aws-sdk/client-sqs', 'SQSClient', {}));
jest.mock('@aws-sdk/client-sfn', () => mockSdk('@aws-sdk/client-sfn', 'SFNClient', {}));
jest.mock('@aws-sdk/client-kms', () =>
  mockSdk('@aws-sdk/client-kms', 'KMSClient', { Plaintext: new Uint8Array(32), CiphertextBlob: new Uint8Array([1, 2, 3]) }),
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
    mockSdkEvents.length = 0;
    Object.assign(process.env, deployedEnv);
    // A fresh module registry: runtime() caches its deps per process, as on a Lambda cold start.
    jest.isolateModules(() => {
      runtimeModule = jest.requireActual<typeof RuntimeModule>('../../functions/platform/runtime');
    });
  });

  afterEach(() => {
    process.env = { ...savedEnv };
  });

  it('builds the deps without loading the SQS, Step Functions or KMS SDKs', () => {
    const deps = runtimeModule.runtime();
    expect(deps.keyProvider.keyId).toBe('alias/fincore-secrets');
    expect(mockSdkEvents).toEqual([]);
  });

  it('loads SQS and builds its client on the first enqueue, then reuses it', async () => {
    const { ports } = runtimeModule.runtime();
    await ports.eventBus.publish('evt_1');
    await ports.refreshQueue.enqueue({ item_id: 'item_1', reason: 'on_demand' });
    expect(mockSdkEvents).toEqual(['load @aws-sdk/client-sqs', 'new SQSClient', 'send SendMessageCommand', 'send SendMessageCommand']);
  });

  it('loads Step Functions and builds its client on the first delivery start', async () => {
    const { ports } = runtimeModule.runtime();
    const input = { delivery_id: 'evt_1:ep_1:0', event_id: 'evt_1', endpoint_id: 'ep_1', application_id: 'app_1', environment: 'test', body: '{}', attempts_made: 1 } as const;
    await expect(ports.deliveries.start(input)).resolves.toBe(true);
    expect(mockSdkEvents).toEqual(['load @aws-sdk/client-sfn', 'new SFNClient', 'send StartExecutionCommand']);
  });

  it('loads KMS and builds its client on the first data key, then reuses it', async () => {
    const { keyProvider } = runtimeModule.runtime();
    const context = { application_id: 'app_1', environment: 'test', purpose: 'webhook_secret' };
    const { wrapped } = await keyProvider.generateDataKey(context);
    await keyProvider.decryptDataKey(wrapped, context);
    expect(mockSdkEvents).toEqual(['load @aws-sdk/client-kms', 'new KMSClient', 'send GenerateDataKeyCommand', 'send DecryptCommand']);
  });
});
