import { createCryptoExchangeBConnector, signature } from '../../../functions/connectors/crypto_exchange_b';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { Account, Holding } from '../../../functions/contracts/schemas';
import { type ConnectorError, type Connection, type ConnectorPort, type SourceBatch, type SourceTransaction } from '../../../functions/core/connector-port';
import { makeKey, startCryptoExchangeBFake, type CryptoExchangeBFake, type FakeLedgerEntry } from '../../support/provider-fakes/crypto_exchange_b';
import { connectorFailure as failureOf } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
const INSTITUTION = 'ins_kraken';
const KEY = makeKey('user-1');
/** 2026-06-01T00:00:00Z */
const JUNE_1 = Date.UTC(2026, 5, 1) / 1000;

let fake: CryptoExchangeBFake;
let sleeps: number[];
let connector: ConnectorPort;

const entry = (id: string, time: number, type: string, asset: string, amount: string, fee = '0.0000', subtype = ''): FakeLedgerEntry => ({
  id,
  refid: `REF-${id}`,
  time,
  type,
  subtype,
  aclass: 'currency',
  asset,
  amount,
  fee,
  balance: '0',
});

const connection = (extra: Partial<Connection> = {}): Connection => ({
  institutionId: INSTITUTION,
  login: 'key_test',
  secrets: { api_key: KEY.key, api_secret: KEY.secret },
  ...extra,
});

function changes(batch: SourceBatch): { upserted: SourceTransaction[]; removed: string[] } {
  if (batch.transactions.kind !== 'changes') throw new Error('expected a changes batch');
  return batch.transactions;
}

