// The data products beyond accounts and transactions: identity, income, liabilities, recurring,
// assets and investments. Detection (recurring, income, assets) runs over the item's stored data;
// the institution-reported products (identity, liabilities, holdings) come from the item's
// connector, through the connector port.
//
// Recurring and income are derived from the item's whole transaction history. They are stored per
// item under the version of their inputs (the feed's committed_seq, today, the rules version) and
// recomputed lazily: the first read after a change (a committed ingestion, a new day, new rules)
// reads the feed once and stores the result; every other read is one Query of the stored rows.
// Nothing is computed at ingestion, so a refresh never pays for products nobody reads.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { computeAssets } from '../core/assets';
import { detectIncome } from '../core/income';
import { detectRecurring } from '../core/recurring';
import type { ConnectorPort, Connection, Investments, ProductContext } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { readImportedInvestments } from '../data/imports-repo';
import { currentTransactions, type StoredTransaction } from '../data/feed-repo';
import type { ItemRecord, StoredAccount } from '../data/items-repo';
import { productVersion, readStoredProduct, storeProduct, type StoredProductName } from '../data/products-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { todayOf, withConnector } from './item-source';
import { cachedAccounts, requireHistory, selectAccounts } from './reads';

/**
 * Asks the item's connector for an institution-reported product, computed against today and the
 * accounts with the balances the API serves (the cached ones, read once by the caller), so holdings
 * and liabilities reconcile with what accounts/get shows. A connector failure is recorded on the
 * item and answered as its API error (withConnector).
 */
function fromInstitution<T>(deps: Deps, item: ItemRecord, accounts: StoredAccount[], ask: (connector: ConnectorPort, connection: Connection, context: ProductContext) => Promise<T>): Promise<T> {
  const context: ProductContext = { today: todayOf(deps), accounts };
  return withConnector(deps, item, ({ connector, connection }) => ask(connector, connection, context), { recordsHealth: false });
}

/** Holdings and investment transactions: what the statements reported for an import item, else the connector's. */
function investmentsOf(deps: Deps, item: ItemRecord, accounts: StoredAccount[]): Promise<Investments> {
  if (item.connector === FILE_IMPORT_CONNECTOR_ID) return readImportedInvestments(deps, item.itemId);
  return fromInstitution(deps, item, accounts, (connector, connection, context) => connector.investments(connection, context));
}

/** Identity; a degraded item answers the empty shape, not an error. */
export async function identityOf(deps: Deps, item: ItemRecord) {
  const accounts = await cachedAccounts(deps, item);
  if (item.status !== 'healthy') return { accounts, identity: { owners: [] } };
  return { accounts, identity: await fromInstitution(deps, item, accounts, (connector, connection, context) => connector.identity(connection, context)) };
}

export async function liabilitiesOf(deps: Deps, item: ItemRecord) {
  const all = await cachedAccounts(deps, item);
  const accounts = all.filter((a) => a.type === 'credit' || a.type === 'loan');
  return { accounts, liabilities: await fromInstitution(deps, item, all, (connector, connection, context) => connector.liabilities(connection, context)) };
}

/**
 * Version of the recurring and income detection rules (functions/core/recurring.ts, income.ts):
 * part of a stored product's version, so rows computed by other rules are never served. Bump it
 * whenever the rules' output changes; test/unit/products-version.test.ts fails until it is.
 */
export const DERIVATION_RULES_VERSION = 1;

/**
 * A product derived from the item's transactions as of its committed_seq: the stored computation
 * when its version matches, else computed from the feed at exactly that seq and stored. The store
 * is best effort: a failed write still answers the computed product.
 */
async function feedDerived<T>(deps: Deps, item: ItemRecord, product: StoredProductName, derive: (txns: StoredTransaction[], today: string) => T): Promise<T> {
  const today = todayOf(deps);
  const version = productVersion({ committedSeq: item.committedSeq, today, rules: DERIVATION_RULES_VERSION });
  const stored = await readStoredProduct<T>(deps, item.itemId, product, version);
  if (stored !== undefined) return stored;
  const value = derive(await currentTransactions(deps, item.itemId, item.committedSeq), today);
  try {
    const outcome = await storeProduct(deps, item.itemId, product, version, value);
    if (outcome === 'too_large') logger.warn('derived product too large to store; computed on every read', { item_id: item.itemId, product });
  } catch (err) {
    logger.warn('could not store a derived product', { item_id: item.itemId, product, error: (err as Error).message });
  }
  return value;
}

export async function recurringOf(deps: Deps, item: ItemRecord) {
  requireHistory(item, 'historical_update_complete');
  return { recurring_streams: await feedDerived(deps, item, 'recurring', detectRecurring) };
}

export async function incomeOf(deps: Deps, item: ItemRecord) {
  requireHistory(item, 'historical_update_complete');
  return { income_streams: await feedDerived(deps, item, 'income', detectIncome) };
}

const isInvestmentAccount = (type: string) => type === 'investment' || type === 'crypto';

export async function holdingsOf(deps: Deps, item: ItemRecord) {
  const all = await cachedAccounts(deps, item);
  const accounts = all.filter((a) => isInvestmentAccount(a.type));
  const ids = new Set(accounts.map((a) => a.account_id));
  return { accounts, holdings: (await investmentsOf(deps, item, all)).holdings.filter((h) => ids.has(h.account_id)) };
}

/** Omitted bounds mean the full history (ARCHITECTURE.md); newest first, then by id. */
export async function investmentTransactionsOf(deps: Deps, item: ItemRecord, body: RequestOf<'investments.transactions.get'>) {
  if (body.start_date && body.end_date && body.start_date > body.end_date) fail('invalid_date_range');
  const cached = await cachedAccounts(deps, item);
  const requested = body.options?.account_ids;
  const accounts = (requested ? selectAccounts(cached, requested) : cached).filter((a) => isInvestmentAccount(a.type));
  const ids = new Set(accounts.map((a) => a.account_id));
  const { investment_transactions } = await investmentsOf(deps, item, cached);
  const rows = investment_transactions
    .filter((t) => ids.has(t.account_id) && (!body.start_date || t.date >= body.start_date) && (!body.end_date || t.date <= body.end_date))
    .sort((a, b) => (a.date === b.date ? a.investment_transaction_id.localeCompare(b.investment_transaction_id) : a.date < b.date ? 1 : -1));
  const offset = body.options?.offset ?? 0;
  const count = body.options?.count ?? LIMITS.pageDefault;
  return { accounts, investment_transactions: rows.slice(offset, offset + count), total_investment_transactions: rows.length };
}

export async function assetsOf(deps: Deps, item: ItemRecord) {
  requireHistory(item, 'historical_update_complete');
  const accounts = await cachedAccounts(deps, item);
  const holdingsValue: Record<string, number> = {};
  for (const h of (await investmentsOf(deps, item, accounts)).holdings) holdingsValue[h.account_id] = (holdingsValue[h.account_id] ?? 0) + h.value;
  return computeAssets(accounts, holdingsValue, null, new Date(deps.clock.now()).toISOString());
}
