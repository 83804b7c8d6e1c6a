// Pure mapping of the payment app's REST payloads (coded against PayPal's public REST API
// documentation: OAuth token, Identity userinfo, Reporting balances and Transaction Search) to
// the contract. Every payload is untrusted input: a missing or ill-typed field is a
// provider_error naming the field.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Identity, type SourceTransaction } from '../../core/connector-port';
import { stableId } from '../ids';

export const PAYMENT_APP_CONNECTOR_ID = 'payment_app_a';

type Json = Record<string, unknown>;

export const bad = (what: string): ConnectorError => new ConnectorError('provider_error', `The payment app answered an unreadable payload: ${what}.`);

function record(value: unknown, where: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${where} is not an object`);
  return value as Json;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw bad(`${where} is not a list`);
  return value;
}

function text(o: Json, key: string, where: string): string {
  const value = o[key];
  if (typeof value !== 'string' || value === '') throw bad(`${where}.${key} is missing or not a string`);
  return value;
}

const optionalText = (o: Json | undefined, key: string): string | null => {
  const value = o?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

const optionalRecord = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);

/** A money object `{ currency_code, value }` with a decimal string value. */
function money(value: unknown, where: string): { currency: string; amount: number } {
  const m = record(value, where);
  const currency = text(m, 'currency_code', where);
  if (!/^[A-Z]{3}$/.test(currency)) throw bad(`${where}.currency_code is not a currency code`);
  const amount = text(m, 'value', where);
  if (!/^-?\d{1,15}(\.\d{1,8})?$/.test(amount)) throw bad(`${where}.value is not a decimal amount`);
  return { currency, amount: Number(amount) };
}

/** PayPal writes offsets as +0000 as well as +00:00; answers the instant as ISO 8601 UTC. */
export function parseProviderTime(value: string, where: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.exec(value);
  const zone = match ? (match[3] === 'Z' ? 'Z' : `${match[3].slice(0, 3)}:${match[3].slice(-2)}`) : '';
  const ms = match ? Date.parse(`${match[1]}${zone}`) : NaN;
  if (Number.isNaN(ms)) throw bad(`${where} is not a date-time`);
  return new Date(ms).toISOString();
}

// ---------- OAuth ----------

export interface Tokens {
  accessToken: string;
  /** Absent when the provider kept the refresh token it had (a refresh grant usually does). */
  refreshToken: string | null;
}

export function parseTokenResponse(payload: unknown): Tokens {
  const body = record(payload, 'token response');
  const accessToken = text(body, 'access_token', 'token response');
  const refreshToken = body.refresh_token === undefined ? null : text(body, 'refresh_token', 'token response');
  return { accessToken, refreshToken };
}

/** The error name of a PayPal error body: `name` (REST APIs) or `error` (the OAuth endpoints). */
export function errorNameOf(payload: unknown): string | null {
  const body = optionalRecord(payload);
  const name = body?.name ?? body?.error;
  return typeof name === 'string' && /^[A-Za-z_.-]{1,80}$/.test(name) ? name : null;
}

/** Whether a 400 body of Transaction Search says the date range holds too many transactions. */
export function isResultSetTooLarge(payload: unknown): boolean {
  const body = optionalRecord(payload);
  if (body?.name === 'RESULTSET_TOO_LARGE') return true;
  return Array.isArray(body?.details) && body.details.some((d) => optionalRecord(d)?.issue === 'RESULTSET_TOO_LARGE');
}

// ---------- identity ----------

export interface UserInfo {
  /** The payer id: the non-secret reference the item stores. */
  payerId: string;
  raw: Json;
}

export function parseUserInfo(payload: unknown): UserInfo {
  const body = record(payload, 'userinfo');
  const payerId = optionalText(body, 'payer_id') ?? text(body, 'user_id', 'userinfo');
  if (payerId.length > 200) throw bad('userinfo.payer_id is too long');
  return { payerId, raw: body };
}

export function identityOf(info: UserInfo, accountIds: readonly string[]): Identity {
  const body = info.raw;
  const fullName = optionalText(body, 'name') ?? [optionalText(body, 'given_name'), optionalText(body, 'family_name')].filter(Boolean).join(' ');
  const emails = (Array.isArray(body.emails) ? body.emails : [])
    .map(optionalRecord)
    .filter((e): e is Json => e !== undefined && typeof e.value === 'string' && e.value !== '')
    .map((e) => ({ data: e.value as string, primary: e.primary === true, type: 'personal' as const }));
  const phone = optionalText(body, 'phone_number');
  const address = optionalRecord(body.address);
  const street = optionalText(address, 'street_address');
  const city = optionalText(address, 'locality');
  const country = optionalText(address, 'country');
  return {
    owners: [
      {
        names: fullName ? [fullName] : [],
        emails,
        phone_numbers: phone ? [{ data: phone, primary: true, type: 'mobile' }] : [],
        addresses:
          street && city && country
            ? [{ data: { street, city, region: optionalText(address, 'region'), postal_code: optionalText(address, 'postal_code') ?? '', country }, primary: true }]
            : [],
        account_ids: [...accountIds],
      },
    ],
  };
}

// ---------- balances ----------

export const accountIdOf = (login: string, currency: string): string => stableId('acc', PAYMENT_APP_CONNECTOR_ID, login, currency);

/** One depository account per currency balance. */
export function accountsOfBalances(payload: unknown, login: string, institutionName: string): AccountRecord[] {
  const body = record(payload, 'balances response');
  const providerAccount = optionalText(body, 'account_id') ?? login;
  const seen = new Set<string>();
  return list(body.balances, 'balances').map((value, i) => {
    const where = `balances[${i}]`;
    const balance = record(value, where);
    const currency = text(balance, 'currency', where);
    if (!/^[A-Z]{3}$/.test(currency)) throw bad(`${where}.currency is not a currency code`);
    if (seen.has(currency)) throw bad(`${where}.currency ${currency} is listed twice`);
    seen.add(currency);
    const total = money(balance.total_balance, `${where}.total_balance`);
    const available = balance.available_balance === undefined ? null : money(balance.available_balance, `${where}.available_balance`);
    return {
      account_id: accountIdOf(login, currency),
      name: `${institutionName} balance (${currency})`,
      official_name: `${institutionName} ${currency} balance`,
      type: 'depository' as const,
      subtype: 'paypal',
      mask: providerAccount.slice(-4),
      balances: { current: total.amount, available: available ? available.amount : null, limit: null, iso_currency_code: currency },
      verification_status: 'automatically_verified',
    };
  });
}

/** An account for a currency a transaction uses but the balances no longer list (a zero balance). */
export function emptyAccount(login: string, currency: string, institutionName: string, mask: string): AccountRecord {
  return {
    account_id: accountIdOf(login, currency),
    name: `${institutionName} balance (${currency})`,
    official_name: `${institutionName} ${currency} balance`,
    type: 'depository',
    subtype: 'paypal',
    mask,
    balances: { current: 0, available: 0, limit: null, iso_currency_code: currency },
    verification_status: 'automatically_verified',
  };
}

// ---------- transactions ----------

export interface TransactionsPage {
  details: unknown[];
  totalPages: number;
}

export function parseTransactionsPage(payload: unknown): TransactionsPage {
  const body = record(payload, 'transactions response');
  const details = body.transaction_details === undefined ? [] : list(body.transaction_details, 'transaction_details');
  const totalPages = body.total_pages ?? 0;
  if (typeof totalPages !== 'number' || !Number.isSafeInteger(totalPages) || totalPages < 0) throw bad('total_pages is not a whole number');
  return { details, totalPages };
}

/** Transaction event code groups (the first three characters), for a name when nothing better is reported. */
const EVENT_GROUPS: Readonly<Record<string, string>> = {
  T00: 'PayPal payment',
  T01: 'PayPal fee',
  T02: 'Currency conversion',
  T03: 'Bank deposit to PayPal',
  T04: 'Withdrawal to bank',
  T05: 'PayPal debit card',
  T06: 'Credit card withdrawal',
  T07: 'Credit card deposit',
  T08: 'Loyalty incentive',
  T09: 'Gift certificate redemption',
  T10: 'Bill payment',
  T11: 'Reversal',
  T12: 'Adjustment',
  T14: 'Dividend',
  T15: 'Hold for dispute',
  T16: 'Buyer credit deposit',
  T17: 'Withdrawal',
  T18: 'Buyer credit withdrawal',
  T19: 'Account correction',
  T20: 'Transfer to another PayPal account',
  T21: 'Reserve or release',
  T22: 'Transfer',
};

export type MappedDetail =
  | { kind: 'upsert'; transactions: SourceTransaction[]; pendingDate: string | null }
  /** Reversed or denied: the ids it would have had, to remove them if they were reported before. */
  | { kind: 'removed'; ids: string[] };

/**
 * One `transaction_details` entry. Transaction ids are not unique in the reporting system (a
 * balance-affecting and a non-balance-affecting record may share one), so the stable id is built
 * from the id and the event code. A fee is reported as its own transaction, so that the
 * transactions add up to the balance.
 */
export function mapTransactionDetail(value: unknown, index: number, login: string): MappedDetail {
  const where = `transaction_details[${index}]`;
  const detail = record(value, where);
  const info = record(detail.transaction_info, `${where}.transaction_info`);
  const infoWhere = `${where}.transaction_info`;
  const providerId = text(info, 'transaction_id', infoWhere);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(providerId)) throw bad(`${infoWhere}.transaction_id is not an id`);
  const eventCode = text(info, 'transaction_event_code', infoWhere);
  if (!/^T\d{4}$/.test(eventCode)) throw bad(`${infoWhere}.transaction_event_code is not an event code`);
  const status = text(info, 'transaction_status', infoWhere);
  const mainId = stableId('txn', PAYMENT_APP_CONNECTOR_ID, login, `${providerId}:${eventCode}`);
  const feeId = stableId('txn', PAYMENT_APP_CONNECTOR_ID, login, `${providerId}:${eventCode}:fee`);
  if (status === 'V' || status === 'D') return { kind: 'removed', ids: [mainId, feeId] };
  // S: completed; P: pending; F: partially refunded (the refund is its own transaction).
  if (status !== 'S' && status !== 'P' && status !== 'F') throw bad(`${infoWhere}.transaction_status "${status.slice(0, 8)}" is unknown`);

  const initiated = parseProviderTime(text(info, 'transaction_initiation_date', infoWhere), `${infoWhere}.transaction_initiation_date`);
  const gross = money(info.transaction_amount, `${infoWhere}.transaction_amount`);
  const fee = info.fee_amount === undefined ? null : money(info.fee_amount, `${infoWhere}.fee_amount`);
  const pending = status === 'P';
  const date = initiated.slice(0, 10);

  const payer = optionalRecord(detail.payer_info);
  const payerName = optionalRecord(payer?.payer_name);
  const personName = optionalText(payerName, 'alternate_full_name') ?? ([optionalText(payerName, 'given_name'), optionalText(payerName, 'surname')].filter(Boolean).join(' ') || null);
  // Money that came in names its payer; for money going out the payer is the account holder.
  const counterparty = gross.amount > 0 ? personName : null;
  const items = (Array.isArray(optionalRecord(detail.cart_info)?.item_details) ? (optionalRecord(detail.cart_info)?.item_details as unknown[]) : [])
    .map((item) => optionalText(optionalRecord(item), 'item_name'))
    .filter((name): name is string => name !== null);
  const label = EVENT_GROUPS[eventCode.slice(0, 3)] ?? 'PayPal transaction';
  const name = (counterparty ?? optionalText(info, 'transaction_subject') ?? items[0] ?? label).slice(0, 200);

  const base = { account_id: accountIdOf(login, gross.currency), date, authorized_datetime: initiated, pending };
  // PayPal signs amounts from the account's side (negative = out); the contract is the reverse.
  const transactions: SourceTransaction[] = [
    { ...base, transaction_id: mainId, name, amount: -gross.amount || 0, iso_currency_code: gross.currency, ...(counterparty ? { counterparty } : {}) },
  ];
  if (fee && fee.amount !== 0) {
    transactions.push({ ...base, account_id: accountIdOf(login, fee.currency), transaction_id: feeId, name: 'PayPal fee', amount: -fee.amount || 0, iso_currency_code: fee.currency });
  }
  return { kind: 'upsert', transactions, pendingDate: pending ? date : null };
}
