// Statement exports as real banks and apps write them, generated from their published layouts
// (column names, date and number formats, sign conventions, preambles, footers, encodings), imported
// end to end through the file importer connector so the mapping to the API's sign is covered too:
// each file must give the right accounts, transactions, dates, signs (money OUT positive), currency
// and sum. The files are written here, not taken from the corpus: the importer must handle the
// general pattern of each format, not one sample of it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fileImportConnector } from '../../functions/connectors/file_import';
import { ConnectorError, type SourceBatch } from '../../functions/core/connector-port';

interface Expected {
  accounts: number;
  transactions: number;
  first: string;
  last: string;
  /** Sum of the API amounts (money leaving the account positive), as an exact decimal. */
  apiSum: string;
  currency: string;
  pending?: number;
  /** Individual transactions: a name pattern and the API amount that row must have. */
  rows?: Array<[RegExp, number]>;
  masks?: string[];
  /** The current balance of the only account, in the API's terms. */
  balance?: number;
}

interface Case {
  name: string;
  file: string | Uint8Array;
  fileName?: string;
  expected: Expected;
}

const encodeUtf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const encodeUtf16le = (text: string) => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
/** Windows-1252 for the Latin-1 range plus the 0x80-0x9F letters the tests use. */
function encode1252(text: string): Uint8Array {
  const extra: Record<string, number> = { '€': 0x80, '‚': 0x82, 'Š': 0x8a, 'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, 'š': 0x9a, 'œ': 0x9c, 'ž': 0x9e };
  return new Uint8Array([...text].map((char) => extra[char] ?? (char.charCodeAt(0) < 256 ? char.charCodeAt(0) : 0x3f)));
}
const crlf = (text: string) => text.replace(/\n/g, '\r\n');

async function importFile(file: string | Uint8Array, fileName: string | null = null): Promise<SourceBatch> {
  const bytes = typeof file === 'string' ? encodeUtf8(file) : file;
  const result = await fileImportConnector.connect!('ins_test', { method: 'file', bytes, fileName });
  if (result.status !== 'connected' || !result.batch) throw new Error(`not connected: ${JSON.stringify(result)}`);
  return result.batch;
}

const cents = (n: number) => Math.round(n * 100) || 0;

async function check(file: string | Uint8Array, fileName: string | undefined, expected: Expected): Promise<void> {
  const batch = await importFile(file, fileName ?? null);
  if (batch.transactions.kind !== 'changes') throw new Error('the importer reports change batches');
  const { upserted } = batch.transactions;
  const dates = upserted.map((t) => t.date).sort();
  const actual = {
    accounts: batch.accounts.length,
    transactions: upserted.length,
    first: dates[0],
    last: dates[dates.length - 1],
    apiSumCents: cents(upserted.reduce((sum, t) => sum + t.amount, 0)),
    currencies: [...new Set([...upserted.map((t) => t.iso_currency_code), ...batch.accounts.map((a) => a.balances.iso_currency_code)])],
    pending: upserted.filter((t) => t.pending).length,
  };
  expect(actual).toEqual({
    accounts: expected.accounts,
    transactions: expected.transactions,
    first: expected.first,
    last: expected.last,
    apiSumCents: Math.round(Number(expected.apiSum) * 100) || 0,
    currencies: [expected.currency],
    pending: expected.pending ?? 0,
  });
  for (const [pattern, amount] of expected.rows ?? []) {
    const row = upserted.find((t) => pattern.test(t.name));
    expect({ pattern: String(pattern), amount: row?.amount }).toEqual({ pattern: String(pattern), amount });
  }
  if (expected.masks) expect(batch.accounts.map((a) => a.mask).sort()).toEqual([...expected.masks].sort());
  if (expected.balance !== undefined) expect(batch.accounts[0]!.balances.current).toBe(expected.balance);
}

// -------------------------------------------------------------------------------------------------
// United States

const US: Case[] = [
  {
    name: 'Chase checking (Details/Posting Date/..., a trailing comma on every data row)',
    file: crlf(`Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #
DEBIT,01/20/2024,"CHECK 1234",-100.00,CHECK_PAID,1854.33,1234,
DEBIT,01/15/2024,"AMAZON MKTPLACE PMTS AMZN.COM/BILL WA        01/14",-45.67,DEBIT_CARD,1954.33,,
CREDIT,01/12/2024,"ACME CORP       PAYROLL                    PPD ID: 1234567890",2000.00,ACH_CREDIT,2000.00,,
`),
    expected: { accounts: 1, transactions: 3, first: '2024-01-12', last: '2024-01-20', apiSum: '-1854.33', currency: 'USD', rows: [[/AMAZON/, 45.67], [/PAYROLL/, -2000]], balance: 1854.33 },
  },
  {
    name: 'Chase credit card (Transaction Date/Post Date/.../Type/Amount/Memo, charges negative)',
    file: `Transaction Date,Post Date,Description,Category,Type,Amount,Memo
01/14/2024,01/15/2024,STARBUCKS STORE 12345,Food & Drink,Sale,-5.75,
01/10/2024,01/11/2024,Payment Thank You-Mobile,,Payment,500.00,
01/08/2024,01/09/2024,AMAZON.COM RETURN,Shopping,Return,12.99,
01/02/2024,01/03/2024,NETFLIX.COM,Entertainment,Sale,-15.49,
`,
    expected: { accounts: 1, transactions: 4, first: '2024-01-03', last: '2024-01-15', apiSum: '-491.75', currency: 'USD', rows: [[/STARBUCKS/, 5.75], [/Payment Thank You/, -500]] },
  },
  {
    name: 'Bank of America checking (summary block, blank line, then Date/Description/Amount/Running Bal.)',
    file: crlf(`Description,,Summary Amt.
Beginning balance as of 01/01/2024,,"1,000.00"
Total credits,,"2,500.00"
Total debits,,"-1,200.50"
Ending balance as of 01/31/2024,,"2,299.50"

Date,Description,Amount,Running Bal.
01/01/2024,Beginning balance as of 01/01/2024,,"1,000.00"
01/03/2024,"ACME CORP DES:PAYROLL ID:XXXXX12345 INDN:DOE,JANE CO ID:XXXXX12345 PPD","2,500.00","3,500.00"
01/05/2024,"COSTCO WHSE #1234 01/04 PURCHASE SEATTLE WA","-1,200.50","2,299.50"
`),
    expected: { accounts: 1, transactions: 2, first: '2024-01-03', last: '2024-01-05', apiSum: '-1299.50', currency: 'USD', rows: [[/COSTCO/, 1200.5]], balance: 2299.5 },
  },
  {
    name: 'Bank of America credit card (Posted Date/Reference Number/Payee/Address/Amount)',
    file: `Posted Date,Reference Number,Payee,Address,Amount
01/15/2024,24692164015100012345678,"SHELL OIL 57444",HOUSTON TX,-42.10
01/12/2024,24692164012100012345679,"PAYMENT - THANK YOU",,250.00
01/09/2024,24692164009100012345670,"TRADER JOE S #123",PORTLAND OR,-67.89
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-09', last: '2024-01-15', apiSum: '-140.01', currency: 'USD', rows: [[/SHELL/, 42.1]] },
  },
  {
    name: 'Wells Fargo (headerless: date, amount, "*", check number, description)',
    file: crlf(`"01/20/2024","-100.00","*","1234","CHECK # 1234"
"01/15/2024","-45.67","*","","PURCHASE AUTHORIZED ON 01/14 AMAZON.COM AMZN.COM/BILL WA S1234 CARD 5678"
"01/12/2024","2000.00","*","","ACME PAYROLL DIRECT DEP 240112"
`),
    expected: { accounts: 1, transactions: 3, first: '2024-01-12', last: '2024-01-20', apiSum: '-1854.33', currency: 'USD', rows: [[/AMAZON/, 45.67]] },
  },
  {
    name: 'Capital One credit card (Debit/Credit columns, Card No.)',
    file: `Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit
2024-01-14,2024-01-15,1234,UBER   *TRIP,Other Travel,23.45,
2024-01-10,2024-01-11,1234,CAPITAL ONE MOBILE PYMT,Payment/Credit,,300.00
2024-01-05,2024-01-06,1234,KROGER #456,Grocery,87.12,
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-06', last: '2024-01-15', apiSum: '-189.43', currency: 'USD', masks: ['1234'], rows: [[/UBER/, 23.45], [/PYMT/, -300]] },
  },
  {
    name: 'Capital One 360 checking (unsigned amount with Transaction Type Debit/Credit)',
    file: `Account Number,Transaction Date,Transaction Amount,Transaction Type,Transaction Description,Balance
9876,01/15/24,45.67,Debit,Debit Card Purchase - AMAZON MKTPLACE,1954.33
9876,01/12/24,2000.00,Credit,Deposit from ACME PAYROLL,2000.00
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-12', last: '2024-01-15', apiSum: '-1954.33', currency: 'USD', masks: ['9876'], balance: 1954.33 },
  },
  {
    name: 'American Express (Date/Description/Amount, charges positive, payments negative)',
    file: `Date,Description,Amount
01/15/2024,WHOLE FOODS MARKET #10234 AUSTIN TX,54.32
01/13/2024,AUTOPAY PAYMENT - THANK YOU,-250.00
01/11/2024,DELTA AIR LINES ATLANTA,412.10
01/09/2024,UBER EATS,18.75
`,
    expected: { accounts: 1, transactions: 4, first: '2024-01-09', last: '2024-01-15', apiSum: '235.17', currency: 'USD', rows: [[/WHOLE FOODS/, 54.32], [/AUTOPAY/, -250]] },
  },
  {
    name: 'American Express with Card Member and Account # columns',
    file: `Date,Description,Card Member,Account #,Amount
01/15/2024,WHOLE FOODS MARKET,JANE DOE,-41006,54.32
01/13/2024,ONLINE PAYMENT - THANK YOU,JANE DOE,-41006,-250.00
01/11/2024,AMAZON MARKETPLACE,JANE DOE,-41006,33.10
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-11', last: '2024-01-15', apiSum: '-162.58', currency: 'USD', rows: [[/WHOLE FOODS/, 54.32]] },
  },
  {
    name: 'Discover (Trans. Date/Post Date/Description/Amount/Category, charges positive)',
    file: `Trans. Date,Post Date,Description,Amount,Category
01/02/2024,01/02/2024,"SPOTIFY USA 877-778-1161 NY",10.99,"Services"
01/05/2024,01/05/2024,"INTERNET PAYMENT - THANK YOU",-150.00,"Payments and Credits"
01/07/2024,01/08/2024,"SAFEWAY #1234 DENVER CO",64.20,"Supermarkets"
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-08', apiSum: '-74.81', currency: 'USD', rows: [[/SAFEWAY/, 64.2], [/INTERNET PAYMENT/, -150]] },
  },
  {
    name: 'Citi card (Status/Date/Description/Debit/Credit, credits written negative, a pending row)',
    file: `Status,Date,Description,Debit,Credit
Cleared,01/15/2024,"SHELL OIL 12345678",45.00,
Cleared,01/10/2024,"ONLINE PAYMENT, THANK YOU",,-300.00
Pending,01/16/2024,"NETFLIX.COM",15.49,
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-10', last: '2024-01-16', apiSum: '-239.51', currency: 'USD', pending: 1, rows: [[/SHELL/, 45], [/ONLINE PAYMENT/, -300]] },
  },
  {
    name: 'Apple Card (Amount (USD), Type Purchase/Payment/Credit, charges positive)',
    file: `Transaction Date,Clearing Date,Description,Merchant,Category,Type,Amount (USD),Purchased By
01/15/2024,01/16/2024,"UBER *EATS 8005928996 CA","Uber Eats","Restaurants","Purchase","23.40","Jane Doe"
01/12/2024,01/13/2024,"Daily Cash Adjustment","Apple","Other","Credit","-1.20","Jane Doe"
01/10/2024,01/10/2024,"ACH DEPOSIT INTERNET TRANSFER FROM ACCOUNT ENDING IN 1234","Ach Deposit Internet Transfer","Payment","Payment","-500.00","Jane Doe"
01/08/2024,01/09/2024,"APPLE.COM/BILL ONE APPLE PARK WAY","Apple Services","Other","Purchase","9.99","Jane Doe"
`,
    expected: { accounts: 1, transactions: 4, first: '2024-01-09', last: '2024-01-16', apiSum: '-467.81', currency: 'USD', rows: [[/UBER/, 23.4], [/ACH DEPOSIT/, -500]] },
  },
  {
    name: 'PayPal activity (Gross/Fee/Net, Balance, Status, Quantity)',
    file: '\ufeff' + crlf(`"Date","Time","TimeZone","Name","Type","Status","Currency","Gross","Fee","Net","From Email Address","To Email Address","Transaction ID","Shipping Address","Item Title","Item ID","Quantity","Reference Txn ID","Receipt ID","Balance","Subject","Note","Balance Impact"
"01/03/2024","10:15:00","PST","Acme Widgets","Express Checkout Payment","Completed","USD","-25.00","0.00","-25.00","jane@example.com","sales@acme.example","1AB23456CD789012E","","Widget","","1","","","-25.00","","","Debit"
"01/05/2024","09:00:00","PST","","Bank Deposit to PP Account ","Completed","USD","25.00","0.00","25.00","","jane@example.com","2AB23456CD789012F","","","","","1AB23456CD789012E","","0.00","","","Credit"
"01/09/2024","17:42:10","PST","John Smith","Mobile Payment","Completed","USD","100.00","-3.20","96.80","john@example.com","jane@example.com","3AB23456CD789012G","","","","","","","96.80","","Dinner","Credit"
`),
    expected: { accounts: 1, transactions: 3, first: '2024-01-03', last: '2024-01-09', apiSum: '-96.80', currency: 'USD', rows: [[/John Smith/, -96.8]], balance: 96.8 },
  },
  {
    name: 'Venmo (title and preamble rows, "- $15.00" amounts, summary rows with empty cells)',
    file: `Account Statement - (@Jane-Doe) ,,,,,,,,,,,,,,,,,,,,,
Account Activity,,,,,,,,,,,,,,,,,,,,,
,ID,Datetime,Type,Status,Note,From,To,Amount (total),Amount (tip),Amount (tax),Amount (fee),Tax Rate,Tax Exempt,Funding Source,Destination,Beginning Balance,Ending Balance,Statement Period Venmo Fees,Terminal Location,Year to Date Venmo Fees,Disclaimer
,,,,,,,,,,,,,,,,$100.00,,,,,
,3912345678901234567,2024-01-05T18:22:11,Payment,Complete,Pizza,Jane Doe,John Smith,- $15.00,,0,,0,,Venmo balance,,,,,Venmo,,
,3912345678901234568,2024-01-07T09:01:00,Payment,Complete,Rent share,Bob Lee,Jane Doe,+ $500.00,,0,,0,,,Venmo balance,,,,Venmo,,
,3912345678901234569,2024-01-09T12:00:00,Standard Transfer,Issued,,,,"- $400.00",,,,,,,"Bank of America *1234",,,,Venmo,,
,,,,,,,,,,,,,,,,,$185.00,$0.00,,$0.00,"In case of errors or questions about your electronic transfers..."
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-05', last: '2024-01-09', apiSum: '-85.00', currency: 'USD', rows: [[/Pizza|John Smith/, 15]] },
  },
  {
    name: 'Mint export (unsigned Amount, Transaction Type debit/credit, several accounts)',
    file: `"Date","Description","Original Description","Amount","Transaction Type","Category","Account Name","Labels","Notes"
"1/15/2024","Starbucks","STARBUCKS STORE 12345","5.75","debit","Coffee Shops","Chase Freedom","",""
"1/12/2024","Paycheck","ACME CORP PAYROLL PPD","2000.00","credit","Paycheck","Everyday Checking","",""
"1/10/2024","Amazon","AMAZON MKTPLACE PMTS","45.67","debit","Shopping","Chase Freedom","",""
`,
    expected: { accounts: 2, transactions: 3, first: '2024-01-10', last: '2024-01-15', apiSum: '-1948.58', currency: 'USD', rows: [[/Starbucks/, 5.75], [/Paycheck/, -2000]] },
  },
  {
    name: 'YNAB register (Outflow/Inflow columns with $ amounts)',
    file: `"Account","Flag","Date","Payee","Category Group/Category","Category Group","Category","Memo","Outflow","Inflow","Cleared"
"Checking","","01/15/2024","Kroger","Everyday Expenses: Groceries","Everyday Expenses","Groceries","","$87.12","$0.00","Cleared"
"Checking","","01/12/2024","ACME Payroll","Inflow: Ready to Assign","Inflow","Ready to Assign","","$0.00","$2,000.00","Cleared"
"Checking","","01/10/2024","Shell","Everyday Expenses: Fuel","Everyday Expenses","Fuel","","$41.00","$0.00","Uncleared"
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-10', last: '2024-01-15', apiSum: '-1871.88', currency: 'USD', rows: [[/Kroger/, 87.12]] },
  },
  {
    name: 'Quicken CSV export (Date/Payee/Category/Amount, a totals footer)',
    file: `Date,Account,Num,Description,Memo,Category,Tag,Clr,Amount
1/15/2024,Checking,,Kroger,,Groceries,,R,-87.12
1/12/2024,Checking,DEP,ACME Payroll,,Salary,,R,"2,000.00"
1/10/2024,Checking,1001,Landlord LLC,January rent,Rent,,R,-950.00
,,,,,,,Total,962.88
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-10', last: '2024-01-15', apiSum: '-962.88', currency: 'USD', rows: [[/Landlord/, 950]] },
  },
];

// -------------------------------------------------------------------------------------------------
// United Kingdom and Europe

const EUROPE: Case[] = [
  {
    name: 'Monzo (Transaction ID/Date/Time/..., dd/mm/yyyy, signed Amount next to Money Out/Money In)',
    file: `Transaction ID,Date,Time,Type,Name,Emoji,Category,Amount,Currency,Local amount,Local currency,Notes and #tags,Address,Receipt,Description,Category split,Money Out,Money In
tx_0000A1,03/01/2024,08:15:02,Card payment,Pret A Manger,🥪,Eating out,-4.50,GBP,-4.50,GBP,,1 High St,,PRET A MANGER LONDON GBR,,-4.50,
tx_0000A2,25/01/2024,09:00:00,Faster payment,ACME Ltd,,Income,"1,850.00",GBP,"1,850.00",GBP,Salary,,,ACME LTD SALARY,,,"1,850.00"
tx_0000A3,28/01/2024,19:30:45,Card payment,Café Rouge,,Eating out,-32.80,GBP,-37.50,EUR,,Paris,,CAFE ROUGE PARIS FRA,,-32.80,
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-03', last: '2024-01-28', apiSum: '-1812.70', currency: 'GBP', rows: [[/PRET/, 4.5]] },
  },
  {
    name: 'Starling (Counter Party/Reference/Type/Amount (GBP)/Balance (GBP))',
    file: `Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes
01/01/2024,Opening Balance,,,0.00,100.00,,
02/01/2024,Tesco,TESCO STORES 1234,CONTACTLESS,-12.34,87.66,GROCERIES,
15/01/2024,ACME Ltd,SALARY JAN,FASTER PAYMENT,1500.00,1587.66,INCOME,
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-02', last: '2024-01-15', apiSum: '-1487.66', currency: 'GBP', balance: 1587.66 },
  },
  {
    name: 'Revolut (Type/Product/Started Date/Completed Date/.../Fee/Currency/State/Balance)',
    file: `Type,Product,Started Date,Completed Date,Description,Amount,Fee,Currency,State,Balance
TOPUP,Current,2024-01-02 10:11:12,2024-01-02 10:11:15,Top-Up by *1234,200.00,0.00,EUR,COMPLETED,200.00
CARD_PAYMENT,Current,2024-01-05 12:00:00,2024-01-06 08:00:00,Lidl,-23.45,0.00,EUR,COMPLETED,176.55
EXCHANGE,Current,2024-01-07 09:30:00,2024-01-07 09:30:00,Exchanged to USD,-100.00,0.50,EUR,COMPLETED,76.05
CARD_PAYMENT,Current,2024-01-09 18:00:00,,Uber,-8.10,0.00,EUR,PENDING,
`,
    expected: { accounts: 1, transactions: 4, first: '2024-01-02', last: '2024-01-09', apiSum: '-67.95', currency: 'EUR', pending: 1, rows: [[/Exchanged/, 100.5]] },
  },
  {
    name: 'N26 (classic: Payee/Account number of the other party/Amount (EUR)/Amount (Foreign Currency))',
    file: `"Date","Payee","Account number","Transaction type","Payment reference","Amount (EUR)","Amount (Foreign Currency)","Type Foreign Currency","Exchange Rate"
"2024-01-03","REWE Markt","","MasterCard Payment","","-23.10","","",""
"2024-01-05","ACME GmbH","DE89370400440532013000","Income","Gehalt Januar","2500.0","","",""
"2024-01-08","Vermieter Schmidt","DE02120300000000202051","Outgoing Transfer","Miete Januar","-900.0","","",""
"2024-01-12","Starbucks London","","MasterCard Payment","","-5.12","-4.40","GBP","0.859375"
`,
    expected: { accounts: 1, transactions: 4, first: '2024-01-03', last: '2024-01-12', apiSum: '-1571.78', currency: 'EUR', rows: [[/Vermieter/, 900]] },
  },
  {
    name: 'N26 (new: Booking Date/Value Date/Partner Name/Partner Iban/.../Original Amount, semicolons)',
    file: `"Booking Date";"Value Date";"Partner Name";"Partner Iban";Type;"Payment Reference";"Account Name";"Amount (EUR)";"Original Amount";"Original Currency";"Exchange Rate"
2024-01-03;2024-01-03;"REWE Markt";;"Debit Transfer";"";"Main Account";-23.10;;;
2024-01-05;2024-01-05;"ACME GmbH";DE89370400440532013000;"Credit Transfer";"Gehalt";"Main Account";2500.00;;;
2024-01-12;2024-01-12;"Starbucks London";;"Debit Transfer";"";"Main Account";-5.12;-4.40;GBP;0.859375
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-03', last: '2024-01-12', apiSum: '-2471.78', currency: 'EUR' },
  },
  {
    name: 'ING Netherlands (yyyymmdd, Af/Bij, "1234,56", Tegenrekening)',
    file: `"Datum","Naam / Omschrijving","Rekening","Tegenrekening","Code","Af Bij","Bedrag (EUR)","Mutatiesoort","Mededelingen"
"20240115","Albert Heijn 1234","NL20INGB0001234567","","BA","Af","23,45","Betaalautomaat","Pasvolgnr:001 15-01-2024 12:00"
"20240125","ACME BV","NL20INGB0001234567","NL91ABNA0417164300","GT","Bij","2.345,67","Online bankieren","Salaris januari"
"20240128","Huur","NL20INGB0001234567","NL39RABO0300065264","OV","Af","950,00","Overschrijving","Huur februari"
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-15', last: '2024-01-28', apiSum: '-1372.22', currency: 'EUR', masks: ['4567'], rows: [[/Pasvolgnr/, 23.45], [/Salaris/, -2345.67]] },
  },
  {
    name: 'ING Netherlands (semicolons, dd-mm-yyyy, Saldo na mutatie)',
    file: `"Datum";"Naam / Omschrijving";"Rekening";"Tegenrekening";"Code";"Af Bij";"Bedrag (EUR)";"Mutatiesoort";"Mededelingen";"Saldo na mutatie";"Tag"
"15-01-2024";"Albert Heijn 1234";"NL20INGB0001234567";"";"BA";"Af";"23,45";"Betaalautomaat";"Pasvolgnr:001";"976,55";""
"25-01-2024";"ACME BV";"NL20INGB0001234567";"NL91ABNA0417164300";"GT";"Bij";"2.345,67";"Online bankieren";"Salaris";"3.322,22";""
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-25', apiSum: '-2322.22', currency: 'EUR', balance: 3322.22 },
  },
  {
    name: 'Deutsche Bank (preamble lines, semicolons, dd.mm.yyyy, Soll negative / Haben, closing Kontostand)',
    file: encode1252(crlf(`Umsätze Girokonto;;;;;;
Zeitraum: 01.01.2024 - 31.01.2024;;;;;;
Buchungstag;Wert;Transaktionsart;Buchungstext;Soll;Haben;Währung
03.01.2024;03.01.2024;SEPA-Lastschrift;Stadtwerke München Strom Januar;-85,00;;EUR
15.01.2024;15.01.2024;SEPA-Überweisung;ACME GmbH Gehalt Januar;;3.250,00;EUR
20.01.2024;20.01.2024;Kartenzahlung;Bäckerei Müller;-4,80;;EUR
Kontostand;31.01.2024;;;3.160,20;EUR
`)),
    expected: { accounts: 1, transactions: 3, first: '2024-01-03', last: '2024-01-20', apiSum: '-3160.20', currency: 'EUR', rows: [[/Stadtwerke München/, 85], [/Bäckerei Müller/, 4.8]] },
  },
  {
    name: 'Sparkasse CSV-CAMT (Auftragskonto, dd.mm.yy, Betrag signed "-1.234,56", Info vorgemerkt)',
    file: encode1252(`"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Kundenreferenz (End-to-End)";"Sammlerreferenz";"Lastschrift Ursprungsbetrag";"Auslagenersatz Ruecklastschrift";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"
"DE12500105170648489890";"02.01.24";"02.01.24";"FOLGELASTSCHRIFT";"Versicherung 2024";"DE98ZZZ09999999999";"M-123";"";"";"";"";"Allianz";"DE44500105175407324931";"INGDDEFFXXX";"-1.234,56";"EUR";"Umsatz gebucht"
"DE12500105170648489890";"15.01.24";"15.01.24";"GUTSCHR. UEBERWEISUNG";"Lohn Januar";"";"";"";"";"";"";"ACME GmbH";"DE89370400440532013000";"COBADEFFXXX";"2.800,00";"EUR";"Umsatz gebucht"
"DE12500105170648489890";"30.01.24";"30.01.24";"KARTENZAHLUNG";"Edeka";"";"";"";"";"";"";"EDEKA";"";"";"-45,10";"EUR";"Umsatz vorgemerkt"
`),
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-30', apiSum: '-1520.34', currency: 'EUR', pending: 1, masks: ['9890'] },
  },
  {
    name: 'DKB (preamble with Kontostand, Buchungsdatum dd.mm.yy, Betrag (€))',
    file: `"Girokonto";"DE12120300001234567890"
""
"Kontostand vom 31.01.2024:";"1.915,90 €"
""
"Buchungsdatum";"Wertstellung";"Status";"Zahlungspflichtige*r";"Zahlungsempfänger*in";"Verwendungszweck";"Umsatztyp";"IBAN";"Betrag (€)";"Gläubiger-ID";"Mandatsreferenz";"Kundenreferenz"
"30.01.24";"30.01.24";"Gebucht";"Max Mustermann";"REWE";"Einkauf";"Ausgang";"DE02120300000000202051";"-84,10";"";"";""
"15.01.24";"15.01.24";"Gebucht";"ACME GmbH";"Max Mustermann";"Gehalt";"Eingang";"DE89370400440532013000";"2.000,00";"";"";""
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-30', apiSum: '-1915.90', currency: 'EUR' },
  },
  {
    name: 'PostFinance (preamble "Datum von:", Gutschrift in CHF / Lastschrift in CHF, disclaimer footer)',
    file: encode1252(crlf(`Datum von:;2024-01-01
Datum bis:;2024-01-31
Buchungsart:;Alle Buchungen
Konto:;CH5209000000123456789
Währung:;CHF
Buchungsdatum;Avisierungstext;Gutschrift in CHF;Lastschrift in CHF;Valuta;Saldo in CHF
31.01.2024;"KAUF/DIENSTLEISTUNG VOM 30.01.2024 KARTEN NR. XXXX1234 MIGROS ZUERICH";;-45.60;31.01.2024;11'373.94
25.01.2024;"GUTSCHRIFT VON: ACME AG LOHN JANUAR";6'500.00;;25.01.2024;11'419.54

Disclaimer:
Dies ist kein durch PostFinance AG erstelltes Dokument. PostFinance AG ist nicht verantwortlich für den Inhalt.
`)),
    expected: { accounts: 1, transactions: 2, first: '2024-01-25', last: '2024-01-31', apiSum: '-6454.40', currency: 'CHF', balance: 11373.94 },
  },
  {
    name: 'UBS (Trade date/.../Currency/Debit/Credit/Individual amount/Balance, apostrophe thousands)',
    file: `Trade date;Trade time;Booking date;Value date;Currency;Debit;Credit;Individual amount;Balance;Transaction no.;Description1;Description2;Description3;Footnotes
2024-01-31;;2024-01-31;2024-01-31;CHF;-1'200.00;;;10'173.94;9930731TI1234567;Miete Februar;Immo AG;;
2024-01-25;;2024-01-25;2024-01-25;CHF;;6'500.00;;11'373.94;9930725TI1234566;Lohn;ACME AG;;
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-25', last: '2024-01-31', apiSum: '-5300.00', currency: 'CHF', balance: 10173.94 },
  },
  {
    name: 'French bank (Date;Libellé;Débit euros;Crédit euros, "1 234,56" with a no-break space)',
    file: encode1252(crlf(`Date;Libellé;Débit euros;Crédit euros
05/01/2024;"PRLV SEPA EDF";"1\u00a0234,56";
10/01/2024;"VIR SEPA ACME SALAIRE";;"2\u00a0500,00"
14/01/2024;"CB CARREFOUR 13/01";"45,90";
`)),
    expected: { accounts: 1, transactions: 3, first: '2024-01-05', last: '2024-01-14', apiSum: '-1219.54', currency: 'EUR', rows: [[/EDF/, 1234.56]] },
  },
  {
    name: 'Crédit Agricole (preamble, Date;Libellé;Débit euros;Crédit euros with an account line, narrow space)',
    file: encode1252(crlf(`Téléchargement du 31/01/2024;;;
;;;
Compte de Dépôt carte n° 12345678901;;;
Solde au 31/01/2024 1\u00a0234,56 €;;;
;;;
Date;Libellé;Débit euros;Crédit euros;
12/01/2024;"PAIEMENT PAR CARTE 
 X1234 BOULANGERIE 11/01";3,20;;
20/01/2024;"VIREMENT EN VOTRE FAVEUR 
 ACME SALAIRE";;2\u00a0100,00;
`)),
    expected: { accounts: 1, transactions: 2, first: '2024-01-12', last: '2024-01-20', apiSum: '-2096.80', currency: 'EUR' },
  },
  {
    name: 'Société Générale (a quoted account preamble, Montant de l\'opération, Devise)',
    file: encode1252(`="00012345678";Compte courant;du 01/01/2024 au 31/01/2024;
Date de l'opération;Libellé;Détail de l'écriture;Montant de l'opération;Devise
31/01/2024;CARTE X1234 FNAC;CARTE X1234 30/01 FNAC PARIS;-59,99;EUR
15/01/2024;VIR RECU ACME;VIR RECU 1234 DE: ACME SA MOTIF: SALAIRE;2500,00;EUR
`),
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-31', apiSum: '-2440.01', currency: 'EUR' },
  },
  {
    name: 'BBVA / Santander Spain (Fecha Operación;Fecha Valor;Concepto;Importe;Saldo)',
    file: encode1252(`Fecha Operación;Fecha Valor;Concepto;Importe;Saldo
05/01/2024;05/01/2024;Compra en Mercadona, Tarjeta 1234;-62,35;1.437,65
28/01/2024;28/01/2024;Nómina ACME S.L.;1.850,00;3.287,65
`),
    expected: { accounts: 1, transactions: 2, first: '2024-01-05', last: '2024-01-28', apiSum: '-1787.65', currency: 'USD', balance: 3287.65 },
  },
  {
    name: 'UniCredit Italy (Data contabile;Data valuta;Descrizione;Dare;Avere)',
    file: `Data contabile;Data valuta;Descrizione;Dare;Avere;Divisa
03/01/2024;03/01/2024;PAGAMENTO POS ESSELUNGA;-54,20;;EUR
27/01/2024;27/01/2024;BONIFICO STIPENDIO ACME SPA;;2.100,00;EUR
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-03', last: '2024-01-27', apiSum: '-2045.80', currency: 'EUR', rows: [[/ESSELUNGA/, 54.2]] },
  },
  {
    name: 'Intesa Sanpaolo (Data;Operazione;Dettagli;Conto o carta;Contabilizzazione;Categoria;Valuta;Importo)',
    file: `Data;Operazione;Dettagli;Conto o carta;Contabilizzazione;Categoria;Valuta;Importo
31/01/2024;Pagamento Pos;ESSELUNGA MILANO;Conto 1000/00012345;CONTABILIZZATO;Alimentari;EUR;-54,20
27/01/2024;Accredito stipendio;ACME SPA;Conto 1000/00012345;CONTABILIZZATO;Stipendio;EUR;2.100,00
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-27', last: '2024-01-31', apiSum: '-2045.80', currency: 'EUR' },
  },
  {
    name: 'Excel "Unicode text" export (UTF-16 LE with BOM, tab-separated)',
    file: encodeUtf16le(crlf(`Date\tDescription\tAmount\tBalance
15.01.2024\tCafé Zürich\t-4,50\t995,50
20.01.2024\tGehalt\t2.000,00\t2.995,50
`)),
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-20', apiSum: '-1995.50', currency: 'USD', rows: [[/Café Zürich/, 4.5]] },
  },
  {
    name: 'Windows-1252 with accented payees and a euro sign in the amounts',
    file: encode1252(`Datum;Empfänger;Betrag
02.01.2024;Café Crème Société;-12,50 €
05.01.2024;Œuvre caritative – Spende;-20,00 €
09.01.2024;Lohn;1.000,00 €
`),
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-09', apiSum: '-967.50', currency: 'EUR', rows: [[/^Café Crème Société$/, 12.5], [/^Œuvre caritative – Spende$/, 20]] },
  },
  {
    name: 'classic Mac CR-only line endings',
    file: 'Date,Description,Amount\r01/15/2024,COFFEE,-3.50\r01/16/2024,REFUND,10.00\r01/17/2024,GAS,-40.00\r',
    expected: { accounts: 1, transactions: 3, first: '2024-01-15', last: '2024-01-17', apiSum: '33.50', currency: 'USD' },
  },
  {
    name: 'a BOM, blank lines between rows and a trailing totals row',
    file: '\ufeffDate,Description,Debit,Credit,Balance\r\n\r\n2024-01-02,Rent,950.00,,50.00\r\n\r\n2024-01-03,Salary,,2000.00,2050.00\r\n2024-01-04,Groceries,50.00,,2000.00\r\n\r\nTotal,,1000.00,2000.00,\r\n\r\n',
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-04', apiSum: '-1000.00', currency: 'USD', balance: 2000 },
  },
];

const MORE: Case[] = [
  {
    name: 'Amex extended export (multi-line quoted Extended Details, Reference, Category)',
    file: `Date,Description,Amount,Extended Details,Appears On Your Statement As,Address,City/State,Zip Code,Country,Reference,Category
01/15/2024,WHOLE FOODS MARKET,54.32,"10234 WHOLE FOODS
AUSTIN TX
GROCERY",WHOLE FOODS MARKET #10234,525 N LAMAR BLVD,"AUSTIN
TX",78703,UNITED STATES,'320240150123456789',Merchandise & Supplies-Groceries
01/13/2024,MOBILE PAYMENT - THANK YOU,-250.00,,MOBILE PAYMENT - THANK YOU,,,,,'320240130123456780',
01/11/2024,DELTA AIR LINES,412.10,"DELTA AIR LINES
ATLANTA GA",DELTA AIR LINES,1030 DELTA BLVD,"ATLANTA
GA",30354,UNITED STATES,'320240110123456781',Travel-Airline
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-11', last: '2024-01-15', apiSum: '216.42', currency: 'USD', rows: [[/DELTA/, 412.1]] },
  },
  {
    name: 'Schwab Bank checking (title line, Withdrawal (-)/Deposit (+), "$1,234.56", RunningBalance)',
    file: `"Transactions  for Checking account ...1234 as of 01/31/2024 11:02:45 PM ET"
"Date","Type","CheckNumber","Description","Withdrawal (-)","Deposit (+)","RunningBalance"
"Pending","","","Pending Transactions","","",""
"01/20/2024","DEBIT","","VENMO PAYMENT 1234","$100.00","","$2,400.00"
"01/15/2024","ACH","","ACME PAYROLL","","$2,500.00","$2,500.00"
"Total","","","","$100.00","$2,500.00",""
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-20', apiSum: '-2400.00', currency: 'USD', balance: 2400 },
  },
  {
    name: 'Nationwide UK (Windows-1252 £, preamble with account and balances, "15 Jan 2024", Paid out/Paid in)',
    file: encode1252(crlf(`"Account Name:","FlexDirect ****12345"
"Account Balance:","£1,234.56"
"Available Balance: ","£1,184.56"

"Date","Transaction type","Description","Paid out","Paid in","Balance"
"02 Jan 2024","Visa purchase","TESCO STORES 1234","£12.34","","£1,234.56"
"15 Jan 2024","Bank credit","ACME LTD SALARY","","£1,500.00","£2,734.56"
"20 Jan 2024","Direct debit","COUNCIL TAX","£150.00","","£2,584.56"
`)),
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-20', apiSum: '-1337.66', currency: 'GBP', balance: 2584.56 },
  },
  {
    name: 'Lloyds (Sort Code with an apostrophe, Debit Amount/Credit Amount)',
    file: `Transaction Date,Transaction Type,Sort Code,Account Number,Transaction Description,Debit Amount,Credit Amount,Balance
20/01/2024,DD,'30-96-26,12345678,COUNCIL TAX,150.00,,2584.56
15/01/2024,FPI,'30-96-26,12345678,ACME LTD SALARY,,1500.00,2734.56
02/01/2024,DEB,'30-96-26,12345678,TESCO STORES 1234,12.34,,1234.56
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-20', apiSum: '-1337.66', currency: 'USD', masks: ['5678'], balance: 2584.56 },
  },
  {
    name: 'Barclays (Number,Date,Account,Amount,Subcategory,Memo)',
    file: ` Number,Date,Account,Amount,Subcategory,Memo
,02/01/2024,20-32-06 13152170,-12.34,PAYMENT,TESCO STORES 1234 ON 01 JAN BCC
,15/01/2024,20-32-06 13152170,1500.00,DIRECTDEP,ACME LTD SALARY BGC
,20/01/2024,20-32-06 13152170,-150.00,DIRECTDEBIT,COUNCIL TAX DDR
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-02', last: '2024-01-20', apiSum: '-1337.66', currency: 'USD', masks: ['2170'] },
  },
  {
    name: 'Commonwealth Bank Australia (headerless: date, signed amount, description, "+" balance)',
    file: `15/01/2024,"-45.67","EFTPOS WOOLWORTHS 1234 SYDNEY AU","+954.33"
20/01/2024,"+2000.00","Salary ACME PTY LTD","+2954.33"
25/01/2024,"-100.00","Transfer to other Bank NetBank Rent","+2854.33"
`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-15', last: '2024-01-25', apiSum: '-1854.33', currency: 'USD', rows: [[/WOOLWORTHS/, 45.67]] },
  },
  {
    name: 'ABN AMRO TAB export (headerless, tab-separated, yyyymmdd, start and end balance columns)',
    file: `123456789\tEUR\t20240115\t1000,00\t976,55\t20240115\t-23,45\tBEA   NR:12345   15.01.24/12.00 ALBERT HEIJN 1234,PAS123
123456789\tEUR\t20240125\t976,55\t3322,22\t20240125\t2345,67\tSEPA Overboeking IBAN: NL91ABNA0417164300 Naam: ACME BV Omschrijving: Salaris
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-25', apiSum: '-2322.22', currency: 'EUR', rows: [[/ALBERT HEIJN/, 23.45]] },
  },
  {
    name: 'Danske Bank (Dato;Tekst;Beløb;Saldo;Status;Afstemt, "1.234,56")',
    file: `"Dato";"Tekst";"Beløb";"Saldo";"Status";"Afstemt"
"02.01.2024";"Netto";"-123,45";"9.876,55";"Udført";"Nej"
"31.01.2024";"Løn ACME A/S";"25.000,00";"34.876,55";"Udført";"Nej"
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-02', last: '2024-01-31', apiSum: '-24876.55', currency: 'USD', balance: 34876.55 },
  },
  {
    name: 'Nordea Sweden (Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta)',
    file: `Bokföringsdag;Belopp;Avsändare;Mottagare;Namn;Rubrik;Saldo;Valuta
2024/01/31;-1234,50;;;Hyresvärden AB;Hyra februari;8765,50;SEK
2024/01/25;10000,00;;;ACME AB;Lön;10000,00;SEK
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-25', last: '2024-01-31', apiSum: '-8765.50', currency: 'SEK', balance: 8765.5 },
  },
  {
    name: 'Nordea Finland (Kirjauspäivä;Määrä;Maksaja;Maksunsaaja;Nimi;Otsikko;Viitenumero;Valuutta)',
    file: `Kirjauspäivä;Määrä;Maksaja;Maksunsaaja;Nimi;Otsikko;Viitenumero;Valuutta
31.01.2024;-45,60;;;K-Market;Korttiosto;;EUR
25.01.2024;2500,00;;;ACME Oy;Palkka;;EUR
`,
    expected: { accounts: 1, transactions: 2, first: '2024-01-25', last: '2024-01-31', apiSum: '-2454.40', currency: 'EUR' },
  },
  {
    name: 'mBank Poland (preamble, #-prefixed header, "1 234,56 PLN")',
    file: encode1252(`mBank S.A. Bankowość Detaliczna;
#Klient;
JAN KOWALSKI;

#Data operacji;#Opis operacji;#Rachunek;#Kategoria;#Kwota;#Saldo po operacji;
2024-01-31;"ZAKUP PRZY UŻYCIU KARTY BIEDRONKA";"eKonto 1234";"Żywność";-45,60 PLN;1 954,40 PLN;
2024-01-25;"PRZELEW PRZYCHODZĄCY ACME SP Z O.O.";"eKonto 1234";"Wynagrodzenie";2 000,00 PLN;2 000,00 PLN;
`.replace(/[ŻżĄą]/g, 'Z').replace(/ść/g, 'sc')),
    expected: { accounts: 1, transactions: 2, first: '2024-01-25', last: '2024-01-31', apiSum: '-1954.40', currency: 'PLN' },
  },
];

describe('real-world CSV exports, United States', () => {
  it.each(US.map((c) => [c.name, c] as const))('%s', async (_name, c) => check(c.file, c.fileName, c.expected));
});

describe('the card sign rule (charges written positive) stays out of bank exports', () => {
  it('keeps a checking export whose card payment says THANK YOU: most rows are money out, written negative', async () => {
    await check(
      `Date,Description,Amount
01/03/2024,CARD PAYMENT - THANK YOU,-250.00
01/05/2024,GROCERY STORE,-54.32
01/09/2024,PAYROLL,1000.00
01/11/2024,UTILITY CO,-80.00
`,
      undefined,
      { accounts: 1, transactions: 4, first: '2024-01-03', last: '2024-01-11', apiSum: '-615.68', currency: 'USD', rows: [[/THANK YOU/, 250]] },
    );
  });

  it('keeps a file with no payment, refund or typed row as written', async () => {
    await check('Date,Description,Amount\n01/03/2024,A,54.32\n01/05/2024,B,-10.00\n', undefined, { accounts: 1, transactions: 2, first: '2024-01-03', last: '2024-01-05', apiSum: '-44.32', currency: 'USD' });
  });
});

describe('real-world CSV exports, more banks and apps', () => {
  it.each(MORE.map((c) => [c.name, c] as const))('%s', async (_name, c) => check(c.file, c.fileName, c.expected));
});

describe('real-world CSV exports, United Kingdom and Europe', () => {
  it.each(EUROPE.map((c) => [c.name, c] as const))('%s', async (_name, c) => check(c.file, c.fileName, c.expected));
});

// -------------------------------------------------------------------------------------------------
// OFX, QFX and QBO as banks' servers and Quicken/QuickBooks downloads write them

const SGML_HEADER = 'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:USASCII\nCHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n';
const SIGNON = '<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20240131120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>';

function sgmlTxn(fields: Record<string, string>): string {
  return `<STMTTRN>${Object.entries(fields).map(([key, value]) => `<${key}>${value}`).join('')}</STMTTRN>`;
}

function bankStatement(accountId: string, transactions: string, { currency = 'USD', ledger = '<LEDGERBAL><BALAMT>1954.33<DTASOF>20240131</LEDGERBAL>' } = {}): string {
  return `<STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>${currency}<BANKACCTFROM><BANKID>121000248<ACCTID>${accountId}<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131${transactions}</BANKTRANLIST>${ledger}</STMTRS></STMTTRNRS>`;
}

function cardStatement(accountId: string, transactions: string): string {
  return `<CCSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><CCSTMTRS><CURDEF>USD<CCACCTFROM><ACCTID>${accountId}</CCACCTFROM><BANKTRANLIST><DTSTART>20240101<DTEND>20240131${transactions}</BANKTRANLIST><LEDGERBAL><BALAMT>-1234.56<DTASOF>20240131</LEDGERBAL></CCSTMTRS></CCSTMTTRNRS>`;
}

const CHECKING_ROWS =
  sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240115120000[-5:EST]', TRNAMT: '-45.67', FITID: '2024011501', NAME: 'AMAZON MKTPLACE' }) +
  sgmlTxn({ TRNTYPE: 'CREDIT', DTPOSTED: '20240112', TRNAMT: '2000.00', FITID: '2024011201', NAME: 'ACME PAYROLL', MEMO: 'DIRECT DEP' }) +
  sgmlTxn({ TRNTYPE: 'CHECK', DTPOSTED: '20240120000000.000[+1]', TRNAMT: '-100.00', FITID: '2024012001', CHECKNUM: '1234', NAME: 'CHECK 1234' });

const OFX: Case[] = [
  {
    name: 'OFX 1.02 SGML with the header and the whole body on one line, no line breaks at all',
    file: `${SGML_HEADER.replace(/\n/g, '')}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement('1234567890', CHECKING_ROWS)}</BANKMSGSRSV1></OFX>`,
    fileName: 'export.ofx',
    expected: { accounts: 1, transactions: 3, first: '2024-01-12', last: '2024-01-20', apiSum: '-1854.33', currency: 'USD', masks: ['7890'], rows: [[/AMAZON/, 45.67], [/ACME/, -2000]], balance: 1954.33 },
  },
  {
    name: 'Quicken QFX (INTU.BID and INTU.USERID in the sign-on, CRLF, one tag a line)',
    file: crlf(
      `${SGML_HEADER}<OFX>\n<SIGNONMSGSRSV1>\n<SONRS>\n<STATUS>\n<CODE>0\n<SEVERITY>INFO\n</STATUS>\n<DTSERVER>20240131120000.000[-5:EST]\n<LANGUAGE>ENG\n<FI>\n<ORG>B1\n<FID>10898\n</FI>\n<INTU.BID>10898\n<INTU.USERID>jdoe\n</SONRS>\n</SIGNONMSGSRSV1>\n<BANKMSGSRSV1>\n` +
        bankStatement('000123456789', CHECKING_ROWS).replace(/></g, '>\n<') +
        '\n</BANKMSGSRSV1>\n</OFX>\n',
    ),
    fileName: 'Chase1234_Activity.QFX',
    expected: { accounts: 1, transactions: 3, first: '2024-01-12', last: '2024-01-20', apiSum: '-1854.33', currency: 'USD', masks: ['6789'], balance: 1954.33 },
  },
  {
    name: 'credit card CCSTMTRS: charges negative, the payment positive, balance owed',
    file: `${SGML_HEADER}<OFX>${SIGNON}<CREDITCARDMSGSRSV1>${cardStatement(
      '4111111111111111',
      sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240105', TRNAMT: '-54.32', FITID: 'C1', NAME: 'WHOLE FOODS' }) +
        sgmlTxn({ TRNTYPE: 'CREDIT', DTPOSTED: '20240110', TRNAMT: '250.00', FITID: 'C2', NAME: 'PAYMENT - THANK YOU' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240111', TRNAMT: '-412.10', FITID: 'C3', NAME: 'DELTA AIR LINES' }),
    )}</CREDITCARDMSGSRSV1></OFX>`,
    fileName: 'card.qfx',
    expected: { accounts: 1, transactions: 3, first: '2024-01-05', last: '2024-01-11', apiSum: '216.42', currency: 'USD', masks: ['1111'], rows: [[/WHOLE FOODS/, 54.32], [/PAYMENT/, -250]], balance: 1234.56 },
  },
  {
    name: 'several accounts in one file: two bank statements and a card',
    file: `${SGML_HEADER}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement('1111', CHECKING_ROWS)}${bankStatement(
      '2222',
      sgmlTxn({ TRNTYPE: 'INT', DTPOSTED: '20240131', TRNAMT: '1.25', FITID: 'S1', NAME: 'INTEREST PAID' }),
    )}</BANKMSGSRSV1><CREDITCARDMSGSRSV1>${cardStatement('3333', sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240102', TRNAMT: '-9.99', FITID: 'C1', NAME: 'SPOTIFY' }))}</CREDITCARDMSGSRSV1></OFX>`,
    expected: { accounts: 3, transactions: 5, first: '2024-01-02', last: '2024-01-31', apiSum: '-1845.59', currency: 'USD', masks: ['1111', '2222', '3333'] },
  },
  {
    name: 'OFX 2.x XML with an XML declaration, the OFX processing instruction, a namespace and comments',
    file: crlf(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<!-- generated by online banking -->
<OFX xmlns="http://ofx.net/ifx/2.0/ofx">
  <SIGNONMSGSRSV1><SONRS><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS><DTSERVER>20240131120000</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>
  <BANKMSGSRSV1><STMTTRNRS><TRNUID>0</TRNUID><STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>
    <STMTRS><CURDEF>EUR</CURDEF>
      <BANKACCTFROM><BANKID>INGBNL2A</BANKID><ACCTID>NL20INGB0001234567</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
      <BANKTRANLIST><DTSTART>20240101</DTSTART><DTEND>20240131</DTEND>
        <STMTTRN><TRNTYPE>POS</TRNTYPE><DTPOSTED>20240115</DTPOSTED><TRNAMT>-23.45</TRNAMT><FITID>A1</FITID><NAME>Albert Heijn</NAME></STMTTRN>
        <STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20240125</DTPOSTED><TRNAMT>2345.67</TRNAMT><FITID>A2</FITID><NAME>ACME BV</NAME><MEMO><![CDATA[Salaris <januari>]]></MEMO></STMTTRN>
      </BANKTRANLIST>
      <LEDGERBAL><BALAMT>3322.22</BALAMT><DTASOF>20240131</DTASOF></LEDGERBAL>
    </STMTRS></STMTTRNRS></BANKMSGSRSV1>
</OFX>
`),
    fileName: 'export.ofx',
    expected: { accounts: 1, transactions: 2, first: '2024-01-15', last: '2024-01-25', apiSum: '-2322.22', currency: 'EUR', masks: ['4567'], balance: 3322.22 },
  },
  {
    name: 'OFX 2.x XML with namespace-prefixed elements',
    file: `<?xml version="1.0" encoding="UTF-8"?><?OFX OFXHEADER="200" VERSION="211" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?><ofx:OFX xmlns:ofx="http://ofx.net/ifx/2.0/ofx"><ofx:BANKMSGSRSV1><ofx:STMTTRNRS><ofx:STMTRS><ofx:CURDEF>USD</ofx:CURDEF><ofx:BANKACCTFROM><ofx:BANKID>1</ofx:BANKID><ofx:ACCTID>55554444</ofx:ACCTID><ofx:ACCTTYPE>SAVINGS</ofx:ACCTTYPE></ofx:BANKACCTFROM><ofx:BANKTRANLIST><ofx:STMTTRN><ofx:TRNTYPE>INT</ofx:TRNTYPE><ofx:DTPOSTED>20240131</ofx:DTPOSTED><ofx:TRNAMT>3.10</ofx:TRNAMT><ofx:FITID>I1</ofx:FITID><ofx:NAME>INTEREST</ofx:NAME></ofx:STMTTRN></ofx:BANKTRANLIST></ofx:STMTRS></ofx:STMTTRNRS></ofx:BANKMSGSRSV1></ofx:OFX>`,
    expected: { accounts: 1, transactions: 1, first: '2024-01-31', last: '2024-01-31', apiSum: '-3.10', currency: 'USD', masks: ['4444'] },
  },
  {
    name: 'entities (&amp; &lt; &#233;) and a bare & in NAME and MEMO',
    file: `${SGML_HEADER}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement(
      '1234',
      sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240103', TRNAMT: '-60.00', FITID: 'E1', NAME: 'AT&amp;T MOBILITY', MEMO: 'BILL &lt;JAN&gt;' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240104', TRNAMT: '-12.50', FITID: 'E2', NAME: 'CAF&#233; DE FLORE', MEMO: 'Caf&#xE9;' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240105', TRNAMT: '-39.95', FITID: 'E3', NAME: 'H&M STORE 123', MEMO: 'R&D & more' }),
    )}</BANKMSGSRSV1></OFX>`,
    expected: { accounts: 1, transactions: 3, first: '2024-01-03', last: '2024-01-05', apiSum: '112.45', currency: 'USD', rows: [[/^AT&T MOBILITY$/, 60], [/^CAFé DE FLORE$/, 12.5], [/^H&M STORE 123$/, 39.95]] },
  },
  {
    name: 'DTPOSTED with time zones and fractions ([-5:EST], [+1], [0:GMT], .000), no LEDGERBAL',
    file: `${SGML_HEADER}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement(
      '1234',
      sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20231231233000[-5:EST]', TRNAMT: '-1.00', FITID: 'T1', NAME: 'A' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240101003000.000[+1]', TRNAMT: '-2.00', FITID: 'T2', NAME: 'B' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240102[0:GMT]', TRNAMT: '-3.00', FITID: 'T3', NAME: 'C' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '202401031200', TRNAMT: '-4.00', FITID: 'T4', NAME: 'D' }),
      { ledger: '' },
    )}</BANKMSGSRSV1></OFX>`,
    expected: { accounts: 1, transactions: 4, first: '2023-12-31', last: '2024-01-03', apiSum: '10.00', currency: 'USD', balance: 0 },
  },
  {
    name: 'QuickBooks QBO with a non-USD CURDEF and comma decimals',
    file: `${SGML_HEADER}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement(
      '987654321',
      sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240110', TRNAMT: '-1.234,56', FITID: 'Q1', NAME: 'LOYER' }) + sgmlTxn({ TRNTYPE: 'CREDIT', DTPOSTED: '20240125', TRNAMT: '2500,00', FITID: 'Q2', NAME: 'SALAIRE' }),
      { currency: 'EUR', ledger: '<LEDGERBAL><BALAMT>1265,44<DTASOF>20240131</LEDGERBAL>' },
    )}</BANKMSGSRSV1></OFX>`,
    fileName: 'releve.qbo',
    expected: { accounts: 1, transactions: 2, first: '2024-01-10', last: '2024-01-25', apiSum: '-1265.44', currency: 'EUR', rows: [[/LOYER/, 1234.56]], balance: 1265.44 },
  },
];

describe('real-world OFX, QFX and QBO files', () => {
  it.each(OFX.map((c) => [c.name, c] as const))('%s', async (_name, c) => check(c.file, c.fileName, c.expected));

  it('CORRECTACTION: a REPLACE arrives under the corrected id, a DELETE removes it', async () => {
    const file = `${SGML_HEADER}<OFX>${SIGNON}<BANKMSGSRSV1>${bankStatement(
      '1234',
      sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240103', TRNAMT: '-60.00', FITID: 'X1', NAME: 'ORIGINAL' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240104', TRNAMT: '-10.00', FITID: 'X2', NAME: 'TO DELETE' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240103', TRNAMT: '-65.00', FITID: 'X3', CORRECTFITID: 'X1', CORRECTACTION: 'REPLACE', NAME: 'CORRECTED' }) +
        sgmlTxn({ TRNTYPE: 'DEBIT', DTPOSTED: '20240104', TRNAMT: '-10.00', FITID: 'X4', CORRECTFITID: 'X2', CORRECTACTION: 'DELETE', NAME: 'TO DELETE' }),
    )}</BANKMSGSRSV1></OFX>`;
    const batch = await importFile(file);
    if (batch.transactions.kind !== 'changes') throw new Error('the importer reports change batches');
    const { upserted, removed } = batch.transactions;
    expect(upserted.map((t) => [t.name, t.amount])).toEqual([['CORRECTED', 65]]);
    expect(removed).toHaveLength(1);
    expect(batch.corrections).toEqual({ replaced: [upserted[0]!.transaction_id], deleted: removed });
  });

  it('an investment statement (INVSTMTRS): positions as holdings, trades, income and reinvestment with the API sign', async () => {
    const file = `${SGML_HEADER}<OFX>${SIGNON}<INVSTMTMSGSRSV1><INVSTMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><INVSTMTRS><DTASOF>20240131<CURDEF>USD<INVACCTFROM><BROKERID>fidelity.com<ACCTID>X12345678</INVACCTFROM>
<INVTRANLIST><DTSTART>20240101<DTEND>20240131>
<BUYSTOCK><INVBUY><INVTRAN><FITID>B1<DTTRADE>20240105<DTSETTLE>20240108<MEMO>BUY AAPL</INVTRAN><SECID><UNIQUEID>037833100<UNIQUEIDTYPE>CUSIP</SECID><UNITS>10<UNITPRICE>185.00<COMMISSION>0<TOTAL>-1850.00<SUBACCTSEC>CASH<SUBACCTFUND>CASH</INVBUY><BUYTYPE>BUY</BUYSTOCK>
<SELLMF><INVSELL><INVTRAN><FITID>S1<DTTRADE>20240110<MEMO>SELL VTSAX</INVTRAN><SECID><UNIQUEID>922908728<UNIQUEIDTYPE>CUSIP</SECID><UNITS>-5<UNITPRICE>110.00<FEES>1.00<TOTAL>549.00<SUBACCTSEC>CASH<SUBACCTFUND>CASH</INVSELL><SELLTYPE>SELL</SELLMF>
<INCOME><INVTRAN><FITID>D1<DTTRADE>20240115<MEMO>DIVIDEND</INVTRAN><SECID><UNIQUEID>037833100<UNIQUEIDTYPE>CUSIP</SECID><INCOMETYPE>DIV<TOTAL>2.40<SUBACCTSEC>CASH<SUBACCTFUND>CASH</INCOME>
<REINVEST><INVTRAN><FITID>R1<DTTRADE>20240120<MEMO>REINVEST</INVTRAN><SECID><UNIQUEID>922908728<UNIQUEIDTYPE>CUSIP</SECID><INCOMETYPE>DIV<TOTAL>-12.00<SUBACCTSEC>CASH<UNITS>0.109<UNITPRICE>110.09</REINVEST>
<INVBANKTRAN><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240102<TRNAMT>2000.00<FITID>T1<NAME>CONTRIBUTION</STMTTRN><SUBACCTFUND>CASH</INVBANKTRAN>
</INVTRANLIST>
<INVPOSLIST><POSSTOCK><INVPOS><SECID><UNIQUEID>037833100<UNIQUEIDTYPE>CUSIP</SECID><HELDINACCT>CASH<POSTYPE>LONG<UNITS>10<UNITPRICE>190.00<MKTVAL>1900.00<DTPRICEASOF>20240131</INVPOS></POSSTOCK>
<POSMF><INVPOS><SECID><UNIQUEID>922908728<UNIQUEIDTYPE>CUSIP</SECID><HELDINACCT>CASH<POSTYPE>LONG<UNITS>20.109<UNITPRICE>111.00<MKTVAL>2232.10<DTPRICEASOF>20240131</INVPOS></POSMF></INVPOSLIST>
<INVBAL><AVAILCASH>701.40<MARGINBALANCE>0<SHORTBALANCE>0</INVBAL></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1>
<SECLISTMSGSRSV1><SECLIST><STOCKINFO><SECINFO><SECID><UNIQUEID>037833100<UNIQUEIDTYPE>CUSIP</SECID><SECNAME>Apple Inc.<TICKER>AAPL</SECINFO></STOCKINFO><MFINFO><SECINFO><SECID><UNIQUEID>922908728<UNIQUEIDTYPE>CUSIP</SECID><SECNAME>Vanguard Total Stock Mkt Idx Adm<TICKER>VTSAX</SECINFO></MFINFO></SECLIST></SECLISTMSGSRSV1></OFX>`;
    const batch = await importFile(file, 'fidelity.qfx');
    expect(batch.accounts).toEqual([expect.objectContaining({ type: 'investment', mask: '5678' })]);
    expect(batch.accounts[0]!.balances.available).toBe(701.4);
    const investments = batch.investments!;
    expect(investments.holdings.map((h) => [h.security.ticker, h.quantity, h.value]).sort()).toEqual([
      ['AAPL', 10, 1900],
      ['VTSAX', 20.109, 2232.1],
    ]);
    const byType = Object.fromEntries(investments.investment_transactions.map((t) => [`${t.type}:${t.ticker}`, [t.date, t.amount]]));
    expect(byType).toEqual({
      'buy:AAPL': ['2024-01-05', 1850],
      'sell:VTSAX': ['2024-01-10', -549],
      'dividend:AAPL': ['2024-01-15', -2.4],
      'dividend:VTSAX': ['2024-01-20', 12],
      'deposit:': ['2024-01-02', -2000],
    });
  });
});

// -------------------------------------------------------------------------------------------------
// Mutated files: every damaged file ends in a refusal that names the problem, or in a parse

describe('mutations of the corpus and of the files above', () => {
  const corpusDir = join(__dirname, '../../../shared/statements');
  const corpus = readdirSync(corpusDir)
    .filter((name) => /\.(csv|ofx|qfx|qbo|txt)$/i.test(name))
    .map((name) => new Uint8Array(readFileSync(join(corpusDir, name))));
  const generated = [...US, ...EUROPE, ...MORE, ...OFX].map((c) => (typeof c.file === 'string' ? encodeUtf8(c.file) : c.file));
  const seeds = [...corpus, ...generated];

  type Mutation = (bytes: Uint8Array) => Uint8Array;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.double({ min: 0, max: 1, noNaN: true }).map((at): Mutation => (bytes) => bytes.slice(0, Math.floor(bytes.length * at))),
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })).map(([at, value]): Mutation => (bytes) => {
      const copy = bytes.slice();
      if (copy.length > 0) copy[Math.min(copy.length - 1, Math.floor(copy.length * at))] = value;
      return copy;
    }),
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 3 })).map(
      ([from, to, length, times]): Mutation =>
        (bytes) => {
          const start = Math.floor(bytes.length * from);
          const block = bytes.slice(start, start + length);
          const at = Math.floor(bytes.length * to);
          return new Uint8Array([...bytes.slice(0, at), ...Array.from({ length: times }, () => [...block]).flat(), ...bytes.slice(at)]);
        },
    ),
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 2048 })).map(([from, length]): Mutation => (bytes) => {
      const start = Math.floor(bytes.length * from);
      return new Uint8Array([...bytes.slice(0, start), ...bytes.slice(start + length)]);
    }),
    fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('"', ',', ';', '\t', '\r', '\n', '<', '>', '&', '</OFX>', '<STMTTRN>', '\u0000', '\ufeff', '-', '.')).map(
      ([to, text]): Mutation =>
        (bytes) => {
          const at = Math.floor(bytes.length * to);
          return new Uint8Array([...bytes.slice(0, at), ...Buffer.from(text, 'utf8'), ...bytes.slice(at)]);
        },
    ),
  );

  it('never hangs or throws anything but a statement_* refusal, and what imports is well-formed', async () => {
    expect(corpus.length).toBeGreaterThan(40);
    // The bound on time is the test's own timeout: every mutated file parses in one forward pass.
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: seeds.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (seed, mutations) => {
        const bytes = mutations.reduce((current, mutate) => mutate(current), seeds[seed]!);
        let batch: SourceBatch;
        try {
          batch = await importFile(bytes, null);
        } catch (error) {
          expect(error).toBeInstanceOf(ConnectorError);
          expect((error as ConnectorError).details).toEqual({ code: expect.stringMatching(/^statement_[a-z_]+$/) });
          return;
        }
        if (batch.transactions.kind !== 'changes') throw new Error('the importer reports change batches');
        const accountIds = new Set(batch.accounts.map((a) => a.account_id));
        for (const t of batch.transactions.upserted) {
          expect(accountIds.has(t.account_id)).toBe(true);
          expect(t.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          expect(Number.isFinite(t.amount)).toBe(true);
          expect(t.iso_currency_code).toMatch(/^[A-Z]{3}$/);
        }
      }),
      { numRuns: 400, seed: 20240131 },
    );
  });
});
