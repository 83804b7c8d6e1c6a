// Pure mapping from the pan-European aggregator's payloads (connections, accounts, transactions,
// holder info, error bodies) to the contract. No I/O: index.ts fetches, this file reads and checks.
import { ConnectorError, type ConnectorErrorKind, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { arr, invalid, obj, optStr, str, type Json } from './payload';

export const AGGREGATOR_G_ID = 'aggregator_g';

function amount(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, 'a number');
  return value;
}

function currency(value: unknown, field: string): string {
  const code = str(value, field);
  if (!/^[A-Z]{3}$/.test(code)) throw invalid(field, 'an ISO 4217 currency code');
  return code;
}

function date(value: unknown, field: string): string {
  const text = str(value, field);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw invalid(field, 'a YYYY-MM-DD date');
  return text;
}

/** The provider's account `nature` -> the contract's type and subtype. */
const NATURES: Record<string, [AccountRecord['type'], string]> = {
  account: ['depository', 'checking'],
  checking: ['depository', 'checking'],
  savings: ['depository', 'savings'],
  debit_card: ['depository', 'checking'],
  ewallet: ['depository', 'ewallet'],
  bonus: ['depository', 'other'],
  card: ['credit', 'credit card'],
  credit_card: ['credit', 'credit card'],
  credit: ['loan', 'line of credit'],
  loan: ['loan', 'loan'],
  mortgage: ['loan', 'mortgage'],
  investment: ['investment', 'brokerage'],
  insurance: ['investment', 'other'],
};

export function mapAccount(raw: unknown, login: string): { providerId: string; record: AccountRecord } {
  const a = obj(raw, 'account');
  const providerId = str(a.id, 'account.id');
  const nature = str(a.nature, 'account.nature');
  const [type, subtype] = NATURES[nature] ?? ['depository', 'other'];
  const extra = a.extra === undefined || a.extra === null ? {} : obj(a.extra, 'account.extra');
  const balance = amount(a.balance, 'account.balance');
  const available = extra.available_amount === undefined || extra.available_amount === null ? null : amount(extra.available_amount, 'account.extra.available_amount');
  const limit = extra.credit_limit === undefined || extra.credit_limit === null ? null : amount(extra.credit_limit, 'account.extra.credit_limit');
  const number = optStr(extra.iban, 'account.extra.iban') ?? optStr(extra.account_number, 'account.extra.account_number') ?? optStr(extra.card_type, 'account.extra.card_type') ?? '';
  const name = str(a.name, 'account.name');
  // Card and loan balances come as negative amounts owed; the contract shows what is owed as positive.
  const owed = type === 'credit' || type === 'loan';
  return {
    providerId,
    record: {
      account_id: stableId('acc', AGGREGATOR_G_ID, login, providerId),
      name,
      official_name: optStr(extra.account_name, 'account.extra.account_name') ?? name,
      type,
      subtype,
      mask: number.replace(/\s/g, '').slice(-4),
      balances: { current: owed ? Math.abs(balance) : balance, available: owed ? null : available, limit, iso_currency_code: currency(a.currency_code, 'account.currency_code') },
      verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
    },
  };
}

export function mapTransaction(raw: unknown, login: string, accountId: string): { providerId: string; transaction: SourceTransaction } {
  const t = obj(raw, 'transaction');
  const providerId = str(t.id, 'transaction.id');
  // Ids are numeric and grow with time: the incremental read depends on it.
  if (!/^\d{1,30}$/.test(providerId)) throw invalid('transaction.id', 'a numeric id');
  const status = str(t.status, 'transaction.status');
  if (status !== 'posted' && status !== 'pending') throw invalid('transaction.status', 'posted or pending');
  const extra = t.extra === undefined || t.extra === null ? {} : obj(t.extra, 'transaction.extra');
  const payee = optStr(extra.payee, 'transaction.extra.payee');
  const mcc = optStr(extra.mcc, 'transaction.extra.mcc');
  const time = optStr(extra.time, 'transaction.extra.time');
  const day = date(t.made_on, 'transaction.made_on');
  return {
    providerId,
    transaction: {
      transaction_id: stableId('txn', AGGREGATOR_G_ID, login, providerId),
      account_id: accountId,
      date: day,
      authorized_datetime: time && /^\d{2}:\d{2}:\d{2}$/.test(time) ? `${day}T${time}Z` : null,
      name: optStr(t.description, 'transaction.description') ?? '',
      // The provider reports money leaving the account as negative; the contract as positive.
      amount: -amount(t.amount, 'transaction.amount'),
      iso_currency_code: currency(t.currency_code, 'transaction.currency_code'),
      pending: status === 'pending',
      ...(mcc ? { mcc } : {}),
      ...(payee ? { counterparty: payee } : {}),
    },
  };
}

