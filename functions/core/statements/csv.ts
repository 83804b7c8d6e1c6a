// Parses a CSV bank, card or brokerage export into a ParsedStatement. Nothing is configured per bank:
// the delimiter, the header row (after any preamble), what each column holds (by its name in several
// languages, checked against its content, or by content alone for a headerless file), the date
// format and decimal mark (decided per FILE from every row; the day/month order falls back on the
// caller's hint from earlier files where the rows cannot tell), how the sign is written (signed
// amounts, debit/credit columns, or an unsigned amount with a direction column) and whether a fee
// column is charged on top of the amount are all detected.

import { createHash } from 'node:crypto';
import { LIMITS } from '../../contracts/limits';
import {
  classifyHeader,
  directionOf,
  foldName,
  isPendingMarker,
  isSummaryText,
  type ColumnRole,
} from './csv-columns';
import { sniffDelimiter, tokenizeCsv, type CsvRecord } from './csv-tokenize';
import {
  KNOWN_CURRENCIES,
  decideDateOrder,
  decimalMarkVote,
  looksLikeDate,
  negateDecimal,
  readAmount,
  readDate,
  subtractDecimals,
  type DecimalMark,
} from './csv-values';
import {
  StatementError,
  type ParsedAccount,
  type ParsedStatement,
  type ParsedTransaction,
  type StatementAccountKind,
  type StatementHints,
  type StatementNotice,
} from './types';

/** How many leading records may be preamble before the header. */
const HEADER_SEARCH_RECORDS = 50;

type Columns = Partial<Record<ColumnRole, number>>;

interface Layout {
  headerIndex: number | null;
  /** The header row's names (empty for a headerless file). */
  headerCells: string[];
  columns: Columns;
  kind: StatementAccountKind;
  headerCurrency: string | null;
  /** Columns whose header names the other party or another amount ("Original Currency"): never read by content as ours. */
  ignoredColumns: number[];
}

export function parseCsvStatement(text: string, encoding: string, hints: StatementHints = {}): ParsedStatement {
  if (text.length > LIMITS.statementMaxBytes) {
    throw new StatementError('statement_too_large', `The file is larger than ${LIMITS.statementMaxBytes} characters`);
  }
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new StatementError('statement_empty', 'The file holds no rows');
  const sniffed = sniffDelimiter(body);
  if (!sniffed) throw new StatementError('statement_unrecognized', 'The file is not a table of rows and columns (no delimiter found)');
  const records = tokenizeCsv(body, sniffed.delimiter).map(cleanRecord);
  const nonBlank = records.filter((record) => !isBlank(record));
  if (nonBlank.length === 0) throw new StatementError('statement_empty', 'The file holds no rows');

  const layout = findLayout(records);
  const dataStart = layout.headerIndex === null ? 0 : layout.headerIndex + 1;
  const dataRecords = realignOverflowingRows(records.slice(dataStart), layout, sniffed.delimiter);
  const columns = completeColumns(layout, dataRecords);
  const dateColumn = columns.bookingDate ?? columns.date ?? columns.transactionDate;
  if (dateColumn === undefined || (columns.amount === undefined && columns.debit === undefined && columns.credit === undefined)) {
    throw new StatementError(
      'statement_unrecognized',
      layout.headerIndex === null
        ? 'The file has no header row and no column of dates and amounts'
        : 'The header names no date or amount column, and no column holds them',
      layout.headerIndex === null ? null : records[layout.headerIndex]!.line,
    );
  }
  const preamble = readPreamble(records.slice(0, layout.headerIndex ?? 0));
  if (columns.account !== undefined && !isOwnAccountColumn(dataRecords, columns.account, dateColumn, preamble)) delete columns.account;
  return buildStatement(encoding, dataRecords, { ...layout, columns }, preamble, hints);
}

function cleanRecord(record: CsvRecord): CsvRecord {
  // A field that lost one of its quotes keeps the other ('NL77RABO0311467415"'): drop strays at the edges.
  return { line: record.line, cells: record.cells.map((cell) => cell.replace(/^"(?=[^"]*$)|(?<=^[^"]*)"$/g, '').trim()) };
}

function isBlank(record: CsvRecord): boolean {
  return record.cells.every((cell) => cell === '');
}

// ---------------------------------------------------------------------------------------------------
// Layout: header row and column roles

function findLayout(records: CsvRecord[]): Layout {
  const limit = Math.min(records.length, HEADER_SEARCH_RECORDS);
  for (let index = 0; index < limit; index += 1) {
    const record = records[index]!;
    if (isBlank(record)) continue;
    // A header names columns; a data row holds dates and numbers.
    if (record.cells.some((cell) => looksLikeDate(cell))) continue;
    const matches = record.cells.map((cell) => (cell.length <= 80 ? classifyHeader(cell) : null));
    const roles = new Set(matches.filter((match) => match && match.role !== 'ignored').map((match) => match!.role));
    const hasDate = ['date', 'bookingDate', 'transactionDate'].some((role) => roles.has(role as ColumnRole));
    const hasMoney = ['amount', 'debit', 'credit'].some((role) => roles.has(role as ColumnRole));
    if (roles.size >= 3 && (hasDate || hasMoney)) {
      return { headerIndex: index, headerCells: record.cells, ...columnsFromHeader(record.cells) };
    }
  }
  return { headerIndex: null, headerCells: [], columns: {}, kind: 'bank', headerCurrency: null, ignoredColumns: [] };
}

