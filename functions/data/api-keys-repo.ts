// Applications and their secret keys, and the meter every key-authenticated request passes.
//
// authorizeAndMeter() authenticates the key, enforces the plan's live access, the token bucket and
// the monthly quota, and counts the request, all in ONE conditional write on one of the key's
// metering shards; a refused request writes nothing. A key has shardsFor(plan) shards
// (functions/core/rate-limit.ts): shard 0 is the ApiKey row, so a one-shard key (Free, Startup) is
// metered exactly as a single row is; the others are MeteringShard rows in partitions of their own,
// stamped with the key's status and plan so that each can authenticate a request alone.
//
// Which shard to write is this process's choice, from what it last saw of each (KeyView below): a
// random shard not known to be empty. Knowledge only ever says "empty" when a write saw it so at this
// instant, and both bucket state and committed counts only grow, so a request is refused only when
// every shard has been seen unable to admit it. Quota units reach shards 1..N-1 by borrowing from
// the ApiKey row's committed count (functions/core/usage.ts) in the same transaction as the request
// the shard admits. docs/architecture.md, "Metering", explains the design and its guarantees.
import { BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, isConditionalCheckFailed, isTransactionCanceled, isTransactionConflict } from '../platform/aws/dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ApiError } from '../contracts/errors';
import { PLANS, type PlanName } from '../contracts/limits';
import { displayOfKey, environmentOfKey, keyIdFromHash, sha256Hex, type StoredKeyDisplay } from '../core/api-keys';
import {
  keyHeaders,
  MAX_METERING_SHARDS,
  retryAfterSeconds,
  secondsUntilMonthlyReset,
  shardBucketFor,
  shardsFor,
  type RateLimitHeaders,
} from '../core/rate-limit';
import { allotmentChunk, borrowFor, crossedThreshold, type Borrow } from '../core/usage';
import type { Deps } from '../platform/runtime';
import { ENVIRONMENTS, type Environment } from '../contracts/schemas';
import { queryIndexPartition } from './dynamo';
import { allotmentAttribute, keys, TABLE, usageAttribute } from './keys';

type Kind = 'api' | 'ai';

export interface AuthContext {
  applicationId: string;
  environment: Environment;
  keyId: string;
  plan: PlanName;
  rateLimit: RateLimitHeaders;
  usage: {
    kind: Kind;
    /**
     * The month's committed units of this quota after this request: on a one-shard key, and for a
     * request the ApiKey row admitted, that row's counter (exact); otherwise the count this process
     * last saw, which is never more than the true one.
     */
    used: number;
    /** The monthly quota (null when unlimited). */
    quota: number | null;
    /**
     * Set only on the request whose write moved the committed count onto a usage.limit_approaching
     * threshold (percent): one request per threshold and month.
     */
    thresholdReached?: number;
  };
}

/** A metering row as stored: the ApiKey row (shard 0) or a MeteringShard row. */
interface MeterRow {
  application_id: string;
  environment: Environment;
  key_id: string;
  plan: PlanName;
  /** `retired`: a shard beyond the plan's count since a plan change; it admits nothing. */
  status: 'active' | 'revoked' | 'retired';
  live_access: boolean;
  /** The key's shard count; absent on rows from before sharding, which are one-shard keys. */
  shards?: number;
  tat?: number;
  gate?: number;
  quota_api?: number;
  quota_ai?: number;
  [usage: string]: unknown;
}

/** Attributes that carry the plan onto every metering row (so one row can decide a request alone). */
function planAttributes(plan: PlanName) {
  const bucket = shardBucketFor(plan);
  const limits = PLANS[plan];
  return {
    plan,
    live_access: limits.liveAccess,
    shards: shardsFor(plan),
    interval_ms: bucket.intervalMs,
    gate_offset_ms: bucket.toleranceMs - bucket.intervalMs,
    ...(limits.apiPerMonth === null ? {} : { quota_api: limits.apiPerMonth }),
    ...(limits.aiPerMonth === null ? {} : { quota_ai: limits.aiPerMonth }),
  };
}

// ---------- what this process last saw of each key ----------

/** One quota's month as last seen. */
interface QuotaSeen {
  quota: number | null;
  /** The ApiKey row's committed count (the highest seen: it only grows within a month). */
  committed: number;
  /** `writesSent` when the committed count was first seen at the quota; null while it was not. */
  fullSince: number | null;
  /** Units a shard (1..N-1) had left (lent minus used) and the number of the write that saw it. */
  left: Map<number, { units: number; sentAt: number }>;
  /** Borrows this process has in flight, per shard: one at a time, or every request would borrow. */
  borrowing: Map<number, Promise<unknown>>;
}

interface KeyView {
  applicationId: string;
  environment: Environment;
  keyId: string;
  plan: PlanName;
  shards: number;
  quotas: Record<Kind, number | null>;
  /** Per shard, the highest `tat` and `gate` seen (both only grow). */
  tats: Map<number, number>;
  gates: Map<number, number>;
  /** By usage attribute (kind and month). */
  months: Map<string, QuotaSeen>;
  /**
   * How often a shard this process last saw idle turned out busy (a moving average, 0 to 1): other
   * processes write the same shards, so near the plan's rate a bucket seen idle often is not any
   * more. Above one half, such a shard is written as busy: the guess is right more often than not,
   * and a wrong guess costs one more write. It stays 0 where this process is the only writer.
   */
  staleIdle: number;
}

/**
 * Bounded, least recently used first out. Nothing here is trusted to admit a request: it only picks
 * the shard to write and says when a refusal is final, so losing an entry costs at most a few writes.
 */
const MAX_KEYS_SEEN = 10_000;
const seen = new Map<string, KeyView>();
/**
 * How many shards a request may find empty before it is refused. Within the key's rate, shards are
 * seldom empty and this never matters; at the end of a full burst, a request may be refused while a
 * shard it did not try still holds a token (the key admits a little less than its burst, never
 * more). A key flooded past its rate is where it matters: other processes keep taking the tokens
 * that trickle back into shards this process saw empty, so without a cap each refused request would
 * try every shard, and a flood would cost up to N writes per refusal.
 */
const MAX_EMPTY_SHARDS_PER_REQUEST = 3;
/** The weight of the latest outcome in KeyView.staleIdle. */
const STALE_IDLE_WEIGHT = 0.2;
/** Numbers every write as it is sent: an observation is newer than a fact known before it was sent. */
let writesSent = 0;

