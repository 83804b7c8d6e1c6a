// POST /v1/transactions/sync on the change feed (see functions/core/change-feed.ts). While a new
// item's history loads it answers what is committed so far (nothing while `not_ready`), as Plaid does.
import { fail } from '../contracts/errors';
import { afterSequence } from '../core/change-feed';
import { decodeCursor, encodeCursor, type CursorState } from '../core/sync-cursor';
import { FEED_RETENTION_MS, readSyncPage, type StoredTransaction } from '../data/feed-repo';
import type { ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { sharesAccount } from './reads';

export async function syncTransactions(deps: Deps, item: ItemRecord, cursor: string | undefined, count: number) {
  const now = deps.clock.now();
  let state: CursorState;
  if (cursor === undefined || cursor === '') {
    state = { itemId: item.itemId, base: 0, snap: item.committedSeq, pos: afterSequence(0), at: now };
  } else {
    const decoded = decodeCursor(cursor, item.itemId, item.cursorSecret);
    // The user changed the accounts the item shares (Link update mode): what a cursor from before
    // delivered no longer matches the consent, and the newly shared history was never delivered.
    if (!decoded && item.retiredCursorSecret !== null && decodeCursor(cursor, item.itemId, item.retiredCursorSecret)) {
      fail('invalid_cursor', 'The accounts this item shares changed since this cursor was issued. Discard the transactions stored for this item and restart transactions/sync without a cursor.');
    }
    if (!decoded || decoded.snap > item.committedSeq) fail('invalid_cursor');
    if (decoded.pos === '') {
      // The previous session finished: a new one reads everything committed since its base.
      state = { itemId: item.itemId, base: decoded.base, snap: item.committedSeq, pos: afterSequence(decoded.base), at: now };
    } else {
      // Mid-session: keep reading the same snapshot, as long as its versions are still retained.
      if (now - decoded.at > FEED_RETENTION_MS - 24 * 3600 * 1000) fail('invalid_cursor', 'This cursor is from a sync that was left unfinished too long ago. Resync from scratch without a cursor.');
      state = decoded;
    }
  }
  const page = await readSyncPage(deps, item.itemId, state.base, state.snap, state.pos, count);
  const added: StoredTransaction[] = [];
  const modified: StoredTransaction[] = [];
  const removed: Array<{ transaction_id: string }> = [];
  for (const d of page.deliveries) {
    // Changes of accounts the item's consent does not share are skipped (a removal recorded before
    // removals named their account cannot be told apart, so it is skipped too when the item shares
    // only some accounts).
    if (d.kind === 'removed') {
      if (item.sharedAccountIds === null || (d.accountId !== undefined && sharesAccount(item, d.accountId))) removed.push({ transaction_id: d.txnId });
    } else if (sharesAccount(item, d.txn.account_id)) (d.kind === 'added' ? added : modified).push(d.txn);
  }
  const next: CursorState = page.hasMore
    ? { ...state, pos: page.lastSk ?? state.pos }
    : { itemId: item.itemId, base: state.snap, snap: state.snap, pos: '', at: now };
  // The status was read with the item, like committed_seq, and the two move in one write: a page
  // never claims more of the history than it could have served.
  return {
    added,
    modified,
    removed,
    next_cursor: encodeCursor(next, item.cursorSecret),
    has_more: page.hasMore,
    transactions_update_status: item.transactionsUpdateStatus,
  };
}

