// Applications and their secret keys. The hot path, authorizeAndMeter(), authenticates the key,
// enforces the plan's live access, the token bucket and the monthly quota, and counts the request,
// all in ONE conditional UpdateItem on the key's row. A refused request writes nothing.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ApiError } from '../contracts/errors';
import { PLANS, type PlanName } from '../contracts/limits';
import { displayOfKey, environmentOfKey, keyIdFromHash, sha256Hex } from '../core/api-keys';
import {
  bucketFor,
  headersAfter,
  retryAfterSeconds,
  secondsUntilMonthlyReset,
  type RateLimitHeaders,
} from '../core/rate-limit';
import type { Deps } from '../platform/runtime';
import type { Environment } from '../contracts/schemas';
import { keys, TABLE, usageAttribute } from './keys';

export interface AuthContext {
  applicationId: string;
  environment: Environment;
  keyId: string;
  plan: PlanName;
  rateLimit: RateLimitHeaders;
  /** Units of the metered quota used this month, after this request (null when unlimited). */
  usage: { kind: 'api' | 'ai'; used: number; quota: number | null };
}

interface KeyRow {
  application_id: string;
  environment: Environment;
  key_id: string;
  plan: PlanName;
  status: 'active' | 'revoked';
  live_access: boolean;
  tat: number;
  gate: number;
  quota_api?: number;
  quota_ai?: number;
  [usage: string]: unknown;
}

/** Attributes that carry the plan onto a key row (denormalised so the hot path reads one row). */
function planAttributes(plan: PlanName) {
  const bucket = bucketFor(plan);
  const limits = PLANS[plan];
  return {
    plan,
    live_access: limits.liveAccess,
    interval_ms: bucket.intervalMs,
    gate_offset_ms: bucket.toleranceMs - bucket.intervalMs,
    ...(limits.apiPerMonth === null ? {} : { quota_api: limits.apiPerMonth }),
    ...(limits.aiPerMonth === null ? {} : { quota_ai: limits.aiPerMonth }),
  };
}

// Which of the two bucket updates to try first; a wrong guess costs one extra conditional write.
const lastSeenTat = new Map<string, number>();

type BucketCase = 'idle' | 'busy';

const NAMES = {
  '#status': 'status',
  '#env': 'environment',
  '#live': 'live_access',
  '#tat': 'tat',
  '#gate': 'gate',
  '#interval': 'interval_ms',
};