/** A list response `{ data: [...], meta: { next_id } }`: the items and where the next page starts. */
export function pageOf(body: unknown, what: string): { data: unknown[]; nextId: string | null } {
  const b = obj(body, what);
  const meta = b.meta === undefined || b.meta === null ? {} : obj(b.meta, `${what}.meta`);
  const next = meta.next_id;
  return { data: arr(b.data, `${what}.data`), nextId: next === undefined || next === null ? null : String(next) };
}

/** The connection resource: whether its data can still be read. */
export function connectionState(body: unknown): { id: string; customerId: string; active: boolean; failClass: string | null } {
  const c = obj(obj(body, 'connection response').data, 'connection');
  const lastAttempt = c.last_attempt === undefined || c.last_attempt === null ? {} : obj(c.last_attempt, 'connection.last_attempt');
  return {
    id: str(c.id, 'connection.id'),
    customerId: str(c.customer_id, 'connection.customer_id'),
    active: str(c.status, 'connection.status') === 'active',
    failClass: optStr(lastAttempt.fail_error_class, 'connection.last_attempt.fail_error_class'),
  };
}

/** Holder info of a connection -> one owner of every account. */
export function mapHolderInfo(body: unknown, accountIds: string[]): Identity {
  const h = obj(obj(body, 'holder info response').data, 'holder_info');
  const strings = (value: unknown, field: string) => (value === undefined || value === null ? [] : arr(value, field).map((v, i) => str(v, `${field}[${i}]`)));
  const names = strings(h.names, 'holder_info.names');
  if (names.length === 0) return { owners: [] };
  const addresses = h.addresses === undefined || h.addresses === null ? [] : arr(h.addresses, 'holder_info.addresses');
  return {
    owners: [
      {
        names,
        emails: strings(h.emails, 'holder_info.emails').map((data, i) => ({ data, primary: i === 0, type: 'personal' as const })),
        phone_numbers: strings(h.phone_numbers, 'holder_info.phone_numbers').map((data, i) => ({ data, primary: i === 0, type: 'other' as const })),
        addresses: addresses.map((raw, i) => {
          const a = obj(raw, `holder_info.addresses[${i}]`);
          return {
            data: {
              street: optStr(a.street, `holder_info.addresses[${i}].street`) ?? '',
              city: optStr(a.city, `holder_info.addresses[${i}].city`) ?? '',
              region: optStr(a.state, `holder_info.addresses[${i}].state`),
              postal_code: optStr(a.post_code, `holder_info.addresses[${i}].post_code`) ?? '',
              country: optStr(a.country_code, `holder_info.addresses[${i}].country_code`) ?? '',
            },
            primary: i === 0,
          };
        }),
        account_ids: accountIds,
      },
    ],
  };
}

/** Error classes that mean the user must connect again. */
const LOGIN_REQUIRED = new Set([
  'ConnectionNotFound',
  'ConnectionDisabled',
  'ConnectionLimitReached',
  'ConsentExpired',
  'ConsentRevoked',
  'InvalidCredentials',
  'InteractiveAdapterTimeout',
  'CustomerNotFound',
]);
const RATE_LIMITED = new Set(['RateLimitExceeded', 'TooManyRequests', 'ProviderUnavailable']);

/** An error body `{ error: { class, message } }` -> the ConnectorError kind. */
export function errorKind(status: number, body: unknown): { kind: ConnectorErrorKind; code: string } {
  const error = typeof body === 'object' && body !== null ? (body as Json).error : undefined;
  const errorClass = typeof error === 'object' && error !== null && typeof (error as Json).class === 'string' ? ((error as Json).class as string) : `HTTP ${status}`;
  if (LOGIN_REQUIRED.has(errorClass)) return { kind: 'login_required', code: errorClass };
  if (status === 429 || RATE_LIMITED.has(errorClass)) return { kind: 'rate_limited', code: errorClass };
  return { kind: 'provider_error', code: errorClass };
}

export function providerError(status: number, body: unknown, what: string): ConnectorError {
  const { kind, code } = errorKind(status, body);
  return new ConnectorError(kind, `${what} failed at the aggregator (${status} ${code}).`, { status, code });
}

export function failedConnection(failClass: string | null): ConnectorError {
  return new ConnectorError('login_required', `The bank connection is no longer active${failClass ? ` (${failClass})` : ''}: the user must connect again.`, { code: failClass ?? 'inactive' });
}
