// Webhook endpoints and signing secrets against DynamoDB Local: the endpoint cap and one endpoint
// per URL hold under concurrent registration; every secret still in its grace period signs.
import { GetCommand, PutCommand } from '../../functions/platform/aws/dynamodb';
import { ApiError } from '../../functions/contracts/errors';
import { MAX_SIGNING_SECRETS, registerEndpoint, removeEndpoint, rotateSecret, signingSecrets } from '../../functions/app/webhooks';
import { keys } from '../../functions/data/keys';
import { listEndpoints } from '../../functions/data/webhooks-repo';
import { embeddedDeps, manualClock } from '../support/embedded';

const CAP = 10;
let tenantCounter = 0;
const newTenant = () => ({ applicationId: `app_wh${++tenantCounter}`, environment: 'test' as const });
const url = (n: number | string) => `https://93.184.216.34/hook-${n}`;

type Outcome = Awaited<ReturnType<typeof registerEndpoint>> | ApiError;
async function outcome(p: Promise<Awaited<ReturnType<typeof registerEndpoint>>>): Promise<Outcome> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}
const created = (results: Outcome[]) => results.filter((r): r is Exclude<Outcome, ApiError> => !(r instanceof ApiError) && r.created);
const refused = (results: Outcome[]) => results.filter((r): r is ApiError => r instanceof ApiError);

async function endpointCount(deps: Awaited<ReturnType<typeof embeddedDeps>>, t: ReturnType<typeof newTenant>) {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.webhookEndpointCount(t.applicationId, t.environment), ConsistentRead: true }));
  return res.Item?.endpoint_count;
}

describe('registering webhook endpoints concurrently', () => {
  it('stores exactly the cap of 10 out of 30 concurrent registrations of distinct URLs; the rest get too_many_webhook_endpoints', async () => {
    const deps = await embeddedDeps();
    const t = newTenant();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => outcome(registerEndpoint(deps, t, url(i)))));
    expect(created(results)).toHaveLength(CAP);
    expect(refused(results).map((e) => e.code)).toEqual(Array(30 - CAP).fill('too_many_webhook_endpoints'));
    const stored = await listEndpoints(deps, t.applicationId, t.environment);
    expect(stored).toHaveLength(CAP);
    expect(new Set(stored.map((e) => e.url)).size).toBe(CAP);
    expect(await endpointCount(deps, t)).toBe(CAP);
  });

  it('stores one endpoint for 20 concurrent registrations of one URL, and answers it to every caller', async () => {
    const deps = await embeddedDeps();
    const t = newTenant();
    const results = await Promise.all(Array.from({ length: 20 }, () => outcome(registerEndpoint(deps, t, url('same')))));
    expect(refused(results)).toEqual([]);
    expect(created(results)).toHaveLength(1);
    const ids = new Set(results.map((r) => (r as Exclude<Outcome, ApiError>).endpoint.endpointId));
    expect(ids.size).toBe(1);
    const stored = await listEndpoints(deps, t.applicationId, t.environment);
    expect(stored.map((e) => e.endpointId)).toEqual([...ids]);
    expect(await endpointCount(deps, t)).toBe(1);
  });

  it('treats spellings of one URL that the URL parser normalises alike as the same endpoint', async () => {
    const deps = await embeddedDeps();
    const t = newTenant();
    const first = await registerEndpoint(deps, t, 'https://93.184.216.34/Hook');
    const again = await registerEndpoint(deps, t, 'HTTPS://93.184.216.34:443/Hook');
    expect(again).toMatchObject({ created: false, endpoint: { endpointId: first.endpoint.endpointId, url: 'https://93.184.216.34/Hook' } });
    expect((await registerEndpoint(deps, t, 'https://93.184.216.34/hook')).created).toBe(true); // the path is case-sensitive
  });

  it('frees the slot and the URL when an endpoint is deleted, once however many deletes race', async () => {
    const deps = await embeddedDeps();
    const t = newTenant();
    const registered = [];
    for (let i = 0; i < CAP; i += 1) registered.push(await registerEndpoint(deps, t, url(i)));
    await expect(registerEndpoint(deps, t, url('over'))).rejects.toMatchObject({ code: 'too_many_webhook_endpoints' });
    const victim = registered[3].endpoint.endpointId;
    const deletes = await Promise.all(Array.from({ length: 5 }, () => removeEndpoint(deps, t, victim).then(() => 'deleted', (e: ApiError) => e.code)));
    expect(deletes.sort()).toEqual(['deleted', ...Array(4).fill('webhook_endpoint_not_found')]);
    expect(await endpointCount(deps, t)).toBe(CAP - 1);
    const back = await registerEndpoint(deps, t, url(3));
    expect(back.created).toBe(true);
    expect(back.endpoint.endpointId).not.toBe(victim);
    await expect(registerEndpoint(deps, t, url('over'))).rejects.toMatchObject({ code: 'too_many_webhook_endpoints' });
  });

  it('counts endpoints stored before the count existed, and still finds their URLs', async () => {
    const deps = await embeddedDeps();
    const t = newTenant();
    for (let i = 0; i < CAP; i += 1) {
      const endpointId = `whep_legacy${i}`;
      await deps.ddb.send(
        new PutCommand({
          TableName: deps.config.tableName,
          Item: { ...keys.webhookEndpoint(t.applicationId, t.environment, endpointId), endpoint_id: endpointId, application_id: t.applicationId, environment: t.environment, url: url(i), created_at: `2026-01-01T00:00:0${i}.000Z` },
        }),
      );
    }
    expect(await registerEndpoint(deps, t, url(4))).toMatchObject({ created: false, endpoint: { endpointId: 'whep_legacy4' } });
    await expect(registerEndpoint(deps, t, url('new'))).rejects.toMatchObject({ code: 'too_many_webhook_endpoints' });
    await removeEndpoint(deps, t, 'whep_legacy0');
    expect(await endpointCount(deps, t)).toBe(CAP - 1);
    expect((await registerEndpoint(deps, t, url('new'))).created).toBe(true);
  });
});

