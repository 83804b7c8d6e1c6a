// Identity, income, liabilities, recurring, assets and investments over HTTP, against openapi.json,
// on one sandbox login with every product consented; consent is checked per product.
import type { TransactionRecord } from '../../functions/contracts/schemas';
import { detectIncome } from '../../functions/core/income';
import { detectRecurring } from '../../functions/core/recurring';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const key = makeKey('test');
const ALL = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
let token: string;

async function post(path: string, body: unknown) {
  const res = await stack.call(path, { body, key });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

/** A connected sandbox item whose history the refresh worker has loaded. */
async function item(products: string[], username = 'user_good') {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products, username });
  const exchanged = (await post('/v1/link/token/exchange', { public_token: pt.json.public_token })).json as { access_token: string; item_id: string };
  await stack.historyLoaded(exchanged.item_id);
  return exchanged;
}

async function allTransactions(accessToken: string) {
  const res = await post('/v1/transactions/get', { access_token: accessToken, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 500 } });
  const rows = [...res.json.transactions];
  for (let offset = 500; offset < res.json.total_transactions; offset += 500) {
    rows.push(...(await post('/v1/transactions/get', { access_token: accessToken, start_date: '2000-01-01', end_date: '2100-01-01', options: { count: 500, offset } })).json.transactions);
  }
  return rows as Array<{ transaction_id: string; amount: number; category: string | null }>;
}

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Products', plan: 'enterprise', keys: [key] }]);
  token = (await item(ALL)).access_token;
});
afterAll(() => stack.stop());

describe('identity', () => {
  it('lists owners with names, emails, phones and addresses, and an empty shape for a degraded item', async () => {
    const res = await post('/v1/identity/get', { access_token: token });
    const [owner] = res.json.identity.owners;
    expect(owner.names.length).toBeGreaterThan(0);
    expect(owner.emails.length).toBeGreaterThan(0);
    expect(owner.phone_numbers.length).toBeGreaterThan(0);
    expect(owner.addresses.length).toBeGreaterThan(0);
    const degraded = await item(ALL, 'user_good_degraded');
    await post('/v1/sandbox/item/reset_login', { access_token: degraded.access_token });
    const empty = await post('/v1/identity/get', { access_token: degraded.access_token });
    expect(empty.status).toBe(200);
    expect(empty.json.identity).toEqual({ owners: [] });
  });
});

describe('recurring and income', () => {
  it('finds payroll and subscriptions whose transactions exist, and an income stream matching the payroll deposits', async () => {
    const txns = await allTransactions(token);
    const byId = new Map(txns.map((t) => [t.transaction_id, t]));
    const recurring = (await post('/v1/recurring/get', { access_token: token })).json.recurring_streams as Array<{ kind: string; transaction_ids: string[]; is_active: boolean }>;
    expect(recurring.some((s) => s.kind === 'payroll')).toBe(true);
    expect(recurring.filter((s) => s.kind === 'subscription').length).toBeGreaterThanOrEqual(2);
    for (const s of recurring) for (const id of s.transaction_ids) expect(byId.has(id)).toBe(true);
    const income = (await post('/v1/income/get', { access_token: token })).json.income_streams as Array<{ kind: string; employer: { name: string } | null; transaction_ids: string[]; average_gross: number; average_net: number }>;
    const payroll = income.find((s) => s.kind === 'payroll')!;
    expect(payroll.employer?.name.length).toBeGreaterThan(0);
    expect(payroll.average_gross).toBeGreaterThan(payroll.average_net);
    for (const id of payroll.transaction_ids) expect(byId.get(id)!.amount).toBeLessThan(0);
  });
});

describe('recurring and income, stored per item', () => {
  it('answer detection over the current transactions, on repeat reads and after a refresh changes them', async () => {
    const { access_token } = await item(ALL, 'user_good_stored');
    const asOf = () => new Date(stack.deps.clock.now()).toISOString().slice(0, 10);
    const readsMatchTheFeed = async () => {
      const txns = (await allTransactions(access_token)) as unknown as TransactionRecord[];
      const recurring = (await post('/v1/recurring/get', { access_token })).json.recurring_streams;
      const income = (await post('/v1/income/get', { access_token })).json.income_streams;
      expect(recurring).toEqual(detectRecurring(txns, asOf()));
      expect(income).toEqual(detectIncome(txns, asOf()));
      // The repeat reads come from the stored rows.
      expect((await post('/v1/recurring/get', { access_token })).json.recurring_streams).toEqual(recurring);
      expect((await post('/v1/income/get', { access_token })).json.income_streams).toEqual(income);
      return txns;
    };
    const before = await readsMatchTheFeed();
    expect((await post('/v1/items/refresh', { access_token })).json).toEqual({ refreshing: true });
    await stack.background.idle();
    const after = await readsMatchTheFeed();
    // The refresh committed a change (pendings posted, new purchases): a stored product of the
    // previous snapshot would no longer match detection over these.
    expect(after).not.toEqual(before);
  });
});

