// The statement importer behind the connector port, on the real-world corpus in ../shared/statements
// (read in place) and on generated files: what each file imports to, stable ids across re-imports,
// corrections as modifications and removals, and refusals that name the problem.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorError, type SourceBatch } from '../../../functions/core/connector-port';
import { fileImportConnector } from '../../../functions/connectors/file_import';

const CORPUS = join(__dirname, '../../../../shared/statements');

interface ManifestEntry {
  file: string;
  format: string;
  kind: string;
  expected: { reject?: boolean; accounts?: number; transactions?: number; valid_transactions?: number; sum_of_amounts?: string; positions?: number; currency?: string | string[] | null };
}
const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] };
const read = (name: string) => new Uint8Array(readFileSync(join(CORPUS, name)));
const encode = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

async function connect(bytes: Uint8Array, fileName: string | null = null): Promise<{ login: string; batch: SourceBatch }> {
  const result = await fileImportConnector.connect!('ins_test', { method: 'file', bytes, fileName });
  if (result.status !== 'connected' || !result.batch) throw new Error(`not connected: ${JSON.stringify(result)}`);
  return { login: result.connection.login, batch: result.batch };
}

const changesOf = (batch: SourceBatch) => {
  if (batch.transactions.kind !== 'changes') throw new Error('the importer reports change batches');
  return batch.transactions;
};

/** Cents as integers, so sums compare exactly. */
const cents = (n: number) => Math.round(n * 100) || 0;
const decimalCents = (s: string) => Math.round(Number(s) * 100);

describe('the file importer on the statement corpus', () => {
  const importable = manifest.files.filter((f) => !f.expected.reject && f.kind !== 'investment');
  const rejected = manifest.files.filter((f) => f.expected.reject);

  it.each(importable.map((f) => [f.file, f] as const))('%s imports its accounts, every transaction once, and the sum with the API sign', async (_name, entry) => {
    const { batch } = await connect(read(entry.file), entry.file);
    const { upserted, removed } = changesOf(batch);
    expect(batch.accounts).toHaveLength(entry.expected.accounts!);
    expect(removed).toEqual([]);
    expect(upserted).toHaveLength(entry.expected.valid_transactions ?? entry.expected.transactions!);
    expect(new Set(upserted.map((t) => t.transaction_id)).size).toBe(upserted.length);
    const accountIds = new Set(batch.accounts.map((a) => a.account_id));
    for (const t of upserted) {
      expect(accountIds.has(t.account_id)).toBe(true);
      expect(t.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isFinite(t.amount)).toBe(true);
      expect(t.iso_currency_code).toMatch(/^[A-Z]{3}$/);
    }
    if (entry.expected.sum_of_amounts !== undefined) {
      // The file's sign is money in positive; the API's is money out positive.
      expect(cents(upserted.reduce((sum, t) => sum + t.amount, 0))).toBe(0 - decimalCents(entry.expected.sum_of_amounts) || 0);
    }
  });

  it.each(rejected.map((f) => [f.file] as const))('%s is refused with a statement_* code, never a crash', async (name) => {
    const refusal = fileImportConnector.connect!('ins_test', { method: 'file', bytes: read(name), fileName: name });
    await expect(refusal).rejects.toBeInstanceOf(ConnectorError);
    await expect(refusal).rejects.toMatchObject({ kind: 'invalid_input', details: { code: expect.stringMatching(/^statement_/) } });
  });

  it('imports brokerage positions as holdings with their securities', async () => {
    const withPositions = manifest.files.filter((f) => !f.expected.reject && (f.expected.positions ?? 0) > 0);
    expect(withPositions.length).toBeGreaterThan(0);
    for (const entry of withPositions) {
      const { batch } = await connect(read(entry.file), entry.file);
      expect(batch.investments?.holdings).toHaveLength(entry.expected.positions!);
      for (const h of batch.investments!.holdings) {
        expect(batch.accounts.map((a) => a.account_id)).toContain(h.account_id);
        expect(Number.isFinite(h.value)).toBe(true);
        expect(batch.investments!.securities.map((s) => s.security_id)).toContain(h.security.security_id);
      }
    }
  });
});

describe('ids', () => {
  const file = manifest.files.find((f) => !f.expected.reject && f.kind === 'bank' && (f.expected.transactions ?? 0) > 3)!;

  it('a re-imported file maps to the same accounts and transactions of the same item', async () => {
    const { login, batch } = await connect(read(file.file), file.file);
    const again = await fileImportConnector.importStatement!({ institutionId: 'ins_test', login }, { bytes: read(file.file), fileName: file.file });
    expect(again.accounts.map((a) => a.account_id)).toEqual(batch.accounts.map((a) => a.account_id));
    expect(changesOf(again).upserted.map((t) => t.transaction_id)).toEqual(changesOf(batch).upserted.map((t) => t.transaction_id));
  });

  it('two items importing the same file share no id', async () => {
    const first = await connect(read(file.file));
    const second = await connect(read(file.file));
    expect(first.login).not.toBe(second.login);
    const ids = (b: SourceBatch) => [...b.accounts.map((a) => a.account_id), ...changesOf(b).upserted.map((t) => t.transaction_id)];
    const shared = ids(first.batch).filter((id) => ids(second.batch).includes(id));
    expect(shared).toEqual([]);
  });
});

