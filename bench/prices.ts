// AWS list prices the cost model (bench/cost-model.ts) multiplies its measured units by: one table,
// one region, the date the figures were looked up, and where each came from. Free tiers are left
// out on purpose: they are per account and shared by everything in it, so a plan's cost at full
// quota is priced from the first paid unit.
//
// `checked` says how sure each figure is:
// - 'aws-page': read on the AWS pricing page itself (the URL);
// - 'secondary': quoted by a third-party pricing summary (the URL), consistent with what we know;
// - 'not verified here': no source found during the lookup; the figure we are sure of, to re-check.
// GB means 2^30 bytes wherever a price is per GB.

export type PriceCheck = 'aws-page' | 'secondary' | 'not verified here';

export interface Price {
  /** What is bought, as the bill names it. */
  label: string;
  usd: number;
  /** The quantity `usd` buys (1,000,000 for a per-million price). */
  per: number;
  unit: string;
  source: string;
  checked: PriceCheck;
  /** The tier this price is, where the service has tiers. */
  tier?: string;
}

export const PRICE_REGION = 'us-east-1';
export const PRICES_TAKEN_ON = '2026-11-24';

export const PRICES = {
  apiGatewayRequests: {
    label: 'API Gateway REST requests',
    usd: 3.5,
    per: 1_000_000,
    unit: 'request',
    tier: 'first 333 M a month',
    source: 'https://docs.aws.amazon.com/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html',
    checked: 'secondary',
  },
  wafRequests: {
    label: 'WAF requests inspected',
    usd: 0.6,
    per: 1_000_000,
    unit: 'request',
    source: 'https://c3x.dev/blog/aws-waf-cost-explained/',
    checked: 'secondary',
  },
  wafWebAclMonths: {
    label: 'WAF web ACL',
    usd: 5,
    per: 1,
    unit: 'web ACL-month',
    source: 'https://c3x.dev/blog/aws-waf-cost-explained/',
    checked: 'secondary',
  },
  wafRuleMonths: {
    label: 'WAF rules',
    usd: 1,
    per: 1,
    unit: 'rule-month',
    source: 'https://c3x.dev/blog/aws-waf-cost-explained/',
    checked: 'secondary',
  },
  lambdaRequests: {
    label: 'Lambda requests',
    usd: 0.2,
    per: 1_000_000,
    unit: 'invocation',
    source: 'https://aws.amazon.com/lambda/pricing/',
    checked: 'secondary',
  },
  lambdaArmGbSeconds: {
    label: 'Lambda arm64 duration',
    usd: 0.0000133334,
    per: 1,
    unit: 'GB-second',
    tier: 'first 7.5 billion GB-s a month',
    source: 'https://cloudchipr.com/blog/aws-lambda-pricing',
    checked: 'secondary',
  },
  dynamoReadRequestUnits: {
    label: 'DynamoDB on-demand reads',
    usd: 0.125,
    per: 1_000_000,
    unit: 'RRU',
    tier: 'Standard table class, after the November 2024 reduction',
    source: 'https://airbyte.com/data-engineering-resources/dynamodb-pricing',
    checked: 'secondary',
  },
  dynamoWriteRequestUnits: {
    label: 'DynamoDB on-demand writes',
    usd: 0.625,
    per: 1_000_000,
    unit: 'WRU',
    tier: 'Standard table class, after the November 2024 reduction',
    source: 'https://airbyte.com/data-engineering-resources/dynamodb-pricing',
    checked: 'secondary',
  },
  dynamoProvisionedWcuHours: {
    label: 'DynamoDB provisioned writes',
    usd: 0.00065,
    per: 1,
    unit: 'WCU-hour',
    tier: 'Standard table class; unchanged by the November 2024 on-demand reduction',
    source: 'https://aws.amazon.com/dynamodb/pricing/provisioned/ (figure quoted by several summaries; the page renders it in a widget)',
    checked: 'secondary',
  },
  dynamoProvisionedRcuHours: {
    label: 'DynamoDB provisioned reads',
    usd: 0.00013,
    per: 1,
    unit: 'RCU-hour',
    tier: 'Standard table class',
    source: 'https://aws.amazon.com/dynamodb/pricing/provisioned/ (figure quoted by several summaries; the page renders it in a widget)',
    checked: 'secondary',
  },
  dynamoStorageGbMonths: {
    label: 'DynamoDB storage',
    usd: 0.25,
    per: 1,
    unit: 'GB-month',
    tier: 'Standard table class',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: 'not verified here',
  },
  dynamoPitrGbMonths: {
    label: 'DynamoDB point-in-time recovery',
    usd: 0.2,
    per: 1,
    unit: 'GB-month',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    checked: 'not verified here',
  },
  sqsStandardRequests: {
    label: 'SQS standard requests',
    usd: 0.4,
    per: 1_000_000,
    unit: 'request (64 KB chunk)',
    source: 'https://www.factualminds.com/blog/amazon-sqs-pricing-64kb-rule-fifo-vs-standard/',
    checked: 'secondary',
  },
  sqsFifoRequests: {
    label: 'SQS FIFO requests',
    usd: 0.5,
    per: 1_000_000,
    unit: 'request (64 KB chunk)',
    source: 'https://cloudburn.io/blog/amazon-sqs-pricing',
    checked: 'secondary',
  },
  stepFunctionsTransitions: {
    label: 'Step Functions Standard transitions',
    usd: 0.025,
    per: 1_000,
    unit: 'state transition',
    source: 'https://aws.amazon.com/step-functions/pricing/',
    checked: 'aws-page',
  },
  kmsRequests: {
    label: 'KMS requests',
    usd: 0.03,
    per: 10_000,
    unit: 'request',
    tier: 'symmetric keys',
    source: 'https://www.wring.co/blog/aws-kms-pricing-guide',
    checked: 'secondary',
  },
  kmsKeyMonths: {
    label: 'KMS customer managed keys',
    usd: 1,
    per: 1,
    unit: 'key-month',
    tier: 'each automatic rotation adds $1 a month (first two rotations)',
    source: 'https://aws.amazon.com/kms/pricing/',
    checked: 'aws-page',
  },
  logsIngestedGb: {
    label: 'CloudWatch Logs ingestion',
    usd: 0.5,
    per: 1,
    unit: 'GB',
    tier: 'Standard class; Lambda logs: first 10 TB a month',
    source: 'https://www.factualminds.com/blog/amazon-cloudwatch-pricing-metrics-logs-alarms-dashboards/',
    checked: 'secondary',
  },
  logsStoredGbMonths: {
    label: 'CloudWatch Logs storage',
    usd: 0.03,
    per: 1,
    unit: 'GB-month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    checked: 'not verified here',
  },
  customMetricMonths: {
    label: 'CloudWatch custom metrics',
    usd: 0.3,
    per: 1,
    unit: 'metric-month',
    tier: 'first 10,000 metrics',
    source: 'https://signoz.io/guides/cloudwatch-pricing',
    checked: 'secondary',
  },
  alarmMetricMonths: {
    label: 'CloudWatch alarms',
    usd: 0.1,
    per: 1,
    unit: 'standard-resolution alarm metric-month',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    checked: 'not verified here',
  },
  dashboardMonths: {
    label: 'CloudWatch dashboards',
    usd: 3,
    per: 1,
    unit: 'dashboard-month',
    source: 'https://www.factualminds.com/blog/amazon-cloudwatch-pricing-metrics-logs-alarms-dashboards/',
    checked: 'secondary',
  },
  xrayTracesRecorded: {
    label: 'X-Ray traces recorded',
    usd: 5,
    per: 1_000_000,
    unit: 'trace',
    source: 'https://aws.amazon.com/de/xray/pricing/',
    checked: 'aws-page',
  },
  dataTransferOutGb: {
    label: 'Data transfer out to the internet',
    usd: 0.09,
    per: 1,
    unit: 'GB',
    tier: 'first 10 TB a month',
    source: 'https://unanswered.io/guide/aws-sqs-pricing-and-cost-optimization',
    checked: 'secondary',
  },
} as const satisfies Record<string, Price>;

export type PriceKey = keyof typeof PRICES;

/**
 * X-Ray's default sampling rule, which applies because the stack defines none (lib/): the first
 * request each second (the reservoir, shared by everything the account traces), then 5 % of the
 * rest. Source: https://awsnegotiations.com/x-ray-pricing-strategy.html (secondary).
 */
export const XRAY_DEFAULT_SAMPLING = { reservoirPerSecond: 1, fixedRate: 0.05 } as const;
