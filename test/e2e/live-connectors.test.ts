// Live keys through Link and the item routes, over real HTTP, against the provider fakes: an API key
// (crypto_exchange_b), a public wallet address (crypto_wallet_public) and an OAuth redirect with
// PKCE (crypto_exchange_a) each connect an item whose history loads from the fake; failures at the
// provider reach the item's health (last_sync_error, login_required with item.error); removal
// revokes the consent at the provider; and no secret the user or the provider handed us shows up
// in an answer, a log line or the item's row, where it is stored only sealed.
import { manualClock } from '../support/embedded';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import type * as StackModule from '../support/stack';
import type * as ItemsRepoModule from '../../functions/data/items-repo';
import type * as KeysModule from '../../functions/data/keys';
import type * as WebhooksRepoModule from '../../functions/data/webhooks-repo';
import type * as DocumentClientModule from '../../functions/platform/aws/dynamodb';
import { makeKey as makeExchangeBKey, startCryptoExchangeBFake, type CryptoExchangeBFake, type FakeLedgerEntry } from '../support/provider-fakes/crypto_exchange_b';
import { CLIENT_ID as EXCHANGE_A_CLIENT_ID, CLIENT_SECRET as EXCHANGE_A_CLIENT_SECRET, startCryptoExchangeAFake, type CryptoExchangeAFake } from '../support/provider-fakes/crypto_exchange_a';
import { FAKE_ETHERSCAN_KEY, fakeTxid, startCryptoWalletFake, type CryptoWalletFake } from '../support/provider-fakes/crypto_wallet_public';

/** The service's day is 2026-07-01: the fakes' data sits inside the connectors' 24-month window. */
const clock = manualClock(Date.UTC(2026, 6, 1, 12, 0, 0));
/** 2026-06-01T00:00:00Z in the exchange's seconds. */
const JUNE_1 = Date.UTC(2026, 5, 1) / 1000;
const unix = (iso: string) => Date.parse(iso) / 1000;

const EXCHANGE_B = 'ins_kraken';
const EXCHANGE_A = 'ins_coinbase';
const BITCOIN_WALLET = 'ins_bitcoin_wallet';
const BTC_ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const OTHER_BTC_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
/** The address above with its last character changed: its base58 checksum fails. */
const MALFORMED_BTC_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb';
/** Every token the exchange A fake issues has this shape (access-<n>-aaaa…, refresh-<n>-rrrr…). */
const EXCHANGE_A_TOKEN = /(?:access-\d+-a{16}|refresh-\d+-r{16})/;

const exchangeBKey = makeExchangeBKey('live-e2e-user');

// The stack's modules (its route handlers too, which it requires as it starts) are loaded in their
// own registry with logging on: the test environment silences the logger, which reads its level
// when it is constructed. Every line the stack writes can then be captured and checked for secrets.
let itemsRepo: typeof ItemsRepoModule;
let keysModule: typeof KeysModule;
let documentClient: typeof DocumentClientModule;
let webhooksRepo: typeof WebhooksRepoModule;
let liveKey: string;
let stack: StackModule.TestStack;
let exchangeB: CryptoExchangeBFake;
let exchangeA: CryptoExchangeAFake;
let wallet: CryptoWalletFake;

/** Every response body the tests received, and every line the process wrote (logs included). */
const responseBodies: string[] = [];
const written: string[] = [];
/** Every event the stack published. */
const publishedEventIds: string[] = [];