function viewOf(keyHash: string): KeyView | undefined {
  const view = seen.get(keyHash);
  if (view) {
    seen.delete(keyHash);
    seen.set(keyHash, view);
  }
  return view;
}

/** The month's attribute names of one quota. */
interface QuotaAttributes {
  used: string;
  allotted: string;
}

/** Records what a write saw of shard `shard` (its row after the write, or at the failed check). */
function observe(keyHash: string, shard: number, row: MeterRow, sentAt: number, kind: Kind, attrs: QuotaAttributes): KeyView {
  const view: KeyView = viewOf(keyHash) ?? {
    applicationId: row.application_id,
    environment: row.environment,
    keyId: row.key_id,
    plan: row.plan,
    shards: 1,
    quotas: { api: null, ai: null },
    tats: new Map(),
    gates: new Map(),
    months: new Map(),
    staleIdle: 0,
  };
  Object.assign(view, {
    applicationId: row.application_id,
    environment: row.environment,
    keyId: row.key_id,
    plan: row.plan,
    shards: row.shards ?? 1,
    quotas: { api: row.quota_api ?? null, ai: row.quota_ai ?? null },
  });
  view.tats.set(shard, Math.max(view.tats.get(shard) ?? 0, row.tat ?? 0));
  view.gates.set(shard, Math.max(view.gates.get(shard) ?? 0, row.gate ?? 0));
  const quota = view.quotas[kind];
  const month = monthSeen(view, kind, attrs);
  if (shard === 0) {
    month.committed = Math.max(month.committed, Number(row[attrs.used] ?? 0));
  } else {
    const previous = month.left.get(shard);
    const units = Number(row[attrs.allotted] ?? 0) - Number(row[attrs.used] ?? 0);
    if (!previous || previous.sentAt <= sentAt) month.left.set(shard, { units, sentAt });
  }
  if (quota !== null && month.committed >= quota) month.fullSince ??= writesSent;
  seen.set(keyHash, view);
  if (seen.size > MAX_KEYS_SEEN) seen.delete(seen.keys().next().value as string);
  return view;
}

/** What this process saw of one quota this month (fresh when the quota itself changed). */
function monthSeen(view: KeyView, kind: Kind, attrs: QuotaAttributes): QuotaSeen {
  const quota = view.quotas[kind];
  let month = view.months.get(attrs.used);
  if (!month || month.quota !== quota) {
    month = { quota, committed: 0, fullSince: null, left: new Map(), borrowing: new Map() };
    view.months.set(attrs.used, month);
  }
  return month;
}

/** A shard whose quota units are gone for good this month: the ApiKey row at the quota, or a shard seen spent after that. */
function quotaSpent(shard: number, month: QuotaSeen | undefined): boolean {
  if (!month || month.fullSince === null) return false;
  if (shard === 0) return true;
  const left = month.left.get(shard);
  return left !== undefined && left.units <= 0 && left.sentAt > month.fullSince;
}

/** `from`: the committed count a borrow was computed from (the count is at least that when it lands). */
type Write = { shard: number; borrow: Borrow | null; from: number };

type Choice =
  | Write
  | { refuse: 'rate_limit' | 'quota' }
  /** Every shard that could take the request waits for this process's borrow for it. */
  | { wait: Promise<unknown> };

/**
 * The next write for a request at `now`: a random shard that is neither seen empty nor seen out of
 * quota units, with a borrow when it needs units; when there is none, one write to confirm (a
 * refusal is always decided by the table, which also answers revoked keys first), and after that,
 * the refusal. A borrow that would reach a threshold or the quota must name the exact committed
 * count, which the ApiKey row's own +1 steps keep moving: it is made only when that row cannot
 * take the request itself.
 */
function choose(view: KeyView | undefined, kind: Kind, attrs: QuotaAttributes, now: number, hasWritten: boolean): Choice {
  if (!view) return { shard: 0, borrow: null, from: 0 };
  const quota = view.quotas[kind];
  const month = monthSeen(view, kind, attrs);
  const open: number[] = [];
  let spent = 0;
  for (let shard = 0; shard < view.shards; shard += 1) {
    const outOfUnits = quota !== null && quotaSpent(shard, month);
    if (outOfUnits) spent += 1;
    if (!outOfUnits && (view.gates.get(shard) ?? 0) <= now) open.push(shard);
  }
  if (open.length === 0) {
    if (hasWritten) return { refuse: spent === view.shards ? 'quota' : 'rate_limit' };
    return { shard: Math.floor(Math.random() * view.shards), borrow: null, from: month.committed };
  }
  const candidates: Write[] = [];
  const pending: Array<Promise<unknown>> = [];
  for (const shard of open) {
    const left = month.left.get(shard);
    // The ApiKey row, an unlimited quota, a shard with units left, or nothing left to lend: as it is.
    if (shard === 0 || quota === null || (left !== undefined && left.units > 0) || month.fullSince !== null) {
      candidates.push({ shard, borrow: null, from: month.committed });
      continue;
    }
    const inFlight = month.borrowing.get(shard);
    if (inFlight) {
      pending.push(inFlight);
      continue;
    }
    const borrow = borrowFor(month.committed, quota, allotmentChunk(view.plan));
    if (borrow && borrow.committedExactly !== undefined && open.includes(0)) continue;
    candidates.push({ shard, borrow, from: month.committed });
  }
  if (candidates.length === 0 && pending.length > 0) return { wait: Promise.race(pending) };
  return candidates[Math.floor(Math.random() * candidates.length)] ?? { shard: open[0], borrow: null, from: month.committed };
}

// ---------- the writes ----------

type BucketCase = 'idle' | 'busy';

/** The GCRA step (functions/core/rate-limit.ts) as a condition and an update, for the case guessed. */
function bucketStep(bucketCase: BucketCase): { condition: string; update: string; names: Record<string, string> } {
  return bucketCase === 'busy'
    ? { condition: '#tat > :now AND #gate <= :now', update: 'SET #tat = #tat + #interval, #gate = #gate + #interval', names: {} }
    : {
        condition: '(attribute_not_exists(#tat) OR #tat <= :now)',
        update: 'SET #tat = :now + #interval, #gate = :now - #gateOffset',
        names: { '#gateOffset': 'gate_offset_ms' },
      };
}

