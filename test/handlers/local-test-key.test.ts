// The local runtime's own test key, against DynamoDB Local: kept in an owner-only file so that it
// is the same key after a restart (also onto a fresh table, where the file is all that is left),
// replaced on request or when it was revoked, and never trusted when the file holds something else.
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_PATTERN, sha256Hex } from '../../functions/core/api-keys';
import { listKeys, revokeKey } from '../../functions/data/api-keys-repo';
import { applySeed, applicationIdFor, DEFAULT_APPLICATION, type LocalTestKeyFile } from '../../functions/platform/local/seed';
import { embeddedDeps } from '../support/embedded';

const keyFileIn = (regenerate = false): LocalTestKeyFile => ({ file: join(mkdtempSync(join(tmpdir(), 'fc-test-key-')), 'data', 'test-key'), regenerate });
const appId = applicationIdFor(DEFAULT_APPLICATION);

async function activeKeyHashes(deps: Awaited<ReturnType<typeof embeddedDeps>>): Promise<string[]> {
  return (await listKeys(deps, appId, 'test')).filter((k) => k.status === 'active').map((k) => k.keyHash);
}

describe('the local runtime test key', () => {
  it('is generated at the first start, written owner-only, and the same at the next start', async () => {
    const deps = await embeddedDeps();
    const keyFile = keyFileIn();
    const [first] = await applySeed(deps, null, keyFile);
    expect(first.key).toMatch(API_KEY_PATTERN);
    expect(first.kept).toBe(false);
    expect(readFileSync(keyFile.file, 'utf8').trim()).toBe(first.key);
    expect(statSync(keyFile.file).mode & 0o777).toBe(0o600);

    const [again] = await applySeed(deps, null, keyFile);
    expect(again.key).toBe(first.key);
    expect(again.kept).toBe(true);
    expect(again.generated).toBe(true);
    expect(await activeKeyHashes(deps)).toEqual([sha256Hex(first.key)]);
  });

  it('is issued again onto a fresh table from the kept file', async () => {
    const keyFile = keyFileIn();
    const [first] = await applySeed(await embeddedDeps(), null, keyFile);
    const freshTable = await embeddedDeps();
    const [again] = await applySeed(freshTable, null, keyFile);
    expect(again.key).toBe(first.key);
    expect(await activeKeyHashes(freshTable)).toEqual([sha256Hex(first.key)]);
  });

  it('is replaced on request, and the replaced key stops being active', async () => {
    const deps = await embeddedDeps();
    const keyFile = keyFileIn();
    const [first] = await applySeed(deps, null, keyFile);
    const [replaced] = await applySeed(deps, null, { ...keyFile, regenerate: true });
    expect(replaced.key).not.toBe(first.key);
    expect(replaced.kept).toBe(false);
    expect(readFileSync(keyFile.file, 'utf8').trim()).toBe(replaced.key);
    expect(await activeKeyHashes(deps)).toEqual([sha256Hex(replaced.key)]);
  });

  it('is not brought back once revoked (from the console, say): a new key replaces it', async () => {
    const deps = await embeddedDeps();
    const keyFile = keyFileIn();
    const [first] = await applySeed(deps, null, keyFile);
    await revokeKey(deps, first.key);
    const [next] = await applySeed(deps, null, keyFile);
    expect(next.key).not.toBe(first.key);
    expect(next.kept).toBe(false);
    expect(await activeKeyHashes(deps)).toEqual([sha256Hex(next.key)]);
  });

  it('ignores a key file holding anything but a test key, and tightens a file left open', async () => {
    const deps = await embeddedDeps();
    const keyFile = keyFileIn();
    const [first] = await applySeed(deps, null, keyFile);
    for (const junk of ['not a key', 'fc_sk_live_abcdefghijklmnopqrstuvwxyz012345', '']) {
      writeFileSync(keyFile.file, junk, { mode: 0o644 });
      const [next] = await applySeed(deps, null, keyFile);
      expect(next.kept).toBe(false);
      expect(next.key).not.toBe(first.key);
      expect(next.key.startsWith('fc_sk_test_')).toBe(true);
      expect(statSync(keyFile.file).mode & 0o777).toBe(0o600);
    }
  });

  it('is a new key at every start without a key file (memory mode)', async () => {
    const deps = await embeddedDeps();
    const [a] = await applySeed(deps, null);
    const [b] = await applySeed(deps, null);
    expect(a.key).not.toBe(b.key);
    expect(await activeKeyHashes(deps)).toEqual([sha256Hex(b.key)]);
  });
});
