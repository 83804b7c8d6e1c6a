// OFX 1.x (SGML), OFX 2.x (XML), QFX and QBO statements into ParsedStatement. The reading of the
// markup is ofx-tree.ts; this file finds the statements in the tree (bank STMTRS, card CCSTMTRS,
// investment INVSTMTRS, wherever they sit: some exports drop the wrappers around them) and maps
// their records. Values are read leniently (trailing spaces, comma decimals, '+' signs, zero
// padding, dates with any time and zone suffix), but nothing is invented: a record without a
// readable date or amount is skipped with a notice, and a file whose every record is unreadable is
// refused rather than imported empty.

import { createHash } from 'node:crypto';
import { LIMITS } from '../../contracts/limits';
import { findAll, findFirst, leafValue, readOfxTree, type OfxElement } from './ofx-tree';
import { addDecimals } from './decimal';
import {
  StatementError,
  type ParsedAccount,
  type ParsedHolding,
  type ParsedInvestmentTransaction,
  type ParsedStatement,
  type ParsedTransaction,
  type StatementAccountKind,
  type StatementNotice,
} from './types';

export type OfxFormat = 'ofx1' | 'ofx2' | 'qfx' | 'qbo';

const STATEMENT_AGGREGATES: ReadonlyMap<string, StatementAccountKind> = new Map([
  ['STMTRS', 'bank'],
  ['CCSTMTRS', 'credit'],
  ['INVSTMTRS', 'investment'],
]);

const INVESTMENT_TRANSACTION_TYPES = new Set([
  'BUYDEBT', 'BUYMF', 'BUYOPT', 'BUYOTHER', 'BUYSTOCK', 'CLOSUREOPT', 'INCOME', 'INVEXPENSE', 'JRNLFUND', 'JRNLSEC',
  'MARGININTEREST', 'REINVEST', 'RETOFCAP', 'SELLDEBT', 'SELLMF', 'SELLOPT', 'SELLOTHER', 'SELLSTOCK', 'SPLIT',
  'TRANSFER', 'INVBANKTRAN',
]);
const POSITION_TYPES = new Set(['POSDEBT', 'POSMF', 'POSOPT', 'POSOTHER', 'POSSTOCK']);
const SECURITY_INFO_TYPES = new Set(['DEBTINFO', 'MFINFO', 'OPTINFO', 'OTHERINFO', 'STOCKINFO']);

/** Account fields are read outside the records, whose BANKACCTTO/CCACCTTO carry other accounts' ids. */
const RECORD_FENCE: ReadonlySet<string> = new Set([
  'STMTTRN', 'BANKTRANLIST', 'INVTRANLIST', 'INVPOSLIST', 'INVBANKTRAN', ...INVESTMENT_TRANSACTION_TYPES,
]);
/** Inside a record, its own fields: not the account a transfer names, not a nested currency. */
const TRANSACTION_FENCE: ReadonlySet<string> = new Set(['BANKACCTTO', 'CCACCTTO', 'PAYEE', 'CURRENCY', 'ORIGCURRENCY']);

/**
 * An OFX date (`YYYYMMDD`, `YYYYMMDDHHMMSS`, `.XXX`, `[-5:EST]`) as ISO yyyy-mm-dd: the date part as
 * written, the time and zone ignored. Null when the first eight characters are no calendar date
 * (`00000000`, `****`, `23/04/2025`).
 */
