// Pure mapping of the exchange's v2 API payloads (wallet accounts, wallet transactions, the user)
// into the contract. Every payload is untrusted: a missing or ill-typed field ends the pull with a
// provider_error naming the field, never a TypeError or a NaN amount.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Identity, type Investments, type SourceTransaction } from '../../core/connector-port';
import { stableId } from '../ids';

export const CONNECTOR_ID = 'crypto_exchange_a';

// ---------- reading untrusted payloads ----------

type Json = Record<string, unknown>;

export function bad(field: string, problem = 'is missing or malformed'): never {
  throw new ConnectorError('provider_error', `The exchange's response is unreadable: ${field} ${problem}.`);
}

export function objectAt(value: unknown, field: string): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : bad(field);
}

export function stringAt(value: unknown, field: string): string {
  return typeof value === 'string' && value !== '' ? value : bad(field);
}

const optionalString = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** Decimal strings as the API sends money ("0.00012345", "-12.50"); anything else (numbers, "1e9", "NaN") is refused. */
const DECIMAL = /^-?\d{1,20}(\.\d{1,18})?$/;
export function decimalAt(value: unknown, field: string): number {
  if (typeof value !== 'string' || !DECIMAL.test(value)) bad(field, 'is not a decimal amount');
  return Number(value);
}

/** An ISO 8601 timestamp; its UTC day and its normalised form. */
function timestampAt(value: unknown, field: string): { iso: string; day: string } {
  const text = stringAt(value, field);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) bad(field, 'is not a timestamp');
  const iso = new Date(ms).toISOString();
  return { iso, day: iso.slice(0, 10) };
}

/** An {amount, currency} money object. */
function moneyAt(value: unknown, field: string): { amount: number; currency: string } {
  const money = objectAt(value, field);
  const currency = stringAt(money.currency, `${field}.currency`).toUpperCase();
  if (!/^[A-Z0-9]{2,12}$/.test(currency)) bad(`${field}.currency`, 'is not a currency code');
  return { amount: decimalAt(money.amount, `${field}.amount`), currency };
}

/** The contract's currency code is ISO 4217-shaped (three letters); longer asset codes (USDC, DOGE) are reported in fiat. */
export const isIsoShaped = (code: string): boolean => /^[A-Z]{3}$/.test(code);

/** Avoids binary float noise in amounts computed from decimal strings (0.1 + 0.2). */
export const round = (value: number, digits = 10): number => Number(value.toFixed(digits));

// ---------- wallets ----------

export interface Wallet {
  id: string;
  name: string;
  /** `wallet`, `fiat`, `vault` today; new types may appear (the docs say so), read as crypto unless fiat. */
  kind: string;
  code: string;
  currencyName: string;
  isFiat: boolean;
  balance: number;
  native: { amount: number; currency: string } | null;
}

export function readWallet(raw: unknown, index: number): Wallet {
  const field = `data[${index}]`;
  const w = objectAt(raw, field);
  const kind = stringAt(w.type, `${field}.type`);
  // the currency is an object ({code, name, type}) today and was a bare code in older responses
  const currency = typeof w.currency === 'string' ? { code: w.currency } : objectAt(w.currency, `${field}.currency`);
  const code = stringAt(currency.code, `${field}.currency.code`).toUpperCase();
  const balance = moneyAt(w.balance, `${field}.balance`);
  const native = w.native_balance === undefined || w.native_balance === null ? null : moneyAt(w.native_balance, `${field}.native_balance`);
  return {
    id: stringAt(w.id, `${field}.id`),
    name: optionalString(w.name) ?? `${code} Wallet`,
    kind,
    code,
    currencyName: optionalString(currency.name) ?? code,
    isFiat: kind === 'fiat' || currency.type === 'fiat',
    balance: balance.amount,
    native,
  };
}

/** Which wallets become accounts: every fiat wallet, every wallet holding something, and every wallet the item already reported. */
export function isReported(wallet: Wallet, known: ReadonlySet<string>): boolean {
  return wallet.isFiat || wallet.balance !== 0 || known.has(wallet.id);
}

