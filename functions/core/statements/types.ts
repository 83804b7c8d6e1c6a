// What a statement file (OFX 1.x SGML, OFX 2.x XML, QFX, QBO, CSV) parses into, before it becomes an
// import item's accounts, transactions and holdings: plain data, amounts as exact decimal strings in
// the FILE's sign (money into the account positive, a card charge negative; the API's `amount` has
// the opposite sign, and the import connector flips it), dates as ISO yyyy-mm-dd.
//
// The parsers are pure functions over the file's bytes (functions/core/statements/): no I/O, bounded
// time and memory (the `statement*` entries of LIMITS, functions/contracts/limits.ts), and every failure a StatementError naming the problem and,
// where there is one, the line.

export type StatementFormat = 'ofx1' | 'ofx2' | 'qfx' | 'qbo' | 'csv';
export type StatementAccountKind = 'bank' | 'credit' | 'investment';

/** How a file writes its numeric dates: day first, month first, or year first (ISO, yyyymmdd). */
export type StatementDateOrder = 'dmy' | 'mdy' | 'ymd';

/**
 * Where a CSV's date order came from: its own dates ('file': a day above 12 proves the order, or
 * every date is year-first or names its month), the caller's hint ('hint': the file could not
 * tell), or the parser's guess from the decimal mark and separators ('default': the file could not
 * tell and no usable hint was given, so the caller may want to confirm it).
 */
export type StatementDateOrderSource = 'file' | 'hint' | 'default';

/**
 * What the caller knows from earlier files of the same item. Only used where the file itself cannot
 * tell: a hint never overrides what the file's own rows prove.
 */
export interface StatementHints {
  /**
   * The order earlier files of the same item were read in (their `dateOrder`; one proved by a file
   * is the best, but reusing even a 'default' one keeps the same row on the same date in every
   * file). Applies to a CSV whose day/month dates are all ambiguous (every day and month <= 12).
   * 'ymd' says nothing about a file whose dates put the year last, so it is then no hint.
   */
  dateOrder?: StatementDateOrder;
}

export interface ParsedStatement {
  format: StatementFormat;
  /** The text encoding the file was read in (`utf-8`, `utf-16le`, `utf-16be`, `windows-1252`, `iso-8859-1`). */
  encoding: string;
  accounts: ParsedAccount[];
  /** Rows or aggregates left out, each with its line and why (a blank row, a total line, a row without a date). */
  skipped: StatementNotice[];
  /**
   * How the CSV's dates were read; null for OFX, whose dates are always yyyymmdd. A file with both
   * year-first and day/month dates reports the day/month order.
   */
  dateOrder: StatementDateOrder | null;
  /** Why `dateOrder` is what it is (see StatementDateOrderSource); null for OFX. */
  dateOrderSource: StatementDateOrderSource | null;
}

export interface ParsedAccount {
  /**
   * Stable within the file and across files of the same account: OFX BANKID + ACCTID (+ ACCTTYPE),
   * the CSV's account column value, or `default` for a CSV without one.
   */
  sourceId: string;
  kind: StatementAccountKind;
  /** OFX ACCTTYPE (CHECKING, SAVINGS, MONEYMRKT, CREDITLINE, ...) or the CSV's account label; null when unknown. */
  accountType: string | null;
  /** The last four characters of the account number, when the file has one. */
  mask: string | null;
  /** ISO 4217 (OFX CURDEF, a CSV currency column or symbol); null when the file does not say. */
  currency: string | null;
  /** Ledger balance and its date (OFX LEDGERBAL; a CSV balance column's latest value); null when absent or empty. */
  balance: { amount: string; asOf: string | null } | null;
  /** OFX AVAILBAL; null when absent. */
  available: { amount: string; asOf: string | null } | null;
  transactions: ParsedTransaction[];
  holdings: ParsedHolding[];
  investmentTransactions: ParsedInvestmentTransaction[];
}

export interface ParsedTransaction {
  /**
   * FITID, or a content hash where the file has none. CSV: of the row's own cells as written (the
   * date, money and description cells, the row's account cell) and its occurrence among identical
   * rows, so no decision taken from the rest of the file (date order, decimal mark, sign, fee rule,
   * the account an unlabelled row falls into) can change it: stable across re-imports and across
   * overlapping exports of different lengths.
   */
  id: string;
  /** ISO date the transaction posted (OFX DTPOSTED; the CSV's booking date). */
  date: string;
  /** When the card was used, if the file says (OFX DTUSER, a CSV transaction-date column); else null. */
  authorizedDate: string | null;
  /**
   * Exact decimal string in the file's sign: money into the account positive. What moved: a CSV fee
   * column's fee is included where the export writes it apart from the amount.
   */
  amount: string;
  /** NAME / payee / the description column, whitespace collapsed, entities decoded. */
  description: string;
  memo: string | null;
  /** OFX TRNTYPE (DEBIT, CREDIT, POS, ATM, XFER, CHECK, ...) or null. */
  type: string | null;
  checkNumber: string | null;
  pending: boolean;
  /** A transaction in another currency than the account's (OFX CURRENCY/ORIGCURRENCY); else null. */
  currency: string | null;
  /** OFX CORRECTACTION: this aggregate replaces or deletes the transaction `correctsId`. */
  correction: { action: 'REPLACE' | 'DELETE'; correctsId: string } | null;
  /** 1-based line where the transaction starts in the decoded text. */
  line: number;
}

export interface ParsedHolding {
  /** CUSIP, ISIN or ticker as the file names the security (UNIQUEID + UNIQUEIDTYPE). */
  securityId: string;
  securityIdType: string;
  ticker: string | null;
  name: string | null;
  quantity: string;
  unitPrice: string | null;
  marketValue: string | null;
  currency: string | null;
  asOf: string | null;
}

export interface ParsedInvestmentTransaction {
  id: string;
  /** DTTRADE (or INVBANKTRAN DTPOSTED). */
  date: string;
  /** The OFX aggregate (BUYSTOCK, SELLMF, INCOME, REINVEST, TRANSFER, INVBANKTRAN, ...). */
  type: string;
  securityId: string | null;
  description: string;
  quantity: string | null;
  unitPrice: string | null;
  /** TOTAL (or TRNAMT for INVBANKTRAN): exact decimal, the file's sign. */
  amount: string;
  fees: string | null;
  currency: string | null;
  line: number;
}

export interface StatementNotice {
  line: number;
  reason: string;
}

/** Why a file cannot be imported. The message names the problem (and the line, where there is one) for the end user. */
export type StatementErrorCode =
  | 'statement_too_large'
  | 'statement_unrecognized'
  | 'statement_malformed'
  | 'statement_unsupported_encoding'
  | 'statement_empty'
  | 'statement_server_error';

export class StatementError extends Error {
  constructor(
    readonly code: StatementErrorCode,
    message: string,
    readonly line: number | null = null,
  ) {
    super(line === null ? message : `${message} (line ${line})`);
    this.name = 'StatementError';
  }
}
