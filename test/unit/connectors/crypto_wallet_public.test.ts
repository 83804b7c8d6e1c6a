// The public-address wallet reader against loopback fakes of Esplora and Etherscan API V2:
// address validation (checksums), balances, transfers with signs and fees, pagination,
// incremental refresh, the indexers' documented failures, and hostile payloads.
import { ConnectorError, type Connection, type ConnectorPort, type SourceBatch } from '../../../functions/core/connector-port';
import { checkAddress, eip55 } from '../../../functions/connectors/crypto_wallet_public/address';
import { createCryptoWalletPublicConnector } from '../../../functions/connectors/crypto_wallet_public';
import { keccak256Hex } from '../../../functions/connectors/crypto_wallet_public/keccak';
import { toDecimal } from '../../../functions/connectors/crypto_wallet_public/payload';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { Account, Holding } from '../../../functions/contracts/schemas';
import { FAKE_ETHERSCAN_KEY, fakeEthHash, fakeTxid, startCryptoWalletFake, type CryptoWalletFake, type FakeBtcTx } from '../../support/provider-fakes/crypto_wallet_public';

const TODAY = '2026-03-01';
const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const OTHER_BTC = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const ETH = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const OTHER_ETH = '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359';
const unix = (iso: string) => Date.parse(iso) / 1000;

let fake: CryptoWalletFake;
let sleeps: number[];
let connector: ConnectorPort;

