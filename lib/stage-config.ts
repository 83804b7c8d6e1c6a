// Typed configuration per deployed stage. bin/app.ts picks the stage from `-c stage=`; every
// construct receives the resulting StageConfig and reads nothing else.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

import { LIMITS } from '../functions/contracts/limits';
import { AI_MODEL_BY_STAGE, DEPLOYED_STAGES, type DeployedStage } from '../functions/contracts/stages';
import { STAGE_REFRESH_CADENCE, type StageRefreshCadence } from '../functions/core/refresh-schedule';

/**
 * How the table's reads and writes are billed. On demand by default: a new deployment has no traffic
 * history to size capacity from, and on-demand absorbs a burst without throttling. Provisioned with
 * autoscaling bills capacity-hours instead, about 0.4 times the on-demand price of the same units at
 * a 70 % target utilization (bench/cost-model.ts prints both); worth it once the load is steady,
 * as the scheduled refreshes (most of the writes) are. An operator switches with `-c tableCapacity=`
 * (docs/operations.md, "Table capacity"); DynamoDB allows a few switches a day.
 */
export type TableCapacity =
  | { mode: 'on-demand' }
  | {
      mode: 'provisioned';
      /** Autoscaling bounds of the table's read and write capacity units, and of each index's reads. */
      reads: { min: number; max: number };
      writes: { min: number; max: number };
      indexReads: { min: number; max: number };
      /** Autoscaling keeps consumed capacity near this share of what is provisioned (20 to 90). */
      targetUtilizationPercent: number;
    };

export type TableCapacityMode = TableCapacity['mode'];

export const TABLE_CAPACITY_MODES: readonly TableCapacityMode[] = ['on-demand', 'provisioned'];

/**
 * The provisioned settings of each stage, used when `-c tableCapacity=provisioned` asks for them.
 * Minimums are what an idle deployment pays for every hour (each index's writes follow the
 * table's, so the write minimum is paid once per index too); maximums stay under the account's
 * default per-table quota (40,000 each). Autoscaling reacts within minutes; until it does, DynamoDB's
 * burst capacity (up to 5 minutes of unused capacity) absorbs a rise, and past that requests are
 * throttled (retried by the AWS client, and alarmed: TableThrottles).
 */
export const PROVISIONED_TABLE_CAPACITY: Record<DeployedStage, Extract<TableCapacity, { mode: 'provisioned' }>> = {
  sandbox: { mode: 'provisioned', reads: { min: 2, max: 1_000 }, writes: { min: 2, max: 1_000 }, indexReads: { min: 2, max: 1_000 }, targetUtilizationPercent: 70 },
  production: {
    mode: 'provisioned',
    reads: { min: 10, max: 40_000 },
    writes: { min: 10, max: 40_000 },
    indexReads: { min: 5, max: 10_000 },
    targetUtilizationPercent: 70,
  },
};

export interface StageConfig {
  stage: DeployedStage;
  /** Billing of the table's reads and writes (on demand unless the operator chose provisioned). */
  tableCapacity: TableCapacity;
  /** Table, keys and log groups: sandbox is disposable, production data never is. */
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logRetention: RetentionDays;
  /**
   * Scheduled work: how often the scheduled worker runs (the outbox sweep needs at least every 5
   * minutes; each run queues only the items whose refresh is due), and how often each item is
   * refreshed on this stage. The cadence is functions/core/refresh-schedule.ts STAGE_REFRESH_CADENCE
   * for the stage: the functions read the same entry at run time (by FC_STAGE), so what the stack
   * says and what the code does cannot drift. Per plan: PLAN_REFRESH_HOURS (functions/contracts/limits.ts).
   */
  scheduledWork: { every: Duration; refreshCadence: StageRefreshCadence };
  /**
   * Stage-wide method throttling: the ceiling of all tenants together, sized so the largest plan's
   * documented rate and burst (functions/contracts/limits.ts) is reachable; per-key limits are
   * enforced in the handlers. The burst stays within the account's default regional burst (5,000).
   */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /**
   * WAF rate-based rules per source IP, counted over WAF_WINDOW_SECONDS (lib/api-firewall.ts):
   * requests to key routes without a well-formed API key, and all requests.
   */
  firewall: { malformedKeyPerIp: number; allPerIp: number };
  /** Workers: SQS event-source maxConcurrency, and the delivery worker's reserved concurrency. */
  workers: { dispatchMaxConcurrency: number; refreshMaxConcurrency: number; deliveryReservedConcurrency?: number };
  /** CloudFormation termination protection of the stack. */
  terminationProtection: boolean;
  /** Who hears the alarms besides the stack's own topic (from `-c alarmEmail=` / `-c alarmTopicArn=`). */
  alarmSubscription?: { email?: string; topicArn?: string };
  /** Custom domain (`-c domainName= -c certificateArn=`): its URL becomes FC_BASE_URL of every function. */
  customDomain?: { domainName: string; certificateArn: string };
  /**
   * Create the account-level API Gateway settings (the CloudWatch role execution logs need). They are
   * one per account and region, so exactly one stack per account sets this (`-c apiGatewayAccount=true`).
   */
  manageApiGatewayAccount: boolean;
  /** API functions answer well inside API Gateway's 29 s integration timeout. */
  apiFunction: { memorySize: number; timeout: Duration };
  /**
   * The AI routes' model: the Bedrock model id (functions/contracts/stages.ts AI_MODEL_BY_STAGE, the
   * same table the docs quote), or null for rules answers only; and the AI functions' timeout, which
   * covers the model's own limit (LIMITS.aiModelTimeoutMs) plus reading the item, still well inside
   * API Gateway's 29 s.
   */
  ai: { model: { bedrockModelId: string } | null; functionTimeout: Duration };
  alarms: {
    /** 5XXError / Count over one period, in percent. */
    api5xxRatePercent: number;
    apiLatencyP99Ms: number;
    /** Sum of Lambda throttles across all functions in one period. */
    lambdaThrottles: number;
    /** Requests DynamoDB throttled (table and indexes, reads and writes) in each of two periods. */
    tableThrottles: number;
    period: Duration;
    evaluationPeriods: number;
  };
}

