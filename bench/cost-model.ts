// Benchmark: what a month of each plan at its full quota costs on AWS, from units counted while the
// real code runs. `npm run bench` runs it with the others; alone: `npx tsx bench/cost-model.ts`
// (BENCH_COST_SAMPLES=2 doubles every sample; BENCH_COST_PLANS=free,startup measures those only).
//
// How. A month cannot be replayed literally, so each operation of the plan's mix is replayed a few
// times through the real code paths, and its units are MEASURED per operation; the monthly figures
// are those means SCALED by the operation's count in the mix, then priced with bench/prices.ts
// (bench/cost-math.ts does the arithmetic). Everything runs in one child process started with the
// environment a Lambda has (Powertools metrics on, INFO logs), against DynamoDB Local:
// - API requests: the route's handler module invoked with an API Gateway proxy event, as Lambda does;
// - background work through AWS-shaped ports: SQS sends and receives are counted as SQS would bill
//   them, the webhook-dispatch, item-refresh and scheduled-refresh workers run from queue and
//   schedule events, and each WebhookDelivery execution runs the deployed state machine definition
//   (aws-local-stepfunctions) with its Lambda tasks invoking the delivery and dead-letter workers;
// - units: DynamoDB RRU and WRU from ReturnConsumedCapacity, KMS calls at the key provider, Lambda
//   GB-s as measured handler time (rounded up to 1 ms) x the configured memory, CloudWatch Logs bytes
//   as what the functions write plus Lambda's platform records, the access log line and the state
//   machine's log records, X-Ray trace entries (API requests, queue- and schedule-triggered
//   invocations, executions) at the default sampling rule, data out (responses compressed as API
//   Gateway does, webhook POSTs);
// - a loopback webhook receiver plays the integrator: it answers 200 and syncs the item after every
//   `transactions.sync_updates_available`, from the cursor it keeps per item.
// A manual clock moves between two samples of an operation by the real gap between two such
// operations of one tenant in the mix (for per-user caches: of one user, at most a day), so caches
// (opened webhook secrets, cached balances) hit as often as they would.
//
// The mix per plan at full quota (PLANS in functions/contracts/limits.ts, cadence from
// functions/core/refresh-schedule.ts for the production stage):
// - connected users at the plan's limit, 5 % replaced a month: that many Link journeys (link token
//   with webhook, page, SDK, session, institution search, connect, exchange, full first sync in pages
//   of 500) and as many items removed;
// - every user refreshed at the plan's cadence: scheduled sweep (refresh-due index) -> SQS FIFO ->
//   item-refresh worker -> ingestion and events -> SQS -> webhook-dispatch with its first attempt
//   inline -> the integrator's sync; 1 % of first attempts fail and go to a WebhookDelivery execution
//   that delivers at attempt 2;
// - the API quota left after that spread over reads and management (MIX.remainderShares in
//   bench/cost-math.ts: balances, accounts, items, transactions/get, products, on-demand refresh,
//   institution search, categories, webhook endpoints and deliveries);
// - the AI quota on ai.categorize (two raw rows, rules only: the model's cost, where a stage has one,
//   is not counted here);
// - storage: each user's rows after connect (24 months of history) and refreshes, plus the events and
//   deliveries of the retention window (EVENT_RETENTION_DAYS; the TTL removes older ones);
// - Enterprise: the Growth mix's composition scaled to 1,000 rps for one hour (3.6 M API requests),
//   priced per hour, with an enterprise key.
// Fixed monthly costs of one deployment (WAF, KMS keys, alarms, dashboard, custom metrics, the
// scheduled sweep every 5 minutes, idle SQS polling, the X-Ray reservoir) are priced once, apart
// from the plans: the plans' target is what one more tenant at full quota adds.
//
// Not modeled: cold starts (INIT time), live connectors (every plan runs on the sandbox connector,
// which returns its whole 24-month window on each refresh), AI model calls, the account's free tiers.
// Every item is refreshed on one UTC day only (sameDayCapMs below says why).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ScanCommand, QueryCommand } from '../functions/platform/aws/dynamodb';
import type { APIGatewayProxyEvent, Context, SQSEvent } from 'aws-lambda';
import { StateMachine, type RunOptions } from 'aws-local-stepfunctions';
import { DELIVERY_ATTEMPT_HEADER } from '../functions/contracts/events';
import { EVENT_RETENTION_DAYS, PLANS, type PlanName } from '../functions/contracts/limits';
import { ROUTES, routeById, type Route } from '../functions/contracts/routes';
import type { DeliveryExecutionStart, RefreshExecutionInput } from '../functions/contracts/worker-messages';
import { generateApiKey } from '../functions/core/api-keys';
import { refreshIntervalHours } from '../functions/core/refresh-schedule';
import { TABLE } from '../functions/data/keys';
import type { KeyProvider } from '../functions/platform/crypto/envelope';
import { createLocalKeyProvider } from '../functions/platform/crypto/local-key-provider';
import { ensureTable, startDynamoDbLocal } from '../functions/platform/local/dynamodb-local';
import { loadHandlers } from '../functions/platform/local/http-server';
import { applySeed } from '../functions/platform/local/seed';
import { LOCAL_DEFINITIONS, scaledWaits } from '../functions/platform/local/workflows';
import type { LambdaHandler } from '../functions/platform/operation';
import type { BackgroundPorts } from '../functions/platform/ports';
import { configureRuntime, createDeps, type Clock, type Deps } from '../functions/platform/runtime';
import { LOCAL_WORKER_ARNS } from '../functions/workers/state-machines';
import { handler as deadLetterWorker } from '../functions/workers/webhook-dead-letter';
import { handler as deliveryWorker } from '../functions/workers/webhook-delivery';
import { handler as dispatchWorker } from '../functions/workers/webhook-dispatch';
import { handler as refreshWorker } from '../functions/workers/item-refresh';
import { handler as scheduledWorker } from '../functions/workers/scheduled-refresh';
import { accessLogFormat, MIN_COMPRESSION_SIZE } from '../lib/api-construct';
import { WORKER_ACCESS } from '../lib/async-jobs-construct';
import { telemetryNames } from '../lib/observability-construct';
import { PROVISIONED_TABLE_CAPACITY, stageConfig } from '../lib/stage-config';
import {
  addUnits,
  asProvisioned,
  backgroundCounts,
  biggest,
  billableQuantities,
  bytesToGb,
  DEFAULT_XRAY_FIXED_RATE,
  dynamoStoredBytes,
  fillRemainder,
  HOURS_PER_MONTH,
  lambdaGbSeconds,
  meanUnits,
  MIX,
  priceQuantities,
  provisionedMinimumQuantities,
  RAW_UNIT_NAMES,
  scaleToPeriod,
  SECONDS_PER_MONTH,
  sqsRequestsFor,
  totalUsd,
  zeroUnits,
  type LineItem,
  type PlanShape,
  type PricingContext,
  type RawUnits,
} from './cost-math';
import { fmt, ROOT, table } from './lib';
import { PRICE_REGION, PRICES, PRICES_TAKEN_ON, XRAY_DEFAULT_SAMPLING, type PriceKey } from './prices';

type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;
/** The library's JSON value type (not exported by it). */
type JsonValue = Parameters<StateMachine['run']>[0];

/** Set in the child process that measures (it must start with a Lambda's environment). */
const MEASURE_ENV = 'FC_COST_MODEL_MEASURE';
const SAMPLE_FACTOR = Math.max(1, Number(process.env.BENCH_COST_SAMPLES ?? 1));
const samplesOf = (n: number) => Math.max(1, Math.round(n * SAMPLE_FACTOR));
/** BENCH_COST_PLANS=startup,growth measures only those plans (enterprise needs growth). */
const PLANS_MEASURED = new Set((process.env.BENCH_COST_PLANS ?? 'free,startup,growth,enterprise').split(',').map((p) => p.trim()));