beforeEach(async () => {
  fake = await startCryptoExchangeBFake();
  sleeps = [];
  connector = createCryptoExchangeBConnector({
    config: { CRYPTO_EXCHANGE_B_ENABLED: 'true', CRYPTO_EXCHANGE_B_BASE_URL: fake.url },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
  fake.addKey(KEY);
  Object.assign(fake.balances, { XXBT: '0.5000000000', XETH: '0.0000000000', ZUSD: '1000.5000', 'DOT.S': '10.0000000000', USDC: '250.00000000', ABCD: '3.00000', KFEE: '120.00' });
  Object.assign(fake.tickers, { XXBTZUSD: '60000.00000', XETHZUSD: '3000.00', DOTUSD: '5.5000', USDCUSD: '1.0001' });
  fake.ledger.push(
    entry('L-DEP', JUNE_1, 'deposit', 'ZUSD', '1000.0000'),
    entry('L-TRADE-USD', JUNE_1 + 3600.25, 'trade', 'ZUSD', '-500.0000', '1.3000'),
    entry('L-TRADE-BTC', JUNE_1 + 3600.25, 'trade', 'XXBT', '0.0100000000'),
    entry('L-WD', JUNE_1 + 86_400, 'withdrawal', 'XXBT', '-0.0020000000', '0.0001000000'),
    entry('L-STAKE', JUNE_1 + 2 * 86_400, 'staking', 'DOT.S', '0.1000000000'),
    entry('L-USDC', JUNE_1 + 3 * 86_400, 'deposit', 'USDC', '250.00000000'),
    entry('L-OLD', Date.UTC(2024, 5, 30) / 1000, 'deposit', 'ZUSD', '5.0000'),
  );
});

afterEach(() => fake.close());

describe('crypto_exchange_b: Link (read-only API key)', () => {
  it('signs as the exchange documents it', () => {
    // the exchange's published example: this key, nonce and payload sign to this value
    const secret = 'kQH5HW/8p1uGOVjbgWA7FunAmGO8lsSUXNsu3eow76sz84Q18fWxnyRzBHCd3pd5nE9qa99HAZtuZuj6F1huXg==';
    const payload = 'nonce=1616492376594&ordertype=limit&pair=XBTUSD&price=37500&type=buy&volume=1.25';
    expect(signature('/0/private/AddOrder', '1616492376594', payload, secret)).toBe('4/dpxb3iT4tp/ZCVEwSnEsLxx0bqyhLpdfOpc6fn7OR8+UClSV5n9E6aSS8MPtnRfp32bAb0nmbRn6H8ndwLUQ==');
  });

  it('connects a key that can query funds and ledger entries, keeping only a hash of the key as the login', async () => {
    const result = await connector.connect!(INSTITUTION, { method: 'api_key', apiKey: ` ${KEY.key} `, apiSecret: KEY.secret });
    expect(result).toEqual({
      status: 'connected',
      connection: { institutionId: INSTITUTION, login: expect.stringMatching(/^key_[0-9a-f]{32}$/) },
      secrets: { api_key: KEY.key, api_secret: KEY.secret },
    });
    if (result.status !== 'connected') throw new Error('unreachable');
    expect(result.connection.login).not.toContain(KEY.key);
    expect(fake.requests.map((r) => r.path)).toEqual(['/0/private/Balance', '/0/private/Ledgers']);
  });

  it('refuses malformed input without calling the exchange', async () => {
    for (const [apiKey, apiSecret] of [
      ['short', KEY.secret],
      [KEY.key, 'not base64!'],
      [KEY.key, 'c2hvcnQ='],
    ]) {
      expect(await connector.connect!(INSTITUTION, { method: 'api_key', apiKey, apiSecret })).toMatchObject({ status: 'invalid_credentials', message: expect.any(String) });
    }
    expect(await connector.connect!(INSTITUTION, { method: 'address', address: 'x' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login(INSTITUTION, { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses an unknown key, a wrong private key and a key without the ledger permission, naming the permissions', async () => {
    const other = makeKey('someone-else');
    const noLedger = makeKey('funds-only', ['query_funds']);
    fake.addKey(noLedger);
    const attempts = [
      { apiKey: other.key, apiSecret: other.secret },
      { apiKey: KEY.key, apiSecret: other.secret },
      { apiKey: noLedger.key, apiSecret: noLedger.secret },
    ];
    const results = [];
    for (const input of attempts) results.push(await connector.connect!(INSTITUTION, { method: 'api_key', ...input }));
    expect(results.map((r) => r.status === 'invalid_credentials' && r.message?.match(/EAPI:Invalid key|EAPI:Invalid signature|EGeneral:Permission denied/)?.[0])).toEqual([
      'EAPI:Invalid key',
      'EAPI:Invalid signature',
      'EGeneral:Permission denied',
    ]);
    for (const r of results) expect(r).toMatchObject({ message: expect.stringContaining('"Query Funds" and "Query Ledger Entries"') });
  });
});

describe('crypto_exchange_b: accounts, transactions and refresh', () => {
  it('reports one account per asset held, fiat as depository, non-ISO-shaped assets valued in USD (0 without a USD pair)', async () => {
    const accounts = await connector.accounts(connection(), TODAY);
    for (const a of accounts) expect(Account.safeParse(a).success).toBe(true);
    expect(accounts.map((a) => [a.name, a.type, a.balances.current, a.balances.iso_currency_code])).toEqual([
      ['ABCD', 'crypto', 0, 'USD'],
      ['DOT (staked)', 'crypto', 10, 'DOT'],
      ['USDC', 'crypto', 250.03, 'USD'],
      ['BTC', 'crypto', 0.5, 'BTC'],
      ['USD', 'depository', 1000.5, 'USD'],
    ]);
  });

  it('maps 24 months of ledger entries: balance change less fee, money out positive, in the asset\u2019s currency', async () => {
    const batch = await connector.initialHistory(connection(), TODAY);
    const { upserted, removed } = changes(batch);
    expect(removed).toEqual([]);
    expect(upserted.map((t) => [t.name, t.amount, t.iso_currency_code, t.date, t.pending])).toEqual([
      ['Staking reward DOT', -0.1, 'DOT', '2026-06-03', false],
      ['Withdrawal BTC', 0.0021, 'BTC', '2026-06-02', false],
      ['Trade USD', 501.3, 'USD', '2026-06-01', false],
      ['Trade BTC', -0.01, 'BTC', '2026-06-01', false],
      ['Deposit USD', -1000, 'USD', '2026-06-01', false],
    ]);
    expect(upserted[2].authorized_datetime).toBe('2026-06-01T01:00:00.250Z');
    const accountIds = new Set(batch.accounts.map((a) => a.account_id));
    expect(upserted.every((t) => accountIds.has(t.account_id) && t.transaction_id.startsWith('txn_'))).toBe(true);
    const firstLedgerCall = new URLSearchParams(fake.requests.find((r) => r.path === '/0/private/Ledgers')!.body);
    expect(firstLedgerCall.get('start')).toBe(String(Date.UTC(2024, 6, 1) / 1000));
  });

  it('follows the ledger\u2019s offset pages to the reported count', async () => {
    for (let i = 0; i < 120; i += 1) fake.ledger.push(entry(`L-BUY-${i}`, JUNE_1 + 10 * 86_400 + i * 60, 'trade', 'XXBT', '0.0010000000'));
    const { upserted } = changes(await connector.initialHistory(connection(), TODAY));
    expect(upserted).toHaveLength(125);
    expect(new Set(upserted.map((t) => t.transaction_id)).size).toBe(125);
    const offsets = fake.requests.filter((r) => r.path === '/0/private/Ledgers').map((r) => new URLSearchParams(r.body).get('ofs'));
    expect(offsets).toEqual(['0', '50', '100']);
  });

  it('refreshes from the cursor time, reporting only newer entries, and keeps an emptied asset\u2019s account', async () => {
    const first = await connector.initialHistory(connection(), TODAY);
    fake.ledger.push(entry('L-SELL-ALL', JUNE_1 + 5 * 86_400, 'trade', 'XXBT', '-0.5000000000'));
    fake.balances.XXBT = '0.0000000000';
    fake.requests.length = 0;
    const second = await connector.refresh(connection({ cursor: first.cursor }), TODAY, 1);
    expect(changes(second).upserted.map((t) => [t.name, t.amount])).toEqual([['Trade BTC', 0.5]]);
    expect(second.accounts.find((a) => a.name === 'BTC')?.balances.current).toBe(0);
    const start = Number(new URLSearchParams(fake.requests.find((r) => r.path === '/0/private/Ledgers')!.body).get('start'));
    expect(start).toBe(JUNE_1 + 3 * 86_400 - 1);
    // nothing new: only the cursor's own second is read again, to the same ids (which add nothing)
    const third = await connector.refresh(connection({ cursor: second.cursor }), TODAY, 2);
    expect(changes(third).upserted.map((t) => t.transaction_id)).toEqual(changes(second).upserted.map((t) => t.transaction_id));
  });

  it('sends strictly increasing nonces, and retries once when the exchange saw a larger one', async () => {
    await Promise.all([connector.accounts(connection(), TODAY), connector.accounts(connection(), TODAY), connector.initialHistory(connection(), TODAY)]);
    const nonces = fake.requests.filter((r) => r.method === 'POST').map((r) => BigInt(new URLSearchParams(r.body).get('nonce')!));
    expect(new Set(nonces).size).toBe(nonces.length);
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 200, body: { error: ['EAPI:Invalid nonce'] } } });
    await expect(connector.accounts(connection(), TODAY)).resolves.toHaveLength(5);
  });
});

describe('crypto_exchange_b: errors', () => {
  it('maps the exchange\u2019s rate-limit errors (in a 200 body) and HTTP 429 to rate_limited', async () => {
    fake.fail({ pathPrefix: '/0/private/Ledgers', response: { status: 200, body: { error: ['EAPI:Rate limit exceeded'] } } });
    expect((await failureOf(connector.initialHistory(connection(), TODAY))).kind).toBe('rate_limited');
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 200, body: { error: ['EGeneral:Too many requests'] } } });
    expect((await failureOf(connector.accounts(connection(), TODAY))).kind).toBe('rate_limited');
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 429, headers: { 'retry-after': '60' }, body: 'slow down' } });
    const err = await failureOf(connector.accounts(connection(), TODAY));
    expect([err.kind, err.details.retryAfterSeconds]).toEqual(['rate_limited', 60]);
  });

  it('maps service errors to provider_error and a revoked key to login_required', async () => {
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 200, body: { error: ['EService:Unavailable'] } } });
    expect((await failureOf(connector.accounts(connection(), TODAY))).kind).toBe('provider_error');
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 200, body: { error: ['EService:Busy'] } } });
    expect((await failureOf(connector.refresh(connection(), TODAY, 1))).kind).toBe('provider_error');
    fake.revokeKey(KEY.key);
    expect((await failureOf(connector.refresh(connection(), TODAY, 1))).kind).toBe('login_required');
    expect((await failureOf(connector.accounts(connection({ secrets: undefined }), TODAY))).kind).toBe('login_required');
  });

  it('fails the whole pull (no partial batch) when a ledger page keeps failing', async () => {
    const firstPage = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`L-P1-${i}`, { ...entry('x', JUNE_1 + i, 'trade', 'XXBT', '0.0010000000'), id: undefined }]));
    fake.fail({ pathPrefix: '/0/private/Ledgers', response: { status: 200, body: { error: [], result: { ledger: firstPage, count: 130 } } } });
    fake.fail({ pathPrefix: '/0/private/Ledgers', response: { status: 502, body: 'bad gateway' }, times: 10 });
    let batch: SourceBatch | undefined;
    const err = await failureOf(
      connector.initialHistory(connection(), TODAY).then((b) => {
        batch = b;
      }),
    );
    expect(err.kind).toBe('provider_error');
    expect(batch).toBeUndefined();
    const offsets = fake.requests.filter((r) => r.path === '/0/private/Ledgers').map((r) => new URLSearchParams(r.body).get('ofs'));
    expect(offsets).toEqual(['0', '50', '50', '50']);
    expect(sleeps).toEqual([250, 1000]);
  });

  it('never puts the API key or private key in an error message', async () => {
    const errors: ConnectorError[] = [];
    fake.fail({ pathPrefix: '/0/private/Balance', response: { status: 200, body: { error: ['EGeneral:Internal error'] } } });
    errors.push(await failureOf(connector.accounts(connection(), TODAY)));
    fake.revokeKey(KEY.key);
    errors.push(await failureOf(connector.refresh(connection(), TODAY, 1)));
    fake.fail({ response: { status: 500, body: 'down' }, times: 5 });
    errors.push(await failureOf(connector.accounts(connection(), TODAY)));
    for (const err of errors) for (const secret of [KEY.key, KEY.secret]) expect(err.message).not.toContain(secret);
  });
});

