// Keys from the console against DynamoDB Local: a new key is shown once (never listed, never
// stored), replaces the environment's previous key, works at once; live keys need an admin and a
// plan with live access; revocation by key_id stops the key; "last used" comes from the one write
// that meters each request, at no extra write.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { createApplication, updateApplication } from '../../functions/app/console/applications';
import { deleteOrganization } from '../../functions/app/console/organizations';
import type { Deps } from '../../functions/platform/runtime';
import { createKey, listKeys, revokeKey } from '../../functions/app/console/keys';
import { ApiError } from '../../functions/contracts/errors';
import { sha256Hex } from '../../functions/core/api-keys';
import { authorizeAndMeter } from '../../functions/data/api-keys-repo';
import { keys } from '../../functions/data/keys';
import { embeddedDeps, manualClock } from '../support/embedded';
import { consoleWorld, expectConsoleError, rejectionOf, tableRows } from './console-fixtures';
import type { PlanName } from '../../functions/contracts/limits';

async function withApp(plan: PlanName = 'startup') {
  const deps = await embeddedDeps(manualClock());
  const w = await consoleWorld(deps);
  const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Keyed', plan });
  return { deps, w, app };
}

/**
 * Deps whose first DynamoDB call matching `match` waits for release(): `reached` resolves when it is
 * sent. Holds a key create between its authorisation and its issuing transaction.
 */
function held(deps: Deps, match: (command: { input?: { Key?: { pk?: unknown } } }) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let done = false;
  const send = async (command: { input?: { Key?: { pk?: unknown } } }) => {
    if (!done && match(command)) {
      done = true;
      reach();
      await gate;
    }
    return (deps.ddb.send as (c: unknown) => Promise<unknown>)(command);
  };
  return { deps: { ...deps, ddb: { ...deps.ddb, send } as unknown as Deps['ddb'] }, reached, release };
}
const readsActiveKeyRow = (command: { input?: { Key?: { pk?: unknown } } }) => command instanceof GetCommand && String(command.input?.Key?.pk ?? '').startsWith('KEY#ACTIVE#');

describe('creating a key', () => {
  it('answers the full key once; the listing and the table only ever hold its display and hash', async () => {
    const { deps, w, app } = await withApp();
    const created = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    expect(created.key).toMatch(/^fc_sk_test_[A-Za-z0-9]{32}$/);
    expect(created).toMatchObject({
      key_id: `key_${sha256Hex(created.key).slice(0, 16)}`,
      environment: 'test',
      status: 'active',
      display: `fc_sk_test_…${created.key.slice(-4)}`,
      last_used_at: null,
      replaced_key_ids: [],
    });
    const listed = await listKeys(deps, w.as('viewer'), { application_id: app.application_id });
    expect(listed.keys).toEqual([{ key_id: created.key_id, environment: 'test', status: 'active', display: created.display, created_at: created.created_at, last_used_at: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect((await tableRows(deps)).join('\n')).not.toContain(created.key);
    await expect(authorizeAndMeter(deps, created.key, 'api')).resolves.toMatchObject({ applicationId: app.application_id, keyId: created.key_id });
  });

  it('replaces the previous key of the same environment (one key per application and environment), not the other one', async () => {
    const { deps, w, app } = await withApp();
    const first = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    const live = await createKey(deps, w.as('admin'), { application_id: app.application_id, environment: 'live' });
    const second = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    expect(second.replaced_key_ids).toEqual([first.key_id]);
    await expect(authorizeAndMeter(deps, first.key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
    await expect(authorizeAndMeter(deps, second.key, 'api')).resolves.toMatchObject({ keyId: second.key_id });
    await expect(authorizeAndMeter(deps, live.key, 'api')).resolves.toMatchObject({ keyId: live.key_id });
    const testKeys = await listKeys(deps, w.as('viewer'), { application_id: app.application_id, environment: 'test' });
    expect(testKeys.keys.map((k) => [k.key_id, k.status]).sort()).toEqual([[first.key_id, 'revoked'], [second.key_id, 'active']].sort());
  });

  it('leaves exactly one active key when creates race, the last to replace, each create revoking the key it replaced', async () => {
    for (const racers of [2, 5, 12]) {
      const { deps, w, app } = await withApp('growth');
      const before = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
      const created = await Promise.all(Array.from({ length: racers }, () => createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' })));
      const listed = (await listKeys(deps, w.as('viewer'), { application_id: app.application_id, environment: 'test' })).keys;
      const active = listed.filter((k) => k.status === 'active');
      expect(active).toHaveLength(1);
      const survivor = created.find((c) => c.key_id === active[0].key_id)!;
      await expect(authorizeAndMeter(deps, survivor.key, 'api')).resolves.toMatchObject({ keyId: survivor.key_id });
      for (const other of [before, ...created].filter((c) => c.key_id !== survivor.key_id)) {
        await expect(authorizeAndMeter(deps, other.key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
      }
      // The creates replaced one another in a chain: every key but the survivor was replaced exactly once.
      const replaced = created.flatMap((c) => c.replaced_key_ids).sort();
      expect(replaced).toEqual([before, ...created].filter((c) => c.key_id !== survivor.key_id).map((c) => c.key_id).sort());
    }
  }, 60_000);

  it('reports as replaced only a key it revoked itself: a key revoked before keeps its revocation time', async () => {
    const { deps, w, app } = await withApp();
    const first = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    await revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: first.key_id });
    const revokedAt = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(sha256Hex(first.key)) }))).Item!.revoked_at;
    (deps.clock as unknown as { advance(ms: number): void }).advance(3_600_000);
    const second = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    expect(second.replaced_key_ids).toEqual([]);
    expect((await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(sha256Hex(first.key)) }))).Item!.revoked_at).toBe(revokedAt);
  });

  it('issues no key on a plan that changed after the create read it (a live key on a downgrade to a plan without live access)', async () => {
    const { deps, w, app } = await withApp('growth');
    const hold = held(deps, readsActiveKeyRow);
    const creating = rejectionOf(createKey(hold.deps, w.as('admin'), { application_id: app.application_id, environment: 'live' }));
    await hold.reached;
    await updateApplication(deps, w.as('admin'), { application_id: app.application_id, plan: 'free' });
    hold.release();
    // The create read the application again: its plan has no live access now.
    expect(await creating).toMatchObject({ code: 'live_access_not_in_plan' });
    const live = (await listKeys(deps, w.as('viewer'), { application_id: app.application_id, environment: 'live' })).keys;
    expect(live.filter((k) => k.status === 'active')).toEqual([]);
  });

  it('leaves no working key when a create races the deletion of its organisation', async () => {
    const { deps, w, app } = await withApp('growth');
    const before = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    const hold = held(deps, readsActiveKeyRow);
    const creating = rejectionOf(createKey(hold.deps, w.as('developer'), { application_id: app.application_id, environment: 'test' }));
    await hold.reached;
    const deleted = await deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name });
    expect(deleted.revoked_keys).toBe(1);
    hold.release();
    expect(await creating).toBeInstanceOf(ApiError);
    await expect(authorizeAndMeter(deps, before.key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
  });

  it('refuses a live key on a plan without live access with 403 live_access_not_in_plan, and stores nothing', async () => {
    const { deps, w, app } = await withApp('free');
    const err = await rejectionOf(createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'live' }));
    expect(err).toBeInstanceOf(ApiError);
    expect({ code: (err as ApiError).code, status: (err as ApiError).status }).toEqual({ code: 'live_access_not_in_plan', status: 403 });
    expect((await listKeys(deps, w.as('owner'), { application_id: app.application_id })).keys).toEqual([]);
  });

  it('keeps live keys to admins: a developer gets 403 role_forbidden naming the admin role', async () => {
    const { deps, w, app } = await withApp();
    const err = await expectConsoleError(createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'live' }), 'role_forbidden', 403);
    expect(err.message).toContain('admin');
  });
});

