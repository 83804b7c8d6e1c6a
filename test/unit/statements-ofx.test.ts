import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LIMITS } from '../../functions/contracts/limits';
import { parseStatement } from '../../functions/core/statements/index';
import { parseOfxAmount, parseOfxDate, parseOfxStatement } from '../../functions/core/statements/ofx';
import { OFX_AGGREGATES } from '../../functions/core/statements/ofx-tree';
import {
  StatementError,
  type ParsedAccount,
  type ParsedStatement,
  type StatementErrorCode,
} from '../../functions/core/statements/types';

// The corpus lives beside the checkout (../shared/statements); it is read in place, never copied.
const CORPUS = join(__dirname, '../../../shared/statements');

interface PerStatement {
  type: 'bank' | 'credit_card' | 'investment';
  acctid: string;
  accttype?: string;
  currency?: string;
  transactions: number;
  first_date?: string;
  last_date?: string;
  sum: string;
  ledger_balance?: string;
  by_type?: Record<string, number>;
  invbanktran?: number;
  positions?: number;
}

interface ManifestEntry {
  file: string;
  format: string;
  kind: string;
  expected: {
    reject?: boolean;
    reason?: string;
    accounts?: number;
    transactions?: number;
    valid_transactions?: number;
    currency?: string | string[] | null;
    first_date?: string | null;
    last_date?: string | null;
    sum_of_amounts?: string;
    positions?: number;
    per_statement?: PerStatement[];
  };
}

const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] };
const OFX_FORMATS = new Set(['ofx1', 'ofx2', 'qfx']);
const ofxEntries = manifest.files.filter((entry) => OFX_FORMATS.has(entry.format));
const readCorpusFile = (name: string): Uint8Array => new Uint8Array(readFileSync(join(CORPUS, name)));

