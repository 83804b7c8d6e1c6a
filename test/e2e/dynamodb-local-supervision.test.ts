// The supervisor of DynamoDB Local at library level: an in-memory engine that dies comes back with
// the table and the keys shown at start, and a restart that keeps failing gives up after the bound
// (npm start then exits non-zero; see test/e2e/local-process.test.ts for the process as a whole).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../functions/platform/local/dynamodb-local';
import { startLocalStack } from '../../functions/platform/local/local-stack';
import { makeKey } from '../support/stack';

function javaProcessesOnPort(port: number): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal.jar') && line.includes(`-port ${port} `))
    .map((line) => Number(/^\s*(\d+)/.exec(line)![1]));
}

/** Waits on the condition itself: the request is retried (every 100 ms) until it answers `status`. */
async function untilStatus(request: () => Promise<Response>, status: number, timeoutMs = 90_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await request()).status;
    if (last === status) return last;
    await new Promise<void>((resolve) => setTimeout(resolve, 100));
  }
  return last;
}

describe('DynamoDB Local supervision', () => {
  const root = mkdtempSync(join(tmpdir(), 'fincore-supervision-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('restarts an in-memory engine with the table and the seeded keys, so the same key works again', async () => {
    const key = makeKey('test');
    const stack = await startLocalStack({ inMemory: true, seed: [{ application: 'Restarted', plan: 'free', keys: [key] }] });
    try {
      const categories = () => fetch(`${stack.baseUrl}/v1/categories/get`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: '{}' });
      expect((await categories()).status).toBe(200);
      const port = Number(new URL(stack.dynamodbEndpoint).port);
      const [pid] = javaProcessesOnPort(port);
      process.kill(pid, 'SIGKILL');

      expect(await untilStatus(categories, 200)).toBe(200);
      const restarted = javaProcessesOnPort(port);
      expect(restarted).toHaveLength(1);
      expect(restarted[0]).not.toBe(pid);
    } finally {
      await stack.stop();
    }
    expect(javaProcessesOnPort(Number(new URL(stack.dynamodbEndpoint).port))).toEqual([]);
  }, 150_000);

  it('gives up after the bounded number of restarts, reporting the last attempt, and leaves no Java process', async () => {
    const dataDir = join(root, 'data');
    let gaveUp: (error: Error) => void = () => undefined;
    const gaveUpWith = new Promise<Error>((resolve) => (gaveUp = resolve));
    const delays: number[] = [];
    const dynamo = await startDynamoDbLocal({
      dataDir,
      maxRestarts: 2,
      restartDelayMs: (attempt) => {
        delays.push(attempt);
        return 0;
      },
      onGaveUp: (error) => gaveUp(error),
    });
    try {
      // Every restart fails: the data directory's path now holds a file.
      renameSync(dataDir, join(root, 'moved'));
      writeFileSync(dataDir, 'not a directory');
      dynamo.process.kill('SIGKILL');

      const error = await gaveUpWith;
      expect(error.message).toMatch(/^DynamoDB Local could not be restarted after 2 attempts; stopping \(last attempt: .*(ENOTDIR|EEXIST)/);
      expect(delays).toEqual([1, 2]);
      expect(javaProcessesOnPort(dynamo.port)).toEqual([]);
    } finally {
      await dynamo.stop();
    }
  }, 120_000);
});
