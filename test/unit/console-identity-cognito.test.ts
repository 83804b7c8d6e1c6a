// The console's Cognito adapter against a loopback fake of the user pool: the hosted UI address with
// state and PKCE (S256), the code exchange at the token endpoint (single-use codes bound to their
// verifier and redirect URI, as Cognito does), and the ID token's verification with node:crypto
// against the pool's JWKS, including a key rotation and every way a token or the endpoint can fail.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeCognitoSignIn } from '../../functions/app/console/session';
import { consoleIdentityFromEnv, localPasswordIdentity } from '../../functions/platform/console-identity';
import {
  clearJwksCache,
  cognitoEndpoints,
  cognitoIdentityFromEnv,
  createCognitoIdentity,
  type CognitoFailure,
  type CognitoIdentity,
} from '../../functions/platform/console-identity-cognito';
import type { Deps } from '../../functions/platform/runtime';

const REGION = 'eu-west-1';
const POOL = 'eu-west-1_AbCdEf123';
const CLIENT_ID = '4example0client0id0000000';
const ISSUER = `https://cognito-idp.${REGION}.amazonaws.com/${POOL}`;
const REDIRECT = 'https://api.example.com/console/api/auth/callback';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function newKey(kid: string): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const head = b64({ kid: key.kid, alg: 'RS256', ...header });
  const body = b64(claims);
  return `${head}.${body}.${sign('sha256', Buffer.from(`${head}.${body}`), key.privateKey).toString('base64url')}`;
}

function idClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    aud: CLIENT_ID,
    email_verified: true,
    token_use: 'id',
    auth_time: NOW / 1000,
    iss: ISSUER,
    'cognito:username': 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
    exp: NOW / 1000 + 3600,
    iat: NOW / 1000,
    email: 'Dev@Example.com',
    name: 'Dev Eloper',
    ...overrides,
  };
}

/** A loopback user pool: /oauth2/token and /jwks.json, with switches for its failure modes. */
class FakeUserPool {
  server!: Server;
  base = '';
  keys: SigningKey[] = [newKey('key-a')];
  signWith: SigningKey = this.keys[0];
  /** Claims of the ID token the next codes redeem to. */
  claims: Record<string, unknown> = idClaims();
  codes = new Map<string, { challenge: string; redirectUri: string; spent: boolean }>();
  tokenMode: 'ok' | 'error500' | 'hang' = 'ok';
  jwksFetches = 0;
  tokenRequests: URLSearchParams[] = [];

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.method === 'GET' && req.url === '/jwks.json') {
          this.jwksFetches += 1;
          return json(200, { keys: this.keys.map((k) => k.jwk) });
        }
        if (req.method === 'POST' && req.url === '/oauth2/token') {
          if (this.tokenMode === 'hang') return; // never answers: the client's deadline must end it
          if (this.tokenMode === 'error500') return json(500, { error: 'internal' });
          if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return json(400, { error: 'invalid_request' });
          const form = new URLSearchParams(body);
          this.tokenRequests.push(form);
          if (form.get('client_id') !== CLIENT_ID) return json(400, { error: 'invalid_client' });
          const code = this.codes.get(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (form.get('grant_type') !== 'authorization_code' || !code || code.spent || code.challenge !== challenge || code.redirectUri !== form.get('redirect_uri')) {
            return json(400, { error: 'invalid_grant' });
          }
          code.spent = true;
          return json(200, { id_token: jwt(this.signWith, this.claims), access_token: 'not-used', refresh_token: 'not-used', token_type: 'Bearer', expires_in: 3600 });
        }
        json(404, {});
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** What the hosted UI does once the user signed in: a code for the challenge the authorize URL carried. */
  authorize(url: string): { code: string; state: string } {
    const query = new URL(url).searchParams;
    const code = `code-${this.codes.size + 1}`;
    this.codes.set(code, { challenge: query.get('code_challenge')!, redirectUri: query.get('redirect_uri')!, spent: false });
    return { code, state: query.get('state')! };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let pool: FakeUserPool;
let clock: { now: () => number };

function identity(timeoutMs?: number): CognitoIdentity {
  return createCognitoIdentity(
    { domain: 'fincore-test.auth.eu-west-1.amazoncognito.com', clientId: CLIENT_ID, userPoolId: POOL, region: REGION },
    { endpoints: { token: `${pool.base}/oauth2/token`, jwks: `${pool.base}/jwks.json` }, clock, timeoutMs },
  );
}

async function signIn(cognito: CognitoIdentity) {
  const started = cognito.beginSignIn(REDIRECT);
  const back = pool.authorize(started.url);
  return { started, back, claims: await cognito.exchangeCode({ code: back.code, verifier: started.verifier, redirectUri: REDIRECT }) };
}

async function failure(p: Promise<unknown>): Promise<CognitoFailure | 'succeeded'> {
  try {
    await p;
    return 'succeeded';
  } catch (err) {
    return (err as { reason: CognitoFailure }).reason;
  }
}

beforeEach(async () => {
  clearJwksCache();
  clock = { now: () => NOW };
  pool = new FakeUserPool();
  await pool.start();
});
afterEach(async () => pool.stop());

describe('the hosted UI address', () => {
  it('asks for an authorization code with PKCE S256, our client, scopes and redirect URI, and a fresh random state', () => {
    const cognito = identity();
    const first = cognito.beginSignIn(REDIRECT);
    const url = new URL(first.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://fincore-test.auth.eu-west-1.amazoncognito.com/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT,
      scope: 'openid email profile',
      state: first.state,
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(first.verifier).digest('base64url'),
    });
    // RFC 7636: a verifier of 43+ unreserved characters; 32 random bytes each for state and verifier.
    expect(first.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = cognito.beginSignIn(REDIRECT);
    expect(second.state).not.toBe(first.state);
    expect(second.verifier).not.toBe(first.verifier);
  });

  it('sends the browser back through the hosted UI sign-out to the console', () => {
    const url = new URL(identity().logoutUrl('https://api.example.com/console/'));
    expect(url.pathname).toBe('/logout');
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: CLIENT_ID, logout_uri: 'https://api.example.com/console/' });
  });
});

