// Benchmark: how an enterprise key's metering writes spread over its shards, and what metering costs
// in DynamoDB calls per request on each plan (functions/data/api-keys-repo.ts, docs/architecture.md
// "Metering"). In process, over DynamoDB Local in memory.
//
// Lambda runs one request at a time per container, each container with its own memory of the keys'
// shards. The bench models that: CONTAINERS copies of the metering module (each a fresh module
// instance, so a fresh memory) each serve requests one after another, all at once against one key.
// Time is synthetic (request i arrives at i / offered rate seconds), so the figures are the same on a
// slow machine: only DynamoDB Local's speed limits how long the run takes, not what it measures.
import { randomUUID } from 'node:crypto';
import { generateApiKey, sha256Hex } from '../functions/core/api-keys';
import { keys } from '../functions/data/keys';
import { PLAN_NAMES, PLANS, type PlanName } from '../functions/contracts/limits';
import { shardsFor } from '../functions/core/rate-limit';
import { ApiError } from '../functions/contracts/errors';
import { ensureTable, startDynamoDbLocal } from '../functions/platform/local/dynamodb-local';
import { createDeps, type Deps } from '../functions/platform/runtime';
import * as repo from '../functions/data/api-keys-repo';
import { fmt, table } from './lib';

type MeteringModule = typeof repo;

const CONTAINERS = Number(process.env.BENCH_CONTAINERS ?? 16);
const SECONDS = Number(process.env.BENCH_METERING_SECONDS ?? 10);
const START = Date.UTC(2026, 10, 21, 12, 0, 0);

/** A fresh instance of the metering module: one Lambda container's own memory of the keys. */
function container(): MeteringModule {
  const path = require.resolve('../functions/data/api-keys-repo');
  delete require.cache[path];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module instance per simulated container
  return require(path) as MeteringModule;
}

/** Counts every write each partition receives, failed conditional writes included (they cost a write unit too). */
function countWritesPerPartition(deps: Deps): Map<string, number> {
  const writes = new Map<string, number>();
  const pkOf = (key: unknown) => {
    const pk = (key as { pk?: unknown } | undefined)?.pk;
    return typeof pk === 'string' ? pk : String((pk as { S?: string } | undefined)?.S);
  };
  deps.ddb.use(async (call, next) => {
    const input = call.input as { Key?: unknown; TransactItems?: Array<Record<string, { Key?: unknown }>> };
    const keys = input.TransactItems ? input.TransactItems.map((item) => Object.values(item)[0].Key) : input.Key ? [input.Key] : [];
    for (const key of keys) writes.set(pkOf(key), (writes.get(pkOf(key)) ?? 0) + 1);
    return next();
  });
  return writes;
}