describe('crypto_exchange_b: hostile payloads', () => {
  const ledgerWith = (entries: Record<string, unknown>, count: unknown = Object.keys(entries).length) => ({ error: [], result: { ledger: entries, count } });
  const good = { refid: 'R', time: JUNE_1, type: 'deposit', subtype: '', aclass: 'currency', asset: 'ZUSD', amount: '1.00', fee: '0.00', balance: '1.00' };
  const cases: [string, string, unknown][] = [
    ['an amount sent as a number', '/0/private/Ledgers', ledgerWith({ L1: { ...good, amount: 1 } })],
    ['a time sent as a string', '/0/private/Ledgers', ledgerWith({ L1: { ...good, time: '1700000000' } })],
    ['a missing count', '/0/private/Ledgers', ledgerWith({ L1: good }, null)],
    ['a page far larger than 50 entries', '/0/private/Ledgers', ledgerWith(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`L${i}`, good])), 5000)],
    ['an asset code that is not one', '/0/private/Ledgers', ledgerWith({ L1: { ...good, asset: '<script>' } })],
    ['a balance that is not a decimal', '/0/private/Balance', { error: [], result: { XXBT: 'lots' } }],
    ['an error field that is not a list', '/0/private/Balance', { error: 'EAPI:Invalid key', result: {} }],
    ['a body that is not JSON', '/0/private/Balance', 'not json'],
  ];
  it.each(cases)('answers provider_error for %s', async (_label, path, body) => {
    fake.override(path, body);
    expect((await failureOf(connector.initialHistory(connection(), TODAY))).kind).toBe('provider_error');
  });

  it('stops a ledger that never ends instead of reading forever', async () => {
    fake.override('/0/private/Ledgers', ledgerWith({ L1: good }, 1_000_000_000));
    expect((await failureOf(connector.initialHistory(connection(), TODAY))).message).toMatch(/did not end after 400 pages/);
  });

  it('answers provider_error for a ticker without a close price', async () => {
    fake.override('/0/public/Ticker', { error: [], result: { XXBTZUSD: { a: ['1'] } } });
    expect((await failureOf(connector.investments(connection(), { today: TODAY, accounts: [] }))).kind).toBe('provider_error');
  });
});

describe('crypto_exchange_b: products', () => {
  it('reports crypto balances as holdings valued at the USD ticker close (0 without a USD pair)', async () => {
    const investments = await connector.investments(connection(), { today: TODAY, accounts: [] });
    for (const h of investments.holdings) expect(Holding.safeParse(h).success).toBe(true);
    expect(investments.holdings.map((h) => [h.security.ticker, h.quantity, h.security.close_price, h.value])).toEqual([
      ['BTC', 0.5, 60000, 30000],
      ['DOT', 10, 5.5, 55],
      ['USDC', 250, 1.0001, 250.03],
      ['ABCD', 3, 0, 0],
    ]);
    expect(investments.investment_transactions).toEqual([]);
    expect(fake.requests.filter((r) => r.path === '/0/public/Ticker')).toHaveLength(1);
  });

  it('does not offer identity or liabilities', async () => {
    expect((await failureOf(connector.identity(connection(), { today: TODAY, accounts: [] }))).kind).toBe('provider_error');
    expect((await failureOf(connector.liabilities(connection(), { today: TODAY, accounts: [] }))).kind).toBe('provider_error');
  });
});