const STAGE = stageConfig('production');
const API_MEMORY_MB = STAGE.apiFunction.memorySize;
/** The workers are built with FincoreFunction's default memory (lib/fincore-function.ts); none sets its own. */
const WORKER_MEMORY_MB = 256;
const LOG_RETENTION_MONTHS = STAGE.logRetention / 30;
const SWEEPS_PER_MONTH = (HOURS_PER_MONTH * 60) / STAGE.scheduledWork.every.toMinutes();
/** Plan prices in USD a month (the spec's limits table); enterprise is custom. */
const PLAN_PRICES: Record<PlanName, number | null> = { free: 0, startup: 99, growth: 499, enterprise: null };
/** The target: what a tenant at full quota adds, at most this share of its plan's price. */
const TARGET_SHARE = 0.03;
const ENTERPRISE_RPS = 1_000;
const ENTERPRISE_SECONDS = 3_600;
/** Per-user gaps stop at a day: the caches on their path (the 15-minute balance cache) are cold long before. */
const DAY_MS = 24 * 3_600_000;
/** Months of events and deliveries the table holds in steady state: the TTL removes older ones. */
const EVENT_MONTHS_KEPT = EVENT_RETENTION_DAYS / (365.25 / 12);
const BASE_URL = 'https://api.fincore.example';
const JOURNEY_PRODUCTS = ['transactions', 'identity', 'income', 'liabilities', 'recurring'];
const INSTITUTION = 'ins_sandbox_first_bank';
const SYNC_PAGE = 500;
const ACCOUNT_ID = '123456789012';

// ---------- the measuring process ----------

/** The units of the operation being sampled; everything counted lands in `current`. */
class Meter {
  current: RawUnits = zeroUnits();
  /** DynamoDB capacity of the operation by kind of call ("Write ITEM:ITEM,ITEM:REFRESHDUE"), for the next lever. */
  capacity = new Map<string, number>();
  add(units: Partial<RawUnits>): void {
    for (const [name, value] of Object.entries(units) as [keyof RawUnits, number][]) this.current[name] += value;
  }
  addCapacity(call: string, units: number): void {
    this.capacity.set(call, (this.capacity.get(call) ?? 0) + units);
  }
  begin(): void {
    this.current = zeroUnits();
    this.capacity = new Map();
  }
  take(): { units: RawUnits; capacity: Map<string, number> } {
    const taken = { units: this.current, capacity: this.capacity };
    this.begin();
    return taken;
  }
}

/**
 * Counts every byte the process writes to stdout and stderr (what a function's log group ingests)
 * into the meter, instead of printing it, and collects the custom metric series of the EMF lines.
 */
class OutputMeter {
  readonly series = new Set<string>();
  private partial = '';
  private readonly originalOut = process.stdout.write;
  private readonly originalErr = process.stderr.write;

  constructor(private readonly meter: Meter) {}

  install(): void {
    const swallow = (chunk: string | Uint8Array): boolean => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      this.meter.add({ logBytes: Buffer.byteLength(text) });
      this.collectMetricSeries(text);
      return true;
    };
    process.stdout.write = swallow as typeof process.stdout.write;
    process.stderr.write = swallow as typeof process.stderr.write;
  }

  uninstall(): void {
    process.stdout.write = this.originalOut;
    process.stderr.write = this.originalErr;
  }

  /** Progress for the operator, around the meter. */
  say(line: string): void {
    this.originalOut.call(process.stdout, `${line}\n`);
  }

  private collectMetricSeries(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"_aws"')) continue;
      const emf = JSON.parse(line) as Record<string, unknown> & {
        _aws: { CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }> };
      };
      for (const directive of emf._aws.CloudWatchMetrics) {
        for (const dimensions of directive.Dimensions) {
          const dims = dimensions.map((d) => `${d}=${String(emf[d])}`).sort().join(',');
          for (const metric of directive.Metrics) this.series.add(`${directive.Namespace}|${metric.Name}|${dims}`);
        }
      }
    }
  }
}

/** Whole milliseconds, as Date.now() gives them (cursors, for one, carry the time as an integer). */
function manualClock(start: number): Clock & { advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += Math.max(0, Math.round(ms))) };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceRoot = () => `1-${Math.floor(Date.now() / 1000).toString(16)}-${hex(12)}`;

/** A Lambda JSON-format platform record pair (start and report) for one invocation, as its log group gets it. */
function platformRecordBytes(requestId: string, ms: number, memoryMb: number, trace: string): number {
  const time = new Date().toISOString();
  const start = JSON.stringify({ time, type: 'platform.start', record: { requestId, version: '$LATEST' } });
  const report = JSON.stringify({
    time,
    type: 'platform.report',
    record: {
      requestId,
      metrics: { durationMs: Math.round(ms * 100) / 100, billedDurationMs: Math.ceil(ms), memorySizeMB: memoryMb, maxMemoryUsedMB: Math.round(memoryMb / 3) },
      tracing: { spanId: hex(8), type: 'X-Amzn-Trace-Id', value: trace },
      status: 'success',
    },
  });
  return Buffer.byteLength(start) + Buffer.byteLength(report) + 2;
}

/** The stage's access log line for one request (lib/api-construct.ts accessLogFormat), filled as API Gateway fills it. */
function accessLogBytes(route: Route, status: number, responseBytes: number, ms: number, requestId: string, trace: string): number {
  const values: Record<string, string> = {
    '$context.requestId': requestId,
    '$context.extendedRequestId': `${hex(6)}FAhA=`,
    '$context.requestTime': '24/Nov/2026:02:31:14 +0000',
    '$context.identity.sourceIp': '203.0.113.24',
    '$context.httpMethod': route.method,
    '$context.resourcePath': route.path,
    '$context.status': String(status),
    '$context.responseLength': String(responseBytes),
    '$context.responseLatency': String(Math.ceil(ms) + 12),
    '$context.integrationLatency': String(Math.ceil(ms)),
    '$context.integration.status': '200',
    '$context.error.responseType': '-',
    '$context.xrayTraceId': trace,
    '$context.waf.status': '200',
    '$context.error.messageString': '"-"',
  };
  const line = accessLogFormat().replace(/\$context\.[A-Za-z.]+/g, (variable) => values[variable] ?? '-');
  return Buffer.byteLength(line) + 1;
}

/** Bytes a response takes on the wire: headers (with the ones API Gateway adds) and the body, compressed as the stage would. */
function responseWireBytes(status: number, headers: Record<string, unknown>, body: string): number {
  const raw = Buffer.from(body, 'utf8');
  const compressible = raw.byteLength >= MIN_COMPRESSION_SIZE.toBytes();
  const payload = compressible ? gzipSync(raw).byteLength : raw.byteLength;
  const gateway = {
    Date: new Date().toUTCString(),
    'Content-Length': String(payload),
    Connection: 'keep-alive',
    'x-amzn-RequestId': randomUUID(),
    'x-amz-apigw-id': `${hex(6)}FAhA=`,
    'X-Amzn-Trace-Id': `Root=${traceRoot()};Sampled=0`,
    ...(compressible ? { 'Content-Encoding': 'gzip' } : {}),
  };
  const lines = [`HTTP/1.1 ${status} X`, ...Object.entries({ ...headers, ...gateway }).map(([k, v]) => `${k}: ${String(v)}`)];
  return Buffer.byteLength(lines.join('\r\n')) + 4 + payload;
}

interface ApiCall {
  key?: string;
  body?: unknown;
  query?: Record<string, string>;
}

interface IntegratorItem {
  itemId: string;
  accessToken: string;
  cursor: string;
}

interface Tenant {
  plan: PlanName;
  key: string;
  applicationId: string;
  /** The items the integrator knows (access token and sync cursor), the pool the samples use. */
  items: IntegratorItem[];
}

/** The integrator's webhook endpoint: answers 200 (or fails first attempts on request) and asks for a sync of changed items. */
class Receiver {
  url = '';
  failFirstAttempts = false;
  private readonly toSync = new Set<string>();
  private readonly server = createServer((req, res) => this.receive(req, res));

