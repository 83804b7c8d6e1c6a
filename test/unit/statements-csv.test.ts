// The CSV statement parser and the byte decoder on the shared corpus of real bank exports (read in
// place, never copied) and on generated edge cases: encodings, line endings, number and date
// formats, truncation, fuzzed garbage and oversized input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LIMITS } from '../../functions/contracts/limits';
import { parseCsvStatement } from '../../functions/core/statements/csv';
import { parseStatement } from '../../functions/core/statements';
import { decodeStatementBytes } from '../../functions/core/statements/encoding';
import { StatementError, type ParsedStatement, type StatementHints } from '../../functions/core/statements/types';

const CORPUS = join(__dirname, '../../../shared/statements');

interface ManifestEntry {
  file: string;
  format: string;
  expected: {
    accounts?: number;
    transactions?: number;
    currency?: string | string[] | null;
    first_date?: string;
    last_date?: string;
    sum_of_amounts?: string;
    pending_transactions?: number;
    account_ids?: string[];
    closing_balance?: string;
    header_line?: number | null;
    reject?: boolean;
    reason?: string;
  };
}

const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] };
const csvEntries = manifest.files.filter((entry) => entry.format === 'csv');

/** Exact decimal sum, independent of the parser's own arithmetic. */
function exactSum(values: string[]): string {
  const scale = Math.max(0, ...values.map((value) => (value.split('.')[1] ?? '').length));
  let total = 0n;
  for (const value of values) {
    const negative = value.startsWith('-');
    const [whole, fraction = ''] = value.replace(/^[-+]/, '').split('.');
    const scaled = BigInt(`${whole || '0'}${fraction.padEnd(scale, '0')}`);
    total += negative ? -scaled : scaled;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Compares decimals by value ("940" equals "940.00"). */
function sameDecimal(left: string, right: string): boolean {
  return exactSum([left, right.startsWith('-') ? right.slice(1) : `-${right}`]).replace(/[-0.]/g, '') === '';
}

function parseBytes(bytes: Uint8Array): ParsedStatement {
  const { text, encoding } = decodeStatementBytes(bytes);
  return parseCsvStatement(text, encoding);
}

function parseText(text: string, hints?: StatementHints): ParsedStatement {
  return parseCsvStatement(text, 'utf-8', hints);
}

function allTransactions(statement: ParsedStatement) {
  return statement.accounts.flatMap((account) => account.transactions);
}

function expectStatementError(run: () => unknown, code?: string): StatementError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(StatementError);
    if (code) expect((error as StatementError).code).toBe(code);
    return error as StatementError;
  }
  throw new Error('expected a StatementError');
}

