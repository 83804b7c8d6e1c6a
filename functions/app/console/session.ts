// Console sign-in and sessions, the same in both runtimes: who the user is comes from the
// ConsoleIdentity port (a local password, or Amazon Cognito's hosted UI); the session that follows
// is ours.
//
// Session: a random 32-byte token (base64url) for the HttpOnly cookie, stored only as its SHA-256.
// It ends 12 hours after the last request (sliding: the row is refreshed at most once per 5 minutes,
// so a busy console costs one write per 5 minutes, not one per request) and 7 days after sign-in
// whatever happens; the row carries a TTL at the earlier deadline. CSRF: every console POST sends
// X-CSRF-Token, which must equal the session's CSRF token. That token is an HMAC of the session token
// (never stored): the console can ask for it again (console.session) and it cannot be computed
// without the cookie it protects.
//
// Password sign-in is throttled in fixed 15-minute windows (SIGN_IN_LIMITS): every attempt counts
// against its client address (50); FAILED attempts count against the e-mail address from that client
// address (10) and from anywhere (100). Only failures count against an e-mail address, so nobody
// locks its owner out with a few wrong passwords from elsewhere, while guessing one account's
// password stays bounded however many client addresses take part. An attempt is counted as a
// failure before the password is checked (racing attempts cannot pass a limit) and taken back when
// it succeeds. An unknown address and a wrong password get the same answer after the same work (a
// dummy scrypt verify).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type * as z from 'zod';
import { CONSOLE_SESSION_COOKIE, type SignInRequest, type SignUpRequest } from '../../contracts/console-schemas';
import { ApiError, fail } from '../../contracts/errors';
import { sha256Hex } from '../../core/api-keys';
import type { ConsoleRole } from '../../core/console-permissions';
import {
  bindIdentity,
  countSignInAttempt,
  countSessionRequest,
  createSession,
  createUser,
  deleteSession,
  EmailTakenError,
  getSession,
  normaliseEmail,
  passwordCredentialsOf,
  touchSession,
  uncountSignInAttempt,
  userByEmail,
  userForIdentity,
  type SessionRecord,
  type UserRecord,
} from '../../data/console-sessions-repo';
import { putSignInState, takeSignInState } from '../../data/console-sign-in-states';
import { CognitoSignInError, type CognitoIdentity } from '../../platform/console-identity-cognito';
import { consoleIdentityFromEnv, localPasswordIdentity, type ConsoleIdentity, type LocalPasswordIdentity } from '../../platform/console-identity';
import { logger } from '../../platform/observability';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor, ConsoleUser } from './actor';
import { acceptInvitation, peekInvitation } from './invitations';
import { listMyOrganizations } from './organizations';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const CONSOLE_SESSION = {
  cookieName: CONSOLE_SESSION_COOKIE,
  idleMs: 12 * HOUR,
  absoluteMs: 7 * 24 * HOUR,
  /** The idle deadline is moved at most this often (one write per session per interval). */
  touchEveryMs: 5 * MINUTE,
} as const;

/**
 * Console calls per session, in fixed windows: 60 per 3 seconds (20 a second on average, in bursts
 * of up to 60, far above what a person clicking through the console sends). Beyond it: 429 with
 * Retry-After. One counter write per call, on a row that expires on its own.
 */
export const SESSION_REQUEST_LIMITS = { windowMs: 3_000, perWindow: 60 } as const;

export const SIGN_IN_LIMITS = {
  windowMs: 15 * MINUTE,
  /** Every attempt from one client address. */
  perAddress: 50,
  /** Failed attempts for one e-mail address from one client address. */
  perEmailFromAddress: 10,
  /** Failed attempts for one e-mail address from all client addresses together. */
  perEmail: 100,
} as const;

/** Where a sign-in comes from (API Gateway's sourceIp, or the local server's socket). */
export interface ConsoleCaller {
  clientAddress: string | null;
}

// ---------- sessions ----------

/** A session token as issued: 32 random bytes, base64url (43 characters). */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('fincore console csrf v1').digest('base64url');
}

/** A signed-in console session as the edge sees it. */
export interface ActiveSession {
  tokenHash: string;
  user: ConsoleUser;
  identity: 'local' | 'cognito';
  csrfToken: string;
  /** ISO 8601: the earlier of the idle and the absolute deadline. */
  expiresAt: string;
}

function activeSession(record: SessionRecord, token: string, lastSeenAt: number): ActiveSession {
  return {
    tokenHash: record.tokenHash,
    user: { userId: record.userId, email: record.email, name: record.name },
    identity: record.identity,
    csrfToken: csrfTokenOf(token),
    expiresAt: new Date(Math.min(lastSeenAt + record.idleMs, record.absoluteExpiresAt)).toISOString(),
  };
}