// ---- exact decimal arithmetic (never floats) ------------------------------------------------------
function toScaled(value: string, scale: number): bigint {
  const negative = value.trim().startsWith('-');
  const [integer, fraction = ''] = value.trim().replace(/^[-+]/, '').split('.');
  const digits = BigInt(`${integer || '0'}${fraction.padEnd(scale, '0')}`);
  return negative ? -digits : digits;
}
const scaleOf = (value: string): number => (value.includes('.') ? value.split('.')[1].length : 0);
/** A decimal string in canonical form: no '+', no trailing fractional zeros, no negative zero. */
function canonical(value: string): string {
  const scale = scaleOf(value);
  let scaled = toScaled(value, scale);
  let digits = scale;
  while (digits > 0 && scaled % 10n === 0n) {
    scaled /= 10n;
    digits -= 1;
  }
  const negative = scaled < 0n;
  const text = (negative ? -scaled : scaled).toString().padStart(digits + 1, '0');
  const body = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${body}` : body;
}
function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map(scaleOf));
  const total = values.reduce((acc, value) => acc + toScaled(value, scale), 0n);
  const negative = total < 0n;
  const text = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const body = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  return canonical(negative ? `-${body}` : body);
}

// ---- helpers ------------------------------------------------------------------------------------
const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);

function expectStatementError(run: () => unknown, code?: StatementErrorCode): StatementError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(StatementError);
  const error = caught as StatementError;
  if (code !== undefined) expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(10);
  return error;
}

const amountsOf = (account: ParsedAccount): string[] => [
  ...account.transactions.map((transaction) => transaction.amount),
  ...account.investmentTransactions.map((transaction) => transaction.amount),
];
const datesOf = (account: ParsedAccount): string[] =>
  [...account.transactions, ...account.investmentTransactions].map((transaction) => transaction.date).sort();
const recordCount = (account: ParsedAccount): number =>
  account.transactions.length + account.investmentTransactions.length;

/** The account a manifest statement describes: its ACCTID is one part of our sourceId. */
function accountFor(result: ParsedStatement, statement: PerStatement): ParsedAccount {
  const matches = result.accounts.filter((account) => account.sourceId.split('/').includes(statement.acctid));
  expect(matches).toHaveLength(1);
  return matches[0];
}

const KIND_OF_TYPE = { bank: 'bank', credit_card: 'credit', investment: 'investment' } as const;

/** What the parser reports as the format: the .qfx/.qbo name decides QFX/QBO, the content ofx1/ofx2. */
function expectedFormat(entry: ManifestEntry): string {
  const extension = entry.file.split('.').pop()?.toLowerCase();
  if (extension === 'qfx' || extension === 'qbo') return extension;
  return entry.format;
}

// ---- a small OFX builder for generated cases -----------------------------------------------------
const SGML_HEADER = [
  'OFXHEADER:100', 'DATA:OFXSGML', 'VERSION:102', 'SECURITY:NONE', 'ENCODING:USASCII', 'CHARSET:1252',
  'COMPRESSION:NONE', 'OLDFILEUID:NONE', 'NEWFILEUID:NONE',
].join('\n');

function stmttrn(fields: Record<string, string>): string {
  return `<STMTTRN>${Object.entries(fields).map(([tag, value]) => `<${tag}>${value}`).join('\n')}\n</STMTTRN>`;
}

function bankStatement(transactions: string[], options: { acctId?: string; ledger?: string; currency?: string } = {}): string {
  return [
    '<STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>',
    `<STMTRS><CURDEF>${options.currency ?? 'USD'}`,
    `<BANKACCTFROM><BANKID>121000248<ACCTID>${options.acctId ?? '000123456789'}<ACCTTYPE>CHECKING</BANKACCTFROM>`,
    '<BANKTRANLIST><DTSTART>20240101<DTEND>20240131',
    ...transactions,
    '</BANKTRANLIST>',
    options.ledger === undefined ? '' : `<LEDGERBAL><BALAMT>${options.ledger}<DTASOF>20240131</LEDGERBAL>`,
    '</STMTRS></STMTTRNRS>',
  ].join('\n');
}

function sgmlFile(statements: string[], header: string = SGML_HEADER): string {
  return `${header}\n\n<OFX>\n<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20240201<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>\n<BANKMSGSRSV1>\n${statements.join('\n')}\n</BANKMSGSRSV1>\n</OFX>\n`;
}

const SAMPLE_TRANSACTIONS = [
  stmttrn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240105120000.000[-5:EST]', TRNAMT: '-12.50', FITID: 'A1', NAME: 'COFFEE SHOP' }),
  stmttrn({ TRNTYPE: 'CREDIT', DTPOSTED: '20240110', TRNAMT: '1500.00', FITID: 'A2', NAME: 'PAYROLL', MEMO: 'January' }),
];

// ---- the corpus ---------------------------------------------------------------------------------
describe('OFX/QFX corpus (manifest entries of formats ofx1, ofx2, qfx)', () => {
  it('has the OFX entries the brief describes', () => {
    expect(ofxEntries.length).toBe(27);
  });

  it.each(ofxEntries.map((entry) => [entry.file, entry] as const))('%s', (file, entry) => {
    const bytes = readCorpusFile(file);
    const { expected } = entry;
    if (expected.reject === true) {
      const error = expectStatementError(() => parseStatement(bytes, file));
      if (entry.kind === 'error_response') {
        expect(error.code).toBe('statement_server_error');
        const code = /\d{3,}/.exec(expected.reason ?? '')?.[0];
        expect(code).toBeDefined();
        expect(error.message).toContain(code);
      } else {
        expect(['statement_malformed', 'statement_unrecognized']).toContain(error.code);
      }
      return;
    }

    const result = parseStatement(bytes, file);
    expect(result.format).toBe(expectedFormat(entry));
    expect(result.accounts).toHaveLength(expected.accounts ?? -1);

    const records = result.accounts.reduce((count, account) => count + recordCount(account), 0);
    expect(records).toBe(expected.valid_transactions ?? expected.transactions);
    expect(records + result.skipped.length).toBe(expected.transactions);

    const currencies = [...new Set(result.accounts.map((account) => account.currency))].sort();
    const expectedCurrencies = expected.currency === null ? [null] : [expected.currency ?? []].flat().sort();
    expect(currencies).toEqual(expectedCurrencies);

    const dates = result.accounts.flatMap(datesOf).sort();
    expect(dates[0] ?? null).toBe(expected.first_date ?? null);
    expect(dates.at(-1) ?? null).toBe(expected.last_date ?? null);
    expect(sumDecimals(result.accounts.flatMap(amountsOf))).toBe(canonical(expected.sum_of_amounts ?? 'NaN'));
    if (expected.positions !== undefined) {
      expect(result.accounts.reduce((count, account) => count + account.holdings.length, 0)).toBe(expected.positions);
    }

    for (const statement of expected.per_statement ?? []) {
      const account = accountFor(result, statement);
      expect(account.kind).toBe(KIND_OF_TYPE[statement.type]);
      if (statement.accttype !== undefined) expect(account.accountType).toBe(statement.accttype);
      expect(account.currency).toBe(statement.currency ?? null);
      expect(account.mask).toBe(statement.acctid.slice(-4));
      expect(recordCount(account)).toBe(statement.transactions);
      expect(sumDecimals(amountsOf(account))).toBe(canonical(statement.sum));
      expect(datesOf(account)[0]).toBe(statement.first_date);
      expect(datesOf(account).at(-1)).toBe(statement.last_date);
      if (statement.ledger_balance !== undefined) {
        expect(account.balance).not.toBeNull();
        expect(canonical(account.balance?.amount ?? 'NaN')).toBe(canonical(statement.ledger_balance));
      }
      if (statement.by_type !== undefined) {
        const byType: Record<string, number> = {};
        for (const trade of account.investmentTransactions) {
          if (trade.type !== 'INVBANKTRAN') byType[trade.type] = (byType[trade.type] ?? 0) + 1;
        }
        expect(byType).toEqual(statement.by_type);
        expect(account.investmentTransactions.filter((trade) => trade.type === 'INVBANKTRAN')).toHaveLength(
          statement.invbanktran ?? 0,
        );
      }
      if (statement.positions !== undefined) expect(account.holdings).toHaveLength(statement.positions);
    }

    // Stable, unique ids: a re-import maps every record to the same id, and no two collide.
    const again = parseStatement(bytes, file);
    for (const [index, account] of result.accounts.entries()) {
      const ids = [...account.transactions, ...account.investmentTransactions].map((record) => record.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => id.length > 0)).toBe(true);
      const idsAgain = [...again.accounts[index].transactions, ...again.accounts[index].investmentTransactions].map(
        (record) => record.id,
      );
      expect(idsAgain).toEqual(ids);
    }
    // Text came through the right decoding: no replacement characters, no entities left undecoded.
    for (const account of result.accounts) {
      for (const transaction of account.transactions) {
        expect(transaction.description).not.toMatch(/\ufffd|&amp;|&lt;|&gt;/);
        expect(transaction.line).toBeGreaterThan(0);
      }
    }
  });

  it('decodes a Banco do Brasil file written in a single-byte code page (CARTÃO)', () => {
    const result = parseStatement(readCorpusFile('ofx__bb.ofx'), 'ofx__bb.ofx');
    expect(['windows-1252', 'iso-8859-1']).toContain(result.encoding);
    const descriptions = result.accounts[0].transactions.map((transaction) => `${transaction.description} ${transaction.memo ?? ''}`);
    expect(descriptions.some((text) => text.includes('CARTÃO'))).toBe(true);
  });

  it('names securities in holdings from the SECLIST (tickers and names)', () => {
    const result = parseStatement(
      readCorpusFile('beancount_reds_importers__etrade_09092023.QFX'),
      'beancount_reds_importers__etrade_09092023.QFX',
    );
    const [account] = result.accounts;
    expect(account.holdings).toHaveLength(2);
    for (const holding of account.holdings) {
      expect(holding.securityIdType).toBe('CUSIP');
      expect(holding.ticker).not.toBeNull();
      expect(holding.name).not.toBeNull();
    }
    const buys = account.investmentTransactions.filter((trade) => trade.type === 'BUYSTOCK');
    expect(buys.every((trade) => trade.securityId !== null && trade.quantity !== null)).toBe(true);
  });

  it('keeps both transactions that share one FITID, with distinct ids', () => {
    const result = parseStatement(
      readCorpusFile('beancount_reds_importers__transactions.qfx'),
      'beancount_reds_importers__transactions.qfx',
    );
    const ids = result.accounts[0].transactions.map((transaction) => transaction.id);
    expect(ids).toEqual(['21302970191741', '21302970191741#2']);
  });

  it('reads CDATA values (suncorp) and keeps 16-digit generator amounts exact (ofxgo)', () => {
    const suncorp = parseStatement(readCorpusFile('ofxparse__suncorp.ofx'), 'ofxparse__suncorp.ofx');
    expect(suncorp.accounts[0].transactions[0].description).not.toContain('CDATA');
    const ofxgo = parseStatement(readCorpusFile('ofxgo__moneymrkt1_v203.ofx'), 'ofxgo__moneymrkt1_v203.ofx');
    expect(sumDecimals(amountsOf(ofxgo.accounts[0]))).toBe('4774.8611135902484');
  });
});

// ---- values -------------------------------------------------------------------------------------
describe('OFX values', () => {
  it.each([
    ['20240105', '2024-01-05'],
    ['20240105120000', '2024-01-05'],
    ['20240105120000.000[-5:EST]', '2024-01-05'],
    ['20240105235959.999[+12:NZST] ', '2024-01-05'],
    ['20231231240000[-:EST]', '2023-12-31'],
    ['20240229', '2024-02-29'],
  ])('reads the date %s as %s (date part only)', (raw, iso) => {
    expect(parseOfxDate(raw)).toBe(iso);
  });

  it.each(['00000000', '****', '23/04/2025', '20230229', '20241301', '', '2024-01-05x'])('refuses the date %j', (raw) => {
    expect(parseOfxDate(raw)).toBeNull();
  });

  it.each([
    ['-12.50', '-12.50'],
    ['-12,50', '-12.50'],
    [' + 721.01 ', '721.01'],
    ['- 5', '-5'],
    ['+00000000001111.0000', '1111.0000'],
    ['-0000000096000.00000', '-96000.00000'],
    ['-0', '0'],
    ['.5', '0.5'],
    ['1,234.56', '1234.56'],
    ['1.234,56', '1234.56'],
    ['4774.8611135902484', '4774.8611135902484'],
  ])('reads the amount %j as %s', (raw, exact) => {
    expect(parseOfxAmount(raw)).toBe(exact);
  });

  it.each(['.', '            .  ', '', 'abc', '12.3.4', '--5', '1,2,3', '12e3'])('refuses the amount %j', (raw) => {
    expect(parseOfxAmount(raw)).toBeNull();
  });
});

// ---- generated edge cases -----------------------------------------------------------------------
describe('OFX structure the parser survives', () => {
  it('reads a headerless file, and one with no newline between header and body', () => {
    const body = sgmlFile([bankStatement(SAMPLE_TRANSACTIONS, { ledger: '100.00' })], '');
    const headerless = parseStatement(bytesOf(body.trimStart()));
    expect(headerless.format).toBe('ofx1');
    expect(headerless.accounts[0].transactions).toHaveLength(2);
    const glued = parseStatement(bytesOf(`${SGML_HEADER.replace(/\n/g, ' ')}${body.trimStart()}`));
    expect(glued.accounts[0].transactions.map((transaction) => transaction.amount)).toEqual(['-12.50', '1500.00']);
  });

  it('reads a file with junk before <OFX> (a preamble)', () => {
    const text = `HTTP/1.1 200 OK\r\nContent-Type: application/x-ofx\r\n\r\n${sgmlFile([bankStatement(SAMPLE_TRANSACTIONS)], '')}`;
    expect(parseStatement(bytesOf(text)).accounts[0].transactions).toHaveLength(2);
  });

  it('reads unclosed leaves, closed leaves, self-closing tags and values on the next line alike', () => {
    const transactions = [
      '<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20240103</DTPOSTED><TRNAMT>-1.00</TRNAMT><FITID>C1</FITID><NAME>CLOSED</NAME><MEMO/></STMTTRN>',
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240104<TRNAMT>-2.00<FITID>C2<NAME>OPEN<MEMO></STMTTRN>',
      '<STMTTRN>\n<TRNTYPE>\nDEBIT</TRNTYPE>\n<DTPOSTED>\n20240105</DTPOSTED>\n<TRNAMT>\n-3.00</TRNAMT>\n<FITID>\nC3</FITID>\n<NAME>\nNEXT LINE</NAME>\n</STMTTRN>',
    ];
    const result = parseStatement(bytesOf(sgmlFile([bankStatement(transactions)])));
    const parsed = result.accounts[0].transactions;
    expect(parsed.map((transaction) => [transaction.id, transaction.amount, transaction.description, transaction.memo])).toEqual([
      ['C1', '-1.00', 'CLOSED', null],
      ['C2', '-2.00', 'OPEN', null],
      ['C3', '-3.00', 'NEXT LINE', null],
    ]);
  });

  it('reads records whose own closing tags are missing: each <STMTTRN> starts the next one', () => {
    const rows = ['<STMTTRN><DTPOSTED>20240101<TRNAMT>-1<FITID>O1', '<STMTTRN><DTPOSTED>20240102<TRNAMT>-2<FITID>O2'];
    const parsed = parseStatement(bytesOf(sgmlFile([bankStatement(rows)]))).accounts[0].transactions;
    expect(parsed.map((transaction) => [transaction.id, transaction.date, transaction.amount])).toEqual([
      ['O1', '2024-01-01', '-1'],
      ['O2', '2024-01-02', '-2'],
    ]);
  });

  it('reads a transaction list that is never closed, and records after a stray closing tag', () => {
    const statement = bankStatement(SAMPLE_TRANSACTIONS, { ledger: '-5' })
      .replace('</BANKTRANLIST>', '')
      .replace('<BANKTRANLIST>', '</BANKTRANLIST><BANKTRANLIST>');
    const result = parseStatement(bytesOf(sgmlFile([statement])));
    expect(result.accounts[0].transactions).toHaveLength(2);
    expect(result.accounts[0].balance).toEqual({ amount: '-5', asOf: '2024-01-31' });
  });

  it('reads STMTRS without its STMTTRNRS and message-set wrappers', () => {
    const statement = bankStatement(SAMPLE_TRANSACTIONS).replace(/<STMTTRNRS>.*?<\/STATUS>/s, '');
    const text = `${SGML_HEADER}\n<OFX>\n${statement}\n</BANKMSGSRSV1>\n</OFX>`;
    expect(parseStatement(bytesOf(text)).accounts[0].transactions).toHaveLength(2);
  });

  it('decodes entities, keeps a bare & and never expands an unknown entity', () => {
    const result = parseStatement(
      bytesOf(
        sgmlFile([
          bankStatement([
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'E1', NAME: 'AT&amp;T &lt;WIRELESS&gt;', MEMO: 'Caf&#233; &#x263A; & more &bogus; &#0;' }),
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'E2', NAME: 'M&S   FOOD\tHALL' }),
          ]),
        ]),
      ),
    );
    const [first, second] = result.accounts[0].transactions;
    expect(first.description).toBe('AT&T <WIRELESS>');
    expect(first.memo).toBe('Café ☺ & more &bogus; &#0;');
    expect(second.description).toBe('M&S FOOD HALL');
  });

  it('treats an empty or missing LEDGERBAL/AVAILBAL as no balance', () => {
    const empty = bankStatement(SAMPLE_TRANSACTIONS).replace(
      '</BANKTRANLIST>',
      '</BANKTRANLIST><LEDGERBAL><BALAMT><DTASOF>20240131</LEDGERBAL><AVAILBAL></AVAILBAL>',
    );
    const [account] = parseStatement(bytesOf(sgmlFile([empty]))).accounts;
    expect(account.balance).toBeNull();
    expect(account.available).toBeNull();
    const [missing] = parseStatement(bytesOf(sgmlFile([bankStatement(SAMPLE_TRANSACTIONS)]))).accounts;
    expect(missing.balance).toBeNull();
  });

  it('reports CORRECTACTION REPLACE/DELETE with the FITID they correct', () => {
    const result = parseStatement(
      bytesOf(
        sgmlFile([
          bankStatement([
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '-10', FITID: 'R2', CORRECTFITID: 'R1', CORRECTACTION: 'REPLACE', NAME: 'FIXED' }),
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '-10', FITID: 'D2', CORRECTFITID: 'D1', CORRECTACTION: 'DELETE', NAME: 'GONE' }),
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '-10', FITID: 'N1', NAME: 'PLAIN' }),
          ]),
        ]),
      ),
    );
    expect(result.accounts[0].transactions.map((transaction) => transaction.correction)).toEqual([
      { action: 'REPLACE', correctsId: 'R1' },
      { action: 'DELETE', correctsId: 'D1' },
      null,
    ]);
  });

  it('gives records without FITID content-hash ids: stable, and distinct for identical rows', () => {
    const rows = [
      stmttrn({ DTPOSTED: '20240101', TRNAMT: '-4.00', NAME: 'BUS' }),
      stmttrn({ DTPOSTED: '20240101', TRNAMT: '-4.00', NAME: 'BUS' }),
      stmttrn({ DTPOSTED: '20240102', TRNAMT: '-4.00', NAME: 'BUS' }),
    ];
    const first = parseStatement(bytesOf(sgmlFile([bankStatement(rows)]))).accounts[0].transactions.map((t) => t.id);
    expect(new Set(first).size).toBe(3);
    // Re-importing the same rows (even with other records around them) yields the same ids.
    const again = parseStatement(bytesOf(sgmlFile([bankStatement([SAMPLE_TRANSACTIONS[0], ...rows])])));
    expect(again.accounts[0].transactions.slice(1).map((t) => t.id)).toEqual(first);
    // The same rows in another account are other transactions.
    const other = parseStatement(bytesOf(sgmlFile([bankStatement(rows, { acctId: '999' })])));
    expect(other.accounts[0].transactions[0].id).not.toBe(first[0]);
  });

  it('skips a transaction without a readable date or amount with a notice naming its line', () => {
    const result = parseStatement(
      bytesOf(
        sgmlFile([
          bankStatement([
            ...SAMPLE_TRANSACTIONS,
            stmttrn({ DTPOSTED: '****', TRNAMT: '-1', FITID: 'X1' }),
            stmttrn({ DTPOSTED: '20240101', TRNAMT: '.', FITID: 'X2' }),
          ]),
        ]),
      ),
    );
    expect(result.accounts[0].transactions).toHaveLength(2);
    expect(result.skipped).toHaveLength(2);
    expect(result.skipped[0].reason).toMatch(/date/);
    expect(result.skipped[1].reason).toMatch(/amount/);
    expect(result.skipped.every((notice) => notice.line > 1)).toBe(true);
  });

  it('keeps accounts with empty transaction lists, and merges two statements of one account', () => {
    const result = parseStatement(
      bytesOf(
        sgmlFile([
          bankStatement([], { acctId: '1', ledger: '10' }),
          bankStatement([SAMPLE_TRANSACTIONS[0]], { acctId: '2', ledger: '20' }),
          bankStatement([SAMPLE_TRANSACTIONS[1]], { acctId: '2', ledger: '30' }),
        ]),
      ),
    );
    expect(result.accounts.map((account) => [account.mask, recordCount(account), account.balance?.amount])).toEqual([
      ['1', 0, '10'],
      ['2', 2, '30'],
    ]);
  });

  it('reads an aggregate some bank writes as a leaf (<CURRENCY>EUR) without losing the fields after it', () => {
    const row = '<STMTTRN><TRNTYPE>DEBIT<CURRENCY>EUR<DTPOSTED>20240101<TRNAMT>-7.00<FITID>G1<NAME>SHOP</STMTTRN>';
    const [transaction] = parseStatement(bytesOf(sgmlFile([bankStatement([row])]))).accounts[0].transactions;
    expect(transaction).toMatchObject({ id: 'G1', date: '2024-01-01', amount: '-7.00', description: 'SHOP' });
  });

  it('reads a transaction in another currency than the account', () => {
    const row = stmttrn({ DTPOSTED: '20240101', TRNAMT: '-10', FITID: 'F1', NAME: 'HOTEL' }).replace(
      '</STMTTRN>',
      '<CURRENCY><CURRATE>1.1<CURSYM>EUR</CURRENCY></STMTTRN>',
    );
    const [transaction] = parseStatement(bytesOf(sgmlFile([bankStatement([row])]))).accounts[0].transactions;
    expect(transaction.currency).toBe('EUR');
  });
});

describe('OFX files that are refused', () => {
  it('refuses a server error response, naming the code and message', () => {
    const text = `${SGML_HEADER}\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Signon invalid</STATUS><DTSERVER>20240101</SONRS></SIGNONMSGSRSV1></OFX>`;
    const error = expectStatementError(() => parseStatement(bytesOf(text)), 'statement_server_error');
    expect(error.message).toContain('15500');
    expect(error.message).toContain('Signon invalid');
  });

  it('refuses an OFX file without any statement, and text that is neither OFX nor a table', () => {
    expectStatementError(
      () => parseStatement(bytesOf(`${SGML_HEADER}\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</STATUS></SONRS></SIGNONMSGSRSV1></OFX>`)),
      'statement_empty',
    );
    expectStatementError(() => parseStatement(bytesOf('Dear customer,\nyour statement is attached.')), 'statement_unrecognized');
    expectStatementError(() => parseStatement(bytesOf('<html><body>Session expired</body></html>')), 'statement_unrecognized');
    expectStatementError(() => parseStatement(new Uint8Array(0)), 'statement_empty');
  });

  it('refuses a file whose only transaction has no readable amount', () => {
    const text = sgmlFile([bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '  .  ', FITID: 'Z' })])]);
    const error = expectStatementError(() => parseStatement(bytesOf(text)), 'statement_malformed');
    expect(error.line).toBeGreaterThan(1);
  });

  it('refuses a file larger than the limit before reading it', () => {
    const huge = new Uint8Array(LIMITS.statementMaxBytes + 1).fill(0x3c);
    expectStatementError(() => parseStatement(huge), 'statement_too_large');
  });

  it('refuses nesting beyond the limit with the line, in bounded time', () => {
    // A repeated aggregate closes its open namesake, so only distinct aggregates can nest.
    const distinct = [...OFX_AGGREGATES].filter((name) => name !== 'OFX');
    expect(distinct.length).toBeGreaterThan(LIMITS.statementOfxMaxDepth);
    const deep = `<OFX>\n${distinct.map((name) => `<${name}>\n`).join('')}</OFX>`;
    const error = expectStatementError(() => parseStatement(bytesOf(deep)), 'statement_malformed');
    expect(error.message).toMatch(/nest/);
    expect(error.line).toBeGreaterThan(1);
  });

  it('refuses an element value longer than the limit, in SGML and in CDATA, naming the tag and its line', () => {
    const long = 'Y'.repeat(LIMITS.statementOfxMaxValueChars + 1);
    for (const name of [long, `<![CDATA[${long}]]>`]) {
      const file = sgmlFile([bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'L1', NAME: name })])]);
      const error = expectStatementError(() => parseStatement(bytesOf(file)), 'statement_malformed');
      expect(error.message).toContain('<NAME>');
      expect(error.line).toBeGreaterThan(1);
    }
    // At the limit it is read whole.
    const atLimit = sgmlFile([bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'L1', NAME: 'Y'.repeat(LIMITS.statementOfxMaxValueChars) })])]);
    expect(parseStatement(bytesOf(atLimit)).accounts[0].transactions[0].description).toHaveLength(LIMITS.statementOfxMaxValueChars);
  });

  it('never expands DOCTYPE entities (billion laughs) and answers in bounded time', () => {
    const laughs = Array.from({ length: 10 }, (_, level) =>
      level === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`,
    ).join('\n');
    const ofx2 = `<?xml version="1.0"?>\n<!DOCTYPE OFX [\n${laughs}\n<!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n<?OFX OFXHEADER="200" VERSION="211"?>\n${sgmlFile([
      bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'L1', NAME: '&lol9;', MEMO: '&ext;' })]),
    ], '')}`;
    const result = parseStatement(bytesOf(ofx2));
    expect(result.format).toBe('ofx2');
    const [transaction] = result.accounts[0].transactions;
    expect(transaction.description).toBe('&lol9;');
    expect(transaction.memo).toBe('&ext;');
  });

  it('refuses every truncation of a valid file (at each 1/20th) without a partial import', () => {
    for (const entry of ofxEntries.filter((candidate) => candidate.expected.reject !== true)) {
      const bytes = readCorpusFile(entry.file);
      const whole = parseStatement(bytes, entry.file);
      for (let part = 1; part < 20; part += 1) {
        const cut = bytes.subarray(0, Math.floor((bytes.length * part) / 20));
        let result: ParsedStatement;
        try {
          result = parseStatement(cut, entry.file);
        } catch (error) {
          expect(error).toBeInstanceOf(StatementError);
          continue;
        }
        // Only a cut after </OFX> (trailing whitespace) may still parse, and then to the whole file.
        expect(result).toEqual(whole);
      }
    }
  });

  it('answers fuzzed garbage with StatementError only, quickly', () => {
    const ofxish = fc.constantFrom(
      '<OFX>', '</OFX>', '<STMTRS>', '</STMTRS>', '<STMTTRN>', '</STMTTRN>', '<TRNAMT>', '-1,5', '<DTPOSTED>', '20240101',
      '<FITID>', '<INVSTMTRS>', '<BUYSTOCK>', '<INVTRAN>', '<DTTRADE>', '<TOTAL>', '<CCSTMTRS>', '<SECID>', '<UNIQUEID>',
      '&amp;', '&', '<', '>', '<!DOCTYPE [', ']>', '<![CDATA[', ']]>', '<?OFX', '?>', '<!--', '\r', '\n', 'OFXHEADER:100',
      '<STATUS><CODE>2000', '<SEVERITY>ERROR', '<LEDGERBAL><BALAMT>', '<A/>', '</', '<OFX ',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(ofxish, fc.string({ maxLength: 8 })), { maxLength: 200 }), (pieces) => {
        try {
          parseStatement(bytesOf(pieces.join('')));
        } catch (error) {
          if (!(error instanceof StatementError)) throw error;
        }
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        try {
          parseStatement(bytes);
        } catch (error) {
          if (!(error instanceof StatementError)) throw error;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads long runs without a tag end in linear time (no backtracking blow-up)', () => {
    const hostile = `<OFX>\n<STMTRS><NAME ${' '.repeat(2_000_000)}\n${'<'.repeat(200_000)}</OFX>`;
    expectStatementError(() => parseStatement(bytesOf(hostile)), 'statement_empty');
  });
});