describe('OFX corrections', () => {
  const ofx = (transactions: string) => `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20240301<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>EUR
<BANKACCTFROM><BANKID>123<ACCTID>000111222<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20240101<DTEND>20240301
${transactions}
</BANKTRANLIST><LEDGERBAL><BALAMT>1000.00<DTASOF>20240301</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
  const trn = (fitid: string, amount: string, name: string, extra = '') => `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240215<TRNAMT>${amount}<FITID>${fitid}<NAME>${name}${extra}</STMTTRN>`;

  it('REPLACE arrives as the corrected transaction under the original id; DELETE as its removal', async () => {
    const original = ofx([trn('A1', '-10.00', 'COFFEE SHOP'), trn('A2', '-25.50', 'GROCER'), trn('A3', '-7.00', 'PARKING')].join('\n'));
    const { login, batch } = await connect(encode(original));
    const ids = Object.fromEntries(changesOf(batch).upserted.map((t) => [t.name, t.transaction_id]));

    const corrections = ofx([trn('B1', '-12.00', 'COFFEE SHOP', '<CORRECTFITID>A1<CORRECTACTION>REPLACE'), trn('B2', '-25.50', 'GROCER', '<CORRECTFITID>A2<CORRECTACTION>DELETE')].join('\n'));
    const corrected = changesOf(await fileImportConnector.importStatement!({ institutionId: 'ins_test', login }, { bytes: encode(corrections), fileName: 'c.ofx' }));
    expect(corrected.upserted).toEqual([expect.objectContaining({ transaction_id: ids['COFFEE SHOP'], amount: 12 })]);
    expect(corrected.removed).toEqual([ids.GROCER]);
  });

  it('a correction listed before the row it corrects (newest first) still wins', async () => {
    const newestFirst = ofx([trn('B1', '-12.00', 'COFFEE SHOP', '<CORRECTFITID>A1<CORRECTACTION>REPLACE'), trn('B2', '0', 'KIOSK', '<CORRECTFITID>A2<CORRECTACTION>DELETE'), trn('A1', '-10.00', 'COFFEE SHOP'), trn('A2', '-3.00', 'KIOSK')].join('\n'));
    const { batch } = await connect(encode(newestFirst));
    const { upserted, removed } = changesOf(batch);
    expect(upserted.map((t) => [t.name, t.amount])).toEqual([['COFFEE SHOP', 12]]);
    expect(removed).toHaveLength(1);
    expect(batch.corrections).toEqual({ replaced: [upserted[0].transaction_id], deleted: removed });
  });

  it('a correction later in the same file wins over the row it corrects', async () => {
    const both = ofx([trn('A1', '-10.00', 'COFFEE SHOP'), trn('B1', '-11.00', 'COFFEE SHOP', '<CORRECTFITID>A1<CORRECTACTION>REPLACE'), trn('A2', '-3.00', 'KIOSK'), trn('B2', '0', 'KIOSK', '<CORRECTFITID>A2<CORRECTACTION>DELETE')].join('\n'));
    const { upserted, removed } = changesOf((await connect(encode(both))).batch);
    expect(upserted.map((t) => [t.name, t.amount])).toEqual([['COFFEE SHOP', 11]]);
    expect(removed).toHaveLength(1);
  });
});

describe('amounts', () => {
  it('refuses an amount too large to be money, naming its line, instead of rounding it', async () => {
    const csv = 'Date,Description,Amount\n2024-01-02,COFFEE,-3.50\n2024-01-03,HUGE,-12345678901234567890.12\n';
    const refusal = fileImportConnector.connect!('ins_test', { method: 'file', bytes: encode(csv), fileName: 'x.csv' });
    await expect(refusal).rejects.toMatchObject({ kind: 'invalid_input', details: { code: 'statement_malformed' }, message: expect.stringMatching(/line 3/) });
  });
});

describe('what an import item cannot do', () => {
  it('pulls are refused with statement_import_not_supported, not a crash', async () => {
    const connection = { institutionId: 'ins_test', login: 'imp_x' };
    await expect(fileImportConnector.refresh(connection, '2024-03-01', 1)).rejects.toMatchObject({ kind: 'invalid_input', details: { code: 'statement_import_not_supported' } });
    await expect(fileImportConnector.accounts(connection, '2024-03-01')).rejects.toBeInstanceOf(ConnectorError);
  });

  it('refuses consent input that is not a file', async () => {
    await expect(fileImportConnector.connect!('ins_test', { method: 'address', address: 'x' })).resolves.toMatchObject({ status: 'invalid_credentials' });
  });
});
