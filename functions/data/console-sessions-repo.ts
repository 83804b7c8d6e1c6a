// Console people and their sign-ins: users (one per e-mail address), the Cognito identities bound
// to them, console sessions and the fixed-window counters that throttle sign-in attempts and a
// session's console calls.
//
// A user is three kinds of rows written in one transaction: USER (the person), USEREMAIL (one row
// per lower-cased address, so two users can never share one: the put is conditional) and, for a
// Cognito user, USERID (the identity provider's `sub` bound to the user, also conditional). A
// session is stored only under the SHA-256 of its token; its row expires by TTL at the earlier of
// its idle and absolute deadlines, and is also checked against them on every read (TTL deletion
// is lazy). Nothing here decides a rule: the deadlines come from the caller (app/console/session.ts).
import { randomBytes } from 'node:crypto';
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, isTransactionCanceled } from '../platform/aws/dynamodb';
import { sha256Hex } from '../core/api-keys';
import type { Deps } from '../platform/runtime';
import { writeIf, type Row } from './dynamo';
import { keys } from './keys';

export interface UserRecord {
  userId: string;
  /** Lower-cased and trimmed (normaliseEmail). */
  email: string;
  name: string;
  /** ISO 8601. */
  createdAt: string;
}

/** How people sign in: a local password, or an identity provider's subject. */
export type IdentityProvider = 'cognito';

/** Refused: another user already has this e-mail address (or this identity is bound already). */
export class EmailTakenError extends Error {
  constructor() {
    super('a user with this e-mail address already exists');
    this.name = 'EmailTakenError';
  }
}

/** E-mail addresses compare case-insensitively and without surrounding blanks. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The USEREMAIL row's key part: the address itself never appears in a key. */
function emailHash(email: string): string {
  return sha256Hex(`email:${normaliseEmail(email)}`);
}

/** `usr_<16 hex>`. */
export function newUserId(): string {
  return `usr_${randomBytes(8).toString('hex')}`;
}

function userOf(row: Row): UserRecord {
  return { userId: String(row.user_id), email: String(row.email), name: String(row.name), createdAt: String(row.created_at) };
}

export interface NewUser {
  email: string;
  name: string;
  /** A local password's hash (platform/console-identity.ts); absent for a Cognito user. */
  passwordHash?: string;
  /** A Cognito user: the identity bound to the new user in the same transaction. */
  identity?: { provider: IdentityProvider; subject: string };
}

/**
 * Creates a user, its e-mail row and (when given) its identity binding in one transaction. Throws
 * EmailTakenError when the address (or the identity) already belongs to a user: nothing is written.
 */
export async function createUser(deps: Deps, input: NewUser): Promise<UserRecord> {
  const user: UserRecord = {
    userId: newUserId(),
    email: normaliseEmail(input.email),
    name: input.name.trim(),
    createdAt: new Date(deps.clock.now()).toISOString(),
  };
  const table = deps.config.tableName;
  const ifNew = { ConditionExpression: 'attribute_not_exists(pk)' };
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: {
                ...keys.user(user.userId),
                user_id: user.userId,
                email: user.email,
                name: user.name,
                created_at: user.createdAt,
                ...(input.passwordHash ? { password_hash: input.passwordHash } : {}),
              },
              ...ifNew,
            },
          },
          { Put: { TableName: table, Item: { ...keys.userEmail(emailHash(user.email)), user_id: user.userId, email: user.email }, ...ifNew } },
          ...(input.identity
            ? [
                {
                  Put: {
                    TableName: table,
                    Item: { ...keys.userIdentity(input.identity.provider, input.identity.subject), user_id: user.userId, provider: input.identity.provider, created_at: user.createdAt },
                    ...ifNew,
                  },
                },
              ]
            : []),
        ],
      }),
    );
  } catch (err) {
    if (isTransactionCanceled(err) && (err.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed')) throw new EmailTakenError();
    throw err;
  }
  return user;
}

export async function getUser(deps: Deps, userId: string): Promise<UserRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.user(userId), ConsistentRead: true }));
  return res.Item ? userOf(res.Item) : undefined;
}

