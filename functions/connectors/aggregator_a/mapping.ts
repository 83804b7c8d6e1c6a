// Aggregator A's payloads -> the contract (pure). The provider speaks the same conventions as the
// contract in most places (amounts positive for money leaving the account, major units, ISO dates),
// so the mapping is mostly validation plus the id scheme: every id the API shows is a stable hash of
// the connector, the item's login and the provider's id (connectors/ids.ts).
import { ConnectorError, type Identity, type Investments, type Liabilities, type SourceTransaction } from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { cents, payloadReader, type Json } from '../payload';

export const CONNECTOR_ID = 'aggregator_a';
export const read = payloadReader('Aggregator A');

export interface Ids {
  account(providerAccountId: string): string;
  transaction(providerTransactionId: string): string;
}

export function idsFor(login: string): Ids {
  return {
    account: (id) => stableId('acc', CONNECTOR_ID, login, id),
    transaction: (id) => stableId('txn', CONNECTOR_ID, login, id),
  };
}

// ---------- errors ----------

/** The provider's documented error body: `{error_type, error_code, error_message, display_message}`. */
export interface ProviderErrorBody {
  error_type: string;
  error_code: string;
}

export function errorBodyOf(json: unknown): ProviderErrorBody | null {
  if (typeof json !== 'object' || json === null) return null;
  const { error_type, error_code } = json as Json;
  return typeof error_type === 'string' && typeof error_code === 'string' ? { error_type, error_code } : null;
}

/** Error codes that mean the user must go through Link again (update mode). */
const LOGIN_REQUIRED_CODES = new Set([
  'ITEM_LOGIN_REQUIRED',
  'PENDING_EXPIRATION',
  'ACCESS_NOT_GRANTED',
  'USER_PERMISSION_REVOKED',
  'INVALID_ACCESS_TOKEN',
  'ITEM_NOT_FOUND',
  'ITEM_LOCKED',
  'INVALID_CREDENTIALS',
  'INVALID_MFA',
  'USER_SETUP_REQUIRED',
]);

/**
 * The ConnectorError an error body means. The message names the provider's error code (never its
 * free text, which is not ours to show) so an operator can look it up.
 */
export function connectorErrorOf(status: number, body: ProviderErrorBody | null, what: string): ConnectorError {
  if (body === null) return new ConnectorError('provider_error', `Aggregator A answered ${status} to ${what} without a readable error body.`, { status });
  const label = `Aggregator A answered ${body.error_code} (${body.error_type}) to ${what}.`;
  if (body.error_type === 'RATE_LIMIT_EXCEEDED' || status === 429) return new ConnectorError('rate_limited', label, { status });
  if (LOGIN_REQUIRED_CODES.has(body.error_code)) return new ConnectorError('login_required', label, { status, code: body.error_code });
  return new ConnectorError('provider_error', label, { status, code: body.error_code });
}

// ---------- accounts ----------

const ACCOUNT_TYPES: Record<string, AccountRecord['type']> = {
  depository: 'depository',
  credit: 'credit',
  loan: 'loan',
  investment: 'investment',
  brokerage: 'investment',
};

export function mapAccount(raw: unknown, path: string, ids: Ids): AccountRecord {
  const a = read.object(raw, path);
  const balances = read.object(a.balances, `${path}.balances`);
  const available = read.optionalNumber(balances.available, `${path}.balances.available`);
  const current = read.optionalNumber(balances.current, `${path}.balances.current`) ?? available;
  if (current === null) throw read.fail(`${path}.balances`, 'neither current nor available is set');
  const currency = read.optionalString(balances.iso_currency_code, `${path}.balances.iso_currency_code`) ?? read.string(balances.unofficial_currency_code, `${path}.balances.unofficial_currency_code`);
  const type = read.string(a.type, `${path}.type`);
  const name = read.string(a.name, `${path}.name`);
  const mappedType = ACCOUNT_TYPES[type] ?? 'depository';
  return {
    account_id: ids.account(read.string(a.account_id, `${path}.account_id`)),
    name,
    official_name: read.optionalString(a.official_name, `${path}.official_name`) ?? name,
    type: mappedType,
    subtype: read.optionalString(a.subtype, `${path}.subtype`) ?? type,
    mask: read.optionalString(a.mask, `${path}.mask`) ?? '',
    balances: {
      current: cents(current),
      available: available === null ? null : cents(available),
      limit: ((l) => (l === null ? null : cents(l)))(read.optionalNumber(balances.limit, `${path}.balances.limit`)),
      iso_currency_code: read.currency(currency, `${path}.balances.iso_currency_code`),
    },
    verification_status: read.optionalString(a.verification_status, `${path}.verification_status`) ?? (mappedType === 'depository' ? 'automatically_verified' : 'not_applicable'),
  };
}

