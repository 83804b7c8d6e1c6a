// The feed's date-ordered view (functions/data/feed-repo.ts): what transactions/get and the derived
// products read. Checked against a model under random batches of all three shapes, across a writer
// that dies half-way, while a commit is in flight, and for what it costs to read.
import fc from 'fast-check';
import { QueryCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { syncTransactions } from '../../functions/app/sync';
import { windowStartsByAccount } from '../../functions/core/change-feed';
import {
  commitTransactions,
  currentTransactions,
  currentTransactionsBetween,
  FeedViewMissingError,
  INGESTION_LEASE_MS,
  readTransactionsPage,
  VIEW_GRACE_MS,
  type ChangeSource,
  type StoredTransaction,
} from '../../functions/data/feed-repo';
import { getItem } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps, type ManualClock } from '../support/embedded';
import { meterReads } from '../support/read-units';

const ACCOUNTS = ['acct_a', 'acct_b', 'acct_c'];

function txn(id: string, date: string, account: string, amount: number, pending = false): StoredTransaction {
  return {
    transaction_id: id,
    account_id: account,
    date,
    authorized_datetime: null,
    name: `SHOP ${id}`,
    merchant_name: null,
    amount,
    iso_currency_code: 'USD',
    pending,
    category: null,
    category_detailed: null,
    payment_channel: 'other',
  };
}

/** The order transactions/get promises: date descending, then transaction_id ascending. */
const newestFirst = (rows: Iterable<StoredTransaction>) =>
  [...rows].sort((a, b) => (a.date === b.date ? (a.transaction_id < b.transaction_id ? -1 : 1) : a.date < b.date ? 1 : -1));

const dayOf = (n: number) => new Date(Date.UTC(2025, 0, 1) + (n % 420) * 86_400_000).toISOString().slice(0, 10);

let deps: Deps & { clock: ManualClock };
beforeAll(async () => {
  deps = await embeddedDeps();
});

let items = 0;
async function newItem(): Promise<string> {
  items += 1;
  const itemId = `item_view_${items}`;
  await createTestItem(deps, itemId);
  return itemId;
}

/** Every read of the view agrees with the model: whole history, pages, account and date filters. */
async function expectView(itemId: string, model: ReadonlyMap<string, StoredTransaction>, probe: { from: string; to: string; account: number; offset: number; count: number }) {
  const { committedSeq } = (await getItem(deps, itemId))!;
  const all = newestFirst(model.values());
  expect(await currentTransactions(deps, itemId, committedSeq)).toEqual(all);
  const inRange = all.filter((t) => t.date >= probe.from && t.date <= probe.to);
  expect(await currentTransactionsBetween(deps, itemId, committedSeq, probe.from, probe.to)).toEqual(inRange);
  const everyAccount = await readTransactionsPage(deps, itemId, committedSeq, { ...probe, accountIds: ACCOUNTS });
  expect(everyAccount).toEqual({ total: inRange.length, transactions: inRange.slice(probe.offset, probe.offset + probe.count) });
  const oneAccount = inRange.filter((t) => t.account_id === ACCOUNTS[probe.account]);
  const filtered = await readTransactionsPage(deps, itemId, committedSeq, { ...probe, accountIds: [ACCOUNTS[probe.account]] });
  expect(filtered).toEqual({ total: oneAccount.length, transactions: oneAccount.slice(probe.offset, probe.offset + probe.count) });
}

/** Applies a batch to the model the way the feed must. */
function applyToModel(model: Map<string, StoredTransaction>, source: ChangeSource) {
  if (!('kind' in source)) {
    for (const c of source) if (c.txn) model.set(c.txnId, c.txn);
    else model.delete(c.txnId);
  } else if (source.kind === 'changes') {
    for (const t of source.upserted) model.set(t.transaction_id, t);
    for (const id of source.removed) model.delete(id);
  } else {
    // The window is per account: from that account's oldest reported row; an account the batch does
    // not report keeps every row.
    const starts = windowStartsByAccount(source.transactions);
    const reported = new Set(source.transactions.map((t) => t.transaction_id));
    for (const [id, t] of model) {
      const start = starts.get(t.account_id);
      if (start !== undefined && t.date >= start && !reported.has(id)) model.delete(id);
    }
    for (const t of source.transactions) model.set(t.transaction_id, t);
  }
}

