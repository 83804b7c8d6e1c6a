import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ApiError } from '../../functions/contracts/errors';
import { generateApiKey, sha256Hex } from '../../functions/core/api-keys';
import { authorizeAndMeter, issueKey, monthlyUsage, putApplication, revokeKey, type AuthContext } from '../../functions/data/api-keys-repo';
import { keys, usageAttribute } from '../../functions/data/keys';
import type { PlanName } from '../../functions/contracts/limits';
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
    const used = (results as AuthContext[]).map((r) => r.usage.used).sort((a, b) => a - b);
    expect(used).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
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