// ---------- transactions ----------

export function mapTransaction(raw: unknown, path: string, ids: Ids): SourceTransaction {
  const t = read.object(raw, path);
  const amount = read.number(t.amount, `${path}.amount`);
  const currency = read.optionalString(t.iso_currency_code, `${path}.iso_currency_code`) ?? read.string(t.unofficial_currency_code, `${path}.unofficial_currency_code`);
  const counterparties = t.counterparties === undefined || t.counterparties === null ? [] : read.array(t.counterparties, `${path}.counterparties`, 50);
  const firstCounterparty = counterparties.length > 0 ? read.object(counterparties[0], `${path}.counterparties[0]`) : null;
  const counterparty = read.optionalString(t.merchant_name, `${path}.merchant_name`) ?? (firstCounterparty ? read.optionalString(firstCounterparty.name, `${path}.counterparties[0].name`) : null);
  return {
    transaction_id: ids.transaction(read.string(t.transaction_id, `${path}.transaction_id`)),
    account_id: ids.account(read.string(t.account_id, `${path}.account_id`)),
    // The provider's `date` is the posted date, or the authorization date while pending, as the contract's.
    date: read.date(t.date, `${path}.date`),
    authorized_datetime: read.optionalString(t.authorized_datetime, `${path}.authorized_datetime`),
    // The raw statement descriptor when the provider was asked for it; its cleaned name otherwise.
    name: read.optionalString(t.original_description, `${path}.original_description`) ?? read.string(t.name, `${path}.name`),
    amount: cents(amount),
    iso_currency_code: read.currency(currency, `${path}.iso_currency_code`),
    pending: read.boolean(t.pending, `${path}.pending`),
    ...(counterparty ? { counterparty } : {}),
  };
}

// ---------- investments ----------

const SECURITY_TYPES: Record<string, Investments['securities'][number]['type']> = {
  equity: 'equity',
  etf: 'etf',
  'mutual fund': 'etf',
  cryptocurrency: 'crypto',
  cash: 'cash',
  'fixed income': 'bond',
};

export function mapInvestments(holdingsBody: Json, investmentTransactions: readonly unknown[], ids: Ids, login: string): Investments {
  const securityIdOf = (providerSecurityId: string) => stableId('sec', CONNECTOR_ID, login, providerSecurityId);
  const securities = new Map<string, Investments['securities'][number]>();
  read.array(holdingsBody.securities, 'securities').forEach((raw, i) => {
    const s = read.object(raw, `securities[${i}]`);
    const providerId = read.string(s.security_id, `securities[${i}].security_id`);
    const name = read.optionalString(s.name, `securities[${i}].name`) ?? providerId;
    securities.set(providerId, {
      security_id: securityIdOf(providerId),
      ticker: read.optionalString(s.ticker_symbol, `securities[${i}].ticker_symbol`) ?? name,
      name,
      type: SECURITY_TYPES[read.optionalString(s.type, `securities[${i}].type`) ?? ''] ?? 'equity',
      close_price: read.optionalNumber(s.close_price, `securities[${i}].close_price`) ?? 0,
    });
  });
  const securityOf = (providerId: string, path: string) => securities.get(providerId) ?? (() => { throw read.fail(path, 'names a security the response does not list'); })();

  const holdings = read.array(holdingsBody.holdings, 'holdings').map((raw, i) => {
    const h = read.object(raw, `holdings[${i}]`);
    const accountProviderId = read.string(h.account_id, `holdings[${i}].account_id`);
    const securityProviderId = read.string(h.security_id, `holdings[${i}].security_id`);
    const security = securityOf(securityProviderId, `holdings[${i}].security_id`);
    const price = read.optionalNumber(h.institution_price, `holdings[${i}].institution_price`);
    return {
      holding_id: stableId('hld', CONNECTOR_ID, login, accountProviderId, securityProviderId),
      account_id: ids.account(accountProviderId),
      security: price === null ? security : { ...security, close_price: price },
      quantity: read.number(h.quantity, `holdings[${i}].quantity`),
      cost_basis: ((c) => (c === null ? null : cents(c)))(read.optionalNumber(h.cost_basis, `holdings[${i}].cost_basis`)),
      value: cents(read.number(h.institution_value, `holdings[${i}].institution_value`)),
    };
  });

  const investment_transactions = investmentTransactions
    .map((raw, i) => {
      const path = `investment_transactions[${i}]`;
      const t = read.object(raw, path);
      const securityProviderId = read.optionalString(t.security_id, `${path}.security_id`);
      const amount = cents(read.number(t.amount, `${path}.amount`));
      return {
        investment_transaction_id: stableId('inv', CONNECTOR_ID, login, read.string(t.investment_transaction_id, `${path}.investment_transaction_id`)),
        account_id: ids.account(read.string(t.account_id, `${path}.account_id`)),
        ticker: securityProviderId ? securityOf(securityProviderId, `${path}.security_id`).ticker : 'CASH',
        type: investmentTypeOf(read.string(t.type, `${path}.type`), read.optionalString(t.subtype, `${path}.subtype`), amount),
        quantity: read.number(t.quantity, `${path}.quantity`),
        price: read.number(t.price, `${path}.price`),
        amount,
        date: read.date(t.date, `${path}.date`),
        name: read.string(t.name, `${path}.name`),
      };
    })
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return { holdings, securities: [...securities.values()], investment_transactions };
}

