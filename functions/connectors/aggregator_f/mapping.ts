// Pure mapping from the Australian and New Zealand aggregator's payloads (accounts, transactions,
// error lists) to the contract. Amounts and balances arrive as decimal strings.
import { ConnectorError, type ConnectorErrorKind, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { arr, invalid, obj, optStr, str, type Json } from './payload';

export const AGGREGATOR_F_ID = 'aggregator_f';

/** A decimal string such as "-12.50" -> a number; anything else is a provider_error naming the field. */
export function decimal(value: unknown, field: string): number {
  if (typeof value !== 'string' || !/^-?\d{1,15}(\.\d{1,6})?$/.test(value.trim())) throw invalid(field, 'a decimal amount');
  return Number(value);
}

const CLASSES: Record<string, [AccountRecord['type'], string]> = {
  transaction: ['depository', 'checking'],
  savings: ['depository', 'savings'],
  'term-deposit': ['depository', 'cd'],
  'credit-card': ['credit', 'credit card'],
  loan: ['loan', 'loan'],
  mortgage: ['loan', 'mortgage'],
  investment: ['investment', 'brokerage'],
};

export function mapAccount(raw: unknown, login: string): { providerId: string; record: AccountRecord } {
  const a = obj(raw, 'account');
  const providerId = str(a.id, 'account.id');
  const accountClass = a.class === undefined || a.class === null ? {} : obj(a.class, 'account.class');
  const [type, subtype] = CLASSES[optStr(accountClass.type, 'account.class.type') ?? ''] ?? ['depository', 'other'];
  const balance = decimal(a.balance, 'account.balance');
  const available = a.availableFunds === undefined || a.availableFunds === null || a.availableFunds === '' ? null : decimal(a.availableFunds, 'account.availableFunds');
  const currency = str(a.currency, 'account.currency');
  if (!/^[A-Z]{3}$/.test(currency)) throw invalid('account.currency', 'an ISO 4217 currency code');
  const name = str(a.name, 'account.name');
  return {
    providerId,
    record: {
      account_id: stableId('acc', AGGREGATOR_F_ID, login, providerId),
      name,
      official_name: optStr(accountClass.product, 'account.class.product') ?? name,
      type,
      subtype,
      mask: (optStr(a.accountNo, 'account.accountNo') ?? '').replace(/\D/g, '').slice(-4),
      // Card and loan balances are negative amounts owed; the contract shows them as positive.
      balances: { current: type === 'credit' || type === 'loan' ? -balance : balance, available: type === 'credit' ? null : available, limit: null, iso_currency_code: currency },
      verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
    },
  };
}

/** A transaction; `currencyOf` gives the account's currency (transactions carry none of their own). */
export function mapTransaction(raw: unknown, login: string, accounts: ReadonlyMap<string, { accountId: string; currency: string }>): SourceTransaction {
  const t = obj(raw, 'transaction');
  const providerId = str(t.id, 'transaction.id');
  const account = accounts.get(str(t.account, 'transaction.account'));
  if (!account) throw invalid('transaction.account', 'an account of this user');
  const status = str(t.status, 'transaction.status');
  if (status !== 'posted' && status !== 'pending') throw invalid('transaction.status', 'posted or pending');
  const when = optStr(t.postDate, 'transaction.postDate') || optStr(t.transactionDate, 'transaction.transactionDate');
  if (!when || !/^\d{4}-\d{2}-\d{2}/.test(when)) throw invalid('transaction.postDate', 'a date');
  const authorized = optStr(t.transactionDate, 'transaction.transactionDate');
  const subClass = t.subClass === undefined || t.subClass === null ? null : obj(t.subClass, 'transaction.subClass');
  const mcc = subClass ? optStr(subClass.code, 'transaction.subClass.code') : null;
  return {
    transaction_id: stableId('txn', AGGREGATOR_F_ID, login, providerId),
    account_id: account.accountId,
    date: when.slice(0, 10),
    authorized_datetime: authorized && authorized.length > 10 ? new Date(authorized).toISOString().replace('.000Z', 'Z') : null,
    name: optStr(t.description, 'transaction.description') ?? '',
    // The aggregator signs debits negative; the contract shows money leaving as positive.
    amount: -decimal(t.amount, 'transaction.amount'),
    iso_currency_code: account.currency,
    pending: status === 'pending',
    ...(mcc && /^\d{4}$/.test(mcc) ? { mcc } : {}),
  };
}

/** A list page `{ type: 'list', data, links: { next } }`: its items and the next page's URL. */
export function pageOf(body: unknown, what: string): { data: unknown[]; next: string | null } {
  const b = obj(body, what);
  const links = b.links === undefined || b.links === null ? {} : obj(b.links, `${what}.links`);
  return { data: arr(b.data, `${what}.data`), next: optStr(links.next, `${what}.links.next`) };
}

const LOGIN_REQUIRED = new Set(['access-denied', 'forbidden-access', 'invalid-credentials', 'consent-expired', 'consent-revoked', 'connection-not-found']);

/** An error body `{ type: 'list', data: [{ code, title, detail }] }` -> the ConnectorError kind. */
export function errorKind(status: number, body: unknown): { kind: ConnectorErrorKind; code: string } {
  const data = typeof body === 'object' && body !== null ? (body as Json).data : undefined;
  const first = Array.isArray(data) && typeof data[0] === 'object' && data[0] !== null ? (data[0] as Json) : {};
  const code = typeof first.code === 'string' ? first.code : `http_${status}`;
  if (status === 429 || code === 'rate-limit-exceeded') return { kind: 'rate_limited', code };
  if (LOGIN_REQUIRED.has(code)) return { kind: 'login_required', code };
  return { kind: 'provider_error', code };
}

export function providerError(status: number, body: unknown, what: string): ConnectorError {
  const { kind, code } = errorKind(status, body);
  return new ConnectorError(kind, `${what} failed at the aggregator (${status} ${code}).`, { status, code });
}

/** The user's identities (one per connection) -> identity; every owner holds the item's accounts. */
export function mapIdentities(body: unknown, accountIds: string[]): Identity {
  const { data } = pageOf(body, 'identities');
  return {
    owners: data.map((item, i) => {
      const o = obj(item, `identities[${i}]`);
      const strings = (value: unknown, field: string) => (value === undefined || value === null ? [] : arr(value, field).map((v, j) => str(v, `${field}[${j}]`)));
      const addresses = o.physicalAddresses === undefined || o.physicalAddresses === null ? [] : arr(o.physicalAddresses, `identities[${i}].physicalAddresses`);
      return {
        names: [str(o.fullName, `identities[${i}].fullName`)],
        emails: strings(o.emailAddresses, `identities[${i}].emailAddresses`).map((data, j) => ({ data, primary: j === 0, type: 'personal' as const })),
        phone_numbers: strings(o.phoneNumbers, `identities[${i}].phoneNumbers`).map((data, j) => ({ data, primary: j === 0, type: 'mobile' as const })),
        addresses: addresses.map((raw, j) => {
          const a = obj(raw, `identities[${i}].physicalAddresses[${j}]`);
          const field = (name: string) => optStr(a[name], `identities[${i}].physicalAddresses[${j}].${name}`);
          return {
            data: { street: field('addressLine1') ?? field('formattedAddress') ?? '', city: field('city') ?? '', region: field('state'), postal_code: field('postcode') ?? '', country: field('country') ?? '' },
            primary: j === 0,
          };
        }),
        account_ids: accountIds,
      };
    }),
  };
}

/** Whether any of the user's jobs is still retrieving data (a step pending or in progress). */
export function jobsInProgress(body: unknown): boolean {
  return pageOf(body, 'jobs').data.some((raw, i) => {
    const steps = arr(obj(raw, `jobs[${i}]`).steps, `jobs[${i}].steps`);
    return steps.some((step, j) => {
      const status = str(obj(step, `jobs[${i}].steps[${j}]`).status, `jobs[${i}].steps[${j}].status`);
      return status === 'pending' || status === 'in-progress';
    });
  });
}

/** The user's connections: whether one is active, and whether one needs the user again. */
export function connectionsState(body: unknown): { active: number; invalid: number } {
  let active = 0;
  let invalid = 0;
  pageOf(body, 'connections').data.forEach((raw, i) => {
    const status = str(obj(raw, `connections[${i}]`).status, `connections[${i}].status`);
    if (status === 'active' || status === 'pending') active += 1;
    else invalid += 1;
  });
  return { active, invalid };
}