const ledgerEntry = (id: string, time: number, type: string, asset: string, amount: string, fee = '0.0000'): FakeLedgerEntry => ({
  id,
  refid: `REF-${id}`,
  time,
  type,
  subtype: '',
  aclass: 'currency',
  asset,
  amount,
  fee,
  balance: '0',
});

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' ')));
  }
  [exchangeB, exchangeA, wallet] = await Promise.all([startCryptoExchangeBFake(), startCryptoExchangeAFake(), startCryptoWalletFake()]);

  exchangeB.addKey(exchangeBKey);
  Object.assign(exchangeB.balances, { XXBT: '0.5000000000', ZUSD: '1000.5000' });
  Object.assign(exchangeB.tickers, { XXBTZUSD: '60000.00000' });
  exchangeB.ledger.push(
    ledgerEntry('L-DEP', JUNE_1, 'deposit', 'ZUSD', '1000.0000'),
    ledgerEntry('L-TRADE-USD', JUNE_1 + 3600, 'trade', 'ZUSD', '-500.0000', '1.3000'),
    ledgerEntry('L-TRADE-BTC', JUNE_1 + 3600, 'trade', 'XXBT', '0.0100000000'),
    ledgerEntry('L-WD', JUNE_1 + 86_400, 'withdrawal', 'XXBT', '-0.0020000000', '0.0001000000'),
  );

  exchangeA.wallets.push(
    { id: 'w-usd', name: 'USD Wallet', type: 'fiat', currency: { code: 'USD', name: 'US Dollar', type: 'fiat' }, balance: { amount: '250.50', currency: 'USD' }, native_balance: { amount: '250.50', currency: 'USD' } },
    { id: 'w-btc', name: 'BTC Wallet', type: 'wallet', currency: { code: 'BTC', name: 'Bitcoin', type: 'crypto' }, balance: { amount: '0.12500000', currency: 'BTC' }, native_balance: { amount: '7500.00', currency: 'USD' } },
  );
  exchangeA.transactions['w-btc'] = [
    { id: 'btc-buy', type: 'buy', status: 'completed', amount: { amount: '0.05000000', currency: 'BTC' }, native_amount: { amount: '3000.00', currency: 'USD' }, description: null, created_at: '2026-06-20T10:00:00Z', details: { title: 'Bought Bitcoin', subtitle: 'Using USD Wallet' } },
  ];
  exchangeA.transactions['w-usd'] = [
    { id: 'usd-deposit', type: 'fiat_deposit', status: 'completed', amount: { amount: '500.00', currency: 'USD' }, native_amount: { amount: '500.00', currency: 'USD' }, description: null, created_at: '2026-06-01T09:00:00Z', details: { title: 'Deposited funds', subtitle: 'From bank' } },
  ];

  wallet.state.btc = [
    { txid: fakeTxid('live-receipt'), height: 900_000, time: unix('2026-06-15T12:00:00Z'), vin: [{ address: OTHER_BTC_ADDRESS, value: 123_457_289 }], vout: [{ address: BTC_ADDRESS, value: 123_456_789 }], fee: 500 },
  ];

  const levelBefore = process.env.POWERTOOLS_LOG_LEVEL;
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  await jest.isolateModulesAsync(async () => {
    /* eslint-disable @typescript-eslint/no-require-imports -- fresh module instances with the log level above */
    const stackModule = require('../support/stack') as typeof StackModule;
    itemsRepo = require('../../functions/data/items-repo') as typeof ItemsRepoModule;
    keysModule = require('../../functions/data/keys') as typeof KeysModule;
    documentClient = require('../../functions/platform/aws/dynamodb') as typeof DocumentClientModule;
    webhooksRepo = require('../../functions/data/webhooks-repo') as typeof WebhooksRepoModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    liveKey = stackModule.makeKey('live');
    stack = await stackModule.startTestStack([{ application: 'Acme', plan: 'enterprise', keys: [liveKey] }], {
      clock,
      connectorEnv: {
        CRYPTO_EXCHANGE_B_ENABLED: 'true',
        CRYPTO_EXCHANGE_B_BASE_URL: exchangeB.url,
        CRYPTO_EXCHANGE_A_CLIENT_ID: EXCHANGE_A_CLIENT_ID,
        CRYPTO_EXCHANGE_A_CLIENT_SECRET: EXCHANGE_A_CLIENT_SECRET,
        CRYPTO_EXCHANGE_A_BASE_URL: exchangeA.url,
        CRYPTO_EXCHANGE_A_AUTH_URL: exchangeA.url,
        CRYPTO_WALLET_PUBLIC_EVM_API_KEY: FAKE_ETHERSCAN_KEY,
        CRYPTO_WALLET_PUBLIC_BTC_BASE_URL: wallet.btcBaseUrl,
        CRYPTO_WALLET_PUBLIC_EVM_BASE_URL: wallet.evmBaseUrl,
      },
    });
  });
  process.env.POWERTOOLS_LOG_LEVEL = levelBefore;
  // A live webhook endpoint must be a public https URL, so the events the stack emits are read from
  // its event bus instead of a loopback receiver.
  const bus = stack.deps.ports.eventBus;
  const publish = bus.publish.bind(bus);
  bus.publish = async (eventId) => {
    publishedEventIds.push(eventId);
    await publish(eventId);
  };
});

