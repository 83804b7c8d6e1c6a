// The local runtime's pure safety rules: which DynamoDB Local output is a storage problem (and when
// it is put down to a full disk), how the start banner shows keys, and the java command line that
// keeps DynamoDB Local on loopback.
import { mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyStorageLine, LOW_FREE_SPACE_BYTES, storageProblemOf } from '../../functions/platform/local/dynamodb-local-output';
import { javaArguments } from '../../functions/platform/local/dynamodb-local';
import { preparePrivateDirectory } from '../../functions/platform/local/private-files';
import { bannerKey, type SeededKey } from '../../functions/platform/local/seed';

// What DynamoDB Local 3.3.1 wrote on stderr while its data directory's tmpfs was full (captured by
// hand, see README "Local runtime"): SQLite's SQLITE_FULL is lost behind the failed rollback.
const OBSERVED_ON_FULL_DISK = [
  'WARNING: [sqlite] SQLiteDBAccess$17@7400db8f: job exception',
  'com.almworks.sqlite4java.SQLiteException: [1] DB[1] exec() cannot rollback - no transaction is active',
  'ERROR LocalDynamoDBServerHandler Unexpected exception occured',
  'software.amazon.dynamodb.services.local.shared.exceptions.LocalDBAccessException: [1] DB[1] exec() cannot rollback - no transaction is active',
];

describe('DynamoDB Local output classification', () => {
  it.each([
    ['com.almworks.sqlite4java.SQLiteException: [13] DB[1] step() database or disk is full', 'disk_full'],
    ['SQLITE_FULL: database or disk is full', 'disk_full'],
    ['java.io.IOException: No space left on device', 'disk_full'],
    ['Error: ENOSPC: no space left on device, write', 'disk_full'],
    [OBSERVED_ON_FULL_DISK[1], 'write_failed'],
    ['com.almworks.sqlite4java.SQLiteException: [10] DB[1] exec() disk I/O error', 'write_failed'],
  ])('%s -> %s', (line, signal) => {
    expect(classifyStorageLine(line)).toBe(signal);
  });

  it.each([
    'Initializing DynamoDB Local with the following configuration:',
    'WARNING: [sqlite] SQLiteDBAccess$17@7400db8f: job exception',
    'DynamoDBLocalServiceException: Cannot do operations on a non-existent table',
    '\tat com.almworks.sqlite4java.SQLiteConnection.exec(SQLiteConnection.java:496)',
  ])('ignores routine output: %s', (line) => {
    expect(classifyStorageLine(line)).toBeUndefined();
  });

  it('names a full disk when the observed failed-write output meets little free space in the data directory', () => {
    const problem = storageProblemOf(OBSERVED_ON_FULL_DISK[1], '/srv/fincore/.data', () => 112 * 1024);
    expect(problem).toMatchObject({ cause: 'disk_full', free_bytes: 112 * 1024 });
    expect(problem!.message).toBe('DynamoDB Local cannot write: no space left on the disk holding /srv/fincore/.data (112 KiB free)');
    expect(problem!.line).toBe(OBSERVED_ON_FULL_DISK[1]);
  });

  it('reports a failed write with room to spare as a storage error, not a full disk', () => {
    const problem = storageProblemOf(OBSERVED_ON_FULL_DISK[1], '/data', () => LOW_FREE_SPACE_BYTES * 10);
    expect(problem).toMatchObject({ cause: 'storage_error' });
    expect(problem!.message).toMatch(/^DynamoDB Local failed to write \(640\.0 MiB free\)$/);
  });

  it('trusts output that names a full disk even without a data directory (in memory) or free-space figure', () => {
    expect(storageProblemOf('java.io.IOException: No space left on device', undefined)).toMatchObject({ cause: 'disk_full' });
    expect(storageProblemOf('SQLITE_FULL', '/data', () => undefined)).toMatchObject({ cause: 'disk_full', free_bytes: undefined });
    expect(storageProblemOf('Started ServerConnector', '/data', () => 0)).toBeUndefined();
  });

  it('finds the observed full-disk output among the lines DynamoDB Local printed', () => {
    const causes = OBSERVED_ON_FULL_DISK.map((line) => storageProblemOf(line, '/data', () => 0)?.cause);
    expect(causes).toEqual([undefined, 'disk_full', undefined, 'disk_full']);
  });
});

describe('start banner keys', () => {
  const key = (environment: 'test' | 'live', generated: boolean): SeededKey => ({
    application: 'A',
    applicationId: 'app_1',
    plan: 'free',
    environment,
    key: `fc_sk_${environment}_abcdefghijklmnopWXYZ`,
    generated,
  });

  it('shows a test key this start generated in full, once', () => {
    expect(bannerKey(key('test', true))).toBe('fc_sk_test_abcdefghijklmnopWXYZ');
  });

  it('masks a seeded test key and every live key to prefix and last four', () => {
    expect(bannerKey(key('test', false))).toBe('fc_sk_test_…WXYZ');
    expect(bannerKey(key('live', false))).toBe('fc_sk_live_…WXYZ');
    expect(bannerKey(key('live', true))).toBe('fc_sk_live_…WXYZ');
  });
});

describe('DynamoDB Local command line', () => {
  it('starts it through the loopback launcher, never the jar main that binds every interface', () => {
    const args = javaArguments('/jars', 8123, '/data');
    expect(args).not.toContain('-jar');
    expect(args.find((arg) => arg.endsWith('.java'))).toMatch(/functions\/platform\/local\/LoopbackDynamoDbLocal\.java$/);
    expect(args.slice(args.indexOf('-port'), args.indexOf('-port') + 2)).toEqual(['-port', '8123']);
    expect(args.slice(args.indexOf('-dbPath'), args.indexOf('-dbPath') + 2)).toEqual(['-dbPath', '/data']);
    expect(javaArguments('/jars', 8123, undefined)).toContain('-inMemory');
  });
});

describe('private data directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'fincore-private-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('creates the directory 0700', () => {
    const dir = join(root, 'new', 'data');
    preparePrivateDirectory(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('tightens an existing directory and the files it is told about, leaving other files alone', () => {
    const dir = join(root, 'old');
    preparePrivateDirectory(dir);
    chmodSync(dir, 0o755);
    const db = join(dir, 'shared-local-instance.db');
    const other = join(dir, 'notes.txt');
    writeFileSync(db, '');
    writeFileSync(other, '');
    chmodSync(db, 0o644);
    chmodSync(other, 0o644);

    preparePrivateDirectory(dir, [db, join(dir, 'missing')]);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(db)).toBe(0o600);
    expect(modeOf(other)).toBe(0o644);
  });
});