const ROW_NAMES = { '#status': 'status', '#env': 'environment', '#live': 'live_access', '#tat': 'tat', '#gate': 'gate', '#interval': 'interval_ms' };
const ROW_VALUES = { ':active': 'active', ':test': 'test', ':true': true };
/** The key may be used at all: active, and a test key or a plan with live access. */
const KEY_USABLE = '#status = :active AND (#env = :test OR #live = :true)';
/**
 * When the shard last admitted a request (Unix ms), for the console's "last used": one more SET
 * clause in the write that meters the request anyway, so it costs no request, and no index write
 * (the ApiKey row's `tat` changes in every such write already; the other shards have no index
 * attributes). A key's last use is the latest over its shards (lastUsedOfKeys).
 */
const LAST_USED = '#lastUsed = :now';
const LAST_USED_NAMES = { '#lastUsed': 'last_used_at' };

/**
 * Meter one request on one shard. The ApiKey row admits while its committed count is below the
 * quota (as a one-shard key always has); another shard, while it has lent units left.
 */
function meterUpdate(tableName: string, keyHash: string, shard: number, kind: Kind, attrs: QuotaAttributes, now: number, bucketCase: BucketCase) {
  const step = bucketStep(bucketCase);
  const quotaCondition =
    shard === 0
      ? '(attribute_not_exists(#quota) OR attribute_not_exists(#used) OR #used < #quota)'
      : '(attribute_not_exists(#quota) OR (attribute_exists(#allotted) AND (attribute_not_exists(#used) OR #used < #allotted)))';
  return new UpdateCommand({
    TableName: tableName,
    Key: keys.meteringShard(keyHash, shard),
    UpdateExpression: `${step.update}, ${LAST_USED} ADD #used :one`,
    ConditionExpression: `${KEY_USABLE} AND ${step.condition} AND ${quotaCondition}`,
    ExpressionAttributeNames: {
      ...ROW_NAMES,
      ...LAST_USED_NAMES,
      ...step.names,
      '#used': attrs.used,
      '#quota': `quota_${kind}`,
      ...(shard === 0 ? {} : { '#allotted': attrs.allotted }),
    },
    ExpressionAttributeValues: { ...ROW_VALUES, ':now': now, ':one': 1 },
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
}

/**
 * Borrow units for a shard from the ApiKey row's committed count and admit the request on that shard,
 * in one transaction: the units are lent and the first of them used together, or nothing happens.
 */
function borrowAndMeter(tableName: string, keyHash: string, shard: number, view: KeyView, borrow: Borrow, attrs: QuotaAttributes, kind: Kind, now: number, bucketCase: BucketCase) {
  const step = bucketStep(bucketCase);
  const committedCondition =
    borrow.committedExactly !== undefined
      ? borrow.committedExactly === 0
        ? '(attribute_not_exists(#used) OR #used = :committed)'
        : '#used = :committed'
      : '(attribute_not_exists(#used) OR #used <= :committed)';
  return new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: tableName,
          Key: keys.meteringShard(keyHash, 0),
          UpdateExpression: 'ADD #used :units',
          ConditionExpression: `#quota = :quota AND ${committedCondition}`,
          ExpressionAttributeNames: { '#used': attrs.used, '#quota': `quota_${kind}` },
          ExpressionAttributeValues: {
            ':units': borrow.units,
            ':quota': view.quotas[kind],
            ':committed': borrow.committedExactly ?? borrow.committedAtMost,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.meteringShard(keyHash, shard),
          UpdateExpression: `${step.update}, ${LAST_USED} ADD #used :one, #allotted :units`,
          // The plan is pinned: what this process knows of the key (its quota, its identity) holds.
          ConditionExpression: `${KEY_USABLE} AND #plan = :plan AND ${step.condition}`,
          ExpressionAttributeNames: { ...ROW_NAMES, ...LAST_USED_NAMES, ...step.names, '#plan': 'plan', '#used': attrs.used, '#allotted': attrs.allotted },
          ExpressionAttributeValues: { ...ROW_VALUES, ':now': now, ':one': 1, ':units': borrow.units, ':plan': view.plan },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ],
  });
}

/**
 * What a refused write says about the key: unknown, revoked or live without live access end the
 * request (in that order, as before sharding); anything else is recorded and the request goes on.
 */
function judge(keyHash: string, shard: number, old: MeterRow | undefined, sentAt: number, kind: Kind, attrs: QuotaAttributes): void {
  if (!old) {
    if (shard === 0) throw new ApiError('invalid_api_key');
    // A shard row that does not exist (yet): start again from the ApiKey row.
    seen.delete(keyHash);
    return;
  }
  if (old.status === 'revoked') throw new ApiError('revoked_api_key');
  if (old.status === 'retired') {
    // A shard beyond the key's current count: only its new count is worth knowing (its other
    // attributes are the old plan's).
    const view = viewOf(keyHash);
    if (view) view.shards = old.shards ?? 1;
    return;
  }
  if (old.environment === 'live' && !old.live_access) throw new ApiError('live_access_not_in_plan');
  observe(keyHash, shard, old, sentAt, kind, attrs);
}

/** `answered`: the table judged the request (a conflict with a transaction is no answer). */
type WriteResult = { admitted: true; row: MeterRow | null } | { admitted: false; answered: boolean };

async function writePlain(deps: Deps, keyHash: string, shard: number, kind: Kind, attrs: QuotaAttributes, now: number, bucketCase: BucketCase, sentAt: number): Promise<WriteResult> {
  try {
    const result = await deps.ddb.send(meterUpdate(deps.config.tableName, keyHash, shard, kind, attrs, now, bucketCase));
    const row = result.Attributes as MeterRow;
    observe(keyHash, shard, row, sentAt, kind, attrs);
    return { admitted: true, row };
  } catch (err) {
    // A borrow's transaction holds this row for a moment: another shard, or this one again, next.
    if (isTransactionConflict(err)) return { admitted: false, answered: false };
    if (!isConditionalCheckFailed(err)) throw err;
    judge(keyHash, shard, err.Item ? (unmarshall(err.Item) as MeterRow) : undefined, sentAt, kind, attrs);
    return { admitted: false, answered: true };
  }
}