/** The users with these ids that exist, by id (BatchGetItem, 100 keys per call). */
export async function getUsers(deps: Deps, userIds: readonly string[]): Promise<Map<string, UserRecord>> {
  const table = deps.config.tableName;
  const found = new Map<string, UserRecord>();
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Record<string, unknown>[] = unique.slice(i, i + 100).map((id) => keys.user(id));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
      const res = await deps.ddb.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true, ProjectionExpression: 'user_id, email, #n, created_at', ExpressionAttributeNames: { '#n': 'name' } } } }),
      );
      for (const row of res.Responses?.[table] ?? []) found.set(String(row.user_id), userOf(row));
      pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
      if (attempt >= 8 && pending.length > 0) throw new Error('getUsers: DynamoDB kept keys unprocessed');
    }
  }
  return found;
}

async function userIdByEmail(deps: Deps, email: string): Promise<string | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.userEmail(emailHash(email)), ConsistentRead: true }));
  return res.Item ? String(res.Item.user_id) : undefined;
}

export async function userByEmail(deps: Deps, email: string): Promise<UserRecord | undefined> {
  const userId = await userIdByEmail(deps, email);
  return userId === undefined ? undefined : getUser(deps, userId);
}

/**
 * What a password sign-in needs: the user and the stored password hash (null for a user without a
 * local password). Never returned to a caller outside the sign-in use case.
 */
export async function passwordCredentialsOf(deps: Deps, email: string): Promise<{ user: UserRecord; passwordHash: string | null } | undefined> {
  const userId = await userIdByEmail(deps, email);
  // An unknown address still costs the second read, so the answer's timing does not single it out.
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.user(userId ?? 'usr_none'), ConsistentRead: true }));
  if (userId === undefined || !res.Item) return undefined;
  return { user: userOf(res.Item), passwordHash: typeof res.Item.password_hash === 'string' ? res.Item.password_hash : null };
}

export async function userForIdentity(deps: Deps, provider: IdentityProvider, subject: string): Promise<UserRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.userIdentity(provider, subject), ConsistentRead: true }));
  return res.Item ? getUser(deps, String(res.Item.user_id)) : undefined;
}

/**
 * Binds an identity to an existing user; false when the identity is already bound (to anyone: a
 * binding is never moved). The user must exist (checked in the same transaction).
 */
export async function bindIdentity(deps: Deps, userId: string, provider: IdentityProvider, subject: string): Promise<boolean> {
  const table = deps.config.tableName;
  try {
    await deps.ddb.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: table, Key: keys.user(userId), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Put: {
              TableName: table,
              Item: { ...keys.userIdentity(provider, subject), user_id: userId, provider, created_at: new Date(deps.clock.now()).toISOString() },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    return true;
  } catch (err) {
    if (isTransactionCanceled(err)) {
      const [userCheck] = err.CancellationReasons ?? [];
      if (userCheck?.Code === 'ConditionalCheckFailed') throw new Error(`bindIdentity: no user ${userId}`, { cause: err });
      return false;
    }
    throw err;
  }
}

// ---------- sessions ----------

export interface SessionRecord {
  /** SHA-256 (hex) of the session token: the row's identity; the token itself is never stored. */
  tokenHash: string;
  userId: string;
  /**
   * The user's address and name as at sign-in, so that reading a session is one GetItem per console
   * request (neither changes while signed in: there is no way to change them yet).
   */
  email: string;
  name: string;
  /** How the user proved who they are. */
  identity: 'local' | 'cognito';
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms of the last refresh of the idle deadline. */
  lastSeenAt: number;
  /** Epoch ms: the session ends at the earlier of lastSeenAt + idle and createdAt + absolute. */
  absoluteExpiresAt: number;
  idleMs: number;
}

function sessionOf(row: Row): SessionRecord {
  return {
    tokenHash: String(row.pk).slice('SESSION#'.length),
    userId: String(row.user_id),
    email: String(row.email),
    name: String(row.name),
    identity: row.identity === 'cognito' ? 'cognito' : 'local',
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    absoluteExpiresAt: Number(row.absolute_expires_at),
    idleMs: Number(row.idle_ms),
  };
}

/** TTL (epoch seconds) of a session row: its earlier deadline. */
function sessionTtl(lastSeenAt: number, idleMs: number, absoluteExpiresAt: number): number {
  return Math.ceil(Math.min(lastSeenAt + idleMs, absoluteExpiresAt) / 1000);
}

export async function createSession(deps: Deps, session: Omit<SessionRecord, 'lastSeenAt'>): Promise<SessionRecord> {
  const record: SessionRecord = { ...session, lastSeenAt: session.createdAt };
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.consoleSession(record.tokenHash),
        user_id: record.userId,
        email: record.email,
        name: record.name,
        identity: record.identity,
        created_at: record.createdAt,
        last_seen_at: record.lastSeenAt,
        absolute_expires_at: record.absoluteExpiresAt,
        idle_ms: record.idleMs,
        expires_at: sessionTtl(record.lastSeenAt, record.idleMs, record.absoluteExpiresAt),
      },
      // A 32-byte random token never repeats; the condition makes a collision an error, not a takeover.
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

export async function getSession(deps: Deps, tokenHash: string): Promise<SessionRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.consoleSession(tokenHash), ConsistentRead: true }));
  return res.Item ? sessionOf(res.Item) : undefined;
}

