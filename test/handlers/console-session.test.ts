// Console users, sign-in and sessions against DynamoDB Local, with the clock injected: password
// sign-in and its one answer for every failure, the fixed-window throttles (every attempt per client
// address; failures per e-mail address, from one client address and from all), the per-session
// console call throttle, the idle (sliding) and absolute session deadlines, the
// at-most-once-per-5-minutes refresh, sign-out, the CSRF check, Cognito users found by sub or bound
// by verified e-mail, sign-up by invitation, and the local first owner.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { sha256Hex } from '../../functions/core/api-keys';
import { createInvitation } from '../../functions/app/console/invitations';
import {
  completeCognitoSignIn,
  CONSOLE_SESSION,
  csrfMatches,
  currentSession,
  SESSION_REQUEST_LIMITS,
  SIGN_IN_LIMITS,
  signInWithPassword,
  signOut,
  signUpWithInvitation,
} from '../../functions/app/console/session';
import { SignInRequest } from '../../functions/contracts/console-schemas';
import type { ConsoleActor } from '../../functions/app/console/actor';
import { getApplication, putApplication } from '../../functions/data/api-keys-repo';
import { getMembership, getOrganization } from '../../functions/data/console-repo';
import {
  bindIdentity,
  createUser,
  EmailTakenError,
  getSession,
  getUser,
  getUsers,
  touchSession,
  userByEmail,
  userForIdentity,
} from '../../functions/data/console-sessions-repo';
import { keys } from '../../functions/data/keys';
import { hashPassword, verifyPassword, type LocalPasswordIdentity } from '../../functions/platform/console-identity';
import type { CognitoClaims, CognitoIdentity } from '../../functions/platform/console-identity-cognito';
import { CognitoSignInError } from '../../functions/platform/console-identity-cognito';
import { ensureConsoleOwner, localOrganizationIdFor } from '../../functions/platform/local/console-owner';
import { embeddedDeps, type ManualClock } from '../support/embedded';

type TestDeps = Awaited<ReturnType<typeof embeddedDeps>>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const PASSWORD = 'correct horse battery staple';

let deps: TestDeps;
let clock: ManualClock;
let counter = 0;
const uniqueEmail = (what = 'user') => `${what}-${++counter}@Example.com`;
const uniqueAddress = () => `203.0.113.${++counter % 250}`;

beforeAll(async () => {
  deps = await embeddedDeps();
  clock = deps.clock;
});

async function userWithPassword(email = uniqueEmail()) {
  return createUser(deps, { email, name: 'Pat Example', passwordHash: await hashPassword(PASSWORD) });
}

interface Refusal {
  /** The catalogue code. */
  code: string;
  status: number;
  message: string;
  headers?: Record<string, string>;
}

async function codeOf(p: Promise<unknown>): Promise<Refusal | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    const e = err as { code: string; status: number; message: string; headers?: Record<string, string> };
    return { code: e.code, status: e.status, message: e.message, headers: e.headers };
  }
}

/** A password identity that does no scrypt work: for the throttle tests, which make many attempts. */
const instantPasswords: LocalPasswordIdentity = {
  kind: 'local',
  hashPassword: async (p) => `plain:${p}`,
  verifyPassword: async (p, stored) => stored === `plain:${p}`,
};

describe('users', () => {
  it('keeps one user per e-mail address, whatever its case and blanks (EmailTakenError, nothing written)', async () => {
    const email = uniqueEmail();
    const user = await createUser(deps, { email: `  ${email.toUpperCase()} `, name: ' Pat ' });
    expect(user).toMatchObject({ email: email.toLowerCase(), name: 'Pat' });
    expect(user.userId).toMatch(/^usr_[0-9a-f]{16}$/);
    await expect(createUser(deps, { email: email.toLowerCase(), name: 'Other' })).rejects.toBeInstanceOf(EmailTakenError);
    expect((await userByEmail(deps, email))?.userId).toBe(user.userId);
    expect(await getUser(deps, user.userId)).toEqual(user);
    const both = await getUsers(deps, [user.userId, 'usr_missing0000000', user.userId]);
    expect([...both.keys()]).toEqual([user.userId]);
  });

  it('creates one user out of concurrent sign-ups with one address', async () => {
    const email = uniqueEmail();
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => createUser(deps, { email, name: 'Racer' }).then(() => 'created', (e: Error) => e.name)));
    expect(outcomes.sort()).toEqual([...Array(7).fill('EmailTakenError'), 'created'].sort());
  });

  it('binds an identity once and never moves it to another user', async () => {
    const a = await createUser(deps, { email: uniqueEmail(), name: 'A' });
    const b = await createUser(deps, { email: uniqueEmail(), name: 'B' });
    expect(await bindIdentity(deps, a.userId, 'cognito', `sub-${counter}`)).toBe(true);
    expect(await bindIdentity(deps, b.userId, 'cognito', `sub-${counter}`)).toBe(false);
    expect((await userForIdentity(deps, 'cognito', `sub-${counter}`))?.userId).toBe(a.userId);
  });
});