function columnsFromHeader(cells: string[]): Omit<Layout, 'headerIndex' | 'headerCells'> {
  const best = new Map<ColumnRole, { index: number; strength: number }>();
  const ignoredColumns: number[] = [];
  cells.forEach((cell, index) => {
    const match = classifyHeader(cell);
    if (match?.role === 'ignored') ignoredColumns.push(index);
    if (!match || match.role === 'ignored') return;
    const current = best.get(match.role);
    if (!current || match.strength > current.strength) best.set(match.role, { index, strength: match.strength });
  });
  const columns: Columns = {};
  for (const [role, { index }] of best) columns[role] = index;
  const accountHeader = columns.account === undefined ? '' : foldName(cells[columns.account]!);
  const kind: StatementAccountKind =
    columns.symbol !== undefined && columns.quantity !== undefined
      ? 'investment'
      : /card|kaart|karte|umsatz getatigt/.test(accountHeader)
        ? 'credit'
        : 'bank';
  // "Withdrawals (SGD)", "Bedrag (EUR)", "Gutschrift in CHF", "Betrag (€)": the money columns' names state the currency.
  const moneyHeaders = (['amount', 'debit', 'credit', 'balance'] as const)
    .map((role) => columns[role])
    .filter((index): index is number => index !== undefined)
    .map((index) => cells[index]!);
  const currencyInHeader = moneyHeaders.map(currencyNamedIn).find((code) => code !== null);
  return { columns, kind, headerCurrency: currencyInHeader ?? null, ignoredColumns };
}

/** Currencies French, Spanish and English headers name in words ("Débit euros", "Importe en euros"). */
const CURRENCY_WORDS: Array<[RegExp, string]> = [
  [/\beuros?\b/i, 'EUR'],
  [/\b(pounds? sterling|sterling)\b/i, 'GBP'],
  [/\bfrancs? suisses?\b/i, 'CHF'],
];

function currencyNamedIn(header: string): string | null {
  const code = /(?:^|[^A-Za-z])([A-Z]{3})(?:$|[^A-Za-z])/.exec(header)?.[1];
  if (code && KNOWN_CURRENCIES.has(code)) return code;
  const word = CURRENCY_WORDS.find(([pattern]) => pattern.test(header));
  if (word) return word[1];
  return readAmount(`${header.replace(/[^£€₹₩₺₽₴₪฿₱₫]/g, '')}1`, '.')?.currency ?? null;
}

function columnValues(records: CsvRecord[], index: number): string[] {
  return records.map((record) => record.cells[index] ?? '').filter((value) => value !== '');
}

function fraction(values: string[], test: (value: string) => boolean): number {
  if (values.length === 0) return 0;
  return values.filter(test).length / values.length;
}

function isAmountLike(value: string): boolean {
  return readAmount(value, '.') !== null || readAmount(value, ',') !== null;
}

/**
 * Checks the header's choices against the rows (a column the rows do not fill, or fill with
 * something else, is dropped) and fills what is missing from content: the whole layout for a
 * headerless file, the amount where the rows do not line up with their header.
 */
