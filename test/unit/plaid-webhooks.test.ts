// Plaid-shaped webhooks: our events as Plaid's bodies, and the Plaid-Verification JWT verified the
// way Plaid's guide tells integrators to, with node:crypto alone: decode the header, check ES256,
// take the key by kid, verify the signature over header.payload, reject an iat older than five
// minutes, compare the body's SHA-256 with the claim in constant time.
import { createHash, createPublicKey, generateKeyPairSync, timingSafeEqual, verify, type JsonWebKey } from 'node:crypto';
import type { ItemErrorWebhook, ItemLoginRepairedWebhook, SyncUpdatesAvailableWebhook } from 'plaid';
import { ERRORS } from '../../functions/contracts/errors';
import { EVENT_TYPES } from '../../functions/contracts/events';
import { PLAID_WEBHOOK_MAX_AGE_SECONDS, publicJwkOf, signPlaidWebhookJwt } from '../../functions/core/plaid/webhook-jwt';
import { FIRE_WEBHOOK_EVENTS, plaidWebhookOf, renderPlaidWebhook } from '../../functions/core/plaid/webhooks';
import type { Wire } from '../../functions/surfaces/plaid/wire';

/** Plaid's verification steps; the keys a receiver would fetch by kid from /webhook_verification_key/get. */
function verifyAsPlaidSays(jwt: string, body: string, keysById: Map<string, JsonWebKey>, nowSeconds: number): boolean {
  const parts = jwt.split('.');
  if (parts.length !== 3) return false;
  const [encodedHeader, encodedPayload, signature] = parts;
  const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as { alg?: string; kid?: string };
  if (header.alg !== 'ES256' || !header.kid) return false;
  const jwk = keysById.get(header.kid);
  if (!jwk) return false;
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) return false;
  const claims = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8')) as { iat: number; request_body_sha256: string };
  if (nowSeconds - claims.iat > 5 * 60) return false;
  const expected = Buffer.from(createHash('sha256').update(body).digest('hex'));
  const claimed = Buffer.from(claims.request_body_sha256);
  return claimed.length === expected.length && timingSafeEqual(claimed, expected);
}

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signingKey = { kid: 'bfbd5111-8e33-4643-8ced-b2e642a72f3c', privateKey };
const keysById = new Map<string, JsonWebKey>([[signingKey.kid, { ...publicJwkOf(privateKey) }]]);
const NOW = 1_800_000_000;
const body = renderPlaidWebhook(
  plaidWebhookOf({ type: 'transactions.sync_updates_available', data: { item_id: 'item_1', initial_update_complete: true, historical_update_complete: false } }, 'test')!,
);

describe('the Plaid-Verification JWT', () => {
  it('verifies the way Plaid documents it, with exactly the header and claims Plaid names', () => {
    const jwt = signPlaidWebhookJwt(body, signingKey, NOW);
    expect(verifyAsPlaidSays(jwt, body, keysById, NOW + 30)).toBe(true);
    const [header, payload] = jwt.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown);
    expect(header).toEqual({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' });
    expect(payload).toEqual({ iat: NOW, request_body_sha256: createHash('sha256').update(body).digest('hex') });
  });

  it('is rejected for a body changed in transit, even by one character of whitespace', () => {
    const jwt = signPlaidWebhookJwt(body, signingKey, NOW);
    expect(verifyAsPlaidSays(jwt, body.replace('"item_1"', '"item_2"'), keysById, NOW)).toBe(false);
    expect(verifyAsPlaidSays(jwt, `${body} `, keysById, NOW)).toBe(false);
  });

  it('is rejected once its iat is more than five minutes old', () => {
    const jwt = signPlaidWebhookJwt(body, signingKey, NOW);
    expect(verifyAsPlaidSays(jwt, body, keysById, NOW + PLAID_WEBHOOK_MAX_AGE_SECONDS)).toBe(true);
    expect(verifyAsPlaidSays(jwt, body, keysById, NOW + PLAID_WEBHOOK_MAX_AGE_SECONDS + 1)).toBe(false);
  });

  it('is rejected when signed by another key under the same kid, or with its claims swapped', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect(verifyAsPlaidSays(signPlaidWebhookJwt(body, { kid: signingKey.kid, privateKey: other }, NOW), body, keysById, NOW)).toBe(false);
    const [header, , signature] = signPlaidWebhookJwt(body, signingKey, NOW).split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ iat: NOW + 600, request_body_sha256: createHash('sha256').update(body).digest('hex') })).toString('base64url');
    expect(verifyAsPlaidSays(`${header}.${forgedPayload}.${signature}`, body, keysById, NOW + 600)).toBe(false);
  });

  it('publishes the public key as EC P-256 JWK members', () => {
    expect(publicJwkOf(privateKey)).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) });
  });
});

describe('our events as Plaid webhooks', () => {
  it('sends SYNC_UPDATES_AVAILABLE with both completion flags and the environment', () => {
    const hook = plaidWebhookOf(
      { type: 'transactions.sync_updates_available', data: { item_id: 'item_1', initial_update_complete: true, historical_update_complete: false } },
      'live',
    );
    expect(hook).toEqual({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: 'item_1',
      initial_update_complete: true,
      historical_update_complete: false,
      environment: 'production',
    } satisfies Wire<SyncUpdatesAvailableWebhook>);
  });

  it("sends ITEM ERROR with the item's error as Plaid's error object", () => {
    const error = { type: 'item_error', code: 'item_login_required', message: ERRORS.item_login_required.message };
    const hook = plaidWebhookOf({ type: 'item.error', data: { item_id: 'item_1', error } }, 'test') as Wire<ItemErrorWebhook>;
    expect(hook).toMatchObject({ webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: 'item_1', environment: 'sandbox' });
    expect(hook.error).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', status: 400 });
  });

  it('sends ITEM LOGIN_REPAIRED, and nothing for an event Plaid has no webhook for', () => {
    expect(plaidWebhookOf({ type: 'item.login_repaired', data: { item_id: 'item_1' } }, 'test')).toEqual({
      webhook_type: 'ITEM',
      webhook_code: 'LOGIN_REPAIRED',
      item_id: 'item_1',
      environment: 'sandbox',
    } satisfies Wire<ItemLoginRepairedWebhook>);
    expect(
      plaidWebhookOf({ type: 'usage.limit_approaching', data: { quota: 'api', threshold_percent: 80, used: 8, limit: 10, resets_at: '2026-12-01T00:00:00.000Z' } }, 'test'),
    ).toBeNull();
  });

  it('fires, from /sandbox/item/fire_webhook, only codes that are events of ours', () => {
    for (const { event } of Object.values(FIRE_WEBHOOK_EVENTS)) expect(EVENT_TYPES).toContain(event);
  });

  it('renders the body as two-space indented JSON, the bytes the signature covers', () => {
    expect(body.split('\n')[1]).toBe('  "webhook_type": "TRANSACTIONS",');
  });
});
