// The data products beyond accounts and transactions: identity, income, liabilities, recurring,
// assets and investments. Detection (recurring, income, assets) runs over the item's stored data;
// the institution-reported products (identity, liabilities, holdings) come from the item's
// connector, through the connector port.
import { connectorOfItem } from '../connectors';
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { computeAssets } from '../core/assets';
import { detectIncome } from '../core/income';
import { detectRecurring } from '../core/recurring';
import type { ProductContext } from '../core/connector-port';
import { currentTransactions } from '../data/feed-repo';
import type { ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { todayOf } from './item-source';
import { cachedAccounts, selectAccounts } from './reads';

/**
 * The item's connector, and what its products are computed against: today and the accounts with
 * the balances the API serves (the cached ones), so holdings and liabilities reconcile with what
 * accounts/get shows.
 */
async function institutionView(deps: Deps, item: ItemRecord) {
  const { connector, connection } = connectorOfItem(item);
  const context: ProductContext = { today: todayOf(deps), accounts: await cachedAccounts(deps, item) };
  return { connector, connection, context };
}

/** Identity; a degraded item answers the empty shape, not an error. */
export async function identityOf(deps: Deps, item: ItemRecord) {
  const accounts = await cachedAccounts(deps, item);
  if (item.status !== 'healthy') return { accounts, identity: { owners: [] } };
  const { connector, connection, context } = await institutionView(deps, item);
  return { accounts, identity: await connector.identity(connection, context) };
}

export async function liabilitiesOf(deps: Deps, item: ItemRecord) {
  const accounts = (await cachedAccounts(deps, item)).filter((a) => a.type === 'credit' || a.type === 'loan');
  const { connector, connection, context } = await institutionView(deps, item);
  return { accounts, liabilities: await connector.liabilities(connection, context) };
}

export async function recurringOf(deps: Deps, item: ItemRecord) {
  const txns = await currentTransactions(deps, item.itemId, item.committedSeq);
  return { recurring_streams: detectRecurring(txns, todayOf(deps)) };
}

export async function incomeOf(deps: Deps, item: ItemRecord) {
  const txns = await currentTransactions(deps, item.itemId, item.committedSeq);
  return { income_streams: detectIncome(txns, todayOf(deps)) };
}

const isInvestmentAccount = (type: string) => type === 'investment' || type === 'crypto';

export async function holdingsOf(deps: Deps, item: ItemRecord) {
  const accounts = (await cachedAccounts(deps, item)).filter((a) => isInvestmentAccount(a.type));
  const { connector, connection, context } = await institutionView(deps, item);
  const ids = new Set(accounts.map((a) => a.account_id));
  return { accounts, holdings: (await connector.investments(connection, context)).holdings.filter((h) => ids.has(h.account_id)) };
}

/** Omitted bounds mean the full history (ARCHITECTURE.md); newest first, then by id. */
export async function investmentTransactionsOf(deps: Deps, item: ItemRecord, body: RequestOf<'investments.transactions.get'>) {
  if (body.start_date && body.end_date && body.start_date > body.end_date) fail('invalid_date_range');
  const all = (await cachedAccounts(deps, item)).filter((a) => isInvestmentAccount(a.type));
  const requested = body.options?.account_ids;
  const accounts = requested ? selectAccounts(await cachedAccounts(deps, item), requested).filter((a) => isInvestmentAccount(a.type)) : all;
  const ids = new Set(accounts.map((a) => a.account_id));
  const { connector, connection, context } = await institutionView(deps, item);
  const { investment_transactions } = await connector.investments(connection, context);
  const rows = investment_transactions
    .filter((t) => ids.has(t.account_id) && (!body.start_date || t.date >= body.start_date) && (!body.end_date || t.date <= body.end_date))
    .sort((a, b) => (a.date === b.date ? a.investment_transaction_id.localeCompare(b.investment_transaction_id) : a.date < b.date ? 1 : -1));
  const offset = body.options?.offset ?? 0;
  const count = body.options?.count ?? LIMITS.pageDefault;
  return { accounts, investment_transactions: rows.slice(offset, offset + count), total_investment_transactions: rows.length };
}

export async function assetsOf(deps: Deps, item: ItemRecord) {
  const accounts = await cachedAccounts(deps, item);
  const { connector, connection, context } = await institutionView(deps, item);
  const holdingsValue: Record<string, number> = {};
  for (const h of (await connector.investments(connection, context)).holdings) holdingsValue[h.account_id] = (holdingsValue[h.account_id] ?? 0) + h.value;
  return computeAssets(accounts, holdingsValue, null, new Date(deps.clock.now()).toISOString());
}