describe('password sign-in', () => {
  it('signs in with the right password (any case of the address) and opens a session the cookie token finds', async () => {
    const user = await userWithPassword();
    const caller = { clientAddress: uniqueAddress() };
    const signedIn = await signInWithPassword(deps, caller, SignInRequest.parse({ email: user.email.toUpperCase(), password: PASSWORD }));
    expect(signedIn.answer).toEqual({ user: { user_id: user.userId, email: user.email, name: user.name }, csrf_token: expect.any(String), identity: 'local' });
    expect(signedIn.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedIn.sessionExpiresAt).toBe(new Date(clock.now() + CONSOLE_SESSION.absoluteMs).toISOString());
    // The answer a browser sees holds no session token; the cookie does.
    expect(JSON.stringify(signedIn.answer)).not.toContain(signedIn.sessionToken);

    const session = await currentSession(deps, signedIn.sessionToken);
    expect(session).toMatchObject({ user: { userId: user.userId, email: user.email, name: user.name }, identity: 'local', csrfToken: signedIn.answer.csrf_token });
  });

  it('stores the session only under the SHA-256 of its token, and never the token or the CSRF token', async () => {
    const user = await userWithPassword();
    const signedIn = await signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD });
    const row = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.consoleSession(sha256Hex(signedIn.sessionToken)) }))).Item!;
    expect(row).toBeDefined();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(signedIn.sessionToken);
    expect(stored).not.toContain(signedIn.answer.csrf_token);
    expect(row.expires_at).toBe(Math.ceil((clock.now() + CONSOLE_SESSION.idleMs) / 1000));
  });

  it('answers a wrong password, an unknown address and a user without a password alike: 401 invalid_credentials', async () => {
    const user = await userWithPassword();
    const cognitoOnly = await createUser(deps, { email: uniqueEmail(), name: 'No password' });
    const attempt = (email: string, password: string) => codeOf(signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email, password }));
    const wrong = await attempt(user.email, 'not the password at all');
    const unknown = await attempt(uniqueEmail('nobody'), PASSWORD);
    const passwordless = await attempt(cognitoOnly.email, PASSWORD);
    expect(wrong).toEqual({ code: 'console_invalid_credentials', status: 401, message: 'The e-mail address or password is incorrect.', headers: {} });
    expect(unknown).toEqual(wrong);
    expect(passwordless).toEqual(wrong);
  });

  it('accepts owner@localhost as an address (no dotted domain needed) and refuses what is no address', () => {
    expect(SignInRequest.safeParse({ email: 'owner@localhost', password: 'x' }).success).toBe(true);
    expect(SignInRequest.safeParse({ email: 'owner', password: 'x' }).success).toBe(false);
    expect(SignInRequest.safeParse({ email: 'a@b', password: 'x', extra: 1 }).success).toBe(false);
  });
});

describe('password hashing', () => {
  it('stores scrypt N=2^15 r=8 p=1 with a 16-byte salt and a 32-byte key, salted per hash', async () => {
    const [one, two] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    const [scheme, log2N, r, p, salt, key] = one.split('$');
    expect({ scheme, log2N, r, p }).toEqual({ scheme: 'scrypt', log2N: '15', r: '8', p: '1' });
    expect(Buffer.from(salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(two).not.toBe(one);
    expect(await verifyPassword(PASSWORD, one)).toBe(true);
    expect(await verifyPassword(PASSWORD, two)).toBe(true);
    expect(await verifyPassword(`${PASSWORD} `, one)).toBe(false);
  });

  it('never verifies against no hash, a foreign format or weakened parameters', async () => {
    const good = await hashPassword(PASSWORD);
    const parts = good.split('$');
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'plain:whatever')).toBe(false);
    expect(await verifyPassword(PASSWORD, ['scrypt', '4', ...parts.slice(2)].join('$'))).toBe(false);
  });
});