describe('exchanging the code', () => {
  it('redeems the code with its verifier and redirect URI (no client secret) and returns the verified claims', async () => {
    const { claims } = await signIn(identity());
    expect(claims).toEqual({ sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', email: 'Dev@Example.com', name: 'Dev Eloper' });
    const [form] = pool.tokenRequests;
    expect([...form.keys()].sort()).toEqual(['client_id', 'code', 'code_verifier', 'grant_type', 'redirect_uri']);
  });

  it('answers invalid_grant for a reused code, a wrong verifier and another redirect URI', async () => {
    const cognito = identity();
    const { started, back } = await signIn(cognito);
    expect(await failure(cognito.exchangeCode({ code: back.code, verifier: started.verifier, redirectUri: REDIRECT }))).toBe('invalid_grant');

    const other = cognito.beginSignIn(REDIRECT);
    const code = pool.authorize(other.url).code;
    expect(await failure(cognito.exchangeCode({ code, verifier: started.verifier, redirectUri: REDIRECT }))).toBe('invalid_grant');

    const third = cognito.beginSignIn(REDIRECT);
    const code3 = pool.authorize(third.url).code;
    expect(await failure(cognito.exchangeCode({ code: code3, verifier: third.verifier, redirectUri: 'https://evil.example/cb' }))).toBe('invalid_grant');
  });

  it('answers unavailable when the token endpoint fails with 5xx or does not answer within the deadline', async () => {
    pool.tokenMode = 'error500';
    expect(await failure(signIn(identity()))).toBe('unavailable');
    pool.tokenMode = 'hang';
    expect(await failure(signIn(identity(150)))).toBe('unavailable');
  });
});

describe('verifying the ID token', () => {
  it.each<[string, Record<string, unknown>, CognitoFailure]>([
    ['expired', { exp: NOW / 1000 - 1 }, 'invalid_token'],
    ['expiring exactly now', { exp: NOW / 1000 }, 'invalid_token'],
    ['for another app client (aud)', { aud: 'another-client' }, 'invalid_token'],
    ['from another user pool (iss)', { iss: `https://cognito-idp.${REGION}.amazonaws.com/${REGION}_Other` }, 'invalid_token'],
    ['an access token (token_use)', { token_use: 'access' }, 'invalid_token'],
    ['without sub', { sub: undefined }, 'invalid_token'],
    ['with an unverified e-mail', { email_verified: false }, 'email_not_verified'],
    ['without email_verified', { email_verified: undefined }, 'email_not_verified'],
  ])('refuses a token %s', async (_what, overrides, reason) => {
    pool.claims = idClaims(overrides);
    expect(await failure(signIn(identity()))).toBe(reason);
  });

  it('accepts email_verified given as the string "true" (federated attributes)', async () => {
    pool.claims = idClaims({ email_verified: 'true' });
    expect(await failure(signIn(identity()))).toBe('succeeded');
  });

  it('refuses a token whose payload was changed after signing, alg none and HS256', async () => {
    const cognito = identity();
    const good = jwt(pool.keys[0], idClaims());
    const [head, , signature] = good.split('.');
    expect(await failure(cognito.verifyIdToken(`${head}.${b64(idClaims({ email: 'admin@example.com' }))}.${signature}`))).toBe('invalid_token');
    expect(await failure(cognito.verifyIdToken(`${b64({ alg: 'none', kid: 'key-a' })}.${b64(idClaims())}.`))).toBe('invalid_token');
    expect(await failure(cognito.verifyIdToken(jwt(pool.keys[0], idClaims(), { alg: 'HS256' })))).toBe('invalid_token');
    expect(await failure(cognito.verifyIdToken('not-a-jwt'))).toBe('invalid_token');
    expect(await failure(cognito.verifyIdToken(good))).toBe('succeeded');
  });

  it('caches the JWKS, fetches it once more for an unknown kid (a rotation), and refuses a kid still unknown after that', async () => {
    const cognito = identity();
    await signIn(cognito);
    await signIn(cognito);
    expect(pool.jwksFetches).toBe(1);

    // The pool rotates: a new key signs, the old one is still published.
    const rotated = newKey('key-b');
    pool.keys.push(rotated);
    pool.signWith = rotated;
    expect(await failure(signIn(cognito))).toBe('succeeded');
    expect(pool.jwksFetches).toBe(2);
    await signIn(cognito);
    expect(pool.jwksFetches).toBe(2);

    // A key the pool never published: one more fetch, then a refusal (no loop).
    expect(await failure(cognito.verifyIdToken(jwt(newKey('key-unknown'), idClaims())))).toBe('invalid_token');
    expect(pool.jwksFetches).toBe(3);
  });

  it('refuses a token signed by another key under a published kid', async () => {
    const impostor = { ...newKey('x'), kid: 'key-a' };
    expect(await failure(identity().verifyIdToken(jwt(impostor, idClaims())))).toBe('invalid_token');
  });
});

describe('completing a sign-in', () => {
  // The state check comes before any storage access or call to Cognito, so no table is needed here.
  const noStorage = {} as Deps;

  it.each([
    ['another state', 'state-from-elsewhere'],
    ['no state', ''],
  ])('refuses a callback with %s, without calling the token endpoint', async (_what, state) => {
    const cognito = identity();
    const started = cognito.beginSignIn(REDIRECT);
    const back = pool.authorize(started.url);
    await expect(
      completeCognitoSignIn(noStorage, cognito, { code: back.code, state, expectedState: started.state, verifier: started.verifier, redirectUri: REDIRECT }),
    ).rejects.toMatchObject({ code: 'sign_in_failed', status: 400 });
    expect(pool.tokenRequests).toHaveLength(0);
  });

  it('maps the adapter failures to the console answers', async () => {
    const cognito = identity();
    const attempt = async () => {
      const started = cognito.beginSignIn(REDIRECT);
      const back = pool.authorize(started.url);
      return completeCognitoSignIn(noStorage, cognito, { code: back.code, state: back.state, expectedState: started.state, verifier: started.verifier, redirectUri: REDIRECT });
    };
    pool.claims = idClaims({ email_verified: false });
    await expect(attempt()).rejects.toMatchObject({ code: 'email_not_verified', status: 403 });
    pool.claims = idClaims({ aud: 'another-client' });
    await expect(attempt()).rejects.toMatchObject({ code: 'sign_in_failed', status: 400 });
    pool.tokenMode = 'error500';
    await expect(attempt()).rejects.toMatchObject({ code: 'identity_provider_unavailable', status: 502 });
  });
});

describe('configuration from the environment', () => {
  it('builds the documented endpoints from FC_CONSOLE_COGNITO_* and AWS_REGION', () => {
    const cognito = cognitoIdentityFromEnv({
      FC_CONSOLE_COGNITO_DOMAIN: 'fincore-sandbox-111111111111.auth.eu-west-1.amazoncognito.com',
      FC_CONSOLE_COGNITO_CLIENT_ID: CLIENT_ID,
      FC_CONSOLE_COGNITO_USER_POOL_ID: POOL,
      AWS_REGION: REGION,
    });
    expect(cognito?.settings).toEqual({ domain: 'fincore-sandbox-111111111111.auth.eu-west-1.amazoncognito.com', clientId: CLIENT_ID, userPoolId: POOL, region: REGION });
    expect(cognitoEndpoints(cognito!.settings)).toEqual({
      authorize: 'https://fincore-sandbox-111111111111.auth.eu-west-1.amazoncognito.com/oauth2/authorize',
      token: 'https://fincore-sandbox-111111111111.auth.eu-west-1.amazoncognito.com/oauth2/token',
      logout: 'https://fincore-sandbox-111111111111.auth.eu-west-1.amazoncognito.com/logout',
      jwks: `https://cognito-idp.${REGION}.amazonaws.com/${POOL}/.well-known/jwks.json`,
      issuer: ISSUER,
    });
  });

  it('is not configured without the variables, and refuses half a configuration', () => {
    expect(cognitoIdentityFromEnv({})).toBeNull();
    expect(() => cognitoIdentityFromEnv({ FC_CONSOLE_COGNITO_CLIENT_ID: CLIENT_ID })).toThrow(/all of/);
  });

  it('uses local passwords only in the local runtime: a deployed stage without Cognito is a configuration error', () => {
    expect(consoleIdentityFromEnv({ FC_STAGE: 'local' })).toBe(localPasswordIdentity);
    expect(() => consoleIdentityFromEnv({ FC_STAGE: 'sandbox' })).toThrow(/Cognito/);
    expect(consoleIdentityFromEnv({ FC_STAGE: 'production', FC_CONSOLE_COGNITO_DOMAIN: 'd', FC_CONSOLE_COGNITO_CLIENT_ID: 'c', FC_CONSOLE_COGNITO_USER_POOL_ID: POOL }).kind).toBe('cognito');
  });
});
