import { changesFrom } from '../../functions/app/item-source';
import { commitTransactions, currentTransactions, readTransactionsPage, sameTransaction, type ChangeSource, type StoredTransaction } from '../../functions/data/feed-repo';
import { getItem } from '../../functions/data/items-repo';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps } from '../support/embedded';
import { syncToEnd as syncReplicaToEnd, type Replica } from '../support/sync-replica';

const txn = (id: string, amount: number): StoredTransaction => ({
  transaction_id: id,
  account_id: 'acct_1',
  date: '2026-11-20',
  authorized_datetime: '2026-11-19T10:00:00.000Z',
  name: 'SQ *BLUE BOTTLE',
  merchant_name: 'Blue Bottle Coffee',
  amount,
  iso_currency_code: 'USD',
  pending: false,
  category: 'food_and_drink',
  category_detailed: 'food_and_drink_coffee',
  payment_channel: 'in_store',
});

describe('the change feed writer', () => {
  it('compares transactions field by field, whatever the key order', () => {
    const a = txn('txn_1', 4.5);
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as unknown as StoredTransaction;
    expect(sameTransaction(a, reordered)).toBe(true);
    expect(sameTransaction(a, { ...a, amount: 4.51 })).toBe(false);
  });

  it('commits nothing when the same rows are ingested again after a round trip through DynamoDB', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_idem');
    const first = await commitTransactions(deps, 'item_idem', [txn('txn_1', 4.5), txn('txn_2', 9)].map((t) => ({ txnId: t.transaction_id, txn: t })));
    expect(first).toMatchObject({ committedSeq: 1, added: 2 });
    const stored = await currentTransactions(deps, 'item_idem', 1);
    const again = await commitTransactions(deps, 'item_idem', stored.map((t) => ({ txnId: t.transaction_id, txn: t })));
    expect(again).toEqual({ committedSeq: null, added: 0, modified: 0, removed: 0 });
    expect((await getItem(deps, 'item_idem'))!.committedSeq).toBe(1);
  });

  it('refuses a second writer while the first holds the lease', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_lease');
    const results = await Promise.allSettled([
      commitTransactions(deps, 'item_lease', [{ txnId: 'txn_a', txn: txn('txn_a', 1) }]),
      commitTransactions(deps, 'item_lease', [{ txnId: 'txn_b', txn: txn('txn_b', 2) }]),
    ]);
    const rejected = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(rejected.map((r) => (r.reason as Error).name)).toEqual(['IngestionBusyError']);
  });
});

describe('ingesting the two shapes of connector batch', () => {
  it('commits a change batch as it is, and ignores the removal of a transaction the feed never had', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_changes');
    const first = await commitTransactions(deps, 'item_changes', changesFrom({ kind: 'changes', upserted: [txn('txn_1', 4.5), txn('txn_2', 9)], removed: [] }));
    expect(first).toMatchObject({ committedSeq: 1, added: 2, modified: 0, removed: 0 });
    const second = await commitTransactions(
      deps,
      'item_changes',
      changesFrom({ kind: 'changes', upserted: [txn('txn_1', 5)], removed: ['txn_2', 'txn_never_seen'] }),
    );
    expect(second).toMatchObject({ committedSeq: 2, added: 0, modified: 1, removed: 1 });
    expect((await currentTransactions(deps, 'item_changes', 2)).map((t) => [t.transaction_id, t.amount])).toEqual([['txn_1', 5]]);
    // Removing again what is already removed changes nothing.
    expect(await commitTransactions(deps, 'item_changes', changesFrom({ kind: 'changes', upserted: [], removed: ['txn_2'] }))).toMatchObject({ committedSeq: null });
  });

  it('diffs a window batch: what the window no longer reports inside its dates is removed, older history stays', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_window');
    const old = { ...txn('txn_old', 20), date: '2026-01-05' };
    const pending = { ...txn('txn_pending', 7), pending: true };
    await commitTransactions(deps, 'item_window', changesFrom({ kind: 'window', transactions: [old, pending, txn('txn_kept', 3)] }));
    // The next window starts after txn_old's date and no longer has the pending authorization.
    const result = await commitTransactions(deps, 'item_window', changesFrom({ kind: 'window', transactions: [txn('txn_kept', 3), txn('txn_new', 8)] }));
    expect(result).toMatchObject({ added: 1, modified: 0, removed: 1 });
    const ids = (await currentTransactions(deps, 'item_window', result.committedSeq!)).map((t) => t.transaction_id).sort();
    expect(ids).toEqual(['txn_kept', 'txn_new', 'txn_old']);
  });
});

describe('a source that reports again a transaction it withdrew', () => {
  const syncToEnd = async (deps: Deps, itemId: string, cursor: string | undefined, replica: Replica) => syncReplicaToEnd(deps, (await getItem(deps, itemId))!, cursor, replica, 1);

  it('re-adds it: every earlier cursor syncs to the current state and transactions/get shows it once', async () => {
    const deps = await embeddedDeps();
    const itemId = 'item_readd';
    await createTestItem(deps, itemId);
    const batches: ChangeSource[] = [
      { kind: 'changes', upserted: [txn('txn_x', 4.5), txn('txn_y', 9)], removed: [] },
      { kind: 'changes', upserted: [], removed: ['txn_x'] },
      // a statement re-import after a deleting correction: the same id, other content
      { kind: 'changes', upserted: [txn('txn_x', 5)], removed: [] },
      { kind: 'window', transactions: [txn('txn_y', 9)] },
      { kind: 'window', transactions: [txn('txn_x', 6), txn('txn_y', 9)] },
    ];
    // Where a caller that synced after each commit stands: its cursor and what it holds.
    const checkpoints: Array<{ cursor: string | undefined; replica: Replica }> = [{ cursor: undefined, replica: new Map() }];
    const expected = [4.5, undefined, 5, undefined, 6];
    for (const [i, batch] of batches.entries()) {
      const result = await commitTransactions(deps, itemId, batch);
      expect(result.committedSeq).toBe(i + 1);
      const last = checkpoints[checkpoints.length - 1];
      const replica = new Map(last.replica);
      checkpoints.push({ cursor: await syncToEnd(deps, itemId, last.cursor, replica), replica });
      expect(replica.get('txn_x')?.amount).toBe(expected[i]);
    }
    expect((await commitTransactions(deps, itemId, { kind: 'changes', upserted: [], removed: [] })).committedSeq).toBeNull();
    const current = await currentTransactions(deps, itemId, 5);
    expect(current.map((t) => [t.transaction_id, t.amount])).toEqual([
      ['txn_x', 6],
      ['txn_y', 9],
    ]);
    // A caller at any earlier point catches up to exactly the current state.
    for (const { cursor, replica } of checkpoints) {
      const caughtUp = new Map(replica);
      await syncToEnd(deps, itemId, cursor, caughtUp);
      expect(Object.fromEntries(caughtUp)).toEqual(Object.fromEntries(current.map((t) => [t.transaction_id, t])));
    }
    const page = await readTransactionsPage(deps, itemId, 5, { from: '2026-01-01', to: '2026-12-31', accountIds: ['acct_1'], offset: 0, count: 10 });
    expect(page.total).toBe(2);
    expect(page.transactions.map((t) => t.transaction_id)).toEqual(['txn_x', 'txn_y']);
  });
});