  constructor(private readonly meter: Meter) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/fincore-webhooks`;
  }

  stop(): void {
    this.server.closeAllConnections();
    this.server.close();
  }

  takeSyncRequests(): string[] {
    const ids = [...this.toSync];
    this.toSync.clear();
    return ids;
  }

  private receive(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let head = `${req.method} ${req.url} HTTP/1.1\r\n`;
      for (let i = 0; i < req.rawHeaders.length; i += 2) head += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      const attempt = req.headers[DELIVERY_ATTEMPT_HEADER.toLowerCase()];
      this.meter.add({ transferOutBytes: Buffer.byteLength(head) + 2 + body.byteLength, webhookFirstAttempts: attempt === '1' ? 1 : 0 });
      if (this.failFirstAttempts && attempt === '1') {
        res.writeHead(503).end();
        return;
      }
      const event = JSON.parse(body.toString('utf8')) as { type: string; data: { item_id?: string } };
      if (event.type === 'transactions.sync_updates_available' && event.data.item_id) this.toSync.add(event.data.item_id);
      res.writeHead(200).end('ok');
    });
  }
}

/** Counts KMS calls: on AWS each of these is one GenerateDataKey or Decrypt request. */
function countingKeyProvider(inner: KeyProvider, meter: Meter): KeyProvider {
  return {
    keyId: inner.keyId,
    generateDataKey: (context) => {
      meter.add({ kmsRequests: 1 });
      return inner.generateDataKey(context);
    },
    decryptDataKey: (wrapped, context) => {
      meter.add({ kmsRequests: 1 });
      return inner.decryptDataKey(wrapped, context);
    },
  };
}

const READ_COMMANDS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand', 'TransactGetItemsCommand']);

type Row = Record<string, unknown>;

/** The kind of row a key names: its partition prefix and sort key prefix (digits folded), e.g. FEED:D or ITEM:ACCT. */
function rowKind(key: Row | undefined): string {
  if (!key) return '?';
  const part = (value: unknown) => String(value ?? '').split('#')[0].replace(/[0-9]+/g, 'n').slice(0, 12);
  return `${part(key.pk)}:${part(key.sk)}`;
}

/** What a DynamoDB call touched, by kinds of rows: "UpdateItem ITEM:ITEM", "BatchWriteItem FEED:D,FEED:n". */
function callKind(command: string, input: Row): string {
  const kinds = new Set<string>();
  const requests = input.RequestItems as Record<string, Row[] | { Keys?: Row[] }> | undefined;
  if (input.Key || input.Item) kinds.add(rowKind((input.Key ?? input.Item) as Row));
  for (const entry of (input.TransactItems as Row[] | undefined) ?? []) {
    const op = Object.values(entry)[0] as Row;
    kinds.add(rowKind((op.Key ?? op.Item) as Row));
  }
  for (const value of Object.values(requests ?? {})) {
    const list = Array.isArray(value) ? value.map((r) => ((r.PutRequest as Row | undefined)?.Item ?? (r.DeleteRequest as Row | undefined)?.Key) as Row) : (value.Keys ?? []);
    for (const key of list) kinds.add(rowKind(key));
  }
  if (input.KeyConditionExpression) {
    const values = (input.ExpressionAttributeValues ?? {}) as Row;
    kinds.add(`${input.IndexName ? `${String(input.IndexName)} ` : ''}${String(values[':pk'] ?? Object.values(values)[0] ?? '').split('#')[0]}`);
  }
  return `${command.replace(/Command$/, '')} ${[...kinds].sort().join(',')}`;
}

/**
 * Splits the consumed capacity DynamoDB reports into RRU and WRU (the runtime's own tracker sums
 * them into one figure). A write refused by its condition still costs at least one WRU, and no
 * ConsumedCapacity comes back with the error: it is counted as one.
 */
function trackCapacity(deps: Deps, meter: Meter): void {
  deps.ddb.use(async (call, next) => {
    (call.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
    const command = `${call.operation}Command`;
    const read = READ_COMMANDS.has(command);
    const kind = callKind(command, call.input as Row);
    try {
      const output = await next();
      const consumed = (output as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> }).ConsumedCapacity;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      meter.add(read ? { dynamoRru: units } : { dynamoWru: units });
      meter.addCapacity(kind, units);
      return output;
    } catch (err) {
      if (!read) {
        meter.add({ dynamoWru: 1 });
        meter.addCapacity(`${kind} (refused)`, 1);
      }
      throw err;
    }
  });
}

/**
 * The background ports as AWS runs them, counting what AWS bills: SQS requests (send, then the event
 * source mapping's receive and delete per message), worker invocations, Step Functions transitions.
 * Queued work runs when drain() is called, after the request that queued it.
 */
class AwsShapedBackground {
  private readonly events: string[] = [];
  private readonly refreshes: RefreshExecutionInput[] = [];
  private readonly executions: DeliveryExecutionStart[] = [];
  private readonly started = new Set<string>();
  private readonly machine = new StateMachine(JSON.parse(JSON.stringify(LOCAL_DEFINITIONS.webhookDelivery)));
  /** The scheduled sweep's refreshes are measured as their own operation: its queue sends count, the runs do not. */
  discardRefreshes = false;

  constructor(
    private readonly meter: Meter,
    private readonly invoke: <T>(fn: string, memoryMb: number, startsTrace: boolean, call: (context: Context) => Promise<T>) => Promise<T>,
  ) {}

  readonly ports: BackgroundPorts = {
    eventBus: {
      publish: async (eventId) => {
        this.meter.add({ sqsStandardRequests: sqsRequestsFor(Buffer.byteLength(JSON.stringify({ event_id: eventId }))), eventsEmitted: 1 });
        this.events.push(eventId);
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        this.meter.add({ sqsFifoRequests: sqsRequestsFor(Buffer.byteLength(JSON.stringify(input))) });
        if (!this.discardRefreshes) this.refreshes.push(input);
      },
      enqueueMany: async (inputs) => {
        for (let i = 0; i < inputs.length; i += 10) {
          const batch = inputs.slice(i, i + 10);
          this.meter.add({ sqsFifoRequests: sqsRequestsFor(batch.reduce((sum, input) => sum + Buffer.byteLength(JSON.stringify(input)), 0)) });
          if (!this.discardRefreshes) this.refreshes.push(...batch);
        }
        return [];
      },
    },
    deliveries: {
      start: async (input) => {
        // StartExecution refuses a second execution of the same name (the delivery id).
        if (this.started.has(input.delivery_id)) return false;
        this.started.add(input.delivery_id);
        this.executions.push(input);
        return true;
      },
    },
  };

  /** A refresh message as the sweep (measured apart) would have sent it. */
  queueRefresh(input: RefreshExecutionInput): void {
    this.refreshes.push(input);
  }

  async drain(): Promise<void> {
    for (;;) {
      const eventId = this.events.shift();
      if (eventId !== undefined) {
        await this.consume('webhook-dispatch', JSON.stringify({ event_id: eventId }), false, async (event, context) => {
          const result = await dispatchWorker(event, context);
          if (result.batchItemFailures.length > 0) throw new Error(`dispatch of ${eventId} failed`);
        });
        continue;
      }
      const refresh = this.refreshes.shift();
      if (refresh) {
        await this.consume('item-refresh', JSON.stringify(refresh), true, (event, context) => refreshWorker(event, context));
        continue;
      }
      const execution = this.executions.shift();
      if (execution) {
        await this.runDelivery(execution);
        continue;
      }
      return;
    }
  }

  /** One message through an event source mapping: receive, the worker's invocation, delete. */
  private async consume(fn: string, body: string, fifo: boolean, work: (event: SQSEvent, context: Context) => Promise<unknown>): Promise<void> {
    const requests = 2 * sqsRequestsFor(Buffer.byteLength(body));
    this.meter.add(fifo ? { sqsFifoRequests: requests } : { sqsStandardRequests: requests });
    const event = {
      Records: [{ messageId: randomUUID(), receiptHandle: hex(32), body, attributes: {}, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: `arn:aws:sqs:${PRICE_REGION}:${ACCOUNT_ID}:${fn}`, awsRegion: PRICE_REGION }],
    } as unknown as SQSEvent;
    await this.invoke(fn, WORKER_MEMORY_MB, true, (context) => work(event, context));
  }

  /** One WebhookDelivery execution: the deployed definition, its Lambda tasks invoking the workers, waits skipped. */
  private async runDelivery(input: DeliveryExecutionStart): Promise<void> {
    const workers: Record<string, { name: string; run: (payload: unknown, context: Context) => Promise<unknown> }> = {
      [LOCAL_WORKER_ARNS.delivery]: { name: 'webhook-delivery', run: (payload, context) => deliveryWorker(payload, context) },
      [LOCAL_WORKER_ARNS.deadLetter]: { name: 'webhook-dead-letter', run: (payload, context) => deadLetterWorker(payload, context) },
    };
    const taskResourceLocalHandlers: TaskHandlers = {};
    for (const [name, state] of Object.entries(LOCAL_DEFINITIONS.webhookDelivery.States)) {
      if (state.Type !== 'Task') continue;
      taskResourceLocalHandlers[name] = async (taskInput) => {
        const { FunctionName, Payload } = taskInput as { FunctionName: string; Payload: unknown };
        const worker = workers[FunctionName];
        const result = await this.invoke(worker.name, WORKER_MEMORY_MB, false, (context) => worker.run(JSON.parse(JSON.stringify(Payload)), context));
        return { Payload: (result === undefined ? null : JSON.parse(JSON.stringify(result))) as JsonValue };
      };
    }
    const execution = this.machine.run(JSON.parse(JSON.stringify(input)), {
      overrides: { taskResourceLocalHandlers, waitTimeOverrides: scaledWaits(0) },
    });
    const log: Array<{ type: string; state?: { name: string; type: string } }> = [];
    const collect = (async () => {
      for await (const entry of execution.eventLogs) log.push(entry as (typeof log)[number]);
    })();
    await execution.result.catch(() => null);
    await collect;
    const transitions = log.filter((e) => e.type === 'StateEntered' || e.type === 'StateRetried').length;
    // Logging level ALL without execution data: one record per history event; a Task state has three
    // more than the entered/exited pair the local runner reports (scheduled, started, succeeded).
    const executionArn = `arn:aws:states:${PRICE_REGION}:${ACCOUNT_ID}:execution:fincore-production-WebhookDelivery:${input.delivery_id}`;
    let logBytes = 0;
    let id = 0;
    const record = (type: string, name?: string) => {
      id += 1;
      logBytes += Buffer.byteLength(JSON.stringify({ id: String(id), type, details: name ? { name } : {}, previous_event_id: String(id - 1), event_timestamp: String(Date.now()), execution_arn: executionArn, redrive_count: '0' })) + 1;
    };
    for (const entry of log) {
      record(`${entry.state?.type ?? ''}${entry.type}`, entry.state?.name);
      if (entry.type === 'StateEntered' && entry.state?.type === 'Task') for (const t of ['TaskScheduled', 'TaskStarted', 'TaskSucceeded']) record(t);
    }
    this.meter.add({ stepFunctionsTransitions: transitions, traceEntries: 1, logBytes });
  }
}

interface Measurement {
  /** Mean units per operation, with how many samples, and its DynamoDB capacity per sample by kind of call. */
  perOperation: Record<string, { units: RawUnits; samples: number; capacity: Map<string, number> }>;
  /** Stored bytes per connected user and per event, per plan. */
  storage: Record<PlanName, { bytesPerUser: number; bytesPerEvent: number }>;
  emptySweep: RawUnits;
  /** Custom metric series seen in the EMF lines ("namespace|metric|dimension=value,..."). */
  metricSeries: string[];
}

async function measure(): Promise<void> {
  const meter = new Meter();
  const output = new OutputMeter(meter);
  output.install();
  try {
    await measureWith(meter, output);
  } finally {
    output.uninstall();
  }
}

async function measureWith(meter: Meter, output: OutputMeter): Promise<void> {
  output.say(`cost model: measuring (samples x${SAMPLE_FACTOR}); DynamoDB Local starting`);
  const dynamo = await startDynamoDbLocal({});
  const tableName = 'fincore-cost-model';
  await ensureTable(dynamo.endpoint, tableName);
  const receiver = new Receiver(meter);
  await receiver.start();
  const clock = manualClock(Date.UTC(2026, 10, 2, 9, 0, 0));

  const invoke = async <T>(fn: string, memoryMb: number, startsTrace: boolean, call: (context: Context) => Promise<T>): Promise<T> => {
    const requestId = randomUUID();
    const trace = `Root=${traceRoot()};Parent=${hex(8)};Sampled=0;Lineage=1:${hex(4)}:0`;
    process.env._X_AMZN_TRACE_ID = trace;
    const functionName = `fincore-production-${fn}`;
    const context = {
      callbackWaitsForEmptyEventLoop: false,
      functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${PRICE_REGION}:${ACCOUNT_ID}:function:${functionName}`,
      memoryLimitInMB: String(memoryMb),
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: `2026/11/24/[$LATEST]${hex(16)}`,
      getRemainingTimeInMillis: () => 10_000,
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    } as Context;
    const started = performance.now();
    try {
      return await call(context);
    } finally {
      const ms = performance.now() - started;
      meter.add({
        lambdaInvocations: 1,
        lambdaGbSeconds: lambdaGbSeconds(ms, memoryMb),
        traceEntries: startsTrace ? 1 : 0,
        logBytes: platformRecordBytes(requestId, ms, memoryMb, trace),
      });
    }
  };

  const background = new AwsShapedBackground(meter, invoke);
  const deps = createDeps(
    { tableName, stage: 'production', region: PRICE_REGION, dynamodbEndpoint: dynamo.endpoint, baseUrl: BASE_URL, allowLoopbackWebhooks: true, connectorEnv: {} },
    { clock, keyProvider: countingKeyProvider(createLocalKeyProvider(), meter), ports: background.ports },
  );
  // Rules only, whatever the environment names: a model's cost is not in this table.
  deps.model = null;
  configureRuntime(deps);
  trackCapacity(deps, meter);
  const { handlers } = loadHandlers();

  const api = async <T = Record<string, unknown>>(routeId: string, call: ApiCall = {}, expectStatus?: number): Promise<T> => {
    const route = routeById(routeId);
    const handler = handlers.get(routeId) as LambdaHandler;
    const requestId = randomUUID();
    const headers: Record<string, string> = {
      Host: 'api.fincore.example',
      'User-Agent': 'fincore-cost-model/1.0',
      'Accept-Encoding': 'gzip, deflate',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-For': '203.0.113.24',
      ...(call.key ? { Authorization: `Bearer ${call.key}` } : {}),
      ...(call.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    };
    const event = {
      resource: route.path,
      path: route.path,
      httpMethod: route.method,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      queryStringParameters: call.query ?? null,
      multiValueQueryStringParameters: call.query ? Object.fromEntries(Object.entries(call.query).map(([k, v]) => [k, [v]])) : null,
      pathParameters: null,
      stageVariables: null,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      isBase64Encoded: false,
      requestContext: {
        accountId: ACCOUNT_ID,
        apiId: 'abc123defg',
        domainName: 'api.fincore.example',
        httpMethod: route.method,
        path: `/production${route.path}`,
        protocol: 'HTTP/1.1',
        requestId,
        requestTimeEpoch: clock.now(),
        resourceId: 'abc123',
        resourcePath: route.path,
        stage: 'production',
        identity: { sourceIp: '203.0.113.24', userAgent: 'fincore-cost-model/1.0' },
      },
    } as unknown as APIGatewayProxyEvent;
    const started = performance.now();
    const result = await invoke(route.id, API_MEMORY_MB, true, (context) => handler(event, context));
    const ms = performance.now() - started;
    const body = result.body ?? '';
    const wire = responseWireBytes(result.statusCode, result.headers ?? {}, body);
    meter.add({
      apiRequests: 1,
      meteredApiCalls: route.metering === 'api' ? 1 : 0,
      meteredAiCalls: route.metering === 'ai' ? 1 : 0,
      transferOutBytes: wire,
      logBytes: accessLogBytes(route, result.statusCode, Buffer.byteLength(body), ms, requestId, traceRoot()),
    });
    const expected = expectStatus ?? 200;
    if (result.statusCode !== expected) throw new Error(`${routeId} answered ${result.statusCode} (expected ${expected}): ${body.slice(0, 300)}`);
    return (route.responseKind === 'json' ? JSON.parse(body) : {}) as T;
  };

  const syncAll = async (tenant: Tenant, item: IntegratorItem): Promise<void> => {
    for (;;) {
      const page = await api<{ next_cursor: string; has_more: boolean }>('transactions.sync', {
        key: tenant.key,
        body: { access_token: item.accessToken, count: SYNC_PAGE, ...(item.cursor ? { cursor: item.cursor } : {}) },
      });
      item.cursor = page.next_cursor;
      if (!page.has_more) return;
    }
  };

  const tenantOfItem = new Map<string, { tenant: Tenant; item: IntegratorItem }>();
  /** Runs the background work and the integrator's reactions to its webhooks until nothing is left. */
  const settle = async (): Promise<void> => {
    for (;;) {
      await background.drain();
      const ids = receiver.takeSyncRequests();
      if (ids.length === 0) return;
      for (const id of ids) {
        const known = tenantOfItem.get(id);
        if (known) await syncAll(known.tenant, known.item);
      }
    }
  };

  const samples: Record<string, RawUnits[]> = {};
  const capacityByCall: Record<string, Map<string, number>> = {};
  const sample = async (op: string, run: () => Promise<void>): Promise<void> => {
    meter.begin();
    await run();
    await settle();
    const taken = meter.take();
    (samples[op] ??= []).push(taken.units);
    const calls = (capacityByCall[op] ??= new Map());
    for (const [call, units] of taken.capacity) calls.set(call, (calls.get(call) ?? 0) + units);
  };

  // Keys for every plan, a test key each (sandbox connector; live keys reach no connector yet).
  const seeded = await applySeed(
    deps,
    (Object.keys(PLANS) as PlanName[]).map((plan) => ({ application: `Cost model ${plan}`, plan, keys: [generateApiKey('test')] })),
  );
  const tenants = Object.fromEntries(seeded.map((k) => [k.plan, { plan: k.plan, key: k.key, applicationId: k.applicationId, items: [] as IntegratorItem[] }])) as Record<PlanName, Tenant>;
  let journeys = 0;

  const linkJourney = async (tenant: Tenant): Promise<void> => {
    journeys += 1;
    const { link_token } = await api<{ link_token: string }>('link.token.create', {
      key: tenant.key,
      body: { client_name: 'Budgeteer', user: { client_user_id: `user-${journeys}` }, products: JOURNEY_PRODUCTS, webhook: receiver.url },
    });
    await api('link.sdk');
    await api('link.page', { query: { token: link_token } });
    await api('link.session', { body: { link_token } });
    await api('link.institutions', { body: { link_token, query: 'sandbox' } });
    const connected = await api<{ public_token: string }>('link.connect', {
      body: { link_token, institution_id: INSTITUTION, username: `user_good_${tenant.plan}${journeys}`, password: 'pass_good' },
    });
    const exchanged = await api<{ access_token: string; item_id: string }>('link.token.exchange', { key: tenant.key, body: { public_token: connected.public_token } });
    const item: IntegratorItem = { itemId: exchanged.item_id, accessToken: exchanged.access_token, cursor: '' };
    tenant.items.push(item);
    tenantOfItem.set(item.itemId, { tenant, item });
    await syncAll(tenant, item);
  };

  const today = () => new Date(clock.now()).toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(clock.now() - n * DAY_MS).toISOString().slice(0, 10);
  const remainderCall: Record<string, (tenant: Tenant, item: IntegratorItem) => Promise<unknown>> = {
    'accounts.balance.get': (t, i) => api('accounts.balance.get', { key: t.key, body: { access_token: i.accessToken } }),
    'accounts.get': (t, i) => api('accounts.get', { key: t.key, body: { access_token: i.accessToken } }),
    'items.get': (t, i) => api('items.get', { key: t.key, body: { access_token: i.accessToken } }),
    'transactions.get': (t, i) => api('transactions.get', { key: t.key, body: { access_token: i.accessToken, start_date: daysAgo(30), end_date: today(), options: { count: 100 } } }),
    'identity.get': (t, i) => api('identity.get', { key: t.key, body: { access_token: i.accessToken } }),
    'income.get': (t, i) => api('income.get', { key: t.key, body: { access_token: i.accessToken } }),
    'recurring.get': (t, i) => api('recurring.get', { key: t.key, body: { access_token: i.accessToken } }),
    'liabilities.get': (t, i) => api('liabilities.get', { key: t.key, body: { access_token: i.accessToken } }),
    'items.refresh': (t, i) => api('items.refresh', { key: t.key, body: { access_token: i.accessToken } }),
    'institutions.search': (t) => api('institutions.search', { key: t.key, body: { query: 'bank' } }),
    'categories.get': (t) => api('categories.get', { key: t.key, body: {} }),
    'webhooks.deliveries.list': (t) => api('webhooks.deliveries.list', { key: t.key, body: { count: 25 } }),
    'webhooks.endpoints.list': (t) => api('webhooks.endpoints.list', { key: t.key, body: {} }),
  };
  /** Remainder operations whose cost depends on the user's own cached state (the balance cache). */
  const perUser = new Set(['accounts.balance.get']);
  /**
   * Operations that connect or refresh an item run on one UTC day per plan, their gaps capped so the
   * day does not end under them: a sandbox item refreshed on a later day than a refresh that dropped
   * one of its pendings fails ("was removed and cannot come back"), so no item is refreshed on two
   * days here. Their cost does not depend on the gap (no cache on their path).
   */
  const sameDayCapMs: Record<string, number> = { 'link.journey': 2 * 3_600_000, 'refresh.scheduled': 3_600_000, 'refresh.scheduled.retry': 3_600_000, 'items.refresh': 3_600_000 };

  const storage = {} as Measurement['storage'];
  const measureStorage = async (tenant: Tenant): Promise<void> => {
    const indexKeys = TABLE.globalIndexes.map((index) => index.partitionKey);
    const partitionBytes = async (pk: string) => {
      let bytes = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await deps.ddb.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ExclusiveStartKey: start }));
        for (const row of page.Items ?? []) bytes += dynamoStoredBytes(row, indexKeys);
        start = page.LastEvaluatedKey;
      } while (start);
      return bytes;
    };
    let userBytes = 0;
    for (const item of tenant.items) userBytes += (await partitionBytes(`ITEM#${item.itemId}`)) + (await partitionBytes(`FEED#${item.itemId}`));
    let eventBytes = 0;
    let events = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await deps.ddb.send(
        new ScanCommand({
          TableName: tableName,
          FilterExpression: 'begins_with(pk, :evt) AND application_id = :app',
          ExpressionAttributeValues: { ':evt': 'EVT#', ':app': tenant.applicationId },
          ExclusiveStartKey: start,
        }),
      );
      for (const row of page.Items ?? []) {
        eventBytes += dynamoStoredBytes(row, indexKeys);
        if (row.sk === 'EVT') events += 1;
      }
      start = page.LastEvaluatedKey;
    } while (start);
    storage[tenant.plan] = { bytesPerUser: userBytes / tenant.items.length, bytesPerEvent: events ? eventBytes / events : 0 };
  };

  const planShape = (plan: PlanName): PlanShape => {
    const limits = PLANS[plan];
    return {
      apiPerMonth: limits.apiPerMonth ?? 0,
      aiPerMonth: limits.aiPerMonth ?? 0,
      connectedUsers: limits.connectedUsers ?? 0,
      refreshHours: refreshIntervalHours('production', plan),
    };
  };

  /** One plan's replay: every operation of its mix, a few samples each, the clock moving as the month would. */
  const replay = async (plan: PlanName, counts: (op: string) => number, periodMs: number, users: number | null): Promise<void> => {
    const tenant = tenants[plan];
    const gap = (op: string, count: number) => {
      const tenantGap = count > 0 ? periodMs / count : DAY_MS;
      if (op in sameDayCapMs) return Math.min(sameDayCapMs[op], tenantGap);
      return perUser.has(op) ? Math.min(DAY_MS, users ? tenantGap * users : DAY_MS) : tenantGap;
    };
    const run = async (op: string, n: number, body: (i: number) => Promise<void>) => {
      output.say(`  ${plan}: ${op} x${n}`);
      for (let i = 0; i < n; i += 1) {
        clock.advance(gap(op, counts(op)));
        await sample(op, () => body(i));
      }
    };
    // The plan's connect-and-refresh day begins at 01:00 UTC (see sameDayCapMs).
    clock.advance(DAY_MS - ((clock.now() - 3_600_000) % DAY_MS));
    await run('link.journey', samplesOf(3), () => linkJourney(tenant));
    const refreshOf = (i: number) => async () => {
      background.queueRefresh({ item_id: tenant.items[i % tenant.items.length].itemId, reason: 'scheduled' });
    };
    await run('refresh.scheduled', samplesOf(6), (i) => refreshOf(i)());
    receiver.failFirstAttempts = true;
    await run('refresh.scheduled.retry', samplesOf(2), (i) => refreshOf(i)());
    receiver.failFirstAttempts = false;
    // The on-demand refresh first, on the same day; then the reads, which may move days on.
    const remainderOps = ['items.refresh', ...Object.keys(MIX.remainderShares).filter((op) => op !== 'items.refresh')];
    for (const op of remainderOps) {
      await run(op, samplesOf(op === 'items.refresh' ? 3 : 2), async (i) => {
        await remainderCall[op](tenant, tenant.items[i % tenant.items.length]);
      });
    }
    await run('ai.categorize', samplesOf(2), async () => {
      await api('ai.categorize', { key: tenant.key, body: { transactions: [{ id: 't1', description: 'SQ *BLUE BOTTLE', amount: 4.5 }, { id: 't2', description: 'NETFLIX.COM', amount: 15.49 }] } }, 200);
    });
    await measureStorage(tenant);
    await run('item.removal', 1, async () => {
      const item = tenant.items.pop()!;
      await api('items.remove', { key: tenant.key, body: { access_token: item.accessToken } });
      tenantOfItem.delete(item.itemId);
    });
    // Per plan: its samples carry the plan's name, so each plan is priced from its own run.
    for (const op of Object.keys(samples)) {
      if (op.includes('@')) continue;
      samples[`${op}@${plan}`] = samples[op];
      delete samples[op];
      capacityByCall[`${op}@${plan}`] = capacityByCall[op];
      delete capacityByCall[op];
    }
  };

  // Clock steps only need counts of the right order: the derived ones are exact, the remainder's
  // estimated at one metered call each (two for an on-demand refresh, which is followed by a sync).
  const estimatedCounts = (shape: PlanShape, scale = 1) => {
    const derived = backgroundCounts(shape);
    const remainder = fillRemainder(
      shape.apiPerMonth - derived.scheduledRefreshes - derived.linkJourneys * 8,
      MIX.remainderShares,
      Object.fromEntries(Object.keys(MIX.remainderShares).map((op) => [op, op === 'items.refresh' ? 2 : 1])),
    );
    const table: Record<string, number> = {
      'link.journey': derived.linkJourneys,
      'refresh.scheduled': derived.scheduledRefreshes,
      'refresh.scheduled.retry': derived.scheduledRefreshes * MIX.webhookFirstAttemptFailure,
      'item.removal': derived.itemRemovals,
      'ai.categorize': shape.aiPerMonth,
      ...remainder,
    };
    return (op: string) => (table[op] ?? 0) * scale;
  };

  const monthMs = SECONDS_PER_MONTH * 1000;
  for (const plan of ['free', 'startup', 'growth'] as const) {
    if (!PLANS_MEASURED.has(plan)) continue;
    const shape = planShape(plan);
    await replay(plan, estimatedCounts(shape), monthMs, shape.connectedUsers);
  }
  // Enterprise: the Growth composition at 3.6 M requests in an hour (its API requests per month are
  // about the Growth quota, so the scale is close to 3.6 M / 5 M).
  const growth = planShape('growth');
  if (PLANS_MEASURED.has('enterprise')) await replay('enterprise', estimatedCounts(growth, (ENTERPRISE_RPS * ENTERPRISE_SECONDS) / growth.apiPerMonth), ENTERPRISE_SECONDS * 1000, null);

  // The scheduled sweep: once with every remaining item due (its share per queued refresh), once with none.
  output.say('  sweep: with every item due, then empty');
  clock.advance(25 * 3_600_000);
  background.discardRefreshes = true;
  const sweep = async () => {
    let enqueued = 0;
    await sample('sweep', async () => {
      const result = await invoke('scheduled-refresh', WORKER_MEMORY_MB, true, (context) =>
        scheduledWorker({ source: 'aws.events', 'detail-type': 'Scheduled Event', time: new Date(clock.now()).toISOString() }, context),
      );
      enqueued = result.enqueued;
    });
    return { units: samples.sweep.pop()!, enqueued };
  };
  const due = await sweep();
  const empty = await sweep();
  delete samples.sweep;
  delete capacityByCall.sweep;
  const share = addUnits(addUnits(zeroUnits(), due.units), empty.units, -1);
  for (const name of RAW_UNIT_NAMES) share[name] = Math.max(0, share[name]) / Math.max(1, due.enqueued);
  background.discardRefreshes = false;
  output.say(`  sweep: ${due.enqueued} due items queued`);

  const perOperation: Measurement['perOperation'] = {};
  for (const [op, list] of Object.entries(samples)) {
    const perSample = new Map([...(capacityByCall[op] ?? new Map<string, number>())].map(([call, units]) => [call, units / list.length]));
    perOperation[op] = { units: meanUnits(list), samples: list.length, capacity: perSample };
  }
  perOperation['refresh.sweep-share'] = { units: share, samples: due.enqueued, capacity: new Map() };

  receiver.stop();
  deps.ddb.destroy();
  await dynamo.stop();
  const measurement: Measurement = { perOperation, storage, emptySweep: empty.units, metricSeries: [...output.series] };
  output.say(`cost model: measured ${Object.keys(samples).length} operations; ${output.series.size} custom metric series seen`);
  report(measurement, (line) => output.say(line));
}

