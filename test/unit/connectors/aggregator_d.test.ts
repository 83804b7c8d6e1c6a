// Aggregator D against a loopback fake of its documented API (invented values, documented shapes).
import { createAggregatorDConnector } from '../../../functions/connectors/aggregator_d';
import { connectorErrorOf, mapAccount, mapTransaction } from '../../../functions/connectors/aggregator_d/mapping';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { stableId } from '../../../functions/connectors/ids';
import { Account, Holding, Transaction } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import type { Connection, ConnectorPort, ProviderSecrets } from '../../../functions/core/connector-port';
import { D_CLIENT_ID, D_CLIENT_SECRET, D_CODE, D_PROVIDER, D_SUBJECT, defaultState, deposit as fakeDeposit, depositTxn as fakeTxn, idToken, refreshToken, startAggregatorDFake } from '../../support/provider-fakes/aggregator_d';
import type { FakeServer } from '../../support/provider-fakes/fake-server';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const LOGIN = 'consent-7781';
const deposit = { depositAccount: { accountId: 'dep-001', accountNumberDisplay: '...4321', productName: 'Premier Checking', nickname: null, accountType: 'CHECKING', currency: { currencyCode: 'USD' }, currentBalance: 2044.31, availableBalance: 1999.01 } };
const credit = { locAccount: { accountId: 'loc-9', accountNumberDisplay: '7788', productName: 'Travel Card', accountType: 'CREDITCARD', currentBalance: 512.7, availableCredit: 4487.3, creditLine: 5000 } };
const depositTxn = { depositTransaction: { accountId: 'dep-001', transactionId: 'tr-55', postedTimestamp: '2026-06-25T00:00:00Z', transactionTimestamp: '2026-06-24T15:10:00Z', description: 'ACH DEBIT UTILITY CO', debitCreditMemo: 'DEBIT', status: 'POSTED', amount: 88.12 } };

describe('aggregator_d mapping', () => {
  it('unwraps deposit and line-of-credit accounts', () => {
    expect(Account.parse(mapAccount(deposit, 'accounts[0]', LOGIN))).toMatchObject({ account_id: stableId('acc', 'aggregator_d', LOGIN, 'dep-001'), name: 'Premier Checking', type: 'depository', subtype: 'checking', mask: '4321', balances: { current: 2044.31, available: 1999.01 } });
    expect(mapAccount(credit, 'accounts[1]', LOGIN)).toMatchObject({ type: 'credit', balances: { current: 512.7, available: 4487.3, limit: 5000, iso_currency_code: 'USD' } });
  });

  it('signs transactions by their DEBIT/CREDIT memo and dates pendings by their transaction time', () => {
    expect(mapTransaction(depositTxn, 'transactions[0]', LOGIN, 'dep-001', 'USD')).toEqual({
      transaction_id: stableId('txn', 'aggregator_d', LOGIN, 'dep-001', 'tr-55'),
      account_id: stableId('acc', 'aggregator_d', LOGIN, 'dep-001'),
      date: '2026-06-25',
      authorized_datetime: '2026-06-24T15:10:00Z',
      name: 'ACH DEBIT UTILITY CO',
      amount: 88.12,
      iso_currency_code: 'USD',
      pending: false,
    });
    const pendingCredit = { depositTransaction: { ...depositTxn.depositTransaction, debitCreditMemo: 'CREDIT', status: 'PENDING', postedTimestamp: null } };
    expect(mapTransaction(pendingCredit, 't', LOGIN, 'dep-001', 'USD')).toMatchObject({ amount: -88.12, pending: true, date: '2026-06-24' });
  });

  it('refuses hostile payloads with provider_error naming the field', () => {
    expect(() => mapTransaction({ depositTransaction: { ...depositTxn.depositTransaction, amount: '88.12' } }, 'transactions[2]', LOGIN, 'dep-001', 'USD')).toThrow(/transactions\[2\]\.depositTransaction\.amount/);
    expect(() => mapAccount({ mysteryAccount: {} }, 'accounts[4]', LOGIN)).toThrow(/accounts\[4\]/);
  });

  it('maps FDX error codes', () => {
    expect(connectorErrorOf(403, { code: 601, message: 'Customer not authorized' }).kind).toBe('login_required');
    expect(connectorErrorOf(404, { code: '602' }).kind).toBe('login_required');
    expect(connectorErrorOf(429, { code: 1207 }).kind).toBe('rate_limited');
    expect(connectorErrorOf(404, { code: 701, message: 'Account not found' }).kind).toBe('provider_error');
    expect(connectorErrorOf(500, 'not json').kind).toBe('provider_error');
  });

});

