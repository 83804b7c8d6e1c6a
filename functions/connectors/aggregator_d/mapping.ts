// Aggregator D's payloads (FDX-style) -> the contract (pure). Accounts and transactions arrive in
// wrappers named by their kind (`depositAccount`, `locTransaction`, ...); amounts are positive with a
// DEBIT/CREDIT memo; errors carry numeric FDX codes.
import { ConnectorError, type Identity, type Investments, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { cents, lastFour, payloadReader, type Json } from '../payload';

export const CONNECTOR_ID = 'aggregator_d';
export const read = payloadReader('Aggregator D');

const ACCOUNT_KINDS: Record<string, AccountRecord['type']> = { depositAccount: 'depository', locAccount: 'credit', loanAccount: 'loan', investmentAccount: 'investment' };
const TRANSACTION_KINDS = ['depositTransaction', 'locTransaction', 'loanTransaction', 'investmentTransaction'];

/** The one wrapper key of an FDX element and its body. */
function unwrap(raw: unknown, path: string, kinds: readonly string[]): { kind: string; body: Json } {
  const o = read.object(raw, path);
  const kind = kinds.find((k) => o[k] !== undefined);
  if (!kind) throw read.fail(path, `expected one of ${kinds.join(', ')}`);
  return { kind, body: read.object(o[kind], `${path}.${kind}`) };
}

/** FDX error codes: 601/602 the customer's consent is gone or unknown; 1207 too many requests. */
export function connectorErrorOf(status: number, body: unknown): ConnectorError {
  const code = typeof body === 'object' && body !== null ? (body as Json).code : undefined;
  const numeric = typeof code === 'number' ? code : typeof code === 'string' ? Number(code) : NaN;
  const label = `Aggregator D answered ${status}${Number.isFinite(numeric) ? ` with code ${numeric}` : ''}.`;
  if (status === 429 || numeric === 1207) return new ConnectorError('rate_limited', label, { status });
  if (numeric === 601 || numeric === 602 || status === 401) return new ConnectorError('login_required', label, { status, code: String(numeric) });
  return new ConnectorError('provider_error', label, { status, ...(Number.isFinite(numeric) ? { code: String(numeric) } : {}) });
}

export function mapAccount(raw: unknown, path: string, login: string): AccountRecord {
  const { kind, body: a } = unwrap(raw, path, Object.keys(ACCOUNT_KINDS));
  const p = `${path}.${kind}`;
  const type = ACCOUNT_KINDS[kind];
  const name = read.optionalString(a.nickname, `${p}.nickname`) ?? read.optionalString(a.productName, `${p}.productName`) ?? read.optionalString(a.description, `${p}.description`) ?? read.string(a.accountType, `${p}.productName`);
  // Deposit and credit accounts report currentBalance, loans principalBalance, investments currentValue.
  const current = read.optionalNumber(a.currentBalance, `${p}.currentBalance`) ?? read.optionalNumber(a.principalBalance, `${p}.principalBalance`) ?? read.number(a.currentValue, `${p}.currentBalance`);
  const available = read.optionalNumber(a.availableBalance, `${p}.availableBalance`) ?? read.optionalNumber(a.availableCredit, `${p}.availableCredit`);
  const limit = read.optionalNumber(a.creditLine, `${p}.creditLine`);
  const currency = a.currency == null ? 'USD' : read.string(read.object(a.currency, `${p}.currency`).currencyCode, `${p}.currency.currencyCode`);
  return {
    account_id: stableId('acc', CONNECTOR_ID, login, read.string(a.accountId, `${p}.accountId`)),
    name,
    official_name: read.optionalString(a.productName, `${p}.productName`) ?? name,
    type,
    subtype: (read.optionalString(a.accountType, `${p}.accountType`) ?? kind.replace(/Account$/, '')).toLowerCase(),
    mask: lastFour(read.optionalString(a.accountNumberDisplay, `${p}.accountNumberDisplay`)),
    balances: { current: cents(current), available: available === null ? null : cents(available), limit: limit === null ? null : cents(limit), iso_currency_code: read.currency(currency, `${p}.currency.currencyCode`) },
    verification_status: type === 'depository' ? 'automatically_verified' : 'not_applicable',
  };
}

export function mapTransaction(raw: unknown, path: string, login: string, providerAccountId: string, currency: string): SourceTransaction {
  const { kind, body: t } = unwrap(raw, path, TRANSACTION_KINDS);
  const p = `${path}.${kind}`;
  const memo = read.string(t.debitCreditMemo, `${p}.debitCreditMemo`);
  if (memo !== 'DEBIT' && memo !== 'CREDIT') throw read.fail(`${p}.debitCreditMemo`, 'expected DEBIT or CREDIT');
  const amount = Math.abs(read.number(t.amount, `${p}.amount`));
  const pending = read.optionalString(t.status, `${p}.status`) === 'PENDING';
  const transacted = read.optionalString(t.transactionTimestamp, `${p}.transactionTimestamp`);
  const posted = read.optionalString(t.postedTimestamp, `${p}.postedTimestamp`);
  return {
    transaction_id: stableId('txn', CONNECTOR_ID, login, providerAccountId, read.string(t.transactionId, `${p}.transactionId`)),
    account_id: stableId('acc', CONNECTOR_ID, login, providerAccountId),
    date: read.date(pending ? (transacted ?? posted) : (posted ?? transacted), `${p}.postedTimestamp`),
    authorized_datetime: transacted,
    name: read.string(t.description, `${p}.description`),
    amount: cents(memo === 'DEBIT' ? amount : -amount),
    iso_currency_code: currency,
    pending,
  };
}

/** The provider account id inside an FDX account wrapper. */
export function providerAccountIdOf(raw: unknown, path: string): string {
  const { kind, body } = unwrap(raw, path, Object.keys(ACCOUNT_KINDS));
  return read.string(body.accountId, `${path}.${kind}.accountId`);
}

type Owner = Identity['owners'][number];

/**
 * The FDX customer (`/customers/.../current`) as the contract's one owner of every account the item
 * holds. FDX telephones are objects in v5 and plain strings in the provider's v2 payloads: both read.
 */
export function mapCustomer(body: unknown, accountIds: readonly string[]): Identity {
  const root = read.object(body, 'customer response');
  const c = read.object(root.customer ?? root, 'customer');
  const n = read.object(c.name, 'customer.name');
  const names = [[n.prefix, n.first, n.middle, n.last, n.suffix].map((part, i) => read.optionalString(part, `customer.name.${['prefix', 'first', 'middle', 'last', 'suffix'][i]}`)).filter((p): p is string => p !== null).join(' ')];
  if (names[0] === '') throw read.fail('customer.name', 'expected at least one name part');
  const emails = read.array(c.email ?? [], 'customer.email', 50).map((e, k): Owner['emails'][number] => ({ data: read.string(e, `customer.email[${k}]`), primary: k === 0, type: 'personal' }));
  const phones = read.array(c.telephones ?? [], 'customer.telephones', 50).map((t, k): Owner['phone_numbers'][number] => {
    if (typeof t === 'string') return { data: read.string(t, `customer.telephones[${k}]`), primary: k === 0, type: 'other' };
    const o = read.object(t, `customer.telephones[${k}]`);
    const type = read.optionalString(o.type, `customer.telephones[${k}].type`);
    const kind = type === 'HOME' ? 'home' : type === 'BUSINESS' ? 'work' : type === 'CELL' ? 'mobile' : 'other';
    return { data: read.string(o.number, `customer.telephones[${k}].number`), primary: k === 0, type: kind };
  });
  const addresses = read.array(c.addresses ?? [], 'customer.addresses', 50).map((a, k): Owner['addresses'][number] => {
    const p = `customer.addresses[${k}]`;
    const o = read.object(a, p);
    return {
      data: {
        street: [o.line1, o.line2, o.line3].map((l, i) => read.optionalString(l, `${p}.line${i + 1}`)).filter((l): l is string => l !== null).join(', ') || read.string(o.line1, `${p}.line1`),
        city: read.string(o.city, `${p}.city`),
        region: read.optionalString(o.region ?? o.state, `${p}.region`),
        postal_code: read.optionalString(o.postalCode, `${p}.postalCode`) ?? '',
        country: read.optionalString(o.country, `${p}.country`) ?? 'US',
      },
      primary: k === 0,
    };
  });
  return { owners: [{ names, emails, phone_numbers: phones, addresses, account_ids: [...accountIds] }] };
}

const SECURITY_TYPES: Record<string, Investments['securities'][number]['type']> = { STOCK: 'equity', EQUITY: 'equity', MUTUALFUND: 'etf', ETF: 'etf', BOND: 'bond', DEBT: 'bond', CD: 'bond', CASH: 'cash', MONEYMARKET: 'cash', SWEEP: 'cash' };

/**
 * The holdings of the provider's investment accounts. Their activity comes as transactions of those
 * accounts (`investmentTransaction`), so no separate investment transactions are reported here.
 */
export function mapHoldings(body: unknown, login: string): Investments {
  const accounts = read.array(read.object(body, 'investments response').accounts ?? [], 'accounts', 1_000);
  const holdings: Investments['holdings'] = [];
  const securities = new Map<string, Investments['securities'][number]>();
  accounts.forEach((raw, i) => {
    const wrapper = read.object(raw, `accounts[${i}]`);
    if (wrapper.investmentAccount === undefined) return;
    const a = read.object(wrapper.investmentAccount, `accounts[${i}].investmentAccount`);
    const providerAccountId = read.string(a.accountId, `accounts[${i}].investmentAccount.accountId`);
    read.array(a.holdings ?? [], `accounts[${i}].investmentAccount.holdings`, 10_000).forEach((rawHolding, j) => {
      const p = `accounts[${i}].investmentAccount.holdings[${j}]`;
      const h = read.object(rawHolding, p);
      const quantity = read.number(h.units, `${p}.units`);
      const value = read.number(h.marketValue, `${p}.marketValue`);
      const symbol = read.optionalString(h.symbol, `${p}.symbol`);
      const securityKey = read.optionalString(h.securityId, `${p}.securityId`) ?? symbol ?? read.string(h.holdingName ?? h.description, `${p}.holdingName`);
      const price = read.optionalNumber(h.currentUnitPrice, `${p}.currentUnitPrice`) ?? (quantity !== 0 ? value / quantity : 0);
      const holdingType = (read.optionalString(h.holdingType, `${p}.holdingType`) ?? '').toUpperCase();
      const security = {
        security_id: stableId('sec', CONNECTOR_ID, securityKey),
        ticker: symbol ?? (holdingType === 'CASH' ? 'CASH' : ''),
        name: read.optionalString(h.holdingName, `${p}.holdingName`) ?? read.optionalString(h.description, `${p}.description`) ?? symbol ?? securityKey,
        type: SECURITY_TYPES[holdingType] ?? 'equity',
        close_price: cents(price),
      };
      securities.set(security.security_id, security);
      const purchased = read.optionalNumber(h.purchasedPrice, `${p}.purchasedPrice`);
      holdings.push({
        holding_id: stableId('hld', CONNECTOR_ID, login, providerAccountId, read.optionalString(h.holdingId, `${p}.holdingId`) ?? securityKey),
        account_id: stableId('acc', CONNECTOR_ID, login, providerAccountId),
        security,
        quantity,
        cost_basis: purchased === null ? null : cents(purchased * quantity),
        value: cents(value),
      });
    });
  });
  return { holdings, securities: [...securities.values()], investment_transactions: [] };
}
