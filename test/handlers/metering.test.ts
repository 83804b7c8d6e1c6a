import { UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { ApiError } from '../../functions/contracts/errors';
import { generateApiKey, sha256Hex } from '../../functions/core/api-keys';
import { authorizeAndMeter, issueKey, monthlyUsage, putApplication, revokeKey, usageByShard, type AuthContext } from '../../functions/data/api-keys-repo';
import { keys, usageAttribute } from '../../functions/data/keys';
import { LIMITS, PLAN_NAMES, PLANS, type PlanName } from '../../functions/contracts/limits';
import { shardBucketFor, shardsFor } from '../../functions/core/rate-limit';
import { allotmentChunk } from '../../functions/core/usage';
import { embeddedDeps, manualClock } from '../support/embedded';

async function setup(plan: PlanName, environment: 'test' | 'live' = 'test') {
  const deps = await embeddedDeps(manualClock());
  const app = { applicationId: `app_${plan}`, name: plan, plan };
  await putApplication(deps, app);
  const key = generateApiKey(environment);
  await issueKey(deps, app, key);
  return { deps, key, app };
}

async function outcome(p: Promise<AuthContext>): Promise<AuthContext | ApiError> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe('authorizing and metering a request in one write', () => {
  it('counts exactly two hundred units for two hundred concurrent requests on one key', async () => {
    const { deps, key } = await setup('enterprise');
    const results = await Promise.all(Array.from({ length: 200 }, () => outcome(authorizeAndMeter(deps, key, 'api'))));
    expect(results.filter((r) => r instanceof ApiError)).toEqual([]);
    expect(await monthlyUsage(deps, key, new Date(deps.clock.now()))).toEqual({ api: 200, ai: 0 });
  });

  it('gives every concurrent request on a one-shard key its own count: 1 to the burst, none twice', async () => {
    const { deps, key } = await setup('startup');
    const burst = PLANS.startup.ratePerSecond * LIMITS.burstMultiplier;
    const results = await Promise.all(Array.from({ length: burst }, () => outcome(authorizeAndMeter(deps, key, 'api'))));
    expect(results.filter((r) => r instanceof ApiError)).toEqual([]);
    const used = (results as AuthContext[]).map((r) => r.usage.used).sort((a, b) => a - b);
    expect(used).toEqual(Array.from({ length: burst }, (_, i) => i + 1));
  });

  it('admits exactly the burst (3x the rate) at one instant and refuses the rest without counting them', async () => {
    const { deps, key } = await setup('free');
    const results = await Promise.all(Array.from({ length: 50 }, () => outcome(authorizeAndMeter(deps, key, 'api'))));
    const admitted = results.filter((r) => !(r instanceof ApiError)) as AuthContext[];
    const refused = results.filter((r) => r instanceof ApiError) as ApiError[];
    expect(admitted).toHaveLength(30);
    expect(refused.map((e) => e.code)).toEqual(Array(20).fill('rate_limit_exceeded'));
    expect(refused[0].headers['Retry-After']).toBe('1');
    expect(refused[0].headers['X-RateLimit-Remaining']).toBe('0');
    expect(Math.min(...admitted.map((a) => a.rateLimit.remaining))).toBe(0);
    expect(await monthlyUsage(deps, key, new Date(deps.clock.now()))).toEqual({ api: 30, ai: 0 });
  });

  it('refills at the plan rate: 100 ms later one more request fits', async () => {
    const { deps, key } = await setup('free');
    for (let i = 0; i < 30; i += 1) await authorizeAndMeter(deps, key, 'api');
    await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    deps.clock.advance(100);
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ rateLimit: { remaining: 0 } });
    deps.clock.advance(10_000);
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ rateLimit: { remaining: 29, limit: 10 } });
  });

  it('counts AI requests against the AI quota only', async () => {
    const { deps, key } = await setup('startup');
    await authorizeAndMeter(deps, key, 'ai');
    await authorizeAndMeter(deps, key, 'api');
    await authorizeAndMeter(deps, key, 'ai');
    expect(await monthlyUsage(deps, key, new Date(deps.clock.now()))).toEqual({ api: 1, ai: 2 });
  });

  it('refuses at the monthly quota until the month rolls over', async () => {
    const { deps, key } = await setup('free');
    const now = new Date(deps.clock.now());
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.apiKey(sha256Hex(key)),
        UpdateExpression: 'SET #u = :n',
        ExpressionAttributeNames: { '#u': usageAttribute('api', now) },
        ExpressionAttributeValues: { ':n': 9_999 },
      }),
    );
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ usage: { used: 10_000, quota: 10_000 } });
    const refused = await outcome(authorizeAndMeter(deps, key, 'api'));
    expect(refused).toMatchObject({ code: 'monthly_api_quota_exceeded', status: 429 });
    expect(Number((refused as ApiError).headers['Retry-After'])).toBeGreaterThan(0);
    expect(await monthlyUsage(deps, key, now)).toEqual({ api: 10_000, ai: 0 });
    deps.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ usage: { used: 1 } });
  });

  it('rejects unknown and revoked keys with 401 and writes nothing for them', async () => {
    const { deps, key } = await setup('growth');
    const stranger = generateApiKey('test');
    await expect(authorizeAndMeter(deps, stranger, 'api')).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
    await revokeKey(deps, key);
    await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key', status: 401 });
    expect(await monthlyUsage(deps, stranger, new Date(deps.clock.now()))).toEqual({ api: 0, ai: 0 });
  });

  it('refuses live keys on the sandbox-only free plan with 403', async () => {
    const { deps, key } = await setup('free', 'live');
    await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'live_access_not_in_plan', status: 403 });
  });

  it('revokes the previous key when a new one is issued for the same application and environment', async () => {
    const { deps, key, app } = await setup('startup');
    const replacement = generateApiKey('test');
    await issueKey(deps, app, replacement);
    await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
    await expect(authorizeAndMeter(deps, replacement, 'api')).resolves.toMatchObject({ applicationId: app.applicationId });
  });

  it('keeps usage when the same key is issued again (restart with the same seed)', async () => {
    const { deps, key, app } = await setup('startup');
    await authorizeAndMeter(deps, key, 'api');
    // As the seed does on a restart with another plan: the application first, then its key.
    await putApplication(deps, { ...app, plan: 'growth' });
    await issueKey(deps, { ...app, plan: 'growth' }, key);
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ plan: 'growth', usage: { used: 2, quota: 5_000_000 } });
  });

  it('uses one DynamoDB call per admitted request when the bucket state is as last seen', async () => {
    const { deps, key } = await setup('growth');
    await authorizeAndMeter(deps, key, 'api');
    const before = deps.ddbCalls.count;
    for (let i = 0; i < 20; i += 1) {
      await authorizeAndMeter(deps, key, 'api');
      deps.clock.advance(1000);
    }
    expect(deps.ddbCalls.count - before).toBe(20);
  });
});

