// Typed configuration per deployed stage. bin/app.ts picks the stage from `-c stage=`; every
// construct receives the resulting StageConfig and reads nothing else.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

import { DEPLOYED_STAGES, type DeployedStage } from '../functions/contracts/stages';

export interface StageConfig {
  stage: DeployedStage;
  /** Table, keys and log groups: sandbox is disposable, production data never is. */
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logRetention: RetentionDays;
  /** How often the scheduler enqueues a refresh of every healthy item. */
  itemRefreshInterval: Duration;
  /** Stage-wide method throttling (per-key limits are enforced in the handlers). */
  apiThrottle: { rateLimit: number; burstLimit: number };
  /** API functions answer well inside API Gateway's 29 s integration timeout. */
  apiFunction: { memorySize: number; timeout: Duration };
  alarms: {
    /** 5XXError / Count over one period, in percent. */
    api5xxRatePercent: number;
    apiLatencyP99Ms: number;
    /** Sum of Lambda throttles across all functions in one period. */
    lambdaThrottles: number;
    period: Duration;
    evaluationPeriods: number;
  };
}

const CONFIGS: Record<DeployedStage, StageConfig> = {
  sandbox: {
    stage: 'sandbox',
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    logRetention: RetentionDays.TWO_WEEKS,
    itemRefreshInterval: Duration.hours(6),
    apiThrottle: { rateLimit: 50, burstLimit: 100 },
    apiFunction: { memorySize: 512, timeout: Duration.seconds(10) },
    alarms: {
      api5xxRatePercent: 5,
      apiLatencyP99Ms: 3000,
      lambdaThrottles: 10,
      period: Duration.minutes(5),
      evaluationPeriods: 3,
    },
  },
  production: {
    stage: 'production',
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    logRetention: RetentionDays.THREE_MONTHS,
    itemRefreshInterval: Duration.hours(1),
    apiThrottle: { rateLimit: 500, burstLimit: 1000 },
    apiFunction: { memorySize: 512, timeout: Duration.seconds(10) },
    alarms: {
      api5xxRatePercent: 1,
      apiLatencyP99Ms: 1500,
      lambdaThrottles: 1,
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

export function stageConfig(stage: DeployedStage): StageConfig {
  return CONFIGS[stage];
}
