// The public-address wallet reader: the user pastes a Bitcoin or Ethereum address, and balances
// and transfers come from public chain indexers: an Esplora API for Bitcoin (blockstream.info by
// default) and the Etherscan API V2 (chainid 1) for Ethereum. Nothing is secret per item: the
// normalised address is the connection's login, and the operator's Etherscan key is the only
// credential. See .scratch/connector-doc-crypto_wallet_public.md for what it reads and its limits.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type Investments, type LoginResult, type ProviderHttp, type SourceBatch, type SourceTransaction } from '../../core/connector-port';
import { stableId } from '../ids';
import { chainOf, checkAddress, type Chain } from './address';
import {
  CHAIN_UNITS,
  CRYPTO_WALLET_CONNECTOR_ID,
  accountIdOf,
  bitcoinTransaction,
  ethereumTransaction,
  parseEsploraAddress,
  parseEsploraTx,
  parseEtherscanTx,
  transactionIdOf,
  walletAccount,
  type EsploraAddressStats,
  type EsploraTx,
  type EtherscanTx,
} from './mapping';
import { bad, decimalUnits, isoDateOfUnix, list, record } from './payload';
import { credentialsRefused, notOffered } from '../payload';

export const DEFAULT_BTC_BASE_URL = 'https://blockstream.info/api';
/** Etherscan's API V2 (the V1 endpoints were retired in August 2025); `chainid=1` is Ethereum mainnet. */
export const DEFAULT_EVM_BASE_URL = 'https://api.etherscan.io/v2/api';
const ETHEREUM_MAINNET_CHAIN_ID = '1';

/** How far back the first pull reads. */
const HISTORY_MONTHS = 24;
/** Pages one pull reads at most: 40 Esplora pages (25 confirmed each) or 10 Etherscan pages of 1,000. */
const MAX_ESPLORA_PAGES = 40;
const MAX_ETHERSCAN_PAGES = 10;
const ETHERSCAN_PAGE_SIZE = 1000;
/** Blocks re-read below the cursor at each refresh, so a shallow reorganisation is picked up. */
const BITCOIN_REORG_DEPTH = 6;
const ETHEREUM_REORG_DEPTH = 12;
/** Unconfirmed Bitcoin transactions remembered in the cursor (Esplora lists at most 50 per address). */
const MAX_PENDING_REMEMBERED = 50;

/** Institutions that stand for one chain: an address of the other chain is refused there. */
const INSTITUTION_CHAIN: Readonly<Record<string, Chain>> = { ins_bitcoin_wallet: 'bitcoin', ins_ethereum_wallet: 'ethereum' };

type BitcoinCursor = { chain: 'bitcoin'; height: number; pending: string[] };
type EthereumCursor = { chain: 'ethereum'; block: string };

/** The cursor a previous pull stored; null when absent or not ours (the next pull reads from scratch). */
function parseCursor(cursor: string | undefined, chain: Chain): BitcoinCursor | EthereumCursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Record<string, unknown>;
    if (chain === 'bitcoin' && parsed.chain === 'bitcoin' && Number.isSafeInteger(parsed.height) && Array.isArray(parsed.pending) && parsed.pending.every((p) => typeof p === 'string')) {
      return { chain, height: parsed.height as number, pending: parsed.pending as string[] };
    }
    if (chain === 'ethereum' && parsed.chain === 'ethereum' && typeof parsed.block === 'string' && /^\d{1,20}$/.test(parsed.block)) return { chain, block: parsed.block };
  } catch {
    // an unreadable cursor is treated as no cursor
  }
  return null;
}

/** `today` minus whole months (YYYY-MM-DD, UTC). */
function monthsBefore(today: string, months: number): string {
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 - months, d)).toISOString().slice(0, 10);
}

const ethereumDate = (tx: EtherscanTx): string => isoDateOfUnix(tx.timeStamp, `transaction ${tx.hash} timeStamp`);


