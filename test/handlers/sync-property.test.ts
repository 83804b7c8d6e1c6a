// Property: a caller that follows the sync rules (apply each page, keep next_cursor, loop while
// has_more) always ends up with exactly the server's transactions, whatever ingestion batches
// (adds, edits, posts, removals, and removed ids reported again) land between and during its pages. Checked page by page: no row
// twice, no `added` for a row it has, no `modified` or `removed` for a row it never got.
import fc from 'fast-check';
import { syncTransactions } from '../../functions/app/sync';
import { commitTransactions, currentTransactions, type StoredTransaction } from '../../functions/data/feed-repo';
import { getItem } from '../../functions/data/items-repo';
import { decodeCursor } from '../../functions/core/sync-cursor';
import { createTestItem, embeddedDeps } from '../support/embedded';
import { applySyncPage } from '../support/sync-replica';
import type { Deps } from '../../functions/platform/runtime';

let deps: Deps;
beforeAll(async () => {
  deps = await embeddedDeps();
});

type Op =
  | { kind: 'ingest'; adds: number; edits: number[]; posts: number[]; removals: number[]; readds: number[] }
  | { kind: 'page'; count: number }
  | { kind: 'drain'; count: number };

// Weighted toward small pages between batches: the interesting case is a batch landing while the
// caller is in the middle of paging.
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({
    kind: fc.constant('ingest' as const),
    adds: fc.integer({ min: 0, max: 6 }),
    edits: fc.array(fc.nat(), { maxLength: 3 }),
    posts: fc.array(fc.nat(), { maxLength: 3 }),
    removals: fc.array(fc.nat(), { maxLength: 3 }),
    readds: fc.array(fc.nat(), { maxLength: 2 }),
  }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('page' as const), count: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drain' as const), count: fc.integer({ min: 1, max: 5 }) }) },
);

function txn(id: string, n: number, pending: boolean): StoredTransaction {
  return {
    transaction_id: id,
    account_id: 'acct_1',
    date: `2026-11-${String(1 + (n % 20)).padStart(2, '0')}`,
    authorized_datetime: null,
    name: `SHOP ${n}`,
    merchant_name: null,
    amount: n + 0.5,
    iso_currency_code: 'USD',
    pending,
    category: null,
    category_detailed: null,
    payment_channel: 'other',
  };
}

let runs = 0;

async function runScenario(ops: Op[]): Promise<void> {
  runs += 1;
  const itemId = `item_prop_${runs}_${Date.now()}`;
  await createTestItem(deps, itemId);
  const server = new Map<string, StoredTransaction>();
  const serverAt = new Map<number, Map<string, StoredTransaction>>([[0, new Map()]]);
  const replica = new Map<string, StoredTransaction>();
  let cursor: string | undefined;
  const everAdded = new Set<string>();
  let nextId = 0;
  let version = 0;

  const ingest = async (op: Extract<Op, { kind: 'ingest' }>) => {
    const ids = [...server.keys()];
    const gone = [...everAdded].filter((id) => !server.has(id));
    const pick = (n: number) => (ids.length ? ids[n % ids.length] : undefined);
    const changes = new Map<string, StoredTransaction | undefined>();
    for (let i = 0; i < op.adds; i += 1) {
      const id = `txn_${nextId++}`;
      changes.set(id, txn(id, (version += 1), i % 2 === 0));
    }
    for (const n of op.edits) {
      const id = pick(n);
      if (id && !changes.has(id)) changes.set(id, { ...server.get(id)!, amount: server.get(id)!.amount + 1, name: `EDITED ${(version += 1)}` });
    }
    for (const n of op.posts) {
      const id = pick(n);
      if (id && !changes.has(id) && server.get(id)!.pending) changes.set(id, { ...server.get(id)!, pending: false, date: '2026-11-21' });
    }
    for (const n of op.removals) {
      const id = pick(n);
      if (id && !changes.has(id)) changes.set(id, undefined);
    }
    // A source reporting again an id it withdrew (an un-voided pending): it comes back as a fresh add.
    for (const n of op.readds) {
      const id = gone.length ? gone[n % gone.length] : undefined;
      if (id && !changes.has(id)) changes.set(id, txn(id, (version += 1), n % 2 === 0));
    }
    const result = await commitTransactions(deps, itemId, [...changes].map(([txnId, t]) => ({ txnId, txn: t })));
    for (const [id, t] of changes) {
      if (t) everAdded.add(id);
      if (t) server.set(id, t);
      else server.delete(id);
    }
    if (result.committedSeq !== null) serverAt.set(result.committedSeq, new Map(server));
  };

  const page = async (count: number): Promise<boolean> => {
    const item = (await getItem(deps, itemId))!;
    const res = await syncTransactions(deps, item, cursor, count);
    applySyncPage(replica, res);
    cursor = res.next_cursor;
    if (!res.has_more) {
      // A finished session delivered exactly the server state at its snapshot.
      const snap = decodeCursor(res.next_cursor, itemId, item.cursorSecret)!.base;
      expect(Object.fromEntries(replica)).toEqual(Object.fromEntries(serverAt.get(snap)!));
    }
    return res.has_more;
  };

  for (const op of ops) {
    if (op.kind === 'ingest') await ingest(op);
    else if (op.kind === 'page') await page(op.count);
    else while (await page(op.count));
  }
  // Finally: follow the rules to the end; the replica equals the server, by the model and by the table.
  while (await page(3));
  while (await page(500));
  expect(Object.fromEntries(replica)).toEqual(Object.fromEntries(server));
  const item = (await getItem(deps, itemId))!;
  const stored = await currentTransactions(deps, itemId, item.committedSeq);
  expect(Object.fromEntries(stored.map((t) => [t.transaction_id, t]))).toEqual(Object.fromEntries(server));
}

describe('transactions sync (property-based)', () => {
  // 60 scenarios of up to 24 commits and pages each against DynamoDB Local: minutes on a loaded machine.
  it('keeps a rule-following replica equal to the server under interleaved ingestion and paging', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 24 }), runScenario), { numRuns: 60 });
  }, 240_000);

  it('starts over from scratch without a cursor and gets the whole current state as added', async () => {
    await runScenario([
      { kind: 'ingest', adds: 5, edits: [], posts: [], removals: [], readds: [] },
      { kind: 'ingest', adds: 2, edits: [1], posts: [0, 2], removals: [3], readds: [] },
    ]);
  });

  it('gives every earlier cursor a consistent state when a removed transaction is reported again', async () => {
    // add, page; remove, page; re-add, page; remove again; re-add again: sessions start from each.
    await runScenario([
      { kind: 'ingest', adds: 3, edits: [], posts: [], removals: [], readds: [] },
      { kind: 'page', count: 1 },
      { kind: 'ingest', adds: 0, edits: [], posts: [], removals: [0, 1], readds: [] },
      { kind: 'page', count: 1 },
      { kind: 'ingest', adds: 1, edits: [], posts: [], removals: [], readds: [0] },
      { kind: 'drain', count: 2 },
      { kind: 'ingest', adds: 0, edits: [], posts: [], removals: [0], readds: [1] },
      { kind: 'page', count: 1 },
      { kind: 'ingest', adds: 0, edits: [1], posts: [], removals: [], readds: [0, 1] },
    ]);
  });
});