describe('metering a key with several shards', () => {
  const month = (deps: { clock: { now(): number } }) => new Date(deps.clock.now());
  const admittedOf = (results: Array<AuthContext | ApiError>) => results.filter((r) => !(r instanceof ApiError)) as AuthContext[];
  const refusedOf = (results: Array<AuthContext | ApiError>) => results.filter((r) => r instanceof ApiError) as ApiError[];
  const concurrently = (deps: Awaited<ReturnType<typeof setup>>['deps'], key: string, n: number, kind: 'api' | 'ai' = 'api') =>
    Promise.all(Array.from({ length: n }, () => outcome(authorizeAndMeter(deps, key, kind))));

  /** Sets attributes of the key's ApiKey row directly (a month's committed count, its bucket). */
  async function setKeyRow(deps: Awaited<ReturnType<typeof setup>>['deps'], key: string, values: Record<string, number>) {
    const names = Object.fromEntries(Object.keys(values).map((name, i) => [`#v${i}`, name]));
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.apiKey(sha256Hex(key)),
        UpdateExpression: `SET ${Object.keys(values).map((_, i) => `#v${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: Object.fromEntries(Object.values(values).map((value, i) => [`:v${i}`, value])),
      }),
    );
  }

  it('gives each plan the shards its burst needs, Free and Startup none beyond the ApiKey row', async () => {
    expect(PLAN_NAMES.map((plan) => [plan, shardsFor(plan)])).toEqual([
      ['free', 1],
      ['startup', 1],
      ['growth', 2],
      ['enterprise', 10],
    ]);
    for (const plan of ['free', 'startup'] as const) {
      const { deps, key } = await setup(plan);
      await concurrently(deps, key, 5);
      expect((await usageByShard(deps, key, month(deps))).map((s) => s.shard)).toEqual([0]);
    }
  });

  it('spreads an enterprise key over its shards: more concurrent requests than one shard bursts to are all admitted, each counted once', async () => {
    const { deps, key } = await setup('enterprise');
    const perShardBurst = shardBucketFor('enterprise').burst;
    const results = await concurrently(deps, key, perShardBurst + 100);
    expect(refusedOf(results)).toEqual([]);
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: perShardBurst + 100, ai: 0 });
    const shards = await usageByShard(deps, key, month(deps));
    expect(shards.map((s) => s.shard)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(shards.filter((s) => s.api.used > 0).length).toBeGreaterThan(1);
    for (const s of shards) expect(s.api.used).toBeLessThanOrEqual(perShardBurst);
  });

  it('admits exactly the burst of a sharded key at one instant, refuses the rest without counting them, with consistent headers', async () => {
    const { deps, key } = await setup('growth');
    const burst = PLANS.growth.ratePerSecond * LIMITS.burstMultiplier;
    const results = await concurrently(deps, key, burst + 50);
    const admitted = admittedOf(results);
    const refused = refusedOf(results);
    expect(admitted).toHaveLength(burst);
    expect(refused.map((e) => e.code)).toEqual(Array(50).fill('rate_limit_exceeded'));
    for (const e of refused) {
      expect(e.headers).toMatchObject({ 'X-RateLimit-Limit': '200', 'X-RateLimit-Remaining': '0', 'Retry-After': '1' });
    }
    for (const a of admitted) {
      expect(a.rateLimit.limit).toBe(200);
      expect(a.rateLimit.remaining).toBeGreaterThanOrEqual(0);
      expect(a.rateLimit.remaining).toBeLessThan(burst);
    }
    expect(Math.min(...admitted.map((a) => a.rateLimit.remaining))).toBe(0);
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: burst, ai: 0 });
    // Each shard admitted its half: the ApiKey row's count is its own admissions plus what it lent.
    const [keyRow, shard1] = await usageByShard(deps, key, month(deps));
    expect([keyRow.api.used - shard1.api.allotted, shard1.api.used]).toEqual([burst / 2, burst / 2]);
  });

  it('counts X-RateLimit-Remaining down by one per request across the shards, and refills at the plan rate', async () => {
    const { deps, key } = await setup('growth');
    const burst = PLANS.growth.ratePerSecond * LIMITS.burstMultiplier;
    const remaining: number[] = [];
    for (let i = 0; i < burst; i += 1) remaining.push((await authorizeAndMeter(deps, key, 'api')).rateLimit.remaining);
    expect(remaining).toEqual(Array.from({ length: burst }, (_, i) => burst - 1 - i));
    await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'rate_limit_exceeded' });
    deps.clock.advance(1000);
    await expect(authorizeAndMeter(deps, key, 'api')).resolves.toMatchObject({ rateLimit: { limit: 200, remaining: 199 } });
  });

  it('admits exactly what is left of the quota to concurrent requests, refusals counting nothing', async () => {
    const { deps, key } = await setup('growth');
    const quota = PLANS.growth.apiPerMonth;
    await authorizeAndMeter(deps, key, 'api'); // this process now knows the key's shards
    await setKeyRow(deps, key, { [usageAttribute('api', month(deps))]: quota - 20 });
    const results = await concurrently(deps, key, 60);
    expect(admittedOf(results)).toHaveLength(20);
    const refused = refusedOf(results);
    expect(new Set(refused.map((e) => e.code))).toEqual(new Set(['monthly_api_quota_exceeded']));
    for (const e of refused) expect(Number(e.headers['Retry-After'])).toBeGreaterThan(0);
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: quota, ai: 0 });
    const [keyRow, ...others] = await usageByShard(deps, key, month(deps));
    expect(keyRow.api.used).toBe(quota);
    for (const s of others) expect(s.api.used).toBeLessThanOrEqual(s.api.allotted);
  });

  it('lends shards units ahead of use and still admits exactly the quota when every shard holds some', async () => {
    const { deps, key } = await setup('growth');
    const quota = PLANS.growth.apiPerMonth;
    // Requests that start before this process has seen the key all go to the ApiKey row: learn the
    // shards first, so that the concurrent ones spread over both (shard 1 then borrows a chunk).
    await authorizeAndMeter(deps, key, 'api');
    await concurrently(deps, key, 100);
    const lentBefore = (await usageByShard(deps, key, month(deps)))[1].api;
    expect(lentBefore.allotted).toBeGreaterThan(lentBefore.used);
    // The month's count is at the quota: only what shard 1 holds unused is left.
    await setKeyRow(deps, key, { [usageAttribute('api', month(deps))]: quota });
    deps.clock.advance(3000);
    const results = await concurrently(deps, key, lentBefore.allotted - lentBefore.used + 30);
    expect(admittedOf(results)).toHaveLength(lentBefore.allotted - lentBefore.used);
    expect(new Set(refusedOf(results).map((e) => e.code))).toEqual(new Set(['monthly_api_quota_exceeded']));
    const shard1 = (await usageByShard(deps, key, month(deps)))[1].api;
    expect(shard1.used).toBe(shard1.allotted);
  });

  it('marks exactly one of many concurrent requests as reaching each usage threshold', async () => {
    const { deps, key } = await setup('growth');
    const quota = PLANS.growth.apiPerMonth;
    await authorizeAndMeter(deps, key, 'api');
    for (const pct of [80, 95]) {
      const threshold = Math.ceil((quota * pct) / 100);
      await setKeyRow(deps, key, { [usageAttribute('api', month(deps))]: threshold - 10 });
      deps.clock.advance(3000);
      const results = await concurrently(deps, key, 40);
      expect(refusedOf(results)).toEqual([]);
      const reached = admittedOf(results).filter((a) => a.usage.thresholdReached !== undefined);
      expect(reached.map((a) => [a.usage.thresholdReached, a.usage.used, a.usage.quota])).toEqual([[pct, threshold, quota]]);
    }
  });

  it('marks the request whose borrow reaches a threshold when the ApiKey row cannot take it', async () => {
    const { deps, key } = await setup('growth');
    const threshold = Math.ceil(PLANS.growth.apiPerMonth * 0.8);
    await authorizeAndMeter(deps, key, 'api');
    // The ApiKey row's bucket is empty for a minute, and the month's count 5 short of 80 %.
    const now = deps.clock.now();
    await setKeyRow(deps, key, { [usageAttribute('api', month(deps))]: threshold - 5, tat: now + 60_000, gate: now + 60_000 - 2_990 });
    const first = await authorizeAndMeter(deps, key, 'api');
    expect(first.usage).toMatchObject({ used: threshold, thresholdReached: 80 });
    const next = await Promise.all(Array.from({ length: 10 }, () => authorizeAndMeter(deps, key, 'api')));
    expect(next.filter((a) => a.usage.thresholdReached !== undefined)).toEqual([]);
    // Shard 1 took the request with 5 units up to the threshold, then one chunk for the rest.
    expect((await usageByShard(deps, key, month(deps)))[1].api).toEqual({ used: 11, allotted: 5 + allotmentChunk('growth') });
  });

  it('revokes every shard at once: no shard admits a request once revokeKey has returned', async () => {
    const { deps, key } = await setup('enterprise');
    await concurrently(deps, key, 500); // this process has written most shards
    const before = await monthlyUsage(deps, key, month(deps));
    await revokeKey(deps, key);
    const results = await concurrently(deps, key, 40);
    expect(new Set(results.map((r) => (r instanceof ApiError ? r.code : 'admitted')))).toEqual(new Set(['revoked_api_key']));
    expect(await monthlyUsage(deps, key, month(deps))).toEqual(before);
    expect(new Set((await usageByShard(deps, key, month(deps))).map((s) => s.status))).toEqual(new Set(['revoked']));
  });

  it('follows a downgrade: retired shards send requests back to the ApiKey row, and the month keeps its count', async () => {
    const { deps, key, app } = await setup('growth');
    await concurrently(deps, key, 50);
    // As the seed does on a restart with another plan: the application first, then its key.
    await putApplication(deps, { ...app, plan: 'startup' });
    await issueKey(deps, { ...app, plan: 'startup' }, key);
    deps.clock.advance(3000);
    const results = await concurrently(deps, key, 20);
    expect(refusedOf(results)).toEqual([]);
    for (const a of admittedOf(results)) expect(a).toMatchObject({ plan: 'startup', rateLimit: { limit: 50 }, usage: { quota: 500_000 } });
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: 70, ai: 0 });
    expect((await usageByShard(deps, key, month(deps))).map((s) => [s.shard, s.status])).toEqual([
      [0, 'active'],
      [1, 'retired'],
    ]);
  });

  it('counts what an unlimited plan admitted against the quota of the plan that follows it', async () => {
    const { deps, key, app } = await setup('enterprise');
    await concurrently(deps, key, 400);
    // As the seed does on a restart with another plan: the application first, then its key.
    await putApplication(deps, { ...app, plan: 'growth' });
    await issueKey(deps, { ...app, plan: 'growth' }, key);
    const [keyRow] = await usageByShard(deps, key, month(deps));
    expect(keyRow.api.used).toBe(400); // every unit of the month is in the committed count
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: 400, ai: 0 });
    // 3 units short of the quota, 10 requests: 3 admitted, wherever the first 400 were.
    await setKeyRow(deps, key, { [usageAttribute('api', month(deps))]: PLANS.growth.apiPerMonth - 3 });
    deps.clock.advance(3000);
    const results = await concurrently(deps, key, 10);
    expect(admittedOf(results)).toHaveLength(3);
  });

  it('meters AI and API requests of one sharded key separately and exactly', async () => {
    const { deps, key } = await setup('growth');
    await Promise.all([concurrently(deps, key, 150, 'api'), concurrently(deps, key, 120, 'ai')]);
    expect(await monthlyUsage(deps, key, month(deps))).toEqual({ api: 150, ai: 120 });
  });

  it('uses one DynamoDB call per admitted request in steady state, on every plan', async () => {
    for (const plan of PLAN_NAMES) {
      const { deps, key } = await setup(plan);
      const step = 2000 / PLANS[plan].ratePerSecond; // half the plan's rate
      for (let i = 0; i < 8 * shardsFor(plan); i += 1) {
        await authorizeAndMeter(deps, key, 'api');
        deps.clock.advance(step);
      }
      const before = deps.ddbCalls.count;
      for (let i = 0; i < 300; i += 1) {
        await authorizeAndMeter(deps, key, 'api');
        deps.clock.advance(step);
      }
      expect([plan, deps.ddbCalls.count - before]).toEqual([plan, 300]);
    }
  });
});