type Op = { shape: 'explicit' | 'changes' | 'window'; adds: number[]; edits: number[]; moves: number[]; removals: number[]; readds: number[]; windowFrom: number };

const opArb: fc.Arbitrary<Op> = fc.record({
  shape: fc.constantFrom('explicit' as const, 'changes' as const, 'window' as const),
  adds: fc.array(fc.nat(), { maxLength: 30 }),
  edits: fc.array(fc.nat(), { maxLength: 4 }),
  moves: fc.array(fc.nat(), { maxLength: 3 }),
  removals: fc.array(fc.nat(), { maxLength: 3 }),
  readds: fc.array(fc.nat(), { maxLength: 2 }),
  windowFrom: fc.nat(),
});

const probeArb = fc.record({
  a: fc.nat(),
  b: fc.nat(),
  account: fc.integer({ min: 0, max: 2 }),
  offset: fc.integer({ min: 0, max: 40 }),
  count: fc.integer({ min: 1, max: 25 }),
});

describe('the date-ordered view', () => {
  it('agrees with a model under random batches of every shape, for every page, account and date range', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(opArb, probeArb), { minLength: 1, maxLength: 5 }), async (steps) => {
        const itemId = await newItem();
        const model = new Map<string, StoredTransaction>();
        const everAdded = new Map<string, StoredTransaction>();
        let next = 0;
        for (const [op, p] of steps) {
          const held = [...model.values()];
          const pick = (n: number) => (held.length ? held[n % held.length] : undefined);
          const changed = new Map<string, StoredTransaction | undefined>();
          for (const n of op.adds) {
            const id = `txn_${String(next++).padStart(5, '0')}`;
            changed.set(id, txn(id, dayOf(n), ACCOUNTS[n % 3], n + 0.25, n % 4 === 0));
          }
          for (const n of op.edits) {
            const t = pick(n);
            if (t && !changed.has(t.transaction_id)) changed.set(t.transaction_id, { ...t, amount: t.amount + 1 });
          }
          for (const n of op.moves) {
            const t = pick(n);
            if (t && !changed.has(t.transaction_id)) changed.set(t.transaction_id, { ...t, pending: false, date: dayOf(n + 7) });
          }
          for (const n of op.removals) {
            const t = pick(n);
            if (t && !changed.has(t.transaction_id)) changed.set(t.transaction_id, undefined);
          }
          // A removed transaction the source reports again, maybe on another day.
          const gone = [...everAdded.values()].filter((t) => !model.has(t.transaction_id));
          for (const n of op.readds) {
            const t = gone.length ? gone[n % gone.length] : undefined;
            if (t && !changed.has(t.transaction_id)) changed.set(t.transaction_id, { ...t, date: dayOf(n), amount: t.amount + 2 });
          }
          for (const [id, t] of changed) if (t) everAdded.set(id, t);
          let source: ChangeSource;
          if (op.shape === 'explicit') source = [...changed].map(([txnId, t]) => ({ txnId, txn: t }));
          else if (op.shape === 'changes') {
            source = {
              kind: 'changes',
              upserted: [...changed.values()].filter((t): t is StoredTransaction => t !== undefined),
              removed: [...changed].filter(([, t]) => !t).map(([id]) => id),
            };
          } else {
            // The source's view of its window: what the feed holds from some date on, with the changes.
            const from = dayOf(op.windowFrom);
            const inWindow = new Map(held.filter((t) => t.date >= from).map((t) => [t.transaction_id, t]));
            for (const [id, t] of changed) {
              if (!t) inWindow.delete(id);
              else if (t.date >= from) inWindow.set(id, t);
            }
            source = { kind: 'window', transactions: [...inWindow.values()] };
          }
          await commitTransactions(deps, itemId, source);
          applyToModel(model, source);
          const [from, to] = [dayOf(p.a), dayOf(p.b)].sort();
          await expectView(itemId, model, { from, to, account: p.account, offset: p.offset, count: p.count });
        }
      }),
      { numRuns: 12 },
    );
  }, 240_000);

  it('fails loudly for an item that committed transactions before the view existed', async () => {
    const itemId = await newItem();
    // An item row that says it committed, with no view rows behind it.
    await deps.ddb.send(new UpdateCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), UpdateExpression: 'SET committed_seq = :s, reserved_seq = :s', ExpressionAttributeValues: { ':s': 3 } }));
    await expect(readTransactionsPage(deps, itemId, 3, { from: '2000-01-01', to: '2100-01-01', accountIds: ACCOUNTS, offset: 0, count: 10 })).rejects.toBeInstanceOf(FeedViewMissingError);
    await expect(currentTransactions(deps, itemId, 3)).rejects.toBeInstanceOf(FeedViewMissingError);
    await expect(commitTransactions(deps, itemId, [{ txnId: 't', txn: txn('t', '2026-01-01', 'acct_a', 1) }])).rejects.toBeInstanceOf(FeedViewMissingError);
    // An item that never committed is simply empty.
    const fresh = await newItem();
    expect(await readTransactionsPage(deps, fresh, 0, { from: '2000-01-01', to: '2100-01-01', accountIds: ACCOUNTS, offset: 0, count: 10 })).toEqual({ total: 0, transactions: [] });
    expect(await currentTransactions(deps, fresh, 0)).toEqual([]);
  });

  it('deletes the rows a commit ended once no reader can still see them', async () => {
    const itemId = await newItem();
    await commitTransactions(deps, itemId, [{ txnId: 't1', txn: txn('t1', '2026-01-05', 'acct_a', 1, true) }]);
    await commitTransactions(deps, itemId, [{ txnId: 't1', txn: txn('t1', '2026-01-07', 'acct_a', 1) }]);
    const viewRows = async () => {
      const res = await deps.ddb.send(
        new QueryCommand({ TableName: deps.config.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :d)', ExpressionAttributeValues: { ':pk': keys.feed(itemId).pk, ':d': 'D#' } }),
      );
      return (res.Items ?? []).length;
    };
    // The pending version's row stays readable for readers still on the previous snapshot.
    expect(await viewRows()).toBe(2);
    expect(await currentTransactions(deps, itemId, 1)).toEqual([txn('t1', '2026-01-05', 'acct_a', 1, true)]);
    deps.clock.advance(VIEW_GRACE_MS + 1);
    await commitTransactions(deps, itemId, [{ txnId: 't2', txn: txn('t2', '2026-01-08', 'acct_b', 2) }]);
    expect(await viewRows()).toBe(2);
    expect((await currentTransactions(deps, itemId, 3)).map((t) => t.transaction_id)).toEqual(['t2', 't1']);
  });
});

