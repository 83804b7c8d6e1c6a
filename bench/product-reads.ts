// Benchmark: what one recurring/get, income/get and assets/get call costs in DynamoDB (calls, read
// and write capacity units) and time, for a 2-year and a 10-year item: the first call after a
// change (the stored product is stale: recomputed from the feed and stored), a repeat call (answered
// from the stored rows), and the per-call recomputation every call paid before products were
// stored; beside a bare GetItem of a row of the same size (the floor). The calls the middleware
// makes on every item route (key UpdateItem, token and item GetItem) are the same in every case and
// left out. In process, against DynamoDB Local in memory.
import { GetCommand } from '../functions/platform/aws/dynamodb';
import { REFRESH_HOOKS } from '../functions/app/derived-products';
import { enrich, todayOf } from '../functions/app/item-source';
import { connectItem } from '../functions/app/link';
import { assetsOf, holdingsOf, identityOf, incomeOf, liabilitiesOf, recurringOf } from '../functions/app/products';
import { generateApiKey } from '../functions/core/api-keys';
import { detectIncome } from '../functions/core/income';
import { findInstitution } from '../functions/core/institutions';
import { detectRecurring } from '../functions/core/recurring';
import { generateSandboxItem } from '../functions/core/sandbox/generator';
import { commitTransactions, currentTransactions } from '../functions/data/feed-repo';
import { getItem, type ItemRecord } from '../functions/data/items-repo';
import { keys } from '../functions/data/keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import type { Deps } from '../functions/platform/runtime';
import { fmt, table } from './lib';

const MISSES = Number(process.env.BENCH_PRODUCT_MISSES ?? 4);
const HITS = Number(process.env.BENCH_PRODUCT_HITS ?? 20);
const DAY = 86_400_000;
const USERNAME = 'user_good';
const INSTITUTION = 'ins_sandbox_first_bank';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Cost {
  calls: number;
  rcu: number;
  wcu: number;
  ms: number;
}

const READS = new Set(['GetCommand', 'QueryCommand', 'BatchGetCommand', 'ScanCommand']);

/**
 * Runs `call` with every DynamoDB call counted and its consumed capacity split into reads and
 * writes (deps.ddbCalls.trackCapacity asks DynamoDB for it; the split is by command).
 */
