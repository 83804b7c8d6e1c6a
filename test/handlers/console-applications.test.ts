// Applications against DynamoDB Local: an organisation lists the applications it created; a plan
// change moves the application row and the plan stamped on its active keys (ApiKey row and every
// metering shard), so rate limit, quota and live access follow at once; a revoked key stays revoked.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { createApplication, listApplications, updateApplication } from '../../functions/app/console/applications';
import { createKey, revokeKey } from '../../functions/app/console/keys';
import { UpdateApplicationInput } from '../../functions/contracts/console-schemas';
import { PLANS } from '../../functions/contracts/limits';
import { sha256Hex } from '../../functions/core/api-keys';
import { shardsFor } from '../../functions/core/rate-limit';
import { authorizeAndMeter, getApplication, listApplicationsOf, putApplication, replanKey, usageByShard } from '../../functions/data/api-keys-repo';
import { keys } from '../../functions/data/keys';
import { embeddedDeps, manualClock } from '../support/embedded';
import { consoleWorld, expectConsoleError, parseInput, rejectionOf } from './console-fixtures';

async function world() {
  const deps = await embeddedDeps(manualClock());
  const w = await consoleWorld(deps);
  return { deps, w };
}

describe('applications of an organisation', () => {
  it('lists what its admins created, oldest first, with plan and live access', async () => {
    const { deps, w } = await world();
    const a = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'First' });
    deps.clock.advance(1000);
    const b = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Second', plan: 'growth' });
    const other = await consoleWorld(deps);
    await createApplication(deps, other.as('owner'), { organization_id: other.organizationId, name: 'Elsewhere' });
    const { applications } = await listApplications(deps, w.as('viewer'), { organization_id: w.organizationId });
    expect(applications).toEqual([
      { application_id: a.application_id, organization_id: w.organizationId, name: 'First', plan: 'free', live_access: false, created_at: a.created_at },
      { application_id: b.application_id, organization_id: w.organizationId, name: 'Second', plan: 'growth', live_access: true, created_at: b.created_at },
    ]);
  });

  it('keeps the organisation when the local seed writes the application again (an update, not a put)', async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Seeded' });
    await putApplication(deps, { applicationId: app.application_id, name: 'Seeded', plan: 'startup', redirectUris: ['https://example.com/cb'] });
    expect(await getApplication(deps, app.application_id)).toMatchObject({ organizationId: w.organizationId, plan: 'startup', createdAt: app.created_at, redirectUris: ['https://example.com/cb'] });
    expect((await listApplicationsOf(deps, w.organizationId)).map((a) => a.applicationId)).toEqual([app.application_id]);
  });

  it('renames an application', async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Old' });
    expect(await updateApplication(deps, w.as('admin'), { application_id: app.application_id, name: 'New' })).toMatchObject({ name: 'New', plan: 'free', replanned_keys: 0 });
    expect((await getApplication(deps, app.application_id))?.name).toBe('New');
  });

  it('refuses an update that names nothing to change (400)', () => {
    expect(() => parseInput(UpdateApplicationInput, { application_id: 'app_x' })).toThrow(expect.objectContaining({ code: 'missing_field' }));
    expect(() => parseInput(UpdateApplicationInput, { application_id: 'app_x', plan: 'platinum' })).toThrow(expect.objectContaining({ code: 'invalid_field' }));
    expect(() => parseInput(UpdateApplicationInput, { application_id: 'app_x', plan: 'free', colour: 'red' })).toThrow(expect.objectContaining({ code: 'unknown_field' }));
  });
});

describe('changing plan', () => {
  it("stamps the new plan on every active key and its shards: the rate limit follows at once", async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Growing', plan: 'free' });
    const key = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    expect((await authorizeAndMeter(deps, key.key, 'api')).rateLimit.limit).toBe(PLANS.free.ratePerSecond);
    const updated = await updateApplication(deps, w.as('admin'), { application_id: app.application_id, plan: 'enterprise' });
    expect(updated).toMatchObject({ plan: 'enterprise', live_access: true, replanned_keys: 1 });
    const shards = await usageByShard(deps, key.key, new Date(deps.clock.now()));
    expect(shards.map((s) => [s.shard, s.status])).toEqual(Array.from({ length: shardsFor('enterprise') }, (_, i) => [i, 'active']));
    const row = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(sha256Hex(key.key)), ConsistentRead: true }));
    expect(row.Item).toMatchObject({ plan: 'enterprise', shards: shardsFor('enterprise'), status: 'active' });
    expect(row.Item?.quota_api).toBeUndefined();
    // The one request counted on the free plan is still counted.
    expect(shards[0].api.used).toBe(1);
    deps.clock.advance(1000);
    expect((await authorizeAndMeter(deps, key.key, 'api')).rateLimit.limit).toBe(PLANS.enterprise.ratePerSecond);
  });

  it('takes live access away with the plan: a live key of a plan without it is refused by the meter', async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Shrinking', plan: 'startup' });
    const live = await createKey(deps, w.as('admin'), { application_id: app.application_id, environment: 'live' });
    await expect(authorizeAndMeter(deps, live.key, 'api')).resolves.toMatchObject({ environment: 'live' });
    await updateApplication(deps, w.as('admin'), { application_id: app.application_id, plan: 'free' });
    deps.clock.advance(1000);
    await expect(authorizeAndMeter(deps, live.key, 'api')).rejects.toMatchObject({ code: 'live_access_not_in_plan' });
  });

  it('never makes a revoked key active again', async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Revoked', plan: 'startup' });
    const key = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    await revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: key.key_id });
    expect(await updateApplication(deps, w.as('admin'), { application_id: app.application_id, plan: 'growth' })).toMatchObject({ replanned_keys: 0 });
    const err = await rejectionOf(authorizeAndMeter(deps, key.key, 'api'));
    expect(err).toMatchObject({ code: 'revoked_api_key' });
    // Even when asked directly (a listing that still showed it active): the key row's status is in the condition.
    expect(await replanKey(deps, { applicationId: app.application_id, name: 'Revoked', plan: 'enterprise' }, sha256Hex(key.key))).toBe(false);
    expect((await usageByShard(deps, key.key, new Date(deps.clock.now()))).map((s) => s.status)).toEqual(['revoked']);
  });

  it('is not found for a member of another organisation', async () => {
    const { deps, w } = await world();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Mine' });
    const other = await consoleWorld(deps);
    await expectConsoleError(updateApplication(deps, other.as('owner'), { application_id: app.application_id, plan: 'enterprise' }), 'application_not_found', 404);
    expect((await getApplication(deps, app.application_id))?.plan).toBe('free');
  });
});
