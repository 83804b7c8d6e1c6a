// Pure mapping from the payment processor's account-linking payloads (Financial Connections
// accounts, transactions, account owners and error objects) to the contract. No I/O here: the
// adapter (index.ts) fetches, this file reads and checks what came back.
import { ConnectorError, type ConnectorErrorKind, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { arr, int, invalid, obj, optStr, str, type Json } from './payload';

export const PROCESSOR_LINK_ID = 'processor_link';

/** Currencies the provider counts in whole units (no minor unit): amounts are not divided by 100. */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);

/** Minor units (an integer) in `currency` -> major units. */
export function fromMinor(amount: number, currency: string): number {
  if (ZERO_DECIMAL.has(currency.toLowerCase())) return amount;
  return Math.round(amount) / 100;
}

function currencyCode(value: unknown, field: string): string {
  const code = str(value, field);
  if (!/^[a-zA-Z]{3}$/.test(code)) throw invalid(field, 'a three-letter currency code');
  return code.toUpperCase();
}

/**
 * A balance map such as `{ usd: 12345 }` (one key per currency, integer minor units). Linked US
 * accounts hold one currency; the first key is the account's currency.
 */
function balanceMap(value: unknown, field: string): { currency: string; amount: number } | null {
  if (value === undefined || value === null) return null;
  const map = obj(value, field);
  const [entry] = Object.entries(map);
  if (!entry) return null;
  const currency = currencyCode(entry[0], `${field} key`);
  return { currency, amount: fromMinor(int(entry[1], `${field}.${entry[0]}`), currency) };
}

export interface LinkedAccount {
  providerId: string;
  status: 'active' | 'inactive' | 'disconnected';
  record: AccountRecord;
  /** The id of the latest transaction refresh and its status; null before the first one. */
  transactionRefresh: { id: string; status: string } | null;
  /** The id of the latest ownership object, when ownership was collected. */
  ownership: string | null;
}

const TYPE_OF_CATEGORY: Record<string, AccountRecord['type']> = { cash: 'depository', credit: 'credit', investment: 'investment', other: 'depository' };

export function mapAccount(raw: unknown, login: string): LinkedAccount {
  const a = obj(raw, 'account');
  const providerId = str(a.id, 'account.id');
  const status = str(a.status, 'account.status');
  if (status !== 'active' && status !== 'inactive' && status !== 'disconnected') throw invalid('account.status', 'active, inactive or disconnected');
  const category = str(a.category, 'account.category');
  const type = TYPE_OF_CATEGORY[category];
  if (!type) throw invalid('account.category', 'a known account category');
  const subtype = optStr(a.subcategory, 'account.subcategory') ?? 'other';
  const displayName = optStr(a.display_name, 'account.display_name');
  const institution = optStr(a.institution_name, 'account.institution_name') ?? '';
  const balance = a.balance === undefined || a.balance === null ? null : obj(a.balance, 'account.balance');
  const current = balance ? balanceMap(balance.current, 'account.balance.current') : null;
  const cashAvailable = balance?.cash ? balanceMap(obj(balance.cash, 'account.balance.cash').available, 'account.balance.cash.available') : null;
  const creditUsed = balance?.credit ? balanceMap(obj(balance.credit, 'account.balance.credit').used, 'account.balance.credit.used') : null;
  // The provider counts a balance as positive when money is owed to the holder; the contract shows
  // a credit account's balance as the amount the holder owes (positive), like Plaid.
  const currentAmount = type === 'credit' ? (creditUsed?.amount ?? (current ? -current.amount : 0)) : (current?.amount ?? 0);
  const refresh = a.transaction_refresh === undefined || a.transaction_refresh === null ? null : obj(a.transaction_refresh, 'account.transaction_refresh');
  return {
    providerId,
    status,
    transactionRefresh: refresh ? { id: str(refresh.id, 'account.transaction_refresh.id'), status: str(refresh.status, 'account.transaction_refresh.status') } : null,
    ownership: optStr(a.ownership, 'account.ownership'),
    record: {
      account_id: stableId('acc', PROCESSOR_LINK_ID, login, providerId),
      name: displayName ?? `${institution} ${subtype}`.trim(),
      official_name: displayName ? `${institution} ${displayName}`.trim() : institution,
      type,
      subtype: subtype.replace(/_/g, ' '),
      mask: optStr(a.last4, 'account.last4') ?? '',
      balances: {
        current: currentAmount,
        available: type === 'credit' ? null : (cashAvailable?.amount ?? null),
        limit: null,
        iso_currency_code: current?.currency ?? cashAvailable?.currency ?? creditUsed?.currency ?? 'USD',
      },
      verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
    },
  };
}

