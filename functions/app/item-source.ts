// Where an item's data comes from: the connector that serves it. Test keys always reach the
// simulated sandbox; other connectors are not wired yet, so live items answer provider_error.
// Every connector's transactions are enriched here, at ingestion, by the descriptor rules engine.
import { ApiError } from '../contracts/errors';
import type { TxnChange } from '../core/change-feed';
import { enrichDescriptor } from '../core/enrichment/rules';
import { generateSandboxItem, type RawTransaction } from '../core/sandbox/generator';
import { commitTransactions, type CommitResult, type StoredTransaction } from '../data/feed-repo';
import { putAccounts, type ItemRecord, type StoredAccount } from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import type { Deps } from '../platform/runtime';
import { newEvent, publishEvent } from './webhooks';

export const SANDBOX_CONNECTOR = 'sandbox';

export function todayOf(deps: Deps): string {
  return new Date(deps.clock.now()).toISOString().slice(0, 10);
}

export function enrich(raw: RawTransaction): StoredTransaction {
  const e = enrichDescriptor(raw.name, raw.amount);
  return {
    transaction_id: raw.transaction_id,
    account_id: raw.account_id,
    date: raw.date,
    authorized_datetime: raw.authorized_datetime,
    name: raw.name,
    merchant_name: e.merchant_name,
    amount: raw.amount,
    iso_currency_code: raw.iso_currency_code,
    pending: raw.pending,
    category: e.category,
    category_detailed: e.category_detailed,
    payment_channel: e.payment_channel,
  };
}

export interface SourceData {
  accounts: StoredAccount[];
  transactions: StoredTransaction[];
}

type SourceRef = Pick<ItemRecord, 'connector' | 'institutionId' | 'sandboxUsername'>;

export function fetchFromSource(deps: Deps, item: SourceRef): SourceData {
  if (item.connector !== SANDBOX_CONNECTOR || item.sandboxUsername === null) throw new ApiError('provider_error');
  const data = generateSandboxItem({ institutionId: item.institutionId, username: item.sandboxUsername }, todayOf(deps));
  return { accounts: data.accounts, transactions: data.transactions.map(enrich) };
}

/**
 * Brings the item's change feed in line with the source: new and changed transactions are upserted;
 * a transaction the source no longer reports inside the source's own window (a pending that never
 * posted) is removed. Rows older than the window are history and stay.
 */
export function diffAgainstSource(source: readonly StoredTransaction[]) {
  const windowStart = source.reduce((min, t) => (t.date < min ? t.date : min), '9999-12-31');
  return (latest: ReadonlyMap<string, { removed: boolean; txn?: StoredTransaction }>): TxnChange<StoredTransaction>[] => {
    const present = new Set(source.map((t) => t.transaction_id));
    const changes: TxnChange<StoredTransaction>[] = source.map((txn) => ({ txnId: txn.transaction_id, txn }));
    for (const [txnId, entry] of latest) {
      if (!entry.removed && !present.has(txnId) && entry.txn && entry.txn.date >= windowStart) changes.push({ txnId });
    }
    return changes;
  };
}

/**
 * Pulls accounts and transactions from the item's connector and commits what changed. A commit
 * that changed something carries its `transactions.sync_updates_available` event in the same
 * DynamoDB transaction (the outbox), and the event is then published.
 */
export async function syncFromSource(deps: Deps, item: ItemRecord, data: SourceData = fetchFromSource(deps, item)): Promise<CommitResult | null> {
  await putAccounts(deps, item.itemId, data.accounts, deps.clock.now());
  if (!item.consentedProducts.includes('transactions')) return null;
  const event = newEvent(deps, item, 'transactions.sync_updates_available', {
    item_id: item.itemId,
    initial_update_complete: true,
    historical_update_complete: true,
  });
  const result = await commitTransactions(deps, item.itemId, diffAgainstSource(data.transactions), { announce: () => eventPut(deps, event) });
  if (result.committedSeq !== null) await publishEvent(deps, event.eventId);
  return result;
}