// ---------- pricing and the report ----------

const pricing: PricingContext = { logRetentionMonths: LOG_RETENTION_MONTHS, xrayFixedRate: DEFAULT_XRAY_FIXED_RATE };

/** The next lever for a line item that misses the target; the operation behind it is named from the run. */
const LEVERS: Partial<Record<PriceKey, string>> = {
  xrayTracesRecorded: 'an X-Ray sampling rule below the default 5 % beyond the reservoir (for example 1 %, errors always)',
  dynamoReadRequestUnits: 'fewer reads in the operation named: read only what it can change',
  dynamoWriteRequestUnits: 'fewer or smaller rows written by the operation named',
  dynamoStorageGbMonths: 'fewer bytes per transaction (the 24 months of history are most of it)',
  dynamoPitrGbMonths: 'a smaller table (see storage)',
  lambdaArmGbSeconds: 'less time or memory in the operation named (its DynamoDB round trips first)',
  apiGatewayRequests: 'an HTTP API ($1.00 a million) instead of REST, weighed against the REST-only features the stack uses (WAF association, gateway responses)',
  wafRequests: 'WAF only where it stops something (its per-request fee follows every API request)',
  logsIngestedGb: 'fewer or shorter log lines per invocation',
  logsStoredGbMonths: 'a shorter log retention',
  kmsRequests: 'longer-lived opened secrets per container',
  sqsStandardRequests: 'batched sends and receives',
  sqsFifoRequests: 'batched sends and receives',
  stepFunctionsTransitions: 'fewer states per execution',
  dataTransferOutGb: 'smaller responses (compression is on from 1 KiB)',
};

