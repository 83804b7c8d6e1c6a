// Metering over real HTTP: exact under concurrency, never negative, refusals consume nothing.
import { monthlyUsage } from '../../functions/data/api-keys-repo';
import { LIMITS, PLANS } from '../../functions/contracts/limits';
import { manualClock } from '../support/embedded';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const enterpriseKey = makeKey('test');
const freeKey = makeKey('test');
// The service's clock stands still, so no token refills during a burst and the month is fixed:
// the admitted count is exact instead of bounded by how long the burst took on the wall clock.
const clock = manualClock();
const month = () => new Date(clock.now());

beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'Big', plan: 'enterprise', keys: [enterpriseKey] },
      { application: 'Small', plan: 'free', keys: [freeKey] },
    ],
    { clock },
  );
});
afterAll(() => stack.stop());

const search = (key: string) => stack.call('/v1/institutions/search', { key, body: { query: 'bank' } });

describe('metering under concurrency over HTTP', () => {
  it('consumes exactly two hundred units for two hundred concurrent requests on one key', async () => {
    const before = await monthlyUsage(stack.deps, enterpriseKey, month());
    const results = await Promise.all(Array.from({ length: 200 }, () => search(enterpriseKey)));
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(200));
    const after = await monthlyUsage(stack.deps, enterpriseKey, month());
    expect(after.api - before.api).toBe(200);
  });

  it('admits exactly the burst, counts only admitted requests, and never reports a negative bucket', async () => {
    const burst = PLANS.free.ratePerSecond * LIMITS.burstMultiplier;
    const results = await Promise.all(Array.from({ length: 80 }, () => search(freeKey)));
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(admitted.length + refused.length).toBe(80);
    expect(admitted.length).toBe(burst);
    for (const r of results) expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    for (const r of refused) {
      expect(r.json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    expect((await monthlyUsage(stack.deps, freeKey, month())).api).toBe(admitted.length);
  });
});