export function parseOfxDate(raw: string | null): string | null {
  if (raw === null) return null;
  const match = /^\s*(\d{4})(\d{2})(\d{2})/.exec(raw);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1900 || month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * An OFX amount as an exact decimal string: `-12.50`, `-12,50` (comma decimal), `+721.01`,
 * `- 5.00`, `+00000000001111.0000` (zero padded), `1,234.56` / `1.234,56` (grouped). Digits after the
 * decimal mark are kept as written; a negative zero reads as zero. Null when it is no number.
 */
export function parseOfxAmount(raw: string | null): string | null {
  if (raw === null) return null;
  let compact = raw.replace(/[\s\u00a0]+/g, '');
  let sign = '';
  if (compact.startsWith('-') || compact.startsWith('+')) {
    sign = compact[0] === '-' ? '-' : '';
    compact = compact.slice(1);
  }
  let integer: string;
  let fraction: string;
  let match: RegExpExecArray | null;
  if ((match = /^(\d*)(?:\.(\d*))?$/.exec(compact)) !== null) {
    [, integer, fraction = ''] = match;
  } else if ((match = /^(\d+),(\d+)$/.exec(compact)) !== null) {
    [, integer, fraction] = match;
  } else if ((match = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d*))?$/.exec(compact)) !== null) {
    integer = match[1].replace(/,/g, '');
    fraction = match[2] ?? '';
  } else if ((match = /^(\d{1,3}(?:\.\d{3})+),(\d*)$/.exec(compact)) !== null) {
    integer = match[1].replace(/\./g, '');
    fraction = match[2];
  } else {
    return null;
  }
  if (integer === '' && fraction === '') return null;
  integer = integer.replace(/^0+(?=\d)/, '') || '0';
  const digits = fraction === '' ? integer : `${integer}.${fraction}`;
  const isZero = !/[1-9]/.test(digits);
  return isZero ? digits : `${sign}${digits}`;
}

function collapse(text: string | null): string | null {
  if (text === null) return null;
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed === '' ? null : collapsed;
}

function contentHash(parts: readonly string[]): string {
  return `ofx-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;
}

/**
 * Gives every record a stable id: its FITID, or a hash of its content plus its occurrence among
 * identical records. A FITID repeated in one account (a bank bug: two different records sharing
 * one) gets its occurrence appended, so both import and a re-import maps them the same way.
 */
class IdAssigner {
  private readonly seen = new Map<string, number>();

  assign(accountId: string, fitId: string | null, content: readonly string[]): string {
    const key = fitId === null ? `hash\u0000${accountId}\u0000${content.join('\u0000')}` : `fitid\u0000${accountId}\u0000${fitId}`;
    const occurrence = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, occurrence);
    if (fitId !== null) return occurrence === 1 ? fitId : `${fitId}#${occurrence}`;
    return contentHash([accountId, ...content, String(occurrence)]);
  }
}

interface SecurityInfo {
  name: string | null;
  ticker: string | null;
}

interface Context {
  ids: IdAssigner;
  skipped: StatementNotice[];
  securities: Map<string, SecurityInfo>;
  /** Records seen (readable or not), to refuse a file whose every record is unreadable. */
  recordsSeen: number;
}

function currencyOf(record: OfxElement, accountCurrency: string | null): string | null {
  const override = findFirst(record, 'CURRENCY', new Set(['BANKACCTTO', 'CCACCTTO'])) ?? findFirst(record, 'ORIGCURRENCY');
  const symbol = leafValue(override, 'CURSYM')?.toUpperCase() ?? null;
  return symbol !== null && symbol !== accountCurrency ? symbol : null;
}

function balanceOf(statement: OfxElement, name: string): ParsedAccount['balance'] {
  const aggregate = findFirst(statement, name, new Set(['STMTTRN', 'INVBANKTRAN']));
  if (aggregate === null) return null;
  const amount = parseOfxAmount(leafValue(aggregate, 'BALAMT'));
  if (amount === null) return null;
  return { amount, asOf: parseOfxDate(leafValue(aggregate, 'DTASOF')) };
}

function accountIdentity(statement: OfxElement, kind: StatementAccountKind): {
  sourceId: string;
  acctId: string | null;
  accountType: string | null;
} {
  const fromName = kind === 'bank' ? 'BANKACCTFROM' : kind === 'credit' ? 'CCACCTFROM' : 'INVACCTFROM';
  const from = findFirst(statement, fromName, RECORD_FENCE) ?? statement;
  const acctId = leafValue(from, 'ACCTID', RECORD_FENCE);
  const institution = leafValue(from, kind === 'investment' ? 'BROKERID' : 'BANKID', RECORD_FENCE);
  const accountType = kind === 'bank' ? (leafValue(from, 'ACCTTYPE', RECORD_FENCE)?.toUpperCase() ?? null) : null;
  const parts = [institution, acctId ?? `unknown-${kind}-account`, accountType].filter((part) => part !== null);
  return { sourceId: parts.join('/'), acctId, accountType };
}

