// Benchmark: what the transactions feed's two hot paths read, for a 2-year and a 10-year item side by
// side, on DynamoDB Local with every call's consumed capacity returned:
//   (a) an ingestion that brings 3 new rows: a window refresh (the source's last 24 months again,
//       plus the 3 rows) and a change batch of the 3 rows;
//   (b) a /v1/transactions/get page of 100 (the use case in process, its accounts read included):
//       first page, a deep page, one account, the last 30 days;
// each beside the floor measured in the same run: one bare Query returning 100 rows of the same
// date-ordered view. Reading the item's whole feed (what every ingestion did before the view) is
// shown for scale.
import { QueryCommand } from '../functions/platform/aws/dynamodb';
import { connectItem } from '../functions/app/link';
import { enrich } from '../functions/app/item-source';
import { getTransactions } from '../functions/app/reads';
import { afterSequence } from '../functions/core/change-feed';
import { generateApiKey } from '../functions/core/api-keys';
import { findInstitution } from '../functions/core/institutions';
import { generateSandboxItem, type SandboxLogin } from '../functions/core/sandbox/generator';
import { commitTransactions, currentTransactions, type StoredTransaction } from '../functions/data/feed-repo';
import { createItem, getItem, putAccounts, type ItemRecord } from '../functions/data/items-repo';
import { keys } from '../functions/data/keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import type { Deps } from '../functions/platform/runtime';
import { meterReads } from '../test/support/read-units';
import { fmt, table } from './lib';

const LOGIN: SandboxLogin = { institutionId: 'ins_sandbox_first_bank', username: 'user_good' };
const DAY = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const yearsBefore = (today: string, years: number) => `${Number(today.slice(0, 4)) - years}${today.slice(4)}`;

interface Cost {
  /** Read capacity units. */
  reads: number;
  readCalls: number;
  /** Reads and writes, as deps.ddbCalls sums them. */
  total: number;
}

async function cost(deps: Deps, run: (metered: Deps) => Promise<unknown>): Promise<Cost> {
  const meter = meterReads(deps);
  deps.ddbCalls.trackCapacity = true;
  const total0 = deps.ddbCalls.capacityUnits;
  await run(meter.deps);
  deps.ddbCalls.trackCapacity = false;
  return { reads: meter.units(), readCalls: meter.calls(), total: deps.ddbCalls.capacityUnits - total0 };
}

/** One bare Query returning 100 rows of the item's date-ordered view: the floor a page is compared to. */
async function floorQuery(deps: Deps, itemId: string): Promise<number> {
  const range = keys.feedByDateRange(itemId, '0000-01-01', '9999-12-31');
  const c = await cost(deps, (d) =>
    d.ddb.send(
      new QueryCommand({
        TableName: d.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': range.pk, ':from': range.skFrom, ':to': range.skTo },
        Limit: 100,
        ConsistentRead: true,
      }),
    ),
  );
  return c.reads;
}

