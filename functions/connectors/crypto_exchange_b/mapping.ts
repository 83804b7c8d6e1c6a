// Pure mapping of the second exchange's REST payloads (balances, ledger entries, tickers) into the
// contract. Every payload is untrusted: a missing or ill-typed field ends the pull with a
// provider_error naming the field, never a TypeError or a NaN amount.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Investments, type SourceTransaction } from '../../core/connector-port';
import { stableId } from '../ids';

export const CONNECTOR_ID = 'crypto_exchange_b';

type Json = Record<string, unknown>;

export function bad(field: string, problem = 'is missing or malformed'): never {
  throw new ConnectorError('provider_error', `The exchange's response is unreadable: ${field} ${problem}.`);
}

export function objectAt(value: unknown, field: string): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : bad(field);
}

function stringAt(value: unknown, field: string): string {
  return typeof value === 'string' && value !== '' ? value : bad(field);
}

/** Decimal strings as the API sends amounts ("0.0100000000", "-12.50"); numbers, exponents and "NaN" are refused. */
const DECIMAL = /^-?\d{1,20}(\.\d{1,18})?$/;
export function decimalAt(value: unknown, field: string): number {
  if (typeof value !== 'string' || !DECIMAL.test(value)) bad(field, 'is not a decimal amount');
  return Number(value);
}

/** Avoids binary float noise in amounts computed from decimal strings. */
export const round = (value: number, digits = 10): number => Number(value.toFixed(digits));

// ---------- assets ----------

/**
 * The exchange's legacy asset codes (an X prefix for crypto, Z for fiat, XBT for bitcoin, XDG for
 * dogecoin) and the staking variants' bases, by their usual codes. Newer assets use plain codes.
 */
const LEGACY_CODES: Readonly<Record<string, string>> = {
  XXBT: 'BTC', XBT: 'BTC', XETH: 'ETH', ETH2: 'ETH', XETC: 'ETC', XLTC: 'LTC', XXRP: 'XRP', XXLM: 'XLM', XXMR: 'XMR', XZEC: 'ZEC',
  XMLN: 'MLN', XREP: 'REP', XXDG: 'DOGE', XDG: 'DOGE', XNMC: 'NMC', XXVN: 'XVN', XICN: 'ICN', XDAO: 'DAO',
  ZUSD: 'USD', ZEUR: 'EUR', ZGBP: 'GBP', ZCAD: 'CAD', ZJPY: 'JPY', ZAUD: 'AUD', ZCHF: 'CHF',
};
const FIAT = new Set(['USD', 'EUR', 'GBP', 'CAD', 'JPY', 'AUD', 'CHF', 'AED']);
/** What a balance suffix means: staked, opt-in rewards, flexible rewards, bonded, parachain, held. */
const SUFFIX_LABELS: Readonly<Record<string, string>> = { S: 'staked', M: 'rewards', F: 'rewards', B: 'bonded', P: 'parachain', HOLD: 'on hold' };

export interface Asset {
  /** As the exchange names it (XXBT, DOT.S, USDC): one account per raw asset. */
  raw: string;
  /** The usual code (BTC, DOT, USDC). */
  code: string;
  label: string | null;
  isFiat: boolean;
  /** The raw codes its USD pair may be listed under (XXBT, XBT, BTC). */
  pairBases: string[];
}

const ASSET_CODE = /^[A-Z0-9]{1,12}(\.[A-Z]{1,6})?$/;

export function assetOf(raw: string): Asset {
  if (!ASSET_CODE.test(raw)) bad(`asset ${JSON.stringify(raw.slice(0, 20))}`, 'is not an asset code');
  const [base, suffix] = raw.split('.');
  const code = LEGACY_CODES[base] ?? base;
  const legacy = Object.entries(LEGACY_CODES).filter(([, usual]) => usual === code).map(([k]) => k);
  return {
    raw,
    code,
    label: suffix === undefined ? null : (SUFFIX_LABELS[suffix] ?? suffix.toLowerCase()),
    isFiat: FIAT.has(code),
    pairBases: [...new Set([base, ...legacy, code])],
  };
}

/** The contract's currency code is ISO 4217-shaped (three letters); longer asset codes (USDC, DOGE) are reported valued in USD. */
export const isIsoShaped = (code: string): boolean => /^[A-Z]{3}$/.test(code);

export function readBalances(result: unknown): Map<string, number> {
  const balances = new Map<string, number>();
  for (const [raw, amount] of Object.entries(objectAt(result, 'result'))) balances.set(raw, decimalAt(amount, `result.${raw.slice(0, 20)}`));
  return balances;
}

// ---------- prices ----------

/** Every ticker's last trade close price (`c[0]`), by pair name. */
export function readTickers(result: unknown): Map<string, number> {
  const prices = new Map<string, number>();
  for (const [pair, ticker] of Object.entries(objectAt(result, 'result'))) {
    const close = objectAt(ticker, `result.${pair}`).c;
    if (!Array.isArray(close)) bad(`result.${pair}.c`);
    prices.set(pair, decimalAt(close[0], `result.${pair}.c[0]`));
  }
  return prices;
}

/** The asset's USD price from the tickers, 1 for USD itself, null when the exchange lists no USD pair for it. */
export function usdPriceOf(asset: Asset, prices: ReadonlyMap<string, number>): number | null {
  if (asset.code === 'USD') return 1;
  for (const base of asset.pairBases) {
    for (const quote of ['ZUSD', 'USD']) {
      const price = prices.get(`${base}${quote}`);
      if (price !== undefined) return price;
    }
  }
  return null;
}

