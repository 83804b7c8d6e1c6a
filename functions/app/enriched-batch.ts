// A connector's batch as ingestion commits it: every transaction enriched (merchant, category,
// payment channel) by the descriptor rules engine. Only the code that ingests imports this (with the
// enrichment engines' data, the largest part of a route bundle that carries them).
import type { SourceBatch, SourceTransaction } from '../core/connector-port';
import { enrichTransaction } from '../core/enrichment/enrich';
import type { StoredTransaction } from '../data/feed-repo';
import type { StoredAccount } from '../data/items-repo';

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
  /** The position the connector's next refresh resumes from, saved once the batch is committed. */
  cursor?: string;
}

/** A connector's batch, ready to ingest: its transactions enriched. */
export function ingestable(batch: SourceBatch): SourceData {
  const t = batch.transactions;
  return {
    accounts: batch.accounts,
    transactions:
      t.kind === 'window'
        ? { kind: 'window', transactions: t.transactions.map(enrich) }
        : { kind: 'changes', upserted: t.upserted.map(enrich), removed: t.removed },
    ...(batch.cursor !== undefined ? { cursor: batch.cursor } : {}),
  };
}