/** The provider's type/subtype pair in the contract's six kinds; cash movements by their sign (positive = money out). */
function investmentTypeOf(type: string, subtype: string | null, amount: number): Investments['investment_transactions'][number]['type'] {
  if (type === 'buy' || type === 'sell' || type === 'fee') return type;
  if (subtype !== null && subtype.includes('dividend')) return 'dividend';
  if (subtype === 'deposit' || subtype === 'contribution') return 'deposit';
  if (subtype === 'withdrawal' || subtype === 'distribution') return 'withdrawal';
  return amount > 0 ? 'withdrawal' : 'deposit';
}

// ---------- identity ----------

const PHONE_TYPES: Record<string, 'home' | 'work' | 'mobile' | 'other'> = { home: 'home', work: 'work', office: 'work', mobile: 'mobile', mobile1: 'mobile' };

export function mapIdentity(accounts: readonly unknown[], ids: Ids): Identity {
  // The provider lists owners per account; the contract lists each owner once with their accounts.
  const owners = new Map<string, Identity['owners'][number]>();
  accounts.forEach((rawAccount, i) => {
    const a = read.object(rawAccount, `accounts[${i}]`);
    const accountId = ids.account(read.string(a.account_id, `accounts[${i}].account_id`));
    read.array(a.owners ?? [], `accounts[${i}].owners`, 50).forEach((rawOwner, j) => {
      const path = `accounts[${i}].owners[${j}]`;
      const o = read.object(rawOwner, path);
      const names = read.array(o.names, `${path}.names`, 20).map((n, k) => read.string(n, `${path}.names[${k}]`));
      const key = names.join('\u0000');
      const known = owners.get(key);
      if (known) {
        if (!known.account_ids.includes(accountId)) known.account_ids.push(accountId);
        return;
      }
      owners.set(key, {
        names,
        emails: read.array(o.emails ?? [], `${path}.emails`, 50).map((raw, k) => {
          const e = read.object(raw, `${path}.emails[${k}]`);
          return { data: read.string(e.data, `${path}.emails[${k}].data`), primary: read.boolean(e.primary, `${path}.emails[${k}].primary`), type: e.type === 'other' ? 'other' : 'personal' };
        }),
        phone_numbers: read.array(o.phone_numbers ?? [], `${path}.phone_numbers`, 50).map((raw, k) => {
          const p = read.object(raw, `${path}.phone_numbers[${k}]`);
          return { data: read.string(p.data, `${path}.phone_numbers[${k}].data`), primary: read.boolean(p.primary, `${path}.phone_numbers[${k}].primary`), type: PHONE_TYPES[String(p.type)] ?? 'other' };
        }),
        addresses: read.array(o.addresses ?? [], `${path}.addresses`, 50).map((raw, k) => {
          const ad = read.object(raw, `${path}.addresses[${k}]`);
          const d = read.object(ad.data, `${path}.addresses[${k}].data`);
          return {
            data: {
              street: read.string(d.street, `${path}.addresses[${k}].data.street`),
              city: read.string(d.city, `${path}.addresses[${k}].data.city`),
              region: read.optionalString(d.region, `${path}.addresses[${k}].data.region`),
              postal_code: read.optionalString(d.postal_code, `${path}.addresses[${k}].data.postal_code`) ?? '',
              country: read.optionalString(d.country, `${path}.addresses[${k}].data.country`) ?? '',
            },
            primary: read.boolean(ad.primary, `${path}.addresses[${k}].primary`),
          };
        }),
        account_ids: [accountId],
      });
    });
  });
  return { owners: [...owners.values()] };
}

// ---------- liabilities ----------

/**
 * The provider's liabilities in the contract's shape. The contract requires some fields the provider
 * may leave null (a card with no statement yet has no minimum payment): such an entry cannot be
 * represented truthfully, so it is left out rather than filled with invented values.
 */