/** A new session's cookie value and the sign-in answer (the token never goes into a JSON body). */
export interface SignedIn {
  sessionToken: string;
  /** ISO 8601: when the cookie should expire at the latest (the absolute deadline). */
  sessionExpiresAt: string;
  answer: { user: { user_id: string; email: string; name: string }; csrf_token: string; identity: 'local' | 'cognito' };
}

async function startSession(deps: Deps, user: UserRecord, identity: 'local' | 'cognito'): Promise<SignedIn> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const record = await createSession(deps, {
    tokenHash: sha256Hex(token),
    userId: user.userId,
    email: user.email,
    name: user.name,
    identity,
    createdAt: now,
    absoluteExpiresAt: now + CONSOLE_SESSION.absoluteMs,
    idleMs: CONSOLE_SESSION.idleMs,
  });
  return {
    sessionToken: token,
    sessionExpiresAt: new Date(record.absoluteExpiresAt).toISOString(),
    answer: { user: { user_id: user.userId, email: user.email, name: user.name }, csrf_token: csrfTokenOf(token), identity },
  };
}

/** Counts one console call of the session; 429 rate_limit_exceeded when its window is full. */
async function throttleSessionRequests(deps: Deps, tokenHash: string, now: number): Promise<void> {
  const { windowMs, perWindow } = SESSION_REQUEST_LIMITS;
  const windowStart = now - (now % windowMs);
  if (await countSessionRequest(deps, { tokenHash, windowStart, windowMs }, perWindow)) return;
  fail('rate_limit_exceeded', 'Too many console requests in this session. Wait for the time in Retry-After, then try again.', {
    'Retry-After': String(Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))),
  });
}

/**
 * The session behind a cookie's token, or null when there is none or it ended (idle or absolute
 * deadline; an ended row is deleted). Counts the call against the session's request window (429
 * beyond SESSION_REQUEST_LIMITS: the edge asks this for every console call that needs a session).
 * Moves the idle deadline when the last move is 5 minutes old.
 */
export async function currentSession(deps: Deps, token: string | null | undefined): Promise<ActiveSession | null> {
  if (!token || !SESSION_TOKEN.test(token)) return null;
  const record = await getSession(deps, sha256Hex(token));
  if (!record) return null;
  const now = deps.clock.now();
  if (now >= record.lastSeenAt + record.idleMs || now >= record.absoluteExpiresAt) {
    await deleteSession(deps, record.tokenHash);
    return null;
  }
  await throttleSessionRequests(deps, record.tokenHash, now);
  let lastSeenAt = record.lastSeenAt;
  if (now - record.lastSeenAt >= CONSOLE_SESSION.touchEveryMs && (await touchSession(deps, record, now, CONSOLE_SESSION.touchEveryMs))) lastSeenAt = now;
  return activeSession(record, token, lastSeenAt);
}

/** Ends the session (the cookie is cleared by the edge). Unknown or ended tokens are fine. */
export async function signOut(deps: Deps, token: string | null | undefined): Promise<Record<string, never>> {
  if (token && SESSION_TOKEN.test(token)) await deleteSession(deps, sha256Hex(token));
  return {};
}

/** Does the X-CSRF-Token header match the session? Constant time in the header's content. */
export function csrfMatches(session: Pick<ActiveSession, 'csrfToken'>, header: string | null | undefined): boolean {
  if (typeof header !== 'string' || header === '') return false;
  // Digests have one length, so timingSafeEqual never sees a length difference to leak.
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(header), digest(session.csrfToken));
}

/**
 * What the edge needs to authenticate a console session route (defineOperation's `sessions`): the
 * edge calls no use case itself, so each session route's handler hands it these.
 */
export const consoleSessions = { current: currentSession, csrfMatches } as const;

/** console.session: who is signed in, their organisations with their role in each, and the CSRF token again. */
export async function sessionOverview(deps: Deps, session: Pick<ActiveSession, 'user' | 'csrfToken' | 'identity'>) {
  const organizations = await listMyOrganizations(deps, { user: session.user });
  return {
    user: { user_id: session.user.userId, email: session.user.email, name: session.user.name },
    organizations,
    csrf_token: session.csrfToken,
    identity: session.identity,
  };
}

// ---------- password sign-in (local identity) ----------

/** A sign-in attempt let through the throttle, counted as a failure until `succeeded` takes that back. */
interface ThrottledAttempt {
  succeeded(): Promise<void>;
}

