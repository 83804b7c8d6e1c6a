// Aggregator C against a loopback fake of its documented API (invented values, documented shapes).
import { aggregationStatusError, mapAccount, mapTransaction } from '../../../functions/connectors/aggregator_c/mapping';
import { stableId } from '../../../functions/connectors/ids';
import { ConnectorError } from '../../../functions/core/connector-port';
import { createAggregatorCConnector } from '../../../functions/connectors/aggregator_c';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { Account, Transaction } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import { at, C_APP_KEY, C_CUSTOMER_ID, C_PARTNER_ID, C_SECRET, C_TOKEN, card, checking, defaultState, startAggregatorCFake, txn } from '../../support/provider-fakes/aggregator_c';
import type { FakeServer } from '../../support/provider-fakes/fake-server';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const LOGIN = '1005061234';
const account = { id: '5011648377', number: '8000008888', accountNumberDisplay: '8888', name: 'Checking', balance: 501.24, type: 'checking', aggregationStatusCode: 0, status: 'active', currency: 'USD', detail: { availableBalanceAmount: 480.1 } };
const transaction = { id: 21284820852, amount: -25.5, accountId: 5011648377, customerId: 1005061234, status: 'active', description: 'POS PURCHASE HARDWARE 0331', memo: null, postedDate: 1782777600, transactionDate: 1782691200, categorization: { normalizedPayeeName: 'Hardware Store', category: 'Home Improvement' } };

describe('aggregator_c mapping', () => {
  it('maps an account and flips the sign of owed balances', () => {
    const mapped = Account.parse(mapAccount(account, 'accounts[0]', LOGIN));
    expect(mapped).toMatchObject({ account_id: stableId('acc', 'aggregator_c', LOGIN, '5011648377'), type: 'depository', mask: '8888', balances: { current: 501.24, available: 480.1, iso_currency_code: 'USD' } });
    expect(mapAccount({ ...account, type: 'creditCard', balance: -310.4, detail: { creditMaxAmount: 2000 } }, 'a', LOGIN)).toMatchObject({ type: 'credit', balances: { current: 310.4, limit: 2000 } });
  });

  it('maps a debit to a positive amount on its posted date, and a pending one on its transaction date', () => {
    const mapped = mapTransaction(transaction, 'transactions[0]', LOGIN, () => 'USD');
    expect(mapped).toEqual({
      transaction_id: stableId('txn', 'aggregator_c', LOGIN, '21284820852'),
      account_id: stableId('acc', 'aggregator_c', LOGIN, '5011648377'),
      date: '2026-06-30',
      authorized_datetime: '2026-06-29T00:00:00.000Z',
      name: 'POS PURCHASE HARDWARE 0331',
      amount: 25.5,
      iso_currency_code: 'USD',
      pending: false,
      counterparty: 'Hardware Store',
    });
    expect(mapTransaction({ ...transaction, amount: 1200, status: 'pending' }, 't', LOGIN, () => 'USD')).toMatchObject({ amount: -1200, pending: true, date: '2026-06-29' });
  });

  it('refuses hostile payloads with provider_error naming the field', () => {
    expect(() => mapTransaction({ ...transaction, amount: '-25.50' }, 'transactions[3]', LOGIN, () => 'USD')).toThrow(/transactions\[3\]\.amount/);
    expect(() => mapTransaction({ ...transaction, postedDate: 1e20 }, 't', LOGIN, () => 'USD')).toThrow(/t\.postedDate/);
    expect(() => mapAccount({ ...account, balance: null }, 'accounts[1]', LOGIN)).toThrow(ConnectorError);
  });

  it('maps aggregation status codes: user-fixable ones to login_required', () => {
    expect(aggregationStatusError(0)).toBeNull();
    expect(aggregationStatusError(185)?.kind).toBe('login_required');
    expect(aggregationStatusError(187)?.kind).toBe('login_required');
    expect(aggregationStatusError(103)?.kind).toBe('login_required');
    expect(aggregationStatusError(320)?.kind).toBe('provider_error');
  });

});

