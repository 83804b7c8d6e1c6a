// `npm start` as a person runs it: a child process with its own DynamoDB Local. Checks the banner,
// seeding, persistence across restarts, Ctrl-C leaving no Java process, logs free of secrets,
// nothing listening beyond loopback, owner-only files, and DynamoDB Local restarted when it dies.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLoopback, listeningAddresses } from '../support/listening-sockets';
import { makeKey } from '../support/stack';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

interface Running {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  bannerEnd: number;
}

async function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(TSX, ['bin/local.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', POWERTOOLS_LOG_LEVEL: 'INFO', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  // Started once the banner's last line is out: each chunk of output is checked as it arrives.
  await new Promise<void>((resolve, reject) => {
    const settle = () => {
      clearTimeout(deadline);
      child.stdout!.off('data', checkBanner);
      child.stderr!.off('data', checkBanner);
      child.off('close', onClose);
    };
    const checkBanner = () => {
      if (!/Ctrl-C stops/.test(output)) return;
      settle();
      resolve();
    };
    const onClose = () => {
      settle();
      reject(new Error(`server exited before it started:\n${output}`));
    };
    const deadline = setTimeout(() => {
      settle();
      child.kill('SIGINT');
      reject(new Error(`server did not start within 45 s:\n${output}`));
    }, 45_000);
    child.stdout!.on('data', checkBanner);
    child.stderr!.on('data', checkBanner);
    child.once('close', onClose);
  });
  const baseUrl = /listening on (http:\/\/\S+)/.exec(output)![1];
  return { child, baseUrl, output: () => output, bannerEnd: output.indexOf('Ctrl-C stops') };
}

async function stop(running: Running): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => running.child.once('exit', (code) => resolve(code)));
  running.child.kill('SIGINT');
  return exited;
}

function javaProcessesUsing(dir: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((line) => line.includes('DynamoDBLocal.jar') && line.includes(dir));
}

/** The one DynamoDB Local serving `dir`: its pid and port, from its command line. */
function dynamoDbLocalUsing(dir: string): { pid: number; port: number } {
  const [line] = javaProcessesUsing(dir);
  return { pid: Number(/^\s*(\d+)/.exec(line)![1]), port: Number(/-port (\d+)/.exec(line)![1]) };
}

