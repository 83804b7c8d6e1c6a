// Accounts in Plaid's shape (AccountBase), and /accounts/get and /accounts/balance/get over our
// accounts.get and accounts.balance.get routes.
//
// Field by field: account_id, name and balances are ours as they are. `mask` and `official_name`
// are null where ours are empty. `type`: ours are Plaid's names except `crypto`, which Plaid files as
// `investment` (its crypto exchange and non-custodial wallet subtypes). `subtype` is ours where it is
// one of Plaid's subtypes (two of ours are spelled differently) and null otherwise. A currency that
// is not ISO 4217 (a crypto asset) goes to `unofficial_currency_code`, as Plaid puts it.
// Not filled: `verification_status` (Plaid sets it only for Auth micro-deposit flows, which we do not
// run), `persistent_account_id`, `holder_category`, `balances.last_updated_datetime`.
import type { AccountBase, AccountBalance, AccountsGetResponse } from 'plaid';
import type { AccountRecord } from '../../contracts/schemas';
import type { ResponseOf } from '../../contracts/routes';
import { handler as accountsBalanceGetHandler } from '../../api/accounts.balance.get';
import { handler as accountsGetHandler } from '../../api/accounts.get';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { plaidItemOf } from './items';
import { parsePlaidRequest } from './requests';
import { PlaidAccessToken, plaidRequest, type Wire } from './wire';
import * as z from 'zod';

/** Every subtype Plaid's client declares (AccountSubtype), checked against that declaration. */
const PLAID_SUBTYPES: ReadonlySet<string> = new Set<Wire<AccountBase>['subtype'] & string>([
  '401a', '401k', '403B', '457b', '529', 'auto', 'brokerage', 'business', 'cash isa', 'cash management', 'cd', 'charge card',
  'checking', 'commercial', 'commercial line of credit', 'construction', 'consumer', 'credit card', 'crypto exchange', 'ebt',
  'education savings account', 'fhsa', 'fixed annuity', 'gic', 'health reimbursement arrangement', 'home equity', 'home equity loan',
  'hsa', 'installment', 'isa', 'ira', 'keogh', 'lif', 'life insurance', 'limited purpose checking', 'line of credit', 'lira', 'loan',
  'lrif', 'lrsp', 'money market', 'mortgage', 'mutual fund', 'non-custodial wallet', 'non-taxable brokerage account', 'other',
  'other insurance', 'other annuity', 'overdraft', 'paypal', 'payroll', 'pension', 'prediction market', 'prepaid', 'prif',
  'profit sharing plan', 'qshr', 'rdsp', 'resp', 'retirement', 'rlif', 'roth', 'roth 401k', 'roth 403B', 'roth 457b', 'roth pension',
  'roth profit sharing plan', 'roth thrift savings plan', 'rrif', 'rrsp', 'sarsep', 'savings', 'sep ira', 'simple ira', 'sipp',
  'stock plan', 'student', 'thrift savings plan', 'tfsa', 'trust', 'ugma', 'utma', 'variable annuity',
]);

/** Our subtypes that Plaid spells differently. */
const SUBTYPE_SPELLING: Readonly<Record<string, string>> = { crypto_exchange: 'crypto exchange', wallet: 'non-custodial wallet' };

type PlaidAccountType = Wire<AccountBase>['type'];
const TYPE_OF: Readonly<Record<AccountRecord['type'], PlaidAccountType>> = {
  depository: 'depository',
  credit: 'credit',
  loan: 'loan',
  investment: 'investment',
  crypto: 'investment',
};

const ISO_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 codes in `iso_currency_code`, anything else (crypto assets) in `unofficial_currency_code`. */
export function currencyFields(code: string): { iso_currency_code: string | null; unofficial_currency_code: string | null } {
  // An ICU build without currency data lists nothing: then every code is taken as ISO.
  const iso = ISO_CURRENCIES.size === 0 || ISO_CURRENCIES.has(code);
  return { iso_currency_code: iso ? code : null, unofficial_currency_code: iso ? null : code };
}

function subtypeOf(subtype: string): Wire<AccountBase>['subtype'] {
  const spelled = Object.hasOwn(SUBTYPE_SPELLING, subtype) ? SUBTYPE_SPELLING[subtype] : subtype;
  return PLAID_SUBTYPES.has(spelled) ? (spelled as Wire<AccountBase>['subtype']) : null;
}

export function plaidAccountOf(account: AccountRecord): Wire<AccountBase> {
  const balances: Wire<AccountBalance> = {
    available: account.balances.available,
    current: account.balances.current,
    limit: account.balances.limit,
    ...currencyFields(account.balances.iso_currency_code),
  };
  return {
    account_id: account.account_id,
    balances,
    mask: account.mask === '' ? null : account.mask,
    name: account.name,
    official_name: account.official_name === '' ? null : account.official_name,
    type: TYPE_OF[account.type],
    subtype: subtypeOf(account.subtype),
  };
}

const AccountsRequest = plaidRequest({
  access_token: PlaidAccessToken,
  options: z.strictObject({ account_ids: z.array(z.string()).optional(), min_last_updated_datetime: z.unknown().optional() }).optional(),
});

type AccountsAnswer = ResponseOf<'accounts.get'> | ResponseOf<'accounts.balance.get'>;

function plaidAccountsResponse(answer: AccountsAnswer): Omit<Wire<AccountsGetResponse>, 'request_id'> {
  return { accounts: answer.accounts.map(plaidAccountOf), item: plaidItemOf(answer.item, null) };
}

async function accountsCall(handler: typeof accountsGetHandler, call: InlineCall, body: unknown) {
  const request = parsePlaidRequest(AccountsRequest, body);
  const ids = request.options?.account_ids;
  // An empty list asks for no filter, as an absent one does (ours requires at least one id when given).
  const answer = (await invokeRoute(handler, call, { access_token: request.access_token, ...(ids?.length ? { options: { account_ids: ids } } : {}) })) as AccountsAnswer;
  return plaidAccountsResponse(answer);
}

/** POST /accounts/get: cached accounts and balances. */
export const accountsGet = (call: InlineCall, body: unknown) => accountsCall(accountsGetHandler, call, body);

/** POST /accounts/balance/get: balances refreshed from the institution when older than 15 minutes (`min_last_updated_datetime` is not honoured). */
export const accountsBalanceGet = (call: InlineCall, body: unknown) => accountsCall(accountsBalanceGetHandler, call, body);