describe('sign-in throttling (fixed 15-minute windows)', () => {
  const signIn = (address: string, email: string, password: string) => codeOf(signInWithPassword(deps, { clientAddress: address }, { email, password }, instantPasswords));
  const userWithInstantPassword = async () => createUser(deps, { email: uniqueEmail(), name: 'T', passwordHash: await instantPasswords.hashPassword(PASSWORD) });

  it(`counts only failures against an e-mail address: ${SIGN_IN_LIMITS.perEmailFromAddress} from one client address lock that address out of it (429 with Retry-After, even for the right password) until the next window, not its owner elsewhere`, async () => {
    clock.set(Date.UTC(2026, 10, 22, 9, 0, 0));
    const user = await userWithInstantPassword();
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromAddress; i += 1) {
      expect(await signIn('198.51.100.66', user.email, 'wrong')).toMatchObject({ code: 'console_invalid_credentials' });
    }
    clock.advance(6 * MINUTE + 30_000);
    const refused = await signIn('198.51.100.66', user.email.toUpperCase(), PASSWORD);
    expect(refused).toMatchObject({ code: 'rate_limit_exceeded', status: 429, headers: { 'Retry-After': String(8 * 60 + 30) } });
    // The owner of the address, from their own client address, is not locked out by someone else's guesses.
    expect(await signIn('198.51.100.67', user.email, PASSWORD)).toBe('ok');

    clock.set(Date.UTC(2026, 10, 22, 9, 15, 0));
    expect(await signIn('198.51.100.66', user.email, PASSWORD)).toBe('ok');
  });

  it(`bounds the failures of one e-mail address from all client addresses together (${SIGN_IN_LIMITS.perEmail} per window): then even the right password is refused, from anywhere`, async () => {
    clock.set(Date.UTC(2026, 10, 22, 9, 30, 0));
    const user = await userWithInstantPassword();
    const perAddress = SIGN_IN_LIMITS.perEmailFromAddress;
    for (let a = 0; a < SIGN_IN_LIMITS.perEmail / perAddress; a += 1) {
      const outcomes = await Promise.all(Array.from({ length: perAddress }, () => signIn(`100.70.${a}.1`, user.email, 'guess')));
      expect(outcomes.map((o) => (o === 'ok' ? 'ok' : o.code))).toEqual(Array(perAddress).fill('console_invalid_credentials'));
    }
    expect(await signIn('100.71.0.1', user.email, PASSWORD)).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(await signIn('100.71.0.2', user.email, 'guess')).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
  });

  it('takes back the count of an attempt that succeeds: signing in often from one address never locks its owner out', async () => {
    clock.set(Date.UTC(2026, 10, 22, 9, 45, 0));
    const user = await userWithInstantPassword();
    for (let i = 0; i < 3 * SIGN_IN_LIMITS.perEmailFromAddress; i += 1) expect(await signIn('198.51.100.90', user.email, PASSWORD)).toBe('ok');
    // Only failures count: the full allowance of failures is still there.
    for (let i = 0; i < SIGN_IN_LIMITS.perEmailFromAddress; i += 1) {
      expect(await signIn('198.51.100.90', user.email, 'wrong')).toMatchObject({ code: 'console_invalid_credentials' });
    }
    expect(await signIn('198.51.100.90', user.email, PASSWORD)).toMatchObject({ code: 'rate_limit_exceeded' });
  });

  it(`allows ${SIGN_IN_LIMITS.perAddress} attempts per client address per window, whatever the addresses tried`, async () => {
    clock.set(Date.UTC(2026, 10, 22, 10, 0, 0));
    const address = '192.0.2.77';
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i += 1) {
      expect(await codeOf(signInWithPassword(deps, { clientAddress: address }, { email: uniqueEmail('spray'), password: 'guess' }, instantPasswords))).toMatchObject({ code: 'console_invalid_credentials' });
    }
    const user = await createUser(deps, { email: uniqueEmail(), name: 'T', passwordHash: await instantPasswords.hashPassword(PASSWORD) });
    const refused = await codeOf(signInWithPassword(deps, { clientAddress: address }, { email: user.email, password: PASSWORD }, instantPasswords));
    expect(refused).toMatchObject({ code: 'rate_limit_exceeded', status: 429, headers: { 'Retry-After': String(15 * 60) } });
    // Another address is not affected, and neither is this user from there.
    expect(await codeOf(signInWithPassword(deps, { clientAddress: '192.0.2.78' }, { email: user.email, password: PASSWORD }, instantPasswords))).toBe('ok');
  });

  it('counts attempts racing in one window exactly: no more than the limit get through', async () => {
    clock.set(Date.UTC(2026, 10, 22, 11, 0, 0));
    const email = uniqueEmail();
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => signIn('100.64.0.9', email, 'x')));
    const codes = outcomes.map((o) => (o === 'ok' ? 'ok' : o.code));
    expect(codes.filter((c) => c === 'console_invalid_credentials')).toHaveLength(SIGN_IN_LIMITS.perEmailFromAddress);
    expect(codes.filter((c) => c === 'rate_limit_exceeded')).toHaveLength(25 - SIGN_IN_LIMITS.perEmailFromAddress);
  });
});