async function measure(deps: Deps, call: () => Promise<unknown>): Promise<Cost> {
  const send = deps.ddb.send.bind(deps.ddb);
  const cost: Cost = { calls: 0, rcu: 0, wcu: 0, ms: 0 };
  deps.ddb.send = (async (command: Parameters<typeof send>[0]) => {
    const out = (await send(command)) as { ConsumedCapacity?: { CapacityUnits?: number } | Array<{ CapacityUnits?: number }> };
    const units = [out.ConsumedCapacity ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    cost.calls += 1;
    if (READS.has(command.constructor.name)) cost.rcu += units;
    else cost.wcu += units;
    return out;
  }) as typeof deps.ddb.send;
  const t0 = performance.now();
  try {
    await call();
  } finally {
    cost.ms = performance.now() - t0;
    deps.ddb.send = send as typeof deps.ddb.send;
  }
  return cost;
}

/** Median of each figure over `n` runs; `before` runs first each time (outside the measurement). */
async function sample(deps: Deps, n: number, call: () => Promise<unknown>, before: () => void = () => undefined): Promise<Cost> {
  const runs: Cost[] = [];
  for (let i = 0; i < n; i++) {
    before();
    runs.push(await measure(deps, call));
  }
  return { calls: median(runs.map((r) => r.calls)), rcu: median(runs.map((r) => r.rcu)), wcu: median(runs.map((r) => r.wcu)), ms: median(runs.map((r) => r.ms)) };
}

/** An item with `years` of sandbox history: the connector's 24 months, then older windows committed as one more batch. */
async function itemWithYears(deps: Deps, years: number): Promise<ItemRecord> {
  const created = await connectItem(deps, {
    itemId: `item_bench_${years}y`,
    applicationId: 'app_bench',
    environment: 'test',
    institution: findInstitution(INSTITUTION)!,
    username: USERNAME,
    products: ['transactions', 'recurring', 'income', 'assets', 'identity', 'liabilities', 'investments'],
    clientUserId: 'bench',
    webhook: null,
  });
  const older = [];
  for (let window = 1; window < years / 2; window++) {
    const asOf = new Date(deps.clock.now() - window * 730 * DAY).toISOString().slice(0, 10);
    // The generator's ids repeat from one window to the next: each window gets its own.
    const generated = generateSandboxItem({ institutionId: INSTITUTION, username: USERNAME }, asOf).transactions.map(enrich);
    older.push(...generated.map((txn) => ({ ...txn, transaction_id: `${txn.transaction_id}_w${window}` })));
  }
  if (older.length) await commitTransactions(deps, created.itemId, older.map((txn) => ({ txnId: txn.transaction_id, txn })));
  return (await getItem(deps, created.itemId))!;
}

export async function runProductReads(): Promise<void> {
  console.log(`\n== Product reads: recurring, income, assets per call (median of ${MISSES} first calls after a change, ${HITS} repeat calls) ==`);
  let now = Date.now();
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [generateApiKey('test')] }], clock: { now: () => now } });
  const deps = stack.deps;
  deps.ddbCalls.trackCapacity = true;
  // A new day changes every stored product's version: the next call is a first call after a change.
  const nextDay = () => (now += DAY);
  const rows: Array<Record<string, string | number>> = [];
  const sizes: Array<Record<string, string | number>> = [];
  try {
    for (const years of [2, 10]) {
      const item = await itemWithYears(deps, years);
      const transactions = (await currentTransactions(deps, item.itemId, item.committedSeq)).length;
      const label = `${years}-year (${transactions.toLocaleString('en-US')} txns)`;
      const perCallBefore = {
        recurring: async () => detectRecurring(await currentTransactions(deps, item.itemId, item.committedSeq), todayOf(deps)),
        income: async () => detectIncome(await currentTransactions(deps, item.itemId, item.committedSeq), todayOf(deps)),
      };
      for (const [product, read] of [
        ['recurring', () => recurringOf(deps, item)],
        ['income', () => incomeOf(deps, item)],
        ['assets', () => assetsOf(deps, item)],
      ] as const) {
        const first = await sample(deps, MISSES, read, nextDay);
        const repeat = await sample(deps, HITS, read);
        // The floor: one GetItem of the stored head row (assets stores nothing: the item row).
        const head = product === 'assets' ? keys.item(item.itemId) : keys.productPart(item.itemId, product, 0);
        const floor = await sample(deps, HITS, () => deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: head, ConsistentRead: true })));
        const cases: Array<[string, Cost]> = [];
        if (product !== 'assets') cases.push(['before: recomputed on every call', await sample(deps, MISSES, perCallBefore[product])]);
        cases.push(['first call after a change', first], ['repeat call', repeat], ['bare GetItem (floor)', floor]);
        for (const [when, c] of cases) {
          rows.push({ item: label, product, call: when, 'DynamoDB calls': fmt(c.calls, 0), RCU: fmt(c.rcu, 1), WCU: fmt(c.wcu, 1), 'p50 ms': fmt(c.ms, 1), 'x floor': fmt(c.ms / floor.ms, 1) });
        }
        if (product !== 'assets') {
          const stored = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: head }));
          const bytes = (stored.Item?.data as Uint8Array | undefined)?.length ?? 0;
          sizes.push({ item: label, product, 'stored parts': stored.Item?.parts ?? 0, 'gzipped KB': fmt(bytes / 1024, 1) });
        }
      }
      // Computed at ingestion: both products were served, a refresh commits three new transactions and
      // the worker's hook computes them (one feed read for both); the read after the sync webhook.
      const ingestion: Cost[] = [];
      const afterReads: Record<'recurring' | 'income', Cost[]> = { recurring: [], income: [] };
      for (let i = 0; i < MISSES; i++) {
        // The previous sync just happened: the reads follow its webhook, as an integrator's do.
        const before = { ...(await getItem(deps, item.itemId))!, lastSuccessfulSync: new Date(deps.clock.now()).toISOString() };
        await recurringOf(deps, before);
        await incomeOf(deps, before);
        const latest = (await currentTransactions(deps, item.itemId, before.committedSeq)).slice(0, 3);
        const fresh = latest.map((txn, n) => ({ ...txn, transaction_id: `${txn.transaction_id}_r${i}_${n}`, date: todayOf(deps) }));
        const { committedSeq } = await commitTransactions(deps, item.itemId, fresh.map((txn) => ({ txnId: txn.transaction_id, txn })));
        ingestion.push(await measure(deps, () => REFRESH_HOOKS.afterCommit!(deps, before, committedSeq!)));
        const after = (await getItem(deps, item.itemId))!;
        afterReads.recurring.push(await measure(deps, () => recurringOf(deps, after)));
        afterReads.income.push(await measure(deps, () => incomeOf(deps, after)));
      }
      const medianOf = (runs: Cost[]): Cost => ({ calls: median(runs.map((r) => r.calls)), rcu: median(runs.map((r) => r.rcu)), wcu: median(runs.map((r) => r.wcu)), ms: median(runs.map((r) => r.ms)) });
      for (const [product, when, c] of [
        ['recurring + income', 'computed by the refresh worker after its commit (both served before)', medianOf(ingestion)],
        ['recurring', 'first call after that refresh', medianOf(afterReads.recurring)],
        ['income', 'first call after that refresh', medianOf(afterReads.income)],
      ] as const) {
        rows.push({ item: label, product, call: when, 'DynamoDB calls': fmt(c.calls, 0), RCU: fmt(c.rcu, 1), WCU: fmt(c.wcu, 1), 'p50 ms': fmt(c.ms, 1), 'x floor': '' });
      }
      if (years === 2) {
        // The institution-reported products: one Query of the cached accounts, then the connector.
        for (const [product, read] of [
          ['identity', () => identityOf(deps, item)],
          ['liabilities', () => liabilitiesOf(deps, item)],
          ['investments/holdings', () => holdingsOf(deps, item)],
        ] as const) {
          const c = await sample(deps, HITS, read);
          rows.push({ item: label, product, call: 'every call (from the connector)', 'DynamoDB calls': fmt(c.calls, 0), RCU: fmt(c.rcu, 1), WCU: fmt(c.wcu, 1), 'p50 ms': fmt(c.ms, 1), 'x floor': '' });
        }
      }
    }
    console.log(table(rows));
    console.log(table(sizes));
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  runProductReads().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