async function writeBorrow(deps: Deps, keyHash: string, view: KeyView, write: Write & { borrow: Borrow }, kind: Kind, attrs: QuotaAttributes, now: number, bucketCase: BucketCase, sentAt: number): Promise<WriteResult> {
  const { shard, borrow } = write;
  const month = monthSeen(view, kind, attrs);
  const sent = deps.ddb.send(borrowAndMeter(deps.config.tableName, keyHash, shard, view, borrow, attrs, kind, now, bucketCase));
  const settled = sent.then(
    () => undefined,
    () => undefined,
  );
  month.borrowing.set(shard, settled);
  try {
    await sent;
  } catch (err) {
    if (!isTransactionCanceled(err)) throw err;
    const reasons = err.CancellationReasons ?? [];
    if (reasons.some((r) => r.Code === 'TransactionConflict')) return { admitted: false, answered: false };
    if (reasons.some((r) => r.Code !== undefined && r.Code !== 'None' && r.Code !== 'ConditionalCheckFailed')) throw err;
    const rowOf = (i: number) => (reasons[i]?.Item ? (unmarshall(reasons[i].Item!) as MeterRow) : undefined);
    if (reasons[0]?.Code === 'ConditionalCheckFailed') judge(keyHash, 0, rowOf(0), sentAt, kind, attrs);
    if (reasons[1]?.Code === 'ConditionalCheckFailed') judge(keyHash, shard, rowOf(1), sentAt, kind, attrs);
    return { admitted: false, answered: true };
  } finally {
    if (month.borrowing.get(shard) === settled) month.borrowing.delete(shard);
  }
  // A transaction returns no values: record what its conditions guarantee (lower bounds only).
  const bucket = shardBucketFor(view.plan);
  const tat = Math.max(view.tats.get(shard) ?? 0, now) + bucket.intervalMs;
  view.tats.set(shard, tat);
  view.gates.set(shard, Math.max(view.gates.get(shard) ?? 0, tat - bucket.toleranceMs));
  month.committed = Math.max(month.committed, (borrow.committedExactly ?? write.from) + borrow.units);
  month.left.set(shard, { units: borrow.units - 1, sentAt });
  if (month.quota !== null && month.committed >= month.quota) month.fullSince ??= writesSent;
  return { admitted: true, row: null };
}

/**
 * Authenticate a well-formed key and meter one request. Throws ApiError for unknown or revoked keys
 * (401), live keys on sandbox-only plans (403), an empty bucket or an exhausted quota (429).
 */
export async function authorizeAndMeter(deps: Deps, apiKey: string, kind: Kind): Promise<AuthContext> {
  const keyHash = sha256Hex(apiKey);
  const now = deps.clock.now();
  const attrs: QuotaAttributes = { used: usageAttribute(kind, new Date(now)), allotted: allotmentAttribute(kind, new Date(now)) };
  let hasWritten = false;
  // Each shard is written at most a few times per request (a wrong bucket guess, a spent bucket or
  // allotment, a borrow that lost a race), and each failed write teaches what makes the next succeed.
  const budget = () => 4 * (viewOf(keyHash)?.shards ?? 1) + 4;
  let emptyShardsMet = 0;
  for (let writes = 0, waits = 0; writes < budget() && waits < budget(); ) {
    const view = viewOf(keyHash);
    const choice = choose(view, kind, attrs, now, hasWritten);
    if ('refuse' in choice) throw refusal(view!, choice.refuse, kind, attrs, now);
    if ('wait' in choice) {
      waits += 1;
      await choice.wait;
      continue;
    }
    const { shard, borrow } = choice;
    // A shard seen busy is busy still (tat only grows); one seen idle may have been written since.
    const seenIdle = (view?.tats.get(shard) ?? 0) <= now;
    const bucketCase: BucketCase = !seenIdle || (view?.staleIdle ?? 0) > 0.5 ? 'busy' : 'idle';
    writes += 1;
    writesSent += 1;
    const sentAt = writesSent;
    const result = borrow
      ? await writeBorrow(deps, keyHash, view!, { ...choice, borrow }, kind, attrs, now, bucketCase, sentAt)
      : await writePlain(deps, keyHash, shard, kind, attrs, now, bucketCase, sentAt);
    hasWritten ||= result.admitted || result.answered;
    const after = viewOf(keyHash);
    if (after && seenIdle && (result.admitted || result.answered)) {
      // Admitted: the guess was right. Refused: the row's tat, just seen, says what the bucket was.
      const wasBusy = result.admitted ? bucketCase === 'busy' : (after.tats.get(shard) ?? 0) > now;
      after.staleIdle += STALE_IDLE_WEIGHT * ((wasBusy ? 1 : 0) - after.staleIdle);
    }
    if (result.admitted) return admitted(viewOf(keyHash) ?? view!, kind, attrs, now, shard, result.row, borrow);
    if (result.answered && after && (after.gates.get(shard) ?? 0) > now) {
      emptyShardsMet += 1;
      if (emptyShardsMet >= MAX_EMPTY_SHARDS_PER_REQUEST) throw refusal(after, 'rate_limit', kind, attrs, now);
    }
  }
  // Not reached in practice (see the loop comment); refuse rather than admit unmetered.
  const view = viewOf(keyHash);
  throw view ? refusal(view, 'rate_limit', kind, attrs, now) : new ApiError('rate_limit_exceeded', undefined, { 'Retry-After': '1' });
}

function shardTats(view: KeyView): Array<number | undefined> {
  return Array.from({ length: view.shards }, (_, shard) => view.tats.get(shard));
}

function admitted(view: KeyView, kind: Kind, attrs: QuotaAttributes, now: number, shard: number, row: MeterRow | null, borrow: Borrow | null): AuthContext {
  const quota = view.quotas[kind];
  // The ApiKey row's own counter when this request wrote it; the borrow's end when it reached a boundary.
  const used =
    shard === 0 && row
      ? Number(row[attrs.used] ?? 0)
      : borrow?.committedExactly !== undefined
        ? borrow.committedExactly + borrow.units
        : (view.months.get(attrs.used)?.committed ?? 0);
  const reached = shard === 0 ? crossedThreshold(used, quota) : (borrow?.reaches ?? null);
  return {
    applicationId: view.applicationId,
    environment: view.environment,
    keyId: view.keyId,
    plan: view.plan,
    rateLimit: keyHeaders(view.plan, shardTats(view), now),
    usage: { kind, used, quota, ...(reached === null ? {} : { thresholdReached: reached }) },
  };
}