describe('console call throttling (per session, fixed windows)', () => {
  it(`lets a session make ${SESSION_REQUEST_LIMITS.perWindow} calls per ${SESSION_REQUEST_LIMITS.windowMs / 1000}-second window, then answers 429 with Retry-After until the next; other sessions are not affected`, async () => {
    clock.set(Date.UTC(2026, 10, 22, 12, 0, 0));
    const user = await createUser(deps, { email: uniqueEmail(), name: 'Busy', passwordHash: await instantPasswords.hashPassword(PASSWORD) });
    const busy = await signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD }, instantPasswords);
    const calm = await signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD }, instantPasswords);
    const burst = await Promise.all(Array.from({ length: SESSION_REQUEST_LIMITS.perWindow + 5 }, () => codeOf(currentSession(deps, busy.sessionToken))));
    expect(burst.filter((o) => o === 'ok')).toHaveLength(SESSION_REQUEST_LIMITS.perWindow);
    expect(burst.filter((o) => o !== 'ok')).toEqual(Array(5).fill(expect.objectContaining({ code: 'rate_limit_exceeded', status: 429, headers: { 'Retry-After': '3' } })));
    clock.advance(2_500);
    expect(await codeOf(currentSession(deps, busy.sessionToken))).toMatchObject({ code: 'rate_limit_exceeded', headers: { 'Retry-After': '1' } });
    expect(await currentSession(deps, calm.sessionToken)).not.toBeNull();
    clock.advance(500);
    expect(await currentSession(deps, busy.sessionToken)).not.toBeNull();
  });

  it('counts nothing for a token that finds no session', async () => {
    const before = deps.ddbCalls.count;
    expect(await currentSession(deps, 'B'.repeat(43))).toBeNull();
    expect(deps.ddbCalls.count - before).toBe(1);
  });
});

