// The arithmetic of the cost model (bench/cost-model.ts), kept pure so that a unit test can hold it
// (test/unit/cost-model.test.ts): units measured per sampled operation, scaled to a plan's month,
// priced with bench/prices.ts; the plans' monthly mix; DynamoDB item sizes for storage.
import { PRICES, XRAY_DEFAULT_SAMPLING, type Price, type PriceKey } from './prices';

export const HOURS_PER_MONTH = 730;
export const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
const GB = 2 ** 30;

/** What one sampled operation consumed, counted at the ports and handlers while it ran. */
export interface RawUnits {
  /** Requests through API Gateway (each one also inspected by the WAF). */
  apiRequests: number;
  /** Calls that count against the plan's monthly API quota (routes metered `api`). */
  meteredApiCalls: number;
  /** Calls that count against the plan's monthly AI quota (routes metered `ai`). */
  meteredAiCalls: number;
  lambdaInvocations: number;
  /** Billed duration (each invocation rounded up to 1 ms) times configured memory. */
  lambdaGbSeconds: number;
  dynamoRru: number;
  dynamoWru: number;
  sqsStandardRequests: number;
  sqsFifoRequests: number;
  stepFunctionsTransitions: number;
  kmsRequests: number;
  /** Bytes written to CloudWatch Logs: function output, Lambda's platform records, access logs, state machine logs. */
  logBytes: number;
  /** Invocations that start a trace: API requests, queue- and schedule-triggered invocations, executions. */
  traceEntries: number;
  /** API responses (compressed as API Gateway would) and webhook POSTs leaving AWS. */
  transferOutBytes: number;
  /** Events written to the outbox (kept EVENT_RETENTION_DAYS with their deliveries). */
  eventsEmitted: number;
  /** Webhook first attempts POSTed (dispatch's own attempt). */
  webhookFirstAttempts: number;
}

export const RAW_UNIT_NAMES = [
  'apiRequests',
  'meteredApiCalls',
  'meteredAiCalls',
  'lambdaInvocations',
  'lambdaGbSeconds',
  'dynamoRru',
  'dynamoWru',
  'sqsStandardRequests',
  'sqsFifoRequests',
  'stepFunctionsTransitions',
  'kmsRequests',
  'logBytes',
  'traceEntries',
  'transferOutBytes',
  'eventsEmitted',
  'webhookFirstAttempts',
] as const satisfies readonly (keyof RawUnits)[];

export function zeroUnits(): RawUnits {
  return Object.fromEntries(RAW_UNIT_NAMES.map((name) => [name, 0])) as unknown as RawUnits;
}

export function addUnits(into: RawUnits, add: RawUnits, factor = 1): RawUnits {
  for (const name of RAW_UNIT_NAMES) into[name] += add[name] * factor;
  return into;
}

/** The mean of a set of samples of one operation. */
export function meanUnits(samples: readonly RawUnits[]): RawUnits {
  if (samples.length === 0) throw new Error('no samples to average');
  const total = zeroUnits();
  for (const sample of samples) addUnits(total, sample);
  return addUnits(zeroUnits(), total, 1 / samples.length);
}

/** Lambda bills each invocation's duration rounded up to the millisecond, times its memory. */
export function lambdaGbSeconds(durationMs: number, memoryMb: number): number {
  return (Math.ceil(durationMs) / 1000) * (memoryMb / 1024);
}

/** How many SQS requests one message of `bytes` costs (each 64 KB chunk is a request). */
export function sqsRequestsFor(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / (64 * 1024)));
}

export interface PricingContext {
  /** Months a log line is kept (the stage's log retention): what it costs in storage over its life. */
  logRetentionMonths: number;
  /** Fraction of trace entries X-Ray records at the margin, beyond the reservoir (fixed costs carry the reservoir). */
  xrayFixedRate: number;
}

export const DEFAULT_XRAY_FIXED_RATE = XRAY_DEFAULT_SAMPLING.fixedRate;

