// Runtime dependencies of every handler, built once per process (Lambda cold start or local
// server start) from validated configuration. Tests and the local server call configureRuntime()
// with their own values; handlers only ever see `deps`.
import * as z from 'zod';
import { RUNTIME_STAGES, type RuntimeStage } from '../contracts/stages';
import { endpointFromEnvironment } from './aws/aws-request';
import { createDynamoDbDocumentClient, type DynamoDbDocumentClient } from './aws/dynamodb';
import type * as AwsPortsModule from './aws-ports';
import type { KeyProvider } from './crypto/envelope';
import type * as KmsKeyProviderModule from './crypto/kms-key-provider';
import { createLocalKeyProvider } from './crypto/local-key-provider';
import { tracer } from './observability';
import type { ModelPort } from './model-port';
import type { BackgroundPorts, ConnectorConfigSource } from './ports';

const ConfigSchema = z.object({
  FC_TABLE_NAME: z.string().min(1),
  FC_STAGE: z.enum(RUNTIME_STAGES).default('local'),
  FC_DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  FC_BASE_URL: z.url().optional(),
  FC_SECRETS_KMS_KEY_ID: z.string().min(1).optional(),
});

export interface RuntimeConfig {
  tableName: string;
  stage: RuntimeStage;
  region: string;
  dynamodbEndpoint?: string;
  /** Public root address ({base_url}) when known; otherwise derived from the request host. */
  baseUrl?: string;
  /** Check every JSON response against its route's schema (tests turn this on; it costs CPU). */
  validateResponses?: boolean;
  /** Connector credentials present in this deployment (env var name -> value); none locally. */
  connectorEnv?: Record<string, string | undefined>;
  /** KMS key for webhook secrets and provider tokens (AWS); local mode uses a local key instead. */
  secretsKmsKeyId?: string;
  /** Local mode: loopback webhook endpoints are allowed (never for live keys). */
  allowLoopbackWebhooks?: boolean;
}

export interface Clock {
  now(): number;
}

export interface Deps {
  config: RuntimeConfig;
  ddb: DynamoDbDocumentClient;
  clock: Clock;
  /** Counts DynamoDB calls made through `ddb` (for benchmarks and cost statements). */
  ddbCalls: DynamoDbCallStats;
  /** Wraps data keys for webhook secrets and provider tokens (KMS on AWS, a local key locally). */
  keyProvider: KeyProvider;
  /** Queues and workflows: the AWS adapters on Lambda, the in-process ones locally, NO_PORTS where none may run. */
  ports: BackgroundPorts;
  /** The connector configuration of this deployment (ports.ts ConnectorConfigSource). */
  connectorConfig: ConnectorConfigSource;
  /**
   * The AI routes' language model (model-port.ts), null for rules only. Left out, the AI routes take
   * the one the environment names (model-environment.ts); tests and local runs may set it.
   */
  model?: ModelPort | null;
}

export interface DynamoDbCallStats {
  count: number;
  /** Capacity units DynamoDB reports consumed; only summed when `trackCapacity` is on. */
  capacityUnits: number;
  trackCapacity: boolean;
}

export const systemClock: Clock = { now: () => Date.now() };

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const parsed = ConfigSchema.parse(env);
  return {
    tableName: parsed.FC_TABLE_NAME,
    stage: parsed.FC_STAGE,
    region: parsed.AWS_REGION,
    dynamodbEndpoint: parsed.FC_DYNAMODB_ENDPOINT,
    baseUrl: parsed.FC_BASE_URL,
    connectorEnv: env,
    secretsKmsKeyId: parsed.FC_SECRETS_KMS_KEY_ID,
  };
}