const TODAY = '2026-07-01';
const D_LOGIN = `${D_PROVIDER}/${D_SUBJECT}`;
type Fake = FakeServer & { state: ReturnType<typeof defaultState> };
let fake: Fake;
let sleeps: number[];
let saved: ProviderSecrets[];
let connector: ConnectorPort;
const tokens = (generation = 1) => ({ id_token: idToken(generation), refresh_token: refreshToken(generation) });
const connection = (extra: Partial<Connection> = {}): Connection => ({ institutionId: 'ins_bank', login: D_LOGIN, secrets: tokens(), ...extra });
const accId = (id: string) => stableId('acc', 'aggregator_d', D_LOGIN, id);
const txnId = (account: string, id: string) => stableId('txn', 'aggregator_d', D_LOGIN, account, id);
const config = () => ({ AGGREGATOR_D_CLIENT_ID: D_CLIENT_ID, AGGREGATOR_D_CLIENT_SECRET: D_CLIENT_SECRET, AGGREGATOR_D_BASE_URL: fake.url, AGGREGATOR_D_IDP_URL: fake.url, AGGREGATOR_D_PROVIDER_IDS: `ins_bank=${D_PROVIDER}` });
const dataCalls = (product: string) => fake.requests.filter((r) => r.path.startsWith(`/${product}/`));

beforeEach(async () => {
  fake = await startAggregatorDFake(defaultState());
  sleeps = [];
  saved = [];
  connector = createAggregatorDConnector({ config: config(), http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }), saveSecrets: async (s) => void saved.push(s) });
});
afterEach(() => fake.close());