export const createCryptoWalletPublicConnector: ConnectorFactory = (context): ConnectorPort => {
  const http: ProviderHttp = context.http;
  const btcBase = (context.config.CRYPTO_WALLET_PUBLIC_BTC_BASE_URL ?? DEFAULT_BTC_BASE_URL).replace(/\/+$/, '');
  const evmBase = context.config.CRYPTO_WALLET_PUBLIC_EVM_BASE_URL ?? DEFAULT_EVM_BASE_URL;
  const apiKey = context.config.CRYPTO_WALLET_PUBLIC_EVM_API_KEY;

  // ---------- Esplora ----------

  async function esplora(path: string): Promise<unknown> {
    const response = await http.sendOk({ method: 'GET', url: `${btcBase}${path}` });
    if (response.status !== 200) throw new ConnectorError('provider_error', `The Bitcoin indexer answered ${response.status}.`, { status: response.status });
    if (response.json === undefined) throw bad('the body is not JSON');
    return response.json;
  }

  const addressPath = (address: string) => `/address/${encodeURIComponent(address)}`;

  async function bitcoinStats(address: string): Promise<EsploraAddressStats> {
    return parseEsploraAddress(await esplora(addressPath(address)));
  }

  const bitcoinAccount = (address: string, stats: EsploraAddressStats): AccountRecord =>
    walletAccount(address, 'bitcoin', stats.confirmed + stats.mempoolNet, stats.confirmed + (stats.mempoolNet < 0n ? stats.mempoolNet : 0n));

  /**
   * Reads the address's transactions newest first: the first page (unconfirmed plus the newest
   * confirmed), then confirmed pages after the last txid seen, until `reachedEnd` says the older
   * ones are not needed, every confirmed transaction is read, or the page bound is hit (`capped`).
   */
  async function readBitcoinTxs(address: string, stats: EsploraAddressStats, reachedEnd: (oldest: EsploraTx) => boolean): Promise<{ txs: EsploraTx[]; capped: boolean }> {
    const txs: EsploraTx[] = [];
    let confirmedRead = 0;
    let lastSeen: string | null = null;
    for (let page = 0; page < MAX_ESPLORA_PAGES; page += 1) {
      const path: string = lastSeen === null ? `${addressPath(address)}/txs` : `${addressPath(address)}/txs/chain/${lastSeen}`;
      const items: EsploraTx[] = list(await esplora(path), 'txs').map((tx, i) => parseEsploraTx(tx, address, i));
      const confirmed: EsploraTx[] = items.filter((tx) => tx.confirmed);
      if (lastSeen !== null && items.some((tx) => !tx.confirmed)) throw bad('a confirmed-transactions page lists an unconfirmed transaction');
      txs.push(...items);
      confirmedRead += confirmed.length;
      const oldest: EsploraTx | undefined = confirmed.at(-1);
      if (!oldest || confirmedRead >= stats.confirmedTxCount || reachedEnd(oldest)) return { txs, capped: false };
      if (oldest.txid === lastSeen) throw bad('pagination repeated the same transaction');
      lastSeen = oldest.txid;
    }
    return { txs, capped: true };
  }

  async function bitcoinPull(connection: Connection, today: string): Promise<SourceBatch> {
    const address = connection.login;
    const cursor = parseCursor(connection.cursor, 'bitcoin') as BitcoinCursor | null;
    const stats = await bitcoinStats(address);
    const cutoff = monthsBefore(today, HISTORY_MONTHS);
    const floorHeight = cursor ? cursor.height - BITCOIN_REORG_DEPTH : null;
    const wanted = (tx: EsploraTx): boolean =>
      !tx.confirmed || (floorHeight !== null ? (tx.blockHeight ?? 0) > floorHeight : bitcoinTransaction(tx, address, today).date >= cutoff);
    const { txs, capped } = await readBitcoinTxs(address, stats, (oldest) => !wanted(oldest));

    const byId = new Map<string, SourceTransaction>();
    for (const tx of txs) if (wanted(tx) && tx.net !== 0n) byId.set(tx.txid, bitcoinTransaction(tx, address, today));
    const seen = new Set(txs.map((tx) => tx.txid));
    const pendingNow = txs.filter((tx) => !tx.confirmed).map((tx) => tx.txid);
    // An unconfirmed transaction seen before and now neither unconfirmed nor confirmed was dropped
    // or replaced (RBF). Only a read that reached the cursor can say so.
    const dropped = capped ? [] : (cursor?.pending ?? []).filter((txid) => !seen.has(txid));
    const stillUnsure = capped ? (cursor?.pending ?? []).filter((txid) => !seen.has(txid)) : [];
    const heights = txs.map((tx) => tx.blockHeight ?? 0);
    const next: BitcoinCursor = {
      chain: 'bitcoin',
      height: Math.max(cursor?.height ?? 0, ...heights),
      pending: [...new Set([...pendingNow, ...stillUnsure])].slice(0, MAX_PENDING_REMEMBERED),
    };
    return {
      accounts: [bitcoinAccount(address, stats)],
      transactions: { kind: 'changes', upserted: [...byId.values()], removed: dropped.map((txid) => transactionIdOf(address, 'bitcoin', txid)) },
      cursor: JSON.stringify(next),
    };
  }

  // ---------- Etherscan ----------

  async function etherscan(params: Record<string, string>): Promise<unknown> {
    if (!apiKey) throw new ConnectorError('provider_error', 'CRYPTO_WALLET_PUBLIC_EVM_API_KEY is not configured.');
    const response = await http.sendOk({ method: 'GET', url: evmBase, query: { chainid: ETHEREUM_MAINNET_CHAIN_ID, ...params, apikey: apiKey } });
    if (response.status !== 200) throw new ConnectorError('provider_error', `The Ethereum indexer answered ${response.status}.`, { status: response.status });
    const body = record(response.json, 'response');
    if (body.status === '1') return body.result;
    // Etherscan answers its errors with HTTP 200: status "0", and the reason in `result`.
    if (body.message === 'No transactions found' && Array.isArray(body.result) && body.result.length === 0) return [];
    const reason = typeof body.result === 'string' ? body.result : '';
    if (/rate limit/i.test(reason)) throw new ConnectorError('rate_limited', 'The Ethereum indexer rate limited the request.', { retryAfterSeconds: 1 });
    if (/api ?key/i.test(reason)) throw new ConnectorError('provider_error', 'The Ethereum indexer refused the operator\u2019s API key (CRYPTO_WALLET_PUBLIC_EVM_API_KEY).');
    const shown = reason.split(apiKey).join('[key]').replace(/[^\x20-\x7e]/g, '').slice(0, 120);
    throw new ConnectorError('provider_error', `The Ethereum indexer refused the request${shown ? `: ${shown}` : ''}.`);
  }

  async function ethereumAccount(address: string): Promise<AccountRecord> {
    const result = await etherscan({ module: 'account', action: 'balance', address, tag: 'latest' });
    const wei = decimalUnits({ result }, 'result', 'balance');
    return walletAccount(address, 'ethereum', wei, wei);
  }

  async function txlist(address: string, range: { startblock: string; endblock: string; sort: 'asc' | 'desc' }): Promise<EtherscanTx[]> {
    const result = await etherscan({ module: 'account', action: 'txlist', address, ...range, page: '1', offset: String(ETHERSCAN_PAGE_SIZE) });
    const items = list(result, 'result');
    if (items.length > ETHERSCAN_PAGE_SIZE) throw bad(`the page holds ${items.length} transactions, more than the ${ETHERSCAN_PAGE_SIZE} asked for`);
    return items.map((tx, i) => parseEtherscanTx(tx, i));
  }

  /**
   * Etherscan caps what one query can page through (page x offset), so the pull slides the block
   * range instead: each next page starts at the last block of the previous one (re-read, deduplicated
   * by hash). A full page inside a single block cannot advance and fails the pull.
   */
  async function readEthereumTxs(address: string, direction: 'asc' | 'desc', fromBlock: bigint, stopBefore: (tx: EtherscanTx) => boolean): Promise<{ txs: EtherscanTx[]; lastBlock: bigint | null }> {
    const byHash = new Map<string, EtherscanTx>();
    let bound = direction === 'asc' ? fromBlock : 99_999_999n;
    let lastBlock: bigint | null = null;
    for (let page = 0; page < MAX_ETHERSCAN_PAGES; page += 1) {
      const range = direction === 'asc' ? { startblock: String(bound), endblock: '99999999', sort: direction } : { startblock: '0', endblock: String(bound), sort: direction };
      const items = await txlist(address, range);
      for (const tx of items) byHash.set(tx.hash, tx);
      const last = items.at(-1);
      if (last) lastBlock = last.blockNumber;
      if (!last || items.length < ETHERSCAN_PAGE_SIZE || stopBefore(last)) return { txs: [...byHash.values()], lastBlock };
      if (last.blockNumber === bound) throw bad(`more than ${ETHERSCAN_PAGE_SIZE} transactions in block ${bound}`);
      bound = last.blockNumber;
    }
    return { txs: [...byHash.values()], lastBlock };
  }

  async function ethereumPull(connection: Connection, today: string): Promise<SourceBatch> {
    const address = connection.login;
    const cursor = parseCursor(connection.cursor, 'ethereum') as EthereumCursor | null;
    const account = await ethereumAccount(address);
    let txs: EtherscanTx[];
    let newest: bigint;
    if (cursor) {
      const from = BigInt(cursor.block) > BigInt(ETHEREUM_REORG_DEPTH) ? BigInt(cursor.block) - BigInt(ETHEREUM_REORG_DEPTH) : 0n;
      const read = await readEthereumTxs(address, 'asc', from, () => false);
      txs = read.txs;
      // A refresh that hit the page bound resumes from the last block it read.
      newest = read.lastBlock !== null && read.lastBlock > BigInt(cursor.block) ? read.lastBlock : BigInt(cursor.block);
    } else {
      const cutoff = monthsBefore(today, HISTORY_MONTHS);
      const read = await readEthereumTxs(address, 'desc', 0n, (oldest) => ethereumDate(oldest) < cutoff);
      txs = read.txs.filter((tx) => ethereumDate(tx) >= cutoff);
      newest = read.txs.reduce((max, tx) => (tx.blockNumber > max ? tx.blockNumber : max), 0n);
    }
    const upserted = txs.map((tx) => ethereumTransaction(tx, address)).filter((tx): tx is SourceTransaction => tx !== null);
    const next: EthereumCursor = { chain: 'ethereum', block: String(newest) };
    return { accounts: [account], transactions: { kind: 'changes', upserted, removed: [] }, cursor: JSON.stringify(next) };
  }

  // ---------- the port ----------

  const pull = (connection: Connection, today: string): Promise<SourceBatch> =>
    chainOf(connection.login) === 'bitcoin' ? bitcoinPull(connection, today) : ethereumPull(connection, today);

  async function accounts(connection: Connection): Promise<AccountRecord[]> {
    const address = connection.login;
    return chainOf(address) === 'bitcoin' ? [bitcoinAccount(address, await bitcoinStats(address))] : [await ethereumAccount(address)];
  }

  return {
    id: CRYPTO_WALLET_CONNECTOR_ID,
    linkMethod: 'address',

    ...credentialsRefused('This wallet connects with a public address, not a username and password.'),

    async connect(institutionId, input): Promise<LoginResult> {
      if (input.method !== 'address') return { status: 'invalid_credentials', message: 'This wallet connects with a public address.' };
      const checked = checkAddress(input.address);
      if (!checked.ok) return { status: 'invalid_credentials', message: checked.reason };
      const expected = INSTITUTION_CHAIN[institutionId];
      if (expected && expected !== checked.chain) {
        return { status: 'invalid_credentials', message: `This is ${checked.chain === 'bitcoin' ? 'a Bitcoin' : 'an Ethereum'} address; choose the ${CHAIN_UNITS[checked.chain].label} wallet instead.` };
      }
      return { status: 'connected', connection: { institutionId, login: checked.address } };
    },

    accounts,
    initialHistory: (connection, today) => pull({ ...connection, cursor: undefined }, today),
    refresh: (connection, today) => pull(connection, today),

    async identity() {
      throw notOffered('Identity');
    },

    async liabilities() {
      throw notOffered('Liabilities');
    },

    /**
     * The address's coin as one holding. The connector has no price source, so `close_price` and
     * `value` are 0 (the contract requires numbers); the quantity is the balance the API serves.
     */
    async investments(connection, productContext): Promise<Investments> {
      const address = connection.login;
      const chain = chainOf(address);
      const accountId = accountIdOf(address, chain);
      const served = productContext.accounts.find((a) => a.account_id === accountId) ?? (await accounts(connection))[0];
      const { currency, label } = CHAIN_UNITS[chain];
      const security = { security_id: stableId('sec', CRYPTO_WALLET_CONNECTOR_ID, currency), ticker: currency, name: label, type: 'crypto' as const, close_price: 0 };
      return {
        holdings: [{ holding_id: stableId('hld', CRYPTO_WALLET_CONNECTOR_ID, address, currency), account_id: accountId, security, quantity: served.balances.current, cost_basis: null, value: 0 }],
        securities: [security],
        investment_transactions: [],
      };
    },
  };
};