function build(overrides: Record<string, string> = {}): ConnectorPort {
  return createCryptoWalletPublicConnector({
    config: { CRYPTO_WALLET_PUBLIC_EVM_API_KEY: FAKE_ETHERSCAN_KEY, CRYPTO_WALLET_PUBLIC_BTC_BASE_URL: fake.btcBaseUrl, CRYPTO_WALLET_PUBLIC_EVM_BASE_URL: fake.evmBaseUrl, ...overrides },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
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
const btcConnection: Connection = { institutionId: 'ins_bitcoin_wallet', login: BTC };
const ethConnection: Connection = { institutionId: 'ins_ethereum_wallet', login: ETH };

/** A confirmed receipt of `sats` to the address at `height`, `daysAgo` days before TODAY. */
const receipt = (seed: string, height: number, date: string, sats: number): FakeBtcTx => ({ txid: fakeTxid(seed), height, time: unix(`${date}T12:00:00Z`), vin: [{ address: OTHER_BTC, value: sats + 500 }], vout: [{ address: BTC, value: sats }], fee: 500 });

beforeEach(async () => {
  fake = await startCryptoWalletFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

describe('address validation', () => {
  test('keccak-256 matches the published vectors (not SHA3-256)', () => {
    expect(keccak256Hex('')).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(keccak256Hex('abc')).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // longer than one 136-byte block
    expect(keccak256Hex('a'.repeat(200))).toMatch(/^[0-9a-f]{64}$/);
    expect(keccak256Hex('a'.repeat(200))).not.toBe(keccak256Hex('a'.repeat(199)));
  });

  test('EIP-55 vectors round-trip', () => {
    for (const address of ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359', '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb']) {
      expect(eip55(address.slice(2))).toBe(address);
      expect(checkAddress(address)).toEqual({ ok: true, chain: 'ethereum', address: address.toLowerCase() });
    }
  });

  test.each([
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', BTC],
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', BTC],
    ['bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    ['  0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed ', ETH],
    ['0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED', ETH],
  ])('accepts %s', (input, normalised) => {
    expect(checkAddress(input)).toMatchObject({ ok: true, address: normalised });
  });

  test.each([
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /checksum/],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7Divf0a', /base58/],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /checksum/],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4', /mixes upper and lower case/],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', /mainnet/],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', /mainnet/],
    ['0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', /EIP-55/],
    ['0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea', /40 hexadecimal/],
    ['hello', /not a Bitcoin address/],
    ['', /Paste/],
  ])('refuses %s', (input, reason) => {
    const checked = checkAddress(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.reason).toMatch(reason);
  });

  test('a bech32m checksum on a version 0 program is refused (BIP-350)', () => {
    // the taproot vector with its witness version changed from 1 (p) to 0 (q) keeps the bech32m checksum
    const checked = checkAddress('bc1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0');
    expect(checked.ok).toBe(false);
  });
});

test('base units convert to decimals exactly, beyond 2^53', () => {
  expect(toDecimal(9_007_199_254_740_993n, 18)).toBe(Number('0.009007199254740993'));
  expect(toDecimal(-150_000_000n, 8)).toBe(-1.5);
  expect(toDecimal(0n, 8)).toBe(0);
  expect(Object.is(toDecimal(-0n, 8), -0)).toBe(false);
});

describe('crypto_wallet_public: Link', () => {
  test('connect validates before any call, normalises the address and checks the chain against the institution', async () => {
    expect(await connector.connect!('ins_bitcoin_wallet', { method: 'address', address: 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4' })).toEqual({ status: 'connected', connection: { institutionId: 'ins_bitcoin_wallet', login: BTC } });
    expect(await connector.connect!('ins_ethereum_wallet', { method: 'address', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toEqual({ status: 'connected', connection: { institutionId: 'ins_ethereum_wallet', login: ETH } });
    expect(await connector.connect!('ins_bitcoin_wallet', { method: 'address', address: ETH })).toMatchObject({ status: 'invalid_credentials', message: expect.stringMatching(/Ethereum address/) });
    expect(await connector.connect!('ins_bitcoin_wallet', { method: 'address', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb' })).toMatchObject({ status: 'invalid_credentials', message: expect.stringMatching(/checksum/) });
    expect(await connector.connect!('ins_bitcoin_wallet', { method: 'api_key', apiKey: 'k', apiSecret: 's' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login('ins_bitcoin_wallet', { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('crypto_wallet_public: Bitcoin (Esplora)', () => {
  test('the balance counts confirmed value plus the mempool; available excludes unconfirmed receipts', async () => {
    fake.state.btc = [
      { txid: fakeTxid('mempool-in'), height: null, time: null, vin: [{ address: OTHER_BTC, value: 30_000 }], vout: [{ address: BTC, value: 25_000 }], fee: 5_000 },
      receipt('r1', 800_000, '2026-02-01', 123_456_789),
    ];
    const [account] = await connector.accounts(btcConnection, TODAY);
    expect(Account.safeParse(account).success).toBe(true);
    expect(account).toMatchObject({ type: 'crypto', subtype: 'bitcoin', mask: 'f3t4', balances: { current: 1.23481789, available: 1.23456789, iso_currency_code: 'BTC', limit: null } });
  });

  test('initial history follows the pages, signs sends (fee included) and receipts, marks unconfirmed pending and stops at 24 months', async () => {
    const confirmed: FakeBtcTx[] = Array.from({ length: 60 }, (_, i) => receipt(`c${i}`, 900_000 - i * 100, `2026-02-${String(27 - (i % 27)).padStart(2, '0')}`, 1_000 + i));
    const send: FakeBtcTx = { txid: fakeTxid('send'), height: 900_050, time: unix('2026-02-28T08:00:00Z'), vin: [{ address: BTC, value: 100_000 }], vout: [{ address: OTHER_BTC, value: 60_000 }, { address: BTC, value: 39_000 }], fee: 1_000 };
    const pending: FakeBtcTx = { txid: fakeTxid('pending'), height: null, time: null, vin: [{ address: OTHER_BTC, value: 10_000 }], vout: [{ address: BTC, value: 9_000 }], fee: 1_000 };
    const old = receipt('old', 700_000, '2023-01-01', 5_000);
    fake.state.btc = [pending, send, ...confirmed, old];
    const batch = await connector.initialHistory(btcConnection, TODAY);
    const txs = upserted(batch);
    expect(txs).toHaveLength(62);
    const sent = txs.find((t) => t.name.startsWith('BTC sent'));
    expect(sent).toMatchObject({ amount: 0.00061, date: '2026-02-28', pending: false, iso_currency_code: 'BTC' });
    expect(txs.find((t) => t.pending)).toMatchObject({ amount: -0.00009, date: TODAY, name: 'BTC received' });
    expect(txs.every((t) => !t.transaction_id.includes(fakeTxid('send').slice(0, 12)))).toBe(true);
    const paths = fake.requests.map((r) => r.path).filter((p) => p.includes('/txs'));
    expect(paths[0]).toBe(`/btc/address/${BTC}/txs`);
    expect(paths.slice(1).every((p) => p.startsWith(`/btc/address/${BTC}/txs/chain/`))).toBe(true);
    expect(paths).toHaveLength(3);
    expect(JSON.parse(batch.cursor!)).toEqual({ chain: 'bitcoin', height: 900_050, pending: [fakeTxid('pending')] });
  });

  test('refresh reads back to the cursor only, confirms a pending transaction and removes a dropped one', async () => {
    const confirmedNow: FakeBtcTx = { txid: fakeTxid('was-pending'), height: 900_101, time: unix('2026-03-01T09:00:00Z'), vin: [{ address: OTHER_BTC, value: 10_000 }], vout: [{ address: BTC, value: 9_000 }], fee: 1_000 };
    fake.state.btc = [confirmedNow, ...Array.from({ length: 80 }, (_, i) => receipt(`h${i}`, 900_000 - i * 10, '2026-02-20', 1_000))];
    const cursor = JSON.stringify({ chain: 'bitcoin', height: 900_000, pending: [fakeTxid('was-pending'), fakeTxid('dropped')] });
    const batch = await connector.refresh({ ...btcConnection, cursor }, TODAY, 1);
    const ids = upserted(batch).map((t) => t.transaction_id);
    const [confirmedTx] = upserted(batch).filter((t) => t.date === TODAY);
    expect(confirmedTx).toMatchObject({ pending: false, amount: -0.00009 });
    // the one within the reorg depth below the cursor is re-read, nothing older
    expect(ids).toHaveLength(2);
    expect(removed(batch)).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path.includes('/txs/chain/'))).toHaveLength(0);
    expect(JSON.parse(batch.cursor!)).toMatchObject({ height: 900_101, pending: [] });
  });

  test('a repeated pagination cursor and a failing page fail the pull', async () => {
    fake.state.btc = Array.from({ length: 60 }, (_, i) => receipt(`p${i}`, 900_000 - i, '2026-02-20', 1_000));
    const firstPage = fake.state.btc.slice(0, 25);
    fake.state.intercept = (req) =>
      req.path.includes('/txs/chain/')
        ? { status: 200, body: [firstPage.at(-1)!].map((tx) => ({ txid: tx.txid, vin: [], vout: [], fee: 0, status: { confirmed: true, block_height: tx.height, block_time: tx.time } })) }
        : undefined;
    expect(await rejection(connector.initialHistory(btcConnection, TODAY))).toMatchObject({ kind: 'provider_error', message: expect.stringMatching(/repeated/) });

    fake.state.intercept = (req) => (req.path.includes('/txs/chain/') ? { status: 502, body: 'Bad Gateway' } : undefined);
    expect(await rejection(connector.initialHistory(btcConnection, TODAY))).toMatchObject({ kind: 'provider_error' });
    expect(sleeps.length).toBeGreaterThan(0);
  });

  test('429 is rate_limited; hostile payloads are provider_error naming the field', async () => {
    fake.fail({ pathPrefix: '/btc/address', times: 3, response: { status: 429, body: 'Too Many Requests' } });
    expect(await rejection(connector.accounts(btcConnection, TODAY))).toMatchObject({ kind: 'rate_limited' });

    const hostile: [unknown, RegExp][] = [
      [{ chain_stats: { funded_txo_sum: '100', spent_txo_sum: 0, tx_count: 1 }, mempool_stats: { funded_txo_sum: 0, spent_txo_sum: 0, tx_count: 0 } }, /chain_stats\.funded_txo_sum/],
      [{ chain_stats: { funded_txo_sum: 1e300, spent_txo_sum: 0, tx_count: 1 }, mempool_stats: { funded_txo_sum: 0, spent_txo_sum: 0, tx_count: 0 } }, /funded_txo_sum/],
      [{}, /chain_stats/],
    ];
    for (const [body, field] of hostile) {
      fake.fail({ pathPrefix: '/btc/address', response: { status: 200, body } });
      const err = await rejection(connector.accounts(btcConnection, TODAY));
      expect(err.kind).toBe('provider_error');
      expect(err.message).toMatch(field);
    }
    fake.state.btc = [receipt('x', 900_000, '2026-02-20', 1_000)];
    fake.state.intercept = (req) => (req.path.endsWith('/txs') ? { status: 200, body: [{ txid: fakeTxid('x'), status: { confirmed: true, block_height: 1, block_time: 1 }, vin: 'none', vout: [] }] } : undefined);
    expect(await rejection(connector.initialHistory(btcConnection, TODAY))).toMatchObject({ kind: 'provider_error', message: expect.stringMatching(/vin/) });
  });
});

describe('crypto_wallet_public: Ethereum (Etherscan API V2)', () => {
  const tx = (seed: string, block: number, date: string, over: Partial<{ from: string; to: string; value: string; isError: '0' | '1'; functionName: string }>) => ({
    hash: fakeEthHash(seed),
    blockNumber: block,
    timeStamp: unix(`${date}T12:00:00Z`),
    from: OTHER_ETH,
    to: ETH,
    value: '0',
    gasUsed: '21000',
    gasPrice: '1000000000',
    ...over,
  });

  test('the balance converts wei exactly (no floating division of the integer)', async () => {
    fake.state.ethBalance = '123456789012345678901';
    const [account] = await connector.accounts(ethConnection, TODAY);
    expect(Account.safeParse(account).success).toBe(true);
    expect(account).toMatchObject({ type: 'crypto', subtype: 'ethereum', mask: 'eaed', balances: { current: 123.45678901234568, iso_currency_code: 'ETH' } });
    const request = fake.requests[0];
    expect(request.query.get('chainid')).toBe('1');
    expect(request.query.get('tag')).toBe('latest');
  });

  test('transactions: sends cost value plus gas, failed sends the gas only, receipts are negative, failed receipts are skipped', async () => {
    fake.state.eth = [
      tx('in', 100, '2026-02-01', { value: '2000000000000000000' }),
      tx('out', 101, '2026-02-02', { from: ETH, to: OTHER_ETH, value: '500000000000000000' }),
      tx('failed-out', 102, '2026-02-03', { from: ETH, to: OTHER_ETH, value: '500000000000000000', isError: '1' }),
      tx('failed-in', 103, '2026-02-04', { value: '700000000000000000', isError: '1' }),
      tx('old', 50, '2023-01-01', { value: '1' }),
    ];
    const batch = await connector.initialHistory(ethConnection, TODAY);
    const amounts = Object.fromEntries(upserted(batch).map((t) => [t.date, t.amount]));
    expect(amounts).toEqual({ '2026-02-01': -2, '2026-02-02': 0.500021, '2026-02-03': 0.000021 });
    expect(upserted(batch).every((t) => t.iso_currency_code === 'ETH' && t.pending === false)).toBe(true);
    expect(JSON.parse(batch.cursor!)).toEqual({ chain: 'ethereum', block: '103' });
  });

  test('history beyond one page slides the block range; refresh reads ascending from the cursor minus the reorg depth', async () => {
    fake.state.eth = Array.from({ length: 2500 }, (_, i) => tx(`t${i}`, 10_000 + Math.floor(i / 2), '2026-02-10', { value: '1000' }));
    const batch = await connector.initialHistory(ethConnection, TODAY);
    expect(upserted(batch)).toHaveLength(2500);
    const txlists = fake.requests.filter((r) => r.query.get('action') === 'txlist');
    expect(txlists.length).toBe(3);
    expect(txlists.every((r) => r.query.get('page') === '1' && r.query.get('offset') === '1000' && r.query.get('sort') === 'desc')).toBe(true);

    fake.requests.length = 0;
    fake.state.eth.push(tx('new', 20_000, '2026-03-01', { value: '5' }));
    const next = await connector.refresh({ ...ethConnection, cursor: batch.cursor }, TODAY, 1);
    const refreshList = fake.requests.find((r) => r.query.get('action') === 'txlist');
    expect(refreshList?.query.get('sort')).toBe('asc');
    expect(refreshList?.query.get('startblock')).toBe(String(11_249 - 12));
    expect(upserted(next).map((t) => t.date)).toContain(TODAY);
    expect(JSON.parse(next.cursor!)).toEqual({ chain: 'ethereum', block: '20000' });
  });

  test('Etherscan errors in HTTP 200 bodies: rate limit, bad key (never echoed), others', async () => {
    fake.fail({ pathPrefix: '/evm', response: { status: 200, body: { status: '0', message: 'NOTOK', result: 'Max calls per sec rate limit reached (5/sec)' } } });
    expect(await rejection(connector.accounts(ethConnection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 1 } });

    const wrongKey = build({ CRYPTO_WALLET_PUBLIC_EVM_API_KEY: 'wrong-key-secret' });
    const err = await rejection(wrongKey.accounts(ethConnection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('CRYPTO_WALLET_PUBLIC_EVM_API_KEY');
    expect(err.message).not.toContain('wrong-key-secret');

    fake.fail({ pathPrefix: '/evm', response: { status: 200, body: { status: '0', message: 'NOTOK', result: `Error with ${FAKE_ETHERSCAN_KEY} inside` } } });
    const other = await rejection(connector.accounts(ethConnection, TODAY));
    expect(other.kind).toBe('provider_error');
    expect(other.message).not.toContain(FAKE_ETHERSCAN_KEY);
  });

  test('hostile txlist payloads are provider_error naming the field', async () => {
    const hostile: [unknown, RegExp][] = [
      [{ status: '1', message: 'OK', result: [{ ...tx('h', 1, '2026-02-01', {}), blockNumber: '1', timeStamp: '1770000000', value: 12, isError: '0' }] }, /value/],
      [{ status: '1', message: 'OK', result: [{ hash: 'nope' }] }, /hash/],
      [{ status: '1', message: 'OK', result: 'not a list' }, /result/],
      [{ status: '1', message: 'OK', result: Array.from({ length: 1001 }, () => ({})) }, /more than the 1000/],
    ];
    for (const [body, field] of hostile) {
      fake.fail({ pathPrefix: '/evm', times: 1, response: { status: 200, body: { status: '1', message: 'OK', result: '1' } } });
      fake.fail({ pathPrefix: '/evm', times: 1, response: { status: 200, body } });
      const err = await rejection(connector.initialHistory(ethConnection, TODAY));
      expect(err.kind).toBe('provider_error');
      expect(err.message).toMatch(field);
    }
  });
});

describe('crypto_wallet_public: products', () => {
  test('one holding per address with the served balance; identity and liabilities are not offered', async () => {
    const accounts = await connector.accounts(btcConnection, TODAY);
    const served = [{ ...accounts[0], balances: { ...accounts[0].balances, current: 0.5 } }];
    const investments = await connector.investments(btcConnection, { today: TODAY, accounts: served });
    expect(investments.holdings).toHaveLength(1);
    expect(Holding.safeParse(investments.holdings[0]).success).toBe(true);
    expect(investments.holdings[0]).toMatchObject({ account_id: accounts[0].account_id, quantity: 0.5, value: 0, security: { ticker: 'BTC', type: 'crypto' } });
    await expect(connector.identity(btcConnection, { today: TODAY, accounts })).rejects.toMatchObject({ kind: 'provider_error' });
    await expect(connector.liabilities(btcConnection, { today: TODAY, accounts })).rejects.toMatchObject({ kind: 'provider_error' });
  });
});