describe('liabilities', () => {
  it('match the credit and loan accounts', async () => {
    const res = await post('/v1/liabilities/get', { access_token: token });
    const credit = res.json.accounts.filter((a: { type: string }) => a.type === 'credit').map((a: { account_id: string }) => a.account_id).sort();
    expect(res.json.liabilities.credit.map((c: { account_id: string }) => c.account_id).sort()).toEqual(credit);
    const loans = res.json.accounts.filter((a: { type: string }) => a.type === 'loan').map((a: { account_id: string }) => a.account_id).sort();
    const loanEntries = [...res.json.liabilities.student, ...res.json.liabilities.auto, ...res.json.liabilities.mortgage].map((l: { account_id: string }) => l.account_id).sort();
    expect(loanEntries).toEqual(loans);
  });
});

describe('investments', () => {
  it('holdings reconcile with each investment and crypto account balance', async () => {
    const res = await post('/v1/investments/holdings/get', { access_token: token });
    expect(res.json.accounts.length).toBeGreaterThanOrEqual(2);
    for (const account of res.json.accounts) {
      const sum = res.json.holdings.filter((h: { account_id: string }) => h.account_id === account.account_id).reduce((s: number, h: { value: number }) => s + h.value, 0);
      expect(Math.round(sum * 100)).toBe(Math.round(account.balances.current * 100));
    }
  });

  it('transactions: omitted bounds give the full history; bounds, count, offset and accounts filter it', async () => {
    const all = await post('/v1/investments/transactions/get', { access_token: token, options: { count: 500 } });
    const total = all.json.total_investment_transactions;
    expect(total).toBeGreaterThan(10);
    const dates = all.json.investment_transactions.map((t: { date: string }) => t.date);
    const mid = dates[Math.floor(dates.length / 2)];
    const recent = await post('/v1/investments/transactions/get', { access_token: token, start_date: mid, options: { count: 500 } });
    expect(recent.json.investment_transactions.every((t: { date: string }) => t.date >= mid)).toBe(true);
    expect(recent.json.total_investment_transactions).toBeLessThan(total);
    const page = await post('/v1/investments/transactions/get', { access_token: token, options: { count: 3, offset: 2 } });
    expect(page.json.investment_transactions).toEqual(all.json.investment_transactions.slice(2, 5));
    const account = all.json.accounts[0].account_id;
    const one = await post('/v1/investments/transactions/get', { access_token: token, options: { account_ids: [account] } });
    expect(one.json.investment_transactions.every((t: { account_id: string }) => t.account_id === account)).toBe(true);
  });

  it('needs the investments consent', async () => {
    const narrow = await item(['transactions'], 'user_good_narrow');
    const res = await post('/v1/investments/holdings/get', { access_token: narrow.access_token });
    expect([res.status, res.json.error.code]).toEqual([403, 'investments_not_consented']);
  });
});

describe('assets', () => {
  it('totals follow the three rules and the summary mirrors them', async () => {
    const res = await post('/v1/assets/get', { access_token: token });
    const a = res.json;
    expect(a.summary).toEqual({ total_assets: a.total_assets, total_liabilities: a.total_liabilities, net_worth: a.net_worth, iso_currency_code: a.iso_currency_code });
    expect(Math.round((a.total_assets - a.total_liabilities) * 100)).toBe(Math.round(a.net_worth * 100));
    expect(a.excluded_accounts).toEqual([]);
    const holdings = await post('/v1/investments/holdings/get', { access_token: token });
    const held = holdings.json.holdings.reduce((s: number, h: { value: number }) => s + h.value, 0);
    expect(Math.round(a.breakdown.holdings * 100)).toBe(Math.round(held * 100));
    const parts = ['depository', 'investment', 'crypto'].reduce((s, k) => s + (a.breakdown[k] ?? 0), 0);
    expect(Math.round(parts * 100)).toBe(Math.round(a.total_assets * 100));
  });
});

describe('consent, per product', () => {
  it.each([
    ['/v1/identity/get', 'identity'],
    ['/v1/income/get', 'income'],
    ['/v1/liabilities/get', 'liabilities'],
    ['/v1/recurring/get', 'recurring'],
    ['/v1/assets/get', 'assets'],
    ['/v1/investments/holdings/get', 'investments'],
    ['/v1/investments/transactions/get', 'investments'],
  ])('%s answers 403 %s_not_consented for an item without that product', async (path, product) => {
    const others = ALL.filter((p) => p !== product);
    const narrow = await item(others, `user_good_no${product}`);
    const res = await post(path, { access_token: narrow.access_token });
    expect([res.status, res.json.error.type, res.json.error.code]).toEqual([403, 'permission_denied', `${product}_not_consented`]);
  });
});
