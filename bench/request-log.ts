// Benchmark: the console's request log (functions/data/request-log-repo.ts). How a burst of 3,000
// requests (an enterprise key's full burst, in one second) spreads its entry writes over a day's four
// shards, and what reading the log costs in read units: a search page of 100 beside the floor (one
// Query returning 100 entries of one partition, measured in the same run), a deep page, a filtered
// page, and the usage page's count of the day. In process, over DynamoDB Local in memory; capacity
// units do not depend on the machine's load.
import { QueryCommand } from '../functions/platform/aws/dynamodb';
import { randomUUID } from 'node:crypto';
import { searchRequests, type RequestSearchInput } from '../functions/app/console/requests';
import { LIMITS } from '../functions/contracts/limits';
import { keys } from '../functions/data/keys';
import { countRequestsOfDay, recordRequest, REQUEST_LOG_SHARDS, requestLogEntryOf } from '../functions/data/request-log-repo';
import { ensureTable, startDynamoDbLocal } from '../functions/platform/local/dynamodb-local';
import { createDeps, type Deps } from '../functions/platform/runtime';
import { fmt, table } from './lib';

const BURST = 3 * 1000;
const START = Date.UTC(2026, 10, 21, 12, 0, 0);
const SCOPE = { applicationId: 'app_bench_log', environment: 'live' as const };
const ROUTES = ['transactions.sync', 'accounts.balance.get', 'transactions.get', 'items.get', 'ai.categorize'];
const WRITERS = 16;

/** Counts the rows each partition receives through BatchWriteItem. */
function countWritesPerPartition(deps: Deps): Map<string, number> {
  const writes = new Map<string, number>();
  deps.ddb.use(async (call, next) => {
    const input = call.input as { RequestItems?: Record<string, Array<{ PutRequest?: { Item: { pk: string } } }>> };
    for (const requests of Object.values(input.RequestItems ?? {})) {
      for (const r of requests) if (r.PutRequest) writes.set(r.PutRequest.Item.pk, (writes.get(r.PutRequest.Item.pk) ?? 0) + 1);
    }
    return next();
  });
  return writes;
}

/** Status codes in the proportions of a busy day: mostly 200, some 4xx, a few 5xx. */
const statusOf = (i: number) => (i % 50 === 0 ? 500 : i % 20 === 0 ? 404 : i % 10 === 0 ? 400 : 200);

async function burst(deps: Deps): Promise<Map<string, number>> {
  const writes = countWritesPerPartition(deps);
  let next = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < BURST) {
        const i = next++;
        const entry = requestLogEntryOf({
          route: { id: ROUTES[i % ROUTES.length], method: 'POST', path: `/v1/${ROUTES[i % ROUTES.length].replace(/\./g, '/')}` },
          status: statusOf(i),
          latencyMs: 20 + (i % 30),
          // API Gateway's request ids are UUIDs.
          requestId: randomUUID(),
          auth: { ...SCOPE, keyDisplay: 'fc_sk_live_…a1b2' },
          errorCode: statusOf(i) === 200 ? null : 'invalid_field',
          itemId: 'item_0123456789abcdefABCDEF01',
          at: START + Math.floor((i * 1000) / BURST),
        });
        const outcome = await recordRequest(deps, entry);
        if (!outcome.recorded) throw new Error(`not recorded: ${outcome.error}`);
      }
    }),
  );
  return writes;
}

/** Read units and calls `run` consumes (deps.ddbCalls asks DynamoDB for its consumed capacity). */
async function readCost(deps: Deps, run: () => Promise<unknown>): Promise<{ units: number; calls: number }> {
  deps.ddbCalls.trackCapacity = true;
  const units = deps.ddbCalls.capacityUnits;
  const calls = deps.ddbCalls.count;
  try {
    await run();
  } finally {
    deps.ddbCalls.trackCapacity = false;
  }
  return { units: deps.ddbCalls.capacityUnits - units, calls: deps.ddbCalls.count - calls };
}