interface PlanReport {
  counts: Record<string, number>;
  units: RawUnits;
  lines: LineItem[];
  total: number;
  /** The same month with the table on provisioned capacity (PROVISIONED_TABLE_CAPACITY), autoscaled to its target. */
  provisioned: { lines: LineItem[]; total: number };
}

/** The production stage's provisioned settings: what its config deploys once it chooses provisioned capacity. */
const PROVISIONED = PROVISIONED_TABLE_CAPACITY.production;
const PROVISIONED_UTILIZATION = PROVISIONED.targetUtilizationPercent / 100;

/** The measured operations of one plan's run (the sweep's share is measured once, for all). */
function opsOf(measurement: Measurement, plan: PlanName): Record<string, Measurement['perOperation'][string]> {
  const out: Record<string, Measurement['perOperation'][string]> = {};
  for (const [key, value] of Object.entries(measurement.perOperation)) {
    const [op, of] = key.split('@');
    if (of === plan || (of === undefined && op === 'refresh.sweep-share')) out[op] = value;
  }
  return out;
}

const unitsOf = (ops: Record<string, Measurement['perOperation'][string]>) => Object.fromEntries(Object.entries(ops).map(([op, m]) => [op, m.units]));

/** A plan's monthly counts from the mix, with the quota left after the derived traffic filled by the remainder. */
function monthlyCounts(shape: PlanShape, ops: Record<string, RawUnits>): Record<string, number> {
  const derivedCounts = backgroundCounts(shape);
  const webhooksPerRefresh = ops['refresh.scheduled'].webhookFirstAttempts;
  const retries = derivedCounts.scheduledRefreshes * Math.min(1, MIX.webhookFirstAttemptFailure * webhooksPerRefresh);
  const derived: Record<string, number> = {
    'link.journey': derivedCounts.linkJourneys,
    'refresh.scheduled': derivedCounts.scheduledRefreshes - retries,
    'refresh.scheduled.retry': retries,
    'refresh.sweep-share': derivedCounts.scheduledRefreshes,
    'item.removal': derivedCounts.itemRemovals,
    'ai.categorize': shape.aiPerMonth,
  };
  const used = Object.entries(derived).reduce((sum, [op, n]) => sum + n * ops[op].meteredApiCalls, 0);
  const remainder = fillRemainder(
    shape.apiPerMonth - used,
    MIX.remainderShares,
    Object.fromEntries(Object.keys(MIX.remainderShares).map((op) => [op, ops[op].meteredApiCalls])),
  );
  return { ...derived, ...remainder };
}