/** Resolves once the output matches, each chunk checked as it arrives (no polling, no sleeping). */
function outputMatches(running: Running, pattern: RegExp, timeoutMs = 45_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(running.output())) return;
      settle();
      resolve();
    };
    const settle = () => {
      clearTimeout(deadline);
      running.child.stdout!.off('data', check);
      running.child.stderr!.off('data', check);
    };
    const deadline = setTimeout(() => {
      settle();
      reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${running.output()}`));
    }, timeoutMs);
    running.child.stdout!.on('data', check);
    running.child.stderr!.on('data', check);
    check();
  });
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

const post = (baseUrl: string, path: string, key: string, body: unknown) =>
  fetch(baseUrl + path, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('the local runtime as a process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'fincore-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints its URL and keys, persists data across restarts, stops cleanly on Ctrl-C, and logs no secret', async () => {
    const firstKey = makeKey('test');
    const first = await start({
      FC_LOCAL_DATA_DIR: dataDir,
      FC_LOCAL_SEED: JSON.stringify([{ application: 'Persisted', plan: 'startup', keys: [firstKey] }]),
    });
    // A seeded key is the operator's already: the banner shows prefix and last four, never all of it.
    expect(first.output()).toContain(`Persisted [startup] test: fc_sk_test_…${firstKey.slice(-4)}`);
    expect(first.output()).not.toContain(firstKey);
    expect(javaProcessesUsing(dataDir)).toHaveLength(1);

    const accessToken = 'fc_at_' + 'Z'.repeat(30);
    const unknownKey = makeKey('live');
    expect((await post(first.baseUrl, '/v1/categories/get', firstKey, {})).status).toBe(200);
    expect((await post(first.baseUrl, '/v1/items/get', firstKey, { access_token: accessToken })).status).toBe(400);
    expect((await post(first.baseUrl, '/v1/link/token/exchange', firstKey, { public_token: 'fc_pub_' + 'Y'.repeat(30) })).status).toBe(400);
    expect((await post(first.baseUrl, '/v1/categories/get', unknownKey, {})).status).toBe(401);

    expect(await stop(first)).toBe(0);
    expect(javaProcessesUsing(dataDir)).toEqual([]);

    const logs = first.output().slice(first.bannerEnd);
    expect(logs).toContain('"message":"request"');
    expect(logs).toContain('"request_id":"req_');
    for (const secret of [firstKey, unknownKey, accessToken, 'fc_pub_' + 'Y'.repeat(30)]) expect(logs).not.toContain(secret);

    // Second start: another application is seeded; the first one's key still works because its
    // hash was persisted under FC_LOCAL_DATA_DIR.
    const second = await start({
      FC_LOCAL_DATA_DIR: dataDir,
      FC_LOCAL_SEED: JSON.stringify([{ application: 'Other', plan: 'free', keys: [makeKey('test')] }]),
    });
    try {
      expect((await post(second.baseUrl, '/v1/categories/get', firstKey, {})).status).toBe(200);
    } finally {
      expect(await stop(second)).toBe(0);
    }
  });

  it('generates a fresh free-plan test key when no seed is given, and keeps nothing in memory mode', async () => {
    const running = await start({ FC_LOCAL_IN_MEMORY: '1', FC_LOCAL_SEED: '' });
    try {
      const key = /Local development \[free\] test: (fc_sk_test_\w+)/.exec(running.output())![1];
      const res = await post(running.baseUrl, '/v1/categories/get', key, {});
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    } finally {
      expect(await stop(running)).toBe(0);
    }
  });
  it('shows a seeded live key masked, like a seeded test key', async () => {
    const liveKey = makeKey('live');
    const testKey = makeKey('test');
    const running = await start({ FC_LOCAL_IN_MEMORY: '1', FC_LOCAL_SEED: JSON.stringify([{ application: 'Both', plan: 'free', keys: [testKey, liveKey] }]) });
    try {
      expect(running.output()).toContain(`Both [free] live: fc_sk_live_…${liveKey.slice(-4)}`);
      expect(running.output()).toContain(`Both [free] test: fc_sk_test_…${testKey.slice(-4)}`);
      for (const key of [liveKey, testKey]) expect(running.output()).not.toContain(key);
      expect(running.output()).toContain('Bearer <your key>');
      expect((await post(running.baseUrl, '/v1/categories/get', testKey, {})).status).toBe(200);
    } finally {
      expect(await stop(running)).toBe(0);
    }
  });

  it('listens on loopback only (API and DynamoDB Local) and keeps its data directory owner-only', async () => {
    // As an earlier version left it: a world-readable directory and key-encryption key.
    const privateDir = join(dataDir, 'private');
    mkdirSync(privateDir, { mode: 0o755 });
    chmodSync(privateDir, 0o755);
    const kek = join(privateDir, 'local-kek');
    writeFileSync(kek, `${randomBytes(32).toString('base64')}\n`, { mode: 0o644 });
    chmodSync(kek, 0o644);

    const running = await start({ FC_LOCAL_DATA_DIR: privateDir, FC_LOCAL_SEED: '' });
    try {
      const apiPort = Number(new URL(running.baseUrl).port);
      const dynamo = dynamoDbLocalUsing(privateDir);
      for (const port of [apiPort, dynamo.port]) {
        const addresses = listeningAddresses(port);
        expect(addresses.length).toBeGreaterThan(0);
        expect(addresses.filter((address) => !isLoopback(address))).toEqual([]);
      }

      expect(modeOf(privateDir)).toBe(0o700);
      expect(modeOf(kek)).toBe(0o600);
      expect(modeOf(join(privateDir, 'test-key'))).toBe(0o600);
      // Created by DynamoDB Local itself, under the umask it was started with.
      expect(modeOf(join(privateDir, 'shared-local-instance.db'))).toBe(0o600);
    } finally {
      expect(await stop(running)).toBe(0);
    }
  });

  it('keeps its own test key across restarts, and replaces it on request', async () => {
    const keyDir = join(dataDir, 'kept-key');
    const keyIn = (running: Running) => /Local development \[free\] test: (fc_sk_test_\w+)/.exec(running.output())![1];
    const first = await start({ FC_LOCAL_DATA_DIR: keyDir, FC_LOCAL_SEED: '' });
    const firstKey = keyIn(first);
    expect(first.output()).toContain(`a new test key, kept in ${join(keyDir, 'test-key')}`);
    expect(await stop(first)).toBe(0);

    const second = await start({ FC_LOCAL_DATA_DIR: keyDir, FC_LOCAL_SEED: '' });
    try {
      expect(keyIn(second)).toBe(firstKey);
      expect(second.output()).toContain('the same test key as last start');
      expect((await post(second.baseUrl, '/v1/categories/get', firstKey, {})).status).toBe(200);
    } finally {
      expect(await stop(second)).toBe(0);
    }

    const third = await start({ FC_LOCAL_DATA_DIR: keyDir, FC_LOCAL_SEED: '', FC_LOCAL_NEW_TEST_KEY: '1' });
    try {
      const replaced = keyIn(third);
      expect(replaced).not.toBe(firstKey);
      expect((await post(third.baseUrl, '/v1/categories/get', replaced, {})).status).toBe(200);
      expect((await post(third.baseUrl, '/v1/categories/get', firstKey, {})).status).toBe(401);
    } finally {
      expect(await stop(third)).toBe(0);
    }
  });

  it('restarts DynamoDB Local when it dies, on the same port and data, and leaves no Java process on stop', async () => {
    const supervisedDir = join(dataDir, 'supervised');
    const key = makeKey('test');
    const running = await start({
      FC_LOCAL_DATA_DIR: supervisedDir,
      FC_LOCAL_SEED: JSON.stringify([{ application: 'Supervised', plan: 'free', keys: [key] }]),
    });
    try {
      const before = dynamoDbLocalUsing(supervisedDir);
      process.kill(before.pid, 'SIGKILL');
      await outputMatches(running, /DynamoDB Local exited with signal SIGKILL; restarting/);
      await outputMatches(running, /"message":"DynamoDB Local restarted"/);

      const after = dynamoDbLocalUsing(supervisedDir);
      expect(after.pid).not.toBe(before.pid);
      expect(after.port).toBe(before.port);
      // The key was seeded before the crash: it is read back from the same data directory.
      expect((await post(running.baseUrl, '/v1/categories/get', key, {})).status).toBe(200);
    } finally {
      expect(await stop(running)).toBe(0);
    }
    expect(javaProcessesUsing(supervisedDir)).toEqual([]);
  });
});
