// Metering over real HTTP: exact under concurrency, never negative, refusals consume nothing.
import { monthlyUsage } from '../../functions/data/api-keys-repo';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const enterpriseKey = makeKey('test');
const freeKey = makeKey('test');

beforeAll(async () => {
  stack = await startTestStack([
    { application: 'Big', plan: 'enterprise', keys: [enterpriseKey] },
    { application: 'Small', plan: 'free', keys: [freeKey] },
  ]);
});
afterAll(() => stack.stop());

const search = (key: string) => stack.call('/v1/institutions/search', { key, body: { query: 'bank' } });

describe('metering under concurrency over HTTP', () => {
  it('consumes exactly two hundred units for two hundred concurrent requests on one key', async () => {
    const before = await monthlyUsage(stack.deps, enterpriseKey, new Date());
    const results = await Promise.all(Array.from({ length: 200 }, () => search(enterpriseKey)));
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200));
    const after = await monthlyUsage(stack.deps, enterpriseKey, new Date());
    expect(after.api - before.api).toBe(200);
  });

  it('admits at most the burst plus what refilled, counts only admitted requests, and never reports a negative bucket', async () => {
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 80 }, () => search(freeKey)));
    const elapsedMs = Date.now() - started;
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted.length + refused.length).toBe(80);
    expect(admitted.length).toBeGreaterThanOrEqual(30);
    expect(admitted.length).toBeLessThanOrEqual(30 + Math.ceil(elapsedMs / 100) + 1);
    for (const r of results) expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    for (const r of refused) {
      expect(r.json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect((await monthlyUsage(stack.deps, freeKey, new Date())).api).toBe(admitted.length);
  });
});