describe('aggregator_d link', () => {
  it('sends the user to the identity provider for the institution and exchanges the code for the item tokens', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_bank', state: 'st-1', redirectUri: 'https://app.example/oauth' });
    const url = new URL(start.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ connector: D_PROVIDER, client_id: D_CLIENT_ID, redirect_uri: 'https://app.example/oauth', state: 'st-1', response_type: 'code', scope: 'openid profile offline_access' });
    expect(start.pending).toEqual({ provider_id: D_PROVIDER });

    const result = await connector.connect!('ins_bank', { method: 'oauth', code: D_CODE, redirectUri: 'https://app.example/oauth', pending: start.pending });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_bank', login: D_LOGIN }, secrets: tokens() });
    expect(fake.requests.at(-1)!.parsed).toEqual({ grant_type: 'authorization_code', code: D_CODE, redirect_uri: 'https://app.example/oauth' });
  });

  it('refuses a used code, a missing session and the credentials method', async () => {
    expect(await connector.connect!('ins_bank', { method: 'oauth', code: 'stale', redirectUri: 'r', pending: { provider_id: D_PROVIDER } })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('ins_bank', { method: 'oauth', code: D_CODE, redirectUri: 'r', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login('ins_bank', { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('answers provider_error naming no secret when the operator client is refused', async () => {
    const wrong = createAggregatorDConnector({ config: { ...config(), AGGREGATOR_D_CLIENT_SECRET: 'not-the-secret' }, http: createProviderHttp({ sleep: async () => {} }) });
    const err = await failure(wrong.connect!('ins_bank', { method: 'oauth', code: D_CODE, redirectUri: 'r', pending: { provider_id: D_PROVIDER } }));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('not-the-secret');
  });

  it('revokes the refresh token at disconnect', async () => {
    await connector.disconnect!(connection());
    expect(fake.state.revoked).toEqual([refreshToken(1)]);
  });
});

describe('aggregator_d accounts and transactions', () => {
  it('maps balances to accounts with stable ids, using the id token as bearer', async () => {
    const accounts = await connector.accounts(connection(), TODAY);
    for (const a of accounts) Account.parse(a);
    expect(accounts).toEqual([
      expect.objectContaining({ account_id: accId('dep-001'), name: 'Premier Checking', type: 'depository', mask: '4321', balances: { current: 2044.31, available: 1999.01, limit: null, iso_currency_code: 'USD' } }),
      expect.objectContaining({ account_id: accId('loc-9'), type: 'credit', balances: { current: 512.7, available: 4487.3, limit: 5000, iso_currency_code: 'USD' } }),
    ]);
    expect(dataCalls('balances')[0].headers.authorization).toBe(`Bearer ${idToken(1)}`);
  });

  it('reads 24 months of every account as a changes batch, signed by memo, pending dated by its transaction time', async () => {
    const batch = await connector.initialHistory(connection(), TODAY);
    expect(dataCalls('transactions').map((r) => [r.path, r.query.get('startTime'), r.query.get('endTime')])).toEqual([
      [`/transactions/v2/${D_PROVIDER}/dep-001`, '2024-07-01T00:00:00Z', '2026-07-02T00:00:00Z'],
      [`/transactions/v2/${D_PROVIDER}/loc-9`, '2024-07-01T00:00:00Z', '2026-07-02T00:00:00Z'],
    ]);
    if (batch.transactions.kind !== 'changes') throw new Error('expected changes');
    const byId = new Map(batch.transactions.upserted.map((t) => [t.transaction_id, t]));
    expect(byId.get(txnId('dep-001', 'tr-1'))).toMatchObject({ account_id: accId('dep-001'), amount: 88.12, date: '2026-06-25', pending: false, iso_currency_code: 'USD' });
    expect(byId.get(txnId('dep-001', 'tr-2'))!.amount).toBe(-2500);
    expect(byId.get(txnId('dep-001', 'tr-3'))).toMatchObject({ pending: true, date: '2026-06-30', amount: 40.01 });
    expect(byId.get(txnId('loc-9', 'lt-1'))).toMatchObject({ account_id: accId('loc-9'), amount: 310.4 });
    for (const t of byId.values()) Transaction.parse({ ...t, merchant_name: null, category: null, category_detailed: null, payment_channel: 'other' });
    expect(JSON.parse(batch.cursor!)).toEqual({ through: TODAY, pending: [['dep-001', 'tr-3', '2026-06-30']] });
    expect(batch.secrets).toBeUndefined();
  });

  it('follows offset pages through links.next', async () => {
    fake.state.transactions['dep-001'] = Array.from({ length: 123 }, (_, i) => fakeTxn(`bulk-${i}`));
    const batch = await connector.initialHistory(connection(), TODAY);
    expect(dataCalls('transactions').filter((r) => r.path.endsWith('dep-001')).map((r) => r.query.get('offset'))).toEqual(['0', '50', '100']);
    expect(batch.transactions.kind === 'changes' && batch.transactions.upserted).toHaveLength(124);
  });

  it('refreshes from its cursor and removes a pending transaction no longer listed', async () => {
    const first = await connector.initialHistory(connection(), TODAY);
    fake.state.transactions['dep-001'] = [fakeTxn('tr-1'), fakeTxn('tr-4', { amount: 40.01, postedTimestamp: '2026-07-02T00:00:00Z' })];
    const batch = await connector.refresh(connection({ cursor: first.cursor }), '2026-07-02', 1);
    expect(dataCalls('transactions').at(-1)!.query.get('startTime')).toBe('2026-06-17T00:00:00Z');
    expect(batch.transactions).toEqual({ kind: 'changes', upserted: expect.arrayContaining([expect.objectContaining({ transaction_id: txnId('dep-001', 'tr-4') })]), removed: [txnId('dep-001', 'tr-3')] });
  });

  it('rotates an expired id token once, saves the new pair at once and returns it with the batch', async () => {
    fake.state.idTokenExpired = true;
    const batch = await connector.refresh(connection({ cursor: JSON.stringify({ through: '2026-06-30', pending: [] }) }), TODAY, 1);
    expect(saved).toEqual([tokens(2)]);
    expect(batch.secrets).toEqual(tokens(2));
    expect(fake.requests.filter((r) => r.path === '/token').map((r) => r.parsed)).toEqual([{ grant_type: 'refresh_token', refresh_token: refreshToken(1) }]);
    expect(dataCalls('transactions').every((r) => r.headers.authorization === `Bearer ${idToken(2)}`)).toBe(true);
  });
});

describe('aggregator_d errors', () => {
  it('asks for a new login when the refresh token is refused, or without tokens', async () => {
    fake.state.idTokenExpired = true;
    fake.state.refreshRevoked = true;
    const err = await failure(connector.accounts(connection(), TODAY));
    expect(err.kind).toBe('login_required');
    expect(err.message).not.toContain(refreshToken(1));
    expect(saved).toEqual([]);
    expect((await failure(connector.accounts({ institutionId: 'ins_bank', login: D_LOGIN }, TODAY))).kind).toBe('login_required');
  });

  it('maps FDX consent errors and rate limits', async () => {
    fake.fail({ pathPrefix: '/balances', response: { status: 403, body: { code: 601, message: 'Customer not found' } } });
    expect((await failure(connector.accounts(connection(), TODAY))).kind).toBe('login_required');
    fake.fail({ pathPrefix: '/balances', response: { status: 429, headers: { 'retry-after': '60' }, body: { code: 1207, message: 'Too many requests' } } });
    expect(await failure(connector.accounts(connection(), TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 60 } });
  });

  it('fails the whole pull when a later page fails after the retries: no partial batch', async () => {
    fake.state.transactions['dep-001'] = Array.from({ length: 80 }, (_, i) => fakeTxn(`bulk-${i}`));
    fake.state.failingOffset = 50;
    const err = await failure(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(dataCalls('transactions').map((r) => r.query.get('offset'))).toEqual(['0', '50', '50', '50']);
    expect(sleeps).toHaveLength(2);
  });

  it('turns hostile payloads into provider_error naming the field, and never loops on a repeated page', async () => {
    fake.state.accounts = [{ depositAccount: { ...fakeDeposit.depositAccount, currentBalance: '2044.31' } }];
    expect((await failure(connector.accounts(connection(), TODAY))).message).toContain('accounts[0].depositAccount.currentBalance');

    fake.state.accounts = [fakeDeposit];
    fake.state.pageOverride = { offset: 0, body: { transactions: [fakeTxn('x', { amount: null })] } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('transactions[0].depositTransaction.amount');

    fake.state.pageOverride = { offset: 0, body: { transactions: new Array(51).fill(fakeTxn('same')) } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('more than');

    fake.state.pageOverride = { offset: 0, body: { links: { next: { href: `/transactions/v2/${D_PROVIDER}/dep-001?offset=0&limit=50` } }, transactions: [fakeTxn('a')] } };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('repeated');

    fake.state.pageOverride = { offset: 0, body: 'not json' };
    expect((await failure(connector.initialHistory(connection(), TODAY))).kind).toBe('provider_error');
  });
});

describe('aggregator_d products', () => {
  it('maps the current customer as the owner of every account', async () => {
    const identity = Identity.parse(await connector.identity(connection(), { today: TODAY, accounts: [] }));
    expect(identity.owners).toEqual([
      {
        names: ['Alex Example'],
        emails: [{ data: 'alex@example.com', primary: true, type: 'personal' }],
        phone_numbers: [{ data: '5555550100', primary: true, type: 'mobile' }],
        addresses: [{ data: { street: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' }, primary: true }],
        account_ids: [accId('dep-001'), accId('loc-9')],
      },
    ]);
  });

  it('maps investment holdings; liabilities are not offered', async () => {
    fake.state.investments = {
      accounts: [
        fakeDeposit,
        { investmentAccount: { accountId: 'inv-3', currentValue: 2600, holdings: [{ holdingId: 'h-1', securityId: '922908769', securityIdType: 'CUSIP', symbol: 'VTI', holdingName: 'Total Market ETF', holdingType: 'STOCK', units: 10, currentUnitPrice: 251, marketValue: 2510, purchasedPrice: 200 }, { holdingId: 'h-2', holdingName: 'Cash sweep', holdingType: 'CASH', units: 90, marketValue: 90 }] } },
      ],
    };
    const investments = await connector.investments(connection(), { today: TODAY, accounts: [] });
    for (const h of investments.holdings) Holding.parse(h);
    expect(investments.holdings[0]).toEqual({ holding_id: expect.stringMatching(/^hld_/), account_id: accId('inv-3'), security: { security_id: expect.stringMatching(/^sec_/), ticker: 'VTI', name: 'Total Market ETF', type: 'equity', close_price: 251 }, quantity: 10, cost_basis: 2000, value: 2510 });
    expect(investments.holdings[1].security).toMatchObject({ ticker: 'CASH', type: 'cash', close_price: 1 });
    expect(investments.securities).toHaveLength(2);
    await expect(connector.liabilities(connection(), { today: TODAY, accounts: [] })).rejects.toMatchObject({ kind: 'provider_error', message: expect.stringContaining('not offered') });
  });
});
