// The data products beyond accounts and transactions: identity, income, liabilities, recurring,
// assets and investments. Detection (recurring, income, assets) runs over the item's stored data;
// the institution-reported products (identity, liabilities, holdings) come from the item's
// connector (the sandbox simulator: deterministic per login and consistent with its transactions).
import { ApiError, fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import { computeAssets } from '../core/assets';
import { detectIncome } from '../core/income';
import { detectRecurring } from '../core/recurring';
import { sandboxIdentity, sandboxInvestments, sandboxLiabilities } from '../core/sandbox/products';
import { generateSandboxItem, type SandboxItemData, type SandboxLogin } from '../core/sandbox/generator';
import { currentTransactions } from '../data/feed-repo';
import type { ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { SANDBOX_CONNECTOR, todayOf } from './item-source';
import { cachedAccounts, selectAccounts } from './reads';

function sandboxLogin(item: ItemRecord): SandboxLogin {
  if (item.connector !== SANDBOX_CONNECTOR || item.sandboxUsername === null) throw new ApiError('provider_error');
  return { institutionId: item.institutionId, username: item.sandboxUsername };
}

/**
 * The connector's view of the item, with the balances the API serves (the cached ones) in place of
 * freshly generated ones, so holdings and liabilities reconcile with what accounts/get shows.
 */
async function sourceData(deps: Deps, item: ItemRecord): Promise<{ login: SandboxLogin; data: SandboxItemData; today: string }> {
  const login = sandboxLogin(item);
  const today = todayOf(deps);
  const generated = generateSandboxItem(login, today);
  const cached = new Map((await cachedAccounts(deps, item)).map((a) => [a.account_id, a]));
  const accounts = generated.accounts.map((a) => (cached.has(a.account_id) ? { ...a, balances: cached.get(a.account_id)!.balances } : a));
  return { login, data: { ...generated, accounts }, today };
}

/** Identity; a degraded item answers the empty shape, not an error. */
export async function identityOf(deps: Deps, item: ItemRecord) {
  const accounts = await cachedAccounts(deps, item);
  if (item.status !== 'healthy') return { accounts, identity: { owners: [] } };
  const { login, data } = await sourceData(deps, item);
  return { accounts, identity: sandboxIdentity(login, data) };
}

export async function liabilitiesOf(deps: Deps, item: ItemRecord) {
  const accounts = (await cachedAccounts(deps, item)).filter((a) => a.type === 'credit' || a.type === 'loan');
  const { login, data, today } = await sourceData(deps, item);
  return { accounts, liabilities: sandboxLiabilities(login, data, today) };
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
  const { login, data, today } = await sourceData(deps, item);
  const ids = new Set(accounts.map((a) => a.account_id));
  return { accounts, holdings: sandboxInvestments(login, data, today).holdings.filter((h) => ids.has(h.account_id)) };
}

export interface InvestmentTransactionsRequest {
  start_date?: string;
  end_date?: string;
  options?: { count?: number; offset?: number; account_ids?: string[] };
}

/** Omitted bounds mean the full history (ARCHITECTURE.md); newest first, then by id. */
export async function investmentTransactionsOf(deps: Deps, item: ItemRecord, body: InvestmentTransactionsRequest) {
  if (body.start_date && body.end_date && body.start_date > body.end_date) fail('invalid_date_range');
  const all = (await cachedAccounts(deps, item)).filter((a) => isInvestmentAccount(a.type));
  const requested = body.options?.account_ids;
  const accounts = requested ? selectAccounts(await cachedAccounts(deps, item), requested).filter((a) => isInvestmentAccount(a.type)) : all;
  const ids = new Set(accounts.map((a) => a.account_id));
  const { login, data, today } = await sourceData(deps, item);
  const rows = sandboxInvestments(login, data, today)
    .investment_transactions.filter(
      (t) => ids.has(t.account_id) && (!body.start_date || t.date >= body.start_date) && (!body.end_date || t.date <= body.end_date),
    )
    .sort((a, b) => (a.date === b.date ? a.investment_transaction_id.localeCompare(b.investment_transaction_id) : a.date < b.date ? 1 : -1));
  const offset = body.options?.offset ?? 0;
  const count = body.options?.count ?? LIMITS.pageDefault;
  return { accounts, investment_transactions: rows.slice(offset, offset + count), total_investment_transactions: rows.length };
}

export async function assetsOf(deps: Deps, item: ItemRecord) {
  const accounts = await cachedAccounts(deps, item);
  const { login, data, today } = await sourceData(deps, item);
  const holdingsValue: Record<string, number> = {};
  for (const h of sandboxInvestments(login, data, today).holdings) holdingsValue[h.account_id] = (holdingsValue[h.account_id] ?? 0) + h.value;
  return computeAssets(accounts, holdingsValue, null, new Date(deps.clock.now()).toISOString());
}