function priced(counts: Record<string, number>, ops: Record<string, RawUnits>, storageGb: number): PlanReport {
  const units = scaleToPeriod(ops, counts);
  const quantities = billableQuantities(units, pricing);
  if (storageGb > 0) Object.assign(quantities, { dynamoStorageGbMonths: storageGb, dynamoPitrGbMonths: storageGb });
  const lines = priceQuantities(quantities);
  const provisionedLines = priceQuantities(asProvisioned(quantities, PROVISIONED_UTILIZATION));
  return { counts, units, lines, total: totalUsd(lines), provisioned: { lines: provisionedLines, total: totalUsd(provisionedLines) } };
}

const usd = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(4));
const count = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 1 ? 1 : 2));
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const STORAGE_KEYS: readonly PriceKey[] = ['dynamoStorageGbMonths', 'dynamoPitrGbMonths'];

/** The operation that contributes most to a line item, and its share. */
function mainContributor(report: PlanReport, ops: Record<string, RawUnits>, key: PriceKey): { op: string; share: number } | null {
  let best = { op: '', value: 0 };
  let total = 0;
  for (const [op, n] of Object.entries(report.counts)) {
    const q = billableQuantities(addUnits(zeroUnits(), ops[op], n), pricing)[key] ?? 0;
    total += q;
    if (q > best.value) best = { op, value: q };
  }
  return total > 0 ? { op: best.op, share: best.value / total } : null;
}

