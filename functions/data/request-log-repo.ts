// The console's request log and usage figures: one row per API request (what was asked, how it
// ended, how long it took; never bodies, tokens, keys or query strings), kept 35 days; the finished
// days' request counts; and the month's usage notices.
//
// A request's entry lives in the partition of its application, environment, UTC day and shard
// (REQLOG#<app>#<env>#<day>#<shard>, sort key `<at>#<request_id>`): four shards per day keep an
// enterprise key's full burst (3,000 requests a second) at about 750 writes a second per partition,
// under DynamoDB's 1,000. A lookup row REQID#<request_id> says where the entry is, so the request id
// of an error envelope finds its entry in two reads. Both rows go in one BatchWriteItem.
//
// A day is read newest first by merging its four shards' Queries (each already newest first) into
// one time-ordered stream: a page is in time order whatever shard its rows came from.
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '../platform/aws/dynamodb';
import { REQUEST_ID_PATTERN } from '../contracts/console-schemas';
import { ERRORS } from '../contracts/errors';
import type { Route } from '../contracts/routes';
import type { Environment } from '../contracts/schemas';
import { displayOfKey, isWellFormedApiKey } from '../core/api-keys';
import { shardOf } from '../core/shards';
import type { Deps } from '../platform/runtime';
import type { Row } from './dynamo';
import { keys, TABLE } from './keys';

/** One application's environment: whose requests, usage and notices. */
export interface ApplicationScope {
  applicationId: string;
  environment: Environment;
}

export const REQUEST_LOG_RETENTION_DAYS = 35;
export const REQUEST_LOG_SHARDS = 4;
/** How long a usage notice is kept: the console shows the current and past months' notices. */
const USAGE_NOTICE_RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;

export { REQUEST_ID_PATTERN };
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const ITEM_ID_PATTERN = /^item_[A-Za-z0-9]{1,64}$/;
const ROUTE_ID_PATTERN = /^[a-z0-9_.-]{1,64}$/;
/** What a key may be shown as: its prefix, an ellipsis and its last four characters. */
const KEY_DISPLAY_PATTERN = /^fc_sk_(test|live)_…[A-Za-z0-9]{4}$/;

/** The shard of a request's entry: stable for its id, spread evenly. */
export function requestLogShardOf(requestId: string): number {
  return shardOf(requestId, REQUEST_LOG_SHARDS);
}

/** The UTC day (YYYY-MM-DD) of an ISO timestamp. */
export const dayOf = (iso: string) => iso.slice(0, 10);

// ---------- the entry ----------

/** Every field an entry has, and the only ones stored or shown. */
export const REQUEST_LOG_FIELDS = [
  'application_id',
  'environment',
  'route',
  'method',
  'path',
  'status',
  'latency_ms',
  'request_id',
  'key_display',
  'error_code',
  'item_id',
  'at',
] as const;

export interface RequestLogEntry {
  application_id: string;
  environment: Environment;
  /** The route id, e.g. `transactions.sync`. */
  route: string;
  method: 'GET' | 'POST';
  /** The route's path template, never the path as requested. */
  path: string;
  status: number;
  latency_ms: number;
  request_id: string;
  /** `fc_sk_test_…abcd`; null when no key was shown. */
  key_display: string | null;
  /** A code of the error catalogue, or null. */
  error_code: string | null;
  item_id: string | null;
  /** ISO 8601, UTC, milliseconds. */
  at: string;
}

/** What the middleware knows of a finished request. Anything else it passes along is ignored. */
export interface RequestFacts {
  route: Pick<Route, 'id' | 'method' | 'path'>;
  status: number;
  latencyMs: number;
  requestId: string;
  /**
   * Whose request it was; null when no key authenticated it (nothing to file it under). `keyDisplay`
   * may be the key itself or its display form: only the prefix and last four characters are kept.
   */
  auth: { applicationId: string; environment: Environment; keyDisplay?: string | null } | null;
  errorCode?: string | null;
  itemId?: string | null;
  /** When the request arrived (Unix ms). */
  at: number;
}

function keyDisplayOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (KEY_DISPLAY_PATTERN.test(value)) return value;
  return isWellFormedApiKey(value) ? displayOfKey(value).display : null;
}

const errorCodeOf = (value: unknown): string | null => (typeof value === 'string' && Object.hasOwn(ERRORS, value) ? value : null);

