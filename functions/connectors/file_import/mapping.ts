// A parsed statement (core/statements) as the connector port reports it: accounts with balances,
// a change batch of transactions (corrections included) and the holdings and investment
// transactions of brokerage statements. Ids are stable hashes of the import item's login, the
// file's account and the transaction's FITID (or the parser's content hash), so a re-imported or
// overlapping file maps to the same objects and adds nothing twice.
import type { AccountRecord } from '../../contracts/schemas';
import { ConnectorError, type Investments, type SourceBatch, type SourceTransaction } from '../../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../../core/connectors';
import type { ParsedAccount, ParsedHolding, ParsedInvestmentTransaction, ParsedStatement } from '../../core/statements/types';
import { stableId } from '../ids';

/** A file that does not name its currency (many CSV exports): the import reports in this one, documented. */
export const DEFAULT_CURRENCY = 'USD';

type InvestmentTransaction = Investments['investment_transactions'][number];
type Holding = Investments['holdings'][number];

const accountIdOf = (login: string, account: ParsedAccount) => stableId('acc', FILE_IMPORT_CONNECTOR_ID, login, account.sourceId);
const transactionIdOf = (login: string, account: ParsedAccount, fileId: string) => stableId('txn', FILE_IMPORT_CONNECTOR_ID, login, account.sourceId, fileId);

/**
 * Amounts beyond this are not money a statement holds; a number that large would also lose cents
 * as a JSON number. Such a file is refused rather than imported with a silently rounded amount.
 */
export const STATEMENT_AMOUNT_MAX = 1e13;

/** A decimal string in the file's sign as a number (the parser guarantees the syntax). */
const num = (decimal: string, line: number | null = null) => {
  const n = Number(decimal);
  if (!Number.isFinite(n) || Math.abs(n) >= STATEMENT_AMOUNT_MAX) {
    throw new ConnectorError('invalid_input', `The amount ${decimal.slice(0, 40)} is out of range${line === null ? '' : ` (line ${line})`}`, { code: 'statement_malformed' });
  }
  return n;
};
/** The API's sign: money leaving the account is positive. */
const flip = (decimal: string, line: number | null = null) => {
  const n = -num(decimal, line);
  return Object.is(n, -0) ? 0 : n;
};

const DEPOSITORY_SUBTYPES: Record<string, string> = {
  CHECKING: 'checking',
  SAVINGS: 'savings',
  MONEYMRKT: 'money market',
  CD: 'cd',
};

function accountShape(account: ParsedAccount): Pick<AccountRecord, 'type' | 'subtype'> {
  if (account.kind === 'credit') return { type: 'credit', subtype: 'credit card' };
  if (account.kind === 'investment') return { type: 'investment', subtype: 'brokerage' };
  if (account.accountType === 'CREDITLINE') return { type: 'credit', subtype: 'line of credit' };
  return { type: 'depository', subtype: DEPOSITORY_SUBTYPES[account.accountType ?? ''] ?? 'checking' };
}

function accountName(account: ParsedAccount, shape: Pick<AccountRecord, 'subtype'>): string {
  const label = account.accountType && !DEPOSITORY_SUBTYPES[account.accountType] && account.accountType !== 'CREDITLINE' ? account.accountType : shape.subtype;
  const title = label.charAt(0).toUpperCase() + label.slice(1);
  return account.mask ? `${title} ${account.mask}` : `${title} (imported)`;
}

/**
 * The account's balances in the contract's terms. A credit account's balance is what is owed
 * (positive), while statements report it as a negative amount of money. A file without a balance
 * reports 0 (documented: the import cannot know it).
 */
function balancesOf(account: ParsedAccount, type: AccountRecord['type']): AccountRecord['balances'] {
  const owed = type === 'credit' || type === 'loan';
  const signed = (decimal: string) => {
    const n = owed ? -num(decimal) : num(decimal);
    return Object.is(n, -0) ? 0 : n;
  };
  return {
    current: account.balance ? signed(account.balance.amount) : 0,
    available: account.available ? signed(account.available.amount) : null,
    limit: null,
    iso_currency_code: account.currency ?? DEFAULT_CURRENCY,
  };
}

export function mapAccount(login: string, account: ParsedAccount): AccountRecord {
  const shape = accountShape(account);
  const name = accountName(account, shape);
  return {
    account_id: accountIdOf(login, account),
    name,
    official_name: name,
    ...shape,
    mask: account.mask ?? '',
    balances: balancesOf(account, shape.type),
    verification_status: 'not_applicable',
  };
}

/**
 * The file's transactions as a change batch. Plain transactions first, in file order (a later row
 * for the same id overrides an earlier one); then the corrections (OFX CORRECTACTION), in file
 * order, whatever their place in the file: banks often list newest first, so a correction may come
 * before the row it corrects. A REPLACE is upserted under the id of the transaction it corrects (it
 * arrives as `modified`), and a DELETE removes that id (`removed`).
 */
