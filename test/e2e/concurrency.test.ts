// Metering over real HTTP: exact under concurrency, never negative, refusals consume nothing.
import { ScanCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { sha256Hex } from '../../functions/core/api-keys';
import { monthlyUsage, usageByShard } from '../../functions/data/api-keys-repo';
import { keys, usageAttribute } from '../../functions/data/keys';
import { LIMITS, PLANS } from '../../functions/contracts/limits';
import { manualClock } from '../support/embedded';
import { makeKey, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const enterpriseKey = makeKey('test');
const freeKey = makeKey('test');
// Growth keys have two metering shards (functions/core/rate-limit.ts shardsFor).
const growthKey = makeKey('test');
const growthQuotaKey = makeKey('test');
// The service's clock stands still, so no token refills during a burst and the month is fixed:
// the admitted count is exact instead of bounded by how long the burst took on the wall clock.
const clock = manualClock();
const month = () => new Date(clock.now());

beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'Big', plan: 'enterprise', keys: [enterpriseKey] },
      { application: 'Small', plan: 'free', keys: [freeKey] },
      { application: 'Sharded', plan: 'growth', keys: [growthKey] },
      { application: 'Sharded quota', plan: 'growth', keys: [growthQuotaKey] },
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

  it('admits exactly the burst of a sharded key, counts only admitted requests, and keeps its headers consistent', async () => {
    const burst = PLANS.growth.ratePerSecond * LIMITS.burstMultiplier;
    const results = await Promise.all(Array.from({ length: burst + 50 }, () => search(growthKey)));
    const admitted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect([admitted.length, refused.length]).toEqual([burst, 50]);
    for (const r of results) {
      expect(r.headers.get('x-ratelimit-limit')).toBe(String(PLANS.growth.ratePerSecond));
      expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
    }
    expect(Math.min(...admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))))).toBe(0);
    for (const r of refused) {
      expect(r.json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await monthlyUsage(stack.deps, growthKey, month())).api).toBe(burst);
  });

  it('on a sharded key, fires each usage threshold once and admits exactly what is left of the quota', async () => {
    const quota = PLANS.growth.apiPerMonth;
    const app = stack.keys.find((k) => k.key === growthQuotaKey)!;
    const setCommitted = (n: number) =>
      stack.deps.ddb.send(
        new UpdateCommand({
          TableName: stack.deps.config.tableName,
          Key: keys.apiKey(sha256Hex(growthQuotaKey)),
          UpdateExpression: 'SET #u = :n',
          ExpressionAttributeNames: { '#u': usageAttribute('api', month()) },
          ExpressionAttributeValues: { ':n': n },
        }),
      );
    const notices = async () => {
      await stack.background.idle();
      const rows = await stack.deps.ddb.send(
        new ScanCommand({
          TableName: stack.deps.config.tableName,
          FilterExpression: '#type = :type AND application_id = :app',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'usage.limit_approaching', ':app': app.applicationId },
        }),
      );
      return (rows.Items ?? []).map((row) => [row.data.threshold_percent, row.data.used]).sort();
    };
    await search(growthQuotaKey); // the server now knows the key's shards
    await setCommitted(Math.ceil(quota * 0.95) - 10);
    const crossing = await Promise.all(Array.from({ length: 30 }, () => search(growthQuotaKey)));
    expect(crossing.map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(await notices()).toEqual([[95, Math.ceil(quota * 0.95)]]);

    // What is left: 15 units never lent, plus what shard 1 holds lent and unused.
    const lentUnused = (await usageByShard(stack.deps, growthQuotaKey, month())).reduce((sum, s) => sum + (s.shard === 0 ? 0 : s.api.allotted - s.api.used), 0);
    await setCommitted(quota - 15);
    clock.advance(3000); // a full bucket again
    const left = 15 + lentUnused;
    const last = await Promise.all(Array.from({ length: left + 25 }, () => search(growthQuotaKey)));
    const admitted = last.filter((r) => r.status === 200);
    const refused = last.filter((r) => r.status === 429);
    expect([admitted.length, refused.length]).toEqual([left, 25]);
    for (const r of refused) {
      expect(r.json.error).toMatchObject({ type: 'rate_limit_error', code: 'monthly_api_quota_exceeded' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await monthlyUsage(stack.deps, growthQuotaKey, month())).api).toBe(quota);
    expect(await notices()).toEqual([[95, Math.ceil(quota * 0.95)]]);
  });
});
