// The console's Amazon Cognito identity: the user pool's hosted UI with the authorization-code grant
// and PKCE (S256) for a public app client (no client secret exists, so none is configured anywhere).
//
//   1. beginSignIn: a random `state` and code verifier; the browser goes to
//      https://<domain>/oauth2/authorize with the state and the verifier's SHA-256 (code_challenge).
//   2. Cognito sends the browser back to {base_url}/console/api/auth/callback?code&state; the edge
//      checks the state against the one it kept (a short-lived cookie) and calls exchangeCode.
//   3. exchangeCode: POST https://<domain>/oauth2/token (form-encoded, 5 s deadline) with the code,
//      the verifier and the same redirect_uri; the answer's ID token is verified here with
//      node:crypto against the pool's JWKS (https://cognito-idp.<region>.amazonaws.com/<pool>/.well-known/jwks.json,
//      cached per container and fetched again once when a token names an unknown key id, which is
//      how a key rotation shows): RS256 only, `iss` = the pool, `aud` = our client id,
//      `token_use` = id, not expired, and `email_verified` true (console users are found by e-mail).
// No SDK is needed: two HTTPS calls and one signature check.
import { createHash, createPublicKey, randomBytes, verify as verifySignature, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Clock } from './runtime';

export interface CognitoSettings {
  /** The user pool domain's host, e.g. `fincore-sandbox-111111111111.auth.us-east-1.amazoncognito.com`. */
  domain: string;
  clientId: string;
  userPoolId: string;
  region: string;
}

export interface CognitoEndpoints {
  authorize: string;
  token: string;
  logout: string;
  jwks: string;
  /** The `iss` of the pool's tokens. */
  issuer: string;
}

export function cognitoEndpoints(settings: CognitoSettings): CognitoEndpoints {
  const issuer = `https://cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`;
  return {
    authorize: `https://${settings.domain}/oauth2/authorize`,
    token: `https://${settings.domain}/oauth2/token`,
    logout: `https://${settings.domain}/logout`,
    jwks: `${issuer}/.well-known/jwks.json`,
    issuer,
  };
}

/** What the console takes from a verified ID token. */
export interface CognitoClaims {
  /** The user's stable id in the pool. */
  sub: string;
  /** Verified by Cognito; lower-cased by the caller. */
  email: string;
  /** The `name` attribute when the user set one. */
  name: string | null;
}

export type CognitoFailure =
  /** The code is unknown, spent, expired, or was issued for another verifier or redirect URI. */
  | 'invalid_grant'
  /** The token endpoint refused the request otherwise (a misconfigured client). */
  | 'rejected'
  /** The token endpoint or the JWKS did not answer in time, or answered 5xx. */
  | 'unavailable'
  /** The ID token failed verification (signature, issuer, audience, use, expiry, shape). */
  | 'invalid_token'
  | 'email_not_verified';

export class CognitoSignInError extends Error {
  constructor(
    readonly reason: CognitoFailure,
    detail: string,
  ) {
    super(`Cognito sign-in failed (${reason}): ${detail}`);
    this.name = 'CognitoSignInError';
  }
}

export interface CognitoIdentity {
  kind: 'cognito';
  settings: CognitoSettings;
  /** Where to send the browser, and the state and verifier to keep until it comes back. */
  beginSignIn(redirectUri: string): { url: string; state: string; verifier: string };
  /** Redeems the code and verifies its ID token; throws CognitoSignInError. */
  exchangeCode(input: { code: string; verifier: string; redirectUri: string }): Promise<CognitoClaims>;
  verifyIdToken(idToken: string): Promise<CognitoClaims>;
  /** The hosted UI's sign-out address, which returns the browser to `logoutUri`. */
  logoutUrl(logoutUri: string): string;
}

export interface CognitoOptions {
  /** Tests point these at a loopback fake; otherwise cognitoEndpoints(settings). */
  endpoints?: Partial<CognitoEndpoints>;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Deadline of each call to Cognito. */
  timeoutMs?: number;
}