describe('CSV corpus (shared/statements, manifest format csv)', () => {
  it('has the CSV files the manifest lists', () => {
    expect(csvEntries.length).toBeGreaterThanOrEqual(16);
  });

  it.each(csvEntries.map((entry) => [entry.file, entry] as const))('%s imports to the manifest values', (_file, entry) => {
    const bytes = readFileSync(join(CORPUS, entry.file));
    const { expected } = entry;
    if (expected.reject) {
      expectStatementError(() => parseBytes(bytes));
      return;
    }
    const statement = parseBytes(bytes);
    const transactions = allTransactions(statement);
    expect(statement.format).toBe('csv');
    expect(statement.accounts).toHaveLength(expected.accounts!);
    expect(transactions).toHaveLength(expected.transactions!);
    expect(transactions.filter((transaction) => transaction.pending)).toHaveLength(expected.pending_transactions ?? 0);

    const currencies = [...new Set(statement.accounts.map((account) => account.currency))];
    if (Array.isArray(expected.currency)) expect(currencies.sort()).toEqual([...expected.currency].sort());
    else expect(currencies).toEqual([expected.currency ?? null]);

    const dates = transactions.map((transaction) => transaction.date).sort();
    expect(dates[0]).toBe(expected.first_date);
    expect(dates[dates.length - 1]).toBe(expected.last_date);
    expect(sameDecimal(exactSum(transactions.map((transaction) => transaction.amount)), expected.sum_of_amounts!)).toBe(true);
    if (expected.account_ids) expect(statement.accounts.map((account) => account.sourceId)).toEqual(expected.account_ids);
    if (expected.closing_balance && expected.header_line !== null) {
      expect(statement.accounts[0]!.balance?.amount).toBe(expected.closing_balance);
    }

    for (const transaction of transactions) {
      expect(transaction.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(transaction.amount).toMatch(/^-?\d+(\.\d+)?$/);
      expect(transaction.line).toBeGreaterThanOrEqual(1);
    }
    // Content-hash ids: unique within the file and the same on a second import.
    expect(new Set(transactions.map((transaction) => transaction.id)).size).toBe(transactions.length);
    expect(allTransactions(parseBytes(bytes)).map((transaction) => transaction.id)).toEqual(transactions.map((transaction) => transaction.id));
    // The upload entry point recognises the file as CSV from its content and gives the same result.
    expect(parseStatement(bytes, entry.file)).toEqual(statement);
  });

  it('truncating any corpus CSV at every 1/20th either imports or fails with a StatementError', () => {
    for (const entry of csvEntries) {
      const bytes = readFileSync(join(CORPUS, entry.file));
      for (let step = 1; step < 20; step += 1) {
        const cut = bytes.subarray(0, Math.floor((bytes.length * step) / 20));
        try {
          const statement = parseBytes(cut);
          for (const transaction of allTransactions(statement)) expect(transaction.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(StatementError);
        }
      }
    }
  });
});

describe('decodeStatementBytes', () => {
  const encoder = new TextEncoder();
  const utf16le = (text: string) => Uint8Array.from(Buffer.from(text, 'utf16le'));
  const utf16be = (text: string) => {
    const bytes = utf16le(text);
    for (let index = 0; index + 1 < bytes.length; index += 2) [bytes[index], bytes[index + 1]] = [bytes[index + 1]!, bytes[index]!];
    return bytes;
  };
  const sample = 'Datum;Bedrag;Omschrijving\n01-02-2024;-12,50;Café Noël\n';

  it('reads a UTF-8 BOM and drops it', () => {
    const decoded = decodeStatementBytes(Uint8Array.from([0xef, 0xbb, 0xbf, ...encoder.encode(sample)]));
    expect(decoded).toEqual({ text: sample, encoding: 'utf-8' });
  });

  it('reads UTF-16 LE and BE with and without a BOM', () => {
    expect(decodeStatementBytes(Uint8Array.from([0xff, 0xfe, ...utf16le(sample)]))).toEqual({ text: sample, encoding: 'utf-16le' });
    expect(decodeStatementBytes(Uint8Array.from([0xfe, 0xff, ...utf16be(sample)]))).toEqual({ text: sample, encoding: 'utf-16be' });
    expect(decodeStatementBytes(utf16le(sample))).toEqual({ text: sample, encoding: 'utf-16le' });
    expect(decodeStatementBytes(utf16be(sample))).toEqual({ text: sample, encoding: 'utf-16be' });
  });

  it('tells Windows-1252 from ISO-8859-1 by the bytes 0x80-0x9F', () => {
    // 0x80 is the euro sign in Windows-1252 and a C1 control in ISO-8859-1.
    expect(decodeStatementBytes(Uint8Array.from([0x80, 0x20, 0x35, 0x0a]))).toEqual({ text: '€ 5\n', encoding: 'windows-1252' });
    // 0x81 is undefined in Windows-1252: only ISO-8859-1 explains it.
    expect(decodeStatementBytes(Uint8Array.from([0x41, 0x81, 0xe9, 0x0a]))).toEqual({ text: 'A\u0081é\n', encoding: 'iso-8859-1' });
    // Only 0xA0-0xFF: both agree; ISO-8859-1 unless the file declares Windows-1252.
    expect(decodeStatementBytes(Uint8Array.from([0x43, 0x61, 0x66, 0xe9]))).toEqual({ text: 'Café', encoding: 'iso-8859-1' });
    expect(decodeStatementBytes(Uint8Array.from([0x43, 0x61, 0x66, 0xe9]), '1252')).toEqual({ text: 'Café', encoding: 'windows-1252' });
  });

  it('prefers valid UTF-8 and honours a declared charset for plain ASCII', () => {
    expect(decodeStatementBytes(encoder.encode('Café'), 'ISO-8859-1').encoding).toBe('utf-8');
    expect(decodeStatementBytes(encoder.encode('plain'), 'windows-1252').encoding).toBe('windows-1252');
    expect(decodeStatementBytes(encoder.encode('plain'), 'USASCII').encoding).toBe('utf-8');
  });

  it('tolerates trailing NUL padding but refuses binary data', () => {
    expect(decodeStatementBytes(Uint8Array.from([...encoder.encode('<OFX></OFX>'), 0])).text).toBe('<OFX></OFX>');
    const error = expectStatementError(
      () => decodeStatementBytes(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x0a, 0x00, 0x41, 0x00, 0x00, 0x00, 0x07])),
      'statement_unsupported_encoding',
    );
    expect(error.message).toMatch(/binary/);
  });

  it('refuses an empty file and an oversized one before decoding', () => {
    expectStatementError(() => decodeStatementBytes(new Uint8Array(0)), 'statement_empty');
    expectStatementError(() => decodeStatementBytes(new Uint8Array(LIMITS.statementMaxBytes + 1)), 'statement_too_large');
  });
});