/** The billable quantities of a month's (or an hour's) units, per price in bench/prices.ts. */
export function billableQuantities(units: RawUnits, ctx: PricingContext): Partial<Record<PriceKey, number>> {
  return {
    apiGatewayRequests: units.apiRequests,
    wafRequests: units.apiRequests,
    lambdaRequests: units.lambdaInvocations,
    lambdaArmGbSeconds: units.lambdaGbSeconds,
    dynamoReadRequestUnits: units.dynamoRru,
    dynamoWriteRequestUnits: units.dynamoWru,
    sqsStandardRequests: units.sqsStandardRequests,
    sqsFifoRequests: units.sqsFifoRequests,
    stepFunctionsTransitions: units.stepFunctionsTransitions,
    kmsRequests: units.kmsRequests,
    logsIngestedGb: units.logBytes / GB,
    // Every month's lines are stored for the retention period: in steady state, that many months of them.
    logsStoredGbMonths: (units.logBytes / GB) * ctx.logRetentionMonths,
    xrayTracesRecorded: units.traceEntries * ctx.xrayFixedRate,
    dataTransferOutGb: units.transferOutBytes / GB,
  };
}

/**
 * The same quantities with the table billed as provisioned capacity under autoscaling: consumption
 * held at `utilization` of what is provisioned means each request unit consumed buys 1/utilization
 * of a capacity unit for one second (a strongly consistent 4 KB read is 1 RCU-second, a 1 KB write 1
 * WCU-second; eventually consistent and transactional units are already halved and doubled in the
 * measured units). Burst capacity and the hours autoscaling lags behind a rise are not modelled.
 */
export function asProvisioned(quantities: Partial<Record<PriceKey, number>>, utilization: number): Partial<Record<PriceKey, number>> {
  if (!(utilization > 0 && utilization <= 1)) throw new Error(`utilization must be in (0, 1], got ${utilization}`);
  const { dynamoReadRequestUnits = 0, dynamoWriteRequestUnits = 0, ...rest } = quantities;
  return {
    ...rest,
    dynamoProvisionedRcuHours: dynamoReadRequestUnits / 3600 / utilization,
    dynamoProvisionedWcuHours: dynamoWriteRequestUnits / 3600 / utilization,
  };
}

/** What a provisioned table's minimum capacity costs idle for a month: the table's and each index's. */
export function provisionedMinimumQuantities(
  capacity: { reads: { min: number }; writes: { min: number }; indexReads: { min: number }; indexWrites: { min: number } },
  indexes: number,
): Partial<Record<PriceKey, number>> {
  return {
    dynamoProvisionedRcuHours: (capacity.reads.min + capacity.indexReads.min * indexes) * HOURS_PER_MONTH,
    dynamoProvisionedWcuHours: (capacity.writes.min + capacity.indexWrites.min * indexes) * HOURS_PER_MONTH,
  };
}

export interface LineItem {
  key: PriceKey;
  label: string;
  quantity: number;
  unit: string;
  usd: number;
}

/** quantity x price, one line per price that has a quantity. */
export function priceQuantities(quantities: Partial<Record<PriceKey, number>>, prices: Record<PriceKey, Price> = PRICES): LineItem[] {
  const lines: LineItem[] = [];
  for (const [key, quantity] of Object.entries(quantities) as [PriceKey, number][]) {
    if (!quantity) continue;
    const price = prices[key];
    lines.push({ key, label: price.label, quantity, unit: price.unit, usd: (quantity / price.per) * price.usd });
  }
  return lines;
}

export const totalUsd = (lines: readonly LineItem[]): number => lines.reduce((sum, line) => sum + line.usd, 0);

/** The biggest line items first. */
export function biggest(lines: readonly LineItem[], n: number): LineItem[] {
  return [...lines].sort((a, b) => b.usd - a.usd).slice(0, n);
}

/** Per-operation mean units, each times its count for the period. */
export function scaleToPeriod(perOperation: Readonly<Record<string, RawUnits>>, counts: Readonly<Record<string, number>>): RawUnits {
  const total = zeroUnits();
  for (const [op, count] of Object.entries(counts)) {
    if (count === 0) continue;
    const units = perOperation[op];
    if (!units) throw new Error(`no measured units for operation ${op}`);
    addUnits(total, units, count);
  }
  return total;
}

// ---------- the monthly mix ----------

