// Aggregator C's payloads -> the contract (pure). The provider signs amounts from the account's
// point of view (a debit is negative), the opposite of the contract, and dates transactions in
// epoch seconds. Aggregation status codes on an account say whether its data is current.
import { ConnectorError, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { cents, lastFour, payloadReader } from '../payload';

export const CONNECTOR_ID = 'aggregator_c';
export const read = payloadReader('Aggregator C');

/** Aggregation status codes the provider documents as fixable only by the user (its Connect "fix" flow). */
const USER_ACTION_CODES = new Set([103, 108, 109, 185, 187, 945, 946, 947, 948]);

/** The ConnectorError an account's aggregationStatusCode means, or null for 0 (data current). */
export function aggregationStatusError(code: number): ConnectorError | null {
  if (code === 0) return null;
  if (USER_ACTION_CODES.has(code)) return new ConnectorError('login_required', `Aggregator C reports aggregation status ${code}: the user must reconnect.`, { code: String(code) });
  return new ConnectorError('provider_error', `Aggregator C reports aggregation status ${code}.`, { code: String(code) });
}

const TYPES: Record<string, AccountRecord['type']> = {
  checking: 'depository', savings: 'depository', cd: 'depository', moneyMarket: 'depository',
  creditCard: 'credit', lineOfCredit: 'credit',
  mortgage: 'loan', loan: 'loan', autoLoan: 'loan', studentLoan: 'loan',
  investment: 'investment', brokerageAccount: 'investment', '401k': 'investment', ira: 'investment', roth: 'investment',
};

export function mapAccount(raw: unknown, path: string, login: string): AccountRecord {
  const a = read.object(raw, path);
  const providerType = read.string(a.type, `${path}.type`);
  const type = TYPES[providerType] ?? 'depository';
  const name = read.string(a.name, `${path}.name`);
  const balance = read.number(a.balance, `${path}.balance`);
  const detail = a.detail == null ? {} : read.object(a.detail, `${path}.detail`);
  const available = read.optionalNumber(detail.availableBalanceAmount, `${path}.detail.availableBalanceAmount`);
  const limit = read.optionalNumber(detail.creditMaxAmount, `${path}.detail.creditMaxAmount`);
  return {
    account_id: stableId('acc', CONNECTOR_ID, login, idText(a.id, `${path}.id`)),
    name,
    official_name: name,
    type,
    subtype: providerType.toLowerCase(),
    mask: lastFour(read.optionalString(a.accountNumberDisplay, `${path}.accountNumberDisplay`) ?? read.optionalString(a.number, `${path}.number`)),
    // Credit and loan balances come negative (owed); the contract shows what is owed as positive.
    balances: { current: cents(type === 'credit' || type === 'loan' ? Math.abs(balance) : balance), available: available === null ? null : cents(available), limit: limit === null ? null : cents(limit), iso_currency_code: read.currency(read.optionalString(a.currency, `${path}.currency`) ?? 'USD', `${path}.currency`) },
    verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}

/** The provider's ids are digit strings in some payloads and numbers in others. */
function idText(value: unknown, path: string): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return read.string(value, path);
}

/** Epoch seconds up to the year 2200; anything else is not a date this service can store. */
function epochOf(value: unknown, path: string): number | null {
  const seconds = read.optionalNumber(value, path);
  if (seconds !== null && (seconds < 0 || seconds > 7_258_118_400)) throw read.fail(path, 'expected epoch seconds');
  return seconds;
}
const dayOfEpoch = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function mapTransaction(raw: unknown, path: string, login: string, currencyOf: (providerAccountId: string) => string): SourceTransaction {
  const t = read.object(raw, path);
  const providerAccountId = idText(t.accountId, `${path}.accountId`);
  const posted = epochOf(t.postedDate, `${path}.postedDate`);
  const transacted = epochOf(t.transactionDate, `${path}.transactionDate`);
  const status = read.string(t.status, `${path}.status`);
  const pending = status === 'pending';
  const when = pending ? (transacted ?? posted) : (posted ?? transacted);
  if (when === null) throw read.fail(`${path}.postedDate`, 'neither postedDate nor transactionDate is set');
  const categorization = t.categorization == null ? null : read.object(t.categorization, `${path}.categorization`);
  const payee = categorization ? read.optionalString(categorization.normalizedPayeeName, `${path}.categorization.normalizedPayeeName`) : null;
  return {
    transaction_id: stableId('txn', CONNECTOR_ID, login, idText(t.id, `${path}.id`)),
    account_id: stableId('acc', CONNECTOR_ID, login, providerAccountId),
    date: dayOfEpoch(when),
    authorized_datetime: transacted === null ? null : new Date(transacted * 1000).toISOString(),
    name: read.string(t.description, `${path}.description`),
    amount: cents(-read.number(t.amount, `${path}.amount`)),
    iso_currency_code: currencyOf(providerAccountId),
    pending,
    ...(payee ? { counterparty: payee } : {}),
  };
}

/**
 * The ConnectorError of a failed data call. The provider answers `{code, message}`; its message is
 * left out (it may echo request values), its code is kept. A customer it no longer knows (404) was
 * deleted at the provider: the user must link again. 203 is its documented MFA challenge on calls
 * that reach the institution live, which only the user can answer in the hosted Connect flow.
 */
export function connectorErrorOf(status: number, body: unknown, what: string): ConnectorError {
  const code = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).code : undefined;
  const codeText = typeof code === 'number' || (typeof code === 'string' && /^[\w-]{1,20}$/.test(code)) ? String(code) : undefined;
  const label = `Aggregator C answered ${status} to ${what}${codeText ? ` (code ${codeText})` : ''}.`;
  const details = { status, ...(codeText ? { code: codeText } : {}) };
  if (status === 404 || status === 203) return new ConnectorError('login_required', label, details);
  if (status === 429) return new ConnectorError('rate_limited', label, details);
  return new ConnectorError('provider_error', label, details);
}

