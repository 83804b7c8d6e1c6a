// Aggregator E's payloads -> the contract (pure). The provider reports each transaction with a
// Debit or a Credit column (both positive), as a bank statement prints it: a debit is money out
// (positive in the contract), a credit money in (negative).
import { ConnectorError, type Identity, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { cents, lastFour, payloadReader, type Json } from '../payload';

export const CONNECTOR_ID = 'aggregator_e';
export const read = payloadReader('Aggregator E');

const accountIdOf = (login: string, id: string) => stableId('acc', CONNECTOR_ID, login, id);

/** FlinksCode values after which the user must log in through the widget again. */
const LOGIN_REQUIRED_CODES = new Set(['INVALID_LOGIN', 'SESSION_EXPIRED', 'INVALID_USERNAME', 'INVALID_PASSWORD', 'INVALID_SECURITY_RESPONSE', 'QUESTION_NOT_FOUND', 'ACCOUNT_LOCKED', 'RETRY_LATER_NEW_ACCOUNT', 'NEW_ACCOUNT', 'UNAUTHORIZED', 'DISABLED_LOGIN', 'AGGREGATION_ERROR_MFA']);

/** The ConnectorError a non-success answer means (`{HttpStatusCode, FlinksCode, Message}`). */
export function connectorErrorOf(status: number, body: unknown, what: string): ConnectorError {
  const code = typeof body === 'object' && body !== null && typeof (body as Json).FlinksCode === 'string' ? ((body as Json).FlinksCode as string) : null;
  const label = `Aggregator E answered ${status}${code ? ` ${code}` : ''} to ${what}.`;
  if (status === 429) return new ConnectorError('rate_limited', label, { status });
  if (code !== null && LOGIN_REQUIRED_CODES.has(code)) return new ConnectorError('login_required', label, { status, code });
  if (status === 401 && code === null) return new ConnectorError('provider_error', `Aggregator E refused the operator credentials at ${what}.`, { status });
  return new ConnectorError('provider_error', label, { status, ...(code ? { code } : {}) });
}

const TYPES: Record<string, AccountRecord['type']> = { Operations: 'depository', Credits: 'credit', Products: 'loan', Investments: 'investment' };

export function mapAccount(raw: unknown, path: string, login: string): AccountRecord {
  const a = read.object(raw, path);
  const balance = read.object(a.Balance, `${path}.Balance`);
  const available = read.optionalNumber(balance.Available, `${path}.Balance.Available`);
  const current = read.optionalNumber(balance.Current, `${path}.Balance.Current`) ?? available;
  if (current === null) throw read.fail(`${path}.Balance`, 'neither Current nor Available is set');
  const limit = read.optionalNumber(balance.Limit, `${path}.Balance.Limit`);
  const category = read.optionalString(a.Category, `${path}.Category`) ?? 'Operations';
  const type = TYPES[category] ?? 'depository';
  const name = read.string(a.Title, `${path}.Title`);
  return {
    account_id: accountIdOf(login, read.string(a.Id, `${path}.Id`)),
    name,
    official_name: name,
    type,
    subtype: (read.optionalString(a.Type, `${path}.Type`) ?? category).toLowerCase(),
    mask: lastFour(read.optionalString(a.AccountNumber, `${path}.AccountNumber`)),
    balances: { current: cents(current), available: available === null ? null : cents(available), limit: limit === null ? null : cents(limit), iso_currency_code: read.currency(read.optionalString(a.Currency, `${path}.Currency`) ?? 'CAD', `${path}.Currency`) },
    verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}

/** The provider's dates come as `YYYY/MM/DD` or `YYYY-MM-DD`. */
const dateOf = (value: unknown, path: string) => read.date(typeof value === 'string' ? value.replace(/\//g, '-') : value, path);

export function mapTransactions(rawAccount: unknown, path: string, login: string, currency: string): SourceTransaction[] {
  const a = read.object(rawAccount, path);
  const accountId = accountIdOf(login, read.string(a.Id, `${path}.Id`));
  const rows = a.Transactions == null ? [] : read.array(a.Transactions, `${path}.Transactions`, 50_000);
  return rows.map((raw, i) => {
    const p = `${path}.Transactions[${i}]`;
    const t = read.object(raw, p);
    const debit = read.optionalNumber(t.Debit, `${p}.Debit`);
    const credit = read.optionalNumber(t.Credit, `${p}.Credit`);
    if ((debit === null) === (credit === null)) throw read.fail(p, 'expected exactly one of Debit and Credit');
    return {
      transaction_id: stableId('txn', CONNECTOR_ID, login, read.string(t.Id, `${p}.Id`)),
      account_id: accountId,
      date: dateOf(t.Date, `${p}.Date`),
      authorized_datetime: null,
      name: read.string(t.Description, `${p}.Description`),
      amount: cents(debit !== null ? Math.abs(debit) : -Math.abs(credit as number)),
      iso_currency_code: currency,
      // The provider reports posted transactions only.
      pending: false,
    };
  });
}

export function mapIdentity(accounts: readonly unknown[], login: string): Identity {
  const owners = new Map<string, Identity['owners'][number]>();
  accounts.forEach((raw, i) => {
    const a = read.object(raw, `Accounts[${i}]`);
    if (a.Holder == null) return;
    const h = read.object(a.Holder, `Accounts[${i}].Holder`);
    const name = read.string(h.Name, `Accounts[${i}].Holder.Name`);
    const accountId = accountIdOf(login, read.string(a.Id, `Accounts[${i}].Id`));
    const known = owners.get(name);
    if (known) {
      if (!known.account_ids.includes(accountId)) known.account_ids.push(accountId);
      return;
    }
    const address = h.Address == null ? null : read.object(h.Address, `Accounts[${i}].Holder.Address`);
    const street = address ? read.optionalString(address.CivicAddress, `Accounts[${i}].Holder.Address.CivicAddress`) : null;
    const email = read.optionalString(h.Email, `Accounts[${i}].Holder.Email`);
    const phone = read.optionalString(h.PhoneNumber, `Accounts[${i}].Holder.PhoneNumber`);
    owners.set(name, {
      names: [name],
      emails: email ? [{ data: email, primary: true, type: 'personal' }] : [],
      phone_numbers: phone ? [{ data: phone, primary: true, type: 'other' }] : [],
      addresses:
        address && street
          ? [{ data: { street, city: read.optionalString(address.City, 'Holder.Address.City') ?? '', region: read.optionalString(address.Province, 'Holder.Address.Province'), postal_code: read.optionalString(address.PostalCode, 'Holder.Address.PostalCode') ?? '', country: read.optionalString(address.Country, 'Holder.Address.Country') ?? 'CA' }, primary: true }]
          : [],
      account_ids: [accountId],
    });
  });
  return { owners: [...owners.values()] };
}
