// Pure mapping between the open-banking provider's payloads (GoCardless Bank Account Data API v2,
// Berlin Group NextGenPSD2 shapes) and the contract. No I/O: index.ts fetches, this file reads.
// Every provider payload is untrusted input: a missing or ill-typed field ends the pull with a
// provider_error naming the field, never a TypeError or a NaN amount.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Identity, type SourceTransaction } from '../../core/connector-port';
import { normalizeText } from '../../core/institutions';
import { stableId } from '../ids';

export const OPEN_BANKING_EU_ID = 'open_banking_eu';
const PROVIDER = 'The open banking provider';

/** The longest history the provider grants (its agreements cap max_historical_days at 730). */
export const MAX_HISTORY_DAYS = 730;
/** What an agreement gets when the institution does not say what it allows (the provider's default). */
export const DEFAULT_HISTORY_DAYS = 90;
/** Days re-read before the last read's end at every refresh: pending rows settle, banks back-date bookings. */
export const REFRESH_OVERLAP_DAYS = 14;
/** Sanity bounds: a response larger than this is a misbehaving upstream, not a real account. */
export const MAX_ACCOUNTS_PER_CONSENT = 100;
export const MAX_TRANSACTIONS_PER_READ = 50_000;
export const MAX_INSTITUTIONS_PER_COUNTRY = 20_000;
/** Pending rows remembered in the cursor per account (a real account has a handful). */
export const MAX_PENDING_REMEMBERED = 1_000;

type Json = Record<string, unknown>;

// ---------- reading untrusted payloads ----------

