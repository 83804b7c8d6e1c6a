import { createCryptoExchangeAConnector, SCOPES } from '../../../functions/connectors/crypto_exchange_a';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { Account, Holding, InvestmentTransaction } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import { type ConnectorError, type Connection, type ConnectorPort, type SourceBatch } from '../../../functions/core/connector-port';
import { CLIENT_ID, CLIENT_SECRET, startCryptoExchangeAFake, type CryptoExchangeAFake, type FakeTransaction, type FakeWallet } from '../../support/provider-fakes/crypto_exchange_a';
import { connectorFailure as failureOf } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
const REDIRECT = 'https://fincore.example/link/oauth-return';
const INSTITUTION = 'ins_coinbase';

let fake: CryptoExchangeAFake;
let sleeps: number[];
let connector: ConnectorPort;

const wallet = (id: string, code: string, amount: string, native: string, kind: FakeWallet['type'] = 'wallet'): FakeWallet => ({
  id,
  name: `${code} Wallet`,
  type: kind,
  currency: { code, name: code === 'BTC' ? 'Bitcoin' : code, type: kind === 'fiat' ? 'fiat' : 'crypto' },
  balance: { amount, currency: code },
  native_balance: { amount: native, currency: 'USD' },
});

const tx = (id: string, type: string, amount: string, code: string, native: string, createdAt: string, status = 'completed'): FakeTransaction => ({
  id,
  type,
  status,
  amount: { amount, currency: code },
  native_amount: { amount: native, currency: 'USD' },
  description: null,
  created_at: createdAt,
  details: { title: `${type} ${code}`, subtitle: 'via the exchange' },
});

/** `n` completed buys of 0.001 BTC, one per day going back from 2026-06-30 (newest first). */
function btcBuys(n: number, from = Date.UTC(2026, 5, 30, 12)): FakeTransaction[] {
  return Array.from({ length: n }, (_, i) => tx(`btc-buy-${i}`, 'buy', '0.00100000', 'BTC', '60.00', new Date(from - i * 86_400_000).toISOString()));
}