/** The currency an account is reported in: its own when ISO-shaped, else the user's native (fiat) currency; null when neither can be. */
export function reportingCurrency(wallet: Wallet): { code: string; viaNative: boolean } | null {
  if (isIsoShaped(wallet.code)) return { code: wallet.code, viaNative: false };
  if (wallet.native && isIsoShaped(wallet.native.currency)) return { code: wallet.native.currency, viaNative: true };
  return null;
}

export const accountIdOf = (login: string, walletId: string): string => stableId('acc', CONNECTOR_ID, login, walletId);

export function toAccount(wallet: Wallet, login: string, institutionName: string): AccountRecord | null {
  const currency = reportingCurrency(wallet);
  if (!currency) return null;
  const current = round(currency.viaNative ? (wallet.native?.amount ?? 0) : wallet.balance);
  return {
    account_id: accountIdOf(login, wallet.id),
    name: wallet.name,
    official_name: `${institutionName} ${wallet.currencyName} ${wallet.isFiat ? 'account' : 'wallet'}`,
    type: wallet.isFiat ? 'depository' : 'crypto',
    subtype: wallet.isFiat ? 'cash' : 'crypto_exchange',
    mask: wallet.id.replace(/[^A-Za-z0-9]/g, '').slice(-4),
    // the v2 wallet reports one balance; holds are not exposed, so available equals current
    balances: { current, available: current, limit: null, iso_currency_code: currency.code },
    verification_status: 'not_applicable',
  };
}

// ---------- wallet transactions ----------

/** Statuses of transactions that moved no money: reported as removed (a pending one may end this way). */
const VOID_STATUSES = new Set(['canceled', 'cancelled', 'expired', 'failed']);

export interface WalletTransaction {
  id: string;
  type: string;
  status: string;
  /** Signed in the wallet's asset as the API reports it: negative when the asset leaves the wallet. */
  amount: number;
  native: { amount: number; currency: string } | null;
  createdAt: { iso: string; day: string };
  title: string;
  isVoid: boolean;
}

export function readTransaction(raw: unknown, field: string): WalletTransaction {
  const t = objectAt(raw, field);
  const type = stringAt(t.type, `${field}.type`);
  const status = stringAt(t.status, `${field}.status`).toLowerCase();
  const details = typeof t.details === 'object' && t.details !== null ? (t.details as Json) : {};
  const title = [optionalString(details.title), optionalString(details.subtitle)].filter((s): s is string => s !== null).join(' ');
  return {
    id: stringAt(t.id, `${field}.id`),
    type,
    status,
    amount: moneyAt(t.amount, `${field}.amount`).amount,
    native: t.native_amount === undefined || t.native_amount === null ? null : moneyAt(t.native_amount, `${field}.native_amount`),
    createdAt: timestampAt(t.created_at, `${field}.created_at`),
    title: title || optionalString(t.description) || type.replace(/_/g, ' '),
    isVoid: VOID_STATUSES.has(status),
  };
}

export const transactionIdOf = (login: string, providerId: string): string => stableId('txn', CONNECTOR_ID, login, providerId);

/**
 * A wallet transaction in the contract's terms: money out positive (the API's sign flipped), in the
 * account's reporting currency, pending until the exchange reports it completed.
 */
export function toSourceTransaction(tx: WalletTransaction, wallet: Wallet, login: string): SourceTransaction | null {
  const currency = reportingCurrency(wallet);
  if (!currency) return null;
  let amount = tx.amount;
  if (currency.viaNative) {
    if (!tx.native || tx.native.currency !== currency.code) return null;
    amount = tx.native.amount;
  }
  return {
    transaction_id: transactionIdOf(login, tx.id),
    account_id: accountIdOf(login, wallet.id),
    date: tx.createdAt.day,
    authorized_datetime: tx.createdAt.iso,
    name: tx.title,
    amount: round(-amount),
    iso_currency_code: currency.code,
    pending: tx.status !== 'completed',
  };
}

// ---------- investments ----------