// ---------- a writer that dies, and a commit in flight ----------

const BASE = [txn('t_a', '2026-01-03', 'acct_a', 1, true), txn('t_b', '2026-01-04', 'acct_b', 2), txn('t_c', '2026-02-10', 'acct_c', 3), txn('t_d', '2026-02-11', 'acct_a', 4)];
/** Adds, an edit, a pending that posts on another day (another month), and a removal. */
const NEXT: ChangeSource = [
  { txnId: 't_a', txn: { ...BASE[0], pending: false, date: '2026-02-01' } },
  { txnId: 't_b', txn: { ...BASE[1], amount: 2.5 } },
  { txnId: 't_c' },
  { txnId: 't_e', txn: txn('t_e', '2026-02-12', 'acct_b', 5) },
  { txnId: 't_f', txn: txn('t_f', '2026-01-20', 'acct_c', 6) },
];

/**
 * deps whose DynamoDB client fails the `failAt`-th write call (BatchWrite or TransactWrite): only that
 * call, or, when `everythingAfter`, every call from then on (a writer that dies and never releases).
 */
function failingDeps(failAt: number, everythingAfter: boolean) {
  let writes = 0;
  const send = async (command: { constructor: { name: string } }) => {
    const name = command.constructor.name;
    const isWrite = name === 'BatchWriteCommand' || name === 'TransactWriteCommand';
    if (isWrite) writes += 1;
    if (everythingAfter ? writes >= failAt : isWrite && writes === failAt) throw new Error(`injected failure at write ${failAt}`);
    return (deps.ddb.send as (c: unknown) => Promise<unknown>)(command);
  };
  return { ...deps, ddb: { send } as unknown as Deps['ddb'], writes: () => writes };
}