/** A path template without anything after it (a query string or fragment never belongs in the log). */
const templateOf = (path: unknown): string | null => {
  if (typeof path !== 'string' || !path.startsWith('/')) return null;
  return path.split(/[?#]/, 1)[0].slice(0, 200);
};

/**
 * The entry of a finished request, built field by field from an allow-list: each field is taken
 * from where it is expected and checked for its shape, so a body, a header, an access token or a
 * key that reaches this function anyway never reaches the log. Null when the request cannot be
 * filed (no application authenticated it, or its ids are malformed).
 */
export function requestLogEntryOf(facts: RequestFacts): RequestLogEntry | null {
  const { auth, route } = facts;
  if (!auth || typeof auth.applicationId !== 'string' || !ID_PATTERN.test(auth.applicationId)) return null;
  if (auth.environment !== 'test' && auth.environment !== 'live') return null;
  if (typeof facts.requestId !== 'string' || !REQUEST_ID_PATTERN.test(facts.requestId)) return null;
  if (typeof route?.id !== 'string' || !ROUTE_ID_PATTERN.test(route.id)) return null;
  const path = templateOf(route.path);
  const at = new Date(facts.at);
  if (path === null || !Number.isFinite(at.getTime())) return null;
  const status = Number.isInteger(facts.status) && facts.status >= 100 && facts.status <= 599 ? facts.status : 0;
  const latency = Number.isFinite(facts.latencyMs) ? Math.max(0, Math.round(facts.latencyMs)) : 0;
  return {
    application_id: auth.applicationId,
    environment: auth.environment,
    route: route.id,
    method: route.method === 'GET' ? 'GET' : 'POST',
    path,
    status,
    latency_ms: latency,
    request_id: facts.requestId,
    key_display: keyDisplayOf(auth.keyDisplay),
    error_code: errorCodeOf(facts.errorCode),
    item_id: typeof facts.itemId === 'string' && ITEM_ID_PATTERN.test(facts.itemId) ? facts.itemId : null,
    at: at.toISOString(),
  };
}

/** The entry's own fields of a stored row (never its keys or TTL). */
function entryFromRow(row: Row): RequestLogEntry {
  const entry: Record<string, unknown> = {};
  for (const field of REQUEST_LOG_FIELDS) entry[field] = row[field] ?? null;
  return entry as unknown as RequestLogEntry;
}

// ---------- recording ----------

const RECORD_TRIES = 3;

export interface RecordOutcome {
  recorded: boolean;
  /** Why an entry that should have been recorded was not (the caller logs it); absent when there was nothing to record. */
  error?: string;
}

/**
 * Writes a request's entry and its lookup row in one BatchWriteItem, asking again (a bounded number
 * of times) for what DynamoDB leaves unprocessed. Never throws: a request must not fail because its
 * log entry could not be written, so a failure is returned for the caller to log.
 */
export async function recordRequest(deps: Deps, entry: RequestLogEntry | null): Promise<RecordOutcome> {
  if (!entry) return { recorded: false };
  try {
    const table = deps.config.tableName;
    const day = dayOf(entry.at);
    const shard = requestLogShardOf(entry.request_id);
    const expiresAt = Math.floor(Date.parse(entry.at) / 1000) + REQUEST_LOG_RETENTION_DAYS * 86_400;
    const stored: Record<string, unknown> = {};
    for (const field of REQUEST_LOG_FIELDS) stored[field] = entry[field];
    let pending: NonNullable<ConstructorParameters<typeof BatchWriteCommand>[0]['RequestItems']>[string] = [
      {
        PutRequest: {
          Item: { ...keys.requestLogEntry(entry.application_id, entry.environment, day, shard, entry.at, entry.request_id), ...stored, expires_at: expiresAt },
        },
      },
      {
        PutRequest: {
          Item: {
            ...keys.requestIdLookup(entry.request_id),
            application_id: entry.application_id,
            environment: entry.environment,
            day,
            shard,
            at: entry.at,
            expires_at: expiresAt,
          },
        },
      },
    ];
    for (let attempt = 1; ; attempt += 1) {
      const res = await deps.ddb.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = res.UnprocessedItems?.[table] ?? [];
      if (pending.length === 0) return { recorded: true };
      if (attempt >= RECORD_TRIES) return { recorded: false, error: `${pending.length} of 2 request log writes left unprocessed after ${RECORD_TRIES} tries` };
      // Short: the request waits for this (a Lambda cannot write after it answers).
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
    }
  } catch (err) {
    return { recorded: false, error: (err as Error).message };
  }
}

// ---------- reading ----------

/** A request's entry by its id, only if it belongs to this application and environment. */
export async function requestEntryById(deps: Deps, scope: ApplicationScope, requestId: string): Promise<RequestLogEntry | undefined> {
  if (!REQUEST_ID_PATTERN.test(requestId)) return undefined;
  const table = deps.config.tableName;
  // Strongly consistent: the request id of an answer just received finds its entry.
  const lookup = await deps.ddb.send(new GetCommand({ TableName: table, Key: keys.requestIdLookup(requestId), ConsistentRead: true }));
  const where = lookup.Item;
  if (!where || where.application_id !== scope.applicationId || where.environment !== scope.environment) return undefined;
  const res = await deps.ddb.send(
    new GetCommand({
      TableName: table,
      Key: keys.requestLogEntry(scope.applicationId, scope.environment, String(where.day), Number(where.shard), String(where.at), requestId),
      ConsistentRead: true,
    }),
  );
  if (!res.Item || res.Item.application_id !== scope.applicationId || res.Item.environment !== scope.environment) return undefined;
  // Past its retention, an entry is gone, whenever the TTL gets to delete it.
  if (typeof res.Item.expires_at === 'number' && res.Item.expires_at * 1000 <= deps.clock.now()) return undefined;
  return entryFromRow(res.Item);
}

/** An exact status, or a range of them (`4xx` is 400 to 499). */
export type StatusFilter = { exact: number } | { from: number; to: number };

/**
 * Where a day's reading stands in one shard: null, from its newest entry; a sort key, after that
 * entry (the last one returned); false, nothing left.
 */
export type ShardPosition = string | null | false;

/** Where a search resumes: a day, and each of its shards' positions. */
export interface LogPosition {
  day: string;
  shards: ShardPosition[];
}

export interface LogQuery {
  /** ISO timestamps, inclusive; the days searched are from's to to's. */
  from: string;
  to: string;
  route?: string;
  status?: StatusFilter;
  limit: number;
  /** Where the previous page stopped; absent for the first page. */
  resume?: LogPosition;
}

export const fromTheTop = (): ShardPosition[] => Array.from({ length: REQUEST_LOG_SHARDS }, () => null);

/** The UTC days from `fromDay` to `toDay` (YYYY-MM-DD), newest first. */
export function daysNewestFirst(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${toDay}T00:00:00.000Z`); t >= Date.parse(`${fromDay}T00:00:00.000Z`); t -= DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

function filterOf(q: Pick<LogQuery, 'route' | 'status'>): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (q.route !== undefined) {
    clauses.push('#route = :route');
    names['#route'] = 'route';
    values[':route'] = q.route;
  }
  if (q.status !== undefined) {
    names['#status'] = 'status';
    if ('exact' in q.status) {
      clauses.push('#status = :status');
      values[':status'] = q.status.exact;
    } else {
      clauses.push('#status BETWEEN :statusFrom AND :statusTo');
      values[':statusFrom'] = q.status.from;
      values[':statusTo'] = q.status.to;
    }
  }
  return clauses.length === 0 ? {} : { FilterExpression: clauses.join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** One shard's entries of a day, newest first, read a chunk at a time as the merge needs them. */
class ShardReader {
  private readonly buffer: Row[] = [];
  private startKey: Record<string, unknown> | undefined;
  /** Nothing left to read from the table (the buffer may still hold rows). */
  private drained: boolean;
  private position: ShardPosition;

  constructor(
    private readonly deps: Deps,
    private readonly pk: string,
    private readonly bounds: { lo: string; hi: string },
    private readonly filter: ReturnType<typeof filterOf>,
    start: ShardPosition,
  ) {
    this.position = start;
    // A position below the range (retention moved its start on since the page before) has nothing after it.
    this.drained = start === false || (typeof start === 'string' && start < bounds.lo);
    if (typeof start === 'string') this.startKey = { pk, sk: start };
  }

  /** Reads until the buffer holds a row or the shard has none left. */
  async fill(chunk: number): Promise<void> {
    while (this.buffer.length === 0 && !this.drained) {
      const res: QueryCommandOutput = await this.deps.ddb.send(
        new QueryCommand({
          TableName: this.deps.config.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
          ...this.filter,
          ExpressionAttributeValues: { ...this.filter.ExpressionAttributeValues, ':pk': this.pk, ':lo': this.bounds.lo, ':hi': this.bounds.hi },
          ScanIndexForward: false,
          ExclusiveStartKey: this.startKey,
          Limit: chunk,
        }),
      );
      this.buffer.push(...(res.Items ?? []));
      this.startKey = res.LastEvaluatedKey;
      this.drained = res.LastEvaluatedKey === undefined;
    }
  }

  peek(): Row | undefined {
    return this.buffer[0];
  }

  take(): Row {
    const row = this.buffer.shift() as Row;
    this.position = String(row.sk);
    return row;
  }

  needsFill(): boolean {
    return this.buffer.length === 0 && !this.drained;
  }

  /** Where the next page resumes in this shard. */
  resumeAt(): ShardPosition {
    return this.buffer.length === 0 && this.drained ? false : this.position;
  }
}

/** The most rows a search reads per Query of one shard (what a filtered search reads each time). */
const MAX_ROWS_PER_READ = 100;

/**
 * One page of the log, newest first: per day, the four shards merged by time. Reads each shard a
 * chunk at a time, about its share of the page, so a page reads little more than its own rows.
 */
export async function readRequestLog(deps: Deps, scope: ApplicationScope, q: LogQuery): Promise<{ entries: RequestLogEntry[]; next: LogPosition | null }> {
  // Entries past their retention are gone, whenever the TTL gets to delete them.
  const oldest = new Date(deps.clock.now() - REQUEST_LOG_RETENTION_DAYS * DAY_MS).toISOString();
  const from = q.from > oldest ? q.from : oldest;
  if (from > q.to) return { entries: [], next: null };
  const days = daysNewestFirst(dayOf(from), dayOf(q.to));
  const bounds = { lo: from, hi: `${q.to}#\uffff` };
  const filter = filterOf(q);
  const entries: RequestLogEntry[] = [];
  let dayIndex = q.resume ? days.indexOf(q.resume.day) : 0;
  // The day a search stopped at has passed out of retention since: nothing is left of it, or after it.
  if (dayIndex < 0) return { entries: [], next: null };
  let positions = q.resume?.shards ?? fromTheTop();
  while (dayIndex < days.length) {
    const day = days[dayIndex];
    const readers = positions.map(
      (start, shard) => new ShardReader(deps, keys.requestLogPartition(scope.applicationId, scope.environment, day, shard).pk, bounds, filter, start),
    );
    // Unfiltered, a shard gives about its share of the page. Filtered, how many rows a page needs is
    // unknown: larger reads cost fewer calls, and fewer round-ups to DynamoDB's 4 KB read unit.
    const chunk = () => (filter.FilterExpression ? MAX_ROWS_PER_READ : Math.min(MAX_ROWS_PER_READ, Math.ceil((q.limit - entries.length) / REQUEST_LOG_SHARDS) + 2));
    await Promise.all(readers.map((r) => r.fill(chunk())));
    while (entries.length < q.limit) {
      let newest: ShardReader | undefined;
      for (const reader of readers) {
        const head = reader.peek();
        if (head && (!newest || String(head.sk) > String(newest.peek()?.sk))) newest = reader;
      }
      if (!newest) break;
      entries.push(entryFromRow(newest.take()));
      if (entries.length < q.limit && newest.needsFill()) await newest.fill(chunk());
    }
    positions = readers.map((r) => r.resumeAt());
    const dayDone = positions.every((p) => p === false);
    if (!dayDone) return { entries, next: { day, shards: positions } };
    dayIndex += 1;
    positions = fromTheTop();
    if (entries.length >= q.limit) break;
  }
  return { entries, next: dayIndex < days.length ? { day: days[dayIndex], shards: fromTheTop() } : null };
}

// ---------- usage: request counts per day ----------

export interface DayCounts {
  api: number;
  ai: number;
}

/**
 * A day's requests, counted per shard with Select COUNT (nothing is returned but the counts): the
 * rows whose route is one of `aiRoutes` are AI requests (the filter's Count), all others API
 * requests (ScannedCount is every row read, before the filter).
 */
export async function countRequestsOfDay(deps: Deps, scope: ApplicationScope, day: string, aiRoutes: readonly string[]): Promise<DayCounts> {
  // DynamoDB's IN takes at most 100 operands; the route table has a handful of AI routes.
  if (aiRoutes.length > 100) throw new Error('too many AI routes for one IN filter');
  const aiFilter =
    aiRoutes.length === 0
      ? undefined
      : {
          FilterExpression: `#route IN (${aiRoutes.map((_, i) => `:ai${i}`).join(', ')})`,
          ExpressionAttributeNames: { '#route': 'route' },
          values: Object.fromEntries(aiRoutes.map((route, i) => [`:ai${i}`, route])),
        };
  const perShard = await Promise.all(
    Array.from({ length: REQUEST_LOG_SHARDS }, async (_, shard) => {
      const { pk } = keys.requestLogPartition(scope.applicationId, scope.environment, day, shard);
      const counts: DayCounts = { api: 0, ai: 0 };
      let start: Record<string, unknown> | undefined;
      do {
        const res: QueryCommandOutput = await deps.ddb.send(
          new QueryCommand({
            TableName: deps.config.tableName,
            KeyConditionExpression: 'pk = :pk',
            ...(aiFilter ? { FilterExpression: aiFilter.FilterExpression, ExpressionAttributeNames: aiFilter.ExpressionAttributeNames } : {}),
            ExpressionAttributeValues: { ':pk': pk, ...aiFilter?.values },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        const ai = aiFilter ? (res.Count ?? 0) : 0;
        counts.ai += ai;
        counts.api += (res.ScannedCount ?? 0) - ai;
        start = res.LastEvaluatedKey;
      } while (start);
      return counts;
    }),
  );
  return perShard.reduce((sum, c) => ({ api: sum.api + c.api, ai: sum.ai + c.ai }), { api: 0, ai: 0 });
}

/** The cached counts of finished days from `fromDay` to `toDay`, by day. */
export async function cachedUsageDays(deps: Deps, scope: ApplicationScope, fromDay: string, toDay: string): Promise<Map<string, DayCounts>> {
  const { pk } = keys.usageDaysOf(scope.applicationId, scope.environment);
  const found = new Map<string, DayCounts>();
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': fromDay, ':to': toDay },
        ExclusiveStartKey: start,
      }),
    );
    for (const row of res.Items ?? []) found.set(String(row.sk), { api: Number(row.api ?? 0), ai: Number(row.ai ?? 0) });
    start = res.LastEvaluatedKey;
  } while (start);
  return found;
}

/** Keeps a finished day's counts: they no longer change, so they are counted once. */
export async function cacheUsageDay(deps: Deps, scope: ApplicationScope, day: string, counts: DayCounts): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.usageDay(scope.applicationId, scope.environment, day),
        application_id: scope.applicationId,
        environment: scope.environment,
        api: counts.api,
        ai: counts.ai,
        counted_at: new Date(deps.clock.now()).toISOString(),
      },
    }),
  );
}