function readBankTransaction(
  record: OfxElement,
  account: { sourceId: string; currency: string | null },
  context: Context,
): ParsedTransaction | null {
  context.recordsSeen += 1;
  const date = parseOfxDate(leafValue(record, 'DTPOSTED', TRANSACTION_FENCE));
  const rawAmount = leafValue(record, 'TRNAMT', TRANSACTION_FENCE);
  const amount = parseOfxAmount(rawAmount);
  if (date === null || amount === null) {
    const reason =
      date === null
        ? `a transaction without a readable posting date (DTPOSTED ${JSON.stringify(leafValue(record, 'DTPOSTED', TRANSACTION_FENCE) ?? '')}) was skipped`
        : `a transaction without a readable amount (TRNAMT ${JSON.stringify(rawAmount ?? '')}) was skipped`;
    context.skipped.push({ line: record.line, reason });
    return null;
  }
  const name = collapse(leafValue(record, 'NAME', TRANSACTION_FENCE)) ?? collapse(leafValue(findFirst(record, 'PAYEE'), 'NAME'));
  const memo = collapse(leafValue(record, 'MEMO', TRANSACTION_FENCE));
  const type = leafValue(record, 'TRNTYPE', TRANSACTION_FENCE)?.toUpperCase() ?? null;
  const description = name ?? memo ?? type ?? '';
  const fitId = leafValue(record, 'FITID', TRANSACTION_FENCE);
  const action = leafValue(record, 'CORRECTACTION', TRANSACTION_FENCE)?.toUpperCase() ?? null;
  const correctsId = leafValue(record, 'CORRECTFITID', TRANSACTION_FENCE);
  const correction: ParsedTransaction['correction'] =
    (action === 'REPLACE' || action === 'DELETE') && correctsId !== null ? { action, correctsId } : null;
  return {
    id: context.ids.assign(account.sourceId, fitId, [date, amount, description, memo ?? '']),
    date,
    authorizedDate: parseOfxDate(leafValue(record, 'DTUSER', TRANSACTION_FENCE)),
    amount,
    description,
    memo,
    type,
    checkNumber: leafValue(record, 'CHECKNUM', TRANSACTION_FENCE),
    pending: false,
    currency: currencyOf(record, account.currency),
    correction,
    line: record.line,
  };
}

function securityKey(element: OfxElement | null): { id: string; idType: string } | null {
  const secId = element === null ? null : findFirst(element, 'SECID');
  const id = leafValue(secId, 'UNIQUEID');
  if (id === null) return null;
  return { id, idType: leafValue(secId, 'UNIQUEIDTYPE')?.toUpperCase() ?? 'UNKNOWN' };
}

/** Sums the fee-like leaves of a trade (COMMISSION, FEES, LOAD) exactly; null when it has none. */
function feesOf(record: OfxElement): string | null {
  let total: string | null = null;
  for (const name of ['COMMISSION', 'FEES', 'LOAD']) {
    const value = parseOfxAmount(leafValue(record, name));
    if (value !== null) total = total === null ? value : addDecimals(total, value);
  }
  return total;
}

function readInvestmentTransaction(
  record: OfxElement,
  account: { sourceId: string; currency: string | null },
  context: Context,
): ParsedInvestmentTransaction | null {
  context.recordsSeen += 1;
  const isCash = record.name === 'INVBANKTRAN';
  const inner = isCash ? (findFirst(record, 'STMTTRN') ?? record) : (findFirst(record, 'INVTRAN') ?? record);
  const rawDate = leafValue(inner, isCash ? 'DTPOSTED' : 'DTTRADE', TRANSACTION_FENCE);
  const date = parseOfxDate(rawDate);
  const rawAmount = leafValue(isCash ? inner : record, isCash ? 'TRNAMT' : 'TOTAL', TRANSACTION_FENCE);
  // A trade without TOTAL (a TRANSFER of shares, a SPLIT) moves no cash: its amount is zero.
  const amount = rawAmount === null && !isCash ? '0' : parseOfxAmount(rawAmount);
  if (date === null || amount === null) {
    const reason =
      date === null
        ? `an investment transaction without a readable date (${JSON.stringify(rawDate ?? '')}) was skipped`
        : `an investment transaction without a readable amount (${JSON.stringify(rawAmount ?? '')}) was skipped`;
    context.skipped.push({ line: record.line, reason });
    return null;
  }
  const security = isCash ? null : securityKey(record);
  const info = security === null ? undefined : context.securities.get(security.id);
  const memo = collapse(leafValue(inner, 'MEMO', TRANSACTION_FENCE));
  const name = isCash ? collapse(leafValue(inner, 'NAME', TRANSACTION_FENCE)) : null;
  const description = name ?? memo ?? info?.name ?? record.name;
  const fitId = leafValue(inner, 'FITID', TRANSACTION_FENCE);
  return {
    id: context.ids.assign(account.sourceId, fitId, [record.name, date, amount, description]),
    date,
    type: record.name,
    securityId: security?.id ?? null,
    description,
    quantity: isCash ? null : parseOfxAmount(leafValue(record, 'UNITS')),
    unitPrice: isCash ? null : parseOfxAmount(leafValue(record, 'UNITPRICE')),
    amount,
    fees: isCash ? null : feesOf(record),
    currency: currencyOf(isCash ? inner : record, account.currency),
    line: record.line,
  };
}