export function transactionChanges(login: string, statement: ParsedStatement): { upserted: SourceTransaction[]; removed: string[]; corrections: { replaced: string[]; deleted: string[] } } {
  const latest = new Map<string, SourceTransaction | null>();
  const replaced = new Set<string>();
  const deleted = new Set<string>();
  const apply = (corrections: boolean) => {
    for (const account of statement.accounts) {
      const currency = account.currency ?? DEFAULT_CURRENCY;
      const accountId = accountIdOf(login, account);
      for (const t of account.transactions) {
        if ((t.correction !== null) !== corrections) continue;
        const targetId = transactionIdOf(login, account, t.correction ? t.correction.correctsId : t.id);
        latest.delete(targetId); // re-inserted below: the map's order is the order of the last word
        if (t.correction?.action === 'DELETE') {
          latest.set(targetId, null);
          deleted.add(targetId);
          replaced.delete(targetId);
          continue;
        }
        if (t.correction) {
          replaced.add(targetId);
          deleted.delete(targetId);
        }
        const name = t.description !== '' ? t.description : (t.memo ?? t.type ?? 'Transaction');
        latest.set(targetId, {
          transaction_id: targetId,
          account_id: accountId,
          date: t.date,
          authorized_datetime: null,
          name,
          amount: flip(t.amount, t.line),
          iso_currency_code: t.currency ?? currency,
          pending: t.pending,
        });
      }
    }
  };
  apply(false);
  apply(true);
  const upserted: SourceTransaction[] = [];
  const removed: string[] = [];
  for (const [id, txn] of latest) {
    if (txn) upserted.push(txn);
    else removed.push(id);
  }
  return { upserted, removed, corrections: { replaced: [...replaced], deleted: [...deleted] } };
}

const SECURITY_TYPES: Record<string, 'equity' | 'etf' | 'bond' | 'cash'> = { STOCK: 'equity', MF: 'etf', DEBT: 'bond' };

function holdingOf(login: string, account: ParsedAccount, h: ParsedHolding): Holding {
  const quantity = num(h.quantity);
  const price = h.unitPrice !== null ? num(h.unitPrice) : h.marketValue !== null && quantity !== 0 ? num(h.marketValue) / quantity : 0;
  const value = h.marketValue !== null ? num(h.marketValue) : quantity * price;
  const ticker = h.ticker ?? h.securityId;
  return {
    holding_id: stableId('hld', FILE_IMPORT_CONNECTOR_ID, login, account.sourceId, h.securityIdType, h.securityId),
    account_id: accountIdOf(login, account),
    security: {
      security_id: stableId('sec', h.securityIdType, h.securityId),
      ticker,
      name: h.name ?? ticker,
      type: SECURITY_TYPES[h.securityIdType] ?? 'equity',
      close_price: price,
    },
    quantity,
    cost_basis: null,
    value,
  };
}

function investmentType(t: ParsedInvestmentTransaction): InvestmentTransaction['type'] {
  if (t.type.startsWith('BUY')) return 'buy';
  if (t.type.startsWith('SELL')) return 'sell';
  if (t.type === 'INCOME' || t.type === 'REINVEST' || t.type === 'RETOFCAP') return 'dividend';
  if (t.type === 'INVEXPENSE' || t.type === 'MARGININTEREST') return 'fee';
  return num(t.amount) < 0 ? 'withdrawal' : 'deposit';
}

function investmentTransactionOf(login: string, account: ParsedAccount, t: ParsedInvestmentTransaction, tickers: Map<string, string>): InvestmentTransaction {
  return {
    investment_transaction_id: stableId('inv', FILE_IMPORT_CONNECTOR_ID, login, account.sourceId, t.id),
    account_id: accountIdOf(login, account),
    ticker: (t.securityId && tickers.get(t.securityId)) ?? t.securityId ?? '',
    type: investmentType(t),
    quantity: t.quantity !== null ? Math.abs(num(t.quantity)) : 0,
    price: t.unitPrice !== null ? num(t.unitPrice) : 0,
    // The API's sign: cash leaving the account (a purchase) is positive.
    amount: flip(t.amount, t.line),
    date: t.date,
    name: t.description,
  };
}

export function investmentsOf(login: string, statement: ParsedStatement): Investments {
  const holdings: Holding[] = [];
  const investmentTransactions: InvestmentTransaction[] = [];
  for (const account of statement.accounts) {
    const tickers = new Map(account.holdings.filter((h) => h.ticker).map((h) => [h.securityId, h.ticker as string]));
    for (const h of account.holdings) holdings.push(holdingOf(login, account, h));
    for (const t of account.investmentTransactions) investmentTransactions.push(investmentTransactionOf(login, account, t, tickers));
  }
  const securities = [...new Map(holdings.map((h) => [h.security.security_id, h.security])).values()];
  investmentTransactions.sort((a, b) => (a.date === b.date ? a.investment_transaction_id.localeCompare(b.investment_transaction_id) : a.date < b.date ? 1 : -1));
  return { holdings, securities, investment_transactions: investmentTransactions };
}

/** The whole statement as one pull: accounts, the transactions as a change batch, and investments when the file has any. */
export function statementBatch(login: string, statement: ParsedStatement): SourceBatch {
  const investments = investmentsOf(login, statement);
  const hasInvestments = investments.holdings.length > 0 || investments.investment_transactions.length > 0;
  const { upserted, removed, corrections } = transactionChanges(login, statement);
  // The date a balance is as of: the file's, else the newest transaction's; null when the file has none.
  const balancesAsOf = Object.fromEntries(
    statement.accounts.map((a) => [accountIdOf(login, a), a.balance ? (a.balance.asOf ?? a.transactions.reduce<string | null>((d, t) => (d === null || t.date > d ? t.date : d), null) ?? '0000-00-00') : null]),
  );
  return {
    accounts: statement.accounts.map((a) => mapAccount(login, a)),
    transactions: { kind: 'changes', upserted, removed },
    corrections,
    balancesAsOf,
    ...(hasInvestments ? { investments } : {}),
  };
}
