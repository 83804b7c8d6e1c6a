// Runtime dependencies of every handler, built once per process (Lambda cold start or local
// server start) from validated configuration. Tests and the local server call configureRuntime()
// with their own values; handlers only ever see `deps`.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';

const ConfigSchema = z.object({
  FC_TABLE_NAME: z.string().min(1),
  FC_STAGE: z.enum(['local', 'sandbox', 'production']).default('local'),
  FC_DYNAMODB_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  FC_BASE_URL: z.url().optional(),
});

export interface RuntimeConfig {
  tableName: string;
  stage: 'local' | 'sandbox' | 'production';
  region: string;
  dynamodbEndpoint?: string;
  /** Public root address ({base_url}) when known; otherwise derived from the request host. */
  baseUrl?: string;
  /** Check every JSON response against its route's schema (tests turn this on; it costs CPU). */
  validateResponses?: boolean;
  /** Connector credentials present in this deployment (env var name -> value); none locally. */
  connectorEnv?: Record<string, string | undefined>;
}

export interface Clock {
  now(): number;
}

export interface Deps {
  config: RuntimeConfig;
  ddb: DynamoDBDocumentClient;
  clock: Clock;
  /** Counts DynamoDB calls made through `ddb` (for benchmarks and cost statements). */
  ddbCalls: DynamoDbCallStats;
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
  };
}

export function createDocumentClient(config: RuntimeConfig, ddbCalls: DynamoDbCallStats): DynamoDBDocumentClient {
  const local = config.dynamodbEndpoint !== undefined;
  const client = new DynamoDBClient({
    region: config.region,
    ...(local
      ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 3,
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      ddbCalls.count += 1;
      if (!ddbCalls.trackCapacity) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
      for (const c of [consumed ?? []].flat()) ddbCalls.capacityUnits += c.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'countDynamoDbCalls' },
  );
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

export function createDeps(config: RuntimeConfig, clock: Clock = systemClock): Deps {
  const ddbCalls: DynamoDbCallStats = { count: 0, capacityUnits: 0, trackCapacity: false };
  return { config, ddb: createDocumentClient(config, ddbCalls), clock, ddbCalls };
}

let current: Deps | undefined;

/** The process's dependencies; built from the environment on first use (Lambda cold start). */
export function runtime(): Deps {
  current ??= createDeps(configFromEnv());
  return current;
}

export function configureRuntime(deps: Deps): void {
  current = deps;
}