/**
 * Moves the idle deadline to `now` unless the row was refreshed less than `minIntervalMs` ago (so
 * a busy console writes at most once per interval, however many requests race) or is gone. True
 * when this call wrote.
 */
export async function touchSession(deps: Deps, session: SessionRecord, now: number, minIntervalMs: number): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.consoleSession(session.tokenHash),
        UpdateExpression: 'SET last_seen_at = :now, expires_at = :ttl',
        ConditionExpression: 'attribute_exists(pk) AND last_seen_at <= :due',
        ExpressionAttributeValues: { ':now': now, ':due': now - minIntervalMs, ':ttl': sessionTtl(now, session.idleMs, session.absoluteExpiresAt) },
      }),
    ),
  );
}

export async function deleteSession(deps: Deps, tokenHash: string): Promise<void> {
  await deps.ddb.send(new DeleteCommand({ TableName: deps.config.tableName, Key: keys.consoleSession(tokenHash) }));
}

// ---------- sign-in throttling ----------

/** A sign-in counter: per e-mail address, per client address, or per e-mail address from one client address. */
export interface SignInCounter {
  scope: 'email' | 'address' | 'email-address';
  id: string;
  windowStart: number;
  windowMs: number;
}

const signInCounterKey = (counter: SignInCounter) => {
  const id = counter.scope === 'email' ? normaliseEmail(counter.id) : counter.id;
  return keys.signInWindow(counter.scope, sha256Hex(`${counter.scope}:${id}`), counter.windowStart);
};

/**
 * Counts one sign-in attempt in a fixed window of its counter; false (and nothing counted) when the
 * window already holds `limit` attempts. One conditional write on a small row that expires on its
 * own (as the Link page's call counter does).
 */
export async function countSignInAttempt(deps: Deps, counter: SignInCounter, limit: number): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: signInCounterKey(counter),
        UpdateExpression: 'ADD attempts :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(attempts) OR attempts < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil((counter.windowStart + 2 * counter.windowMs) / 1000) },
      }),
    ),
  );
}

/** Takes back one attempt countSignInAttempt counted (one that turned out not to count: a success). */
export async function uncountSignInAttempt(deps: Deps, counter: SignInCounter): Promise<void> {
  await writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: signInCounterKey(counter),
        UpdateExpression: 'ADD attempts :minusOne',
        ConditionExpression: 'attempts > :zero',
        ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
      }),
    ),
  );
}

// ---------- console call throttling ----------

/**
 * Counts one console call of a session in a fixed window; false (and nothing counted) when the
 * window already holds `limit` calls. A row in the session's own partition that expires on its own.
 */
export async function countSessionRequest(deps: Deps, window: { tokenHash: string; windowStart: number; windowMs: number }, limit: number): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.consoleSessionWindow(window.tokenHash, window.windowStart),
        UpdateExpression: 'ADD requests :one SET expires_at = :expires',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': Math.ceil((window.windowStart + 2 * window.windowMs) / 1000) },
      }),
    ),
  );
}