async function syncedFromScratch(itemId: string): Promise<StoredTransaction[]> {
  const item = (await getItem(deps, itemId))!;
  const replica = new Map<string, StoredTransaction>();
  let cursor: string | undefined;
  for (;;) {
    const page = await syncTransactions(deps, item, cursor, 2);
    for (const t of [...page.added, ...page.modified]) replica.set(t.transaction_id, t);
    for (const r of page.removed) replica.delete(r.transaction_id);
    cursor = page.next_cursor;
    if (!page.has_more) return newestFirst(replica.values());
  }
}

describe('a writer that stops half-way', () => {
  const baseModel = () => new Map(BASE.map((t) => [t.transaction_id, t]));
  const nextModel = () => {
    const m = baseModel();
    applyToModel(m, NEXT);
    return m;
  };
  const probe = { from: '2026-01-01', to: '2026-02-28', account: 0, offset: 1, count: 3 };

  it('leaves readers on the last commit, and the next writer undoes its rows before committing', async () => {
    // How many write calls a commit of NEXT makes, so that every one of them gets its failure.
    const counting = failingDeps(Number.POSITIVE_INFINITY, false);
    const probeItem = await newItem();
    await commitTransactions(deps, probeItem, BASE.map((t) => ({ txnId: t.transaction_id, txn: t })));
    await commitTransactions(counting, probeItem, NEXT);
    expect(counting.writes()).toBeGreaterThanOrEqual(3);

    for (let failAt = 1; failAt <= counting.writes(); failAt += 1) {
      for (const everythingAfter of [false, true]) {
        const itemId = await newItem();
        await commitTransactions(deps, itemId, BASE.map((t) => ({ txnId: t.transaction_id, txn: t })));
        await expect(commitTransactions(failingDeps(failAt, everythingAfter), itemId, NEXT)).rejects.toThrow(/injected failure/);
        await expectView(itemId, baseModel(), probe);
        expect(await syncedFromScratch(itemId)).toEqual(newestFirst(baseModel().values()));
        // A writer that died without releasing its lease holds the item until the lease runs out.
        if (everythingAfter) deps.clock.advance(INGESTION_LEASE_MS + 1);
        const retried = await commitTransactions(deps, itemId, NEXT);
        expect(retried).toMatchObject({ added: 2, modified: 2, removed: 1 });
        await expectView(itemId, nextModel(), probe);
        expect(await syncedFromScratch(itemId)).toEqual(newestFirst(nextModel().values()));
      }
    }
  }, 240_000);

  it('undoes an unpublished re-add of a removed transaction, leaving it removed for readers and the next writer', async () => {
    // NEXT removed t_c; the source then reports it again, on another day.
    const readd: ChangeSource = [{ txnId: 't_c', txn: { ...BASE[2], date: '2026-01-15', amount: 3.5 } }];
    const readdModel = () => {
      const m = nextModel();
      applyToModel(m, readd);
      return m;
    };
    for (const failAt of [1, 2, 3]) {
      const itemId = await newItem();
      await commitTransactions(deps, itemId, BASE.map((t) => ({ txnId: t.transaction_id, txn: t })));
      await commitTransactions(deps, itemId, NEXT);
      const afterRemoval = await syncTransactions(deps, (await getItem(deps, itemId))!, undefined, 100);
      await expect(commitTransactions(failingDeps(failAt, false), itemId, readd)).rejects.toThrow(/injected failure/);
      await expectView(itemId, nextModel(), probe);
      expect(await syncedFromScratch(itemId)).toEqual(newestFirst(nextModel().values()));
      // A commit that does not touch t_c undoes the orphan: t_c stays removed, its tombstone current.
      await commitTransactions(deps, itemId, [{ txnId: 't_g', txn: txn('t_g', '2026-02-20', 'acct_a', 7) }]);
      const without = nextModel();
      without.set('t_g', txn('t_g', '2026-02-20', 'acct_a', 7));
      await expectView(itemId, without, probe);
      const retried = await commitTransactions(deps, itemId, readd);
      expect(retried).toMatchObject({ added: 1, modified: 0, removed: 0 });
      const final = readdModel();
      final.set('t_g', txn('t_g', '2026-02-20', 'acct_a', 7));
      await expectView(itemId, final, probe);
      expect(await syncedFromScratch(itemId)).toEqual(newestFirst(final.values()));
      // A caller that saw the removal gets the re-added transaction as added.
      const caughtUp = await syncTransactions(deps, (await getItem(deps, itemId))!, afterRemoval.next_cursor, 100);
      expect(caughtUp.added.map((t) => t.transaction_id).sort()).toEqual(['t_c', 't_g']);
      expect(caughtUp.removed).toEqual([]);
    }
  });

  it('shows a reader the last committed state while a commit is writing, and the new one once it publishes', async () => {
    const itemId = await newItem();
    await commitTransactions(deps, itemId, BASE.map((t) => ({ txnId: t.transaction_id, txn: t })));
    let reachedPublish!: () => void;
    const atPublish = new Promise<void>((r) => (reachedPublish = r));
    let publish!: () => void;
    const gate = new Promise<void>((r) => (publish = r));
    const send = async (command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand') {
        reachedPublish();
        await gate;
      }
      return (deps.ddb.send as (c: unknown) => Promise<unknown>)(command);
    };
    const inFlight = commitTransactions({ ...deps, ddb: { send } as unknown as Deps['ddb'] }, itemId, NEXT);
    await atPublish;
    // Every row of the new batch is written; none of it may show.
    await expectView(itemId, baseModel(), probe);
    publish();
    await inFlight;
    await expectView(itemId, nextModel(), probe);
  });
});