function refusal(view: KeyView, reason: 'rate_limit' | 'quota', kind: Kind, attrs: QuotaAttributes, now: number): ApiError {
  const headers = keyHeaders(view.plan, shardTats(view), now);
  if (reason === 'quota') {
    return new ApiError(kind === 'api' ? 'monthly_api_quota_exceeded' : 'monthly_ai_quota_exceeded', undefined, {
      ...rateLimitHeaderValues(headers),
      'Retry-After': String(secondsUntilMonthlyReset(now)),
    });
  }
  // The soonest any shard that still has quota units admits again.
  const month = view.months.get(attrs.used);
  const gates = Array.from({ length: view.shards }, (_, shard) => shard)
    .filter((shard) => view.quotas[kind] === null || !quotaSpent(shard, month))
    .map((shard) => view.gates.get(shard) ?? now);
  return new ApiError('rate_limit_exceeded', undefined, {
    ...rateLimitHeaderValues({ ...headers, remaining: 0 }),
    'Retry-After': String(retryAfterSeconds(Math.min(...gates), now)),
  });
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
  /** The console organisation that owns the application (indexed: the organisation lists its applications). */
  organizationId?: string;
  /** When the application was created (kept from the first write; orders the organisation's list). */
  createdAt?: string;
}

/** An application as stored. */
export interface StoredApplication {
  applicationId: string;
  name: string;
  plan: PlanName;
  redirectUris: readonly string[];
  linkOrigins: readonly string[];
  organizationId: string | null;
  createdAt: string | null;
}

/** The application's Link allowlists (both empty for an unknown application). */
export interface LinkSettings {
  redirectUris: readonly string[];
  linkOrigins: readonly string[];
}

/**
 * Writes an application's settings. An update, not a put: what other writers keep on the row (the
 * owning organisation and its index entry, the creation time) stays when the local seed writes the
 * settings again at every start.
 */
export async function putApplication(deps: Deps, app: ApplicationRecord): Promise<void> {
  const now = new Date(deps.clock.now()).toISOString();
  const createdAt = app.createdAt ?? now;
  const update = updateExpression({
    set: {
      application_id: app.applicationId,
      name: app.name,
      plan: app.plan,
      redirect_uris: [...(app.redirectUris ?? [])],
      link_origins: [...(app.linkOrigins ?? [])],
      updated_at: now,
      ...(app.organizationId === undefined
        ? {}
        : { organization_id: app.organizationId, ...keys.applicationOfOrganization(app.organizationId, createdAt, app.applicationId) }),
    },
    setIfMissing: { created_at: createdAt },
  });
  await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.application(app.applicationId),
      UpdateExpression: update.expression,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: update.placeholders,
    }),
  );
}

function storedApplication(row: Record<string, unknown>): StoredApplication {
  return {
    applicationId: String(row.application_id),
    name: String(row.name),
    plan: row.plan as PlanName,
    redirectUris: (row.redirect_uris as string[] | undefined) ?? [],
    linkOrigins: (row.link_origins as string[] | undefined) ?? [],
    organizationId: (row.organization_id as string | undefined) ?? null,
    createdAt: (row.created_at as string | undefined) ?? null,
  };
}

export async function getApplication(deps: Deps, applicationId: string): Promise<StoredApplication | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.application(applicationId), ConsistentRead: true }));
  return res.Item ? storedApplication(res.Item) : undefined;
}

/** An organisation's applications, oldest first (the index: a just-created one may show a moment later). */
export async function listApplicationsOf(deps: Deps, organizationId: string): Promise<StoredApplication[]> {
  return (await queryIndexPartition(deps, keys.applicationsOf(organizationId).gsi1pk)).map(storedApplication);
}

/**
 * Renames an application or changes its plan, only while it belongs to `organizationId`; undefined
 * when it does not (any more). The plan stamped on its keys follows through replanKey.
 */
export async function updateApplication(
  deps: Deps,
  applicationId: string,
  organizationId: string,
  patch: { name?: string; plan?: PlanName },
): Promise<StoredApplication | undefined> {
  const update = updateExpression({ set: { ...patch, updated_at: new Date(deps.clock.now()).toISOString() } });
  try {
    const res = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.application(applicationId),
        UpdateExpression: update.expression,
        ConditionExpression: '#org = :org',
        ExpressionAttributeNames: { ...update.names, '#org': 'organization_id' },
        ExpressionAttributeValues: { ...update.placeholders, ':org': organizationId },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return storedApplication(res.Attributes ?? {});
  } catch (err) {
    if (isConditionalCheckFailed(err)) return undefined;
    throw err;
  }
}

/**
 * Takes an application out of its organisation (the organisation is being deleted): it leaves the
 * organisation's list, and `detached_from` records where it was. Its items and rows stay.
 */
export async function detachApplication(deps: Deps, applicationId: string, organizationId: string): Promise<void> {
  try {
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.application(applicationId),
        UpdateExpression: 'SET detached_from = :org, updated_at = :at REMOVE organization_id, gsi1pk, gsi1sk',
        ConditionExpression: 'organization_id = :org',
        ExpressionAttributeValues: { ':org': organizationId, ':at': new Date(deps.clock.now()).toISOString() },
      }),
    );
  } catch (err) {
    // Already detached (a retried delete): nothing left to do.
    if (!isConditionalCheckFailed(err)) throw err;
  }
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
  /** The key's metering shards (1 for Free and Startup). */
  shards: number;
  /** When the ApiKey row (shard 0) last admitted a request (Unix ms); the other shards: lastUsedOfKeys. */
  lastUsedOnKeyRow: number | null;
  /** Its place in the application environment's succession of active keys (issueKey); absent on keys issued before it. */
  activation?: number;
}

export async function listKeys(deps: Deps, applicationId: string, environment?: Environment): Promise<StoredKey[]> {
  const k = keys.apiKeysOfApplicationPrefix(applicationId, environment);
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      // Every environment: the partition alone (DynamoDB refuses an empty begins_with prefix).
      KeyConditionExpression: k.gsi1skPrefix ? 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': k.gsi1pk, ...(k.gsi1skPrefix ? { ':prefix': k.gsi1skPrefix } : {}) },
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
    shards: Number(row.shards ?? 1),
    lastUsedOnKeyRow: typeof row.last_used_at === 'number' ? row.last_used_at : null,
    ...(typeof row.activation === 'number' ? { activation: row.activation } : {}),
  }));
}