/** The model's limit plus 7 s for reading the item and computing the rules answer. */
const AI_FUNCTION_TIMEOUT = Duration.millis(LIMITS.aiModelTimeoutMs).plus(Duration.seconds(7));

const CONFIGS: Record<DeployedStage, StageConfig> = {
  sandbox: {
    stage: 'sandbox',
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    tableCapacity: { mode: 'on-demand' },
    logRetention: RetentionDays.TWO_WEEKS,
    scheduledWork: { every: Duration.minutes(5), refreshCadence: STAGE_REFRESH_CADENCE.sandbox },
    apiThrottle: { rateLimit: 1_000, burstLimit: 3_000 },
    firewall: { malformedKeyPerIp: 300, allPerIp: 600_000 },
    workers: { dispatchMaxConcurrency: 2, refreshMaxConcurrency: 2 },
    terminationProtection: false,
    manageApiGatewayAccount: false,
    apiFunction: { memorySize: 512, timeout: Duration.seconds(10) },
    ai: { model: AI_MODEL_BY_STAGE.sandbox, functionTimeout: AI_FUNCTION_TIMEOUT },
    alarms: {
      api5xxRatePercent: 5,
      apiLatencyP99Ms: 3000,
      lambdaThrottles: 10,
      tableThrottles: 50,
      period: Duration.minutes(5),
      evaluationPeriods: 3,
    },
  },
  production: {
    stage: 'production',
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    tableCapacity: { mode: 'on-demand' },
    logRetention: RetentionDays.THREE_MONTHS,
    scheduledWork: { every: Duration.minutes(5), refreshCadence: STAGE_REFRESH_CADENCE.production },
    apiThrottle: { rateLimit: 5_000, burstLimit: 5_000 },
    firewall: { malformedKeyPerIp: 300, allPerIp: 600_000 },
    workers: { dispatchMaxConcurrency: 10, refreshMaxConcurrency: 10, deliveryReservedConcurrency: 50 },
    terminationProtection: true,
    manageApiGatewayAccount: false,
    apiFunction: { memorySize: 512, timeout: Duration.seconds(10) },
    ai: { model: AI_MODEL_BY_STAGE.production, functionTimeout: AI_FUNCTION_TIMEOUT },
    alarms: {
      api5xxRatePercent: 1,
      apiLatencyP99Ms: 1500,
      lambdaThrottles: 1,
      tableThrottles: 25,
      period: Duration.minutes(1),
      evaluationPeriods: 5,
    },
  },
};

export function isStage(value: unknown): value is DeployedStage {
  return typeof value === 'string' && (DEPLOYED_STAGES as readonly string[]).includes(value);
}

/** Validates the raw `-c stage=` value; the message says how to fix a missing or wrong one. */
export function parseStage(value: unknown): DeployedStage {
  if (isStage(value)) return value;
  const got = value === undefined ? 'nothing' : JSON.stringify(value);
  throw new Error(
    `Pass the stage as CDK context: -c stage=${DEPLOYED_STAGES.join('|')} (got ${got}). ` +
      'Example: npx cdk synth -c stage=sandbox',
  );
}

/** What an operator may set per deployment through CDK context (bin/app.ts), on top of the stage's config. */
export type StageOverrides = Partial<Pick<StageConfig, 'alarmSubscription' | 'customDomain' | 'manageApiGatewayAccount'>> & {
  /** `-c tableCapacity=provisioned` takes the stage's PROVISIONED_TABLE_CAPACITY. */
  tableCapacity?: TableCapacityMode;
};

export function stageConfig(stage: DeployedStage, overrides: StageOverrides = {}): StageConfig {
  const { tableCapacity, ...rest } = overrides;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const capacity: TableCapacity | undefined =
    tableCapacity === 'provisioned' ? PROVISIONED_TABLE_CAPACITY[stage] : tableCapacity === 'on-demand' ? { mode: 'on-demand' } : undefined;
  return { ...CONFIGS[stage], ...defined, ...(capacity ? { tableCapacity: capacity } : {}) };
}

/** Reads the optional overrides from CDK context values (strings, as `-c key=value` passes them). */
export function overridesFromContext(get: (key: string) => unknown): StageOverrides {
  const text = (key: string): string | undefined => {
    const value = get(key);
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`-c ${key}= must be a string`);
    return value;
  };
  const email = text('alarmEmail');
  const topicArn = text('alarmTopicArn');
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  if ((domainName === undefined) !== (certificateArn === undefined)) {
    throw new Error('A custom domain needs both -c domainName= and -c certificateArn= (an ACM certificate in the stack region)');
  }
  const account = get('apiGatewayAccount');
  const capacity = text('tableCapacity');
  if (capacity !== undefined && !(TABLE_CAPACITY_MODES as readonly string[]).includes(capacity)) {
    throw new Error(`-c tableCapacity= must be one of ${TABLE_CAPACITY_MODES.join(', ')} (got ${JSON.stringify(capacity)})`);
  }
  return {
    tableCapacity: capacity as TableCapacityMode | undefined,
    alarmSubscription: email || topicArn ? { email, topicArn } : undefined,
    customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
    manageApiGatewayAccount: account === undefined ? undefined : account === true || account === 'true',
  };
}