describe('revoking a key', () => {
  it('stops the key at once, by its key_id; revoking it again answers the same', async () => {
    const { deps, w, app } = await withApp();
    const key = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    expect(await revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: key.key_id })).toEqual({ key_id: key.key_id, environment: 'test', status: 'revoked' });
    await expect(authorizeAndMeter(deps, key.key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
    expect(await revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: key.key_id })).toMatchObject({ status: 'revoked' });
  });

  it('answers key_not_found for a key of another application', async () => {
    const { deps, w, app } = await withApp();
    const other = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Other' });
    const key = await createKey(deps, w.as('developer'), { application_id: other.application_id, environment: 'test' });
    await expectConsoleError(revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: key.key_id }), 'key_not_found', 404);
    await expect(authorizeAndMeter(deps, key.key, 'api')).resolves.toMatchObject({ applicationId: other.application_id });
  });

  it('keeps revoking live keys to admins', async () => {
    const { deps, w, app } = await withApp();
    const live = await createKey(deps, w.as('admin'), { application_id: app.application_id, environment: 'live' });
    await expectConsoleError(revokeKey(deps, w.as('developer'), { application_id: app.application_id, key_id: live.key_id }), 'role_forbidden', 403);
    await expect(authorizeAndMeter(deps, live.key, 'api')).resolves.toMatchObject({ keyId: live.key_id });
  });
});

describe('last used', () => {
  it('is the time of the latest metered request, written by the metering write itself (one call per request)', async () => {
    const { deps, w, app } = await withApp('startup');
    const key = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    const t1 = deps.clock.now() + 5_000;
    deps.clock.set(t1);
    const calls = deps.ddbCalls.count;
    await authorizeAndMeter(deps, key.key, 'api');
    expect(deps.ddbCalls.count - calls).toBe(1);
    const row = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(sha256Hex(key.key)), ConsistentRead: true }));
    expect(row.Item?.last_used_at).toBe(t1);
    expect((await listKeys(deps, w.as('viewer'), { application_id: app.application_id })).keys[0].last_used_at).toBe(new Date(t1).toISOString());
  });

  it('is the latest over all metering shards of a sharded key', async () => {
    const { deps, w, app } = await withApp('enterprise');
    const key = await createKey(deps, w.as('developer'), { application_id: app.application_id, environment: 'test' });
    let last = deps.clock.now();
    for (let i = 0; i < 40; i += 1) {
      last += 1_000;
      deps.clock.set(last);
      await authorizeAndMeter(deps, key.key, 'api');
    }
    const listed = await listKeys(deps, w.as('viewer'), { application_id: app.application_id });
    expect(listed.keys[0].last_used_at).toBe(new Date(last).toISOString());
    // The requests were spread over shards, so the ApiKey row alone would often be older.
    const shardRows = await Promise.all(
      Array.from({ length: 10 }, (_, shard) => deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.meteringShard(sha256Hex(key.key), shard) }))),
    );
    const stamped = shardRows.map((r) => r.Item?.last_used_at).filter((at) => typeof at === 'number');
    expect(new Set(stamped).size).toBeGreaterThan(1);
  });
});