/** What DynamoDB's reads and writes cost in a set of lines, however the table is billed. */
const dynamoRequestUsd = (lines: readonly LineItem[]) =>
  lines
    .filter((l) => (['dynamoReadRequestUnits', 'dynamoWriteRequestUnits', 'dynamoProvisionedRcuHours', 'dynamoProvisionedWcuHours'] as PriceKey[]).includes(l.key))
    .reduce((sum, l) => sum + l.usd, 0);

const contributorText = (c: { op: string; share: number } | null) => (c ? `${c.op} (${fmt(100 * c.share, 0)} %)` : '-');

function lineRows(report: PlanReport, ops: Record<string, RawUnits>) {
  return biggest(report.lines, report.lines.length).map((l) => ({
    'line item': l.label,
    quantity: count(l.quantity),
    unit: l.unit,
    USD: usd(l.usd),
    'mostly from': STORAGE_KEYS.includes(l.key) ? 'storage' : contributorText(mainContributor(report, ops, l.key)),
  }));
}

/**
 * Custom metric series a deployment pays for. Only failures publish one (functions/platform/
 * middleware.ts, functions/workers/define-worker.ts): ClientError, one series for the API, is sent
 * about every hour at any real traffic, so it counts as a full metric-month; ServerError by route and
 * Error by worker exist only in the hours that route or worker fails, and CloudWatch prorates a
 * series by the hours it is sent, so a healthy month adds next to nothing. The projection is the
 * series this run saw (it provokes 4xx answers, and 5xx only where a test of a failure does).
 */
function projectedMetricSeries(seen: readonly string[]): { seen: number; projected: number } {
  return { seen: seen.length, projected: seen.length };
}

