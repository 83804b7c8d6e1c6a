// Pure mapping from the investment aggregator's payloads (brokerage accounts, positions, activities,
// error bodies) to the contract's accounts, holdings, securities and investment transactions.
import { ConnectorError, type ConnectorErrorKind, type Investments } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { invalid, obj, optStr, str, type Json } from './payload';

export const AGGREGATOR_I_ID = 'aggregator_i';

function num(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, 'a number');
  return value;
}
function currencyOf(value: unknown, field: string): string {
  const code = typeof value === 'object' && value !== null ? (value as Json).code : value;
  const text = str(code, field);
  if (!/^[A-Z]{3}$/.test(text)) throw invalid(field, 'an ISO 4217 currency code');
  return text;
}

export function mapAccount(raw: unknown, login: string): { providerId: string; record: AccountRecord } {
  const a = obj(raw, 'account');
  const providerId = str(a.id, 'account.id');
  const balance = obj(obj(a.balance, 'account.balance').total, 'account.balance.total');
  const name = str(a.name, 'account.name');
  return {
    providerId,
    record: {
      account_id: stableId('acc', AGGREGATOR_I_ID, login, providerId),
      name,
      official_name: `${optStr(a.institution_name, 'account.institution_name') ?? ''} ${name}`.trim(),
      type: 'investment',
      subtype: (optStr(a.raw_type, 'account.raw_type') ?? 'brokerage').toLowerCase(),
      mask: (optStr(a.number, 'account.number') ?? '').slice(-4),
      balances: { current: num(balance.amount, 'account.balance.total.amount'), available: null, limit: null, iso_currency_code: currencyOf(balance.currency, 'account.balance.total.currency') },
      verification_status: 'not_applicable',
    },
  };
}

const SECURITY_TYPES: Record<string, Investments['securities'][number]['type']> = { cs: 'equity', ad: 'equity', ps: 'equity', et: 'etf', oef: 'etf', cef: 'etf', crypto: 'crypto', bnd: 'bond' };

/** A position `{ symbol: { symbol: {...} }, units, price, average_purchase_price }` -> holding + security. */
export function mapPosition(raw: unknown, login: string, accountId: string): { holding: Investments['holdings'][number]; security: Investments['securities'][number] } {
  const p = obj(raw, 'position');
  const universal = obj(obj(p.symbol, 'position.symbol').symbol, 'position.symbol.symbol');
  const providerSecurityId = str(universal.id, 'position.symbol.symbol.id');
  const typeCode = universal.type === undefined || universal.type === null ? null : optStr(obj(universal.type, 'position.symbol.symbol.type').code, 'position.symbol.symbol.type.code');
  const units = num(p.units, 'position.units');
  const price = num(p.price, 'position.price');
  const averagePrice = p.average_purchase_price === undefined || p.average_purchase_price === null ? null : num(p.average_purchase_price, 'position.average_purchase_price');
  const security = {
    security_id: stableId('sec', AGGREGATOR_I_ID, providerSecurityId),
    ticker: str(universal.symbol, 'position.symbol.symbol.symbol'),
    name: optStr(universal.description, 'position.symbol.symbol.description') ?? str(universal.symbol, 'position.symbol.symbol.symbol'),
    type: SECURITY_TYPES[typeCode ?? ''] ?? 'equity',
    close_price: price,
  };
  return {
    security,
    holding: {
      holding_id: stableId('hld', AGGREGATOR_I_ID, login, accountId, providerSecurityId),
      account_id: accountId,
      security,
      quantity: units,
      cost_basis: averagePrice === null ? null : Math.round(averagePrice * units * 100) / 100,
      value: Math.round(units * price * 100) / 100,
    },
  };
}

const ACTIVITY_TYPES: Record<string, Investments['investment_transactions'][number]['type']> = {
  BUY: 'buy',
  SELL: 'sell',
  DIVIDEND: 'dividend',
  STOCK_DIVIDEND: 'dividend',
  CONTRIBUTION: 'deposit',
  DEPOSIT: 'deposit',
  WITHDRAWAL: 'withdrawal',
  FEE: 'fee',
};

/** An activity -> an investment transaction; null for activity types the contract has no type for. */
export function mapActivity(raw: unknown, login: string, accountId: string): Investments['investment_transactions'][number] | null {
  const a = obj(raw, 'activity');
  const type = ACTIVITY_TYPES[str(a.type, 'activity.type')];
  if (!type) return null;
  const symbol = a.symbol === undefined || a.symbol === null ? null : obj(a.symbol, 'activity.symbol');
  const tradeDate = str(a.trade_date, 'activity.trade_date');
  if (!/^\d{4}-\d{2}-\d{2}/.test(tradeDate)) throw invalid('activity.trade_date', 'a date');
  const amount = num(a.amount, 'activity.amount');
  return {
    investment_transaction_id: stableId('inv', AGGREGATOR_I_ID, login, str(a.id, 'activity.id')),
    account_id: accountId,
    ticker: symbol ? (optStr(symbol.symbol, 'activity.symbol.symbol') ?? '') : '',
    type,
    quantity: a.units === undefined || a.units === null ? 0 : num(a.units, 'activity.units'),
    price: a.price === undefined || a.price === null ? 0 : num(a.price, 'activity.price'),
    // The aggregator reports cash into the account as positive; the contract (like Plaid) as negative.
    amount: -amount,
    date: tradeDate.slice(0, 10),
    name: optStr(a.description, 'activity.description') ?? type,
  };
}

/** An error body `{ detail, status_code, code }` -> the ConnectorError kind. */
export function errorKind(status: number, body: unknown): { kind: ConnectorErrorKind; code: string } {
  const b = typeof body === 'object' && body !== null ? (body as Json) : {};
  const code = typeof b.code === 'string' ? b.code : `http_${status}`;
  if (status === 429) return { kind: 'rate_limited', code };
  // A user or connection the aggregator no longer has, or a disabled connection: connect again.
  if (status === 404 || status === 403 || code === '1012' || code === '1083') return { kind: 'login_required', code };
  return { kind: 'provider_error', code };
}

export function providerError(status: number, body: unknown, what: string): ConnectorError {
  const { kind, code } = errorKind(status, body);
  return new ConnectorError(kind, `${what} failed at the aggregator (${status} ${code}).`, { status, code });
}