/** Assumptions of the mix, documented in the bench header and docs/benchmarks.md. */
export const MIX = {
  /** Connected users replaced each month: that many Link journeys, and as many items removed. */
  churnPerMonth: 0.05,
  /** Webhook first attempts the receiver does not accept (retried by a WebhookDelivery execution). */
  webhookFirstAttemptFailure: 0.01,
  /**
   * How the quota left after the derived traffic (Link journeys with their first sync, the sync
   * after every webhook, removals) is spread, as shares of operations.
   */
  remainderShares: {
    'accounts.balance.get': 0.3,
    'accounts.get': 0.12,
    'items.get': 0.08,
    'transactions.get': 0.1,
    'identity.get': 0.05,
    'income.get': 0.05,
    'recurring.get': 0.06,
    'liabilities.get': 0.04,
    'items.refresh': 0.05,
    'institutions.search': 0.05,
    'categories.get': 0.03,
    'webhooks.deliveries.list': 0.04,
    'webhooks.endpoints.list': 0.03,
  },
} as const;

export type RemainderOperation = keyof typeof MIX.remainderShares;

export interface PlanShape {
  apiPerMonth: number;
  aiPerMonth: number;
  connectedUsers: number;
  /** Hours between two scheduled refreshes of one item. */
  refreshHours: number;
}

/** What follows from the users alone: journeys and removals (churn) and scheduled refreshes. */
export function backgroundCounts(plan: Pick<PlanShape, 'connectedUsers' | 'refreshHours'>) {
  const replaced = Math.round(plan.connectedUsers * MIX.churnPerMonth);
  return {
    linkJourneys: replaced,
    itemRemovals: replaced,
    scheduledRefreshes: plan.connectedUsers * (HOURS_PER_MONTH / plan.refreshHours),
  };
}

/**
 * Counts of the remainder operations that use up `remaining` metered calls in the given shares,
 * knowing how many metered calls each operation makes (an on-demand refresh also makes the sync
 * that follows its webhook). Negative `remaining` (the derived traffic alone exceeds the quota)
 * leaves nothing for them.
 */
export function fillRemainder(
  remaining: number,
  shares: Readonly<Record<string, number>>,
  meteredPerOperation: Readonly<Record<string, number>>,
): Record<string, number> {
  const perShare = Object.entries(shares).reduce((sum, [op, share]) => sum + share * (meteredPerOperation[op] ?? 0), 0);
  if (perShare <= 0) throw new Error('the remainder operations make no metered calls');
  const scale = Math.max(0, remaining) / perShare;
  return Object.fromEntries(Object.entries(shares).map(([op, share]) => [op, share * scale]));
}

/**
 * Traces X-Ray records over a period under a sampling rule: the reservoir (per second, shared by
 * the account) first, then the fixed rate of the rest.
 */
export function tracesRecorded(entries: number, seconds: number, rule: { reservoirPerSecond: number; fixedRate: number } = XRAY_DEFAULT_SAMPLING): number {
  const reservoir = Math.min(entries, rule.reservoirPerSecond * seconds);
  return reservoir + (entries - reservoir) * rule.fixedRate;
}

// ---------- storage ----------

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** Bytes DynamoDB counts for one attribute value (its documented item-size rules). */
export function dynamoValueBytes(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    // About one byte per two significant digits, plus one.
    const digits = String(value).replace(/^-/, '').replace('.', '').replace(/e.*$/i, '').replace(/^0+/, '').replace(/0+$/, '');
    return Math.ceil(Math.max(1, digits.length) / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + dynamoValueBytes(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, v) => sum + dynamoValueBytes(v) + 1, 0);
  if (typeof value === 'object') {
    return 3 + Object.entries(value as Record<string, unknown>).reduce((sum, [k, v]) => sum + utf8(k) + dynamoValueBytes(v) + 1, 0);
  }
  throw new Error(`no DynamoDB size for a ${typeof value}`);
}

/** Per-item overhead DynamoDB adds to stored size (indexing), for the table and each index entry. */
export const DYNAMO_ITEM_OVERHEAD_BYTES = 100;

/**
 * Stored bytes of one item: its attributes plus the overhead, and once more in every index whose
 * partition key it carries (the table's GSI projects all attributes).
 */
export function dynamoStoredBytes(item: Readonly<Record<string, unknown>>, indexPartitionKeys: readonly string[]): number {
  const own = Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + dynamoValueBytes(value), 0) + DYNAMO_ITEM_OVERHEAD_BYTES;
  const indexed = indexPartitionKeys.filter((key) => item[key] !== undefined).length;
  return own * (1 + indexed);
}

export const bytesToGb = (bytes: number): number => bytes / GB;