async function throttleSignIn(deps: Deps, email: string, caller: ConsoleCaller): Promise<ThrottledAttempt> {
  const now = deps.clock.now();
  const windowStart = now - (now % SIGN_IN_LIMITS.windowMs);
  const window = { windowStart, windowMs: SIGN_IN_LIMITS.windowMs };
  const refuse = (): never =>
    fail('rate_limit_exceeded', 'Too many sign-in attempts. Wait for the time in Retry-After, then try again.', {
      'Retry-After': String(Math.max(1, Math.ceil((windowStart + SIGN_IN_LIMITS.windowMs - now) / 1000))),
    });
  if (caller.clientAddress !== null && !(await countSignInAttempt(deps, { scope: 'address', id: caller.clientAddress, ...window }, SIGN_IN_LIMITS.perAddress))) refuse();
  const failures = [
    { counter: { scope: 'email-address' as const, id: `${email}\n${caller.clientAddress ?? 'unknown'}`, ...window }, limit: SIGN_IN_LIMITS.perEmailFromAddress },
    { counter: { scope: 'email' as const, id: email, ...window }, limit: SIGN_IN_LIMITS.perEmail },
  ];
  const counted = await Promise.all(failures.map(({ counter, limit }) => countSignInAttempt(deps, counter, limit)));
  const takeBack = async () => {
    await Promise.all(failures.filter((_, i) => counted[i]).map(({ counter }) => uncountSignInAttempt(deps, counter)));
  };
  if (counted.includes(false)) {
    await takeBack();
    refuse();
  }
  return { succeeded: takeBack };
}

export async function signInWithPassword(
  deps: Deps,
  caller: ConsoleCaller,
  input: z.output<typeof SignInRequest>,
  identity: LocalPasswordIdentity = localPasswordIdentity,
): Promise<SignedIn> {
  const email = normaliseEmail(input.email);
  const attempt = await throttleSignIn(deps, email, caller);
  const credentials = await passwordCredentialsOf(deps, email);
  // Unknown address, a user without a local password and a wrong password: one answer, one verify.
  const verified = await identity.verifyPassword(input.password, credentials?.passwordHash ?? null);
  if (!credentials || !verified) throw new ApiError('console_invalid_credentials');
  await attempt.succeeded();
  return startSession(deps, credentials.user, 'local');
}

// ---------- sign-up by invitation (local identity) ----------

/** Who signs up, for the throttle and for the audit row of the invitation's acceptance. */
export interface SignUpCaller extends ConsoleCaller {
  userAgent: string;
  requestId: string;
}

/**
 * A local account for the person an invitation names, signed in and (when the invitation is still
 * open) made a member with the invitation's role. Only an open invitation lets anyone sign up
 * locally (the first owner is created at start: platform/local/console-owner.ts); the address must
 * be the invited one. Throttled like a sign-in.
 */
export async function signUpWithInvitation(
  deps: Deps,
  caller: SignUpCaller,
  input: z.output<typeof SignUpRequest>,
  identity: LocalPasswordIdentity = localPasswordIdentity,
): Promise<SignedIn & { answer: { organization: { organization_id: string; name: string | null; role: ConsoleRole } | null } }> {
  const email = normaliseEmail(input.email);
  const attempt = await throttleSignIn(deps, email, caller);
  const invitation = await peekInvitation(deps, input.invitation_token);
  if (normaliseEmail(invitation.email) !== email) throw new ApiError('invitation_email_mismatch');
  let user: UserRecord;
  try {
    user = await createUser(deps, { email, name: input.name, passwordHash: await identity.hashPassword(input.password) });
  } catch (err) {
    if (err instanceof EmailTakenError) throw new ApiError('email_taken');
    throw err;
  }
  await attempt.succeeded();
  const signedIn = await startSession(deps, user, 'local');
  const actor: ConsoleActor = {
    user: { userId: user.userId, email: user.email, name: user.name },
    sessionHash: sha256Hex(signedIn.sessionToken),
    clientAddress: caller.clientAddress ?? 'unknown',
    userAgent: caller.userAgent.slice(0, 200),
    requestId: caller.requestId,
  };
  let organization: { organization_id: string; name: string | null; role: ConsoleRole } | null = null;
  try {
    const joined = await acceptInvitation(deps, actor, { token: input.invitation_token });
    organization = { organization_id: joined.organization_id, name: joined.name, role: joined.role };
  } catch (err) {
    // Spent or revoked between the check and now: the account stands and the person is signed in;
    // they can ask for a new invitation. Anything else is a fault.
    if (!(err instanceof ApiError)) throw err;
  }
  return { ...signedIn, answer: { ...signedIn.answer, organization } };
}