describe('OFX text encodings and line endings', () => {
  const source = readCorpusFile('OFXSharp__secondluddite.ofx');
  const sourceText = new TextDecoder().decode(source).replace(/^\ufeff/, '');
  const baseline = parseStatement(source, 'secondluddite.ofx');
  const essentials = (result: ParsedStatement) =>
    result.accounts.map((account) => ({
      sourceId: account.sourceId,
      balance: account.balance,
      transactions: account.transactions.map(({ id, date, amount, description }) => ({ id, date, amount, description })),
    }));

  it.each([
    ['LF', sourceText.replace(/\r\n/g, '\n')],
    ['CRLF', sourceText],
    ['CR', sourceText.replace(/\r\n/g, '\r')],
    ['mixed', sourceText.replace(/\r\n/g, (_match, offset: number) => ['\n', '\r\n', '\r'][offset % 3])],
    ['no line breaks at all', sourceText.replace(/\r\n\s*/g, '')],
  ])('reads %s line endings to the same result', (_name, text) => {
    expect(essentials(parseStatement(bytesOf(text)))).toEqual(essentials(baseline));
  });

  it('counts lines the same for LF, CRLF and CR files', () => {
    const lineNumbers = (text: string) => parseStatement(bytesOf(text)).accounts.flatMap((account) => account.transactions.map((t) => t.line));
    const lf = lineNumbers(sourceText.replace(/\r\n/g, '\n'));
    expect(lineNumbers(sourceText.replace(/\r\n/g, '\r'))).toEqual(lf);
    expect(lineNumbers(sourceText)).toEqual(lf);
    expect(lf[0]).toBe(sourceText.replace(/\r\n/g, '\n').split('\n').findIndex((line) => line.includes('<STMTTRN>')) + 1);
  });

  const accented = sgmlFile(
    [bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '-3,50', FITID: 'U1', NAME: 'Café Zürich €' })])],
    SGML_HEADER.replace('ENCODING:USASCII', 'ENCODING:UTF-8').replace('CHARSET:1252', 'CHARSET:NONE'),
  );
  const utf16 = (text: string, order: 'le' | 'be', bom: boolean): Uint8Array => {
    const units = bom ? `\ufeff${text}` : text;
    const out = new Uint8Array(units.length * 2);
    for (let index = 0; index < units.length; index += 1) {
      const code = units.charCodeAt(index);
      out[index * 2 + (order === 'le' ? 0 : 1)] = code & 0xff;
      out[index * 2 + (order === 'le' ? 1 : 0)] = code >> 8;
    }
    return out;
  };

  it.each([
    ['UTF-8', bytesOf(accented), 'utf-8'],
    ['UTF-8 with BOM', new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf(accented)]), 'utf-8'],
    ['UTF-16LE with BOM', utf16(accented, 'le', true), 'utf-16le'],
    ['UTF-16LE without BOM', utf16(accented, 'le', false), 'utf-16le'],
    ['UTF-16BE with BOM', utf16(accented, 'be', true), 'utf-16be'],
    ['UTF-16BE without BOM', utf16(accented, 'be', false), 'utf-16be'],
  ])('reads %s', (_name, bytes, encoding) => {
    const result = parseStatement(bytes);
    expect(result.encoding).toBe(encoding);
    expect(result.accounts[0].transactions[0]).toMatchObject({ description: 'Café Zürich €', amount: '-3.50' });
  });

  it('reads Windows-1252 bytes (0x80 is €) and ISO-8859-1 bytes (0xE9 is é) under their headers', () => {
    const single = (charset: string, name: number[]): Uint8Array => {
      const [before, after] = sgmlFile(
        [bankStatement([stmttrn({ DTPOSTED: '20240101', TRNAMT: '-1', FITID: 'W1', NAME: '@@' })])],
        SGML_HEADER.replace('CHARSET:1252', `CHARSET:${charset}`),
      ).split('@@');
      return new Uint8Array([...bytesOf(before), ...name, ...bytesOf(after)]);
    };
    const windows = parseStatement(single('1252', [0x80, 0x20, 0x43, 0x61, 0x66, 0xe9]));
    expect(windows.encoding).toBe('windows-1252');
    expect(windows.accounts[0].transactions[0].description).toBe('€ Café');
    const latin1 = parseStatement(single('ISO-8859-1', [0x43, 0x61, 0x66, 0xe9]));
    expect(['iso-8859-1', 'windows-1252']).toContain(latin1.encoding);
    expect(latin1.accounts[0].transactions[0].description).toBe('Café');
  });

  it('parses text handed to parseOfxStatement directly, with the encoding and format it is given', () => {
    const result = parseOfxStatement(accented, 'utf-8', 'qbo');
    expect(result.format).toBe('qbo');
    expect(result.encoding).toBe('utf-8');
  });
});