function meterUpdate(tableName: string, keyHash: string, kind: 'api' | 'ai', now: number, bucketCase: BucketCase) {
  const usedAttr = usageAttribute(kind, new Date(now));
  const bucketCondition =
    bucketCase === 'busy' ? '#tat > :now AND #gate <= :now' : '(attribute_not_exists(#tat) OR #tat <= :now)';
  const bucketUpdate =
    bucketCase === 'busy'
      ? 'SET #tat = #tat + #interval, #gate = #gate + #interval'
      : 'SET #tat = :now + #interval, #gate = :now - #gateOffset';
  return new UpdateCommand({
    TableName: tableName,
    Key: keys.apiKey(keyHash),
    UpdateExpression: `${bucketUpdate} ADD #used :one`,
    ConditionExpression:
      `#status = :active AND (#env = :test OR #live = :true) AND ${bucketCondition} ` +
      'AND (attribute_not_exists(#quota) OR attribute_not_exists(#used) OR #used < #quota)',
    ExpressionAttributeNames: {
      ...NAMES,
      ...(bucketCase === 'idle' ? { '#gateOffset': 'gate_offset_ms' } : {}),
      '#used': usedAttr,
      '#quota': `quota_${kind}`,
    },
    ExpressionAttributeValues: { ':now': now, ':one': 1, ':active': 'active', ':test': 'test', ':true': true },
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
}

/**
 * Authenticate a well-formed key and meter one request. Throws ApiError for unknown or revoked keys
 * (401), live keys on sandbox-only plans (403), an empty bucket or an exhausted quota (429).
 */
export async function authorizeAndMeter(deps: Deps, apiKey: string, kind: 'api' | 'ai'): Promise<AuthContext> {
  const keyHash = sha256Hex(apiKey);
  const now = deps.clock.now();
  const usedAttr = usageAttribute(kind, new Date(now));
  let bucketCase: BucketCase = (lastSeenTat.get(keyHash) ?? 0) > now ? 'busy' : 'idle';

  // With `now` fixed, tat only grows, so at most idle -> busy -> (decided) or busy -> idle -> busy.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const result = await deps.ddb.send(meterUpdate(deps.config.tableName, keyHash, kind, now, bucketCase));
      const row = result.Attributes as KeyRow;
      lastSeenTat.set(keyHash, row.tat);
      const quota = (kind === 'api' ? row.quota_api : row.quota_ai) ?? null;
      return {
        applicationId: row.application_id,
        environment: row.environment,
        keyId: row.key_id,
        plan: row.plan,
        rateLimit: headersAfter(bucketFor(row.plan), row.tat, now),
        usage: { kind, used: Number(row[usedAttr] ?? 0), quota },
      };
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
      const old = err.Item ? (unmarshall(err.Item) as KeyRow) : undefined;
      if (!old) throw new ApiError('invalid_api_key');
      if (old.status !== 'active') throw new ApiError('revoked_api_key');
      if (old.environment === 'live' && !old.live_access) throw new ApiError('live_access_not_in_plan');
      const bucket = bucketFor(old.plan);
      const quota = kind === 'api' ? old.quota_api : old.quota_ai;
      if (quota !== undefined && Number(old[usedAttr] ?? 0) >= quota) {
        throw new ApiError(kind === 'api' ? 'monthly_api_quota_exceeded' : 'monthly_ai_quota_exceeded', undefined, {
          ...rateLimitHeaderValues(headersAfter(bucket, old.tat, now)),
          'Retry-After': String(secondsUntilMonthlyReset(now)),
        });
      }
      lastSeenTat.set(keyHash, old.tat);
      if (old.tat > now && old.gate > now) {
        throw new ApiError('rate_limit_exceeded', undefined, {
          ...rateLimitHeaderValues({ ...headersAfter(bucket, old.tat, now), remaining: 0 }),
          'Retry-After': String(retryAfterSeconds(old.gate, now)),
        });
      }
      bucketCase = old.tat > now ? 'busy' : 'idle';
    }
  }
  // Unreachable in practice (see the loop comment); refuse rather than admit unmetered.
  throw new ApiError('rate_limit_exceeded', undefined, { 'Retry-After': '1' });
}

export function rateLimitHeaderValues(h: RateLimitHeaders): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(h.limit),
    'X-RateLimit-Remaining': String(h.remaining),
    'X-RateLimit-Reset': String(h.reset),
  };
}

// ---------- provisioning (seed, dashboard) ----------

export interface ApplicationRecord {
  applicationId: string;
  name: string;
  plan: PlanName;
  /** Where live link tokens may send the browser (normalised, exact match); empty allows none. */
  redirectUris?: readonly string[];
  /** Origins whose pages may frame Link through the SDK (test keys may also use loopback origins). */
  linkOrigins?: readonly string[];
}

/** The application's Link allowlists (both empty for an unknown application). */
export interface LinkSettings {
  redirectUris: readonly string[];
  linkOrigins: readonly string[];
}

export async function putApplication(deps: Deps, app: ApplicationRecord): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.application(app.applicationId),
        application_id: app.applicationId,
        name: app.name,
        plan: app.plan,
        redirect_uris: [...(app.redirectUris ?? [])],
        link_origins: [...(app.linkOrigins ?? [])],
        updated_at: new Date(deps.clock.now()).toISOString(),
      },
    }),
  );
}

export async function getLinkSettings(deps: Deps, applicationId: string): Promise<LinkSettings> {
  const res = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: keys.application(applicationId),
      ProjectionExpression: 'redirect_uris, link_origins',
    }),
  );
  return { redirectUris: (res.Item?.redirect_uris as string[] | undefined) ?? [], linkOrigins: (res.Item?.link_origins as string[] | undefined) ?? [] };
}

export interface StoredKey {
  keyId: string;
  environment: Environment;
  status: 'active' | 'revoked';
  display: string;
  plan: PlanName;
  createdAt: string;
  /** SHA-256 of the key: the row's identity; not secret, but never shown to people. */
  keyHash: string;
}

