// Benchmark: the cost of one scheduled refresh sweep (sweepDueRefreshes) for two table sizes with the
// same number of due items: DynamoDB calls, read and write units, SQS calls (the real AWS adapter of
// the refresh queue, against a local SQS stand-in that answers SendMessageBatch). Beside it, in the
// same run, what the old hourly Scan for healthy items read on the same table (kept here only, for
// the comparison). Every item owns a feed of a few hundred rows, as a connected item does: that is
// what made the Scan's cost grow with every stored transaction.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BatchWriteCommand, ScanCommand, type ScanCommandOutput } from '../functions/platform/aws/dynamodb';
import { sweepDueRefreshes } from '../functions/app/lifecycle';
import { firstRefreshIntervalMs, REFRESH_DUE_SHARDS } from '../functions/core/refresh-schedule';
import { putApplication } from '../functions/data/api-keys-repo';
import { createItem } from '../functions/data/items-repo';
import { keys } from '../functions/data/keys';
import { createAwsPorts } from '../functions/platform/aws-ports';
import { ensureTable, startDynamoDbLocal } from '../functions/platform/local/dynamodb-local';
import { createDeps, type Deps } from '../functions/platform/runtime';
import { fmt, table } from './lib';

// Ten times the items between the two sizes. DynamoDB Local keeps an in-memory table in its 512 MB
// heap and fails a full Scan somewhere above 100,000 such rows, which bounds the larger size.
const SIZES = (process.env.BENCH_REFRESH_ITEMS ?? '50,500').split(',').map(Number);
const FEED_ROWS = Number(process.env.BENCH_REFRESH_FEED_ROWS ?? 150);
const DUE = Number(process.env.BENCH_REFRESH_DUE ?? 40);
const HOUR = 3_600_000;

/** A local SQS stand-in (JSON protocol) that accepts every message and counts the calls. */
async function startSqsStandIn(): Promise<{ server: Server; endpoint: string; calls: Record<string, number> }> {
  const calls: Record<string, number> = {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '').replace('AmazonSQS.', '');
      calls[target] = (calls[target] ?? 0) + 1;
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { Entries?: { Id: string; MessageBody: string }[]; MessageBody?: string };
      // The SDK checks each body's MD5.
      const md5 = (text = '') => createHash('md5').update(text).digest('hex');
      const reply =
        target === 'SendMessageBatch'
          ? { Successful: (body.Entries ?? []).map((e) => ({ Id: e.Id, MessageId: e.Id, MD5OfMessageBody: md5(e.MessageBody) })), Failed: [] }
          : { MessageId: 'm', MD5OfMessageBody: md5(body.MessageBody) };
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/** DynamoDB calls and consumed units per command while `work` runs. */
async function measured<T>(deps: Deps, work: () => Promise<T>) {
  const byCommand: Record<string, { calls: number; units: number }> = {};
  const send = deps.ddb.send.bind(deps.ddb);
  deps.ddb.send = (async (command: Parameters<typeof send>[0]) => {
    const out = (await send(command)) as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] };
    const entry = (byCommand[command.constructor.name] ??= { calls: 0, units: 0 });
    entry.calls += 1;
    for (const c of [out.ConsumedCapacity ?? []].flat()) entry.units += c.CapacityUnits ?? 0;
    return out;
  }) as typeof deps.ddb.send;
  try {
    const result = await work();
    const total = (names: string[]) => names.reduce((sum, n) => sum + (byCommand[n]?.units ?? 0), 0);
    const calls = Object.values(byCommand).reduce((sum, c) => sum + c.calls, 0);
    return { result, calls, readUnits: total(['QueryCommand', 'ScanCommand']), writeUnits: total(['UpdateCommand']) };
  } finally {
    deps.ddb.send = send as typeof deps.ddb.send;
  }
}

/** The old scheduled refresh's read: every page of a Scan for healthy item rows. */
async function oldScan(deps: Deps): Promise<number> {
  let start: Record<string, unknown> | undefined;
  let healthy = 0;
  do {
    const page: ScanCommandOutput = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.config.tableName,
        FilterExpression: 'sk = :item AND #status = :healthy',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':item': 'ITEM', ':healthy': 'healthy' },
        ProjectionExpression: 'item_id',
        ExclusiveStartKey: start,
      }),
    );
    healthy += page.Items?.length ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return healthy;
}

/** Feed rows of about the size of a stored transaction version. */
async function writeFeed(deps: Deps, itemId: string): Promise<void> {
  const rows = Array.from({ length: FEED_ROWS }, (_, i) => ({
    ...keys.feedEntry(itemId, `${String(i + 1).padStart(12, '0')}#txn_${i}`),
    transaction: { transaction_id: `txn_${i}`, account_id: 'acc_bench', amount: 12.34, date: '2026-01-01', name: 'BENCH MERCHANT PURCHASE 0000', merchant_name: 'Bench', category: ['Shops'], pending: false },
    added_seq: i + 1,
  }));
  const batches: (typeof rows)[] = [];
  for (let i = 0; i < rows.length; i += 25) batches.push(rows.slice(i, i + 25));
  await Promise.all(batches.map((batch) => deps.ddb.send(new BatchWriteCommand({ RequestItems: { [deps.config.tableName]: batch.map((Item) => ({ PutRequest: { Item } })) } }))));
}