afterAll(async () => {
  await stack?.stop();
  await Promise.all([exchangeB?.close(), exchangeA?.close(), wallet?.close()]);
  jest.restoreAllMocks();
});

// Every test starts in a fresh rate-limit window of the Link page's API.
beforeEach(() => clock.advance(60_000));

async function post(path: string, body: unknown) {
  const res = await stack.call(path, { body, key: path.startsWith('/link/api/') ? null : liveKey });
  responseBodies.push(res.text);
  assertMatchesOpenApi('POST', path, res);
  return res;
}

const linkApi = (route: string, body: Record<string, unknown>) => post(`/link/api/${route}`, body);

async function linkToken(): Promise<string> {
  const res = await post('/v1/link/token/create', { user: { client_user_id: 'live-user-1' }, products: ['transactions'] });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

/** Exchanges a Link answer's public token and waits for the history load Link queued. */
async function exchangeAndLoad(connected: { json: Record<string, unknown> }): Promise<{ accessToken: string; itemId: string }> {
  const exchanged = await post('/v1/link/token/exchange', { public_token: connected.json.public_token });
  expect(exchanged.status).toBe(200);
  const itemId = exchanged.json.item_id as string;
  await stack.historyLoaded(itemId);
  return { accessToken: exchanged.json.access_token as string, itemId };
}

async function itemOf(accessToken: string) {
  const res = await post('/v1/items/get', { access_token: accessToken });
  expect(res.status).toBe(200);
  return res.json.item as Record<string, unknown> & { last_sync_error: { code: string; message: string } | null; error: { code: string } | null };
}

interface SyncedTransaction {
  name: string;
  amount: number;
  iso_currency_code: string;
  date: string;
}

async function syncedTransactions(accessToken: string): Promise<SyncedTransaction[]> {
  const sync = await post('/v1/transactions/sync', { access_token: accessToken, count: 500 });
  expect(sync.status).toBe(200);
  return sync.json.added as SyncedTransaction[];
}

async function accountsOf(accessToken: string) {
  const res = await post('/v1/accounts/get', { access_token: accessToken });
  expect(res.status).toBe(200);
  return (res.json.accounts as { name: string; type: string; balances: { current: number; iso_currency_code: string } }[]).map((a) => [a.name, a.type, a.balances.current, a.balances.iso_currency_code]);
}

const byDateThenAmount = (a: SyncedTransaction, b: SyncedTransaction) => a.date.localeCompare(b.date) || a.amount - b.amount;

/** The item's row as DynamoDB holds it. */
async function storedRow(itemId: string): Promise<Record<string, unknown>> {
  const { Item } = await stack.deps.ddb.send(new documentClient.GetCommand({ TableName: stack.deps.config.tableName, Key: keysModule.keys.item(itemId) }));
  if (!Item) throw new Error(`no row for ${itemId}`);
  return Item;
}

function expectSealedOnly(row: Record<string, unknown>, plaintexts: string[]) {
  const sealed = row.provider_secrets as Record<string, unknown>;
  expect(Object.keys(sealed).sort()).toEqual(['ct', 'iv', 'kid', 'tag', 'v', 'wk']);
  expect(sealed.v).toBe(1);
  const whole = JSON.stringify(row);
  for (const secret of plaintexts) expect(whole).not.toContain(secret);
  expect(whole).not.toMatch(EXCHANGE_A_TOKEN);
}

/** Items the flows below connect and later tests act on. */
const connected: { exchangeB?: { accessToken: string; itemId: string }; exchangeA?: { accessToken: string; itemId: string } } = {};
/** Every access and refresh token exchange A issued to the service, as its token endpoint answered them. */
const issuedExchangeATokens = new Set<string>();
const rememberExchangeATokens = () => {
  issuedExchangeATokens.add(exchangeA.current.access_token);
  issuedExchangeATokens.add(exchangeA.current.refresh_token);
};

describe('api_key consent (crypto_exchange_b)', () => {
  it('connects a read-only key, loads its ledger and serves the exchange\u2019s accounts and transactions', async () => {
    const token = await linkToken();
    const method = await linkApi('method', { link_token: token, institution_id: EXCHANGE_B });
    expect([method.status, method.json]).toEqual([200, { institution_id: EXCHANGE_B, method: 'api_key', file_upload: false }]);

    const consent = await linkApi('consent', { link_token: token, institution_id: EXCHANGE_B, api_key: exchangeBKey.key, api_secret: exchangeBKey.secret });
    expect([consent.status, consent.json.status]).toEqual([200, 'connected']);
    expect(consent.json.public_token).toEqual(expect.any(String));

    const { accessToken, itemId } = await exchangeAndLoad(consent);
    connected.exchangeB = { accessToken, itemId };
    const item = await itemOf(accessToken);
    expect([item.connector, item.status, item.transactions_update_status, item.last_sync_error]).toEqual(['crypto_exchange_b', 'healthy', 'historical_update_complete', null]);

    expect((await accountsOf(accessToken)).sort()).toEqual([
      ['BTC', 'crypto', 0.5, 'BTC'],
      ['USD', 'depository', 1000.5, 'USD'],
    ]);
    const added = await syncedTransactions(accessToken);
    // Balance change less fee, money out positive: the deposit comes in, the trade's USD leg goes out.
    expect(added.sort(byDateThenAmount).map((t) => [t.date, t.amount, t.iso_currency_code])).toEqual([
      ['2026-06-01', -1000, 'USD'],
      ['2026-06-01', -0.01, 'BTC'],
      ['2026-06-01', 501.3, 'USD'],
      ['2026-06-02', 0.0021, 'BTC'],
    ]);
  });

  it('refuses a key the exchange does not honour with the adapter\u2019s message, and counts the attempt', async () => {
    const token = await linkToken();
    const unknown = makeExchangeBKey('not-registered-at-the-exchange');
    const refused = await linkApi('consent', { link_token: token, institution_id: EXCHANGE_B, api_key: unknown.key, api_secret: unknown.secret });
    expect([refused.status, refused.json.error.type, refused.json.error.code]).toEqual([400, 'item_error', 'invalid_credentials']);
    // The adapter's word on what to fix (the key's permissions), not the generic password message.
    expect(refused.json.error.message).toContain('"Query Funds" and "Query Ledger Entries"');
    expect(refused.json.error.message).toMatch(/\d+ attempts? left\.$/);
    expect((await itemsRepo.getLinkSession(stack.deps, token))?.failedAttempts).toBe(1);
  });
});

describe('address consent (crypto_wallet_public)', () => {
  it('refuses a malformed address before any request reaches the indexer', async () => {
    const token = await linkToken();
    const method = await linkApi('method', { link_token: token, institution_id: BITCOIN_WALLET });
    expect(method.json.method).toBe('address');
    wallet.requests.length = 0;
    const refused = await linkApi('consent', { link_token: token, institution_id: BITCOIN_WALLET, address: MALFORMED_BTC_ADDRESS });
    expect([refused.status, refused.json.error.code]).toEqual([400, 'invalid_credentials']);
    expect(refused.json.error.message).toMatch(/checksum/);
    expect(wallet.requests).toEqual([]);
  });

  it('connects a valid address and serves its balance and transfers from the indexer', async () => {
    const token = await linkToken();
    const consent = await linkApi('consent', { link_token: token, institution_id: BITCOIN_WALLET, address: BTC_ADDRESS });
    expect([consent.status, consent.json.status]).toEqual([200, 'connected']);
    const { accessToken } = await exchangeAndLoad(consent);
    const item = await itemOf(accessToken);
    expect([item.connector, item.transactions_update_status]).toEqual(['crypto_wallet_public', 'historical_update_complete']);
    expect((await accountsOf(accessToken)).map(([, type, current, currency]) => [type, current, currency])).toEqual([['crypto', 1.23456789, 'BTC']]);
    const added = await syncedTransactions(accessToken);
    expect(added.map((t) => [t.date, t.amount, t.iso_currency_code])).toEqual([['2026-06-15', -1.23456789, 'BTC']]);
    expect(wallet.requests.some((r) => r.path === `/btc/address/${BTC_ADDRESS}`)).toBe(true);
  });
});

describe('oauth consent (crypto_exchange_a)', () => {
  it('sends the user to the exchange with our state, and connects with the code the exchange redirects back with', async () => {
    const token = await linkToken();
    const method = await linkApi('method', { link_token: token, institution_id: EXCHANGE_A });
    expect(method.json.method).toBe('oauth');

    const started = await linkApi('oauth/start', { link_token: token, institution_id: EXCHANGE_A });
    expect(started.status).toBe(200);
    const authorize = new URL(started.json.authorize_url as string);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${exchangeA.url}/oauth2/auth`);
    const state = authorize.searchParams.get('state') ?? '';
    const redirectUri = authorize.searchParams.get('redirect_uri') ?? '';
    expect(state.length).toBeGreaterThanOrEqual(32);
    expect(redirectUri).toMatch(/\/link\/oauth\/callback$/);
    expect(authorize.searchParams.get('client_id')).toBe(EXCHANGE_A_CLIENT_ID);

    // The user consents at the exchange, which redirects to the callback; the page posts what came back.
    const code = exchangeA.issueCode(authorize.searchParams.get('code_challenge') ?? '', redirectUri);
    const completed = await linkApi('oauth/complete', { link_token: token, state, code });
    expect([completed.status, completed.json.status]).toEqual([200, 'connected']);
    rememberExchangeATokens();

    const { accessToken, itemId } = await exchangeAndLoad(completed);
    connected.exchangeA = { accessToken, itemId };
    const item = await itemOf(accessToken);
    expect([item.connector, item.status, item.transactions_update_status]).toEqual(['crypto_exchange_a', 'healthy', 'historical_update_complete']);
    expect((await accountsOf(accessToken)).sort()).toEqual([
      ['BTC Wallet', 'crypto', 0.125, 'BTC'],
      ['USD Wallet', 'depository', 250.5, 'USD'],
    ]);
    const added = await syncedTransactions(accessToken);
    expect(added.sort(byDateThenAmount).map((t) => [t.date, t.amount, t.iso_currency_code])).toEqual([
      ['2026-06-01', -500, 'USD'],
      ['2026-06-20', -0.05, 'BTC'],
    ]);
  });
});

describe('provider failures reach the item\u2019s health', () => {
  it('records a rate-limited refresh as last_sync_error and keeps the item healthy; the next good pull clears it', async () => {
    const { accessToken, itemId } = connected.exchangeB ?? missing('the api_key flow did not connect an item');
    exchangeB.fail({ response: { status: 429, headers: { 'retry-after': '120' }, body: 'slow down' } });
    const refresh = await post('/v1/items/refresh', { access_token: accessToken });
    expect(refresh.status).toBe(200);
    await stack.background.idle();
    const limited = await itemOf(accessToken);
    expect([limited.status, limited.last_sync_error?.code]).toEqual(['healthy', 'provider_error']);
    expect(limited.last_sync_error?.message).toMatch(/120 s/);
    // The next try is due when the provider said, not a whole plan interval later.
    const { Item: due } = await stack.deps.ddb.send(new documentClient.GetCommand({ TableName: stack.deps.config.tableName, Key: keysModule.keys.refreshDue(itemId) }));
    expect(due?.due_at).toBe(stack.deps.clock.now() + 120_000);

    await post('/v1/items/refresh', { access_token: accessToken });
    await stack.background.idle();
    // A good pull that found nothing new still counts as a successful sync (written with the next
    // refresh's schedule, not as a write of its own).
    const healed = await itemOf(accessToken);
    expect([healed.last_sync_error, healed.last_successful_sync]).toEqual([null, new Date(clock.now()).toISOString()]);
  });

  it('renews an expired access token during a refresh and stores the rotated pair sealed', async () => {
    const { accessToken, itemId } = connected.exchangeA ?? missing('the oauth flow did not connect an item');
    const before = { ...exchangeA.current };
    exchangeA.expireAccessToken();
    await post('/v1/items/refresh', { access_token: accessToken });
    await stack.background.idle();
    rememberExchangeATokens();
    expect(exchangeA.current.refresh_token).not.toBe(before.refresh_token);
    const item = await itemOf(accessToken);
    expect([item.status, item.last_sync_error]).toEqual(['healthy', null]);
    expectSealedOnly(await storedRow(itemId), [...issuedExchangeATokens]);
  });

  it('moves the item to login_required, with its item.error event, when the exchange revokes the grant', async () => {
    const { accessToken, itemId } = connected.exchangeA ?? missing('the oauth flow did not connect an item');
    exchangeA.revoke();
    await post('/v1/items/refresh', { access_token: accessToken });
    await stack.background.idle();
    const item = await itemOf(accessToken);
    expect([item.status, item.error?.code, item.last_sync_error?.code]).toEqual(['login_required', 'item_login_required', 'item_login_required']);
    const events = await Promise.all(publishedEventIds.map((id) => webhooksRepo.getEvent(stack.deps, id)));
    expect(events.filter((e) => e?.type === 'item.error' && e.data.item_id === itemId).map((e) => e?.data.error)).toEqual([expect.objectContaining({ code: 'item_login_required' })]);
    // Cached data keeps serving while the login is broken.
    expect(await syncedTransactions(accessToken)).toHaveLength(2);
  });
});

describe('items.remove of a live item', () => {
  it('revokes the grant at the exchange and removes the item', async () => {
    const { accessToken } = connected.exchangeA ?? missing('the oauth flow did not connect an item');
    exchangeA.requests.length = 0;
    const removed = await post('/v1/items/remove', { access_token: accessToken });
    expect([removed.status, removed.json]).toEqual([200, { removed: true }]);
    const revocation = exchangeA.requests.find((r) => r.method === 'POST' && r.path === '/oauth2/revoke');
    expect(revocation?.parsed).toMatchObject({ client_id: EXCHANGE_A_CLIENT_ID });
    expect(issuedExchangeATokens.has((revocation?.parsed as { token?: string } | undefined)?.token ?? '')).toBe(true);
    const gone = await post('/v1/items/get', { access_token: accessToken });
    expect(gone.status).toBe(400);
    expect(gone.json.error.code).toBe('invalid_access_token');
  });

  it('removes an item whose connector has nothing to revoke', async () => {
    const { accessToken } = connected.exchangeB ?? missing('the api_key flow did not connect an item');
    const removed = await post('/v1/items/remove', { access_token: accessToken });
    expect([removed.status, removed.json]).toEqual([200, { removed: true }]);
    expect((await post('/v1/items/get', { access_token: accessToken })).json.error.code).toBe('invalid_access_token');
  });
});

describe('secrets', () => {
  it('are held in the item row only sealed', async () => {
    const token = await linkToken();
    const consent = await linkApi('consent', { link_token: token, institution_id: EXCHANGE_B, api_key: exchangeBKey.key, api_secret: exchangeBKey.secret });
    expect(consent.json.status).toBe('connected');
    const { itemId } = await exchangeAndLoad(consent);
    expectSealedOnly(await storedRow(itemId), [exchangeBKey.key, exchangeBKey.secret]);
  });

  it('never appear in an answer or a log line of the flows above', () => {
    const secrets = [exchangeBKey.key, exchangeBKey.secret, EXCHANGE_A_CLIENT_SECRET, liveKey, ...issuedExchangeATokens];
    expect(issuedExchangeATokens.size).toBeGreaterThanOrEqual(4);
    // The capture works: the stack logged the failures above.
    expect(written.join('')).toMatch(/connector call failed/);
    for (const [label, texts] of [['answers', responseBodies], ['log lines', written]] as const) {
      for (const text of texts) {
        for (const secret of secrets) if (text.includes(secret)) throw new Error(`${label} hold a secret: ${text.slice(0, 300)}`);
        expect(text).not.toMatch(EXCHANGE_A_TOKEN);
      }
    }
  });
});

function missing(message: string): never {
  throw new Error(message);
}