const TODAY = '2026-07-01';
type Fake = FakeServer & { state: ReturnType<typeof defaultState> };
let fake: Fake;
let sleeps: number[];
let connector: ConnectorPort;
const connection = (extra: Partial<Connection> = {}): Connection => ({ institutionId: 'ins_any', login: C_CUSTOMER_ID, ...extra });
const accId = (id: string) => stableId('acc', 'aggregator_c', C_CUSTOMER_ID, id);
const txnId = (id: number) => stableId('txn', 'aggregator_c', C_CUSTOMER_ID, String(id));
const build = (config: Record<string, string>) => createAggregatorCConnector({ config, http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }) });

const transactionPages = () => fake.requests.filter((r) => r.path.endsWith('/transactions'));

beforeEach(async () => {
  fake = await startAggregatorCFake(defaultState());
  sleeps = [];
  connector = build({ AGGREGATOR_C_PARTNER_ID: C_PARTNER_ID, AGGREGATOR_C_SECRET: C_SECRET, AGGREGATOR_C_APP_KEY: C_APP_KEY, AGGREGATOR_C_BASE_URL: fake.url });
});
afterEach(() => fake.close());

describe('aggregator_c link', () => {
  it('creates a customer and a Connect URL, then connects the customer the user added accounts to', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_any', state: 'st-1', redirectUri: 'https://app.example/oauth' });
    expect(start.authorizeUrl).toMatch(/^https:\/\/connect2\.example\//);
    expect(start.pending).toEqual({ customer_id: '1005069999' });
    const auth = fake.requests[0];
    expect(auth.path).toBe('/aggregation/v2/partners/authentication');
    expect(auth.parsed).toEqual({ partnerId: C_PARTNER_ID, partnerSecret: C_SECRET });
    const generate = fake.requests.find((r) => r.path === '/connect/v2/generate')!;
    expect(generate.headers['finicity-app-token']).toBe(C_TOKEN);
    expect(generate.parsed).toMatchObject({ partnerId: C_PARTNER_ID, customerId: '1005069999', redirectUri: 'https://app.example/oauth?state=st-1' });
    const username = (fake.requests.find((r) => r.path === '/aggregation/v2/customers/active')!.parsed as { username: string }).username;
    expect(username).not.toContain('st-1');

    // The new customer has no accounts yet: the user did not finish Connect.
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'done', redirectUri: 'r', pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    const result = await connector.connect!('ins_any', { method: 'oauth', code: 'done', redirectUri: 'r', pending: { customer_id: C_CUSTOMER_ID } });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_any', login: C_CUSTOMER_ID } });
  });

  it('refuses a missing session and the credentials method', async () => {
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'x', redirectUri: 'r', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login('ins_any', { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.verifyMfaCode(connection(), '123')).toBe(false);
  });

  it('answers provider_error naming no secret when the operator credentials are refused or missing', async () => {
    const wrong = build({ AGGREGATOR_C_PARTNER_ID: C_PARTNER_ID, AGGREGATOR_C_SECRET: 'not-the-secret', AGGREGATOR_C_APP_KEY: C_APP_KEY, AGGREGATOR_C_BASE_URL: fake.url });
    const err = await failure(wrong.accounts(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('not-the-secret');
    expect(err.message).not.toContain(C_APP_KEY);
    expect((await failure(build({ AGGREGATOR_C_BASE_URL: fake.url }).accounts(connection(), TODAY))).message).toContain('not configured');
  });

  it('deletes the customer at disconnect, and tolerates one already gone', async () => {
    await connector.disconnect!(connection());
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([`/aggregation/v1/customers/${C_CUSTOMER_ID}`]);
    await expect(connector.disconnect!(connection())).resolves.toBeUndefined();
  });
});

describe('aggregator_c accounts and transactions', () => {
  it('maps accounts and balances with stable ids', async () => {
    const accounts = await connector.accounts(connection(), TODAY);
    for (const a of accounts) Account.parse(a);
    expect(accounts).toEqual([
      expect.objectContaining({ account_id: accId(checking.id), type: 'depository', mask: '8888', balances: { current: 1250.1, available: 1203.42, limit: null, iso_currency_code: 'USD' } }),
      expect.objectContaining({ account_id: accId(String(card.id)), type: 'credit', balances: { current: 900.5, available: null, limit: 5000, iso_currency_code: 'USD' } }),
    ]);
    expect(accounts[0].account_id).not.toContain(checking.id);
  });

  it('reads 24 months as a changes batch: signs flipped, pending dated by its transaction date', async () => {
    const batch = await connector.initialHistory(connection(), TODAY);
    const page = transactionPages()[0];
    expect(Number(page.query.get('fromDate'))).toBe(Date.parse('2024-07-01T00:00:00Z') / 1000);
    expect(Number(page.query.get('toDate'))).toBe(Date.parse('2026-07-02T00:00:00Z') / 1000 - 1);
    expect(page.query.get('includePending')).toBe('true');
    expect(batch.transactions.kind).toBe('changes');
    if (batch.transactions.kind !== 'changes') return;
    const byId = new Map(batch.transactions.upserted.map((t) => [t.transaction_id, t]));
    expect(byId.get(txnId(9001))).toEqual({
      transaction_id: txnId(9001),
      account_id: accId(checking.id),
      date: '2026-06-28',
      authorized_datetime: '2026-06-27T12:00:00.000Z',
      name: 'CORNER COFFEE #221 SPRINGFIELD',
      amount: 12.5,
      iso_currency_code: 'USD',
      pending: false,
      counterparty: 'Corner Coffee',
    });
    expect(byId.get(txnId(9002))!.amount).toBe(-2500);
    expect(byId.get(txnId(9003))).toMatchObject({ pending: true, date: '2026-06-30', amount: 40.01 });
    expect(byId.get(txnId(9004))).toMatchObject({ account_id: accId(String(card.id)), amount: 310.4, date: '2025-01-10' });
    for (const t of byId.values()) Transaction.parse({ ...t, merchant_name: null, category: null, category_detailed: null, payment_channel: 'other' });
    expect(batch.transactions.removed).toEqual([]);
    expect(JSON.parse(batch.cursor!)).toEqual({ through: TODAY, pending: [['9003', '2026-06-30']] });
  });

  it('follows start/limit pages until moreAvailable is false', async () => {
    fake.state.transactions = Array.from({ length: 2_345 }, (_, i) => txn(20_000 + i, { postedDate: at('2026-03-01') + i * 60 }));
    const batch = await connector.initialHistory(connection(), TODAY);
    expect(transactionPages().map((r) => [r.query.get('start'), r.query.get('limit')])).toEqual([['1', '1000'], ['1001', '1000'], ['2001', '1000']]);
    expect(batch.transactions.kind === 'changes' && batch.transactions.upserted).toHaveLength(2_345);
  });

  it('refreshes from its cursor with an overlap, and removes a pending transaction the provider no longer lists', async () => {
    const first = await connector.initialHistory(connection(), TODAY);
    fake.state.transactions = fake.state.transactions.filter((t) => t.id !== 9003).concat(txn(9005, { amount: -40.01, postedDate: at('2026-07-02'), transactionDate: at('2026-06-30') }));
    const batch = await connector.refresh(connection({ cursor: first.cursor }), '2026-07-02', 1);
    expect(Number(transactionPages().at(-1)!.query.get('fromDate'))).toBe(Date.parse('2026-06-17T00:00:00Z') / 1000);
    expect(batch.transactions).toEqual({ kind: 'changes', upserted: expect.arrayContaining([expect.objectContaining({ transaction_id: txnId(9005), pending: false, amount: 40.01 })]), removed: [txnId(9003)] });
    expect(JSON.parse(batch.cursor!)).toEqual({ through: '2026-07-02', pending: [] });
  });

  it('reads back to the oldest pending transaction it reported, and rereads everything on an unreadable cursor', async () => {
    await connector.refresh(connection({ cursor: JSON.stringify({ through: '2026-06-30', pending: [['9003', '2026-05-01']] }) }), TODAY, 1);
    expect(Number(transactionPages().at(-1)!.query.get('fromDate'))).toBe(Date.parse('2026-05-01T00:00:00Z') / 1000);
    await connector.refresh(connection({ cursor: 'not json' }), TODAY, 1);
    expect(Number(transactionPages().at(-1)!.query.get('fromDate'))).toBe(Date.parse('2024-07-01T00:00:00Z') / 1000);
  });
});

describe('aggregator_c errors', () => {
  it('fails the whole pull when a later page fails after the retries: no partial batch', async () => {
    fake.state.transactions = Array.from({ length: 1_500 }, (_, i) => txn(30_000 + i));
    fake.state.failingStart = 1001;
    const err = await failure(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(transactionPages().map((r) => r.query.get('start'))).toEqual(['1', '1001', '1001', '1001']);
    expect(sleeps).toHaveLength(2);
  });

  it('maps a rate limit to rate_limited with the provider hint', async () => {
    fake.fail({ pathPrefix: '/aggregation/v1/customers', response: { status: 429, headers: { 'retry-after': '45' }, body: { code: 429, message: 'Too many requests' } } });
    const err = await failure(connector.accounts(connection(), TODAY));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBe(45);
  });

  it('asks for a new login on an aggregation status the user must fix, on a deleted customer, and on an MFA challenge', async () => {
    fake.state.accounts = [{ ...checking, aggregationStatusCode: 185 }, card];
    expect(await failure(connector.refresh(connection({ cursor: undefined }), TODAY, 1))).toMatchObject({ kind: 'login_required', details: { code: '185' } });
    fake.state.accounts = [{ ...checking, aggregationStatusCode: 320 }, card];
    expect(await connector.accounts(connection(), TODAY)).toHaveLength(2);

    expect((await failure(connector.accounts(connection({ login: '4040404' }), TODAY))).kind).toBe('login_required');

    fake.fail({ pathPrefix: `/aggregation/v3/customers/${C_CUSTOMER_ID}/accounts`, response: { status: 203, body: { questions: [{ text: 'Name of your first pet?' }] } } });
    expect((await failure(connector.identity(connection(), { today: TODAY, accounts: [] }))).kind).toBe('login_required');
  });

  it('turns hostile payloads into provider_error naming the field, never a crash', async () => {
    fake.state.accounts = [{ ...checking, balance: '1250.10' }];
    expect((await failure(connector.accounts(connection(), TODAY))).message).toContain('accounts[0].balance');

    fake.state.accounts = [checking];
    fake.state.pageOverride = { start: 1, body: { found: 1, moreAvailable: false, transactions: [txn(1, { amount: null })] } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('transactions[0].amount');

    fake.state.pageOverride = { start: 1, body: { found: 1, moreAvailable: 'no', transactions: [] } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('moreAvailable');

    fake.state.pageOverride = { start: 1, body: { moreAvailable: false, transactions: new Array(1_001).fill(txn(2)) } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('more than');

    fake.state.pageOverride = { start: 1, body: { moreAvailable: true, transactions: [] } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('empty page');

    fake.state.pageOverride = { start: 1, body: 'not json' };
    expect((await failure(connector.initialHistory(connection(), TODAY))).kind).toBe('provider_error');
  });
});

describe('aggregator_c products', () => {
  it('merges account owner details across accounts', async () => {
    const holder = {
      ownerName: 'Alex Example',
      firstName: 'Alex',
      lastName: 'Example',
      nameClassification: 'person',
      addresses: [{ ownerAddress: '1 Main St Springfield IL 62701', line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'USA' }],
      emails: [{ isPrimary: true, email: 'alex@example.com' }],
      phones: [{ type: 'CELL', country: '1', phone: '5555550100' }],
    };
    fake.state.holders = { [checking.id]: [holder], [String(card.id)]: [{ ownerName: 'Alex Example', addresses: [{ ownerAddress: '1 Main St Springfield IL 62701' }] }] };
    const identity = Identity.parse(await connector.identity(connection(), { today: TODAY, accounts: [] }));
    expect(identity.owners).toEqual([
      {
        names: ['Alex Example'],
        emails: [{ data: 'alex@example.com', primary: true, type: 'personal' }],
        phone_numbers: [{ data: '5555550100', primary: true, type: 'mobile' }],
        addresses: [{ data: { street: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' }, primary: true }],
        account_ids: [accId(checking.id), accId(String(card.id))],
      },
    ]);
  });

  it('says plainly that liabilities and investments are not offered', async () => {
    await expect(connector.liabilities(connection(), { today: TODAY, accounts: [] })).rejects.toMatchObject({ kind: 'provider_error', message: expect.stringContaining('not offered') });
    await expect(connector.investments(connection(), { today: TODAY, accounts: [] })).rejects.toMatchObject({ kind: 'provider_error' });
  });
});