function readHolding(position: OfxElement, accountCurrency: string | null, context: Context): ParsedHolding | null {
  const invPos = findFirst(position, 'INVPOS') ?? position;
  const security = securityKey(invPos);
  const quantity = parseOfxAmount(leafValue(invPos, 'UNITS'));
  if (security === null || quantity === null) {
    context.skipped.push({ line: position.line, reason: 'a position without a security id or a readable number of units was skipped' });
    return null;
  }
  const info = context.securities.get(security.id);
  return {
    securityId: security.id,
    securityIdType: security.idType,
    ticker: info?.ticker ?? null,
    name: info?.name ?? null,
    quantity,
    unitPrice: parseOfxAmount(leafValue(invPos, 'UNITPRICE')),
    marketValue: parseOfxAmount(leafValue(invPos, 'MKTVAL')),
    currency: currencyOf(invPos, null) ?? accountCurrency,
    asOf: parseOfxDate(leafValue(invPos, 'DTPRICEASOF')),
  };
}

function readSecurities(root: OfxElement): Map<string, SecurityInfo> {
  const securities = new Map<string, SecurityInfo>();
  for (const info of findAll(root, SECURITY_INFO_TYPES)) {
    const secInfo = findFirst(info, 'SECINFO') ?? info;
    const key = securityKey(secInfo);
    if (key === null) continue;
    securities.set(key.id, {
      name: collapse(leafValue(secInfo, 'SECNAME')),
      ticker: collapse(leafValue(secInfo, 'TICKER')),
    });
  }
  return securities;
}

function newerBalance(current: ParsedAccount['balance'], next: ParsedAccount['balance']): ParsedAccount['balance'] {
  if (next === null) return current;
  if (current === null) return next;
  return (next.asOf ?? '') >= (current.asOf ?? '') ? next : current;
}

/** The signon (or first transaction wrapper) status when it reports an error, for a file with no statement. */
function serverError(root: OfxElement): string | null {
  const statuses = findAll(root, new Set(['STATUS']));
  for (const status of statuses) {
    const code = leafValue(status, 'CODE');
    if (code === null || /^0+$/.test(code)) continue;
    const severity = leafValue(status, 'SEVERITY')?.toUpperCase() ?? null;
    if (severity === 'INFO') continue;
    const message = collapse(leafValue(status, 'MESSAGE'));
    return message === null ? `error ${code}` : `error ${code} (${message})`;
  }
  return null;
}

/** The root element, with or without an XML namespace prefix (`<OFX>`, `<ofx:OFX xmlns:ofx=...>`). */
export const OFX_ROOT_TAG = /<(?:[A-Za-z_][\w.-]*:)?OFX[\s>]/i;

