// The institution-reported data products: identity, liabilities, holdings and investment
// transactions, and assets (balances plus holdings), which come from the item's connector through
// the connector port (an import item's holdings from what its statements reported). They read through
// the adapters' reads (functions/connectors/readers), never pulling nor ingesting, so these routes
// bundle no refresh simulator, statement parser or enrichment. Recurring and income, derived from the
// stored transactions, live in ./derived-products (re-exported here), so their routes do not bundle
// the connectors.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { computeAssets } from '../core/assets';
import { READER_ADAPTERS } from '../connectors/readers';
import type { ConnectorReads } from '../connectors/registry';
import type { Connection, Investments, ProductContext } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { readImportedInvestments } from '../data/imports-repo';
import type { ItemRecord, StoredAccount } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { withConnectorIn } from './item-connector';
import { todayOf } from './today';
export { DERIVATION_RULES_VERSION, incomeOf, recurringOf } from './derived-products';
import { cachedAccounts, requireHistory, selectAccounts, sharedEntries, sharedOwners } from './reads';

/**
 * Asks the item's connector for an institution-reported product, computed against today and the
 * accounts with the balances the API serves (the cached ones, read once by the caller), so holdings
 * and liabilities reconcile with what accounts/get shows. A connector failure is recorded on the
 * item and answered as its API error (withConnectorIn).
 */
function fromInstitution<T>(deps: Deps, item: ItemRecord, accounts: StoredAccount[], ask: (connector: ConnectorReads, connection: Connection, context: ProductContext) => Promise<T>): Promise<T> {
  const context: ProductContext = { today: todayOf(deps), accounts };
  return withConnectorIn(READER_ADAPTERS, deps, item, ({ connector, connection }) => ask(connector, connection, context), { recordsHealth: false });
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
  const identity = await fromInstitution(deps, item, accounts, (connector, connection, context) => connector.identity(connection, context));
  // The connector reports the login's owners: account ids the consent does not share are dropped,
  // and so is an owner left with none (REST and GraphQL both read identity here).
  return { accounts, identity: { ...identity, owners: sharedOwners(item, identity.owners) } };
}

export async function liabilitiesOf(deps: Deps, item: ItemRecord) {
  const all = await cachedAccounts(deps, item);
  const accounts = all.filter((a) => a.type === 'credit' || a.type === 'loan');
  // The connector reports the login's liabilities: those of accounts the consent does not share are dropped.
  return { accounts, liabilities: sharedEntries(item, await fromInstitution(deps, item, all, (connector, connection, context) => connector.liabilities(connection, context))) };
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