function completeColumns(layout: Layout, data: CsvRecord[]): Columns {
  const rows = typicalRows(data.filter((record) => !isBlank(record)).slice(0, 500));
  const columns: Columns = { ...layout.columns };
  const width = Math.max(0, ...rows.map((record) => record.cells.length));
  const dateRoles: ColumnRole[] = ['bookingDate', 'date', 'transactionDate', 'valueDate'];
  for (const role of dateRoles) {
    const index = columns[role];
    if (index !== undefined && fraction(columnValues(rows, index), looksLikeDate) < 0.5) delete columns[role];
  }
  for (const role of ['amount', 'debit', 'credit', 'balance'] as ColumnRole[]) {
    const index = columns[role];
    if (index === undefined) continue;
    const values = columnValues(rows, index);
    if ((role === 'amount' && values.length === 0) || fraction(values, isAmountLike) < 0.8) delete columns[role];
  }
  if (columns.fee !== undefined) {
    // A "Fee ID" or "Fee type" column is not a fee: it must hold amounts, and not long bare integers.
    const values = columnValues(rows, columns.fee);
    if (fraction(values, isAmountLike) < 0.8 || values.some((value) => /^\d{5,}$/.test(value))) delete columns.fee;
  }
  if (columns.currency !== undefined) {
    const values = columnValues(rows, columns.currency);
    if (fraction(values, (value) => KNOWN_CURRENCIES.has(value.toUpperCase())) < 0.8) delete columns.currency;
  }
  const named = { ...columns };
  const used = new Set(Object.values(columns));
  const free = (index: number): boolean => !used.has(index);
  const ignored = new Set(layout.ignoredColumns);

  const date = columns.bookingDate ?? columns.date ?? columns.transactionDate;
  if (date === undefined) {
    for (let index = 0; index < width; index += 1) {
      const values = columnValues(rows, index);
      if (free(index) && values.length >= rows.length * 0.5 && fraction(values, looksLikeDate) >= 0.8) {
        columns.date = index;
        used.add(index);
        break;
      }
    }
  }
  if (columns.amount === undefined && columns.debit === undefined && columns.credit === undefined) {
    // A text role's column may be the one that moved: only dates, money, codes and accounts are settled.
    const textRoles: ColumnRole[] = ['description', 'payee', 'memo', 'type', 'checkNumber', 'status'];
    const settled = new Set(Object.entries(columns).filter(([role]) => !textRoles.includes(role as ColumnRole)).map(([, index]) => index));
    let best: { index: number; score: number } | null = null;
    for (let index = 0; index < width; index += 1) {
      if (settled.has(index)) continue;
      const values = columnValues(rows, index);
      if (values.length < rows.length * 0.5 || fraction(values, isAmountLike) < 0.9) continue;
      if (values.some((value) => looksLikeDate(value))) continue;
      // Long bare integers are ids and codes; money has a sign or decimals somewhere.
      const hasSign = values.some((value) => /^\s*[-(]|-\s*$/.test(value));
      const hasDecimals = values.some((value) => /[.,]\d{1,2}\s*$/.test(value));
      const idLike = values.every((value) => /^\d{5,}$/.test(value));
      if (idLike) continue;
      const score = (hasSign ? 3 : 0) + (hasDecimals ? 2 : 0) + 1;
      if (!best || score > best.score) best = { index, score };
    }
    if (best) {
      columns.amount = best.index;
      used.add(best.index);
      shiftTextColumns(columns, layout.columns.amount, best.index);
    }
  }
  // Where the rows give no better answer, the header's choice stands: its rows are then reported
  // as unreadable instead of the file as unrecognised.
  if (columns.bookingDate === undefined && columns.date === undefined && columns.transactionDate === undefined) {
    const headerDate = layout.columns.bookingDate ?? layout.columns.date ?? layout.columns.transactionDate;
    if (headerDate !== undefined && !used.has(headerDate)) columns.date = headerDate;
  }
  if (columns.amount === undefined && columns.debit === undefined && columns.credit === undefined) {
    for (const role of ['amount', 'debit', 'credit'] as const) {
      if (layout.columns[role] !== undefined && named[role] === undefined) columns[role] = layout.columns[role];
    }
  }
  if (columns.currency === undefined) {
    for (let index = 0; index < width; index += 1) {
      const values = columnValues(rows, index);
      if (free(index) && !ignored.has(index) && values.length > 0 && fraction(values, (value) => KNOWN_CURRENCIES.has(value)) === 1) {
        columns.currency = index;
        used.add(index);
        break;
      }
    }
  }
  if (columns.direction === undefined) {
    // A column of D/C, Af/Bij, DEBIT/CREDIT, inflow/outflow or just CR where credits are marked.
    for (let index = 0; index < width; index += 1) {
      const values = columnValues(rows, index);
      if (values.length > 0 && index !== columns.amount && values.every((value) => directionOf(value) !== null)) {
        columns.direction = index;
        break;
      }
    }
  }
  if (layout.headerIndex === null) {
    if (columns.account === undefined) {
      // The own account repeats on every row; an IBAN or account number that never changes.
      for (let index = 0; index < width; index += 1) {
        const values = columnValues(rows, index);
        if (!free(index) || values.length !== rows.length) continue;
        if (new Set(values).size === 1 && /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test(values[0]!)) {
          columns.account = index;
          used.add(index);
          break;
        }
      }
    }
    if (columns.description === undefined) {
      let best: { index: number; length: number } | null = null;
      for (let index = 0; index < width; index += 1) {
        if (!free(index)) continue;
        const values = columnValues(rows, index);
        if (values.length === 0 || fraction(values, (value) => /[A-Za-z]{3}/.test(value)) < 0.5) continue;
        const length = values.reduce((sum, value) => sum + value.length, 0) / rows.length;
        if (!best || length > best.length) best = { index, length };
      }
      if (best) {
        columns.description = best.index;
        used.add(best.index);
      }
    }
    if (columns.payee === undefined) {
      for (let index = 0; index < width; index += 1) {
        const values = columnValues(rows, index);
        if (free(index) && values.length > 0 && fraction(values, (value) => /[A-Za-z]{3}/.test(value) && !/^[A-Z0-9]+$/.test(value)) >= 0.5) {
          columns.payee = index;
          break;
        }
      }
    }
  }
  return columns;
}

/**
 * The rows that have the file's usual number of cells, for judging what a column holds: a footer
 * ("Kontostand;31.01.2024;;;3.160,20;EUR") or a summary line of another shape would otherwise put
 * text under a money column and make it look like no money column. Every row when no width is
 * shared by at least half of them.
 */
function typicalRows(rows: CsvRecord[]): CsvRecord[] {
  const counts = new Map<number, number>();
  for (const record of rows) counts.set(record.cells.length, (counts.get(record.cells.length) ?? 0) + 1);
  const [width, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  return count * 2 >= rows.length ? rows.filter((record) => record.cells.length === width) : rows;
}

/**
 * "Kontonummer", "IBAN" or "Account number" is sometimes the OTHER party's account. The own account
 * repeats (a file holds one account, or a few): a column with many different values, or different
 * values under a preamble that already names the account, is the counterparty's.
 */
function isOwnAccountColumn(records: CsvRecord[], index: number, dateColumn: number, preamble: Preamble): boolean {
  const values = records.map((record) => (record.cells[index] ?? '').trim()).filter((value) => value !== '');
  const distinct = new Set(values).size;
  if (distinct > 1 && preamble.account) return false;
  // The own account is written on every transaction or on none; the other party's is missing where
  // there is none (a card payment), so several values with gaps between them are the other party's.
  const datedRows = records.filter((record) => looksLikeDate(record.cells[dateColumn] ?? ''));
  if (distinct > 1 && datedRows.some((record) => (record.cells[index] ?? '').trim() === '')) return false;
  return !(distinct > 5 && distinct > values.length * 0.25);
}

/**
 * Rows shorter than their header because one quoted cell holds what the header splits over several
 * columns (an address as ",City,Country"): when the amount sits `shift` columns left of its header
 * name, the text columns named after the date moved left with it.
 */
function shiftTextColumns(columns: Columns, headerAmount: number | undefined, contentAmount: number): void {
  if (headerAmount === undefined || contentAmount >= headerAmount) return;
  const shift = headerAmount - contentAmount;
  const date = columns.bookingDate ?? columns.date ?? columns.transactionDate ?? -1;
  for (const role of ['description', 'payee', 'memo', 'type', 'checkNumber'] as const) {
    const index = columns[role];
    if (index !== undefined && index - shift > date) columns[role] = index - shift;
  }
}

// ---------------------------------------------------------------------------------------------------
// Preamble: "Account details for:,FRANK Account ...", "Ledger Balance,6,666.66"

const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;

interface Preamble {
  account: string | null;
  balance: string | null;
  available: string | null;
}

function readPreamble(records: CsvRecord[]): Preamble {
  const preamble: Preamble = { account: null, balance: null, available: null };
  for (const record of records) {
    const [key = '', value = ''] = record.cells;
    if (!value) continue;
    const name = foldName(key);
    // "Girokonto;DE12…", "Compte courant;FR76…": whatever the label, an IBAN in a preamble names the account.
    const iban = record.cells.map((cell) => cell.replace(/\s+/g, '')).find((cell) => IBAN.test(cell));
    if (/^(account|account details for|account name|account number|rekening|rekeningnummer|konto|kontonummer|iban|card number)$/.test(name)) {
      preamble.account ??= value;
    } else if (iban) {
      preamble.account ??= iban;
    } else if (/^((ledger|closing|current|book|account) balance|balance|kontostand|saldo)( (vom|am|per|au|as of|at|on) .*)?$/.test(name)) {
      preamble.balance ??= readAmount(value, decimalMarkVote(value) ?? '.')?.value ?? null;
    } else if (/^available balance$/.test(name)) {
      preamble.available ??= readAmount(value, decimalMarkVote(value) ?? '.')?.value ?? null;
    }
  }
  return preamble;
}

// ---------------------------------------------------------------------------------------------------
// Rows to transactions

interface Draft {
  transaction: Omit<ParsedTransaction, 'id'>;
  account: string;
  balance: string | null;
  hasOwnDate: boolean;
  /** The fee column's value as a size (no sign); null when the row has none. */
  fee: string | null;
  /** The row's own cells the id is hashed from (see rowIdentity). */
  identity: string;
}

/** A number written with comma thousands marks and no quotes around it: `-1,234.56`, `$12,345`, `(1,000.00)`. */
const UNQUOTED_THOUSANDS = /^[-+(]?[$\u20ac\u00a3]?\d{1,3}(,\d{3})+(\.\d+)?\)?$/;

/**
 * Rows with more cells than the header, in a comma-separated file: the extra cells are what an
 * unquoted comma split off. Empty cells past the header's width are dropped (a trailing comma); an
 * amount written with thousands marks and no quotes (`-1,234.56`) is put back together where its
 * pieces make exactly such a number; otherwise the split is taken to be in the text (`AMAZON, INC`),
 * and the cells from the description column on are joined back into it. A row that none of this
 * realigns (its amount would be read from the wrong cell) refuses the file, naming the line, rather
 * than import a wrong amount.
 */
function realignOverflowingRows(data: CsvRecord[], layout: Layout, delimiter: string): CsvRecord[] {
  const width = layout.headerCells.length;
  if (layout.headerIndex === null || width === 0 || delimiter !== ',') return data;
  const { columns } = layout;
  const money = [columns.amount, columns.debit, columns.credit, columns.balance, columns.fee].filter((index): index is number => index !== undefined).sort((a, b) => a - b);
  const text = [columns.description, columns.payee, columns.memo].find((index) => index !== undefined);
  // When most rows are longer than the header, the header is what is short (a column without a
  // name): the rows are as the bank wrote them, and the columns are judged by their content.
  const nonBlank = data.filter((record) => !isBlank(record));
  const longer = nonBlank.filter((record) => record.cells.filter((value, index) => index < width || value.trim() !== '').length > width);
  if (longer.length * 2 > nonBlank.length) return data;
  return data.map((record) => {
    let cells = record.cells;
    while (cells.length > width && cells[cells.length - 1]!.trim() === '') cells = cells.slice(0, -1);
    if (cells.length <= width) return cells === record.cells ? record : { ...record, cells };
    // Put unquoted thousands amounts back together, from the left: each merge shifts what follows.
    for (const column of money) {
      for (let pieces = cells.length - width + 1; pieces >= 2; pieces -= 1) {
        const joined = cells.slice(column, column + pieces).join(',');
        if (UNQUOTED_THOUSANDS.test(joined.trim())) {
          cells = [...cells.slice(0, column), joined, ...cells.slice(column + pieces)];
          break;
        }
      }
      if (cells.length === width) return { ...record, cells };
    }
    // A comma in the text: the cells from the text column on, joined back, must leave every money
    // column holding an amount.
    if (text !== undefined && cells.length > width) {
      const extra = cells.length - width;
      // The pieces joined back into the text must be text, not a split-off amount.
      const pieces = cells.slice(text + 1, text + extra + 1);
      if (pieces.some((piece) => piece.trim() !== '' && isAmountLike(piece))) {
        throw new StatementError('statement_malformed', `The row has ${record.cells.length} values where the header has ${width}, and they cannot be lined up with the columns (an amount or text with an unquoted comma?)`, record.line);
      }
      const candidate = [...cells.slice(0, text), cells.slice(text, text + extra + 1).join(','), ...cells.slice(text + extra + 1)];
      if (money.every((column) => candidate[column] === undefined || candidate[column]!.trim() === '' || isAmountLike(candidate[column]!))) return { ...record, cells: candidate };
    }
    throw new StatementError(
      'statement_malformed',
      `The row has ${record.cells.length} values where the header has ${width}, and they cannot be lined up with the columns (an amount or text with an unquoted comma?)`,
      record.line,
    );
  });
}

function buildStatement(encoding: string, data: CsvRecord[], layout: Layout, preamble: Preamble, hints: StatementHints): ParsedStatement {
  const { columns } = layout;
  const skipped: StatementNotice[] = [];
  const rows = data.filter((record) => {
    if (!isBlank(record)) return true;
    return false;
  });
  const cell = (record: CsvRecord, role: ColumnRole): string => {
    const index = columns[role];
    return index === undefined ? '' : (record.cells[index] ?? '').trim();
  };

  const moneyRoles: ColumnRole[] = ['amount', 'debit', 'credit', 'balance', 'fee'];
  let commaVotes = 0;
  let pointVotes = 0;
  for (const record of rows) {
    for (const role of moneyRoles) {
      const vote = decimalMarkVote(cell(record, role));
      if (vote === ',') commaVotes += 1;
      if (vote === '.') pointVotes += 1;
    }
  }
  const decimalMark: DecimalMark = commaVotes > pointVotes ? ',' : '.';
  const dateColumn = columns.bookingDate ?? columns.date ?? columns.transactionDate;
  const authorizedColumn = [columns.transactionDate, columns.date].find((index) => index !== undefined && index !== dateColumn);
  const dateValues = rows.flatMap((record) => [record.cells[dateColumn!] ?? '', authorizedColumn === undefined ? '' : (record.cells[authorizedColumn] ?? '')]);
  const dateDecision = decideDateOrder(dateValues, decimalMark, hints.dateOrder);
  const dateOrder = dateDecision.order;

  // Unsigned amounts take their sign from the direction column; when it only ever marks one side
  // (a card export writing CR on payments), an unmarked row is the other side.
  const amountsUnsigned = columns.amount !== undefined && rows.every((record) => readAmount(cell(record, 'amount'), decimalMark)?.explicitSign !== '-');
  const directions = columns.direction === undefined ? [] : rows.map((record) => directionOf(cell(record, 'direction'))).filter((value) => value !== null);
  const unmarkedDirection: 'credit' | 'debit' | null = directions.length > 0 && directions.every((value) => value === 'credit')
    ? 'debit'
    : directions.length > 0 && directions.every((value) => value === 'debit')
      ? 'credit'
      : null;

  const drafts: Draft[] = [];
  let attempted = 0;
  for (const record of rows) {
    const dateCell = dateColumn === undefined ? '' : (record.cells[dateColumn] ?? '').trim();
    const description = cell(record, 'description') || cell(record, 'payee') || cell(record, 'memo');
    const amount = readRowAmount(record, cell, decimalMark, amountsUnsigned, unmarkedDirection);
    const statusPending = columns.status !== undefined && isPendingMarker(cell(record, 'status'));
    const datePending = isPendingMarker(dateCell);
    let date = readDate(dateCell, dateOrder);
    const authorized = authorizedColumn === undefined ? null : readDate(record.cells[authorizedColumn] ?? '', dateOrder);
    const textCells = record.cells.filter((value) => value !== '' && !isAmountLike(value) && !looksLikeDate(value));
    const moneyColumns = new Set([columns.amount, columns.debit, columns.credit, columns.balance, columns.fee, dateColumn, authorizedColumn]);
    const otherCells = record.cells.filter((value, index) => value !== '' && !moneyColumns.has(index));

    if (!date && !datePending && textCells.some(isSummaryText)) {
      skipped.push({ line: record.line, reason: 'a total or balance row, not a transaction' });
      continue;
    }
    if (date && (isSummaryText(description) || (cell(record, 'payee') === '' && isSummaryText(cell(record, 'description'))))) {
      skipped.push({ line: record.line, reason: 'a balance or turnover row, not a transaction' });
      continue;
    }
    if (!dateCell && amount === 'missing' && drafts.length > 0 && otherCells.length > 0) {
      // The rest of the previous row's description, wrapped onto a row of its own.
      const previous = drafts[drafts.length - 1]!.transaction;
      const extra = otherCells.join(' ').replace(/\s+/g, ' ').trim();
      previous.memo = previous.memo ? `${previous.memo} ${extra}` : extra;
      skipped.push({ line: record.line, reason: 'a continuation of the previous row' });
      continue;
    }
    attempted += 1;
    const dateFromAuthorized = !date && (statusPending || datePending) && authorized !== null;
    if (dateFromAuthorized) date = authorized;
    const pending = statusPending || datePending;
    if (amount === 'missing' || amount === 'unreadable') {
      skipped.push({ line: record.line, reason: amount === 'missing' ? 'the row has no amount' : `the amount is unreadable` });
      continue;
    }
    if (!date && !pending) {
      skipped.push({ line: record.line, reason: dateCell ? `the date '${dateCell.slice(0, 40)}' is unreadable` : 'the row has no date' });
      continue;
    }
    const rowCurrency = columns.currency === undefined ? null : cell(record, 'currency').toUpperCase() || null;
    const account = cell(record, 'account').replace(/\s+/g, ' ');
    const payee = cell(record, 'payee');
    const memoCell = cell(record, 'memo');
    const fee = readAmount(cell(record, 'fee'), decimalMark)?.value.replace(/^-/, '') ?? null;
    drafts.push({
      account,
      balance: readAmount(cell(record, 'balance'), decimalMark)?.value ?? null,
      hasOwnDate: date !== null,
      fee: fee !== null && /[1-9]/.test(fee) ? fee : null,
      identity: rowIdentity(record, cell, dateFromAuthorized ? (record.cells[authorizedColumn!] ?? '') : dateCell, description),
      transaction: {
        date: date ?? '',
        authorizedDate: authorized && authorized !== date ? authorized : null,
        amount: amount.value,
        description: collapse(stripSingleQuotes(description)),
        memo: collapse(stripSingleQuotes([memoCell, payee].find((value) => value !== '' && value !== description) ?? '')) || null,
        type: cell(record, 'type') || null,
        checkNumber: cell(record, 'checkNumber') || null,
        pending,
        currency: rowCurrency ?? amount.currency,
        correction: null,
        line: record.line,
      },
    });
    if (drafts.length > LIMITS.statementMaxTransactions) {
      throw new StatementError('statement_too_large', `The file has more than ${LIMITS.statementMaxTransactions} transactions`, record.line);
    }
  }
  // A pending row the file gives no date ("Pending") is as recent as the newest dated row; with no
  // dated row to go by, it cannot be placed and is left out.
  const latestDate = drafts.reduce((latest, draft) => (draft.hasOwnDate && draft.transaction.date > latest ? draft.transaction.date : latest), '');
  for (let index = drafts.length - 1; index >= 0; index -= 1) {
    const draft = drafts[index]!;
    if (draft.hasOwnDate) continue;
    if (latestDate) {
      draft.transaction.date = latestDate;
    } else {
      skipped.push({ line: draft.transaction.line, reason: 'a pending row without a date, and no dated row to place it by' });
      drafts.splice(index, 1);
    }
  }
  const chargesPositive = columns.amount !== undefined && !amountsUnsigned && chargesWrittenPositive(drafts);
  if (chargesPositive) {
    for (const draft of drafts) {
      draft.transaction.amount = negateDecimal(draft.transaction.amount);
      if (draft.balance !== null) draft.balance = negateDecimal(draft.balance);
    }
  }
  if (feeRuleOf(drafts, layout) === 'charged') {
    for (const draft of drafts) {
      if (draft.fee !== null) draft.transaction.amount = subtractDecimals(draft.transaction.amount, draft.fee);
    }
  }
  skipped.sort((left, right) => left.line - right.line);
  if (drafts.length === 0) {
    if (attempted === 0) throw new StatementError('statement_empty', 'The file has a header but no transaction rows');
    const first = skipped.find((notice) => !notice.reason.startsWith('a '));
    throw new StatementError(
      'statement_malformed',
      `No row has a readable date and amount${first ? ` (${first.reason})` : ''}`,
      first?.line ?? null,
    );
  }
  return {
    format: 'csv',
    encoding,
    accounts: groupAccounts(drafts, chargesPositive ? { ...layout, kind: 'credit' } : layout, preamble),
    skipped,
    dateOrder: dateDecision.reported,
    dateOrderSource: dateDecision.source,
  };
}

/** A card issuer's word for the cardholder's payment to the card ("AUTOPAY PAYMENT - THANK YOU"). */
const PAYMENT_TO_CARD = /\bthank\s*you\b/i;
/** Transaction types that say which way money moved, whatever the sign convention. */
const OUTGOING_TYPES = new Set(['purchase', 'sale', 'charge', 'debit']);
const INCOMING_TYPES = new Set(['refund', 'return', 'credit']);

/**
 * Whether a signed amount column writes money OUT positive, as card issuers' own exports do (Amex,
 * Discover, Apple Card: a purchase `54.32`, the payment `-250.00`), instead of money in positive.
 * The rows say which: a payment to the card ("... THANK YOU"), a refund or a credit written
 * negative, and a purchase, sale or debit written positive, are evidence of it; the same rows the
 * other way round are evidence against. It takes more evidence for than against, and at least half
 * of the rows positive (such a file is mostly charges). A file with none of these rows is taken as
 * written.
 */
function chargesWrittenPositive(drafts: Draft[]): boolean {
  let forIt = 0;
  let against = 0;
  let positive = 0;
  let nonZero = 0;
  for (const { transaction } of drafts) {
    if (!/[1-9]/.test(transaction.amount)) continue;
    nonZero += 1;
    const isNegative = transaction.amount.startsWith('-');
    if (!isNegative) positive += 1;
    const type = foldName(transaction.type ?? '');
    const text = `${transaction.description} ${transaction.memo ?? ''}`;
    const incoming = INCOMING_TYPES.has(type) || PAYMENT_TO_CARD.test(text);
    const outgoing = OUTGOING_TYPES.has(type);
    if (incoming === outgoing) continue;
    if (incoming === isNegative) forIt += 1;
    else against += 1;
  }
  return forIt > against && positive * 2 >= nonZero;
}

/**
 * What a content-hash id is made of: the row's own cells as the file writes them (its account
 * cell, the cell its date was read from, every cell that says how much moved and which way, and the
 * description), never values decided from the rest of the file. The date order, decimal mark, sign
 * convention and fee rule are per-file decisions, and an unlabelled row's account depends on the
 * other rows: two exports of the same row could read it differently and so store it twice.
 */
function rowIdentity(
  record: CsvRecord,
  cell: (record: CsvRecord, role: ColumnRole) => string,
  dateCell: string,
  description: string,
): string {
  const moneyCells = (['amount', 'debit', 'credit', 'direction', 'fee'] as const).map((role) => collapse(cell(record, role)));
  return JSON.stringify([collapse(cell(record, 'account')), collapse(dateCell), ...moneyCells, collapse(stripSingleQuotes(description))]);
}

/**
 * Whether a fee column's fee is charged on top of the amount ('charged': what moved is the amount
 * minus the fee, as Revolut writes it) or already in it ('included': brokerage exports, whose
 * amount is the net cash of the trade; a "Net" amount column next to Gross and Fee, as PayPal
 * writes it). A running balance decides where it can: between neighbouring rows of the same
 * account, the balance moves by one reading or the other. Without that evidence a bank export's
 * separate fee is charged.
 */
function feeRuleOf(drafts: Draft[], layout: Layout): 'charged' | 'included' | 'none' {
  if (!drafts.some((draft) => draft.fee !== null)) return 'none';
  if (layout.kind === 'investment') return 'included';
  const amountHeader = layout.columns.amount === undefined ? '' : foldName(layout.headerCells[layout.columns.amount] ?? '');
  if (/^(net|netto|net amount|nettobetrag)\b/.test(amountHeader)) return 'included';
  let charged = 0;
  let included = 0;
  const isZero = (value: string): boolean => !/[1-9]/.test(value);
  drafts.forEach((draft, index) => {
    if (draft.fee === null || draft.balance === null) return;
    for (const neighbour of [drafts[index - 1], drafts[index + 1]]) {
      if (!neighbour || neighbour.balance === null || neighbour.account !== draft.account) continue;
      // Newest-first or oldest-first, the row's balance minus its predecessor's is what the row moved.
      const moved = subtractDecimals(draft.balance, neighbour.balance);
      if (isZero(subtractDecimals(moved, subtractDecimals(draft.transaction.amount, draft.fee)))) charged += 1;
      else if (isZero(subtractDecimals(moved, draft.transaction.amount))) included += 1;
    }
  });
  return included > charged ? 'included' : 'charged';
}

type RowAmount = { value: string; currency: string | null } | 'missing' | 'unreadable';

function readRowAmount(
  record: CsvRecord,
  cell: (record: CsvRecord, role: ColumnRole) => string,
  decimalMark: DecimalMark,
  amountsUnsigned: boolean,
  unmarkedDirection: 'credit' | 'debit' | null,
): RowAmount {
  const amountCell = cell(record, 'amount');
  if (amountCell) {
    const read = readAmount(amountCell, decimalMark);
    if (!read) return 'unreadable';
    let value = read.value;
    if (amountsUnsigned && read.explicitSign === null) {
      const direction = directionOf(cell(record, 'direction')) ?? unmarkedDirection;
      if (direction === 'debit') value = negateDecimal(value);
    }
    return { value, currency: read.currency };
  }
  const debitCell = cell(record, 'debit');
  const creditCell = cell(record, 'credit');
  if (!debitCell && !creditCell) return 'missing';
  const debit = debitCell ? readAmount(debitCell, decimalMark) : { value: '0', currency: null, explicitSign: null };
  const credit = creditCell ? readAmount(creditCell, decimalMark) : { value: '0', currency: null, explicitSign: null };
  if (!debit || !credit) return 'unreadable';
  // Some banks write debits negative in their own column: what matters is the size.
  const value = subtractDecimals(credit.value.replace(/^-/, ''), debit.value.replace(/^-/, ''));
  return { value, currency: credit.currency ?? debit.currency };
}

function stripSingleQuotes(value: string): string {
  return value.replace(/^'([\s\S]*)'$/, '$1');
}

function collapse(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function groupAccounts(drafts: Draft[], layout: Layout, preamble: Preamble): ParsedAccount[] {
  const named = [...new Set(drafts.map((draft) => draft.account).filter((account) => account !== ''))];
  // A row without an account (a card payment row) belongs to the only account the file names.
  const fallback = named.length === 1 ? named[0]! : (preamble.account ?? 'default');
  const byAccount = new Map<string, Draft[]>();
  for (const draft of drafts) {
    const account = draft.account || fallback;
    const list = byAccount.get(account) ?? [];
    list.push(draft);
    byAccount.set(account, list);
  }
  const accounts: ParsedAccount[] = [];
  for (const [sourceId, list] of byAccount) {
    const latestDate = list.reduce((latest, draft) => (draft.hasOwnDate && draft.transaction.date > latest ? draft.transaction.date : latest), '');

    const currencies = new Map<string, number>();
    for (const draft of list) {
      const code = draft.transaction.currency;
      if (code) currencies.set(code, (currencies.get(code) ?? 0) + 1);
    }
    const currency = [...currencies.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? layout.headerCurrency;
    const seen = new Map<string, number>();
    const transactions: ParsedTransaction[] = list.map((draft) => {
      const { transaction } = draft;
      const key = draft.identity;
      const occurrence = seen.get(key) ?? 0;
      seen.set(key, occurrence + 1);
      const id = `csv_${createHash('sha256').update(`${key}#${occurrence}`).digest('hex').slice(0, 32)}`;
      return { id, ...transaction, currency: transaction.currency === currency ? null : transaction.currency };
    });
    accounts.push({
      sourceId,
      kind: layout.kind,
      accountType: null,
      mask: maskOf(sourceId),
      currency: currency ?? null,
      balance: latestBalance(list, latestDate) ?? (preamble.balance ? { amount: preamble.balance, asOf: null } : null),
      available: preamble.available ? { amount: preamble.available, asOf: null } : null,
      transactions,
      holdings: [],
      investmentTransactions: [],
    });
  }
  return accounts;
}

function maskOf(sourceId: string): string | null {
  const characters = sourceId.replace(/[^A-Za-z0-9]/g, '');
  if (sourceId === 'default' || characters.length < 4 || !/\d{4}$/.test(characters)) return null;
  return characters.slice(-4);
}

/** The balance column's value on the newest row (the first or last of that date, by the file's order). */
function latestBalance(list: Draft[], latestDate: string): { amount: string; asOf: string | null } | null {
  const withBalance = list.filter((draft) => draft.balance !== null && draft.hasOwnDate);
  if (withBalance.length === 0) return null;
  const first = withBalance[0]!.transaction.date;
  const last = withBalance[withBalance.length - 1]!.transaction.date;
  const newestFirst = first > last;
  const newest = withBalance.filter((draft) => draft.transaction.date === latestDate);
  const pick = newest.length > 0 ? (newestFirst ? newest[0]! : newest[newest.length - 1]!) : withBalance[newestFirst ? 0 : withBalance.length - 1]!;
  return { amount: pick.balance!, asOf: pick.transaction.date };
}