describe('session lifetime', () => {
  async function freshSession() {
    clock.set(Date.UTC(2026, 10, 23, 8, 0, 0));
    const user = await createUser(deps, { email: uniqueEmail(), name: 'S', passwordHash: await instantPasswords.hashPassword(PASSWORD) });
    return signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD }, instantPasswords);
  }
  const lastSeen = async (token: string) => (await getSession(deps, sha256Hex(token)))?.lastSeenAt;

  it('ends 12 hours after the last refresh (idle), and deletes the ended row', async () => {
    const { sessionToken } = await freshSession();
    clock.advance(12 * HOUR - 1);
    expect(await currentSession(deps, sessionToken)).not.toBeNull(); // refreshed now: 12 more hours
    clock.advance(12 * HOUR - 1);
    expect(await currentSession(deps, sessionToken)).not.toBeNull();
    clock.advance(12 * HOUR);
    expect(await currentSession(deps, sessionToken)).toBeNull();
    expect(await getSession(deps, sha256Hex(sessionToken))).toBeUndefined();
  });

  it('ends 7 days after sign-in however busy it is (absolute), with the TTL never beyond that', async () => {
    const { sessionToken } = await freshSession();
    const signedInAt = clock.now();
    while (clock.now() + 6 * HOUR < signedInAt + CONSOLE_SESSION.absoluteMs) {
      clock.advance(6 * HOUR);
      expect(await currentSession(deps, sessionToken)).not.toBeNull();
    }
    const row = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.consoleSession(sha256Hex(sessionToken)) }))).Item!;
    expect(row.expires_at).toBe(Math.ceil((signedInAt + CONSOLE_SESSION.absoluteMs) / 1000));
    const session = await currentSession(deps, sessionToken);
    expect(session?.expiresAt).toBe(new Date(signedInAt + CONSOLE_SESSION.absoluteMs).toISOString());
    clock.set(signedInAt + CONSOLE_SESSION.absoluteMs);
    expect(await currentSession(deps, sessionToken)).toBeNull();
  });

  it('refreshes the idle deadline at most once per 5 minutes, once however many requests race', async () => {
    const { sessionToken } = await freshSession();
    const start = clock.now();
    clock.advance(4 * MINUTE);
    await currentSession(deps, sessionToken);
    expect(await lastSeen(sessionToken)).toBe(start);
    clock.advance(MINUTE);
    const before = deps.ddbCalls.count;
    await Promise.all(Array.from({ length: 10 }, () => currentSession(deps, sessionToken)));
    // 10 reads, and the writes tried by those that saw it due: the condition lets exactly one through.
    expect(await lastSeen(sessionToken)).toBe(start + 5 * MINUTE);
    expect(deps.ddbCalls.count - before).toBeGreaterThanOrEqual(11);
    const record = (await getSession(deps, sha256Hex(sessionToken)))!;
    const raced = await Promise.all(Array.from({ length: 10 }, () => touchSession(deps, { ...record, lastSeenAt: start }, clock.now() + MINUTE * 6, CONSOLE_SESSION.touchEveryMs)));
    expect(raced.filter(Boolean)).toHaveLength(1);
  });

  it('finds nothing for a missing, malformed or unknown token', async () => {
    expect(await currentSession(deps, undefined)).toBeNull();
    expect(await currentSession(deps, '')).toBeNull();
    expect(await currentSession(deps, 'short')).toBeNull();
    expect(await currentSession(deps, 'A'.repeat(43))).toBeNull();
  });

  it('signs out: the row is gone and the token finds nothing; signing out twice or without a session is fine', async () => {
    const { sessionToken } = await freshSession();
    expect(await signOut(deps, sessionToken)).toEqual({});
    expect(await currentSession(deps, sessionToken)).toBeNull();
    expect(await getSession(deps, sha256Hex(sessionToken))).toBeUndefined();
    expect(await signOut(deps, sessionToken)).toEqual({});
    expect(await signOut(deps, undefined)).toEqual({});
  });
});

describe('CSRF', () => {
  it("matches only this session's token, and is the same token each time the session is read", async () => {
    const user = await userWithPassword();
    const a = await signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD });
    const b = await signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email: user.email, password: PASSWORD });
    const session = (await currentSession(deps, a.sessionToken))!;
    expect(session.csrfToken).toBe(a.answer.csrf_token);
    expect((await currentSession(deps, a.sessionToken))!.csrfToken).toBe(a.answer.csrf_token);
    expect(csrfMatches(session, a.answer.csrf_token)).toBe(true);
    expect(csrfMatches(session, b.answer.csrf_token)).toBe(false);
    expect(csrfMatches(session, a.answer.csrf_token.slice(0, -1))).toBe(false);
    expect(csrfMatches(session, `${a.answer.csrf_token}x`)).toBe(false);
    expect(csrfMatches(session, a.sessionToken)).toBe(false);
    expect(csrfMatches(session, '')).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, null)).toBe(false);
  });
});

