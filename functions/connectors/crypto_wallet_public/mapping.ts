// Pure mapping of chain-indexer payloads to the contract: Esplora (Bitcoin) address stats and
// transactions, Etherscan (Ethereum) balances and normal transactions. Amounts follow the
// contract's sign: positive when value leaves the address (a send, its network fee included),
// negative when it arrives.
import type { AccountRecord } from '../../contracts/schemas';
import type { SourceTransaction } from '../../core/connector-port';
import { stableId } from '../ids';
import type { Chain } from './address';
import { bad, decimalUnits, isoDateOfUnix, list, record, text, toDecimal, units, type Json } from './payload';

export const CRYPTO_WALLET_CONNECTOR_ID = 'crypto_wallet_public';

export const CHAIN_UNITS: Record<Chain, { currency: 'BTC' | 'ETH'; decimals: number; label: string }> = {
  bitcoin: { currency: 'BTC', decimals: 8, label: 'Bitcoin' },
  ethereum: { currency: 'ETH', decimals: 18, label: 'Ethereum' },
};

export const accountIdOf = (address: string, chain: Chain): string => stableId('acc', CRYPTO_WALLET_CONNECTOR_ID, address, chain);
export const transactionIdOf = (address: string, chain: Chain, txHash: string): string => stableId('txn', CRYPTO_WALLET_CONNECTOR_ID, address, chain, txHash);

