// The integrator's statement upload (POST /v1/items/statements/upload) for an item created from a
// statement in Link, over HTTP: a corpus file read in place, re-imports that add nothing, OFX
// corrections arriving as modified/removed through /transactions/sync, corrections that an older
// file cannot undo, balances an older file cannot roll back, refusals that write nothing, and the
// items it may not touch.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { manualClock } from '../support/embedded';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

const STATEMENTS = join(__dirname, '../../../shared/statements');
const corpusBase64 = (file: string) => readFileSync(join(STATEMENTS, file)).toString('base64');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const CHASE = 'ins_chase';
const acmeKey = makeKey('test');
const otherKey = makeKey('test');
const clock = manualClock(Date.UTC(2026, 6, 1, 12, 0, 0));

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'Acme', plan: 'enterprise', keys: [acmeKey] },
      { application: 'Other', plan: 'enterprise', keys: [otherKey] },
    ],
    { clock },
  );
});
afterAll(() => stack.stop());
beforeEach(() => clock.advance(60_000));

async function post(path: string, body: unknown, key: string | null = acmeKey) {
  const res = await stack.call(path, { body, key });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

/** An import item created through Link's upload, exchanged for its access token. */
async function importItem(fileName: string, fileBase64: string, institution = CHASE, products = ['transactions']): Promise<string> {
  const link = await post('/v1/link/token/create', { user: { client_user_id: 'u1' }, products });
  const uploaded = await post('/link/api/upload', { link_token: link.json.link_token, institution_id: institution, file_name: fileName, file_base64: fileBase64 }, null);
  expect([uploaded.status, uploaded.json.status]).toEqual([200, 'connected']);
  const exchanged = await post('/v1/link/token/exchange', { public_token: uploaded.json.public_token });
  return exchanged.json.access_token as string;
}

/** Everything /transactions/sync has to say from `cursor` on. */
async function syncAll(accessToken: string, cursor?: string) {
  const out = { added: [] as { transaction_id: string; amount: number; name: string }[], modified: [] as { transaction_id: string; amount: number }[], removed: [] as { transaction_id: string }[], cursor: cursor ?? '' };
  for (;;) {
    const page = await post('/v1/transactions/sync', { access_token: accessToken, count: 500, ...(out.cursor ? { cursor: out.cursor } : {}) });
    expect(page.status).toBe(200);
    out.added.push(...page.json.added);
    out.modified.push(...page.json.modified);
    out.removed.push(...page.json.removed);
    out.cursor = page.json.next_cursor;
    if (!page.json.has_more) return out;
  }
}

const ofx = (ledger: string, asOf: string, transactions: string) => `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>${asOf}<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD
<BANKACCTFROM><BANKID>021000021<ACCTID>55501234<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260101<DTEND>${asOf}
${transactions}
</BANKTRANLIST><LEDGERBAL><BALAMT>${ledger}<DTASOF>${asOf}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
const trn = (fitid: string, amount: string, name: string, extra = '') => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260215<TRNAMT>${amount}<FITID>${fitid}<NAME>${name}${extra}</STMTTRN>`;
const upload = (accessToken: string, fileName: string, fileBase64: string, key: string = acmeKey) =>
  post('/v1/items/statements/upload', { access_token: accessToken, file_name: fileName, file_base64: fileBase64 }, key);

describe('POST /v1/items/statements/upload', () => {
  it('adds nothing when the same file is uploaded again, and reports what each upload changed', async () => {
    const accessToken = await importItem('bb.ofx', corpusBase64('ofx__bb.ofx'));
    const first = await syncAll(accessToken);
    // The manifest's count for this file.
    expect(first.added).toHaveLength(81);
    const again = await upload(accessToken, 'bb.ofx', corpusBase64('ofx__bb.ofx'));
    expect(again.status).toBe(200);
    expect(again.json.transactions).toEqual({ added: 0, modified: 0, removed: 0 });
    expect(again.json.accounts.length).toBeGreaterThan(0);
    const after = await syncAll(accessToken, first.cursor);
    expect([after.added, after.modified, after.removed]).toEqual([[], [], []]);
  });

  it('reads a later file whose dates cannot tell day from month the way the item\u2019s first file proved, so a row in both is stored once', async () => {
    // 13/01 proves day-first; 05/01 is then the fifth of January.
    const first = 'Date,Description,Amount\n13/01/2026,BAKERY,-4.20\n05/01/2026,BOOKSHOP,-12.00\n';
    const accessToken = await importItem('jan.csv', base64(first));
    const before = await syncAll(accessToken);
    expect(before.added.map((t) => [t.name, (t as unknown as { date: string }).date]).sort()).toEqual([['BAKERY', '2026-01-13'], ['BOOKSHOP', '2026-01-05']]);
    // Every date of the second file fits both orders.
    const second = 'Date,Description,Amount\n05/01/2026,BOOKSHOP,-12.00\n06/01/2026,CINEMA,-9.00\n';
    const res = await upload(accessToken, 'more.csv', base64(second));
    expect(res.json.transactions).toEqual({ added: 1, modified: 0, removed: 0 });
    const after = await syncAll(accessToken, before.cursor);
    expect(after.added.map((t) => [t.name, (t as unknown as { date: string }).date])).toEqual([['CINEMA', '2026-01-06']]);
  });

  it('says which rows it left out and how it read the dates, so the integrator can tell the user', async () => {
    const accessToken = await importItem('first.csv', base64('Date,Description,Amount\n2026-01-05,COFFEE,-3.50\n'));
    // Every date fits both orders, and the file holds a total row.
    const ambiguous = 'Date,Description,Amount\n03/04/2026,TESCO,-12.00\n05/04/2026,SALARY,2000.00\nTotal,,1988.00\n';
    const res = await upload(accessToken, 'uk.csv', base64(ambiguous));
    expect(res.status).toBe(200);
    expect(res.json.skipped_rows).toEqual({ count: 1, rows: [{ line: 4, reason: expect.any(String) }] });
    expect(res.json.date_order).toEqual({ order: expect.stringMatching(/^(dmy|mdy)$/), source: 'default' });
    const ofxAnswer = await upload(accessToken, 'x.ofx', base64(ofx('1.00', '20260220', trn('O1', '-1.00', 'X'))));
    expect(ofxAnswer.json.date_order).toBeNull();
  });

  it('serves a brokerage statement\u2019s positions as holdings', async () => {
    const accessToken = await importItem('example.qfx', corpusBase64('beangulp__example.qfx'), 'ins_charles_schwab', ['transactions', 'investments']);
    const holdings = await post('/v1/investments/holdings/get', { access_token: accessToken });
    expect(holdings.status).toBe(200);
    // The manifest's count of positions for this file.
    expect(holdings.json.holdings).toHaveLength(2);
    const invest = await post('/v1/investments/transactions/get', { access_token: accessToken, start_date: '2000-01-01', end_date: '2030-01-01' });
    expect(invest.status).toBe(200);
    expect(invest.json.total_investment_transactions).toBeGreaterThan(0);
  });

  it('brings OFX corrections through /transactions/sync as modified and removed, and an older file never undoes them', async () => {
    const original = ofx('900.00', '20260220', [trn('A1', '-10.00', 'COFFEE SHOP'), trn('A2', '-25.50', 'GROCER'), trn('A3', '-7.00', 'PARKING')].join('\n'));
    const accessToken = await importItem('jan.ofx', base64(original));
    const first = await syncAll(accessToken);
    const idOf = Object.fromEntries(first.added.map((t) => [t.name, t.transaction_id]));
    expect(Object.keys(idOf).sort()).toEqual(['COFFEE SHOP', 'GROCER', 'PARKING']);

    // A newer statement corrects two of them (newest first: the corrections come before anything else).
    const corrections = ofx('880.00', '20260228', [trn('B1', '-12.00', 'COFFEE SHOP', '<CORRECTFITID>A1<CORRECTACTION>REPLACE'), trn('B2', '-25.50', 'GROCER', '<CORRECTFITID>A2<CORRECTACTION>DELETE')].join('\n'));
    const corrected = await upload(accessToken, 'feb.ofx', base64(corrections));
    expect(corrected.json.transactions).toEqual({ added: 0, modified: 1, removed: 1 });
    const changes = await syncAll(accessToken, first.cursor);
    expect(changes.modified).toEqual([expect.objectContaining({ transaction_id: idOf['COFFEE SHOP'], amount: 12 })]);
    expect(changes.removed).toEqual([{ transaction_id: idOf.GROCER }]);

    // The January file again: the corrections stand, and its older balance does not replace February's.
    const reimport = await upload(accessToken, 'jan.ofx', base64(original));
    expect(reimport.json.transactions).toEqual({ added: 0, modified: 0, removed: 0 });
    expect(reimport.json.accounts[0].balances.current).toBe(880);
    const none = await syncAll(accessToken, changes.cursor);
    expect([none.added, none.modified, none.removed]).toEqual([[], [], []]);
  });

  it('refuses an OFX value longer than the limit with 400 statement_malformed naming the tag, on both upload routes, and writes nothing', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('100.00', '20260220', trn('A1', '-10.00', 'COFFEE SHOP'))));
    const before = await syncAll(accessToken);
    // About 420 KB in one NAME: it answered 500 (DynamoDB's item size) before values were capped.
    const huge = base64(ofx('90.00', '20260221', trn('A2', '-1.00', 'Y'.repeat(420_000))));
    const res = await upload(accessToken, 'huge.ofx', huge);
    expect([res.status, res.json.error.code]).toEqual([400, 'statement_malformed']);
    expect(res.json.error.message).toContain('<NAME>');
    const link = await post('/v1/link/token/create', { user: { client_user_id: 'u_huge' }, products: ['transactions'] });
    const viaLink = await post('/link/api/upload', { link_token: link.json.link_token, institution_id: CHASE, file_name: 'huge.ofx', file_base64: huge }, null);
    expect([viaLink.status, viaLink.json.error.code]).toEqual([400, 'statement_malformed']);
    const after = await syncAll(accessToken, before.cursor);
    expect([after.added, after.modified, after.removed]).toEqual([[], [], []]);
  });

  it('refuses a damaged file with the problem and its line, and writes nothing', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('100.00', '20260220', trn('A1', '-10.00', 'COFFEE SHOP'))));
    const before = await syncAll(accessToken);
    const res = await upload(accessToken, 'broken.csv', base64('Date,Description,Amount\n2026-02-01,OK,-1.00\n2026-02-02,HUGE,-99999999999999999999\n'));
    expect([res.status, res.json.error.code]).toEqual([400, 'statement_malformed']);
    expect(res.json.error.message).toMatch(/line 3/);
    const after = await syncAll(accessToken, before.cursor);
    expect([after.added, after.modified, after.removed]).toEqual([[], [], []]);
    // A truncated encoding (the last characters cut off) is refused, not imported short.
    const whole = base64('Date,Description,Amount\n2026-02-03,Lunch at cafe,-9.50\n');
    const truncated = await upload(accessToken, 'cut.csv', whole.slice(0, whole.length - 2));
    expect([truncated.status, truncated.json.error.code]).toEqual([400, 'invalid_field']);
    const garbage = await upload(accessToken, 'x.ofx', base64('\u0000\u0001 not a statement \u0002'));
    expect(garbage.status).toBe(400);
    expect(garbage.json.error.code).toMatch(/^statement_/);
  });

  it('takes one file at a time per item: concurrent uploads answer 200 or 409 statement_import_busy, never 500, and lose nothing', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('1.00', '20260220', trn('A0', '-1.00', 'FIRST'))));
    const before = await syncAll(accessToken);
    const files = [1, 2, 3, 4].map((n) => base64(ofx('1.00', '20260220', trn(`P${n}`, `-${n}.00`, `SHOP ${n}`))));
    const answers = await Promise.all(files.map((file, n) => upload(accessToken, `f${n}.ofx`, file)));
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect([answer.json.error.code, Number(answer.headers.get('retry-after')) > 0]).toEqual(['statement_import_busy', true]);
    }
    const accepted = answers.filter((a) => a.status === 200).length;
    expect(accepted).toBeGreaterThan(0);
    const after = await syncAll(accessToken, before.cursor);
    expect(after.added).toHaveLength(accepted);
  });

  it('refuses a file whose corrections the item cannot keep before writing anything of it', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('1.00', '20260220', [trn('R1', '-1.00', 'KEEP ME'), trn('R2', '-2.00', 'ME TOO')].join('\n'))));
    const before = await syncAll(accessToken);
    // A deletion of R1 hidden among 30,000 corrections of transactions the item never had.
    const noise = Array.from({ length: 30_000 }, (_, i) => trn(`N${i}`, '0', 'X', `<CORRECTFITID>${(i * 7919).toString(36)}Z${i}<CORRECTACTION>DELETE`));
    const res = await upload(accessToken, 'huge.ofx', base64(ofx('1.00', '20260228', [trn('D1', '0', 'KEEP ME', '<CORRECTFITID>R1<CORRECTACTION>DELETE'), ...noise].join('\n'))));
    expect([res.status, res.json.error.code]).toEqual([413, 'statement_too_large']);
    const after = await syncAll(accessToken, before.cursor);
    expect([after.added, after.modified, after.removed]).toEqual([[], [], []]);
  });

  it('answers items that were not created from a statement, and another application\u2019s items, with errors', async () => {
    const sandbox = await post('/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
    const sandboxToken = (await post('/v1/link/token/exchange', { public_token: sandbox.json.public_token })).json.access_token as string;
    const notImport = await upload(sandboxToken, 'jan.ofx', base64(ofx('1.00', '20260220', trn('A1', '-1.00', 'X'))));
    expect([notImport.status, notImport.json.error.code]).toEqual([400, 'statement_import_not_supported']);

    const accessToken = await importItem('jan.ofx', base64(ofx('1.00', '20260220', trn('A1', '-1.00', 'X'))));
    const foreign = await upload(accessToken, 'jan.ofx', base64(ofx('1.00', '20260220', trn('A9', '-1.00', 'Y'))), otherKey);
    expect([foreign.status, foreign.json.error.code]).toEqual([400, 'invalid_access_token']);
    // An import item has no source to refresh from.
    const refresh = await post('/v1/items/refresh', { access_token: accessToken });
    expect([refresh.status, refresh.json.error.code]).toEqual([400, 'statement_import_not_supported']);
  });

  it('offers no statement upload in update mode, and refuses update mode for an item created from a statement', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('1.00', '20260220', trn('A1', '-1.00', 'X'))));
    const itemId = (await post('/v1/items/get', { access_token: accessToken })).json.item.item_id as string;
    const repairImport = await post('/v1/link/token/create', { user: { client_user_id: 'u1' }, products: ['transactions'], update_item_id: itemId });
    expect([repairImport.status, repairImport.json.error.code]).toEqual([400, 'statement_import_not_supported']);

    // A Chase item the sandbox serves: repairing it goes back to its own connector, never to a file.
    const sandbox = await post('/v1/sandbox/public_token/create', { institution_id: CHASE, products: ['transactions'] });
    const exchanged = await post('/v1/link/token/exchange', { public_token: sandbox.json.public_token });
    const update = await post('/v1/link/token/create', { user: { client_user_id: 'u1' }, products: ['transactions'], update_item_id: exchanged.json.item_id });
    const method = await post('/link/api/method', { link_token: update.json.link_token, institution_id: CHASE }, null);
    expect(method.json).toEqual({ institution_id: CHASE, method: 'credentials', file_upload: false });
  });

  it('refuses a body above the upload limit with 413 before reading the file', async () => {
    const accessToken = await importItem('jan.ofx', base64(ofx('1.00', '20260220', trn('A1', '-1.00', 'X'))));
    const res = await stack.call('/v1/items/statements/upload', {
      key: acmeKey,
      rawBody: JSON.stringify({ access_token: accessToken, file_name: 'big.csv', file_base64: 'A'.repeat(7 * 1024 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect([res.status, (res.json as { error: { code: string } }).error.code]).toEqual([413, 'request_too_large']);
  });
});