describe('signing secrets across rotations', () => {
  it('keeps the original secret signing after a second rotation inside its grace period', async () => {
    const deps = await embeddedDeps(manualClock());
    const t = newTenant();
    const original = (await registerEndpoint(deps, t, url(1))).secret!;
    const first = await rotateSecret(deps, t, 24);
    deps.clock.advance(3600_000);
    const second = await rotateSecret(deps, t, 24);
    expect(await signingSecrets(deps, t)).toEqual([second.secret, first.secret, original]);
    expect(second.signing_secrets).toEqual([
      { last4: second.secret.slice(-4), expires_at: null },
      { last4: first.secret.slice(-4), expires_at: new Date(deps.clock.now() + 24 * 3600_000).toISOString() },
      { last4: original.slice(-4), expires_at: new Date(deps.clock.now() + 23 * 3600_000).toISOString() },
    ]);
    // Each stops at the end of its own grace period.
    deps.clock.advance(23 * 3600_000);
    expect(await signingSecrets(deps, t)).toEqual([second.secret, first.secret]);
    deps.clock.advance(3600_000);
    expect(await signingSecrets(deps, t)).toEqual([second.secret]);
  });

  it('signs with at most five secrets, dropping the ones that would stop soonest', async () => {
    const deps = await embeddedDeps(manualClock());
    const t = newTenant();
    await registerEndpoint(deps, t, url(1));
    const secrets: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      secrets.push((await rotateSecret(deps, t, 24)).secret);
      deps.clock.advance(60_000);
    }
    const last = await rotateSecret(deps, t, 24);
    expect(last.signing_secrets).toHaveLength(MAX_SIGNING_SECRETS);
    expect(await signingSecrets(deps, t)).toEqual([last.secret, ...secrets.slice(-(MAX_SIGNING_SECRETS - 1)).reverse()]);
  });

  it('loses no secret when rotations race', async () => {
    const deps = await embeddedDeps(manualClock());
    const t = newTenant();
    const original = (await registerEndpoint(deps, t, url(1))).secret!;
    const rotations = await Promise.all([rotateSecret(deps, t, 24), rotateSecret(deps, t, 24), rotateSecret(deps, t, 24)]);
    const signing = await signingSecrets(deps, t);
    expect(signing).toHaveLength(4);
    expect([...signing].sort()).toEqual([original, ...rotations.map((r) => r.secret)].sort());
  });

  it('runs 20 racing rotations one after another: every one answers, and the last to commit is the current secret', async () => {
    const deps = await embeddedDeps(manualClock());
    const t = newTenant();
    await registerEndpoint(deps, t, url(1));
    const rotations = await Promise.all(Array.from({ length: 20 }, () => rotateSecret(deps, t, 0)));
    expect(new Set(rotations.map((r) => r.secret)).size).toBe(20);
    // With no grace, only the current secret signs: one of the twenty, the one whose answer lists no other.
    const signing = await signingSecrets(deps, t);
    expect(signing).toHaveLength(1);
    expect(rotations.map((r) => r.secret)).toContain(signing[0]);
  }, 60_000);

  it('does not keep a secret signing that this very rotation created and nobody saw', async () => {
    const deps = await embeddedDeps(manualClock());
    const t = newTenant();
    const rotated = await rotateSecret(deps, t, 24);
    expect(rotated.signing_secrets).toEqual([{ last4: rotated.secret.slice(-4), expires_at: null }]);
    expect(await signingSecrets(deps, t)).toEqual([rotated.secret]);
  });
});