// ---------- accounts ----------

export const accountIdOf = (login: string, raw: string): string => stableId('acc', CONNECTOR_ID, login, raw);

/**
 * One account per asset, in the asset's own currency when its code is ISO-shaped; otherwise valued
 * in USD at the last price (0 when no USD pair exists). Needs `usdPrice` only in that second case.
 */
export function toAccount(asset: Asset, quantity: number, usdPrice: number | null, login: string, institutionName: string): AccountRecord {
  const ownCurrency = isIsoShaped(asset.code);
  const current = ownCurrency ? round(quantity) : round(quantity * (usdPrice ?? 0), 2);
  const accountId = accountIdOf(login, asset.raw);
  return {
    account_id: accountId,
    name: asset.label ? `${asset.code} (${asset.label})` : asset.code,
    official_name: `${institutionName} ${asset.code} ${asset.isFiat ? 'balance' : 'wallet'}${asset.label ? ` (${asset.label})` : ''}`,
    type: asset.isFiat ? 'depository' : 'crypto',
    subtype: asset.isFiat ? 'cash' : 'crypto_exchange',
    mask: accountId.slice(-4),
    balances: { current, available: current, limit: null, iso_currency_code: ownCurrency ? asset.code : 'USD' },
    verification_status: 'not_applicable',
  };
}

// ---------- ledger ----------

export interface LedgerEntry {
  id: string;
  refid: string;
  /** Unix seconds, with fractions. */
  time: number;
  type: string;
  subtype: string;
  asset: Asset;
  amount: number;
  fee: number;
}

export function readLedgerEntry(id: string, raw: unknown): LedgerEntry {
  const field = `ledger.${id.slice(0, 24)}`;
  const e = objectAt(raw, field);
  if (typeof e.time !== 'number' || !Number.isFinite(e.time) || e.time <= 0) bad(`${field}.time`);
  return {
    id,
    refid: typeof e.refid === 'string' ? e.refid : '',
    time: e.time,
    type: stringAt(e.type, `${field}.type`),
    subtype: typeof e.subtype === 'string' ? e.subtype : '',
    asset: assetOf(stringAt(e.asset, `${field}.asset`)),
    amount: decimalAt(e.amount, `${field}.amount`),
    fee: decimalAt(e.fee, `${field}.fee`),
  };
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  trade: 'Trade',
  spend: 'Spend',
  receive: 'Receive',
  staking: 'Staking reward',
  earn: 'Earn reward',
  transfer: 'Transfer',
  margin: 'Margin',
  rollover: 'Rollover',
  settled: 'Settlement',
  credit: 'Credit',
  dividend: 'Dividend',
  sale: 'Sale',
  conversion: 'Conversion',
  adjustment: 'Adjustment',
};

export const transactionIdOf = (login: string, ledgerId: string): string => stableId('txn', CONNECTOR_ID, login, ledgerId);

/**
 * A ledger entry as a transaction: the change it made to the balance (amount less fee) with the
 * sign flipped, so money out is positive and the transactions add up to the balance. Settled when
 * listed (the ledger records only booked movements). Null for an asset reported in USD (its
 * movements have no USD amount of their own).
 */
export function toSourceTransaction(entry: LedgerEntry, login: string): SourceTransaction | null {
  if (!isIsoShaped(entry.asset.code)) return null;
  const at = new Date(Math.round(entry.time * 1000)).toISOString();
  const kind = TYPE_NAMES[entry.type] ?? entry.type.charAt(0).toUpperCase() + entry.type.slice(1);
  return {
    transaction_id: transactionIdOf(login, entry.id),
    account_id: accountIdOf(login, entry.asset.raw),
    date: at.slice(0, 10),
    authorized_datetime: at,
    name: `${kind} ${entry.asset.code}${entry.subtype ? ` ${entry.subtype}` : ''}`,
    amount: round(-(entry.amount - entry.fee)),
    iso_currency_code: entry.asset.code,
    pending: false,
  };
}

// ---------- holdings ----------

type Holding = Investments['holdings'][number];

export function toHolding(asset: Asset, quantity: number, usdPrice: number | null, login: string): Holding {
  const price = usdPrice ?? 0;
  return {
    holding_id: stableId('hld', CONNECTOR_ID, login, asset.raw),
    account_id: accountIdOf(login, asset.raw),
    security: { security_id: stableId('sec', CONNECTOR_ID, asset.code), ticker: asset.code, name: asset.code, type: 'crypto', close_price: price },
    quantity,
    cost_basis: null,
    value: round(quantity * price, 2),
  };
}

// ---------- the refresh cursor ----------

/** The ledger time read up to (Unix seconds), and the assets the item already reported (kept when emptied). */
export interface Cursor {
  v: 1;
  since: number;
  assets: string[];
}

export function readCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const c = objectAt(JSON.parse(raw) as unknown, 'cursor');
    if (c.v !== 1 || typeof c.since !== 'number' || !Number.isFinite(c.since) || !Array.isArray(c.assets)) return null;
    return { v: 1, since: c.since, assets: c.assets.filter((a): a is string => typeof a === 'string') };
  } catch {
    // an unreadable cursor means a full re-read, which the stable ids make harmless
    return null;
  }
}
