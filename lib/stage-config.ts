// Typed configuration per deployed stage. bin/app.ts picks the stage from `-c stage=`; every
// construct receives the resulting StageConfig and reads nothing else.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

import { LIMITS } from '../functions/contracts/limits';
import { AI_MODEL_BY_STAGE, DEPLOYED_STAGES, type DeployedStage } from '../functions/contracts/stages';
import { STAGE_REFRESH_CADENCE, type StageRefreshCadence } from '../functions/core/refresh-schedule';

/** Autoscaling of one capacity figure: its bounds, and where it starts when the table switches to provisioned. */
export interface AutoscaledFigure {
  min: number;
  max: number;
  /**
   * The capacity set when an on-demand table switches to provisioned, before autoscaling has seen any
   * traffic. Size it from the table's peak consumed units of the last weeks divided by the target
   * utilization: autoscaling tracks consumed capacity, and a throttled request consumes none, so from
   * too low a start it climbs by about 1/0.7 per step, minutes apart.
   */
  seed: number;
}

/**
 * How the table's reads and writes are billed, chosen per stage in CONFIGS below (committed, so every
 * deploy of the stage, a rollback included, keeps it). On demand by default: a new deployment has no
 * traffic history to size capacity from, and on demand absorbs a rise without throttling.
 * Provisioned with autoscaling bills capacity-hours instead, about 0.41 of the on-demand price of the
 * same units at a 70 % target utilization (bench/cost-model.ts prints both); worth it once the load
 * is steady, as the scheduled refreshes (most of the writes) are. DynamoDB lets a table switch from
 * on demand to provisioned at any time, and back at most 4 times in 24 hours (docs/operations.md,
 * "Table capacity").
 */
export type TableCapacity =
  | { mode: 'on-demand' }
  | {
      mode: 'provisioned';
      /** The table's reads and writes, and each index's reads and writes. */
      reads: AutoscaledFigure;
      writes: AutoscaledFigure;
      indexReads: AutoscaledFigure;
      indexWrites: AutoscaledFigure;
      /** Autoscaling keeps consumed capacity near this share of what is provisioned (20 to 90). */
      targetUtilizationPercent: number;
    };

export type TableCapacityMode = TableCapacity['mode'];

/**
 * The provisioned settings of each stage: set a stage's `tableCapacity` in CONFIGS to its entry here
 * to switch it. Minimums are what an idle deployment pays every hour. Maximums: the table's and its
 * index's together stay within the account's default regional quota (80,000 read and 80,000 write
 * units over all tables and indexes), each within the per-table 40,000. Autoscaling reacts within
 * minutes; until it does, DynamoDB's burst capacity (up to 5 minutes of unused capacity) absorbs a
 * rise, and past that requests are throttled (retried by the AWS client; the TableThrottles alarm).
 */
export const PROVISIONED_TABLE_CAPACITY: Record<DeployedStage, Extract<TableCapacity, { mode: 'provisioned' }>> = {
  sandbox: {
    mode: 'provisioned',
    reads: { min: 2, max: 1_000, seed: 10 },
    writes: { min: 2, max: 1_000, seed: 10 },
    indexReads: { min: 2, max: 500, seed: 5 },
    indexWrites: { min: 2, max: 500, seed: 5 },
    targetUtilizationPercent: 70,
  },
  production: {
    mode: 'provisioned',
    reads: { min: 10, max: 30_000, seed: 1_000 },
    writes: { min: 10, max: 30_000, seed: 1_000 },
    indexReads: { min: 5, max: 10_000, seed: 200 },
    indexWrites: { min: 5, max: 10_000, seed: 500 },
    targetUtilizationPercent: 70,
  },
};

export interface StageConfig {
  stage: DeployedStage;
  /** Billing of the table's reads and writes: on demand, or PROVISIONED_TABLE_CAPACITY[stage]. */
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
    /**
     * Throttle events of the table and its indexes (reads and writes; one per item, so a throttled
     * batch of 25 counts 25) in each of two periods. High enough that a burst the AWS client's
     * retries absorb (a history load's batches) does not page.
     */
    tableThrottleEvents: number;
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
      tableThrottleEvents: 250,
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
      tableThrottleEvents: 100,
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
export type StageOverrides = Partial<Pick<StageConfig, 'alarmSubscription' | 'customDomain' | 'manageApiGatewayAccount'>>;

/** The overrides plus what only code sets: the CDK tests synthesize a stage in its other capacity mode. */
export type StageSettings = StageOverrides & Partial<Pick<StageConfig, 'tableCapacity'>>;

export function stageConfig(stage: DeployedStage, overrides: StageSettings = {}): StageConfig {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...CONFIGS[stage], ...defined };
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
  // The table's capacity mode is a committed stage setting, never a flag: a deploy that forgot the
  // flag (a rollback) would switch a loaded table back.
  if (get('tableCapacity') !== undefined) {
    throw new Error('The table capacity mode is set per stage in lib/stage-config.ts (CONFIGS, tableCapacity), not with -c tableCapacity=');
  }
  return {
    alarmSubscription: email || topicArn ? { email, topicArn } : undefined,
    customDomain: domainName && certificateArn ? { domainName, certificateArn } : undefined,
    manageApiGatewayAccount: account === undefined ? undefined : account === true || account === 'true',
  };
}
