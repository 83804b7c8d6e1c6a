// Pure mapping from the Latin American aggregator's payloads (accounts, transactions, owners, error
// arrays) to the contract. No I/O: the adapter fetches, this file reads and checks.
import { ConnectorError, type ConnectorErrorKind, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { arr, invalid, obj, optStr, str, type Json } from './payload';

export const AGGREGATOR_H_ID = 'aggregator_h';

function num(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, 'a number');
  return value;
}
const optNum = (value: unknown, field: string) => (value === undefined || value === null ? null : num(value, field));
function currency(value: unknown, field: string): string {
  const code = str(value, field);
  if (!/^[A-Z]{3}$/.test(code)) throw invalid(field, 'an ISO 4217 currency code');
  return code;
}

const CATEGORIES: Record<string, [AccountRecord['type'], string]> = {
  CHECKING_ACCOUNT: ['depository', 'checking'],
  SAVINGS_ACCOUNT: ['depository', 'savings'],
  CREDIT_CARD: ['credit', 'credit card'],
  LOAN_ACCOUNT: ['loan', 'loan'],
  INVESTMENT_ACCOUNT: ['investment', 'brokerage'],
  PENSION_FUND_ACCOUNT: ['investment', 'retirement'],
};

export function mapAccount(raw: unknown, login: string): { providerId: string; record: AccountRecord } {
  const a = obj(raw, 'account');
  const providerId = str(a.id, 'account.id');
  const [type, subtype] = CATEGORIES[str(a.category, 'account.category')] ?? ['depository', 'other'];
  const balance = obj(a.balance, 'account.balance');
  const credit = a.credit_data === undefined || a.credit_data === null ? null : obj(a.credit_data, 'account.credit_data');
  const name = str(a.name, 'account.name');
  const institution = a.institution === undefined || a.institution === null ? {} : obj(a.institution, 'account.institution');
  return {
    providerId,
    record: {
      account_id: stableId('acc', AGGREGATOR_H_ID, login, providerId),
      name,
      official_name: `${optStr(institution.name, 'account.institution.name') ?? ''} ${name}`.trim(),
      type,
      subtype,
      mask: (optStr(a.number, 'account.number') ?? '').replace(/\D/g, '').slice(-4),
      balances: {
        // What is owed on a card or loan is shown as positive, like Plaid.
        current: type === 'credit' || type === 'loan' ? Math.abs(num(balance.current, 'account.balance.current')) : num(balance.current, 'account.balance.current'),
        available: type === 'credit' ? null : optNum(balance.available, 'account.balance.available'),
        limit: credit ? optNum(credit.credit_limit, 'account.credit_data.credit_limit') : null,
        iso_currency_code: currency(a.currency, 'account.currency'),
      },
      verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
    },
  };
}

/** A transaction; the aggregator reports positive amounts with a direction (INFLOW/OUTFLOW). */
export function mapTransaction(raw: unknown, login: string, accountIds: ReadonlyMap<string, string>): SourceTransaction {
  const t = obj(raw, 'transaction');
  const providerId = str(t.id, 'transaction.id');
  const account = obj(t.account, 'transaction.account');
  const accountId = accountIds.get(str(account.id, 'transaction.account.id'));
  if (!accountId) throw invalid('transaction.account.id', 'an account of this link');
  const direction = str(t.type, 'transaction.type');
  if (direction !== 'INFLOW' && direction !== 'OUTFLOW') throw invalid('transaction.type', 'INFLOW or OUTFLOW');
  const amount = Math.abs(num(t.amount, 'transaction.amount'));
  const valueDate = str(t.value_date, 'transaction.value_date');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(valueDate)) throw invalid('transaction.value_date', 'a YYYY-MM-DD date');
  const merchant = t.merchant === undefined || t.merchant === null ? null : obj(t.merchant, 'transaction.merchant');
  const merchantName = merchant ? optStr(merchant.merchant_name ?? merchant.name, 'transaction.merchant.name') : null;
  return {
    transaction_id: stableId('txn', AGGREGATOR_H_ID, login, providerId),
    account_id: accountId,
    date: valueDate,
    authorized_datetime: null,
    name: optStr(t.description, 'transaction.description') ?? '',
    amount: direction === 'OUTFLOW' ? amount : -amount,
    iso_currency_code: currency(t.currency, 'transaction.currency'),
    pending: optStr(t.status, 'transaction.status') === 'PENDING',
    ...(merchantName ? { counterparty: merchantName } : {}),
  };
}

/** Owners of a link -> identity; each owner holds every account of the link. */
export function mapOwners(raw: unknown, accountIds: string[]): Identity {
  return {
    owners: arr(raw, 'owners').map((item, i) => {
      const o = obj(item, `owners[${i}]`);
      const email = optStr(o.email, `owners[${i}].email`);
      const phone = optStr(o.phone_number, `owners[${i}].phone_number`);
      const address = optStr(o.address, `owners[${i}].address`);
      return {
        names: [str(o.display_name, `owners[${i}].display_name`)],
        emails: email ? [{ data: email, primary: true, type: 'personal' as const }] : [],
        phone_numbers: phone ? [{ data: phone, primary: true, type: 'mobile' as const }] : [],
        // The aggregator reports the address as one line; it is kept whole as the street.
        addresses: address ? [{ data: { street: address, city: '', region: null, postal_code: '', country: '' }, primary: true }] : [],
        account_ids: accountIds,
      };
    }),
  };
}

const LOGIN_REQUIRED = new Set(['invalid_credentials', 'login_error', 'session_expired', 'token_required', 'invalid_link', 'unconfirmed_link']);
const RATE_LIMITED = new Set(['too_many_sessions', 'too_many_requests']);

/** An error array `[{ code, message, request_id }]` (or a 428 token request) -> the ConnectorError kind. */
export function errorKind(status: number, body: unknown): { kind: ConnectorErrorKind; code: string } {
  const first = Array.isArray(body) && typeof body[0] === 'object' && body[0] !== null ? (body[0] as Json) : {};
  const code = typeof first.code === 'string' ? first.code : status === 428 ? 'token_required' : `http_${status}`;
  if (LOGIN_REQUIRED.has(code)) return { kind: 'login_required', code };
  if (status === 429 || RATE_LIMITED.has(code)) return { kind: 'rate_limited', code };
  return { kind: 'provider_error', code };
}

export function providerError(status: number, body: unknown, what: string): ConnectorError {
  const { kind, code } = errorKind(status, body);
  return new ConnectorError(kind, `${what} failed at the aggregator (${status} ${code}).`, { status, code });
}

/** A list page `{ count, next, previous, results }`: its items and the next page's URL. */
export function pageOf(body: unknown, what: string): { results: unknown[]; next: string | null } {
  const b = obj(body, what);
  return { results: arr(b.results, `${what}.results`), next: optStr(b.next, `${what}.next`) };
}

/** A link: its id and whether the aggregator can still read it (`valid`), or what it needs. */
export function linkState(raw: unknown): { id: string; status: string } {
  const l = obj(raw, 'link');
  return { id: str(l.id, 'link.id'), status: str(l.status, 'link.status') };
}
