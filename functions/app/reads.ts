// Reading an item's accounts and transactions as stored. Nothing here reaches the item's connector
// (balances refreshed from the source are in ./balances), so the routes that only read stored data
// do not bundle the connectors.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { TRANSACTIONS_UPDATE_STATUSES, type TransactionsUpdateStatus } from '../contracts/schemas';
import { currentTransactionsBetween, readTransactionsPage, type StoredTransaction } from '../data/feed-repo';
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

// ---------- the accounts the item's consent shares ----------
//
// Link's account selection stores the accounts the user chose on the item (sharedAccountIds); every
// read of the item's data passes through the helpers below, so an account the user did not share
// (or one that appeared after the choice) is invisible: absent from every list and an unknown id to
// every account_ids filter. An item without a selection shares all its accounts.

/** Whether the item's consent covers `accountId`. */
export function sharesAccount(item: Pick<ItemRecord, 'sharedAccountIds'>, accountId: string): boolean {
  return item.sharedAccountIds === null || item.sharedAccountIds.includes(accountId);
}

/** The accounts of `accounts` the item's consent covers. */
export function sharedAccounts<T extends { account_id: string }>(item: Pick<ItemRecord, 'sharedAccountIds'>, accounts: readonly T[]): T[] {
  if (item.sharedAccountIds === null) return [...accounts];
  const shared = new Set(item.sharedAccountIds);
  return accounts.filter((a) => shared.has(a.account_id));
}

/** The item's current transactions of shared accounts (all of them when it shares every account). */
export async function sharedTransactionsBetween(deps: Deps, item: ItemRecord, from: string, to: string): Promise<StoredTransaction[]> {
  return sharedAccounts(item, await currentTransactionsBetween(deps, item.itemId, item.committedSeq, from, to));
}

export function sharedTransactions(deps: Deps, item: ItemRecord): Promise<StoredTransaction[]> {
  return sharedTransactionsBetween(deps, item, '0000-01-01', '9999-12-31');
}

/**
 * Keeps, in every array of a product object (liabilities' credit, mortgage, student), only the
 * entries of shared accounts.
 */
export function sharedEntries<T extends object>(item: Pick<ItemRecord, 'sharedAccountIds'>, product: T): T {
  if (item.sharedAccountIds === null) return product;
  const out: Record<string, unknown> = { ...(product as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (Array.isArray(value)) out[key] = value.filter((entry: unknown) => !isAccountEntry(entry) || sharesAccount(item, entry.account_id));
  }
  return out as T;
}

/**
 * Keeps, of an identity, only the shared accounts in each owner's `account_ids`, and only the owners
 * left with one: an owner who holds only accounts the user did not share (a joint holder of a
 * savings account left out) is personal data the consent does not cover.
 */
export function sharedOwners<T extends { account_ids: string[] }>(item: Pick<ItemRecord, 'sharedAccountIds'>, owners: readonly T[]): T[] {
  if (item.sharedAccountIds === null) return [...owners];
  return owners.flatMap((owner) => {
    const accountIds = owner.account_ids.filter((id) => sharesAccount(item, id));
    return accountIds.length > 0 ? [{ ...owner, account_ids: accountIds }] : [];
  });
}

const isAccountEntry = (entry: unknown): entry is { account_id: string } =>
  typeof entry === 'object' && entry !== null && typeof (entry as { account_id?: unknown }).account_id === 'string';

/** The item's stored accounts its consent shares, narrowed to `accountIds` (an unshared id is invalid_account_id). */
export async function cachedAccounts(deps: Deps, item: ItemRecord, accountIds?: string[]): Promise<StoredAccount[]> {
  return selectAccounts(sharedAccounts(item, (await listAccounts(deps, item.itemId)).accounts), accountIds);
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