export function createDocumentClient(config: RuntimeConfig, ddbCalls: DynamoDbCallStats): DynamoDbDocumentClient {
  const local = config.dynamodbEndpoint !== undefined;
  // On Lambda: the regional endpoint, unless AWS_ENDPOINT_URL_DYNAMODB names another (as the SDK reads it).
  const endpoint = local ? config.dynamodbEndpoint : endpointFromEnvironment('DYNAMODB');
  const client = tracer.traceAwsCalls(
    createDynamoDbDocumentClient({
      region: config.region,
      ...(endpoint ? { endpoint } : {}),
      ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      maxAttempts: 3,
    }),
  );
  // Inside the trace: every call counted once however many attempts it takes.
  client.use(async (call, next) => {
    ddbCalls.count += 1;
    if (!ddbCalls.trackCapacity) return next();
    (call.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
    const output = await next();
    const consumed = (output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
    for (const c of [consumed ?? []].flat()) ddbCalls.capacityUnits += c.CapacityUnits ?? 0;
    return output;
  });
  return client;
}

export interface DepsOverrides {
  clock?: Clock;
  keyProvider?: KeyProvider;
  ports?: BackgroundPorts;
  connectorConfig?: ConnectorConfigSource;
}

/** Ports that refuse to work: for processes that must not start background work. */
export const NO_PORTS: BackgroundPorts = {
  eventBus: { publish: async () => { throw new Error('no event bus configured'); } },
  refreshQueue: {
    enqueue: async () => { throw new Error('no refresh queue configured'); },
    enqueueMany: async () => { throw new Error('no refresh queue configured'); },
  },
  deliveries: { start: async () => { throw new Error('no delivery workflow configured'); } },
};

export function createDeps(config: RuntimeConfig, overrides: DepsOverrides | Clock = {}): Deps {
  const o: DepsOverrides = 'now' in overrides ? { clock: overrides as Clock } : (overrides as DepsOverrides);
  const ddbCalls: DynamoDbCallStats = { count: 0, capacityUnits: 0, trackCapacity: false };
  return {
    config,
    ddb: createDocumentClient(config, ddbCalls),
    clock: o.clock ?? systemClock,
    ddbCalls,
    keyProvider: o.keyProvider ?? createLocalKeyProvider(),
    ports: o.ports ?? NO_PORTS,
    connectorConfig: o.connectorConfig ?? { load: async () => config.connectorEnv ?? {} },
  };
}

/** Deployed functions that seal or open secrets must have FC_SECRETS_KMS_KEY_ID; never fall back silently. */
const missingKmsKey: KeyProvider = {
  keyId: 'missing',
  generateDataKey: async () => {
    throw new Error('FC_SECRETS_KMS_KEY_ID is not set for this function');
  },
  decryptDataKey: async () => {
    throw new Error('FC_SECRETS_KMS_KEY_ID is not set for this function');
  },
};

let current: Deps | undefined;

/** The process's dependencies; built from the environment on first use (Lambda cold start). */
export function runtime(): Deps {
  if (!current) {
    const config = configFromEnv();
    // On AWS the KMS and queue adapters are loaded only here, so local runs never load their SDKs;
    // the adapters in turn load each SDK and build its client on first use, not here.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { createKmsKeyProvider } = require('./crypto/kms-key-provider') as typeof KmsKeyProviderModule;
    const { createAwsPorts, createSecretsManagerConnectorConfig } = require('./aws-ports') as typeof AwsPortsModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    current = createDeps(config, {
      keyProvider: config.secretsKmsKeyId
        ? createKmsKeyProvider({ keyId: config.secretsKmsKeyId, region: config.region })
        : config.stage === 'local'
          ? undefined
          : missingKmsKey,
      ports: createAwsPorts(process.env, config.region),
      // The stage's connector credentials live in Secrets Manager when the stack names a secret.
      connectorConfig: process.env.FC_CONNECTOR_SECRET_ARN
        ? createSecretsManagerConnectorConfig(process.env.FC_CONNECTOR_SECRET_ARN, config.region, process.env)
        : undefined,
    });
  }
  return current;
}

export function configureRuntime(deps: Deps): void {
  current = deps;
}