export function mapLiabilities(body: Json, ids: Ids): Liabilities {
  const l = read.object(body.liabilities, 'liabilities');
  const list = (key: string) => (l[key] === undefined || l[key] === null ? [] : read.array(l[key], `liabilities.${key}`));
  const present = <T>(value: T | null): value is T => value !== null;
  const optCents = (v: number | null) => (v === null ? null : cents(v));

  const credit = list('credit')
    .map((raw, i) => {
      const p = `liabilities.credit[${i}]`;
      const c = read.object(raw, p);
      const minimum = read.optionalNumber(c.minimum_payment_amount, `${p}.minimum_payment_amount`);
      const due = c.next_payment_due_date == null ? null : read.date(c.next_payment_due_date, `${p}.next_payment_due_date`);
      if (minimum === null || due === null) return null;
      return {
        account_id: ids.account(read.string(c.account_id, `${p}.account_id`)),
        aprs: read.array(c.aprs ?? [], `${p}.aprs`, 20).map((rawApr, k) => {
          const a = read.object(rawApr, `${p}.aprs[${k}]`);
          const type = read.string(a.apr_type, `${p}.aprs[${k}].apr_type`);
          const apr_type = type === 'purchase_apr' ? 'purchase' : type === 'cash_apr' ? 'cash_advance' : type === 'balance_transfer_apr' ? 'balance_transfer' : 'special';
          return { apr_type, apr_percentage: read.number(a.apr_percentage, `${p}.aprs[${k}].apr_percentage`) } as const;
        }),
        is_overdue: c.is_overdue === true,
        last_payment_amount: optCents(read.optionalNumber(c.last_payment_amount, `${p}.last_payment_amount`)),
        last_payment_date: c.last_payment_date == null ? null : read.date(c.last_payment_date, `${p}.last_payment_date`),
        last_statement_balance: optCents(read.optionalNumber(c.last_statement_balance, `${p}.last_statement_balance`)),
        last_statement_issue_date: c.last_statement_issue_date == null ? null : read.date(c.last_statement_issue_date, `${p}.last_statement_issue_date`),
        minimum_payment_amount: cents(minimum),
        next_payment_due_date: due,
      };
    })
    .filter(present);

  const mortgage = list('mortgage')
    .map((raw, i) => {
      const p = `liabilities.mortgage[${i}]`;
      const m = read.object(raw, p);
      const rate = m.interest_rate == null ? null : read.object(m.interest_rate, `${p}.interest_rate`);
      const percentage = rate ? read.optionalNumber(rate.percentage, `${p}.interest_rate.percentage`) : null;
      const fields = [m.origination_date, m.origination_principal_amount, m.maturity_date, m.next_monthly_payment, m.next_payment_due_date];
      if (percentage === null || fields.some((f) => f == null)) return null;
      return {
        account_id: ids.account(read.string(m.account_id, `${p}.account_id`)),
        interest_rate_percentage: percentage,
        interest_rate_type: rate?.type === 'variable' ? 'variable' : 'fixed',
        origination_date: read.date(m.origination_date, `${p}.origination_date`),
        origination_principal_amount: cents(read.number(m.origination_principal_amount, `${p}.origination_principal_amount`)),
        maturity_date: read.date(m.maturity_date, `${p}.maturity_date`),
        next_monthly_payment: cents(read.number(m.next_monthly_payment, `${p}.next_monthly_payment`)),
        next_payment_due_date: read.date(m.next_payment_due_date, `${p}.next_payment_due_date`),
        escrow_balance: optCents(read.optionalNumber(m.escrow_balance, `${p}.escrow_balance`)),
      } as const;
    })
    .filter(present);

  const student = list('student')
    .map((raw, i) => {
      const p = `liabilities.student[${i}]`;
      const s = read.object(raw, p);
      const fields = [s.interest_rate_percentage, s.minimum_payment_amount, s.next_payment_due_date, s.origination_date, s.origination_principal_amount, s.expected_payoff_date];
      if (fields.some((f) => f == null)) return null;
      return {
        account_id: ids.account(read.string(s.account_id, `${p}.account_id`)),
        loan_name: read.optionalString(s.loan_name, `${p}.loan_name`) ?? 'Student loan',
        interest_rate_percentage: read.number(s.interest_rate_percentage, `${p}.interest_rate_percentage`),
        minimum_payment_amount: cents(read.number(s.minimum_payment_amount, `${p}.minimum_payment_amount`)),
        next_payment_due_date: read.date(s.next_payment_due_date, `${p}.next_payment_due_date`),
        origination_date: read.date(s.origination_date, `${p}.origination_date`),
        origination_principal_amount: cents(read.number(s.origination_principal_amount, `${p}.origination_principal_amount`)),
        expected_payoff_date: read.date(s.expected_payoff_date, `${p}.expected_payoff_date`),
      };
    })
    .filter(present);

  // The provider reports no auto loans as a liability kind.
  return { credit, mortgage, student, auto: [] };
}
