// Reading an item's accounts and transactions as stored. Nothing here reaches the item's connector
// (balances refreshed from the source are in ./balances), so the routes that only read stored data
// do not bundle the connectors.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { TRANSACTIONS_UPDATE_STATUSES, type TransactionsUpdateStatus } from '../contracts/schemas';
import { readTransactionsPage } from '../data/feed-repo';
import { listAccounts, type ItemRecord, type StoredAccount } from '../data/items-repo';
import type { Deps } from '../platform/runtime';

/** Keeps only the requested accounts; an id that is not the item's is an error, not a silent drop. */
export function selectAccounts(unordered: StoredAccount[], accountIds: string[] | undefined): StoredAccount[] {
  // One order whatever the path (cache or source): by account_id.
  const accounts = [...unordered].sort((a, b) => a.account_id.localeCompare(b.account_id));
  if (!accountIds) return accounts;
  const known = new Set(accounts.map((a) => a.account_id));
  const foreign = accountIds.filter((id) => !known.has(id));
  if (foreign.length) fail('invalid_account_id', `Not accounts of this item: ${foreign.slice(0, 5).join(', ')}.`);
  const wanted = new Set(accountIds);
  return accounts.filter((a) => wanted.has(a.account_id));
}

export async function cachedAccounts(deps: Deps, item: ItemRecord, accountIds?: string[]): Promise<StoredAccount[]> {
  return selectAccounts((await listAccounts(deps, item.itemId)).accounts, accountIds);
}

// ---------- history readiness ----------

/**
 * Answers 400 `product_not_ready` while the item's history has not reached `stage`: a read that
 * needs the recent days (transactions/get) waits for the initial update, one derived from the whole
 * history (recurring, income, assets) for the historical update. An empty answer instead would look
 * like an account without transactions, and a product computed from a partial history would be wrong.
 */
export function requireHistory(item: ItemRecord, stage: Exclude<TransactionsUpdateStatus, 'not_ready'>): void {
  // The statuses are declared in the order an item goes through them.
  if (TRANSACTIONS_UPDATE_STATUSES.indexOf(item.transactionsUpdateStatus) < TRANSACTIONS_UPDATE_STATUSES.indexOf(stage)) fail('product_not_ready');
}

// ---------- /v1/transactions/get ----------

/**
 * Posted and pending transactions dated in [start_date, end_date], newest first (date descending,
 * then transaction_id ascending for a stable order across pages); removed rows never appear. A page
 * reads the item's counts and the page's own rows from the feed's date-ordered view, whatever the
 * length of the history (functions/data/feed-repo.ts).
 */
export async function getTransactions(deps: Deps, item: ItemRecord, body: RequestOf<'transactions.get'>) {
  if (body.start_date > body.end_date) fail('invalid_date_range');
  requireHistory(item, 'initial_update_complete');
  const accounts = await cachedAccounts(deps, item, body.options?.account_ids);
  const page = await readTransactionsPage(deps, item.itemId, item.committedSeq, {
    from: body.start_date,
    to: body.end_date,
    accountIds: accounts.map((a) => a.account_id),
    offset: body.options?.offset ?? 0,
    count: body.options?.count ?? LIMITS.pageDefault,
  });
  return { accounts, transactions: page.transactions, total_transactions: page.total };
}