describe('parseCsvStatement edge cases', () => {
  const rows = ['Date,Description,Amount', '2024-01-03,Coffee,-3.50', '2024-01-05,Salary,1000.00', '2024-01-09,Rent,-700.00'];

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
    ['CR CR LF', '\r\r\n'],
  ])('reads %s line endings the same way', (_name, newline) => {
    const statement = parseText(rows.join(newline));
    expect(allTransactions(statement).map((transaction) => [transaction.date, transaction.amount])).toEqual([
      ['2024-01-03', '-3.50'],
      ['2024-01-05', '1000.00'],
      ['2024-01-09', '-700.00'],
    ]);
  });

  it('reads mixed line endings and a header after a preamble and blank lines', () => {
    const text = `Export of account NL00BANK0123456789\r\n\r\n\nDate;Description;Amount\r2024-01-03;Coffee;-3,50\n2024-01-05;Salary;1.000,00\r\n`;
    const transactions = allTransactions(parseText(text));
    expect(transactions.map((transaction) => transaction.amount)).toEqual(['-3.50', '1000.00']);
    expect(transactions[0]!.line).toBe(5);
  });

  it('decides day/month order for the whole file from a day above 12 on any row', () => {
    const text = ['Date,Description,Amount', '03/04/2024,A,-1.00', '05/06/2024,B,-2.00', '25/06/2024,C,-3.00'].join('\n');
    expect(allTransactions(parseText(text)).map((transaction) => transaction.date)).toEqual(['2024-04-03', '2024-06-05', '2024-06-25']);
    const us = ['Date,Description,Amount', '03/04/2024,A,-1.00', '06/25/2024,C,-3.00'].join('\n');
    expect(allTransactions(parseText(us)).map((transaction) => transaction.date)).toEqual(['2024-03-04', '2024-06-25']);
  });

  it('reads yyyymmdd, month names and two-digit years', () => {
    const text = ['Datum|Bedrag|Omschrijving', '20240131|-1,00|A', '2-Feb-2024|-2,00|B', '3 March 2024|-3,00|C', '04.03.24|-4,00|D'].join('\n');
    expect(allTransactions(parseText(text)).map((transaction) => transaction.date)).toEqual(['2024-01-31', '2024-02-02', '2024-03-03', '2024-03-04']);
  });

  it("reads thousands marks, apostrophes, parentheses, trailing minus and currency symbols", () => {
    const text = [
      'Date\tDescription\tAmount',
      "2024-01-01\tA\t11'373.94",
      '2024-01-02\tB\t(12.00)',
      '2024-01-03\tC\t45.10-',
      '2024-01-04\tD\t-$1,234.56',
      '2024-01-05\tE\t€ 7.00',
    ].join('\n');
    const statement = parseText(text);
    expect(allTransactions(statement).map((transaction) => transaction.amount)).toEqual(['11373.94', '-12.00', '-45.10', '-1234.56', '7.00']);
  });

  it('takes the sign from debit/credit columns or a direction column', () => {
    const split = ['Date,Description,Debit,Credit', '2024-01-01,A,10.00,', '2024-01-02,B,,25.50'].join('\n');
    expect(allTransactions(parseText(split)).map((transaction) => transaction.amount)).toEqual(['-10.00', '25.50']);
    const direction = ['Datum;Naam;Af Bij;Bedrag (EUR)', '01-01-2024;A;Af;10,00', '02-01-2024;B;Bij;25,50'].join('\n');
    expect(allTransactions(parseText(direction)).map((transaction) => transaction.amount)).toEqual(['-10.00', '25.50']);
  });

  it('imports a headerless file by the content of its columns', () => {
    const text = [
      '01-02-2024,NL00BANK0123456789,NL11OTHR0000000001,Shop,EUR,-12.30,Groceries at the corner shop',
      '03-02-2024,NL00BANK0123456789,NL11OTHR0000000002,Employer,EUR,2000.00,Salary February',
    ].join('\n');
    const statement = parseText(text);
    expect(statement.accounts.map((account) => [account.sourceId, account.currency, account.mask])).toEqual([['NL00BANK0123456789', 'EUR', '6789']]);
    expect(allTransactions(statement).map((transaction) => [transaction.date, transaction.amount, transaction.description])).toEqual([
      ['2024-02-01', '-12.30', 'Groceries at the corner shop'],
      ['2024-02-03', '2000.00', 'Salary February'],
    ]);
  });

  it('finds the amount and text by content when rows are shorter than their header', () => {
    // One quoted cell holds what the header calls Address, City and Country.
    const text = ['Date,Bank,Address,City,Country,Name,Memo,Amount', '2024-01-01,B,",Town,LT",Shop,Groceries,-5.00', '2024-01-02,B,",Town,LT",Employer,Salary,900.00'].join('\n');
    expect(allTransactions(parseText(text)).map((transaction) => [transaction.amount, transaction.description, transaction.memo])).toEqual([
      ['-5.00', 'Shop', 'Groceries'],
      ['900.00', 'Employer', 'Salary'],
    ]);
  });

  it('splits several accounts by the account column and keeps the newest balance', () => {
    const text = ['Account,Date,Description,Amount,Balance', 'A-1111,2024-01-01,X,-1.00,99.00', 'B-2222,2024-01-01,Y,-2.00,48.00', 'A-1111,2024-01-02,Z,-3.00,96.00'].join('\n');
    const statement = parseText(text);
    expect(statement.accounts.map((account) => [account.sourceId, account.transactions.length, account.balance?.amount])).toEqual([
      ['A-1111', 2, '96.00'],
      ['B-2222', 1, '48.00'],
    ]);
  });

  it("does not split accounts by a column that holds the other party's account", () => {
    const rows = Array.from({ length: 8 }, (_, index) => `0${index + 1}.03.2024;DE${String(index).padStart(20, '0')};Payee ${index};-${index + 1},00`);
    const statement = parseText(['Buchungstag;Kontonummer;Beguenstigter;Betrag (€)', ...rows].join('\n'));
    expect(statement.accounts.map((account) => [account.sourceId, account.currency, account.transactions.length])).toEqual([['default', 'EUR', 8]]);
    const underPreamble = parseText(['Kontonummer:;DE99 1234 5678 9012 3456 78', '', 'Buchungstag;IBAN;Betrag', '01.03.2024;DE11;-1,00', '02.03.2024;DE22;-2,00'].join('\n'));
    expect(underPreamble.accounts.map((account) => account.sourceId)).toEqual(['DE99 1234 5678 9012 3456 78']);
  });

  it('joins continuation rows to the previous transaction and marks pending rows', () => {
    const text = [
      'accountNumber,Transaction Date,Description,Amount,Status',
      'ACC-1234,2024-02-01,CARD PURCHASE,-5.00,Posted',
      ',,SHOP 12 LONDON,,',
      'ACC-1234,2024-02-02,CARD PURCHASE,-7.00,Pending',
    ].join('\n');
    const statement = parseText(text);
    const transactions = allTransactions(statement);
    expect(statement.accounts.map((account) => account.sourceId)).toEqual(['ACC-1234']);
    expect(transactions.map((transaction) => [transaction.memo, transaction.pending])).toEqual([
      ['SHOP 12 LONDON', false],
      [null, true],
    ]);
    expect(statement.skipped).toEqual([{ line: 3, reason: 'a continuation of the previous row' }]);
  });

  it('gives identical rows distinct, stable ids', () => {
    const text = ['Date,Description,Amount', '2024-01-01,Coffee,-3.00', '2024-01-01,Coffee,-3.00'].join('\n');
    const first = allTransactions(parseText(text)).map((transaction) => transaction.id);
    expect(new Set(first).size).toBe(2);
    expect(allTransactions(parseText(text)).map((transaction) => transaction.id)).toEqual(first);
    // Adding a row later in the file does not change the ids of the rows already imported.
    const overlapping = allTransactions(parseText(`${text}\n2024-01-02,Tea,-2.00`)).map((transaction) => transaction.id);
    expect(overlapping.slice(0, 2)).toEqual(first);
  });

  it('skips rows with an unreadable date or amount with a notice naming the line', () => {
    const text = ['Date,Description,Amount', '2024-01-01,A,-1.00', 'soon,B,-2.00', '2024-01-03,C,abc'].join('\n');
    const statement = parseText(text);
    expect(allTransactions(statement)).toHaveLength(1);
    expect(statement.skipped.map((notice) => notice.line)).toEqual([3, 4]);
  });

  it('rejects a file where no row has a readable date', () => {
    const text = ['Date,Description,Amount', '**/**/****,A,-1.00', '**/**/****,B,-2.00'].join('\n');
    expectStatementError(() => parseText(text), 'statement_malformed');
  });

  it('rejects text that is not a table, and an empty file', () => {
    expectStatementError(() => parseText('This is not a statement at all.\nJust prose.'), 'statement_unrecognized');
    expectStatementError(() => parseText('  \n\n'), 'statement_empty');
    expectStatementError(() => parseText('Date,Description,Amount\n'), 'statement_empty');
  });

  it('refuses a runaway quote with the line it starts on', () => {
    const text = `Date,Description,Amount\n2024-01-01,"never closed,-1.00\n${'x'.repeat(LIMITS.statementCsvMaxFieldChars + 10)}`;
    const error = expectStatementError(() => parseText(text), 'statement_malformed');
    expect(error.line).toBe(2);
  });

  it('refuses oversized text before parsing', () => {
    expectStatementError(() => parseText('a'.repeat(LIMITS.statementMaxBytes + 1)), 'statement_too_large');
  });

  it('never throws anything but a StatementError on fuzzed input', () => {
    const csvish = fc
      .array(fc.constantFrom('a', '1', '-', ',', ';', '"', "'", '\n', '\r', '.', '/', ' ', '2024-01-02', 'Date', 'Amount', '$'), { maxLength: 200 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), csvish), (text) => {
        try {
          parseText(text);
        } catch (error) {
          if (!(error instanceof StatementError)) throw error;
        }
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          parseBytes(bytes);
        } catch (error) {
          if (!(error instanceof StatementError)) throw error;
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('date order across the files of one item (hints)', () => {
  const ambiguousUs = ['Date,Description,Amount', '03/04/2024,A,-1.00', '05/06/2024,B,-2.00'].join('\n');
  const datesOf = (statement: ParsedStatement) => allTransactions(statement).map((transaction) => transaction.date);
  const amountsOf = (statement: ParsedStatement) => allTransactions(statement).map((transaction) => transaction.amount);

  it('reads an ambiguous file by its own default without a hint, and says so', () => {
    const statement = parseText(ambiguousUs);
    expect([statement.dateOrder, statement.dateOrderSource]).toEqual(['mdy', 'default']);
    expect(datesOf(statement)).toEqual(['2024-03-04', '2024-05-06']);
    const dotted = parseText(['Datum;Omschrijving;Bedrag', '03.04.2024;A;-1,00', '05.06.2024;B;-2,00'].join('\n'));
    expect([dotted.dateOrder, dotted.dateOrderSource, ...datesOf(dotted)]).toEqual(['dmy', 'default', '2024-04-03', '2024-06-05']);
  });

  it('reads an ambiguous file in the hinted order', () => {
    const dayFirst = parseText(ambiguousUs, { dateOrder: 'dmy' });
    expect([dayFirst.dateOrder, dayFirst.dateOrderSource, ...datesOf(dayFirst)]).toEqual(['dmy', 'hint', '2024-04-03', '2024-06-05']);
    const monthFirst = parseText(ambiguousUs, { dateOrder: 'mdy' });
    expect([monthFirst.dateOrder, monthFirst.dateOrderSource, ...datesOf(monthFirst)]).toEqual(['mdy', 'hint', '2024-03-04', '2024-05-06']);
    // A year-first hint says nothing about day and month: the file's default stands.
    const yearFirst = parseText(ambiguousUs, { dateOrder: 'ymd' });
    expect([yearFirst.dateOrder, yearFirst.dateOrderSource]).toEqual(['mdy', 'default']);
  });

  it('ignores a hint the file contradicts: a day above 12 proves the order', () => {
    const proving = ['Date,Description,Amount', '03/04/2024,A,-1.00', '25/06/2024,B,-2.00'].join('\n');
    const statement = parseText(proving, { dateOrder: 'mdy' });
    expect([statement.dateOrder, statement.dateOrderSource, ...datesOf(statement)]).toEqual(['dmy', 'file', '2024-04-03', '2024-06-25']);
    const iso = parseText(['Date,Description,Amount', '2024-03-04,A,-1.00'].join('\n'), { dateOrder: 'dmy' });
    expect([iso.dateOrder, iso.dateOrderSource, ...datesOf(iso)]).toEqual(['ymd', 'file', '2024-03-04']);
  });

  it('reads every corpus CSV the same whatever the hint: each proves its own order', () => {
    for (const entry of csvEntries.filter((candidate) => !candidate.expected.reject)) {
      const bytes = readFileSync(join(CORPUS, entry.file));
      const plain = parseStatement(bytes, entry.file);
      expect([entry.file, plain.dateOrderSource]).toEqual([entry.file, 'file']);
      for (const dateOrder of ['dmy', 'mdy', 'ymd'] as const) expect(parseStatement(bytes, entry.file, { dateOrder })).toEqual(plain);
    }
  });

  it('gives the same row the same id and date in two exports of different lengths', () => {
    // The long export proves day-first (25/06) and a comma decimal mark (1.234,56); the short one
    // proves neither, so on its own it would read 03/04 as 4 March and "12,500" as twelve thousand.
    const shared = ['03/04/2024;Coffee;-3,500', '05/04/2024;Transfer;12,500'];
    const long = parseText(['Datum;Omschrijving;Bedrag', ...shared, '25/06/2024;Rent;-1.234,56'].join('\n'));
    const short = parseText(['Datum;Omschrijving;Bedrag', ...shared].join('\n'));
    const idsOf = (statement: ParsedStatement) => allTransactions(statement).map((transaction) => transaction.id);
    expect([long.dateOrder, long.dateOrderSource]).toEqual(['dmy', 'file']);
    expect([short.dateOrder, short.dateOrderSource]).toEqual(['mdy', 'default']);
    expect(amountsOf(long).slice(0, 2)).toEqual(['-3.500', '12.500']);
    expect(amountsOf(short)).toEqual(['-3500', '12500']);
    expect(idsOf(short)).toEqual(idsOf(long).slice(0, 2));
    // With the long file's order as the hint, the short file also reads the same dates.
    const hinted = parseText(['Datum;Omschrijving;Bedrag', ...shared].join('\n'), { dateOrder: long.dateOrder! });
    expect(datesOf(hinted)).toEqual(datesOf(long).slice(0, 2));
    expect(idsOf(hinted)).toEqual(idsOf(long).slice(0, 2));
  });

  it('keeps an unlabelled row\'s id when the other rows change the account it falls into', () => {
    const header = 'Card number;Date;Description;Amount';
    const payment = ';24/01/2020;Payment from checking;35,77';
    const withCard = parseText([header, '1234567890123456;01/02/2020;Shop;-16,52', payment].join('\n'));
    const alone = parseText([header, payment, ';25/01/2020;Refund;1,00'].join('\n'));
    const paymentId = (statement: ParsedStatement) => allTransactions(statement).find((transaction) => transaction.description === 'Payment from checking')!.id;
    expect(withCard.accounts.map((account) => account.sourceId)).toEqual(['1234567890123456']);
    expect(paymentId(alone)).toBe(paymentId(withCard));
  });
});

describe('fee columns', () => {
  const amountsOf = (statement: ParsedStatement) => allTransactions(statement).map((transaction) => transaction.amount);

  it('takes a separate fee off the amount: what moved is amount minus fee (Revolut)', () => {
    const text = [
      'Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance',
      'ATM,Current,2022-01-02 10:00:00,2022-01-02 10:00:01,Cash at ATM,-200.00,1.50,EUR,COMPLETED,',
      'TRANSFER,Current,2022-01-03 10:00:00,2022-01-03 10:00:01,From John,100.00,0.50,EUR,COMPLETED,',
      'CARD_PAYMENT,Current,2022-01-04 10:00:00,2022-01-04 10:00:01,Shop,-10.00,0.00,EUR,COMPLETED,',
    ].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['-201.50', '99.50', '-10.00']);
  });

  it('follows the running balance where it shows the amount already holds the fee (Wise)', () => {
    const text = [
      'TransferWise ID,Date,Amount,Currency,Description,Running Balance,Total fees',
      'TRANSFER-3,05-01-2024,-101.20,EUR,Sent money to Ann,798.80,1.20',
      'TRANSFER-2,04-01-2024,-50.60,EUR,Sent money to Bob,900.00,0.60',
      'TRANSFER-1,03-01-2024,1000.00,EUR,Received money,950.60,0.00',
    ].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['-101.20', '-50.60', '1000.00']);
  });

  it('follows the running balance where it shows the fee charged on top', () => {
    const text = [
      'Date,Description,Amount,Fee,Balance',
      '2024-01-01,Opening deposit,1000.00,0.00,1000.00',
      '2024-01-02,Wire out,-100.00,15.00,885.00',
      '2024-01-03,Card,-20.00,0.00,865.00',
    ].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['1000.00', '-115.00', '-20.00']);
  });

  it('keeps a brokerage amount, which is already net of commission (Schwab "Fees & Comm")', () => {
    const text = [
      '"Date","Action","Symbol","Description","Quantity","Price","Fees & Comm","Amount"',
      '"04/18/2023","Sell","BND","VANGUARD TOTAL BOND MARKET ETF","10.065","$73.4049","$0.01","$738.81"',
      '"04/27/2023","Buy","BND","VANGUARD TOTAL BOND MARKET ETF","45","$73.7789","","-$3320.05"',
    ].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['738.81', '-3320.05']);
  });

  it('keeps a Net column next to Gross and Fee (PayPal)', () => {
    const text = ['Date,Name,Type,Currency,Gross,Fee,Net', '01/02/2024,Ann,Payment,USD,10.00,-0.59,9.41', '01/03/2024,Bob,Payment,USD,20.00,-0.88,19.12'].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['9.41', '19.12']);
  });

  it('does not take a fee id or fee type column for a fee', () => {
    const text = ['Date,Description,Amount,Fee ID', '2024-01-01,A,-1.00,100234', '2024-01-02,B,-2.00,100235'].join('\n');
    expect(amountsOf(parseText(text))).toEqual(['-1.00', '-2.00']);
  });
});