/** Shortens an address for a transaction name: enough to recognise, short enough to read. */
const short = (address: string): string => (address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-4)}` : address);

/** The one account of an address: `current` includes unconfirmed value, `available` only what is spendable. */
export function walletAccount(address: string, chain: Chain, currentUnits: bigint, availableUnits: bigint): AccountRecord {
  const { currency, decimals, label } = CHAIN_UNITS[chain];
  const mask = address.slice(-4);
  return {
    account_id: accountIdOf(address, chain),
    name: `${label} address`,
    official_name: `${label} address ending ${mask}`,
    type: 'crypto',
    subtype: chain,
    mask,
    balances: { current: toDecimal(currentUnits, decimals), available: toDecimal(availableUnits, decimals), limit: null, iso_currency_code: currency },
    verification_status: 'not_applicable',
  };
}

// ---------- Bitcoin (Esplora) ----------

export interface EsploraAddressStats {
  /** Confirmed balance in satoshis. */
  confirmed: bigint;
  /** Net effect of unconfirmed transactions in satoshis (negative when the mempool spends). */
  mempoolNet: bigint;
  /** Confirmed transactions involving the address (how far pagination can go). */
  confirmedTxCount: number;
}

function fundedMinusSpent(stats: Json, where: string): bigint {
  return units(stats, 'funded_txo_sum', where) - units(stats, 'spent_txo_sum', where);
}

/** GET /address/:address. */
export function parseEsploraAddress(payload: unknown): EsploraAddressStats {
  const body = record(payload, 'address');
  const chainStats = record(body.chain_stats, 'address.chain_stats');
  const mempoolStats = record(body.mempool_stats, 'address.mempool_stats');
  return {
    confirmed: fundedMinusSpent(chainStats, 'address.chain_stats'),
    mempoolNet: fundedMinusSpent(mempoolStats, 'address.mempool_stats'),
    confirmedTxCount: Number(units(chainStats, 'tx_count', 'address.chain_stats')),
  };
}

export interface EsploraTx {
  txid: string;
  confirmed: boolean;
  /** Present when confirmed. */
  blockHeight: number | null;
  blockTime: number | null;
  /** Satoshis: received by the address minus spent from it (the fee is inside what it spent). */
  net: bigint;
  fee: bigint;
  /** The first output paying another address (the recipient of a send). */
  otherRecipient: string | null;
}

/** One transaction of GET /address/:address/txs[/chain/:last_seen_txid], seen from `address`. */
export function parseEsploraTx(value: unknown, address: string, index: number): EsploraTx {
  const where = `txs[${index}]`;
  const tx = record(value, where);
  const txid = text(tx, 'txid', where);
  if (!/^[0-9a-f]{64}$/.test(txid)) throw bad(`${where}.txid is not a transaction id`);
  const status = record(tx.status, `${where}.status`);
  if (typeof status.confirmed !== 'boolean') throw bad(`${where}.status.confirmed is not a boolean`);
  const blockHeight = status.confirmed ? Number(units(status, 'block_height', `${where}.status`)) : null;
  const blockTime = status.confirmed ? Number(units(status, 'block_time', `${where}.status`)) : null;
  let net = 0n;
  list(tx.vin, `${where}.vin`).forEach((input, i) => {
    const vin = record(input, `${where}.vin[${i}]`);
    if (vin.is_coinbase === true || vin.prevout === null || vin.prevout === undefined) return;
    const prevout = record(vin.prevout, `${where}.vin[${i}].prevout`);
    if (prevout.scriptpubkey_address === address) net -= units(prevout, 'value', `${where}.vin[${i}].prevout`);
  });
  let otherRecipient: string | null = null;
  list(tx.vout, `${where}.vout`).forEach((output, i) => {
    const vout = record(output, `${where}.vout[${i}]`);
    const value = units(vout, 'value', `${where}.vout[${i}]`);
    const to = vout.scriptpubkey_address;
    if (to === address) net += value;
    else if (otherRecipient === null && typeof to === 'string') otherRecipient = to;
  });
  const fee = tx.fee === undefined ? 0n : units(tx, 'fee', where);
  return { txid, confirmed: status.confirmed, blockHeight, blockTime, net, fee, otherRecipient };
}

export function bitcoinTransaction(tx: EsploraTx, address: string, today: string): SourceTransaction {
  const sent = tx.net < 0n;
  const name = sent ? `BTC sent${tx.otherRecipient ? ` to ${short(tx.otherRecipient)}` : ''}` : 'BTC received';
  return {
    transaction_id: transactionIdOf(address, 'bitcoin', tx.txid),
    account_id: accountIdOf(address, 'bitcoin'),
    date: tx.blockTime !== null ? isoDateOfUnix(tx.blockTime, `transaction ${tx.txid} block_time`) : today,
    authorized_datetime: null,
    name,
    amount: toDecimal(-tx.net, 8),
    iso_currency_code: 'BTC',
    pending: !tx.confirmed,
  };
}

// ---------- Ethereum (Etherscan) ----------

export interface EtherscanTx {
  hash: string;
  blockNumber: bigint;
  timeStamp: bigint;
  from: string;
  to: string;
  value: bigint;
  /** gasUsed x gasPrice, in wei. */
  fee: bigint;
  failed: boolean;
  functionName: string;
}

/** One entry of module=account&action=txlist. */
export function parseEtherscanTx(value: unknown, index: number): EtherscanTx {
  const where = `result[${index}]`;
  const tx = record(value, where);
  const hash = text(tx, 'hash', where);
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw bad(`${where}.hash is not a transaction hash`);
  const isError = tx.isError;
  if (isError !== '0' && isError !== '1') throw bad(`${where}.isError is not "0" or "1"`);
  const functionName = typeof tx.functionName === 'string' ? tx.functionName : '';
  return {
    hash: hash.toLowerCase(),
    blockNumber: decimalUnits(tx, 'blockNumber', where),
    timeStamp: decimalUnits(tx, 'timeStamp', where),
    from: text(tx, 'from', where).toLowerCase(),
    to: text(tx, 'to', where).toLowerCase(),
    value: decimalUnits(tx, 'value', where),
    fee: decimalUnits(tx, 'gasUsed', where) * decimalUnits(tx, 'gasPrice', where),
    failed: isError === '1',
    functionName,
  };
}

/**
 * The address's view of a normal transaction, or null when it moved nothing for the address (a
 * failed transaction someone else paid for). A send costs value plus the gas fee; a failed send
 * still costs the fee; a receipt brings its value.
 */
export function ethereumTransaction(tx: EtherscanTx, address: string): SourceTransaction | null {
  const sender = tx.from === address;
  const transferred = tx.failed ? 0n : tx.value;
  const received = tx.to === address ? transferred : 0n;
  const spent = sender ? transferred + tx.fee : 0n;
  const outflow = spent - received;
  if (!sender && received === 0n) return null;
  const call = tx.functionName.split('(')[0].trim();
  const name = tx.failed
    ? 'ETH network fee (failed transaction)'
    : call !== ''
      ? `ETH contract call: ${call.slice(0, 60)}`
      : sender && tx.to !== address
        ? `ETH sent to ${short(tx.to || 'new contract')}`
        : sender
          ? 'ETH network fee (self transfer)'
          : `ETH received from ${short(tx.from)}`;
  return {
    transaction_id: transactionIdOf(address, 'ethereum', tx.hash),
    account_id: accountIdOf(address, 'ethereum'),
    date: isoDateOfUnix(tx.timeStamp, `transaction ${tx.hash} timeStamp`),
    authorized_datetime: null,
    name,
    amount: toDecimal(outflow, 18),
    iso_currency_code: 'ETH',
    pending: false,
  };
}