export function unreadable(path: string, why: string): ConnectorError {
  return new ConnectorError('provider_error', `${PROVIDER} sent an unreadable ${path} (${why}).`);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

export function readObject(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unreadable(path, `expected an object, got ${kindOf(value)}`);
  return value as Json;
}

export function readArray(value: unknown, path: string, maxItems: number): unknown[] {
  if (!Array.isArray(value)) throw unreadable(path, `expected an array, got ${kindOf(value)}`);
  if (value.length > maxItems) throw unreadable(path, `more than ${maxItems} items`);
  return value;
}

export function readString(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw unreadable(path, `expected a non-empty string, got ${kindOf(value)}`);
  return value;
}

export function optionalString(value: unknown, path: string): string | null {
  return value === undefined || value === null || value === '' ? null : readString(value, path);
}

/** A positive whole number the provider may send as a JSON number or a numeric string ("730"). */
function optionalWholeNumber(value: unknown, path: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw unreadable(path, `expected a whole number, got ${kindOf(value)}`);
  return n;
}

/** A Berlin Group amount: a decimal string ("-12.30"); JSON numbers are refused as the format forbids them. */
function readAmount(value: unknown, path: string): number {
  if (typeof value !== 'string' || !/^-?\d{1,15}(\.\d{1,5})?$/.test(value.trim())) throw unreadable(path, `expected a decimal amount string, got ${kindOf(value)}`);
  return Math.round(Number(value.trim()) * 100) / 100;
}

function readCurrency(value: unknown, path: string): string {
  const code = readString(value, path).trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw unreadable(path, 'expected an ISO 4217 currency code');
  return code;
}

function isRealDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

function optionalDate(value: unknown, path: string): string | null {
  const text = optionalString(value, path);
  if (text === null) return null;
  const day = text.slice(0, 10);
  if (!isRealDay(day)) throw unreadable(path, 'expected a YYYY-MM-DD date');
  return day;
}

/** `YYYY-MM-DD` shifted by whole days (UTC calendar arithmetic, no clock). */
export function addDays(day: string, days: number): string {
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

const zeroless = (n: number): number => (n === 0 ? 0 : n); // never -0

// ---------- service token ----------

export interface ServiceTokenGrant {
  access: string;
  accessExpiresSeconds: number;
  refresh: string | null;
  refreshExpiresSeconds: number | null;
}

/** POST /token/new/ (access + refresh) or POST /token/refresh/ (access only). */
export function readTokenGrant(body: unknown): ServiceTokenGrant {
  const token = readObject(body, 'token response');
  const access = readString(token.access, 'token access');
  const accessExpiresSeconds = optionalWholeNumber(token.access_expires, 'token access_expires');
  if (accessExpiresSeconds === null || accessExpiresSeconds <= 0) throw unreadable('token access_expires', 'expected a positive lifetime');
  const refresh = optionalString(token.refresh, 'token refresh');
  const refreshExpiresSeconds = optionalWholeNumber(token.refresh_expires, 'token refresh_expires');
  return { access, accessExpiresSeconds, refresh, refreshExpiresSeconds: refresh === null ? null : refreshExpiresSeconds };
}

// ---------- institutions and agreements ----------

export interface ProviderInstitution {
  id: string;
  name: string;
  transactionTotalDays: number | null;
  maxAccessValidForDays: number | null;
}

export function readInstitutions(body: unknown, country: string): ProviderInstitution[] {
  return readArray(body, `institution list of ${country}`, MAX_INSTITUTIONS_PER_COUNTRY).map((raw, i) => {
    const row = readObject(raw, `institutions[${i}]`);
    return {
      id: readString(row.id, `institutions[${i}].id`),
      name: readString(row.name, `institutions[${i}].name`),
      transactionTotalDays: optionalWholeNumber(row.transaction_total_days, `institutions[${i}].transaction_total_days`),
      maxAccessValidForDays: optionalWholeNumber(row.max_access_valid_for_days, `institutions[${i}].max_access_valid_for_days`),
    };
  });
}

const BUSINESS_WORDS = /\b(business|corporate|commercial|company|companies|pro|entreprises?|empresas?|firmen(kunden)?|zakelijk|sme)\b/;

/** Lower case, accents and punctuation removed, words single-spaced: how names are compared. */
export function institutionKey(name: string): string {
  return normalizeText(name).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The provider's institution for one of ours, by name: an exact match of the name or an alias
 * first, then a provider name that starts with one of them as whole words ("Barclays Personal",
 * "ING Belgium"). Among several, the one for the right customer segment (a business entry only
 * for business institutions), then the shortest name, then the id, so the choice is stable.
 */
export function matchInstitution(
  ours: { name: string; aliases?: readonly string[]; type: string },
  candidates: readonly ProviderInstitution[],
): ProviderInstitution | null {
  const names = [ours.name, ...(ours.aliases ?? [])].map(institutionKey).filter((n) => n !== '');
  const wantsBusiness = ours.type === 'business';
  let best: { rank: number; inst: ProviderInstitution } | null = null;
  for (const inst of candidates) {
    const key = institutionKey(inst.name);
    const exact = names.includes(key);
    if (!exact && !names.some((n) => key.startsWith(`${n} `))) continue;
    const segmentMismatch = BUSINESS_WORDS.test(key) !== wantsBusiness ? 1 : 0;
    const rank = (exact ? 0 : 2) + segmentMismatch;
    const better =
      best === null ||
      rank < best.rank ||
      (rank === best.rank && (inst.name.length < best.inst.name.length || (inst.name.length === best.inst.name.length && inst.id < best.inst.id)));
    if (better) best = { rank, inst };
  }
  return best?.inst ?? null;
}

/** The end-user agreement we ask for: as much history and as long an access as the institution allows. */
export function agreementTerms(inst: ProviderInstitution): { maxHistoricalDays: number; accessValidForDays: number } {
  const maxHistoricalDays = Math.max(1, Math.min(MAX_HISTORY_DAYS, inst.transactionTotalDays ?? DEFAULT_HISTORY_DAYS));
  const allowedAccess = inst.maxAccessValidForDays ?? 90;
  const accessValidForDays = allowedAccess >= 180 ? 180 : Math.max(1, Math.min(90, allowedAccess));
  return { maxHistoricalDays, accessValidForDays };
}

export function readCreatedId(body: unknown, what: string): string {
  return readString(readObject(body, what).id, `${what} id`);
}

export function readAgreementHistoryDays(body: unknown): number {
  const days = optionalWholeNumber(readObject(body, 'agreement').max_historical_days, 'agreement max_historical_days');
  return Math.max(1, Math.min(MAX_HISTORY_DAYS, days ?? DEFAULT_HISTORY_DAYS));
}

// ---------- requisitions ----------

export interface Requisition {
  id: string;
  status: string;
  agreementId: string | null;
  accountIds: string[];
  link: string | null;
}

export function readRequisition(body: unknown): Requisition {
  const req = readObject(body, 'requisition');
  const accounts = req.accounts === undefined || req.accounts === null ? [] : readArray(req.accounts, 'requisition accounts', MAX_ACCOUNTS_PER_CONSENT);
  return {
    id: readString(req.id, 'requisition id'),
    status: readString(req.status, 'requisition status').trim().toUpperCase(),
    agreementId: optionalString(req.agreement, 'requisition agreement'),
    accountIds: [...new Set(accounts.map((a, i) => readString(a, `requisition accounts[${i}]`)))],
    link: optionalString(req.link, 'requisition link'),
  };
}

/** What the user is told when a consent did not end linked, by the provider's requisition status. */
export function requisitionRefusal(status: string): string {
  switch (status) {
    case 'RJ':
      return 'The bank rejected the consent: the sign-in failed or was cancelled. Please try again.';
    case 'EX':
      return 'The consent expired before it was completed. Please start again.';
    case 'SU':
      return 'The consent was suspended by the provider. Please start again.';
    case 'CR':
    case 'GC':
    case 'UA':
    case 'SA':
    case 'GA':
      return 'The consent was not completed at the bank. Please finish the bank\u2019s steps or start again.';
    default:
      return `The consent ended in an unexpected state (${status.slice(0, 8)}). Please start again.`;
  }
}

// ---------- accounts ----------

export interface AccountDetails {
  name: string | null;
  product: string | null;
  cashAccountType: string | null;
  currency: string | null;
  ownerName: string | null;
  /** Last four digits of the IBAN / BBAN / masked PAN; never the whole number. */
  mask: string;
}

function lastFour(value: string | null): string {
  if (value === null) return '';
  const compact = value.replace(/[\s-]/g, '');
  const digits = compact.replace(/\D/g, '');
  return (digits === '' ? compact : digits).slice(-4);
}

export function readAccountDetails(body: unknown, path: string): AccountDetails {
  const account = readObject(readObject(body, path).account, `${path}.account`);
  const text = (key: string) => optionalString(account[key], `${path}.account.${key}`);
  return {
    name: text('name') ?? text('displayName'),
    product: text('product'),
    cashAccountType: text('cashAccountType')?.trim().toUpperCase() ?? null,
    currency: account.currency === undefined || account.currency === null || account.currency === '' ? null : readCurrency(account.currency, `${path}.account.currency`),
    ownerName: text('ownerName')?.trim() ?? null,
    mask: lastFour(text('iban') ?? text('bban') ?? text('maskedPan') ?? text('msisdn')),
  };
}

export interface Balance {
  type: string;
  amount: number;
  currency: string;
  creditLimitIncluded: boolean;
}

export function readBalances(body: unknown, path: string): Balance[] {
  const list = readArray(readObject(body, path).balances, `${path}.balances`, 100);
  return list.map((raw, i) => {
    const b = readObject(raw, `${path}.balances[${i}]`);
    const amount = readObject(b.balanceAmount, `${path}.balances[${i}].balanceAmount`);
    return {
      type: readString(b.balanceType, `${path}.balances[${i}].balanceType`),
      amount: readAmount(amount.amount, `${path}.balances[${i}].balanceAmount.amount`),
      currency: readCurrency(amount.currency, `${path}.balances[${i}].balanceAmount.currency`),
      creditLimitIncluded: b.creditLimitIncluded === true,
    };
  });
}

/** The ledger balance: booked first (today's, then yesterday's close), then what is expected. */
const CURRENT_ORDER = ['interimBooked', 'closingBooked', 'expected', 'openingBooked', 'interimAvailable', 'forwardAvailable'];
/** What can be spent: the bank's available balance, else what it expects once pending rows post. */
const AVAILABLE_ORDER = ['interimAvailable', 'forwardAvailable', 'expected'];

const pick = (balances: readonly Balance[], order: readonly string[]) => {
  for (const type of order) {
    const found = balances.find((b) => b.type === type);
    if (found) return found;
  }
  return null;
};

const SUBTYPES: Record<string, { type: AccountRecord['type']; subtype: string }> = {
  CACC: { type: 'depository', subtype: 'checking' },
  TRAN: { type: 'depository', subtype: 'checking' },
  SLRY: { type: 'depository', subtype: 'checking' },
  CASH: { type: 'depository', subtype: 'checking' },
  NFCA: { type: 'depository', subtype: 'checking' },
  ODFT: { type: 'depository', subtype: 'checking' },
  SVGS: { type: 'depository', subtype: 'savings' },
  LLSV: { type: 'depository', subtype: 'savings' },
  ONDP: { type: 'depository', subtype: 'savings' },
  MOMA: { type: 'depository', subtype: 'money market' },
  CARD: { type: 'credit', subtype: 'credit card' },
  LOAN: { type: 'loan', subtype: 'loan' },
  MGLD: { type: 'loan', subtype: 'loan' },
};

/**
 * One account in the contract's shape. Balances: `current` is the booked balance and `available`
 * the bank's available one (see CURRENT_ORDER / AVAILABLE_ORDER). Card and loan accounts report
 * what is owed as a negative balance in the Berlin Group model; the contract shows it positive.
 */
export function toAccount(args: { accountId: string; details: AccountDetails; balances: readonly Balance[]; institutionName: string }): AccountRecord {
  const { details, balances } = args;
  const kind = SUBTYPES[details.cashAccountType ?? ''] ?? { type: 'depository' as const, subtype: details.cashAccountType === null ? 'checking' : 'other' };
  const current = pick(balances, CURRENT_ORDER) ?? balances[0] ?? null;
  const available = pick(balances, AVAILABLE_ORDER);
  const currency = current?.currency ?? details.currency;
  if (currency === null) throw unreadable('account balances', 'no balance and no account currency');
  const owed = kind.type === 'credit' || kind.type === 'loan';
  const name = details.name ?? details.product ?? `${args.institutionName} account`;
  return {
    account_id: args.accountId,
    name,
    official_name: details.product ?? name,
    type: kind.type,
    subtype: kind.subtype,
    mask: details.mask,
    balances: {
      current: zeroless(current === null ? 0 : owed ? -current.amount : current.amount),
      // A card's available balance is the credit left to spend, positive as the bank reports it.
      available: available === null ? null : zeroless(available.amount),
      limit: null,
      iso_currency_code: currency,
    },
    verification_status: kind.type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}

// ---------- transactions ----------

function descriptionOf(row: Json, path: string): string | null {
  const unstructured = optionalString(row.remittanceInformationUnstructured, `${path}.remittanceInformationUnstructured`);
  if (unstructured !== null) return unstructured;
  for (const key of ['remittanceInformationUnstructuredArray', 'remittanceInformationStructuredArray']) {
    if (row[key] === undefined || row[key] === null) continue;
    const parts = readArray(row[key], `${path}.${key}`, 100).filter((p): p is string => typeof p === 'string' && p.trim() !== '');
    if (parts.length > 0) return parts.join(' ');
  }
  return optionalString(row.remittanceInformationStructured, `${path}.remittanceInformationStructured`) ?? optionalString(row.additionalInformation, `${path}.additionalInformation`);
}

const tidy = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 500);

/**
 * The transactions of one account read (booked and pending), mapped to the contract. Amounts are
 * flipped: the provider reports money out as negative, the contract as positive. Ids are stable
 * hashes of the provider's transactionId (else its internalTransactionId); a row with neither gets
 * a hash of its content plus an occurrence index for identical rows. A booked and a pending row
 * with the same provider id are one transaction (the booked one wins); a provider id repeated for
 * rows that differ gets an occurrence suffix so no row is lost.
 */
export function readTransactions(body: unknown, ctx: { login: string; providerAccountId: string; accountId: string; path: string }): SourceTransaction[] {
  const root = readObject(body, ctx.path);
  const lists = readObject(root.transactions, `${ctx.path}.transactions`);
  const booked = lists.booked === undefined || lists.booked === null ? [] : readArray(lists.booked, `${ctx.path}.transactions.booked`, MAX_TRANSACTIONS_PER_READ);
  const pending = lists.pending === undefined || lists.pending === null ? [] : readArray(lists.pending, `${ctx.path}.transactions.pending`, MAX_TRANSACTIONS_PER_READ);
  if (booked.length + pending.length > MAX_TRANSACTIONS_PER_READ) throw unreadable(`${ctx.path}.transactions`, `more than ${MAX_TRANSACTIONS_PER_READ} rows`);

  const out: SourceTransaction[] = [];
  const byProviderId = new Map<string, { fingerprint: string; pending: boolean }>(); // the first row listed under each provider id
  const occurrences = new Map<string, number>();
  const rows: Array<{ raw: unknown; pending: boolean; path: string }> = [
    ...booked.map((raw, i) => ({ raw, pending: false, path: `${ctx.path}.transactions.booked[${i}]` })),
    ...pending.map((raw, i) => ({ raw, pending: true, path: `${ctx.path}.transactions.pending[${i}]` })),
  ];
  for (const { raw, pending: isPending, path } of rows) {
    const row = readObject(raw, path);
    const money = readObject(row.transactionAmount, `${path}.transactionAmount`);
    const signed = readAmount(money.amount, `${path}.transactionAmount.amount`);
    const currency = readCurrency(money.currency, `${path}.transactionAmount.currency`);
    const date =
      optionalDate(row.bookingDate, `${path}.bookingDate`) ??
      optionalDate(row.bookingDateTime, `${path}.bookingDateTime`) ??
      optionalDate(row.valueDate, `${path}.valueDate`) ??
      optionalDate(row.valueDateTime, `${path}.valueDateTime`);
    if (date === null) throw unreadable(`${path}.bookingDate`, 'no booking or value date');
    const moneyOut = signed < 0;
    const creditor = optionalString(row.creditorName, `${path}.creditorName`);
    const debtor = optionalString(row.debtorName, `${path}.debtorName`);
    const counterparty = (moneyOut ? (creditor ?? debtor) : (debtor ?? creditor))?.trim() || null;
    const description = descriptionOf(row, path);
    const name = tidy(description ?? counterparty ?? optionalString(row.proprietaryBankTransactionCode, `${path}.proprietaryBankTransactionCode`) ?? 'Bank transaction') || 'Bank transaction';
    const mccRaw = optionalString(row.merchantCategoryCode, `${path}.merchantCategoryCode`);
    const mcc = mccRaw !== null && /^\d{4}$/.test(mccRaw.trim()) ? mccRaw.trim() : null;

    const providerId = optionalString(row.transactionId, `${path}.transactionId`) ?? optionalString(row.internalTransactionId, `${path}.internalTransactionId`);
    const fingerprint = JSON.stringify([date, signed, currency, name, isPending]);
    let idParts: string[];
    if (providerId !== null) {
      const seen = byProviderId.get(providerId);
      if (seen === undefined) {
        byProviderId.set(providerId, { fingerprint, pending: isPending });
        idParts = ['id', providerId];
      } else {
        // The same row listed twice (or booked and still pending): one transaction.
        if (seen.fingerprint === fingerprint || seen.pending !== isPending) continue;
        const n = (occurrences.get(`id\u0000${providerId}`) ?? 0) + 1;
        occurrences.set(`id\u0000${providerId}`, n);
        idParts = ['id', providerId, String(n)];
      }
    } else {
      const n = occurrences.get(fingerprint) ?? 0;
      occurrences.set(fingerprint, n + 1);
      idParts = ['content', fingerprint, String(n)];
    }
    out.push({
      transaction_id: stableId('txn', OPEN_BANKING_EU_ID, ctx.login, ctx.providerAccountId, ...idParts),
      account_id: ctx.accountId,
      date,
      authorized_datetime: null,
      name,
      amount: zeroless(-signed),
      iso_currency_code: currency,
      pending: isPending,
      ...(mcc !== null ? { mcc } : {}),
      ...(counterparty !== null ? { counterparty: tidy(counterparty) } : {}),
    });
  }
  return out;
}

/** Newest first, as batches report; ties by id so the order is stable. */
export function newestFirst(txns: SourceTransaction[]): SourceTransaction[] {
  return txns.sort((a, b) => (a.date === b.date ? (a.transaction_id < b.transaction_id ? -1 : 1) : a.date < b.date ? 1 : -1));
}

// ---------- identity ----------

export function toIdentity(owners: ReadonlyArray<{ accountId: string; ownerName: string | null }>): Identity {
  const byName = new Map<string, { name: string; accountIds: string[] }>();
  for (const { accountId, ownerName } of owners) {
    if (ownerName === null) continue;
    const key = institutionKey(ownerName);
    const entry = byName.get(key) ?? { name: ownerName, accountIds: [] };
    entry.accountIds.push(accountId);
    byName.set(key, entry);
  }
  return {
    owners: [...byName.values()].map((o) => ({ names: [o.name], emails: [], phone_numbers: [], addresses: [], account_ids: o.accountIds })),
  };
}

// ---------- cursor ----------

/**
 * Where the next refresh resumes, stored in clear on the item: the last day read, the agreement's
 * history length (so a refresh never asks for more than the consent grants) and, per account, the
 * pending rows last reported (our stable ids and dates; no secrets, no provider ids), so a pending
 * row that vanished from the re-read range is reported removed.
 */
export interface Cursor {
  to: string;
  historyDays: number;
  pending: Record<string, Array<[string, string]>>;
}

export function encodeCursor(cursor: Cursor): string {
  return JSON.stringify({ v: 1, to: cursor.to, days: cursor.historyDays, pending: cursor.pending });
}

/** Our own earlier cursor, or null when absent or unreadable (the refresh then reads the whole agreement range). */
export function decodeCursor(text: string | undefined): Cursor | null {
  if (text === undefined || text === '') return null;
  try {
    const raw = JSON.parse(text) as unknown;
    if (typeof raw !== 'object' || raw === null) return null;
    const { v, to, days, pending } = raw as Json;
    if (v !== 1 || typeof to !== 'string' || !isRealDay(to) || typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_HISTORY_DAYS) return null;
    if (typeof pending !== 'object' || pending === null || Array.isArray(pending)) return null;
    const out: Cursor['pending'] = {};
    for (const [accountId, list] of Object.entries(pending as Json)) {
      if (!Array.isArray(list)) return null;
      out[accountId] = list.filter(
        (e): e is [string, string] => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'string' && isRealDay(e[1]),
      );
    }
    return { to, historyDays: days, pending: out };
  } catch {
    return null;
  }
}

/** The pending rows of a read, per account, as the cursor keeps them (newest first, bounded). */
export function pendingOf(txns: readonly SourceTransaction[]): Cursor['pending'] {
  const out: Cursor['pending'] = {};
  for (const t of txns) if (t.pending) (out[t.account_id] ??= []).push([t.transaction_id, t.date]);
  for (const id of Object.keys(out)) out[id] = out[id].sort((a, b) => (a[1] < b[1] ? 1 : -1)).slice(0, MAX_PENDING_REMEMBERED);
  return out;
}

// ---------- provider errors ----------

/** The provider's error body fields, as far as they are readable (never trusted further). */
export function errorFields(body: unknown): { summary: string; detail: string; type: string } {
  const o = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Json) : {};
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return { summary: text(o.summary), detail: text(o.detail), type: text(o.type) };
}

/**
 * Whether an error body says the user's consent is gone: an expired end-user agreement
 * ("EUA was valid for 90 days and it expired…"), AccessExpiredError / AccountInactiveError
 * ("Access has expired or it has been revoked"), an expired or suspended requisition.
 */
export function isConsentGone(body: unknown): boolean {
  const { summary, detail, type } = errorFields(body);
  if (['AccessExpiredError', 'AccountInactiveError', 'EUAExpiredError', 'AccountSuspendedError'].includes(type)) return true;
  const text = `${summary} ${detail}`;
  return /\bEUA\b|end user agreement|access has expired|has been revoked|requisition .*expired|account (is )?(suspended|inactive)/i.test(text);
}

/** Seconds until a rate limit resets, from the provider's headers or its "try again in N seconds" detail. */
export function rateLimitResetSeconds(headers: Readonly<Record<string, string>>, body: unknown): number | undefined {
  const bankLimit = errorFields(body).type === 'RateLimitError';
  const accountHeaders = ['http_x_ratelimit_account_success_reset', 'x-ratelimit-account-success-reset'];
  const generalHeaders = ['retry-after', 'http_x_ratelimit_reset', 'x-ratelimit-reset'];
  for (const name of bankLimit ? [...accountHeaders, ...generalHeaders] : [...generalHeaders, ...accountHeaders]) {
    const value = headers[name]?.trim();
    if (value !== undefined && /^\d{1,9}$/.test(value)) return Number(value);
  }
  const inDetail = /try again in (\d{1,9}) seconds?/i.exec(errorFields(body).detail);
  return inDetail ? Number(inDetail[1]) : undefined;
}