type Owner = Identity['owners'][number];
const PHONE_TYPES: Record<string, Owner['phone_numbers'][number]['type']> = { home: 'home', work: 'work', business: 'work', mobile: 'mobile', cell: 'mobile', personal: 'personal' };
/** The provider reports three-letter country codes on owner addresses; the contract keeps two. */
const COUNTRY_ALPHA2: Record<string, string> = { USA: 'US', CAN: 'CA', MEX: 'MX', GBR: 'GB', AUS: 'AU' };

/**
 * The account owner details of each account (`holders[]`), merged into the contract's owners: one
 * owner per name with every account it holds. Addresses the provider reports only as one free-text
 * line keep that line as the street (the institution gave no parts to split it by).
 */
export function mapOwners(perAccount: ReadonlyArray<{ accountId: string; body: unknown }>): Identity {
  const owners = new Map<string, Owner>();
  for (const { accountId, body } of perAccount) {
    const holders = read.array(read.object(body, 'owner').holders ?? [], 'owner.holders', 50);
    holders.forEach((raw, i) => {
      const path = `owner.holders[${i}]`;
      const h = read.object(raw, path);
      const name = read.string(h.ownerName, `${path}.ownerName`);
      const known = owners.get(name);
      if (known) {
        if (!known.account_ids.includes(accountId)) known.account_ids.push(accountId);
        return;
      }
      const emails = read.array(h.emails ?? [], `${path}.emails`, 50).map((e, k) => {
        const o = read.object(e, `${path}.emails[${k}]`);
        return { data: read.string(o.email, `${path}.emails[${k}].email`), primary: o.isPrimary === true, type: 'personal' as const };
      });
      const phones = read.array(h.phones ?? [], `${path}.phones`, 50).map((p, k) => {
        const o = read.object(p, `${path}.phones[${k}]`);
        const type = read.optionalString(o.type, `${path}.phones[${k}].type`);
        return { data: read.string(o.phone, `${path}.phones[${k}].phone`), primary: k === 0, type: PHONE_TYPES[(type ?? '').toLowerCase()] ?? 'other' };
      });
      const addresses = read.array(h.addresses ?? [], `${path}.addresses`, 50).map((a, k) => {
        const p = `${path}.addresses[${k}]`;
        const o = read.object(a, p);
        const line1 = read.optionalString(o.line1, `${p}.line1`);
        const country = read.optionalString(o.country, `${p}.country`)?.toUpperCase() ?? 'US';
        return {
          data: {
            street: line1 ?? read.string(o.ownerAddress, `${p}.ownerAddress`),
            city: read.optionalString(o.city, `${p}.city`) ?? '',
            region: read.optionalString(o.state, `${p}.state`),
            postal_code: read.optionalString(o.postalCode, `${p}.postalCode`) ?? '',
            country: COUNTRY_ALPHA2[country] ?? country,
          },
          primary: k === 0,
        };
      });
      owners.set(name, { names: [name], emails, phone_numbers: phones, addresses, account_ids: [accountId] });
    });
  }
  return { owners: [...owners.values()] };
}