function report(measurement: Measurement, say: (line: string) => void): void {
  say(`\n== Cost model: each plan at full quota, AWS ${PRICE_REGION} list prices of ${PRICES_TAKEN_ON} (bench/prices.ts) ==`);
  say('MEASURED: units per operation, the mean of its samples in this run. SCALED: those x the operation\'s count in the plan\'s mix. Free tiers left out.');

  const opRows: Array<Record<string, string | number>> = [];
  for (const [key, { units, samples }] of Object.entries(measurement.perOperation).sort()) {
    const [op, plan] = key.split('@');
    if (plan !== undefined && plan !== 'growth') continue;
    opRows.push({
      operation: op,
      samples,
      'API req': fmt(units.apiRequests, 1),
      metered: fmt(units.meteredApiCalls, 1),
      invocations: fmt(units.lambdaInvocations, 1),
      'GB-s': fmt(units.lambdaGbSeconds, 4),
      RRU: fmt(units.dynamoRru, 1),
      WRU: fmt(units.dynamoWru, 1),
      'SQS std/FIFO': `${fmt(units.sqsStandardRequests, 1)}/${fmt(units.sqsFifoRequests, 1)}`,
      SFN: fmt(units.stepFunctionsTransitions, 2),
      KMS: fmt(units.kmsRequests, 2),
      'log KB': kb(units.logBytes),
      'out KB': kb(units.transferOutBytes),
    });
  }
  if (opRows.length > 0) {
    say('\nMEASURED per operation (the Growth tenant\'s run; each plan is priced from its own):');
    say(table(opRows));
  }

  const summaries: Array<Record<string, string | number>> = [];
  let growthCounts: Record<string, number> | undefined;
  for (const plan of ['free', 'startup', 'growth'] as const) {
    if (!PLANS_MEASURED.has(plan)) continue;
    const limits = PLANS[plan];
    const shape: PlanShape = { apiPerMonth: limits.apiPerMonth, aiPerMonth: limits.aiPerMonth, connectedUsers: limits.connectedUsers, refreshHours: refreshIntervalHours('production', plan) };
    const measured = opsOf(measurement, plan);
    const ops = unitsOf(measured);
    const counts = monthlyCounts(shape, ops);
    if (plan === 'growth') growthCounts = counts;
    const eventsPerMonth = scaleToPeriod(ops, counts).eventsEmitted;
    const store = measurement.storage[plan];
    const usersGb = bytesToGb(shape.connectedUsers * store.bytesPerUser);
    const eventsGb = bytesToGb(EVENT_MONTHS_KEPT * eventsPerMonth * store.bytesPerEvent);
    const r = priced(counts, ops, usersGb + eventsGb);
    const price = PLAN_PRICES[plan];
    say(`\n-- ${plan}: ${price === 0 ? 'free' : `${price} USD a month`}; ${count(shape.apiPerMonth)} API + ${count(shape.aiPerMonth)} AI calls, ${count(shape.connectedUsers)} users refreshed every ${shape.refreshHours} h --`);
    say(`SCALED mix a month: ${Object.entries(counts).filter(([, n]) => n > 0).map(([op, n]) => `${op} ${count(n)}`).join(', ')}`);
    say(
      `metered API calls ${count(r.units.meteredApiCalls)} (quota ${count(shape.apiPerMonth)}); API Gateway requests ${count(r.units.apiRequests)}; webhooks ${count(r.units.webhookFirstAttempts)}; ` +
        `storage ${fmt(usersGb + eventsGb, 1)} GB = users ${fmt(usersGb, 1)} GB (${kb(store.bytesPerUser)} KB each, MEASURED) + events and deliveries of ${EVENT_RETENTION_DAYS} days ${fmt(eventsGb, 1)} GB (${fmt(store.bytesPerEvent, 0)} B an event, MEASURED; older ones expire)`,
    );
    say(table(lineRows(r, ops)));
    const top = biggest(r.lines, 5);
    const ratio = price ? r.total / price : null;
    const gatewayFloor = r.lines.filter((l) => l.key === 'apiGatewayRequests' || l.key === 'wafRequests').reduce((sum, l) => sum + l.usd, 0);
    if (ratio === null) {
      say(`total ${usd(r.total)} USD a month (free plan: no target)`);
    } else {
      const met = ratio <= TARGET_SHARE;
      say(`total ${usd(r.total)} USD a month = ${fmt(100 * ratio, 1)} % of ${price} USD; target <= ${fmt(100 * TARGET_SHARE, 0)} % (${usd(TARGET_SHARE * price!)} USD): ${met ? 'met' : 'NOT met'}`);
      say(`  API Gateway + WAF alone, at full quota: ${usd(gatewayFloor)} USD = ${fmt((100 * gatewayFloor) / price!, 1)} % of the price`);
      say(
        `  with the table on provisioned capacity autoscaled to ${PROVISIONED.targetUtilizationPercent} % (lib/stage-config.ts PROVISIONED_TABLE_CAPACITY): ${usd(r.provisioned.total)} USD = ` +
          `${fmt((100 * r.provisioned.total) / price!, 1)} % of the price; DynamoDB requests ${usd(dynamoRequestUsd(r.lines))} -> ${usd(dynamoRequestUsd(r.provisioned.lines))} USD`,
      );
      if (!met) {
        const lead = top[0];
        const from = mainContributor(r, ops, lead.key);
        say(`  next lever: ${lead.label} (${usd(lead.usd)} USD) — ${LEVERS[lead.key] ?? ''}${from ? `; ${contributorText(from)}` : ''}`);
        const dynamo = top.find((l) => l.key === 'dynamoWriteRequestUnits' || l.key === 'dynamoReadRequestUnits');
        const heavy = dynamo && mainContributor(r, ops, dynamo.key);
        if (heavy) {
          const calls = [...measured[heavy.op].capacity].sort((a, b) => b[1] - a[1]).slice(0, 6);
          say(`  DynamoDB capacity of one ${heavy.op} (MEASURED, by call and kinds of rows): ${calls.map(([call, units]) => `${call} ${fmt(units, 1)}`).join('; ')}`);
        }
      }
    }
    summaries.push({
      plan,
      'USD a month': usd(r.total),
      '% of price': ratio === null ? '-' : `${fmt(100 * ratio, 1)} %`,
      'provisioned table: USD (% of price)': `${usd(r.provisioned.total)}${price ? ` (${fmt((100 * r.provisioned.total) / price, 1)} %)` : ''}`,
      target: ratio === null ? '-' : ratio <= TARGET_SHARE ? 'met' : 'not met',
      'biggest 5': top.map((l) => `${l.label} ${usd(l.usd)}`).join('; '),
    });
  }

  // Enterprise: the Growth composition at 1,000 rps for an hour, with the enterprise key's units.
  if (growthCounts && PLANS_MEASURED.has('enterprise')) {
    const ops = unitsOf(opsOf(measurement, 'enterprise'));
    const scale = (ENTERPRISE_RPS * ENTERPRISE_SECONDS) / scaleToPeriod(ops, growthCounts).apiRequests;
    const counts = Object.fromEntries(Object.entries(growthCounts).map(([op, n]) => [op, n * scale]));
    const r = priced(counts, ops, 0);
    say(`\n-- enterprise: ${ENTERPRISE_RPS} rps for one hour (${count(r.units.apiRequests)} API Gateway requests), the Growth mix's composition --`);
    say(table(lineRows(r, ops)));
    say(`total ${usd(r.total)} USD for the hour: ${usd((r.total / r.units.apiRequests) * 1e6)} USD per million API requests with the background work they imply (storage not included)`);
    say(
      `  with the table on provisioned capacity held at ${PROVISIONED.targetUtilizationPercent} % for the whole hour: ${usd(r.provisioned.total)} USD ` +
        '(only if the capacity was raised before the hour: autoscaling from an idle minimum would throttle its first minutes)',
    );
    summaries.push({
      plan: 'enterprise, 1 hour',
      'USD a month': `${usd(r.total)} (the hour)`,
      '% of price': '-',
      'provisioned table: USD (% of price)': `${usd(r.provisioned.total)} (the hour, capacity raised beforehand)`,
      target: '-',
      'biggest 5': biggest(r.lines, 5).map((l) => `${l.label} ${usd(l.usd)}`).join('; '),
    });
  }

  // Fixed monthly costs of one deployment, whatever its tenants.
  const functions = ROUTES.length + 1 + Object.keys(WORKER_ACCESS).length;
  const series = projectedMetricSeries(measurement.metricSeries);
  const sweepUnits = addUnits(zeroUnits(), measurement.emptySweep, SWEEPS_PER_MONTH);
  const estimate = (label: string) => (l: LineItem) => ({ ...l, label: `${l.label} (${label})` });
  const fixedLines = [
    ...priceQuantities({
      wafWebAclMonths: 1,
      wafRuleMonths: 2,
      kmsKeyMonths: 3,
      // Api5xxRate (2 metrics), ApiLatencyP99 (1), one throttles metric per function, one per dead-letter queue,
      // TableThrottles (reads and writes of the table and of each index).
      alarmMetricMonths: 3 + functions + 2 + 2 * (1 + TABLE.globalIndexes.length),
      dashboardMonths: 1,
    }),
    ...priceQuantities({ customMetricMonths: series.projected }).map(estimate(`${series.seen} series seen: failures only, prorated by the hours they are sent`)),
    ...priceQuantities(billableQuantities(sweepUnits, pricing)).map(estimate(`scheduled sweep with nothing due, MEASURED, x ${count(SWEEPS_PER_MONTH)} runs`)),
    // Estimates, not measured: Lambda's pollers long-poll each queue (about 5 pollers x 3 calls a minute) even when idle.
    ...priceQuantities({ sqsStandardRequests: 5 * 3 * 60 * HOURS_PER_MONTH, sqsFifoRequests: 5 * 3 * 60 * HOURS_PER_MONTH }).map(estimate('idle event-source polling, estimate')),
    // Estimate, upper bound: DynamoDB asks KMS for the table key about every 5 minutes per calling role.
    ...priceQuantities({ kmsRequests: functions * 12 * HOURS_PER_MONTH }).map(estimate('DynamoDB table key, estimate')),
    ...priceQuantities({ xrayTracesRecorded: XRAY_DEFAULT_SAMPLING.reservoirPerSecond * SECONDS_PER_MONTH }).map(estimate('the reservoir, 1 a second')),
  ];
  say(`\n-- fixed monthly costs of one deployment (${functions} functions), shared by its tenants --`);
  say(table(biggest(fixedLines, fixedLines.length).map((l) => ({ 'line item': l.label, quantity: count(l.quantity), unit: l.unit, USD: usd(l.usd) }))));
  say(`total ${usd(totalUsd(fixedLines))} USD a month`);
  // A provisioned table pays for its minimum capacity whatever the traffic (tenants' use is priced above).
  const minimumLines = priceQuantities(provisionedMinimumQuantities(PROVISIONED, TABLE.globalIndexes.length));
  say(
    `with the table on provisioned capacity, add its idle minimum (${PROVISIONED.reads.min} RCU and ${PROVISIONED.writes.min} WCU, and per index ${PROVISIONED.indexReads.min} RCU and ${PROVISIONED.indexWrites.min} WCU): ` +
      `${usd(totalUsd(minimumLines))} USD a month`,
  );
  summaries.push({ plan: 'fixed, per deployment', 'USD a month': usd(totalUsd(fixedLines)), '% of price': '-', 'provisioned table: USD (% of price)': usd(totalUsd(fixedLines) + totalUsd(minimumLines)), target: '-', 'biggest 5': biggest(fixedLines, 5).map((l) => `${l.label.replace(/ \(.*\)$/, '')} ${usd(l.usd)}`).join('; ') });

  say('\nSummary (docs/benchmarks.md, "Cost model"):');
  say(table(summaries));
  const unverified = Object.values(PRICES).filter((p) => p.checked === 'not verified here').map((p) => p.label);
  say(`Prices not verified during the lookup (re-check): ${unverified.join(', ')}.`);
}

/** `npm run bench` and the direct run: measures in a child process that starts with a Lambda's environment. */
export async function runCostModel(): Promise<void> {
  const names = telemetryNames('production');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'bench', 'cost-model.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        [MEASURE_ENV]: '1',
        // What makes Powertools behave as on Lambda: metrics flushed as EMF lines; INFO, the level
        // production runs at (the stack sets none).
        AWS_LAMBDA_FUNCTION_NAME: 'fincore-production-cost-model',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        POWERTOOLS_SERVICE_NAME: names.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: names.metricsNamespace,
        AWS_REGION: PRICE_REGION,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cost model exited with ${code}`))));
  });
}

if (require.main === module) {
  const run = process.env[MEASURE_ENV] === '1' ? measure : runCostModel;
  run().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    },
  );
}
