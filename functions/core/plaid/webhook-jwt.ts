// The `Plaid-Verification` header of a Plaid-shaped webhook, exactly as Plaid's verification guide
// describes it: a JWT signed with ES256 (ECDSA over P-256 with SHA-256), whose header is
// `{"alg":"ES256","kid":<key id>,"typ":"JWT"}` and whose payload is
// `{"iat":<unix seconds>,"request_body_sha256":<hex SHA-256 of the body's bytes>}`. The receiver
// decodes the header, fetches the public key by `kid` from /webhook_verification_key/get, verifies
// the signature over `header.payload`, rejects an `iat` older than five minutes, and compares the
// body's SHA-256 with the claim in constant time. Pure: node:crypto only.
import { createHash, createPublicKey, sign, type KeyObject } from 'node:crypto';

export const PLAID_VERIFICATION_HEADER = 'Plaid-Verification';

/** How old a webhook's `iat` may be when it arrives, per Plaid's guide. */
export const PLAID_WEBHOOK_MAX_AGE_SECONDS = 5 * 60;

export interface PlaidSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** The public half as JWK members (Plaid's JWKPublicKey adds alg, use, kid and the key's times). */
export interface EcPublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function bodySha256Hex(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The Plaid-Verification JWT for a webhook body, issued at `issuedAtSeconds`. */
export function signPlaidWebhookJwt(body: string | Buffer, key: PlaidSigningKey, issuedAtSeconds: number): string {
  const header = base64url(JSON.stringify({ alg: 'ES256', kid: key.kid, typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iat: issuedAtSeconds, request_body_sha256: bodySha256Hex(body) }));
  const signingInput = `${header}.${payload}`;
  // JWS carries an ECDSA signature as r || s (IEEE P1363), not DER.
  const signature = sign('sha256', Buffer.from(signingInput), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}

/** A P-256 private key's public half as JWK members. */
export function publicJwkOf(privateKey: KeyObject): EcPublicJwk {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') throw new Error('not a P-256 key');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
}
