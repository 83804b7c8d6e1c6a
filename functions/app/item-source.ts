// Where an item's data comes from: the connector that serves it, reached through the connector
// port (core/connector-port.ts; connectorOfItem decides which adapter). Every connector's
// transactions are enriched here, at ingestion, by the descriptor rules engine.
import { connectorOfItem } from '../connectors';
import { windowChanges, type TxnChange } from '../core/change-feed';
import type { SourceBatch, SourceTransaction } from '../core/connector-port';
import { enrichTransaction } from '../core/enrichment/enrich';
import { newEvent, publishEvent } from '../data/events';
import { commitTransactions, type ChangeSource, type CommitResult, type StoredTransaction } from '../data/feed-repo';
import { putAccounts, type ItemRecord, type StoredAccount } from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import type { Deps } from '../platform/runtime';

export function todayOf(deps: Deps): string {
  return new Date(deps.clock.now()).toISOString().slice(0, 10);
}

export function enrich(raw: SourceTransaction): StoredTransaction {
  // the connector's MCC and counterparty name help where the descriptor rules abstain; they are not stored
  const e = enrichTransaction(raw.name, raw.amount, { mcc: raw.mcc, counterparty: raw.counterparty });
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

/** A connector's batch with its transactions enriched: what ingestion commits. */
export interface SourceData {
  accounts: StoredAccount[];
  transactions: { kind: 'window'; transactions: StoredTransaction[] } | { kind: 'changes'; upserted: StoredTransaction[]; removed: string[] };
}

type SourceRef = Pick<ItemRecord, 'connector' | 'institutionId' | 'connectionLogin'>;

/** A connector's batch, ready to ingest: its transactions enriched. */
export function ingestable(batch: SourceBatch): SourceData {
  const t = batch.transactions;
  return {
    accounts: batch.accounts,
    transactions:
      t.kind === 'window'
        ? { kind: 'window', transactions: t.transactions.map(enrich) }
        : { kind: 'changes', upserted: t.upserted.map(enrich), removed: t.removed },
  };
}

/** The item's whole history as its connector reports it today. */
export async function fetchFromSource(deps: Deps, item: SourceRef): Promise<SourceData> {
  const { connector, connection } = connectorOfItem(item);
  return ingestable(await connector.initialHistory(connection, todayOf(deps)));
}

/** The item's accounts and current balances, from its connector. */
export async function sourceAccounts(deps: Deps, item: SourceRef): Promise<StoredAccount[]> {
  const { connector, connection } = connectorOfItem(item);
  return connector.accounts(connection, todayOf(deps));
}

/**
 * Brings the item's change feed in line with the source: new and changed transactions are upserted;
 * a transaction the source no longer reports inside the source's own window (a pending that never
 * posted) is removed. Rows older than the window are history and stay.
 */
export function diffAgainstSource(source: readonly StoredTransaction[]) {
  return (latest: ReadonlyMap<string, { removed: boolean; txn?: StoredTransaction }>): TxnChange<StoredTransaction>[] => windowChanges(source, latest);
}

/**
 * The feed changes a batch means. A window batch is diffed against the feed (the rule above, applied
 * by the feed to the days the batch changes); a change batch is taken as it is, except that removing
 * a transaction the feed never had (or already removed) is dropped, so a source repeating itself
 * never writes a tombstone for nothing.
 */
export function changesFrom(batch: SourceData['transactions']): ChangeSource {
  return batch;
}

/**
 * Pulls accounts and transactions from the item's connector and commits what changed. A commit
 * that changed something carries its `transactions.sync_updates_available` event in the same
 * DynamoDB transaction (the outbox), and the event is then published.
 */
export async function syncFromSource(deps: Deps, item: ItemRecord, fetched?: SourceData): Promise<CommitResult | null> {
  const data = fetched ?? (await fetchFromSource(deps, item));
  await putAccounts(deps, item.itemId, data.accounts, deps.clock.now());
  if (!item.consentedProducts.includes('transactions')) return null;
  const event = newEvent(deps, item, 'transactions.sync_updates_available', {
    item_id: item.itemId,
    initial_update_complete: true,
    historical_update_complete: true,
  });
  const result = await commitTransactions(deps, item.itemId, changesFrom(data.transactions), { announce: () => eventPut(deps, event) });
  if (result.committedSeq !== null) await publishEvent(deps, event.eventId);
  return result;
}