export function parseOfxStatement(text: string, encoding: string, format: OfxFormat): ParsedStatement {
  const start = text.search(OFX_ROOT_TAG);
  if (start < 0) throw new StatementError('statement_unrecognized', 'The file has no <OFX> element: it is not an OFX statement');
  const tree = readOfxTree(text, start);
  if (!tree.closed) {
    throw new StatementError(
      'statement_malformed',
      'The OFX file ends before its closing </OFX> tag: it looks truncated',
      tree.lastLine,
    );
  }
  const statements = findAll(tree.root, new Set(STATEMENT_AGGREGATES.keys()));
  if (statements.length === 0) {
    const error = serverError(tree.root);
    if (error !== null) {
      throw new StatementError('statement_server_error', `The bank's server sent an error instead of a statement: ${error}`);
    }
    throw new StatementError('statement_empty', 'The OFX file holds no bank, credit-card or investment statement');
  }

  const context: Context = { ids: new IdAssigner(), skipped: [], securities: readSecurities(tree.root), recordsSeen: 0 };
  const accounts = new Map<string, ParsedAccount>();
  let firstUnreadable: StatementNotice | null = null;
  for (const statement of statements) {
    const kind = STATEMENT_AGGREGATES.get(statement.name) ?? 'bank';
    const identity = accountIdentity(statement, kind);
    const currency = leafValue(statement, 'CURDEF', RECORD_FENCE)?.toUpperCase() ?? null;
    const hasRecords = findFirst(statement, 'STMTTRN') !== null || findAll(statement, INVESTMENT_TRANSACTION_TYPES).length > 0;
    // A statement naming no account and holding no record carries nothing to import (fuzzed input).
    if (identity.acctId === null && !hasRecords) continue;
    let account = accounts.get(identity.sourceId);
    if (account === undefined) {
      account = {
        sourceId: identity.sourceId,
        kind,
        accountType: identity.accountType,
        mask: identity.acctId === null ? null : identity.acctId.slice(-4),
        currency,
        balance: null,
        available: null,
        transactions: [],
        holdings: [],
        investmentTransactions: [],
      };
      accounts.set(identity.sourceId, account);
    }
    const reference = { sourceId: identity.sourceId, currency: account.currency };
    const skippedBefore = context.skipped.length;
    if (kind === 'investment') {
      for (const record of findAll(statement, INVESTMENT_TRANSACTION_TYPES)) {
        const parsed = readInvestmentTransaction(record, reference, context);
        if (parsed !== null) account.investmentTransactions.push(parsed);
      }
      const positions = findFirst(statement, 'INVPOSLIST');
      if (positions !== null) {
        for (const position of findAll(positions, POSITION_TYPES)) {
          const holding = readHolding(position, account.currency, context);
          if (holding !== null) account.holdings.push(holding);
        }
      }
      const cash = parseOfxAmount(leafValue(findFirst(statement, 'INVBAL', RECORD_FENCE), 'AVAILCASH'));
      if (cash !== null) account.available = { amount: cash, asOf: parseOfxDate(leafValue(statement, 'DTASOF', RECORD_FENCE)) };
    } else {
      for (const record of findAll(statement, new Set(['STMTTRN']))) {
        const parsed = readBankTransaction(record, reference, context);
        if (parsed !== null) account.transactions.push(parsed);
      }
      account.balance = newerBalance(account.balance, balanceOf(statement, 'LEDGERBAL'));
      account.available = newerBalance(account.available, balanceOf(statement, 'AVAILBAL'));
    }
    if (firstUnreadable === null && context.skipped.length > skippedBefore) firstUnreadable = context.skipped[skippedBefore];
    if (context.recordsSeen > LIMITS.statementMaxTransactions) {
      throw new StatementError(
        'statement_too_large',
        `The file holds more than ${LIMITS.statementMaxTransactions} transactions; split it into shorter periods`,
        statement.line,
      );
    }
  }

  if (accounts.size === 0) {
    throw new StatementError('statement_empty', 'The OFX file holds no account: its statements name none and list no transactions');
  }
  const readable = [...accounts.values()].reduce(
    (count, account) => count + account.transactions.length + account.investmentTransactions.length,
    0,
  );
  if (context.recordsSeen > 0 && readable === 0 && firstUnreadable !== null) {
    throw new StatementError(
      'statement_malformed',
      `None of the ${context.recordsSeen} transactions in the file can be read: ${firstUnreadable.reason.replace(/ was skipped$/, '')}`,
      firstUnreadable.line,
    );
  }
  // OFX dates are always yyyymmdd: there is no order to decide or report.
  return { format, encoding, accounts: [...accounts.values()], skipped: context.skipped, dateOrder: null, dateOrderSource: null };
}