/** Reading every version entry of the item's feed, as an ingestion did before the view. */
async function wholeFeed(deps: Deps, item: ItemRecord): Promise<number> {
  const c = await cost(deps, async (d) => {
    let start: Record<string, unknown> | undefined;
    do {
      const res = await d.ddb.send(
        new QueryCommand({
          TableName: d.config.tableName,
          KeyConditionExpression: 'pk = :pk AND sk <= :to',
          ExpressionAttributeValues: { ':pk': keys.feed(item.itemId).pk, ':to': afterSequence(item.committedSeq) },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      start = res.LastEvaluatedKey;
    } while (start);
  });
  return c.reads;
}

/** Three purchases dated today that the source now reports. */
function threeNew(template: StoredTransaction, today: string, tag: string): StoredTransaction[] {
  return [0, 1, 2].map((k) => ({ ...template, transaction_id: `txn_bench_${tag}_${k}`, date: today, pending: true, amount: 4.5 + k }));
}

export async function runFeedCost(): Promise<void> {
  console.log('\n== Transactions feed: read units of an ingestion and of a transactions/get page, 2-year vs 10-year item ==');
  const key = generateApiKey('test');
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [key] }] });
  try {
    const deps = stack.deps;
    const today = isoDay(deps.clock.now());
    const institution = findInstitution(LOGIN.institutionId)!;

    // The 2-year item: a sandbox connection, through Link's own path.
    const t0 = performance.now();
    const twoYear = await connectItem(deps, {
      itemId: 'item_bench_2y',
      applicationId: 'app_bench',
      environment: 'test',
      institution,
      username: LOGIN.username,
      products: ['transactions'],
      clientUserId: 'bench',
      webhook: null,
    });
    const connect2y = performance.now() - t0;
    const window2y = generateSandboxItem(LOGIN, today).transactions.map(enrich);

    // The 10-year item: five consecutive sandbox windows of 24 months each, ingested as one history.
    const windows = [0, 2, 4, 6, 8].map((years) => {
      const startOfWindow = isoDay(Date.parse(yearsBefore(today, years + 2)) + DAY);
      return generateSandboxItem(LOGIN, yearsBefore(today, years)).transactions.filter((t) => t.date >= startOfWindow).map(enrich);
    });
    // The generator derives ids from the day, so a few rows repeat across windows: the newest window wins.
    const tenYearRows = [...new Map(windows.flat().reverse().map((t) => [t.transaction_id, t])).values()];
    const tenYear = await createItem(deps, {
      itemId: 'item_bench_10y',
      applicationId: 'app_bench',
      environment: 'test',
      institutionId: institution.institution_id,
      institutionName: institution.name,
      connector: twoYear.connector,
      consentedProducts: ['transactions'],
      connectionLogin: LOGIN.username,
      clientUserId: 'bench',
      webhook: null,
    });
    await putAccounts(deps, tenYear.itemId, generateSandboxItem(LOGIN, today).accounts, deps.clock.now());
    const t1 = performance.now();
    await commitTransactions(deps, tenYear.itemId, { kind: 'window', transactions: tenYearRows });
    const ingest10y = performance.now() - t1;

    const items = [
      { label: '2-year', itemId: twoYear.itemId, window: window2y },
      // Its source reports its last 24 months, as the sandbox does.
      { label: '10-year', itemId: tenYear.itemId, window: windows[0] },
    ];
    const ingestRows: Array<Record<string, string | number>> = [];
    const pageRows: Array<Record<string, string | number>> = [];
    for (const it of items) {
      const before = (await getItem(deps, it.itemId))!;
      const whole = await wholeFeed(deps, before);
      const floor = await floorQuery(deps, it.itemId);
      const held = (await currentTransactions(deps, it.itemId, before.committedSeq)).length;

      // (a) Ingestion of three new rows, in both batch shapes.
      const windowRefresh = await cost(deps, (d) => commitTransactions(d, it.itemId, { kind: 'window', transactions: [...threeNew(it.window[0], today, `${it.label}_w`), ...it.window] }));
      const changeBatch = await cost(deps, (d) => commitTransactions(d, it.itemId, { kind: 'changes', upserted: threeNew(it.window[0], today, `${it.label}_c`), removed: [] }));
      for (const [shape, c] of [
        ['window refresh (last 24 months + 3 new)', windowRefresh],
        ['change batch (3 new)', changeBatch],
      ] as const) {
        ingestRows.push({
          item: `${it.label} (${held} rows)`,
          ingestion: shape,
          'read units': fmt(c.reads, 1),
          'read calls': c.readCalls,
          'read + write units': fmt(c.total, 1),
          'whole feed read (before)': fmt(whole, 1),
          'reads / whole feed': fmt(c.reads / whole, 3),
        });
      }

      // (b) transactions/get pages of 100.
      const item = (await getItem(deps, it.itemId))!;
      // The accounts by their share of the rows: a page of one account reads the others' rows between its own.
      const rowsByAccount = new Map<string, number>();
      for (const t of it.window) rowsByAccount.set(t.account_id, (rowsByAccount.get(t.account_id) ?? 0) + 1);
      const byShare = [...rowsByAccount].sort((a, b) => b[1] - a[1]);
      const share = (n: number) => `${Math.round((100 * n) / it.window.length)} % of the rows`;
      const [busiest, quietest] = [byShare[0], byShare[byShare.length - 1]];
      const cases: Array<[string, Record<string, unknown>]> = [
        ['first page, whole history', { start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 100 } }],
        ['deep page (offset = half)', { start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 100, offset: Math.floor(held / 2) } }],
        ['last 30 days', { start_date: isoDay(Date.parse(today) - 30 * DAY), end_date: today, options: { count: 100 } }],
        [`one account, whole history: the busiest (${share(busiest[1])})`, { start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 100, account_ids: [busiest[0]] } }],
        [`one account, whole history: the quietest (${share(quietest[1])})`, { start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 100, account_ids: [quietest[0]] } }],
      ];
      for (const [label, body] of cases) {
        let returned = 0;
        const c = await cost(deps, async (d) => {
          const page = await getTransactions(d, item, { access_token: 'unused', ...body } as Parameters<typeof getTransactions>[2]);
          returned = page.transactions.length;
        });
        pageRows.push({
          item: `${it.label} (${held} rows)`,
          page: label,
          rows: returned,
          'read units': fmt(c.reads, 1),
          'read calls': c.readCalls,
          'bare Query of 100 (floor)': fmt(floor, 1),
          ratio: fmt(c.reads / floor),
        });
      }
    }
    console.log(table(ingestRows));
    console.log(table(pageRows));
    console.log(
      table([
        { step: 'connect the 2-year item in process (generate, enrich, write accounts, feed and view)', ms: fmt(connect2y, 0), transactions: window2y.length },
        { step: 'ingest the 10-year history as one window batch', ms: fmt(ingest10y, 0), transactions: tenYearRows.length },
      ]),
    );
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  runFeedCost().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