export async function runRequestLog(): Promise<void> {
  console.log(`\n== Request log: a burst of ${BURST.toLocaleString('en-US')} requests in one second over ${REQUEST_LOG_SHARDS} shards, and the read units of a day's search ==`);
  const dynamo = await startDynamoDbLocal();
  try {
    const tableName = `bench_${randomUUID().slice(0, 8)}`;
    await ensureTable(dynamo.endpoint, tableName);
    const deps = createDeps({ tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: dynamo.endpoint }, { now: () => START + 60_000 });
    const writes = await burst(deps);

    const day = new Date(START).toISOString().slice(0, 10);
    const perShard = Array.from({ length: REQUEST_LOG_SHARDS }, (_, shard) => writes.get(keys.requestLogPartition(SCOPE.applicationId, SCOPE.environment, day, shard).pk) ?? 0);
    const lookups = [...writes.entries()].filter(([pk]) => pk.startsWith('REQID#'));
    const mean = BURST / REQUEST_LOG_SHARDS;
    const hottest = Math.max(...perShard);
    console.log(
      table([
        {
          requests: BURST,
          'entries per shard': perShard.join(' / '),
          'max/mean': fmt(hottest / mean),
          'hottest partition writes/s': hottest,
          'vs partition limit (1,000/s)': fmt(hottest / LIMITS.partitionWritesPerSecond),
          'unsharded day (one partition)': fmt(BURST / LIMITS.partitionWritesPerSecond),
          'lookup rows (one partition each)': lookups.length,
          'hottest lookup partition': Math.max(...lookups.map(([, n]) => n)),
        },
      ]),
    );
    // The floor: one Query returning 100 entries of one shard, newest first.
    const floor = await readCost(deps, () =>
      deps.ddb.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.requestLogPartition(SCOPE.applicationId, SCOPE.environment, day, 0).pk },
          ScanIndexForward: false,
          Limit: 100,
        }),
      ),
    );
    const range = { from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` };
    const page = (input: RequestSearchInput) => readCost(deps, () => searchRequests(deps, SCOPE, { ...range, limit: 100, ...input }));
    let cursor: string | undefined;
    for (let n = 1; n < 5; n += 1) cursor = (await searchRequests(deps, SCOPE, { ...range, limit: 100, ...(cursor ? { cursor } : {}) })).next_cursor ?? undefined;
    const share = (test: (status: number) => boolean) => Array.from({ length: BURST }, (_, i) => statusOf(i)).filter(test).length;
    const clientErrors = share((s) => s >= 400 && s < 500);
    const serverErrors = share((s) => s >= 500);
    const percent = (n: number) => `${fmt((100 * n) / BURST, 0)} %`;
    const cases = [
      { case: 'first page of 100', cost: await page({}), rows: 100 },
      { case: 'fifth page of 100 (cursor)', cost: await page({ cursor }), rows: 100 },
      { case: `first 100 with status 4xx (${percent(clientErrors)} of the day match)`, cost: await page({ status: '4xx' }), rows: Math.min(100, clientErrors) },
      { case: `first 100 with status 5xx (${percent(serverErrors)} match: the whole day is read)`, cost: await page({ status: '5xx' }), rows: Math.min(100, serverErrors) },
      { case: 'usage: count of the day (Select COUNT, 4 shards)', cost: await readCost(deps, () => countRequestsOfDay(deps, SCOPE, day, ['ai.categorize'])), rows: BURST },
    ];
    console.log(
      table([
        { case: 'floor: one Query, 100 entries of one partition', rows: 100, 'read units': fmt(floor.units, 1), calls: floor.calls, ratio: '1.00' },
        ...cases.map((c) => ({ case: c.case, rows: c.rows, 'read units': fmt(c.cost.units, 1), calls: c.cost.calls, ratio: fmt(c.cost.units / floor.units) })),
      ]),
    );
    console.log('ratio: read units over the floor measured in this run (eventually consistent reads, 0.5 unit per 4 KB read per Query).');
    const counted = cases[cases.length - 1].cost.units;
    console.log(
      `counting a day reads every entry of it: ${fmt((counted / BURST) * 1000, 1)} read units per 1,000 requests. A finished day is ` +
        'counted once and kept (UsageDay); today is counted on every usage page.',
    );
  } finally {
    await dynamo.stop();
  }
}

if (require.main === module) {
  runRequestLog().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
