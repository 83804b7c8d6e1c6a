// Statement import: an item whose data arrives with statement files rather than from a pull. Link
// creates the item from the first file (ingestStatementBatch, before its connection commits); the
// API adds more files to it (uploadStatement). Each file's transactions are a change batch with
// stable ids (FITID or the parser's content hash), so a re-imported or overlapping file adds nothing
// twice, and OFX corrections arrive as `modified`/`removed` through the same change feed as every
// connector's.
import { randomUUID } from 'node:crypto';
import { FILE_ADAPTERS } from '../connectors/by-method/file';
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Investments, SourceBatch, SourceTransaction } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { newEvent, publishEvent } from '../data/events';
import { commitTransactions, IngestionBusyError, type CommitResult } from '../data/feed-repo';
import {
  IMPORT_LOCK_MS,
  ImportTooLargeError,
  packed,
  readImportedInvestments,
  readImportState,
  releaseImportLock,
  takeImportLock,
  writeImportedInvestments,
  writeImportState,
  type ImportState,
} from '../data/imports-repo';
import { listAccounts, putAccounts, transactionsUpdateFields, type ItemRecord, type StoredAccount } from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import type { Deps } from '../platform/runtime';
import { ingestable } from './enriched-batch';
import { withConnectorIn } from './item-connector';

/** Newer wins by id; the order is newest first (then by id), as the API serves them. */
function mergeInvestments(held: Investments, incoming: Investments): Investments {
  const byId = <T>(rows: T[], id: (row: T) => string) => new Map(rows.map((r) => [id(r), r]));
  // A holding list is a snapshot per account: a file that reports an account's positions replaces them.
  const reported = new Set(incoming.holdings.map((h) => h.account_id));
  const holdings = [...held.holdings.filter((h) => !reported.has(h.account_id)), ...incoming.holdings];
  const transactions = [...byId([...held.investment_transactions, ...incoming.investment_transactions], (t) => t.investment_transaction_id).values()];
  transactions.sort((a, b) => (a.date === b.date ? a.investment_transaction_id.localeCompare(b.investment_transaction_id) : a.date < b.date ? 1 : -1));
  const securities = [...byId(holdings.map((h) => h.security), (s) => s.security_id).values()];
  return { holdings, securities, investment_transactions: transactions };
}

/** A row's worth of data, or the import refused before anything is written. */
function packedOrRefused(value: unknown, what: string): Uint8Array {
  try {
    return packed(value);
  } catch (err) {
    if (err instanceof ImportTooLargeError) fail('statement_too_large', `The item holds more ${what} than an import item keeps; start a new item for this account.`);
    throw err;
  }
}

/**
 * Applies what the item's earlier files corrected to this file's batch, and records this file's own
 * corrections: a transaction a file deleted stays deleted and one it replaced keeps its correction,
 * however often an older file that still holds the original is imported again.
 */
function applyCorrections(state: ImportState, batch: SourceBatch): { upserted: SourceTransaction[]; removed: string[] } {
  const t = batch.transactions;
  if (t.kind !== 'changes') throw new Error('statement batches are change batches');
  const byId = new Map(t.upserted.map((txn) => [txn.transaction_id, txn]));
  const deleted = new Set(state.deleted);
  for (const id of batch.corrections?.deleted ?? []) {
    deleted.add(id);
    delete state.replaced[id];
  }
  for (const id of batch.corrections?.replaced ?? []) {
    const replacement = byId.get(id);
    if (!replacement) continue;
    deleted.delete(id);
    state.replaced[id] = replacement;
  }
  state.deleted = [...deleted];
  const upserted = t.upserted.filter((txn) => !deleted.has(txn.transaction_id)).map((txn) => state.replaced[txn.transaction_id] ?? txn);
  const removed = [...new Set([...t.removed, ...t.upserted.filter((txn) => deleted.has(txn.transaction_id)).map((txn) => txn.transaction_id)])];
  return { upserted, removed };
}

/**
 * The file's accounts as they are to be stored: a balance the file did not report, or one as of an
 * earlier date than the stored one, leaves the stored balances as they are.
 */
function accountsToStore(state: ImportState, batch: SourceBatch, held: ReadonlyMap<string, StoredAccount>): StoredAccount[] {
  return batch.accounts.map((account) => {
    const asOf = batch.balancesAsOf?.[account.account_id] ?? null;
    const stored = held.get(account.account_id);
    const storedAsOf = state.balancesAsOf[account.account_id];
    if (stored && (asOf === null || (storedAsOf !== undefined && asOf < storedAsOf))) return { ...account, balances: stored.balances };
    if (asOf !== null) state.balancesAsOf[account.account_id] = asOf;
    return account;
  });
}

/**
 * Writes one statement's data to the item. Everything is computed and size-checked first, so a file
 * the item cannot take is refused before anything is written. Then the transactions are committed
 * (one change batch), and the accounts (a file's accounts replace their earlier versions, other
 * accounts stay), the holdings and what the import remembers follow. A failure after the commit leaves
 * nothing a retry of the same file would not write again the same way. A committed item's commit is
 * announced by `transactions.sync_updates_available`; a connecting item's is announced by Link's
 * commit of the connection (so a connection that never commits announces nothing).
 */
