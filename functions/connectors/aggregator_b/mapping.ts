// Aggregator B's payloads -> the contract (pure). The provider reports every amount as a positive
// number with a DEBIT/CREDIT type, so the sign is taken from the type (money out is positive).
import { ConnectorError, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { cents, lastFour, payloadReader } from '../payload';

export const CONNECTOR_ID = 'aggregator_b';
export const read = payloadReader('Aggregator B');

/** `connection.login` is `<user guid>/<member guid>`: both are the provider's non-secret references. */
export function loginOf(userGuid: string, memberGuid: string): string {
  return `${userGuid}/${memberGuid}`;
}
export function parseLogin(login: string): { userGuid: string; memberGuid: string } {
  const [userGuid, memberGuid, ...rest] = login.split('/');
  if (!userGuid || !memberGuid || rest.length > 0) throw new ConnectorError('provider_error', 'The item\u2019s Aggregator B reference is malformed.');
  return { userGuid, memberGuid };
}

const accountIdOf = (login: string, guid: string) => stableId('acc', CONNECTOR_ID, login, guid);

/**
 * Member connection statuses after which the user must reconnect through the widget (the provider
 * documents these as needing end-user action).
 */
const USER_ACTION_STATUSES = new Set(['CHALLENGED', 'DENIED', 'EXPIRED', 'IMPAIRED', 'IMPEDED', 'PREVENTED', 'REJECTED', 'LOCKED', 'CLOSED', 'DISABLED']);

/** The ConnectorError a member's connection status means, or null when its data can be read. */
export function memberStatusError(status: string): ConnectorError | null {
  if (USER_ACTION_STATUSES.has(status)) return new ConnectorError('login_required', `Aggregator B reports the connection as ${status}: the user must reconnect.`, { code: status });
  return null;
}

const ACCOUNT_TYPES: Record<string, AccountRecord['type']> = {
  CHECKING: 'depository',
  SAVINGS: 'depository',
  CASH: 'depository',
  PREPAID: 'depository',
  CREDIT_CARD: 'credit',
  LINE_OF_CREDIT: 'credit',
  LOAN: 'loan',
  MORTGAGE: 'loan',
  INVESTMENT: 'investment',
  INSURANCE: 'investment',
  PROPERTY: 'investment',
};

export function mapAccount(raw: unknown, path: string, login: string): AccountRecord {
  const a = read.object(raw, path);
  const providerType = read.string(a.type, `${path}.type`).toUpperCase();
  const type = ACCOUNT_TYPES[providerType] ?? 'depository';
  const name = read.string(a.name, `${path}.name`);
  const balance = read.number(a.balance, `${path}.balance`);
  const available = read.optionalNumber(a.available_balance, `${path}.available_balance`);
  const limit = read.optionalNumber(a.credit_limit, `${path}.credit_limit`);
  return {
    account_id: accountIdOf(login, read.string(a.guid, `${path}.guid`)),
    name,
    official_name: name,
    type,
    subtype: (read.optionalString(a.subtype, `${path}.subtype`) ?? providerType).toLowerCase(),
    mask: lastFour(read.optionalString(a.account_number, `${path}.account_number`)),
    balances: {
      current: cents(balance),
      available: available === null ? null : cents(available),
      limit: limit === null ? null : cents(limit),
      iso_currency_code: read.currency(read.optionalString(a.currency_code, `${path}.currency_code`) ?? 'USD', `${path}.currency_code`),
    },
    verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}

export function mapTransaction(raw: unknown, path: string, login: string): SourceTransaction {
  const t = read.object(raw, path);
  const amount = read.number(t.amount, `${path}.amount`);
  const direction = read.string(t.type, `${path}.type`);
  if (direction !== 'DEBIT' && direction !== 'CREDIT') throw read.fail(`${path}.type`, 'expected DEBIT or CREDIT');
  const status = read.string(t.status, `${path}.status`);
  const mcc = t.merchant_category_code == null ? null : String(read.number(t.merchant_category_code, `${path}.merchant_category_code`)).padStart(4, '0');
  const cleaned = read.optionalString(t.description, `${path}.description`);
  const transactedAt = read.optionalString(t.transacted_at, `${path}.transacted_at`);
  return {
    transaction_id: stableId('txn', CONNECTOR_ID, login, read.string(t.guid, `${path}.guid`)),
    account_id: accountIdOf(login, read.string(t.account_guid, `${path}.account_guid`)),
    date: read.date(t.date ?? t.transacted_at, `${path}.date`),
    authorized_datetime: transactedAt,
    name: read.optionalString(t.original_description, `${path}.original_description`) ?? cleaned ?? read.string(t.original_description, `${path}.original_description`),
    amount: cents(direction === 'DEBIT' ? Math.abs(amount) : -Math.abs(amount)),
    iso_currency_code: read.currency(read.optionalString(t.currency_code, `${path}.currency_code`) ?? 'USD', `${path}.currency_code`),
    pending: status === 'PENDING',
    ...(mcc ? { mcc } : {}),
    ...(cleaned ? { counterparty: cleaned } : {}),
  };
}

/** The provider's account owners (one row per owner and account) in the contract's owner list. */
export function mapIdentity(rows: readonly unknown[], login: string): Identity {
  const owners = new Map<string, Identity['owners'][number]>();
  rows.forEach((raw, i) => {
    const p = `account_owners[${i}]`;
    const o = read.object(raw, p);
    const name = read.string(o.owner_name, `${p}.owner_name`);
    const accountId = accountIdOf(login, read.string(o.account_guid, `${p}.account_guid`));
    const known = owners.get(name);
    if (known) {
      if (!known.account_ids.includes(accountId)) known.account_ids.push(accountId);
      return;
    }
    const email = read.optionalString(o.email, `${p}.email`);
    const phone = read.optionalString(o.phone, `${p}.phone`);
    const street = read.optionalString(o.address, `${p}.address`);
    owners.set(name, {
      names: [name],
      emails: email ? [{ data: email, primary: true, type: 'personal' }] : [],
      phone_numbers: phone ? [{ data: phone, primary: true, type: 'other' }] : [],
      addresses: street
        ? [{ data: { street, city: read.optionalString(o.city, `${p}.city`) ?? '', region: read.optionalString(o.state, `${p}.state`), postal_code: read.optionalString(o.postal_code, `${p}.postal_code`) ?? '', country: read.optionalString(o.country, `${p}.country`) ?? 'US' }, primary: true }]
        : [],
      account_ids: [accountId],
    });
  });
  return { owners: [...owners.values()] };
}