// ---------- what it costs ----------

/** A history of `months` months ending 2026-11-20, about 40 transactions a month over three accounts. */
function history(months: number): StoredTransaction[] {
  const out: StoredTransaction[] = [];
  const end = Date.UTC(2026, 10, 20);
  const days = Math.round(months * 30.4);
  for (let d = 0; d < days; d += 1) {
    const date = new Date(end - d * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < (d % 3 === 0 ? 2 : 1); k += 1) out.push(txn(`txn_${date}_${k}`, date, ACCOUNTS[(d + k) % 3], 10 + (d % 17)));
  }
  return out;
}

describe('what reading costs', () => {
  it('an ingestion reads what its batch changes and a page reads its own rows, whatever the length of the history', async () => {
    const measured: Record<string, { ingest: number; page: number; floor: number }> = {};
    for (const months of [6, 36]) {
      const itemId = await newItem();
      const rows = history(months);
      await commitTransactions(deps, itemId, { kind: 'window', transactions: rows });
      // A refresh: the source's whole window again, with three new rows.
      const fresh = [0, 1, 2].map((k) => txn(`txn_new_${k}`, '2026-11-20', ACCOUNTS[k], 5 + k));
      const ingest = meterReads(deps);
      const result = await commitTransactions(ingest.deps, itemId, { kind: 'window', transactions: [...fresh, ...rows] });
      expect(result).toMatchObject({ added: 3, modified: 0, removed: 0 });
      const { committedSeq } = (await getItem(deps, itemId))!;
      const page = meterReads(deps);
      const got = await readTransactionsPage(page.deps, itemId, committedSeq, { from: '2020-01-01', to: '2026-12-31', accountIds: ACCOUNTS, offset: 100, count: 100 });
      expect(got.total).toBe(rows.length + 3);
      expect(got.transactions).toHaveLength(100);
      // The floor: one bare Query returning 100 rows of the same view.
      const floor = meterReads(deps);
      const range = keys.feedByDateRange(itemId, '2020-01-01', '2026-12-31');
      await floor.deps.ddb.send(
        new QueryCommand({
          TableName: deps.config.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': range.pk, ':from': range.skFrom, ':to': range.skTo },
          Limit: 100,
          ConsistentRead: true,
        }),
      );
      measured[months] = { ingest: ingest.units(), page: page.units(), floor: floor.units() };
    }
    const [small, large] = [measured[6], measured[36]];
    // Six times the history, the same reads (a unit or two of rounding apart).
    expect(Math.abs(large.ingest - small.ingest)).toBeLessThanOrEqual(2);
    expect(Math.abs(large.page - small.page)).toBeLessThanOrEqual(2);
    // Reading the whole feed of the long history would take well over a hundred units.
    expect(large.ingest).toBeLessThan(12);
    expect(large.page).toBeLessThanOrEqual(1.5 * large.floor);
  }, 240_000);

  it("a page of an account with few of the rows reads its own days, not the other accounts' rows between them", async () => {
    const measured: Record<string, { units: number; rows: number }> = {};
    for (const months of [12, 60]) {
      const itemId = await newItem();
      const rows = rareAccountHistory(months);
      await commitTransactions(deps, itemId, { kind: 'window', transactions: rows });
      const { committedSeq } = (await getItem(deps, itemId))!;
      const rare = newestFirst(rows.filter((t) => t.account_id === RARE));
      const page = meterReads(deps);
      const got = await readTransactionsPage(page.deps, itemId, committedSeq, { from: '2000-01-01', to: '2100-01-01', accountIds: [RARE], offset: 5, count: 10 });
      expect(got).toEqual({ total: rare.length, transactions: rare.slice(5, 15) });
      measured[months] = { units: page.units(), rows: rows.length };
    }
    const [small, large] = [measured[12], measured[60]];
    // The same page of the rare account, five times the history: the same reads, a few units apart
    // (reading through the history between its rows took over 100 units on the long one).
    expect(large.rows).toBeGreaterThan(4 * small.rows);
    expect(Math.abs(large.units - small.units)).toBeLessThanOrEqual(4);
    expect(large.units).toBeLessThan(40);
  }, 240_000);
});