export async function listKeys(deps: Deps, applicationId: string, environment?: Environment): Promise<StoredKey[]> {
  const k = keys.apiKeysOfApplicationPrefix(applicationId, environment);
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ':prefix': k.gsi1skPrefix },
    }),
  );
  return (res.Items ?? []).map((row) => ({
    keyId: row.key_id,
    environment: row.environment,
    status: row.status,
    display: row.display,
    plan: row.plan,
    createdAt: row.created_at,
    keyHash: row.key_hash,
  }));
}

/** SET clauses with generated placeholders, so no attribute name can collide with a reserved word. */
function setExpression(values: Record<string, unknown>, ifNotExists: Record<string, unknown> = {}) {
  const names: Record<string, string> = {};
  const placeholders: Record<string, unknown> = {};
  const clauses: string[] = [];
  Object.entries(values).forEach(([name, value], i) => {
    names[`#a${i}`] = name;
    placeholders[`:a${i}`] = value;
    clauses.push(`#a${i} = :a${i}`);
  });
  Object.entries(ifNotExists).forEach(([name, value], i) => {
    names[`#n${i}`] = name;
    placeholders[`:n${i}`] = value;
    clauses.push(`#n${i} = if_not_exists(#n${i}, :n${i})`);
  });
  return { expression: `SET ${clauses.join(', ')}`, names, placeholders };
}

/**
 * Store a key for an application (only its hash and display parts). Idempotent for the same key
 * and application: the plan is refreshed and the usage counters are kept. Other active keys of the
 * same application and environment are revoked: one secret key per application and environment.
 */
export async function issueKey(deps: Deps, app: ApplicationRecord, apiKey: string): Promise<StoredKey> {
  const keyHash = sha256Hex(apiKey);
  const environment = environmentOfKey(apiKey);
  const keyId = keyIdFromHash(keyHash);
  const display = displayOfKey(apiKey);
  const createdAt = new Date(deps.clock.now()).toISOString();
  const set = setExpression(
    {
      ...planAttributes(app.plan),
      status: 'active',
      application_id: app.applicationId,
      environment,
      key_id: keyId,
      key_hash: keyHash,
      prefix: display.prefix,
      last4: display.last4,
      display: display.display,
      ...keys.apiKeyByApplication(app.applicationId, environment, keyId),
    },
    { created_at: createdAt, tat: 0, gate: 0 },
  );
  // An unlimited plan has no quota attributes; drop stale ones from a previous plan.
  const staleQuotas = (['quota_api', 'quota_ai'] as const).filter((q) => !(q in planAttributes(app.plan)));
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.apiKey(keyHash),
        UpdateExpression: set.expression + (staleQuotas.length ? ` REMOVE ${staleQuotas.join(', ')}` : ''),
        ConditionExpression: 'attribute_not_exists(pk) OR #owner = :owner',
        ExpressionAttributeNames: { ...set.names, '#owner': 'application_id' },
        ExpressionAttributeValues: { ...set.placeholders, ':owner': app.applicationId },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) {
      throw new Error(`Key ${display.display} already belongs to another application`, { cause: err });
    }
    throw err;
  }
  for (const other of await listKeys(deps, app.applicationId, environment)) {
    if (other.keyId !== keyId && other.status === 'active') await markRevoked(deps, other.keyHash);
  }
  return { keyId, keyHash, environment, status: 'active', display: display.display, plan: app.plan, createdAt };
}

async function markRevoked(deps: Deps, keyHash: string): Promise<void> {
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.apiKey(keyHash),
      UpdateExpression: 'SET #status = :revoked, revoked_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':revoked': 'revoked', ':at': new Date(deps.clock.now()).toISOString() },
    }),
  );
}

export async function revokeKey(deps: Deps, apiKey: string): Promise<void> {
  await markRevoked(deps, sha256Hex(apiKey));
}

/** Usage counters of one key this month (for tests, dashboards and the bench). */
export async function monthlyUsage(deps: Deps, apiKey: string, at: Date): Promise<{ api: number; ai: number }> {
  const res = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(sha256Hex(apiKey)), ConsistentRead: true }),
  );
  return {
    api: Number(res.Item?.[usageAttribute('api', at)] ?? 0),
    ai: Number(res.Item?.[usageAttribute('ai', at)] ?? 0),
  };
}