async function ingest(deps: Deps, item: ItemRecord, batch: SourceBatch, announce: boolean, known?: ImportState) {
  const t = batch.transactions;
  const count = t.kind === 'changes' ? t.upserted.length + t.removed.length : t.transactions.length;
  if (count > LIMITS.statementUploadMaxTransactions) {
    fail('statement_too_large', `The file holds ${count} transactions; one upload takes at most ${LIMITS.statementUploadMaxTransactions}. Split the history into several files.`);
  }
  const state = known ?? (await readImportState(deps, item.itemId));
  // The first file that settles the day/month order sets it for the item's later files (a guess
  // settles it only until a file proves an order).
  if (batch.dateOrder && (batch.dateOrder.source === 'file' || state.dateOrder === undefined)) state.dateOrder = batch.dateOrder.order;
  const corrected = applyCorrections(state, batch);
  const data = ingestable({ ...batch, transactions: { kind: 'changes', ...corrected } });
  const held = new Map((await listAccounts(deps, item.itemId)).accounts.map((a) => [a.account_id, a]));
  const accounts = accountsToStore(state, batch, held);
  const investments = batch.investments ? packedOrRefused(mergeInvestments(await readImportedInvestments(deps, item.itemId), batch.investments), 'investment activity') : null;
  const packedState = packedOrRefused(state, 'corrections');

  let result: Pick<CommitResult, 'committedSeq' | 'added' | 'modified' | 'removed'> = { committedSeq: null, added: 0, modified: 0, removed: 0 };
  if (item.consentedProducts.includes('transactions')) {
    const event = announce ? newEvent(deps, item, 'transactions.sync_updates_available', { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }) : null;
    result = await commitTransactions(deps, item.itemId, data.transactions, {
      ...(event ? { announce: () => eventPut(deps, event) } : {}),
      itemFields: transactionsUpdateFields('historical_update_complete'),
    });
    if (event && result.committedSeq !== null) await publishEvent(deps, event.eventId);
  }
  await putAccounts(deps, item.itemId, accounts, deps.clock.now());
  if (investments) await writeImportedInvestments(deps, item.itemId, investments);
  await writeImportState(deps, item.itemId, packedState);
  return { ...result, accounts };
}

/**
 * Link's first file: the new item (still connecting, invisible) gets the file's accounts, holdings
 * and transactions before its connection commits. A failure leaves the connection uncommitted, and
 * what was written is discarded with it.
 */
export async function ingestStatementBatch(deps: Deps, item: ItemRecord, batch: SourceBatch): Promise<{ accounts: StoredAccount[] }> {
  const { accounts } = await ingest(deps, item, batch, false);
  return { accounts };
}

/** The skipped rows an upload answer lists (their count is always whole). */
const SKIPPED_ROWS_SHOWN = 100;

/** POST /v1/items/statements/upload: another statement for an import item. One file at a time per item. */
export async function uploadStatement(deps: Deps, item: ItemRecord, body: RequestOf<'items.statements.upload'>) {
  if (item.connector !== FILE_IMPORT_CONNECTOR_ID) fail('statement_import_not_supported', `This item is served by the ${item.connector} connector; statements can be uploaded only to items created from a statement file.`);
  const bytes = Buffer.from(body.file_base64, 'base64');
  const owner = randomUUID();
  if (!(await takeImportLock(deps, item.itemId, owner))) fail('statement_import_busy', undefined, { 'Retry-After': String(Math.ceil(IMPORT_LOCK_MS / 1000 / 4)) });
  try {
    // Read under the lock: the item's earlier files decide how this one's ambiguous dates are read.
    const state = await readImportState(deps, item.itemId);
    // Only the file importer takes statements (checked above): it is the one adapter this route reaches.
    const batch = await withConnectorIn(FILE_ADAPTERS, deps, item, async ({ connector, connection }) => {
      if (!connector.importStatement) fail('statement_import_not_supported');
      return connector.importStatement(connection, { bytes, fileName: body.file_name, ...(state.dateOrder ? { dateOrder: state.dateOrder } : {}) });
    });
    const result = await ingest(deps, item, batch, true, state);
    const reported = new Set(result.accounts.map((a) => a.account_id));
    const { accounts } = await listAccounts(deps, item.itemId);
    const notices = batch.notices ?? [];
    return {
      item_id: item.itemId,
      accounts: accounts.filter((a) => reported.has(a.account_id)).sort((a, b) => a.account_id.localeCompare(b.account_id)),
      transactions: { added: result.added, modified: result.modified, removed: result.removed },
      skipped_rows: { count: notices.length, rows: notices.slice(0, SKIPPED_ROWS_SHOWN).map((n) => ({ line: n.line, reason: n.reason })) },
      date_order: batch.dateOrder ? { order: batch.dateOrder.order, source: batch.dateOrder.source } : null,
    };
  } catch (err) {
    // A refresh or another writer holds the feed's lease: the same answer as a concurrent upload.
    if (err instanceof IngestionBusyError) fail('statement_import_busy', undefined, { 'Retry-After': '5' });
    throw err;
  } finally {
    await releaseImportLock(deps, item.itemId, owner);
  }
}