/**
 * When each key last admitted a request (Unix ms, null if never), by key hash: the latest over its
 * metering shards. A one-shard key needs nothing more than its listing; a sharded key's other shards
 * are read (one BatchGetItem per key), which only the console's key listing does.
 */
export async function lastUsedOfKeys(deps: Deps, stored: readonly StoredKey[]): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  for (const key of stored) {
    if (key.shards <= 1) {
      out.set(key.keyHash, key.lastUsedOnKeyRow);
      continue;
    }
    const rows = await readMeterRows(deps, key.keyHash);
    const times = rows.map((row) => row?.last_used_at).filter((at): at is number => typeof at === 'number');
    out.set(key.keyHash, times.length ? Math.max(...times) : null);
  }
  return out;
}

/** An update's clauses with generated placeholders, so no attribute name can collide with a reserved word. */
function updateExpression(parts: { set?: Record<string, unknown>; setIfMissing?: Record<string, unknown>; add?: Record<string, number>; remove?: readonly string[] }) {
  const names: Record<string, string> = {};
  const placeholders: Record<string, unknown> = {};
  const clause = (prefix: string, entries: Array<[string, unknown]>, render: (n: string, v: string) => string) =>
    entries.map(([name, value], i) => {
      names[`#${prefix}${i}`] = name;
      placeholders[`:${prefix}${i}`] = value;
      return render(`#${prefix}${i}`, `:${prefix}${i}`);
    });
  const set = [
    ...clause('a', Object.entries(parts.set ?? {}), (n, v) => `${n} = ${v}`),
    ...clause('n', Object.entries(parts.setIfMissing ?? {}), (n, v) => `${n} = if_not_exists(${n}, ${v})`),
  ];
  const add = clause('d', Object.entries(parts.add ?? {}).filter(([, units]) => units !== 0), (n, v) => `${n} ${v}`);
  const remove = (parts.remove ?? []).map((name, i) => {
    names[`#r${i}`] = name;
    return `#r${i}`;
  });
  const expression = [set.length ? `SET ${set.join(', ')}` : '', add.length ? `ADD ${add.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return { expression, names, placeholders };
}

/** The conditions a provisioning write makes on a row it read: exactly as read. */
function unchangedSince(read: Record<string, unknown> | undefined, attributes: readonly string[]) {
  const names: Record<string, string> = {};
  const placeholders: Record<string, unknown> = {};
  const clauses = attributes.map((attribute, i) => {
    names[`#c${i}`] = attribute;
    if (read?.[attribute] === undefined) return `attribute_not_exists(#c${i})`;
    placeholders[`:c${i}`] = read[attribute];
    return `#c${i} = :c${i}`;
  });
  return { condition: clauses.join(' AND '), names, placeholders };
}

/** Every metering row a key may have (index = shard; undefined where there is none), read consistently. */
async function readMeterRows(deps: Deps, keyHash: string): Promise<Array<MeterRow | undefined>> {
  const table = deps.config.tableName;
  const wanted = Array.from({ length: MAX_METERING_SHARDS }, (_, shard) => keys.meteringShard(keyHash, shard));
  const found = new Map<string, MeterRow>();
  let pending: Array<Record<string, unknown>> = wanted;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round === 5) throw new Error('DynamoDB left metering rows unread after 5 rounds');
    const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    for (const row of res.Responses?.[table] ?? []) found.set(String(row.pk), row as MeterRow);
    pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  return wanted.map((key) => found.get(key.pk));
}

/** How many times a provisioning transaction is tried when a concurrent write changed what it read. */
const PROVISIONING_TRIES = 5;

/**
 * Issues a key and makes it the application environment's one active key, revoking the one before.
 * Creates that race form a chain, as if they ran one after another: the key becomes active in the
 * same transaction that moves the `activeKeyOf` row on from the key it read there (and its activation
 * count one up), so each create revokes exactly the key it replaced, and the last create's key is
 * the one left active. Keys active from before that row existed, or left active by a create that
 * stopped before revoking, are revoked too when their activation count is lower.
 *
 * Idempotent for the same key and application (the local seed on a restart): the plan is refreshed
 * and the usage counters are kept. The key's metering rows are written in one transaction: the
 * ApiKey row and the plan's shards (stamped with the plan and status), and any shard beyond the
 * plan's count retired. Units a shard admitted without borrowing them (under an unlimited quota)
 * are added to this month's committed count, so a plan with a quota counts every request of the
 * month, whatever plan admitted it.
 */
export async function issueKey(deps: Deps, app: ApplicationRecord, apiKey: string): Promise<StoredKey & { replacedKeyIds: string[] }> {
  const keyHash = sha256Hex(apiKey);
  const environment = environmentOfKey(apiKey);
  const keyId = keyIdFromHash(keyHash);
  const display = displayOfKey(apiKey);
  const createdAt = new Date(deps.clock.now()).toISOString();
  let replaced: ActiveKey | undefined;
  let activation: number;
  for (let attempt = 1; ; attempt += 1) {
    replaced = await activeKeyOf(deps, app.applicationId, environment);
    activation = (replaced?.activation ?? 0) + 1;
    try {
      await stampKeyRows(deps, app, { keyHash, environment, keyId, display }, 'issue', { after: replaced ?? null, activation });
      break;
    } catch (err) {
      if (!(err instanceof ActiveKeyMoved) || attempt >= ISSUE_TRIES) throw err;
      // Another create moved the row on: follow it (a short random wait spreads the racers out).
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
  const revoked = new Set<string>();
  // Only the keys this create itself moved from active to revoked are reported as replaced.
  if (replaced && replaced.keyHash !== keyHash && (await markRevoked(deps, replaced.keyHash))) revoked.add(keyIdFromHash(replaced.keyHash));
  for (const other of await listKeys(deps, app.applicationId, environment)) {
    if (other.keyId !== keyId && other.status === 'active' && (other.activation ?? 0) < activation && (await markRevoked(deps, other.keyHash))) revoked.add(other.keyId);
  }
  const stored: StoredKey = { keyId, keyHash, environment, status: 'active', display: display.display, plan: app.plan, createdAt, shards: shardsFor(app.plan), lastUsedOnKeyRow: null, activation };
  return { ...stored, replacedKeyIds: [...revoked] };
}

/** Creates racing on one application environment that issueKey follows before giving up. */
const ISSUE_TRIES = 40;

interface ActiveKey {
  keyHash: string;
  activation: number;
}

/** The application environment's active key as its `activeKeyOf` row names it (undefined before the first issue). */
async function activeKeyOf(deps: Deps, applicationId: string, environment: Environment): Promise<ActiveKey | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.activeKeyOf(applicationId, environment), ConsistentRead: true }));
  return res.Item ? { keyHash: String(res.Item.key_hash), activation: Number(res.Item.activation) } : undefined;
}