describe('Cognito sign-in', () => {
  /** The adapter's contract, with the exchange answering fixed claims (the adapter itself: test/unit/console-identity-cognito.test.ts). */
  function cognitoAnswering(claims: CognitoClaims | CognitoSignInError): CognitoIdentity & { exchanges: number } {
    const fake = {
      kind: 'cognito' as const,
      settings: { domain: 'd', clientId: 'c', userPoolId: 'p', region: 'r' },
      exchanges: 0,
      beginSignIn: () => ({ url: 'https://d/oauth2/authorize', state: 's', verifier: 'v' }),
      exchangeCode: async () => {
        fake.exchanges += 1;
        if (claims instanceof CognitoSignInError) throw claims;
        return claims;
      },
      verifyIdToken: async () => claims as CognitoClaims,
      logoutUrl: () => 'https://d/logout',
    };
    return fake;
  }
  const callback = { code: 'c0de', state: 'st4te', expectedState: 'st4te', verifier: 'v3rifier', redirectUri: 'http://127.0.0.1/console/api/auth/callback' };

  it('creates the user on the first sign-in, finds it by sub afterwards (also after an e-mail change at Cognito), with a cognito session', async () => {
    const sub = `sub-${++counter}`;
    const email = uniqueEmail('cognito');
    const first = await completeCognitoSignIn(deps, cognitoAnswering({ sub, email, name: 'Cog Nito' }), callback);
    expect(first.answer).toMatchObject({ user: { email: email.toLowerCase(), name: 'Cog Nito' }, identity: 'cognito' });
    const again = await completeCognitoSignIn(deps, cognitoAnswering({ sub, email: uniqueEmail('renamed'), name: null }), callback);
    expect(again.answer.user.user_id).toBe(first.answer.user.user_id);
    expect((await currentSession(deps, again.sessionToken))?.identity).toBe('cognito');
  });

  it('binds a first Cognito sign-in to the existing user with that verified address (an invited local user)', async () => {
    const existing = await userWithPassword();
    const sub = `sub-${++counter}`;
    const signedIn = await completeCognitoSignIn(deps, cognitoAnswering({ sub, email: existing.email.toUpperCase(), name: 'Whatever' }), callback);
    expect(signedIn.answer.user.user_id).toBe(existing.userId);
    expect((await userForIdentity(deps, 'cognito', sub))?.userId).toBe(existing.userId);
  });

  it('makes one user out of concurrent first sign-ins of one person', async () => {
    const sub = `sub-${++counter}`;
    const email = uniqueEmail('race');
    const results = await Promise.all(Array.from({ length: 6 }, () => completeCognitoSignIn(deps, cognitoAnswering({ sub, email, name: null }), callback)));
    expect(new Set(results.map((r) => r.answer.user.user_id)).size).toBe(1);
    expect(results[0].answer.user.name).toBe(email.split('@')[0].toLowerCase());
  });

  it('refuses a state that is not the one the sign-in began with, before redeeming the code', async () => {
    const cognito = cognitoAnswering({ sub: 'x', email: uniqueEmail(), name: null });
    expect(await codeOf(completeCognitoSignIn(deps, cognito, { ...callback, state: 'other' }))).toMatchObject({ code: 'sign_in_failed', status: 400 });
    expect(cognito.exchanges).toBe(0);
  });

  it('answers a spent code with sign_in_failed (400), an unverified address with 403 and an unreachable Cognito with 502', async () => {
    const outcome = (failure: CognitoSignInError) => codeOf(completeCognitoSignIn(deps, cognitoAnswering(failure), callback));
    expect(await outcome(new CognitoSignInError('invalid_grant', 'reused'))).toMatchObject({ code: 'sign_in_failed', status: 400 });
    expect(await outcome(new CognitoSignInError('email_not_verified', 'no'))).toMatchObject({ code: 'email_not_verified', status: 403 });
    expect(await outcome(new CognitoSignInError('unavailable', 'timeout'))).toMatchObject({ code: 'identity_provider_unavailable', status: 502 });
  });
});