async function addItems(deps: Deps, from: number, to: number, at: number): Promise<void> {
  deps.clock = { now: () => at };
  for (let i = from; i < to; i += 1) {
    const itemId = `item_bench_${i}`;
    await createItem(deps, {
      itemId,
      applicationId: 'app_bench',
      environment: 'test',
      institutionId: 'ins_sandbox_first_bank',
      institutionName: 'Sandbox First Bank',
      connector: 'sandbox',
      consentedProducts: ['transactions'],
      connectionLogin: 'user_good',
      clientUserId: 'bench',
      webhook: null,
    });
    await writeFeed(deps, itemId);
  }
}

export async function runRefreshSweep(): Promise<void> {
  console.log(`\n== Scheduled refresh sweep: ${SIZES.join(' and ')} items (${FEED_ROWS} feed rows each), ${DUE} due ==`);
  const dynamo = await startDynamoDbLocal();
  const sqs = await startSqsStandIn();
  const saved = { endpoint: process.env.AWS_ENDPOINT_URL_SQS, key: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: sqs.endpoint, AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench' });
  try {
    const tableName = 'refresh_sweep_bench';
    await ensureTable(dynamo.endpoint, tableName);
    const deps = createDeps({ tableName, stage: 'production', region: 'us-east-1', dynamodbEndpoint: dynamo.endpoint });
    deps.ports = createAwsPorts({ FC_ITEM_REFRESH_QUEUE_URL: `${sqs.endpoint}/000000000000/item-refresh.fifo` }, 'us-east-1');
    deps.ddbCalls.trackCapacity = true;
    await putApplication(deps, { applicationId: 'app_bench', name: 'Bench', plan: 'enterprise' });

    const t0 = Date.UTC(2026, 10, 21, 12);
    const interval = firstRefreshIntervalMs('production');
    // The due items first; every other item connects much later, so it is never due in this run.
    await addItems(deps, 0, DUE, t0);
    const rows: Array<Record<string, string | number>> = [];
    let firstSweepReads: number | undefined;
    let stored = DUE;
    let sweepAt = t0 + interval;
    const empty = await measured(deps, () => sweepDueRefreshes({ ...deps, clock: { now: () => t0 } }));
    for (const size of SIZES) {
      await addItems(deps, stored, size, t0 + 1000 * HOUR);
      stored = size;
      const at = sweepAt;
      const sqs0 = { ...sqs.calls };
      const sweep = await measured(deps, () => sweepDueRefreshes({ ...deps, clock: { now: () => at } }));
      const sqsCalls = Object.entries(sqs.calls).reduce((sum, [name, n]) => sum + n - (sqs0[name] ?? 0), 0);
      const scan = await measured(deps, () => oldScan(deps));
      rows.push({
        items: size,
        'feed rows': size * FEED_ROWS,
        queued: sweep.result.enqueued,
        'sweep DynamoDB calls': sweep.calls,
        'sweep read units': fmt(sweep.readUnits, 1),
        'sweep write units': fmt(sweep.writeUnits, 1),
        'SQS calls': sqsCalls,
        'old Scan calls': scan.calls,
        'old Scan read units': fmt(scan.readUnits, 1),
        'Scan/sweep reads': fmt(scan.readUnits / sweep.readUnits, 1),
        'sweep reads / smallest table': fmt(sweep.readUnits / (firstSweepReads ??= sweep.readUnits), 2),
      });
      // The queued entries are due again one interval later: the next size sweeps the same M.
      sweepAt += interval;
    }
    console.log(table(rows));
    // DynamoDB Local reports 0 units for a Query that returns nothing; DynamoDB bills 0.5 (eventually consistent).
    console.log(
      `nothing due: ${empty.calls} DynamoDB calls (${REFRESH_DUE_SHARDS} Queries), no SQS call; billed at 0.5 read units each, ` +
        `every 5 minutes for a month: ${REFRESH_DUE_SHARDS} x 12/h x 730 h x 0.5 = ${REFRESH_DUE_SHARDS * 12 * 730 * 0.5} read units`,
    );
  } finally {
    Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: saved.endpoint, AWS_ACCESS_KEY_ID: saved.key, AWS_SECRET_ACCESS_KEY: saved.secret });
    for (const [name, value] of Object.entries({ AWS_ENDPOINT_URL_SQS: saved.endpoint, AWS_ACCESS_KEY_ID: saved.key, AWS_SECRET_ACCESS_KEY: saved.secret })) {
      if (value === undefined) delete process.env[name];
    }
    await new Promise<void>((resolve) => sqs.server.close(() => resolve()));
    await dynamo.stop();
  }
}

if (require.main === module) {
  runRefreshSweep().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