/** The `activeKeyOf` row moved on between reading it and issuing: another create won that step. */
class ActiveKeyMoved extends Error {}

/**
 * The application's plan or organisation changed after the caller read it (a plan change, the
 * organisation deleted): no key is issued on what was read; read the application again.
 */
export class ApplicationChangedError extends Error {
  constructor(applicationId: string) {
    super(`application ${applicationId} changed while a key was being issued`);
  }
}

/**
 * A key is issued only on the plan the issuer read, and in the organisation it read where it read
 * one (the console); the local seed, which knows no organisation, checks the plan only (a seeded
 * application the local console owner adopted keeps its organisation across restarts).
 */
function applicationUnchanged(deps: Deps, app: ApplicationRecord) {
  return {
    ConditionCheck: {
      TableName: deps.config.tableName,
      Key: keys.application(app.applicationId),
      ConditionExpression: `#plan = :plan${app.organizationId === undefined ? '' : ' AND organization_id = :org'}`,
      ExpressionAttributeNames: { '#plan': 'plan' },
      ExpressionAttributeValues: { ':plan': app.plan, ...(app.organizationId === undefined ? {} : { ':org': app.organizationId }) },
    },
  };
}

/**
 * The hashes of the keys an application's `activeKeyOf` rows name, read consistently: a key issued a
 * moment ago that the (eventually consistent) key listing may not show yet.
 */
export async function activeKeyHashes(deps: Deps, applicationId: string): Promise<string[]> {
  const named = await Promise.all(ENVIRONMENTS.map((environment) => activeKeyOf(deps, applicationId, environment)));
  return named.flatMap((k) => (k ? [k.keyHash] : []));
}

/**
 * Stamps the application's plan on a key that is active, without the key itself (the console holds
 * only its hash): the same transaction as issueKey's, so the ApiKey row and every shard change plan
 * together, shards beyond the new count retire, and the month's count stays whole. False when the
 * key is unknown or no longer active (a revoked key is never made active again).
 */
export async function replanKey(deps: Deps, app: ApplicationRecord, keyHash: string): Promise<boolean> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(keyHash), ConsistentRead: true }));
  const row = res.Item;
  if (!row || row.status !== 'active' || row.application_id !== app.applicationId) return false;
  const display: StoredKeyDisplay = { prefix: String(row.prefix), last4: String(row.last4), display: String(row.display) };
  return stampKeyRows(deps, app, { keyHash, environment: row.environment as Environment, keyId: String(row.key_id), display }, 'replan');
}

interface KeyIdentity {
  keyHash: string;
  environment: Environment;
  keyId: string;
  display: StoredKeyDisplay;
}

/**
 * `issue`: the key becomes active with the plan (idempotent for the same key and application).
 * `replan`: only while the key is active (the ApiKey row's status is part of the condition), so a
 * revocation that lands first wins; false then.
 */
async function stampKeyRows(
  deps: Deps,
  app: ApplicationRecord,
  identity: KeyIdentity,
  mode: 'issue' | 'replan',
  /** issue: the active key this one replaces (null: none yet), and the activation count it gets. */
  succession?: { after: ActiveKey | null; activation: number },
): Promise<boolean> {
  const { keyHash, environment, keyId, display } = identity;
  const createdAt = new Date(deps.clock.now()).toISOString();
  const month = new Date(deps.clock.now());
  const plan = planAttributes(app.plan);
  // An unlimited plan has no quota attributes; drop stale ones from a previous plan.
  const staleQuotas = (['quota_api', 'quota_ai'] as const).filter((q) => !(q in plan));
  const counted = (['api', 'ai'] as const).map((kind) => usageAttribute(kind, month));
  const lent = (['api', 'ai'] as const).map((kind) => allotmentAttribute(kind, month));
  const stamp = { ...plan, status: 'active', application_id: app.applicationId, environment, key_id: keyId };

  for (let attempt = 1; ; attempt += 1) {
    const rows = await readMeterRows(deps, keyHash);
    const keyRow = rows[0];
    if (keyRow && keyRow.application_id !== app.applicationId) {
      throw new Error(`Key ${display.display} already belongs to another application`);
    }
    if (mode === 'replan' && keyRow?.status !== 'active') return false;
    const unlent = [0, 0];
    const shardWrites = rows.flatMap((row, shard) => {
      if (shard === 0 || (shard >= plan.shards && !row)) return [];
      const uncovered = [0, 1].map((k) => Math.max(0, Number(row?.[counted[k]] ?? 0) - Number(row?.[lent[k]] ?? 0)));
      uncovered.forEach((units, k) => (unlent[k] += units));
      const update = updateExpression(
        shard < plan.shards
          ? { set: stamp, setIfMissing: { tat: 0, gate: 0 }, add: { [lent[0]]: uncovered[0], [lent[1]]: uncovered[1] }, remove: staleQuotas }
          : { set: { status: 'retired', shards: plan.shards }, add: { [lent[0]]: uncovered[0], [lent[1]]: uncovered[1] } },
      );
      const unchanged = unchangedSince(row, counted);
      return [
        {
          Update: {
            TableName: deps.config.tableName,
            Key: keys.meteringShard(keyHash, shard),
            UpdateExpression: update.expression,
            ConditionExpression: unchanged.condition,
            ExpressionAttributeNames: { ...update.names, ...unchanged.names },
            ExpressionAttributeValues: { ...update.placeholders, ...unchanged.placeholders },
          },
        },
      ];
    });
    const keyUpdate = updateExpression({
      set: {
        ...stamp,
        key_hash: keyHash,
        prefix: display.prefix,
        last4: display.last4,
        display: display.display,
        ...keys.apiKeyByApplication(app.applicationId, environment, keyId),
        ...(succession ? { activation: succession.activation } : {}),
      },
      setIfMissing: { created_at: createdAt, tat: 0, gate: 0 },
      add: { [counted[0]]: unlent[0], [counted[1]]: unlent[1] },
      remove: staleQuotas,
    });
    const keyUnchanged = unchangedSince(keyRow, mode === 'replan' ? ['application_id', 'shards', 'status'] : ['application_id', 'shards']);
    try {
      await deps.ddb.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: deps.config.tableName,
                Key: keys.apiKey(keyHash),
                UpdateExpression: keyUpdate.expression,
                ConditionExpression: keyUnchanged.condition,
                ExpressionAttributeNames: { ...keyUpdate.names, ...keyUnchanged.names },
                ExpressionAttributeValues: { ...keyUpdate.placeholders, ...keyUnchanged.placeholders },
              },
            },
            ...shardWrites,
            ...(succession ? [activeKeyMove(deps, app.applicationId, environment, keyHash, succession), applicationUnchanged(deps, app)] : []),
          ],
        }),
      );
      break;
    } catch (err) {
      // The activeKeyOf row moved on (or another create holds it in a transaction right now): the
      // caller follows it rather than retry here with what it read.
      const moveReason = isTransactionCanceled(err) ? err.CancellationReasons?.[1 + shardWrites.length]?.Code : undefined;
      if (succession && (moveReason === 'ConditionalCheckFailed' || moveReason === 'TransactionConflict')) throw new ActiveKeyMoved();
      const applicationReason = isTransactionCanceled(err) ? err.CancellationReasons?.[2 + shardWrites.length]?.Code : undefined;
      if (succession && applicationReason === 'ConditionalCheckFailed') throw new ApplicationChangedError(app.applicationId);
      // Something wrote the key's rows since they were read (traffic, another provisioning, a revocation): again.
      if (!isTransactionCanceled(err) || attempt >= PROVISIONING_TRIES) throw err;
    }
  }
  return true;
}