describe('sign-up by invitation', () => {
  async function orgWithInvitation(email: string) {
    const owner = await createUser(deps, { email: uniqueEmail('owner'), name: 'Owner' });
    const { organizationId } = await ensureConsoleOwner(deps, { email: owner.email, applicationIds: [] });
    const actor: ConsoleActor = { user: { userId: owner.userId, email: owner.email, name: owner.name }, sessionHash: 'h', clientAddress: '127.0.0.1', userAgent: 'jest', requestId: `req_${++counter}` };
    const invited = await createInvitation(deps, actor, { organization_id: organizationId, email, role: 'developer' }, 'http://127.0.0.1:4010');
    const token = decodeURIComponent(invited.invitation_url.split('/').pop()!);
    return { organizationId, token };
  }
  const caller = () => ({ clientAddress: uniqueAddress(), userAgent: 'jest', requestId: `req_${++counter}` });

  it('creates the invited person, signs them in and makes them a member with the invited role', async () => {
    clock.set(Date.UTC(2026, 10, 24, 9, 0, 0));
    const email = uniqueEmail('invitee').toLowerCase();
    const { organizationId, token } = await orgWithInvitation(email);
    const signedUp = await signUpWithInvitation(deps, caller(), { email, password: PASSWORD, name: 'New Person', invitation_token: token });
    expect(signedUp.answer.organization).toEqual({ organization_id: organizationId, name: 'Local development', role: 'developer' });
    expect((await getMembership(deps, organizationId, signedUp.answer.user.user_id))?.role).toBe('developer');
    expect(await codeOf(signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email, password: PASSWORD }))).toBe('ok');
    // The invitation is spent: the link cannot make a second account.
    expect(await codeOf(signUpWithInvitation(deps, caller(), { email: uniqueEmail(), password: PASSWORD, name: 'X', invitation_token: token }))).toMatchObject({ code: 'invitation_expired', status: 410 });
  });

  it('refuses another address than the invited one, an address that has an account, and a made-up token', async () => {
    clock.set(Date.UTC(2026, 10, 24, 10, 0, 0));
    const existing = await userWithPassword();
    const { token } = await orgWithInvitation(existing.email);
    expect(await codeOf(signUpWithInvitation(deps, caller(), { email: uniqueEmail(), password: PASSWORD, name: 'X', invitation_token: token }))).toMatchObject({ code: 'invitation_email_mismatch', status: 403 });
    expect(await codeOf(signUpWithInvitation(deps, caller(), { email: existing.email, password: PASSWORD, name: 'X', invitation_token: token }))).toMatchObject({ code: 'email_taken', status: 409 });
    expect(await codeOf(signUpWithInvitation(deps, caller(), { email: existing.email, password: PASSWORD, name: 'X', invitation_token: 'fc_inv_madeup' }))).toMatchObject({ code: 'invitation_expired', status: 410 });
  });
});

describe('the local first owner', () => {
  it('is created once with a password shown once, owns "Local development" and the seeded applications; later starts show no password', async () => {
    const email = uniqueEmail('first-owner');
    const applicationId = `app_owner${counter}`;
    await putApplication(deps, { applicationId, name: 'Seeded', plan: 'free' });
    const first = await ensureConsoleOwner(deps, { email, applicationIds: [applicationId] });
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(first.organizationId).toBe(localOrganizationIdFor(first.userId));
    expect((await getOrganization(deps, first.organizationId))?.name).toBe('Local development');
    expect((await getMembership(deps, first.organizationId, first.userId))?.role).toBe('owner');
    expect((await getApplication(deps, applicationId))?.organizationId).toBe(first.organizationId);
    // The password signs in; only its hash is stored.
    expect(await codeOf(signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email, password: first.password! }))).toBe('ok');
    const row = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.user(first.userId) }))).Item!;
    expect(JSON.stringify(row)).not.toContain(first.password);

    // A restart re-seeds the application (putApplication without an organisation keeps it owned).
    await putApplication(deps, { applicationId, name: 'Seeded', plan: 'free' });
    const second = await ensureConsoleOwner(deps, { email: email.toUpperCase(), applicationIds: [applicationId] });
    expect(second).toEqual({ ...first, password: null, email: email.toLowerCase() });
    expect((await getApplication(deps, applicationId))?.organizationId).toBe(first.organizationId);
    expect(await codeOf(signInWithPassword(deps, { clientAddress: uniqueAddress() }, { email, password: first.password! }))).toBe('ok');
  });

  it('leaves an application another organisation owns where it is', async () => {
    const applicationId = `app_owned${++counter}`;
    await putApplication(deps, { applicationId, name: 'Owned', plan: 'free', organizationId: 'org_0123456789abcdef' });
    await ensureConsoleOwner(deps, { email: uniqueEmail('owner2'), applicationIds: [applicationId] });
    expect((await getApplication(deps, applicationId))?.organizationId).toBe('org_0123456789abcdef');
  });
});