describe('format detection', () => {
  const ofx = bytesOf(sgmlFile([bankStatement(SAMPLE_TRANSACTIONS)]));

  it('detects OFX from the content whatever the file is called', () => {
    expect(parseStatement(ofx, 'statement.csv').format).toBe('ofx1');
    expect(parseStatement(ofx, 'download.txt').format).toBe('ofx1');
    expect(parseStatement(ofx).format).toBe('ofx1');
  });

  it('uses the .qfx/.qbo name only to label an OFX file', () => {
    expect(parseStatement(ofx, 'Export.QFX').format).toBe('qfx');
    expect(parseStatement(ofx, 'books.qbo').format).toBe('qbo');
    expectStatementError(() => parseStatement(bytesOf('not an ofx file at all'), 'x.qfx'), 'statement_unrecognized');
  });

  it('detects OFX 2 from an XML prolog or the <?OFX?> instruction alone', () => {
    const body = sgmlFile([bankStatement(SAMPLE_TRANSACTIONS)], '');
    expect(parseStatement(bytesOf(`<?xml version="1.0" encoding="utf-16"?>\n<?OFX OFXHEADER="200" VERSION="220"?>${body}`)).format).toBe('ofx2');
    expect(parseStatement(bytesOf(`<?OFX OFXHEADER="200" VERSION="202"?>\n${body}`)).format).toBe('ofx2');
  });

  it('reports no date order for OFX, whose dates are always yyyymmdd, and ignores a date-order hint', () => {
    const dates = (hint?: 'dmy' | 'mdy') => {
      const statement = parseStatement(ofx, 'statement.ofx', hint ? { dateOrder: hint } : undefined);
      return [statement.dateOrder, statement.dateOrderSource, ...statement.accounts[0]!.transactions.map((transaction) => transaction.date)];
    };
    expect(dates()).toEqual([null, null, '2024-01-05', '2024-01-10']);
    expect(dates('mdy')).toEqual(dates());
    expect(dates('dmy')).toEqual(dates());
  });

  it('hands a delimited table to the CSV parser', () => {
    const csv = 'Date,Description,Amount\n2024-01-05,COFFEE SHOP,-12.50\n2024-01-10,PAYROLL,1500.00\n';
    expect(parseStatement(bytesOf(csv), 'export.csv').format).toBe('csv');
  });
});