/** Moves the `activeKeyOf` row on to `keyHash`, only from the key (and activation count) it was read with. */
function activeKeyMove(deps: Deps, applicationId: string, environment: Environment, keyHash: string, succession: { after: ActiveKey | null; activation: number }) {
  return {
    Update: {
      TableName: deps.config.tableName,
      Key: keys.activeKeyOf(applicationId, environment),
      UpdateExpression: 'SET key_hash = :key, activation = :activation',
      ConditionExpression: succession.after ? 'activation = :before' : 'attribute_not_exists(pk)',
      ExpressionAttributeValues: { ':key': keyHash, ':activation': succession.activation, ...(succession.after ? { ':before': succession.after.activation } : {}) },
    },
  };
}

/** Revokes the ApiKey row and every shard of the key in one transaction: no shard admits after it. */
async function markRevoked(deps: Deps, keyHash: string): Promise<boolean> {
  const revokedAt = new Date(deps.clock.now()).toISOString();
  for (let attempt = 1; ; attempt += 1) {
    const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.apiKey(keyHash), ConsistentRead: true }));
    // A key never issued (an activeKeyOf row naming a key whose issue did not complete) has nothing
    // to revoke, and a revoked key keeps the time it was revoked.
    if (!res.Item || res.Item.status !== 'active') return false;
    const shards = Number(res.Item.shards ?? 1);
    // Still active, with the shard count read: a revocation that lands first makes this one false.
    const unchanged = unchangedSince(res.Item, ['shards', 'status']);
    const revoke = (shard: number) => ({
      Update: {
        TableName: deps.config.tableName,
        Key: keys.meteringShard(keyHash, shard),
        UpdateExpression: 'SET #status = :revoked, revoked_at = :at',
        ConditionExpression: `attribute_exists(pk)${shard === 0 ? ` AND ${unchanged.condition}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status', ...(shard === 0 ? unchanged.names : {}) },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':at': revokedAt, ...(shard === 0 ? unchanged.placeholders : {}) },
      },
    });
    try {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: Array.from({ length: shards }, (_, shard) => revoke(shard)) }));
      return true;
    } catch (err) {
      // The key's shard count or status changed since it was read: again (a revoked key answers false).
      if (!isTransactionCanceled(err) || attempt >= PROVISIONING_TRIES) throw err;
    }
  }
}

export async function revokeKey(deps: Deps, apiKey: string): Promise<void> {
  await markRevoked(deps, sha256Hex(apiKey));
}

/**
 * Revokes a key known by its hash (the console lists keys, it never holds one). True when this call
 * revoked it; false when it was revoked already, or never issued.
 */
export async function revokeKeyByHash(deps: Deps, keyHash: string): Promise<boolean> {
  return markRevoked(deps, keyHash);
}

/** One metering row's counts this month: units it admitted, and (shards 1..N-1) units it was lent. */
export interface ShardUsage {
  shard: number;
  status: MeterRow['status'];
  api: { used: number; allotted: number };
  ai: { used: number; allotted: number };
}

/** Every metering row of a key this month, for tests, dashboards and the bench. */
export async function usageByShard(deps: Deps, apiKey: string, at: Date): Promise<ShardUsage[]> {
  return usageByShardOfHash(deps, sha256Hex(apiKey), at);
}

async function usageByShardOfHash(deps: Deps, keyHash: string, at: Date): Promise<ShardUsage[]> {
  const rows = await readMeterRows(deps, keyHash);
  const counts = (row: MeterRow, kind: Kind) => ({
    used: Number(row[usageAttribute(kind, at)] ?? 0),
    allotted: Number(row[allotmentAttribute(kind, at)] ?? 0),
  });
  return rows.flatMap((row, shard) => (row ? [{ shard, status: row.status, api: counts(row, 'api'), ai: counts(row, 'ai') }] : []));
}

/**
 * Requests of one key admitted this month (for tests, dashboards and the bench): the ApiKey row's
 * count, less what it lent to other shards and they have not used yet.
 */
export async function monthlyUsage(deps: Deps, apiKey: string, at: Date): Promise<{ api: number; ai: number }> {
  return monthlyUsageByHash(deps, sha256Hex(apiKey), at);
}

/** monthlyUsage of a key known by its hash (the console sums an application's keys; it never holds one). */
export async function monthlyUsageByHash(deps: Deps, keyHash: string, at: Date): Promise<{ api: number; ai: number }> {
  const shards = await usageByShardOfHash(deps, keyHash, at);
  const admittedOf = (kind: Kind) => shards.reduce((sum, s) => sum + s[kind].used - s[kind].allotted, 0);
  return { api: admittedOf('api'), ai: admittedOf('ai') };
}
