// The payment-app adapter against a loopback fake of its documented REST API: OAuth connect,
// balances, Transaction Search in 31-day slices with pagination, token refresh and rotation,
// incremental refresh, the documented failures, and hostile payloads.
import { ConnectorError, type Connection, type ConnectorPort, type SourceBatch } from '../../../functions/core/connector-port';
import { createPaymentAppAConnector } from '../../../functions/connectors/payment_app_a';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { Account, Transaction } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, startPaymentAppFake, type PaymentAppFake } from '../../support/provider-fakes/payment_app_a';

const TODAY = '2026-03-01';
const INSTITUTION = 'ins_paypal';

let fake: PaymentAppFake;
let sleeps: number[];
let connector: ConnectorPort;

function build(overrides: Record<string, string> = {}): ConnectorPort {
  return createPaymentAppAConnector({
    config: { PAYMENT_APP_A_CLIENT_ID: FAKE_CLIENT_ID, PAYMENT_APP_A_CLIENT_SECRET: FAKE_CLIENT_SECRET, PAYMENT_APP_A_BASE_URL: fake.url, PAYMENT_APP_A_AUTH_URL: 'https://consent.example', ...overrides },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
}

async function connected(): Promise<Connection> {
  fake.issueCode('code-1');
  const result = await connector.connect!(INSTITUTION, { method: 'oauth', code: 'code-1', redirectUri: 'https://link.example/oauth', pending: {} });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return { ...result.connection, secrets: result.secrets };
}

async function rejection(promise: Promise<unknown>): Promise<ConnectorError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectorError) return err;
    throw err;
  }
  throw new Error('expected a ConnectorError');
}

const upserted = (batch: SourceBatch) => (batch.transactions.kind === 'changes' ? batch.transactions.upserted : []);
const removed = (batch: SourceBatch) => (batch.transactions.kind === 'changes' ? batch.transactions.removed : []);
const secretValues = () => [...fake.accessTokens(), ...fake.refreshTokens(), FAKE_CLIENT_SECRET];

