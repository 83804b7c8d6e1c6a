// A caller that follows the sync rules: applies each page to its replica, checking every delivery
// against what it holds (no `added` for a row it has, no `modified` or `removed` for one it never
// got, no row twice in a page). Shared by the feed, sync-property and multi-day refresh tests.
import { syncTransactions } from '../../functions/app/sync';
import type { StoredTransaction } from '../../functions/data/feed-repo';
import type { ItemRecord } from '../../functions/data/items-repo';
import type { Deps } from '../../functions/platform/runtime';

export type Replica = Map<string, StoredTransaction>;
export type SyncPage = Awaited<ReturnType<typeof syncTransactions>>;

/** Applies one sync page to `replica`, asserting each delivery is consistent with what it held. */
export function applySyncPage(replica: Replica, page: SyncPage): void {
  const ids = [...page.added, ...page.modified].map((t) => t.transaction_id).concat(page.removed.map((r) => r.transaction_id));
  expect(new Set(ids).size).toBe(ids.length);
  for (const t of page.added) {
    expect({ added: t.transaction_id, alreadyHeld: replica.has(t.transaction_id) }).toEqual({ added: t.transaction_id, alreadyHeld: false });
    replica.set(t.transaction_id, t);
  }
  for (const t of page.modified) {
    expect({ modified: t.transaction_id, held: replica.has(t.transaction_id) }).toEqual({ modified: t.transaction_id, held: true });
    replica.set(t.transaction_id, t);
  }
  for (const r of page.removed) {
    expect({ removed: r.transaction_id, held: replica.has(r.transaction_id) }).toEqual({ removed: r.transaction_id, held: true });
    replica.delete(r.transaction_id);
  }
}

/** Syncs from `cursor` until `has_more` is false, applying every page; returns the last cursor. */
export async function syncToEnd(deps: Deps, item: ItemRecord, cursor: string | undefined, replica: Replica, count = 500, onPage?: (page: SyncPage) => void): Promise<string> {
  for (;;) {
    const page = await syncTransactions(deps, item, cursor, count);
    applySyncPage(replica, page);
    onPage?.(page);
    cursor = page.next_cursor;
    if (!page.has_more) return cursor;
  }
}