export const COGNITO_CALL_TIMEOUT_MS = 5_000;
/** OAuth scopes the console asks for: the ID token's e-mail and name. */
export const COGNITO_SCOPES = ['openid', 'email', 'profile'] as const;

/** The JWKS per URL, for the life of the container: keys rotate rarely and a rotation is noticed by kid. */
const jwksCache = new Map<string, Map<string, KeyObject>>();

/** Forget every cached JWKS (tests). */
export function clearJwksCache(): void {
  jwksCache.clear();
}

const base64url = (buffer: Buffer) => buffer.toString('base64url');

export function pkceChallenge(verifier: string): string {
  return base64url(createHash('sha256').update(verifier, 'ascii').digest());
}

export function createCognitoIdentity(settings: CognitoSettings, options: CognitoOptions = {}): CognitoIdentity {
  const endpoints = { ...cognitoEndpoints(settings), ...options.endpoints };
  const fetchFn = options.fetch ?? fetch;
  const now = () => (options.clock ?? { now: () => Date.now() }).now();
  const timeoutMs = options.timeoutMs ?? COGNITO_CALL_TIMEOUT_MS;

  async function call(url: string, init: RequestInit, what: string): Promise<{ status: number; body: unknown }> {
    let res: Response;
    let text: string;
    try {
      res = await fetchFn(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      throw new CognitoSignInError('unavailable', `${what}: ${(err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (err as Error).message}`);
    }
    if (res.status >= 500) throw new CognitoSignInError('unavailable', `${what} answered ${res.status}`);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // A non-JSON answer is judged by its status below.
    }
    return { status: res.status, body };
  }

  async function fetchJwks(): Promise<Map<string, KeyObject>> {
    const { status, body } = await call(endpoints.jwks, { method: 'GET', headers: { accept: 'application/json' } }, 'the JWKS');
    const list = (body as { keys?: unknown } | null)?.keys;
    if (status !== 200 || !Array.isArray(list)) throw new CognitoSignInError('unavailable', `the JWKS answered ${status} without a key list`);
    const keys = new Map<string, KeyObject>();
    for (const jwk of list as (JsonWebKey & { kid?: unknown; use?: unknown })[]) {
      if (typeof jwk.kid !== 'string' || jwk.kty !== 'RSA' || (jwk.use !== undefined && jwk.use !== 'sig') || (jwk.alg !== undefined && jwk.alg !== 'RS256')) continue;
      try {
        keys.set(jwk.kid, createPublicKey({ key: { kty: jwk.kty, n: jwk.n, e: jwk.e }, format: 'jwk' }));
      } catch {
        // An unusable entry is skipped; a token signed with it fails as an unknown key.
      }
    }
    jwksCache.set(endpoints.jwks, keys);
    return keys;
  }

  async function keyFor(kid: string): Promise<KeyObject> {
    const cached = jwksCache.get(endpoints.jwks);
    const known = cached?.get(kid);
    if (known) return known;
    // Unknown kid: the pool may have rotated its keys since we cached them. Fetch once, not again.
    const fresh = await fetchJwks();
    const key = fresh.get(kid);
    if (!key) throw new CognitoSignInError('invalid_token', `no key ${kid} in the pool's JWKS`);
    return key;
  }

  async function verifyIdToken(idToken: string): Promise<CognitoClaims> {
    const invalid = (why: string): never => {
      throw new CognitoSignInError('invalid_token', why);
    };
    const parts = idToken.split('.');
    if (parts.length !== 3) invalid('not a JWS compact serialization');
    const [encodedHeader, encodedPayload, encodedSignature] = parts;
    const json = (segment: string): Record<string, unknown> => {
      try {
        const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
        if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      } catch {
        // Reported below.
      }
      return invalid('a segment is not a base64url JSON object');
    };
    const header = json(encodedHeader);
    // Only RS256: never `none`, never an HMAC keyed by the public key.
    if (header.alg !== 'RS256') invalid(`alg ${String(header.alg)} is not RS256`);
    if (typeof header.kid !== 'string' || header.kid === '') invalid('no kid');
    const key = await keyFor(header.kid as string);
    const signed = Buffer.from(`${encodedHeader}.${encodedPayload}`, 'ascii');
    if (!verifySignature('sha256', signed, key, Buffer.from(encodedSignature, 'base64url'))) invalid('bad signature');

    const claims = json(encodedPayload);
    if (claims.iss !== endpoints.issuer) invalid(`iss ${String(claims.iss)} is not this user pool`);
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(settings.clientId)) invalid('aud is not this app client');
    if (claims.token_use !== 'id') invalid(`token_use ${String(claims.token_use)} is not id`);
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now()) invalid('expired');
    if (typeof claims.sub !== 'string' || claims.sub === '') invalid('no sub');
    if (typeof claims.email !== 'string' || !claims.email.includes('@')) invalid('no email');
    // Cognito writes a boolean; federated attributes can arrive as the string "true".
    if (claims.email_verified !== true && claims.email_verified !== 'true') {
      throw new CognitoSignInError('email_not_verified', 'the e-mail address is not verified');
    }
    return { sub: claims.sub as string, email: claims.email as string, name: typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim() : null };
  }

  return {
    kind: 'cognito',
    settings,
    beginSignIn(redirectUri) {
      const state = base64url(randomBytes(32));
      const verifier = base64url(randomBytes(32));
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        scope: COGNITO_SCOPES.join(' '),
        state,
        code_challenge_method: 'S256',
        code_challenge: pkceChallenge(verifier),
      });
      return { url: `${endpoints.authorize}?${query.toString()}`, state, verifier };
    },
    async exchangeCode({ code, verifier, redirectUri }) {
      const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: settings.clientId, code, redirect_uri: redirectUri, code_verifier: verifier });
      const { status, body } = await call(
        endpoints.token,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() },
        'the token endpoint',
      );
      const answer = (body ?? {}) as { id_token?: unknown; error?: unknown };
      if (status !== 200) {
        throw new CognitoSignInError(answer.error === 'invalid_grant' ? 'invalid_grant' : 'rejected', `the token endpoint answered ${status} ${typeof answer.error === 'string' ? answer.error : ''}`.trim());
      }
      if (typeof answer.id_token !== 'string') throw new CognitoSignInError('invalid_token', 'the token endpoint answered without an id_token');
      return verifyIdToken(answer.id_token);
    },
    verifyIdToken,
    logoutUrl(logoutUri) {
      return `${endpoints.logout}?${new URLSearchParams({ client_id: settings.clientId, logout_uri: logoutUri }).toString()}`;
    },
  };
}

/** The deployment's Cognito identity from FC_CONSOLE_COGNITO_* and AWS_REGION; null when not configured. */
export function cognitoIdentityFromEnv(env: NodeJS.ProcessEnv = process.env, options: CognitoOptions = {}): CognitoIdentity | null {
  const domain = env.FC_CONSOLE_COGNITO_DOMAIN;
  const clientId = env.FC_CONSOLE_COGNITO_CLIENT_ID;
  const userPoolId = env.FC_CONSOLE_COGNITO_USER_POOL_ID;
  if (!domain && !clientId && !userPoolId) return null;
  if (!domain || !clientId || !userPoolId) {
    throw new Error('Set all of FC_CONSOLE_COGNITO_DOMAIN, FC_CONSOLE_COGNITO_CLIENT_ID and FC_CONSOLE_COGNITO_USER_POOL_ID, or none');
  }
  const region = env.AWS_REGION ?? userPoolId.split('_')[0];
  return createCognitoIdentity({ domain: domain.replace(/^https:\/\//, '').replace(/\/+$/, ''), clientId, userPoolId, region }, options);
}