async function keyOn(endpoint: string, plan: PlanName) {
  const tableName = `bench_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  let now = START;
  const deps = createDeps({ tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint }, { now: () => now });
  const app = { applicationId: `app_${plan}`, name: plan, plan };
  await repo.putApplication(deps, app);
  const key = generateApiKey('test');
  await repo.issueKey(deps, app, key);
  const writes = countWritesPerPartition(deps);
  return { deps, key, writes, setNow: (t: number) => (now = t) };
}

interface LoadOutcome {
  admitted: number;
  refused: number;
  calls: number;
}

/** `requests` requests from CONTAINERS containers; request i arrives at `arrival(i)` (ms). */
async function drive(deps: Deps, key: string, requests: number, arrival: (i: number) => number): Promise<LoadOutcome> {
  let next = 0;
  let admitted = 0;
  let refused = 0;
  const callsBefore = deps.ddbCalls.count;
  await Promise.all(
    Array.from({ length: CONTAINERS }, async () => {
      const meter = container();
      while (next < requests) {
        const at = arrival(next++);
        try {
          await meter.authorizeAndMeter({ ...deps, clock: { now: () => at } }, key, 'api');
          admitted += 1;
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 429) throw err;
          refused += 1;
        }
      }
    }),
  );
  return { admitted, refused, calls: deps.ddbCalls.count - callsBefore };
}

async function distribution(endpoint: string) {
  const atRate = (plan: PlanName, times: number, name: string) => {
    const rate = PLANS[plan].ratePerSecond * times;
    return { plan, name, requests: rate * SECONDS, arrival: (i: number) => START + (i * 1000) / rate, seconds: SECONDS };
  };
  const cases = [
    atRate('enterprise', 1, `enterprise at its rate, ${SECONDS} s`),
    { plan: 'enterprise' as const, name: 'enterprise, full burst at one instant', requests: 3 * PLANS.enterprise.ratePerSecond, arrival: () => START, seconds: 1 },
    atRate('enterprise', 2, `enterprise at twice its rate, ${SECONDS} s`),
    // The one-row design under the same kind of load: a one-shard key at its own rate.
    atRate('startup', 1, `reference: startup (one row) at its rate, ${SECONDS} s`),
  ];
  const rows: Array<Record<string, string | number>> = [];
  for (const c of cases) {
    const { deps, key, writes } = await keyOn(endpoint, c.plan);
    const outcome = await drive(deps, key, c.requests, c.arrival);
    const keyHash = sha256Hex(key);
    const perShard = Array.from({ length: shardsFor(c.plan) }, (_, shard) => writes.get(keys.meteringShard(keyHash, shard).pk) ?? 0);
    const total = perShard.reduce((a, b) => a + b, 0);
    const mean = total / shardsFor(c.plan);
    const max = Math.max(...perShard);
    rows.push({
      case: c.name,
      requests: c.requests,
      admitted: outcome.admitted,
      refused: outcome.refused,
      'calls/req': fmt(outcome.calls / c.requests),
      'writes per shard (min..max)': `${Math.min(...perShard)}..${max}`,
      'max/mean': fmt(max / mean),
      // A burst delivered within one second: the burst's writes land in that second.
      'hottest partition writes/s': fmt(max / c.seconds, 0),
      'all writes/s (one row would take them all)': fmt(total / c.seconds, 0),
    });
  }
  return rows;
}

async function callsPerPlan(endpoint: string) {
  const rows: Array<Record<string, string | number>> = [];
  for (const plan of PLAN_NAMES) {
    const { deps, key, writes, setNow } = await keyOn(endpoint, plan);
    const meter = container();
    const step = 2000 / PLANS[plan].ratePerSecond; // half the plan's rate: every request admitted
    let now = START;
    const requests = 2000;
    const before = deps.ddbCalls.count;
    for (let i = 0; i < requests; i += 1) {
      setNow(now);
      await meter.authorizeAndMeter(deps, key, 'api');
      now += step;
    }
    const shardWrites = [...writes.values()].reduce((a, b) => a + b, 0);
    const calls = deps.ddbCalls.count - before;
    rows.push({
      plan,
      shards: shardsFor(plan),
      requests,
      'DynamoDB calls/req': fmt(calls / requests),
      'rows written/req': fmt(shardWrites / requests),
      'vs floor (1 call)': fmt(calls / requests / 1),
    });
  }
  return rows;
}

export async function runMeteringShards(): Promise<void> {
  console.log(`\n== Metering shards: ${CONTAINERS} simulated containers on one key (synthetic clock), DynamoDB Local in memory ==`);
  const dynamo = await startDynamoDbLocal();
  try {
    console.log(table(await distribution(dynamo.endpoint)));
    console.log(
      'writes per shard: every write a shard row receives, refused ones included; max/mean 1.00 is an even split. ' +
        'A partition takes 1,000 writes/s; the one-row design puts every write on the key row.',
    );
    console.log(table(await callsPerPlan(dynamo.endpoint)));
    console.log('calls/req at half the plan rate from one container, in steady state; a Growth borrow (a transaction over two rows) is one call.');
  } finally {
    await dynamo.stop();
  }
}

if (require.main === module) {
  runMeteringShards().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