// ---------- usage: connected users, notices ----------

/** Items of the application's environment, counted on the index: their listing rows (removed with the item row, in one transaction), or the item rows of items listed before those existed. */
export async function countConnectedItems(deps: Deps, scope: ApplicationScope): Promise<number> {
  const { gsi1pk } = keys.itemsOfApplication(scope.applicationId, scope.environment);
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        IndexName: TABLE.globalIndexes[0].indexName,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return count;
}

export interface UsageNotice {
  quota: 'api' | 'ai';
  thresholdPercent: number;
  used: number;
  limit: number;
  eventId: string;
  /** Unix ms. */
  at: number;
}

/** The YYYY-MM of a Unix ms time (UTC). */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/**
 * Indexes a usage.limit_approaching event under its month, so the console finds the month's
 * notices in one Query. At most one per quota and threshold a month (the meter fires each once).
 */
export async function recordUsageNotice(deps: Deps, scope: ApplicationScope, notice: UsageNotice): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.usageNotice(scope.applicationId, scope.environment, monthOf(notice.at), notice.quota, notice.thresholdPercent),
        application_id: scope.applicationId,
        environment: scope.environment,
        quota: notice.quota,
        threshold_percent: notice.thresholdPercent,
        used: notice.used,
        limit: notice.limit,
        event_id: notice.eventId,
        at: new Date(notice.at).toISOString(),
        expires_at: Math.floor(notice.at / 1000) + USAGE_NOTICE_RETENTION_DAYS * 86_400,
      },
    }),
  );
}

/** The month's (YYYY-MM) usage notices, oldest first. */
export async function usageNoticesOf(deps: Deps, scope: ApplicationScope, month: string) {
  const k = keys.usageNoticesOf(scope.applicationId, scope.environment, month);
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :month)',
      ExpressionAttributeValues: { ':pk': k.pk, ':month': k.skPrefix },
    }),
  );
  return (res.Items ?? [])
    .map((row) => ({
      quota: row.quota as 'api' | 'ai',
      threshold_percent: Number(row.threshold_percent),
      used: Number(row.used),
      limit: Number(row.limit),
      event_id: String(row.event_id),
      at: String(row.at),
    }))
    .sort((a, b) => a.at.localeCompare(b.at));
}
