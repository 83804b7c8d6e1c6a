// Benchmark: /v1/transactions/sync pages of 100 and 500 over local HTTP for an item with 24
// months of history (p50/p99 per page, rows/s), DynamoDB calls and consumed capacity per page
// (in process), beside a bare DynamoDB Query returning the same rows (the floor), and the time to
// generate and ingest one sandbox item.
import { QueryCommand } from '../functions/platform/aws/dynamodb';
import { connectItem } from '../functions/app/link';
import { enrich } from '../functions/app/item-source';
import { syncTransactions } from '../functions/app/sync';
import { afterSequence } from '../functions/core/change-feed';
import { generateApiKey } from '../functions/core/api-keys';
import { findInstitution } from '../functions/core/institutions';
import { generateSandboxItem } from '../functions/core/sandbox/generator';
import { getItem } from '../functions/data/items-repo';
import { keys } from '../functions/data/keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { fmt, startChild, table } from './lib';

const FULL_SYNCS = Number(process.env.BENCH_SYNC_REPEATS ?? 3);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

async function postJson<T = Record<string, string>>(url: string, key: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<T>;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

export async function runSyncPages(): Promise<void> {
  console.log(`\n== Transactions sync: one sandbox item (24 months), ${FULL_SYNCS} full syncs per page size ==`);

  // Generation alone (pure, in process).
  const genTimes: number[] = [];
  let rowsPerItem = 0;
  for (let i = 0; i < 5; i += 1) {
    const t0 = performance.now();
    const data = generateSandboxItem({ institutionId: 'ins_sandbox_first_bank', username: `user_good_gen${i}` }, today());
    data.transactions.map(enrich);
    genTimes.push(performance.now() - t0);
    rowsPerItem = data.transactions.length;
  }

  // Over HTTP against the real service in its own process.
  const key = generateApiKey('test');
  const service = await startChild('bin/local.ts', {
    PORT: '0',
    FC_LOCAL_IN_MEMORY: '1',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    FC_LOCAL_SEED: JSON.stringify([{ application: 'Bench', plan: 'enterprise', keys: [key] }]),
  });
  const rows: Array<Record<string, string | number>> = [];
  let connectMs: number;
  try {
    const t0 = performance.now();
    const pt = await postJson(`${service.baseUrl}/v1/sandbox/public_token/create`, key, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
    const { access_token } = await postJson(`${service.baseUrl}/v1/link/token/exchange`, key, { public_token: pt.public_token });
    // Connecting answers before the history loads (in the service's refresh worker): sync the whole history.
    while ((await postJson<{ item: { transactions_update_status: string } }>(`${service.baseUrl}/v1/items/get`, key, { access_token })).item.transactions_update_status !== 'historical_update_complete') {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    connectMs = performance.now() - t0;
    for (const count of [100, 500]) {
      const latencies: number[] = [];
      let delivered = 0;
      let totalMs = 0;
      for (let r = 0; r < FULL_SYNCS + 1; r += 1) {
        let cursor: string | undefined;
        const started = performance.now();
        let n = 0;
        for (;;) {
          const p0 = performance.now();
          const page = await postJson<{ added: unknown[]; next_cursor: string; has_more: boolean }>(`${service.baseUrl}/v1/transactions/sync`, key, { access_token, count, ...(cursor ? { cursor } : {}) });
          if (r > 0) latencies.push(performance.now() - p0); // first full sync is the warm-up
          n += page.added.length;
          cursor = page.next_cursor;
          if (!page.has_more) break;
        }
        if (r > 0) {
          delivered += n;
          totalMs += performance.now() - started;
        }
      }
      rows.push({ 'page size': count, via: 'HTTP /v1/transactions/sync', pages: latencies.length, 'p50 ms': fmt(percentile(latencies, 0.5)), 'p99 ms': fmt(percentile(latencies, 0.99)), 'rows/s': fmt(delivered / (totalMs / 1000), 0) });
    }
  } finally {
    await service.stop();
  }

  // In process: DynamoDB calls and capacity per page, and the bare Query floor on the same rows.
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [key] }] });
  const capacityRows: Array<Record<string, string | number>> = [];
  try {
    const deps = stack.deps;
    const institution = findInstitution('ins_sandbox_first_bank')!;
    const ingest0 = performance.now();
    const created = await connectItem(deps, {
      itemId: 'item_bench',
      applicationId: 'app_bench',
      environment: 'test',
      institution,
      username: 'user_good',
      products: ['transactions'],
      clientUserId: 'bench',
      webhook: null,
    });
    const ingestMs = performance.now() - ingest0;
    deps.ddbCalls.trackCapacity = true;
    for (const count of [100, 500]) {
      const item = (await getItem(deps, created.itemId))!;
      let cursor: string | undefined;
      let pages = 0;
      const calls0 = deps.ddbCalls.count;
      const cap0 = deps.ddbCalls.capacityUnits;
      const lat: number[] = [];
      for (;;) {
        const p0 = performance.now();
        const page = await syncTransactions(deps, item, cursor, count);
        lat.push(performance.now() - p0);
        pages += 1;
        cursor = page.next_cursor;
        if (!page.has_more) break;
      }
      capacityRows.push({
        'page size': count,
        via: 'syncTransactions (in process)',
        pages,
        'p50 ms': fmt(percentile(lat, 0.5)),
        'p99 ms': fmt(percentile(lat, 0.99)),
        'DynamoDB calls/page': fmt((deps.ddbCalls.count - calls0) / pages),
        'RCU/page': fmt((deps.ddbCalls.capacityUnits - cap0) / pages, 1),
      });
      // The floor: a bare Query over the same feed partition, page by page, no classification.
      const floorLat: number[] = [];
      const capF = deps.ddbCalls.capacityUnits;
      let start: Record<string, unknown> | undefined;
      let floorPages = 0;
      do {
        const p0 = performance.now();
        const res = await deps.ddb.send(
          new QueryCommand({
            TableName: deps.config.tableName,
            // The version entries only: the partition also holds the date-ordered view.
            KeyConditionExpression: 'pk = :pk AND sk <= :to',
            ExpressionAttributeValues: { ':pk': keys.feed(created.itemId).pk, ':to': afterSequence(created.committedSeq) },
            Limit: count,
            ExclusiveStartKey: start,
            ConsistentRead: true,
          }),
        );
        floorLat.push(performance.now() - p0);
        floorPages += 1;
        start = res.LastEvaluatedKey;
      } while (start);
      capacityRows.push({
        'page size': count,
        via: 'bare DynamoDB Query (floor)',
        pages: floorPages,
        'p50 ms': fmt(percentile(floorLat, 0.5)),
        'p99 ms': fmt(percentile(floorLat, 0.99)),
        'DynamoDB calls/page': '1.00',
        'RCU/page': fmt((deps.ddbCalls.capacityUnits - capF) / floorPages, 1),
      });
    }
    console.log(table(rows));
    console.log(table(capacityRows));
    console.log(
      table([
        { step: 'generate + enrich one item (pure, in process)', 'p50 ms': fmt(percentile(genTimes, 0.5)), transactions: rowsPerItem },
        { step: 'connect one item over HTTP until its history is loaded (polled every 100 ms)', 'p50 ms': fmt(connectMs), transactions: rowsPerItem },
        { step: 'connect one item in process (same work, no HTTP)', 'p50 ms': fmt(ingestMs), transactions: rowsPerItem },
      ]),
    );
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  runSyncPages().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