function build(config: Record<string, string> = {}): ConnectorPort {
  return createCryptoExchangeAConnector({
    config: { CRYPTO_EXCHANGE_A_CLIENT_ID: CLIENT_ID, CRYPTO_EXCHANGE_A_CLIENT_SECRET: CLIENT_SECRET, CRYPTO_EXCHANGE_A_BASE_URL: fake.url, CRYPTO_EXCHANGE_A_AUTH_URL: fake.url, ...config },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
}

const connection = (extra: Partial<Connection> = {}): Connection => ({ institutionId: INSTITUTION, login: fake.user.id, secrets: { ...fake.current }, ...extra });

beforeEach(async () => {
  fake = await startCryptoExchangeAFake();
  sleeps = [];
  connector = build();
  fake.wallets.push(
    wallet('w-usd', 'USD', '250.50', '250.50', 'fiat'),
    wallet('w-btc', 'BTC', '0.12500000', '7500.00'),
    wallet('w-eth', 'ETH', '0.00000000', '0.00'),
    wallet('w-usdc', 'USDC', '100.000000', '100.00'),
  );
  fake.transactions['w-btc'] = [
    tx('btc-send-pending', 'send', '-0.01000000', 'BTC', '-600.00', '2026-06-30T18:00:00Z', 'pending'),
    tx('btc-buy-1', 'buy', '0.05000000', 'BTC', '3000.00', '2026-06-20T10:00:00Z'),
    tx('btc-canceled', 'send', '-0.20000000', 'BTC', '-12000.00', '2026-06-10T10:00:00Z', 'canceled'),
    tx('btc-too-old', 'buy', '1.00000000', 'BTC', '9000.00', '2024-06-30T23:59:59Z'),
  ];
  fake.transactions['w-usd'] = [tx('usd-deposit', 'fiat_deposit', '500.00', 'USD', '500.00', '2026-06-01T09:00:00Z')];
  fake.transactions['w-usdc'] = [tx('usdc-receive', 'receive', '100.000000', 'USDC', '100.00', '2026-05-15T09:00:00Z')];
  fake.transactions['w-eth'] = [tx('eth-sell', 'sell', '-1.00000000', 'ETH', '-3000.00', '2026-04-01T09:00:00Z')];
});

afterEach(() => fake.close());

describe('crypto_exchange_a: Link (OAuth with PKCE)', () => {
  it('sends the user to the consent page with read-only scopes and PKCE, then connects with the returned code', async () => {
    const start = await connector.beginOauth!({ institutionId: INSTITUTION, state: 'state-123456', redirectUri: REDIRECT });
    const url = new URL(start.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth2/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      state: 'state-123456',
      scope: SCOPES.join(','),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(SCOPES.every((s) => s.endsWith(':read') || s === 'wallet:user:email' || s === 'offline_access')).toBe(true);
    const code = fake.issueCode(url.searchParams.get('code_challenge')!, REDIRECT);

    const result = await connector.connect!(INSTITUTION, { method: 'oauth', code, redirectUri: REDIRECT, pending: start.pending });

    expect(result).toEqual({ status: 'connected', connection: { institutionId: INSTITUTION, login: fake.user.id }, secrets: fake.current });
    const tokenCall = fake.requests.find((r) => r.path === '/oauth2/token')!;
    expect(tokenCall.parsed).toMatchObject({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
  });

  it('refuses a code the exchange does not honour, a wrong PKCE verifier and other Link methods', async () => {
    const start = await connector.beginOauth!({ institutionId: INSTITUTION, state: 'state-123456', redirectUri: REDIRECT });
    const code = fake.issueCode(new URL(start.authorizeUrl).searchParams.get('code_challenge')!, REDIRECT);
    expect(await connector.connect!(INSTITUTION, { method: 'oauth', code: 'forged', redirectUri: REDIRECT, pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!(INSTITUTION, { method: 'oauth', code, redirectUri: REDIRECT, pending: { code_verifier: 'x'.repeat(43) } })).toMatchObject({
      status: 'invalid_credentials',
      message: expect.stringContaining('invalid_grant'),
    });
    expect(await connector.connect!(INSTITUTION, { method: 'api_key', apiKey: 'k', apiSecret: 's' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login(INSTITUTION, { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.verifyMfaCode(connection(), '123456')).toBe(false);
  });
});

describe('crypto_exchange_a: accounts and transactions', () => {
  it('reports fiat wallets and wallets holding something, each in its own currency (fiat for non-ISO-shaped codes)', async () => {
    const accounts = await connector.accounts(connection(), TODAY);
    for (const a of accounts) expect(Account.safeParse(a).success).toBe(true);
    expect(accounts.map((a) => [a.name, a.type, a.subtype, a.balances.current, a.balances.iso_currency_code])).toEqual([
      ['USD Wallet', 'depository', 'cash', 250.5, 'USD'],
      ['BTC Wallet', 'crypto', 'crypto_exchange', 0.125, 'BTC'],
      ['USDC Wallet', 'crypto', 'crypto_exchange', 100, 'USD'],
    ]);
    expect(accounts.every((a) => a.account_id.startsWith('acc_') && !a.account_id.includes('w-'))).toBe(true);
    expect(accounts.map((a) => a.account_id)).toEqual((await connector.accounts(connection(), TODAY)).map((a) => a.account_id));
  });

  it('maps 24 months of transactions: money out positive, pending from status, voided ones removed', async () => {
    const batch = await connector.initialHistory(connection(), TODAY);
    if (batch.transactions.kind !== 'changes') throw new Error('expected a changes batch');
    const byName = Object.fromEntries(batch.transactions.upserted.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['buy BTC via the exchange', 'fiat_deposit USD via the exchange', 'receive USDC via the exchange', 'send BTC via the exchange']);
    expect(byName['send BTC via the exchange']).toMatchObject({ amount: 0.01, iso_currency_code: 'BTC', pending: true, date: '2026-06-30', authorized_datetime: '2026-06-30T18:00:00.000Z' });
    expect(byName['buy BTC via the exchange']).toMatchObject({ amount: -0.05, iso_currency_code: 'BTC', pending: false });
    expect(byName['fiat_deposit USD via the exchange']).toMatchObject({ amount: -500, iso_currency_code: 'USD' });
    expect(byName['receive USDC via the exchange']).toMatchObject({ amount: -100, iso_currency_code: 'USD' });
    expect(batch.transactions.removed).toHaveLength(1);
    expect(batch.secrets).toBeUndefined();
    // the emptied ETH wallet was never reported, so nothing points at an account that does not exist
    const accountIds = new Set(batch.accounts.map((a) => a.account_id));
    expect(batch.transactions.upserted.every((t) => accountIds.has(t.account_id))).toBe(true);
  });

  it('follows every page (100 rows at most) and stops at the 24-month horizon', async () => {
    fake.transactions['w-btc'] = btcBuys(260);
    const batch = await connector.initialHistory(connection(), TODAY);
    if (batch.transactions.kind !== 'changes') throw new Error('expected a changes batch');
    expect(batch.transactions.upserted.filter((t) => t.iso_currency_code === 'BTC')).toHaveLength(260);
    const pages = fake.requests.filter((r) => r.path === '/v2/accounts/w-btc/transactions');
    expect(pages.map((r) => r.query.get('limit'))).toEqual(['100', '100', '100']);
    expect(new Set(batch.transactions.upserted.map((t) => t.transaction_id)).size).toBe(batch.transactions.upserted.length);
  });

  it('refreshes incrementally from the cursor: re-reads only until it passes it, and picks up a pending transaction that completed', async () => {
    fake.transactions['w-btc'] = [tx('btc-send-pending', 'send', '-0.01000000', 'BTC', '-600.00', '2026-06-30T18:00:00Z', 'pending'), ...btcBuys(250, Date.UTC(2026, 5, 29))];
    const first = await connector.initialHistory(connection(), TODAY);
    fake.requests.length = 0;
    fake.transactions['w-btc'][0] = { ...fake.transactions['w-btc'][0], status: 'completed' };
    fake.transactions['w-btc'].unshift(tx('btc-new', 'receive', '0.00200000', 'BTC', '120.00', '2026-07-01T08:00:00Z'));

    const second = await connector.refresh(connection({ cursor: first.cursor }), '2026-07-01', 1);

    if (second.transactions.kind !== 'changes') throw new Error('expected a changes batch');
    const btc = second.transactions.upserted.filter((t) => t.iso_currency_code === 'BTC');
    expect(btc.map((t) => [t.name, t.pending])).toEqual([
      ['receive BTC via the exchange', false],
      ['send BTC via the exchange', false],
    ]);
    expect(fake.requests.filter((r) => r.path === '/v2/accounts/w-btc/transactions')).toHaveLength(1);
    // nothing pending any more: the next refresh starts at the newest transaction
    const third = await connector.refresh(connection({ cursor: second.cursor }), '2026-07-01', 2);
    if (third.transactions.kind !== 'changes') throw new Error('expected a changes batch');
    expect(third.transactions.upserted.filter((t) => t.iso_currency_code === 'BTC').map((t) => t.name)).toEqual(['receive BTC via the exchange']);
  });

  it('keeps reporting a wallet the item already knew after it is emptied, so its last transactions keep their account', async () => {
    const first = await connector.initialHistory(connection(), TODAY);
    fake.wallets[1].balance.amount = '0.00000000';
    fake.transactions['w-btc'].unshift(tx('btc-sell-all', 'sell', '-0.12500000', 'BTC', '-7500.00', '2026-07-01T08:00:00Z'));
    const second = await connector.refresh(connection({ cursor: first.cursor }), TODAY, 1);
    const btc = second.accounts.find((a) => a.name === 'BTC Wallet');
    expect(btc?.balances.current).toBe(0);
    if (second.transactions.kind !== 'changes') throw new Error('expected a changes batch');
    expect(second.transactions.upserted.find((t) => t.name.startsWith('sell'))).toMatchObject({ account_id: btc?.account_id, amount: 0.125 });
  });
});

describe('crypto_exchange_a: token rotation and errors', () => {
  it('renews an expired access token during a pull and hands the rotated pair back in the batch', async () => {
    const before = connection();
    fake.expireAccessToken();
    const batch = await connector.refresh(before, TODAY, 1);
    expect(batch.secrets).toEqual(fake.current);
    expect(batch.secrets?.refresh_token).not.toBe(before.secrets?.refresh_token);
    // the old refresh token is spent: a pull that still held it must reconnect
    fake.expireAccessToken();
    expect((await failureOf(connector.refresh(before, TODAY, 2))).kind).toBe('login_required');
  });

  it('never spends the refresh token outside a pull, where the rotated pair could not be stored', async () => {
    const held = fake.current;
    fake.expireAccessToken();
    const err = await failureOf(connector.accounts(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(fake.current).toEqual(held);
    expect(fake.requests.some((r) => r.path === '/oauth2/token')).toBe(false);
  });

  it('maps a revoked grant to login_required', async () => {
    fake.revoke();
    expect((await failureOf(connector.initialHistory(connection(), TODAY))).kind).toBe('login_required');
    expect((await failureOf(connector.accounts(connection(), TODAY))).kind).toBe('login_required');
    expect((await failureOf(connector.refresh(connection({ secrets: undefined }), TODAY, 1))).kind).toBe('login_required');
  });

  it('maps 429 to rate_limited with the Retry-After hint, after the client\u2019s bounded retries', async () => {
    fake.fail({ pathPrefix: '/v2/accounts', response: { status: 429, headers: { 'retry-after': '30' }, body: { errors: [{ id: 'rate_limit_exceeded', message: 'Too many requests' }] } }, times: 10 });
    const err = await failureOf(connector.refresh(connection(), TODAY, 1));
    expect([err.kind, err.details.retryAfterSeconds]).toEqual(['rate_limited', 30]);
  });

  it('retries a 5xx, and fails the whole pull (no partial batch) when a page keeps failing mid-pagination', async () => {
    fake.fail({ pathPrefix: '/v2/accounts', response: { status: 503, body: { errors: [{ id: 'internal_server_error', message: 'down' }] } }, times: 1 });
    await connector.accounts(connection(), TODAY);
    expect(sleeps).toEqual([250]);

    fake.transactions['w-btc'] = btcBuys(250);
    const route = fake.requests.length;
    let batch: SourceBatch | undefined;
    // the second page of the BTC wallet fails every attempt
    const original = fake.transactions['w-btc'];
    fake.fail({ pathPrefix: '/v2/accounts/w-btc/transactions', response: { status: 200, body: { pagination: { next_uri: '/v2/accounts/w-btc/transactions?limit=100&order=desc&starting_after=btc-buy-99' }, data: original.slice(0, 100) } } });
    fake.fail({ pathPrefix: '/v2/accounts/w-btc/transactions', response: { status: 500, body: { errors: [{ id: 'internal_server_error', message: 'boom' }] } }, times: 5 });
    const err = await failureOf(
      connector.initialHistory(connection(), TODAY).then((b) => {
        batch = b;
      }),
    );
    expect(err.kind).toBe('provider_error');
    expect(batch).toBeUndefined();
    expect(fake.requests.slice(route).filter((r) => r.path === '/v2/accounts/w-btc/transactions').length).toBeGreaterThanOrEqual(2);
  });

  it('never puts a token or the client secret in an error message', async () => {
    const secrets = [fake.current.access_token, fake.current.refresh_token, CLIENT_SECRET];
    const errors: ConnectorError[] = [];
    fake.expireAccessToken();
    errors.push(await failureOf(connector.accounts(connection(), TODAY)));
    fake.revoke();
    errors.push(await failureOf(connector.refresh(connection(), TODAY, 1)));
    fake.fail({ response: { status: 502, body: 'bad gateway' }, times: 5 });
    errors.push(await failureOf(connector.identity(connection(), { today: TODAY, accounts: [] })));
    for (const err of errors) for (const secret of secrets) expect(err.message).not.toContain(secret);
  });
});

describe('crypto_exchange_a: hostile payloads', () => {
  const hostile: [string, string, unknown][] = [
    ['a number where a decimal string belongs', '/v2/accounts', { pagination: { next_uri: null }, data: [{ ...wallet('w', 'BTC', '1', '1'), balance: { amount: 1, currency: 'BTC' } }] }],
    ['a missing id', '/v2/accounts', { pagination: { next_uri: null }, data: [{ ...wallet('w', 'BTC', '1', '1'), id: undefined }] }],
    ['an amount that is not a number', '/v2/accounts', { pagination: { next_uri: null }, data: [wallet('w', 'BTC', 'NaN', '1')] }],
    ['a page larger than asked for', '/v2/accounts', { pagination: { next_uri: null }, data: Array.from({ length: 5000 }, (_, i) => wallet(`w${i}`, 'BTC', '1', '1')) }],
    ['a next page on another host', '/v2/accounts', { pagination: { next_uri: 'https://evil.example/v2/accounts?starting_after=x' }, data: [] }],
    ['a data field that is not a list', '/v2/accounts', { data: { id: 'w' } }],
    ['a transaction without created_at', '/v2/accounts/w-btc/transactions', { pagination: { next_uri: null }, data: [{ ...tx('t', 'buy', '1.0', 'BTC', '1.00', 'x'), created_at: 12 }] }],
  ];
  it.each(hostile)('answers provider_error for %s', async (_label, path, body) => {
    fake.override(path, body);
    const err = await failureOf(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
  });

  it('never follows a next page to another origin, which would receive the bearer token', async () => {
    const elsewhere = await startCryptoExchangeAFake();
    try {
      fake.override('/v2/accounts', { pagination: { next_uri: `${elsewhere.url}/v2/accounts?starting_after=x` }, data: [] });
      expect((await failureOf(connector.accounts(connection(), TODAY))).message).toMatch(/points outside the API/);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('stops a listing that repeats its page instead of looping forever', async () => {
    fake.override('/v2/accounts', { pagination: { next_uri: '/v2/accounts?limit=100&order=desc' }, data: [] });
    expect((await failureOf(connector.accounts(connection(), TODAY))).message).toMatch(/repeated a page/);
  });
});

describe('crypto_exchange_a: products', () => {
  it('reports the user as identity', async () => {
    const identity = await connector.identity(connection(), { today: TODAY, accounts: [] });
    expect(Identity.safeParse(identity).success).toBe(true);
    expect(identity.owners[0]).toMatchObject({ names: ['Ada Lovelace'], emails: [{ data: 'ada@example.com', primary: true, type: 'personal' }] });
  });

  it('reports each crypto wallet as a holding valued at its native balance, and trades and transfers as investment transactions', async () => {
    const investments = await connector.investments(connection(), { today: TODAY, accounts: [] });
    for (const h of investments.holdings) expect(Holding.safeParse(h).success).toBe(true);
    for (const t of investments.investment_transactions) expect(InvestmentTransaction.safeParse(t).success).toBe(true);
    expect(investments.holdings.map((h) => [h.security.ticker, h.quantity, h.value, h.security.close_price, h.security.type])).toEqual([
      ['BTC', 0.125, 7500, 60000, 'crypto'],
      ['USDC', 100, 100, 1, 'crypto'],
    ]);
    expect(investments.investment_transactions.map((t) => [t.ticker, t.type, t.quantity, t.price, t.amount, t.date])).toEqual([
      ['BTC', 'buy', 0.05, 60000, 3000, '2026-06-20'],
      ['USDC', 'deposit', 100, 1, -100, '2026-05-15'],
    ]);
  });

  it('does not offer liabilities', async () => {
    expect((await failureOf(connector.liabilities(connection(), { today: TODAY, accounts: [] }))).kind).toBe('provider_error');
  });

  it('revokes the grant on disconnect', async () => {
    await connector.disconnect!(connection());
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/oauth2/revoke' });
    expect((await failureOf(connector.accounts(connection(), TODAY))).kind).toBe('login_required');
  });
});
