// The keys that sign Plaid-shaped webhooks, against DynamoDB Local: one key per application and
// environment however many first uses race, its private half sealed (only its own encryption context
// opens it), rotation making a new signer while the old key stays verifiable for its grace period,
// and /webhook_verification_key/get answering only the caller's own keys.
import { createPublicKey, verify } from 'node:crypto';
import type { AuthContext } from '../../functions/data/api-keys-repo';
import { listPlaidKeys } from '../../functions/data/plaid-keys-repo';
import { decryptSecret } from '../../functions/platform/crypto/envelope';
import { PLAID_KEY_ROTATION_GRACE_MS, currentPlaidKey, rotatePlaidWebhookKey, signPlaidWebhook } from '../../functions/app/plaid-webhook-keys';
import { PlaidFailure } from '../../functions/core/plaid/errors';
import { webhookVerificationKeyGet } from '../../functions/surfaces/plaid/verification-keys';
import { embeddedDeps, manualClock } from '../support/embedded';

let tenants = 0;
const newTenant = () => ({ applicationId: `app_pk${++tenants}`, environment: 'test' as const });

async function keyGet(deps: Awaited<ReturnType<typeof embeddedDeps>>, tenant: { applicationId: string; environment: 'test' | 'live' }, kid: string) {
  const auth = { applicationId: tenant.applicationId, environment: tenant.environment } as AuthContext;
  return webhookVerificationKeyGet({ deps, auth, requestId: 'req_1', baseUrl: 'http://localhost', event: {} as never }, { key_id: kid });
}

/** Verifies a Plaid-Verification JWT's signature with a JWK as /webhook_verification_key/get serves it. */
function signedBy(jwt: string, jwk: { kty: string; crv: string; x: string; y: string }): boolean {
  const [header, payload, signature] = jwt.split('.');
  const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
  return verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
}

const kidOf = (jwt: string) => (JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString('utf8')) as { kid: string }).kid;

describe('Plaid webhook signing keys', () => {
  it('creates one key for twenty concurrent first uses, and every signature is made with it', async () => {
    const deps = await embeddedDeps();
    const tenant = newTenant();
    const created = await Promise.all(Array.from({ length: 20 }, () => currentPlaidKey(deps, tenant)));
    const jwts = await Promise.all(Array.from({ length: 20 }, () => signPlaidWebhook(deps, tenant, '{}')));
    const stored = await listPlaidKeys(deps, tenant.applicationId, tenant.environment);
    expect(stored).toHaveLength(1);
    expect(new Set(created.map((k) => k.kid))).toEqual(new Set([stored[0].kid]));
    expect(new Set(jwts.map(kidOf))).toEqual(new Set([stored[0].kid]));
    const { key } = await keyGet(deps, tenant, stored[0].kid);
    expect(jwts.every((jwt) => signedBy(jwt, key))).toBe(true);
  });

  it('signs only with a key that exists: a delivery opens the key its endpoint\'s registration created, never makes one', async () => {
    const deps = await embeddedDeps();
    const tenant = newTenant();
    await expect(signPlaidWebhook(deps, tenant, '{}')).rejects.toThrow('no Plaid webhook signing key');
    expect(await listPlaidKeys(deps, tenant.applicationId, tenant.environment)).toEqual([]);
  });

  it('seals the private key under its own encryption context only', async () => {
    const deps = await embeddedDeps();
    const tenant = newTenant();
    const key = await currentPlaidKey(deps, tenant);
    const context = { application_id: tenant.applicationId, environment: tenant.environment, purpose: 'plaid_webhook_key', kid: key.kid };
    expect(await decryptSecret(deps.keyProvider, key.sealedPrivateKey, context)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    await expect(decryptSecret(deps.keyProvider, key.sealedPrivateKey, { ...context, purpose: 'webhook_secret' })).rejects.toMatchObject({ code: 'decrypt_failed' });
    await expect(decryptSecret(deps.keyProvider, key.sealedPrivateKey, { ...context, application_id: 'app_other' })).rejects.toMatchObject({ code: 'decrypt_failed' });
  });

  it('keeps the replaced key verifiable through its grace period, then reports it expired', async () => {
    const clock = manualClock();
    const deps = await embeddedDeps(clock);
    const tenant = newTenant();
    await currentPlaidKey(deps, tenant);
    const before = await signPlaidWebhook(deps, tenant, '{"a":1}');
    const rotated = await rotatePlaidWebhookKey(deps, tenant);
    const after = await signPlaidWebhook(deps, tenant, '{"a":1}');
    expect(kidOf(after)).toBe(rotated.kid);
    expect(kidOf(before)).not.toBe(rotated.kid);

    const old = await keyGet(deps, tenant, kidOf(before));
    expect(old.key.expired_at).toBeNull();
    expect(signedBy(before, old.key)).toBe(true);
    expect(signedBy(after, (await keyGet(deps, tenant, rotated.kid)).key)).toBe(true);

    clock.advance(PLAID_KEY_ROTATION_GRACE_MS);
    const expired = await keyGet(deps, tenant, kidOf(before));
    expect(expired.key.expired_at).toBe(Math.floor(clock.now() / 1000));
    expect((await keyGet(deps, tenant, rotated.kid)).key.expired_at).toBeNull();
  });

  it('keeps every key when rotations race, one of them current', async () => {
    const deps = await embeddedDeps();
    const tenant = newTenant();
    await currentPlaidKey(deps, tenant);
    const rotations = await Promise.all(Array.from({ length: 3 }, () => rotatePlaidWebhookKey(deps, tenant)));
    const stored = await listPlaidKeys(deps, tenant.applicationId, tenant.environment);
    expect(stored).toHaveLength(4);
    const current = await currentPlaidKey(deps, tenant);
    expect(rotations.map((r) => r.kid)).toContain(current.kid);
    expect(stored.filter((k) => k.retiredAt === null).map((k) => k.kid)).toEqual([current.kid]);
  });

  it("answers a key id that is not the caller's as INVALID_WEBHOOK_VERIFICATION_KEY_ID", async () => {
    const deps = await embeddedDeps();
    const owner = newTenant();
    const key = await currentPlaidKey(deps, owner);
    const outcome = (kid: string, tenant: { applicationId: string; environment: 'test' | 'live' }) =>
      keyGet(deps, tenant, kid).then(
        () => 'found',
        (err: unknown) => (err instanceof PlaidFailure ? err.def.code : err),
      );
    expect(await outcome(key.kid, owner)).toBe('found');
    expect(await outcome(key.kid, newTenant())).toBe('INVALID_WEBHOOK_VERIFICATION_KEY_ID');
    expect(await outcome(key.kid, { ...owner, environment: 'live' })).toBe('INVALID_WEBHOOK_VERIFICATION_KEY_ID');
    expect(await outcome('00000000-0000-0000-0000-000000000000', owner)).toBe('INVALID_WEBHOOK_VERIFICATION_KEY_ID');
  });
});