/** An account with one transaction every ten days beside two busy ones: a few percent of the rows. */
const RARE = 'acct_c';
function rareAccountHistory(months: number): StoredTransaction[] {
  const out: StoredTransaction[] = [];
  const end = Date.UTC(2026, 10, 20);
  for (let d = 0; d < Math.round(months * 30.4); d += 1) {
    const date = new Date(end - d * 86_400_000).toISOString().slice(0, 10);
    for (let k = 0; k < 4; k += 1) out.push(txn(`txn_${date}_${k}`, date, ACCOUNTS[k % 2], 10 + k));
    if (d % 10 === 3) out.push(txn(`txn_${date}_rare`, date, RARE, 99));
  }
  return out;
}

describe('a page of accounts with few of the rows', () => {
  it('agrees with a model for every page, selection and date range, also when a commit replaced a month row', async () => {
    const itemId = await newItem();
    const model = new Map<string, StoredTransaction>();
    const rows = rareAccountHistory(8);
    await commitTransactions(deps, itemId, { kind: 'window', transactions: rows });
    for (const t of rows) model.set(t.transaction_id, t);
    // A later commit moves some rare rows and removes others: month rows change version.
    const moved = [...model.values()].filter((t) => t.account_id === RARE).slice(2, 6);
    const changes: { txnId: string; txn?: StoredTransaction }[] = [
      ...moved.slice(0, 2).map((t) => ({ txnId: t.transaction_id, txn: { ...t, date: '2026-11-19', amount: 7 } })),
      ...moved.slice(2).map((t) => ({ txnId: t.transaction_id })),
    ];
    await commitTransactions(deps, itemId, changes);
    for (const c of changes) if (c.txn) model.set(c.txnId, c.txn);
    else model.delete(c.txnId);
    const { committedSeq } = (await getItem(deps, itemId))!;
    const all = newestFirst(model.values());
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          a: fc.integer({ min: 0, max: 260 }),
          b: fc.integer({ min: 0, max: 260 }),
          selection: fc.constantFrom<string[]>([RARE], [RARE, ACCOUNTS[0]], [ACCOUNTS[1], RARE]),
          offset: fc.integer({ min: 0, max: 30 }),
          count: fc.integer({ min: 1, max: 40 }),
        }),
        async ({ a, b, selection, offset, count }) => {
          const day = (n: number) => new Date(Date.UTC(2026, 10, 20) - n * 86_400_000).toISOString().slice(0, 10);
          const [from, to] = [day(Math.max(a, b)), day(Math.min(a, b))];
          const expected = all.filter((t) => t.date >= from && t.date <= to && selection.includes(t.account_id));
          const got = await readTransactionsPage(deps, itemId, committedSeq, { from, to, accountIds: selection, offset, count });
          expect(got).toEqual({ total: expected.length, transactions: expected.slice(offset, offset + count) });
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);
});