describe('rows with more values than the header (an unquoted comma)', () => {
  const parse = (text: string) => parseStatement(new Uint8Array(Buffer.from(text, 'utf8')), 'x.csv');
  const amounts = (text: string) => parse(text).accounts.flatMap((a) => a.transactions.map((t) => [t.description, t.amount]));

  it('puts an amount written with unquoted thousands marks back together', () => {
    expect(amounts('Date,Description,Amount\n2024-06-01,Coffee,-3.50\n2024-06-02,Rent,-1,234.56\n2024-06-03,Salary,"2,500.00"\n')).toEqual([
      ['Coffee', '-3.50'],
      ['Rent', '-1234.56'],
      ['Salary', '2500.00'],
    ]);
  });

  it('joins a description split by an unquoted comma back together', () => {
    expect(amounts('Date,Description,Amount\n2024-06-01,AMAZON, INC,-12.00\n2024-06-02,Coffee,-3.50\n')).toEqual([
      // The cells were trimmed when read, so the space after the comma is not restored.
      ['AMAZON,INC', '-12.00'],
      ['Coffee', '-3.50'],
    ]);
  });

  it('refuses, naming the line, a row it cannot line up rather than import a wrong amount', () => {
    expect(() => parse('Date,Description,Amount\n2024-06-01,Coffee,-3.50\n2024-06-02,Bad amount,12,3x\n')).toThrow(/line 3/);
    expect(() => parse('Date,Description,Amount\n2024-06-01,Coffee,-3.50\n2024-06-02,Two amounts,-5.00,100.00\n')).toThrow(StatementError);
  });

  it('leaves rows alone when the header is what is short (most rows carry an unnamed column)', () => {
    const parsed = parse('Date,Description,Amount\n2024-06-01,Coffee,-3.50,96.50\n2024-06-02,Tea,-2.00,94.50\n2024-06-03,Cake,-4.00,90.50\n');
    expect(parsed.accounts[0]!.transactions.map((t) => t.amount)).toEqual(['-3.50', '-2.00', '-4.00']);
  });
});

describe('German booking texts', () => {
  it('reads Buchungstext as the kind of booking, and names the transaction by its purpose or payee', () => {
    const csv = [
      'Auftragskonto;Buchungstag;Valutadatum;Buchungstext;Verwendungszweck;Beguenstigter/Zahlungspflichtiger;Kontonummer/IBAN;Betrag;Waehrung',
      'DE12500105170648489890;02.05.2024;02.05.2024;LASTSCHRIFT;REWE SAGT DANKE 4711;REWE Markt GmbH;DE02120300000000202051;-23,45;EUR',
      'DE12500105170648489890;03.05.2024;03.05.2024;GUTSCHRIFT;;Arbeitgeber AG;DE02100100100006820101;2.500,00;EUR',
    ].join('\n');
    const [account] = parseStatement(new Uint8Array(Buffer.from(csv, 'utf8')), 'umsaetze.csv').accounts;
    expect(account!.transactions.map((t) => [t.description, t.type, t.amount])).toEqual([
      ['REWE SAGT DANKE 4711', 'LASTSCHRIFT', '-23.45'],
      ['Arbeitgeber AG', 'GUTSCHRIFT', '2500.00'],
    ]);
  });
});