function dateOf(unixSeconds: number): { date: string; iso: string } {
  const iso = new Date(unixSeconds * 1000).toISOString();
  return { date: iso.slice(0, 10), iso: `${iso.slice(0, 19)}Z` };
}

export type MappedTransaction = { kind: 'upsert'; transaction: SourceTransaction } | { kind: 'void'; transactionId: string };

/** A transaction of an account of this item; `accountIds` maps provider account ids to ours. */
export function mapTransaction(raw: unknown, login: string, accountIds: ReadonlyMap<string, string>): MappedTransaction {
  const t = obj(raw, 'transaction');
  const providerId = str(t.id, 'transaction.id');
  const transactionId = stableId('txn', PROCESSOR_LINK_ID, login, providerId);
  const status = str(t.status, 'transaction.status');
  if (status === 'void') return { kind: 'void', transactionId };
  if (status !== 'pending' && status !== 'posted') throw invalid('transaction.status', 'pending, posted or void');
  const accountId = accountIds.get(str(t.account, 'transaction.account'));
  if (!accountId) throw invalid('transaction.account', 'an account of this item');
  const currency = currencyCode(t.currency, 'transaction.currency');
  const when = dateOf(int(t.transacted_at, 'transaction.transacted_at'));
  return {
    kind: 'upsert',
    transaction: {
      transaction_id: transactionId,
      account_id: accountId,
      date: when.date,
      authorized_datetime: when.iso,
      name: optStr(t.description, 'transaction.description') ?? '',
      // The provider reports money leaving the account as negative; the contract as positive.
      amount: -fromMinor(int(t.amount, 'transaction.amount'), currency),
      iso_currency_code: currency,
      pending: status === 'pending',
    },
  };
}

/** Owners of one account (the provider's account-owner list) merged into the contract's identity. */
export function mapOwners(rawOwners: readonly { accountId: string; owners: unknown[] }[]): Identity {
  const byKey = new Map<string, Identity['owners'][number]>();
  for (const { accountId, owners } of rawOwners) {
    owners.forEach((raw, index) => {
      const o = obj(raw, `owners[${index}]`);
      const name = str(o.name, `owners[${index}].name`);
      const email = optStr(o.email, `owners[${index}].email`);
      const phone = optStr(o.phone, `owners[${index}].phone`);
      const address = optStr(o.raw_address, `owners[${index}].raw_address`);
      const key = `${name}\u0000${email ?? ''}`;
      const known = byKey.get(key);
      if (known) {
        if (!known.account_ids.includes(accountId)) known.account_ids.push(accountId);
        return;
      }
      byKey.set(key, {
        names: [name],
        emails: email ? [{ data: email, primary: true, type: 'personal' }] : [],
        phone_numbers: phone ? [{ data: phone, primary: true, type: 'other' }] : [],
        // The provider reports the address as one unparsed line; it is kept whole as the street.
        addresses: address ? [{ data: { street: address, city: '', region: null, postal_code: '', country: 'US' }, primary: true }] : [],
        account_ids: [accountId],
      });
    });
  }
  return { owners: [...byKey.values()] };
}

/** A provider list object: its items and whether more follow. */
export function listOf(body: unknown, what: string): { data: unknown[]; hasMore: boolean } {
  const list = obj(body, what);
  const hasMore = list.has_more;
  if (typeof hasMore !== 'boolean') throw invalid(`${what}.has_more`, 'a boolean');
  return { data: arr(list.data, `${what}.data`), hasMore };
}

/**
 * A provider error object `{ error: { type, code, message } }` -> the ConnectorError kind. The
 * provider's message is not copied: it may echo request parameters.
 */
export function errorKind(status: number, body: unknown): { kind: ConnectorErrorKind; code: string } {
  const error = typeof body === 'object' && body !== null ? (body as Json).error : undefined;
  const fields = typeof error === 'object' && error !== null ? (error as Json) : {};
  const type = typeof fields.type === 'string' ? fields.type : 'unknown';
  const code = typeof fields.code === 'string' ? fields.code : type;
  if (status === 429 || code === 'rate_limit') return { kind: 'rate_limited', code };
  // A linked account the provider no longer knows, or one the user disconnected: link again.
  if (code === 'resource_missing' || code === 'account_disconnected') return { kind: 'login_required', code };
  return { kind: 'provider_error', code };
}

export function providerError(status: number, body: unknown, what: string): ConnectorError {
  const { kind, code } = errorKind(status, body);
  return new ConnectorError(kind, `${what} failed at the account-linking provider (${status} ${code}).`, { status, code });
}