type Holding = Investments['holdings'][number];
type InvestmentTransaction = Investments['investment_transactions'][number];

export const securityOf = (wallet: Wallet, closePrice: number): Holding['security'] => ({
  security_id: stableId('sec', CONNECTOR_ID, wallet.code),
  ticker: wallet.code,
  name: wallet.currencyName,
  type: 'crypto',
  close_price: closePrice,
});

/** A crypto wallet as a holding: quantity is its balance, valued at the exchange's native balance. */
export function toHolding(wallet: Wallet, login: string): Holding {
  const value = wallet.native ? round(wallet.native.amount, 2) : 0;
  const closePrice = wallet.balance !== 0 ? round(value / wallet.balance, 8) : 0;
  return {
    holding_id: stableId('hld', CONNECTOR_ID, login, wallet.id),
    account_id: accountIdOf(login, wallet.id),
    security: securityOf(wallet, closePrice),
    quantity: wallet.balance,
    cost_basis: null,
    value,
  };
}

/**
 * A completed crypto wallet transaction as an investment transaction: an acquisition (buy, or the
 * receiving side of a trade) is a `buy`, a disposal a `sell`; transfers in and out (send, receive,
 * deposits) are `deposit` / `withdrawal`. Amounts are in the native currency, positive for a buy
 * and a withdrawal, negative for a sell and a deposit; quantity is signed like the asset's movement.
 */
export function toInvestmentTransaction(tx: WalletTransaction, wallet: Wallet, login: string): InvestmentTransaction | null {
  if (tx.status !== 'completed' || tx.amount === 0) return null;
  const quantity = tx.amount;
  const nativeValue = tx.native ? Math.abs(tx.native.amount) : 0;
  const isTrade = tx.type === 'buy' || tx.type === 'sell' || tx.type === 'trade' || tx.type === 'advanced_trade_fill';
  const type: InvestmentTransaction['type'] = isTrade ? (quantity > 0 ? 'buy' : 'sell') : quantity > 0 ? 'deposit' : 'withdrawal';
  // cash leaving is positive: a buy spends it; a transfer in adds value to the account, like cash credited
  const cashOut = type === 'buy' || type === 'withdrawal';
  return {
    investment_transaction_id: stableId('inv', CONNECTOR_ID, login, tx.id),
    account_id: accountIdOf(login, wallet.id),
    ticker: wallet.code,
    type,
    quantity: round(quantity),
    price: round(nativeValue / Math.abs(quantity), 8),
    amount: round(cashOut ? nativeValue : -nativeValue, 2),
    date: tx.createdAt.day,
    name: tx.title,
  };
}

// ---------- identity ----------

export function toIdentity(rawUser: unknown, accountIds: readonly string[]): Identity {
  const user = objectAt(objectAt(rawUser, 'body').data, 'data');
  const name = optionalString(user.name) ?? optionalString(user.username);
  const email = optionalString(user.email);
  return {
    owners: [
      {
        names: name ? [name] : [],
        emails: email ? [{ data: email, primary: true, type: 'personal' }] : [],
        phone_numbers: [],
        addresses: [],
        account_ids: [...accountIds],
      },
    ],
  };
}

// ---------- the refresh cursor ----------

/**
 * Where each wallet's transactions were read up to: the creation time from which the next pull
 * re-reads (the newest seen, or the oldest one still pending so its completion is picked up).
 * Wallets listed here stay reported even when emptied, so their history keeps its account.
 */
export interface Cursor {
  v: 1;
  wallets: Record<string, string>;
}

export function readCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    const c = objectAt(parsed, 'cursor');
    const wallets = objectAt(c.wallets, 'cursor.wallets');
    if (c.v !== 1) return null;
    const out: Record<string, string> = {};
    for (const [id, since] of Object.entries(wallets)) if (typeof since === 'string' && !Number.isNaN(Date.parse(since))) out[id] = since;
    return { v: 1, wallets: out };
  } catch {
    // an unreadable cursor (an older format) means a full re-read, which the stable ids make harmless
    return null;
  }
}