// ---------- Cognito sign-in ----------

export interface CognitoCallback {
  code: string;
  /** The state Cognito sent back with the code. */
  state: string;
  /** The state and PKCE verifier kept (in a short-lived cookie) when the sign-in began. */
  expectedState: string;
  verifier: string;
  /** The redirect_uri the sign-in began with: {base_url}/console/api/auth/callback. */
  redirectUri: string;
}

function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return a !== '' && b !== '' && timingSafeEqual(digest(a), digest(b));
}

/** The user of a verified Cognito identity: bound by `sub`; else the user with that (verified) address, bound now; else a new user. */
async function userForCognito(deps: Deps, sub: string, email: string, name: string | null): Promise<UserRecord> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const bound = await userForIdentity(deps, 'cognito', sub);
    if (bound) return bound;
    const existing = await userByEmail(deps, email);
    if (existing) {
      // Cognito verified the address, so its owner is this user (an invited person, say).
      if (await bindIdentity(deps, existing.userId, 'cognito', sub)) return existing;
      continue; // a concurrent callback bound it first: read it again
    }
    try {
      return await createUser(deps, { email, name: name ?? email.split('@')[0], identity: { provider: 'cognito', subject: sub } });
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      // A concurrent callback of the same person created the user first: read it again.
    }
  }
  throw new Error('completeCognitoSignIn: the user kept changing under concurrent sign-ins');
}

export async function completeCognitoSignIn(deps: Deps, cognito: CognitoIdentity, callback: CognitoCallback): Promise<SignedIn> {
  if (!sameSecret(callback.state, callback.expectedState) || callback.verifier === '') throw new ApiError('sign_in_failed');
  let claims;
  try {
    claims = await cognito.exchangeCode({ code: callback.code, verifier: callback.verifier, redirectUri: callback.redirectUri });
  } catch (err) {
    if (!(err instanceof CognitoSignInError)) throw err;
    // The operator needs the reason (a wrong client id shows as an aud mismatch); the user gets the outcome.
    logger.warn('console Cognito sign-in failed', { reason: err.reason, detail: err.message });
    if (err.reason === 'unavailable') throw new ApiError('identity_provider_unavailable');
    if (err.reason === 'email_not_verified') throw new ApiError('email_not_verified');
    throw new ApiError('sign_in_failed');
  }
  const user = await userForCognito(deps, claims.sub, normaliseEmail(claims.email), claims.name);
  return startSession(deps, user, 'cognito');
}

let identity: ConsoleIdentity | undefined;

/**
 * How this deployment's console users sign in, read once per process from the environment: Cognito
 * where FC_CONSOLE_COGNITO_* are set, local passwords in the local stage; a deployed stage without
 * Cognito is a configuration error (consoleIdentityFromEnv throws), never a fallback to passwords.
 */
export function deploymentIdentity(): ConsoleIdentity {
  identity ??= consoleIdentityFromEnv();
  return identity;
}

/** How long a Cognito sign-in may take between auth/start and the callback. */
export const COGNITO_SIGN_IN_MS = 10 * MINUTE;

/**
 * console.auth.start: where to send the browser, and the state the browser keeps (in a cookie) for
 * the callback. The PKCE verifier stays here, under the state's hash (data/console-sign-in-states.ts).
 */
export async function beginCognitoSignIn(deps: Deps, cognito: CognitoIdentity, redirectUri: string): Promise<{ url: string; state: string }> {
  const begun = cognito.beginSignIn(redirectUri);
  await putSignInState(deps, { stateHash: sha256Hex(begun.state), verifier: begun.verifier, redirectUri, expiresAt: deps.clock.now() + COGNITO_SIGN_IN_MS });
  return { url: begun.url, state: begun.state };
}

/**
 * console.auth.callback: the sign-in the browser's state cookie names is taken (once), its state must
 * equal the one Cognito sent back, and the code is redeemed with its verifier. Anything missing,
 * spent, expired or mismatched is 400 sign_in_failed.
 */
export async function finishCognitoSignIn(
  deps: Deps,
  cognito: CognitoIdentity,
  input: { code: string | undefined; state: string | undefined; keptState: string | undefined },
): Promise<SignedIn> {
  if (!input.code || !input.state || !input.keptState) throw new ApiError('sign_in_failed');
  const kept = await takeSignInState(deps, sha256Hex(input.keptState));
  if (!kept) throw new ApiError('sign_in_failed');
  return completeCognitoSignIn(deps, cognito, { code: input.code, state: input.state, expectedState: input.keptState, verifier: kept.verifier, redirectUri: kept.redirectUri });
}

