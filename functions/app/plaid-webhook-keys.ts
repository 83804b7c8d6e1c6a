// The keys that sign Plaid-shaped webhooks (functions/core/plaid/webhook-jwt.ts), for the deliveries
// (./webhooks.ts) and the Plaid-compatible API's /webhook_verification_key/get
// (functions/surfaces/plaid/verification-keys.ts).
//
// Each application environment has its own EC P-256 key, created when it is first needed: when a
// Plaid-shaped webhook endpoint is registered (so that a delivery only ever opens a key, as it only
// ever opens webhook secrets), or on a first signature outside a delivery. Its private half is sealed
// with envelope encryption under the encryption context {application_id, environment, purpose:
// plaid_webhook_key, kid}, as webhook secrets are (./webhooks.ts), so a sealed key copied to another
// record does not open. Its public half is served as Plaid's JWKPublicKey: kty EC, crv P-256, alg
// ES256, use sig, kid, x, y, created_at and expired_at (Unix seconds; null while the key is valid).
//
// Rotation makes a new key the signer at once. The replaced key signs nothing more but stays valid
// for verification for a grace period (PLAID_KEY_ROTATION_GRACE_MS: longer than a signature's five
// minutes of validity, and than a verifier's key cache should live); after it, the key reports its
// `expired_at` and integrators following Plaid's guide stop accepting it.
import { generateKeyPairSync, createPrivateKey, randomUUID, type KeyObject } from 'node:crypto';
import type { JWKPublicKey } from 'plaid';
import type { Environment } from '../contracts/schemas';
import { publicJwkOf, signPlaidWebhookJwt } from '../core/plaid/webhook-jwt';
import type { Wire } from '../core/plaid/wire';
import { createFirstPlaidKey, getCurrentPlaidKey, rotatePlaidKey, type StoredPlaidKey } from '../data/plaid-keys-repo';
import { decryptSecret, encryptSecret, type KeyProvider, type SealedSecret } from '../platform/crypto/envelope';
import type { Deps } from '../platform/runtime';

export interface PlaidKeyTenant {
  applicationId: string;
  environment: Environment;
}

/** Encryption-context purpose of the sealed private keys. */
export const PLAID_WEBHOOK_KEY_PURPOSE = 'plaid_webhook_key';

/** How long a replaced key stays valid for verification. */
export const PLAID_KEY_ROTATION_GRACE_MS = 24 * 3600 * 1000;

const keyContext = (t: PlaidKeyTenant, kid: string) => ({ application_id: t.applicationId, environment: t.environment, purpose: PLAID_WEBHOOK_KEY_PURPOSE, kid });

/** How long an opened private key stays in a container's memory (saves a KMS Decrypt per webhook). */
const OPENED_KEY_TTL_MS = 60_000;
const OPENED_KEYS_MAX = 1_000;
/** Per key provider, so that runtimes sharing a process (tests) never share keys. */
const openedKeys = new WeakMap<KeyProvider, Map<string, { key: KeyObject; until: number }>>();

async function openPrivateKey(deps: Deps, t: PlaidKeyTenant, kid: string, sealed: SealedSecret): Promise<KeyObject> {
  let cache = openedKeys.get(deps.keyProvider);
  if (!cache) openedKeys.set(deps.keyProvider, (cache = new Map()));
  const cacheKey = JSON.stringify([t.applicationId, t.environment, kid, sealed.kid, sealed.wk, sealed.iv, sealed.ct, sealed.tag]);
  const now = deps.clock.now();
  // Entries are inserted only when opened, so the oldest expire first: drop them up to the first valid one.
  for (const [k, entry] of cache) {
    if (entry.until > now) break;
    cache.delete(k);
  }
  const hit = cache.get(cacheKey);
  if (hit) return hit.key;
  const key = createPrivateKey(await decryptSecret(deps.keyProvider, sealed, keyContext(t, kid)));
  while (cache.size >= OPENED_KEYS_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, { key, until: now + OPENED_KEY_TTL_MS });
  return key;
}

async function newKey(deps: Deps, t: PlaidKeyTenant): Promise<StoredPlaidKey> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = randomUUID();
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return {
    kid,
    publicJwk: publicJwkOf(privateKey),
    sealedPrivateKey: await encryptSecret(deps.keyProvider, pem, keyContext(t, kid)),
    createdAt: deps.clock.now(),
    retiredAt: null,
    expiresAt: null,
  };
}

/** The key that signs now, created on the environment's first use. */
export async function currentPlaidKey(deps: Deps, t: PlaidKeyTenant): Promise<StoredPlaidKey> {
  const existing = await getCurrentPlaidKey(deps, t.applicationId, t.environment);
  if (existing) return existing;
  const created = await newKey(deps, t);
  if (await createFirstPlaidKey(deps, t.applicationId, t.environment, created)) return created;
  // Another first use won the race: its key is the one.
  const winner = await getCurrentPlaidKey(deps, t.applicationId, t.environment);
  if (!winner) throw new Error(`the Plaid webhook key of ${t.applicationId}/${t.environment} was neither created nor found`);
  return winner;
}

/**
 * The `Plaid-Verification` header value for a webhook body, issued now, with the key that signs now.
 * Sign every delivery attempt anew: the receiver rejects a signature issued more than five minutes
 * before it arrives. Opens the key, never creates one (registering a Plaid-shaped endpoint did): an
 * environment without a key is an error, which a delivery records as a failed attempt.
 */
export async function signPlaidWebhook(deps: Deps, t: PlaidKeyTenant, body: string): Promise<string> {
  const key = await getCurrentPlaidKey(deps, t.applicationId, t.environment);
  if (!key) throw new Error('this environment has no Plaid webhook signing key');
  const signing = { kid: key.kid, privateKey: await openPrivateKey(deps, t, key.kid, key.sealedPrivateKey) };
  return signPlaidWebhookJwt(body, signing, Math.floor(deps.clock.now() / 1000));
}

const ROTATION_TRIES = 5;

/** A new signing key; the replaced one stays valid for `graceMs`. Answers the new key's JWK. */
export async function rotatePlaidWebhookKey(deps: Deps, t: PlaidKeyTenant, graceMs = PLAID_KEY_ROTATION_GRACE_MS): Promise<Wire<JWKPublicKey>> {
  for (let attempt = 1; ; attempt++) {
    const previous = await currentPlaidKey(deps, t);
    const next = await newKey(deps, t);
    const now = deps.clock.now();
    if (await rotatePlaidKey(deps, t.applicationId, t.environment, previous, next, now, now + graceMs)) return plaidJwkOf(next, now);
    // Another rotation committed in between: rotate on top of it.
    if (attempt >= ROTATION_TRIES) throw new Error('Plaid webhook key rotation kept racing other rotations');
  }
}

/** A stored key as Plaid's JWKPublicKey at `now`: `expired_at` is set once its grace has ended. */
export function plaidJwkOf(key: StoredPlaidKey, now: number): Wire<JWKPublicKey> {
  const expired = key.expiresAt !== null && key.expiresAt <= now;
  return {
    alg: 'ES256',
    crv: key.publicJwk.crv,
    kid: key.kid,
    kty: key.publicJwk.kty,
    use: 'sig',
    x: key.publicJwk.x,
    y: key.publicJwk.y,
    created_at: Math.floor(key.createdAt / 1000),
    expired_at: expired ? Math.floor((key.expiresAt as number) / 1000) : null,
  };
}