beforeEach(async () => {
  fake = await startPaymentAppFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

describe('payment_app_a: Link (OAuth)', () => {
  test('beginOauth sends the user to the consent page with client_id, code flow, scopes, redirect_uri and state', async () => {
    const start = await connector.beginOauth!({ institutionId: INSTITUTION, state: 'st-123', redirectUri: 'https://link.example/oauth' });
    const url = new URL(start.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe('https://consent.example/signin/authorize');
    expect(url.searchParams.get('client_id')).toBe(FAKE_CLIENT_ID);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('https://link.example/oauth');
    expect(url.searchParams.get('state')).toBe('st-123');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'https://uri.paypal.com/services/reporting/search/read']));
    expect(start.authorizeUrl).not.toContain(FAKE_CLIENT_SECRET);
  });

  test('connect exchanges the code (Basic client auth) and keys the item by payer id, tokens as secrets', async () => {
    fake.issueCode('code-1');
    const result = await connector.connect!(INSTITUTION, { method: 'oauth', code: 'code-1', redirectUri: 'https://link.example/oauth', pending: {} });
    expect(result).toMatchObject({ status: 'connected', connection: { institutionId: INSTITUTION, login: 'PAYERID7QX2' } });
    if (result.status !== 'connected') return;
    expect(result.secrets?.access_token).toMatch(/^A21AA/);
    expect(result.secrets?.refresh_token).toMatch(/^R23AA/);
    expect(result.connection.login).not.toContain(result.secrets?.access_token ?? '-');
    const tokenRequest = fake.requests.find((r) => r.path === '/v1/oauth2/token');
    expect(tokenRequest?.parsed).toMatchObject({ grant_type: 'authorization_code', code: 'code-1' });
  });

  test('a used or unknown code is refused as invalid_credentials; a non-OAuth input too', async () => {
    const refused = await connector.connect!(INSTITUTION, { method: 'oauth', code: 'never-issued', redirectUri: 'https://link.example/oauth', pending: {} });
    expect(refused.status).toBe('invalid_credentials');
    expect(await connector.connect!(INSTITUTION, { method: 'address', address: 'x' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login(INSTITUTION, { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.verifyMfaCode({ institutionId: INSTITUTION, login: 'x' }, '123456')).toBe(false);
  });

  test('wrong operator credentials are a provider_error that names the variables, never their values', async () => {
    const misconfigured = build({ PAYMENT_APP_A_CLIENT_SECRET: 'wrong-secret-value' });
    fake.issueCode('code-1');
    const err = await rejection(misconfigured.connect!(INSTITUTION, { method: 'oauth', code: 'code-1', redirectUri: 'https://link.example/oauth', pending: {} }));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('PAYMENT_APP_A_CLIENT_ID');
    expect(err.message).not.toContain('wrong-secret-value');
  });
});

describe('payment_app_a: accounts, transactions, identity', () => {
  test('one depository account per currency balance', async () => {
    fake.state.balances = [
      { currency: 'USD', total: '125.50', available: '120.00' },
      { currency: 'EUR', total: '10.00', available: '10.00' },
    ];
    const connection = await connected();
    const accounts = await connector.accounts(connection, TODAY);
    expect(accounts).toHaveLength(2);
    for (const account of accounts) expect(Account.safeParse(account).success).toBe(true);
    expect(accounts[0]).toMatchObject({ type: 'depository', subtype: 'paypal', balances: { current: 125.5, available: 120, iso_currency_code: 'USD' } });
    expect(accounts[1].balances.iso_currency_code).toBe('EUR');
    expect(new Set(accounts.map((a) => a.account_id)).size).toBe(2);
  });

  test('initial history reads 24 months in 31-day slices and maps signs, pending, dates, fees and removals', async () => {
    fake.state.transactions = [
      { id: '1AB23456CD789012E', initiated: '2026-02-20T23:30:00-0800', value: '-45.00', subject: 'Order at Example Shop', items: ['Headphones'] },
      { id: '2AB23456CD789012E', initiated: '2026-02-10T10:00:00+0000', value: '200.00', fee: '-6.10', payerName: 'Grace Hopper', eventCode: 'T0000' },
      { id: '3AB23456CD789012E', initiated: '2026-02-25T10:00:00+0000', value: '-12.00', status: 'P', items: ['Coffee beans'] },
      { id: '4AB23456CD789012E', initiated: '2026-01-05T10:00:00+0000', value: '-99.00', status: 'V' },
      { id: '5AB23456CD789012E', initiated: '2024-06-01T10:00:00+0000', value: '-5.00', eventCode: 'T0400' },
      { id: '6AB23456CD789012E', initiated: '2023-12-01T10:00:00+0000', value: '-7.00' },
    ];
    const connection = await connected();
    const batch = await connector.initialHistory(connection, TODAY);
    const searches = fake.requests.filter((r) => r.path === '/v1/reporting/transactions');
    expect(searches.length).toBeGreaterThanOrEqual(24);
    for (const search of searches) {
      const span = Date.parse(search.query.get('end_date')!) - Date.parse(search.query.get('start_date')!);
      expect(span).toBeLessThanOrEqual(31 * 86_400_000);
    }
    expect(searches[0].query.get('start_date')).toBe('2024-03-01T00:00:00Z');
    expect(searches.at(-1)?.query.get('end_date')).toBe('2026-03-01T23:59:59Z');

    const txs = upserted(batch);
    for (const tx of txs) expect(Transaction.omit({ merchant_name: true, category: true, category_detailed: true, payment_channel: true }).safeParse(tx).success).toBe(true);
    const byName = new Map(txs.map((t) => [t.name, t]));
    // money out is positive, money in negative; the -0800 purchase is on the 21st in UTC
    expect(byName.get('Order at Example Shop')).toMatchObject({ amount: 45, date: '2026-02-21', pending: false, iso_currency_code: 'USD', authorized_datetime: '2026-02-21T07:30:00.000Z' });
    expect(byName.get('Grace Hopper')).toMatchObject({ amount: -200, counterparty: 'Grace Hopper' });
    expect(byName.get('PayPal fee')).toMatchObject({ amount: 6.1, date: '2026-02-10' });
    expect(byName.get('Coffee beans')).toMatchObject({ amount: 12, pending: true });
    expect(byName.get('Withdrawal to bank')).toMatchObject({ amount: 5, date: '2024-06-01' });
    expect(txs).toHaveLength(5);
    expect(txs.every((t) => /^txn_[0-9a-f]{24}$/.test(t.transaction_id) && !t.transaction_id.includes('AB2345'))).toBe(true);
    expect(removed(batch)).toHaveLength(2);
    expect(batch.cursor).toBe('2026-02-19');
  });

  test('follows every page of a slice', async () => {
    fake.state.transactions = Array.from({ length: 1203 }, (_, i) => ({ id: `P${String(i).padStart(16, '0')}`, initiated: `2026-02-${String(1 + (i % 27)).padStart(2, '0')}T12:00:00Z`, value: '-1.00' }));
    const connection = await connected();
    const batch = await connector.initialHistory(connection, TODAY);
    expect(upserted(batch)).toHaveLength(1203);
    const pagesBySlice = new Map<string, string[]>();
    for (const r of fake.requests.filter((q) => q.path === '/v1/reporting/transactions')) {
      const start = r.query.get('start_date')!;
      pagesBySlice.set(start, [...(pagesBySlice.get(start) ?? []), r.query.get('page')!]);
      expect(r.query.get('page_size')).toBe('500');
    }
    const multiPage = [...pagesBySlice.values()].filter((pages) => pages.length > 1);
    expect(multiPage.length).toBeGreaterThan(0);
    for (const pages of multiPage) expect(pages).toEqual(pages.map((_, i) => String(i + 1)));
  });

  test('a slice the provider calls too large is halved until it fits', async () => {
    fake.state.transactions = Array.from({ length: 30 }, (_, i) => ({ id: `Q${String(i).padStart(16, '0')}`, initiated: `2026-02-${String(1 + (i % 27)).padStart(2, '0')}T12:00:00Z`, value: '-1.00' }));
    fake.state.resultSetLimit = 12;
    const connection = await connected();
    const batch = await connector.refresh({ ...connection, cursor: '2026-02-01' }, TODAY, 1);
    expect(upserted(batch)).toHaveLength(30);
  });

  test('identity maps the userinfo profile', async () => {
    const connection = await connected();
    const accounts = await connector.accounts(connection, TODAY);
    const identity = await connector.identity(connection, { today: TODAY, accounts });
    expect(Identity.safeParse(identity).success).toBe(true);
    expect(identity.owners[0]).toMatchObject({
      names: ['Ada Lovelace'],
      emails: [{ data: 'ada@example.com', primary: true }],
      addresses: [{ data: { street: '1 Main St', city: 'San Jose', region: 'CA', postal_code: '95131', country: 'US' }, primary: true }],
      account_ids: accounts.map((a) => a.account_id),
    });
    await expect(connector.liabilities(connection, { today: TODAY, accounts })).rejects.toMatchObject({ kind: 'provider_error' });
    await expect(connector.investments(connection, { today: TODAY, accounts })).rejects.toMatchObject({ kind: 'provider_error' });
  });
});

describe('payment_app_a: refresh, tokens and failures', () => {
  test('refresh reads from the cursor, reports reversals as removed, and carries the refreshed tokens', async () => {
    fake.state.transactions = [{ id: '7AB23456CD789012E', initiated: '2026-02-25T10:00:00Z', value: '-30.00', status: 'P' }];
    const connection = await connected();
    const first = await connector.initialHistory(connection, TODAY);
    const pendingId = upserted(first)[0].transaction_id;
    expect(first.cursor).toBe('2026-02-19');

    fake.state.transactions = [{ id: '7AB23456CD789012E', initiated: '2026-02-25T10:00:00Z', value: '-30.00', status: 'V' }];
    fake.requests.length = 0;
    const next = await connector.refresh({ ...connection, secrets: first.secrets, cursor: first.cursor }, '2026-03-02', 1);
    expect(removed(next)).toContain(pendingId);
    expect(upserted(next)).toHaveLength(0);
    const searches = fake.requests.filter((r) => r.path === '/v1/reporting/transactions');
    expect(searches.map((r) => r.query.get('start_date'))).toEqual(['2026-02-19T00:00:00Z']);
    expect(next.secrets?.access_token).toBeDefined();
    expect(next.secrets?.access_token).not.toBe(first.secrets?.access_token);
  });

  test('a pending transaction older than the overlap keeps the next refresh window open', async () => {
    fake.state.transactions = [{ id: '8AB23456CD789012E', initiated: '2026-02-02T10:00:00Z', value: '-30.00', status: 'P' }];
    const connection = await connected();
    const batch = await connector.initialHistory(connection, TODAY);
    expect(batch.cursor).toBe('2026-02-02');
  });

  test('a rotated refresh token surfaces in SourceBatch.secrets', async () => {
    fake.state.rotateRefreshTokens = true;
    const connection = await connected();
    const batch = await connector.refresh({ ...connection, cursor: '2026-02-20' }, TODAY, 1);
    expect(batch.secrets?.refresh_token).toBeDefined();
    expect(batch.secrets?.refresh_token).not.toBe(connection.secrets?.refresh_token);
    expect(fake.refreshTokens()).toEqual([batch.secrets?.refresh_token]);
  });

  test('an expired access token is refreshed once and the call retried', async () => {
    const connection = await connected();
    fake.expireAccessTokens();
    const accounts = await connector.accounts(connection, TODAY);
    expect(accounts).toHaveLength(1);
    expect(fake.requests.filter((r) => (r.parsed as Record<string, string> | undefined)?.grant_type === 'refresh_token')).toHaveLength(1);
  });

  test('a revoked refresh token is login_required, without any token in the message', async () => {
    const connection = await connected();
    fake.revokeRefreshTokens();
    const err = await rejection(connector.refresh({ ...connection, cursor: '2026-02-20' }, TODAY, 1));
    expect(err.kind).toBe('login_required');
    for (const secret of [connection.secrets!.access_token, connection.secrets!.refresh_token, ...secretValues()]) expect(err.message).not.toContain(secret);
  });

  test('a consent without the reporting scope is login_required (403 NOT_AUTHORIZED)', async () => {
    fake.issueCode('narrow', ['openid', 'email']);
    const result = await connector.connect!(INSTITUTION, { method: 'oauth', code: 'narrow', redirectUri: 'https://link.example/oauth', pending: {} });
    if (result.status !== 'connected') throw new Error('not connected');
    const err = await rejection(connector.accounts({ ...result.connection, secrets: result.secrets }, TODAY));
    expect(err).toMatchObject({ kind: 'login_required', details: { status: 403 } });
  });

  test('429 RATE_LIMIT_REACHED is rate_limited with the Retry-After hint', async () => {
    const connection = await connected();
    fake.fail({ pathPrefix: '/v1/reporting/balances', times: 3, response: { status: 429, headers: { 'retry-after': '30' }, body: { name: 'RATE_LIMIT_REACHED', message: 'Too many requests.', debug_id: 'x' } } });
    const err = await rejection(connector.accounts(connection, TODAY));
    expect(err).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 30 } });
  });

  test('a page failing mid-pagination after the retries fails the whole pull (no partial batch)', async () => {
    fake.state.transactions = Array.from({ length: 700 }, (_, i) => ({ id: `R${String(i).padStart(16, '0')}`, initiated: '2026-02-10T12:00:00Z', value: '-1.00' }));
    const connection = await connected();
    fake.state.intercept = (req) =>
      req.path === '/v1/reporting/transactions' && req.query.get('page') === '2'
        ? { status: 500, body: { name: 'INTERNAL_SERVICE_ERROR', message: 'An internal service error occurred.', debug_id: 'x' } }
        : undefined;
    const err = await rejection(connector.refresh({ ...connection, cursor: '2026-02-01' }, TODAY, 1));
    expect(err.kind).toBe('provider_error');
    expect(fake.requests.filter((r) => r.query.get('page') === '2')).toHaveLength(3);
    expect(sleeps).toEqual([250, 1000]);
  });

  test('hostile payloads are provider_error naming the field, never a crash', async () => {
    const connection = await connected();
    const cases: { path: string; body: unknown; field: RegExp }[] = [
      { path: '/v1/reporting/balances', body: { balances: [{ currency: 'USD', total_balance: { currency_code: 'USD', value: 'lots' } }] }, field: /total_balance\.value/ },
      { path: '/v1/reporting/balances', body: { balances: 'none' }, field: /balances/ },
      { path: '/v1/reporting/balances', body: [1, 2], field: /balances response/ },
    ];
    for (const c of cases) {
      fake.fail({ pathPrefix: c.path, response: { status: 200, body: c.body } });
      const err = await rejection(connector.accounts(connection, TODAY));
      expect(err.kind).toBe('provider_error');
      expect(err.message).toMatch(c.field);
    }
    const txCases: { body: unknown; field: RegExp }[] = [
      { body: { transaction_details: [{ transaction_info: { transaction_id: 'X1', transaction_event_code: 'T0006', transaction_initiation_date: '2026-02-21T00:00:00Z', transaction_status: 'S', transaction_amount: { currency_code: 'USD', value: 12 } } }], total_pages: 1 }, field: /transaction_amount\.value/ },
      { body: { transaction_details: [{ transaction_info: { transaction_id: 'X1', transaction_event_code: 'T0006', transaction_initiation_date: 'yesterday', transaction_status: 'S', transaction_amount: { currency_code: 'USD', value: '1.00' } } }], total_pages: 1 }, field: /transaction_initiation_date/ },
      { body: { transaction_details: [{}], total_pages: 1 }, field: /transaction_info/ },
      { body: { transaction_details: [], total_pages: 'many' }, field: /total_pages/ },
      { body: { transaction_details: Array.from({ length: 501 }, () => ({})), total_pages: 1 }, field: /more than the 500/ },
    ];
    for (const c of txCases) {
      fake.fail({ pathPrefix: '/v1/reporting/transactions', response: { status: 200, body: c.body } });
      const err = await rejection(connector.refresh({ ...connection, cursor: '2026-02-20' }, TODAY, 1));
      expect(err.kind).toBe('provider_error');
      expect(err.message).toMatch(c.field);
    }
  });

  test('disconnect revokes the refresh token at the terminate endpoint', async () => {
    const connection = await connected();
    await connector.disconnect!(connection);
    expect(fake.refreshTokens()).not.toContain(connection.secrets!.refresh_token);
    const terminate = fake.requests.find((r) => r.path === '/v1/oauth2/token/terminate');
    expect(terminate?.parsed).toMatchObject({ token_type_hint: 'REFRESH_TOKEN' });
  });
});
