// The console's request log search (console.requests.search): by request id (the one in an error
// envelope), or by time range newest first with optional route and status filters, a page at a
// time behind an opaque cursor. The caller has authorised the application and environment.
import * as z from 'zod';
import { STATUS_CLASSES, type RequestSearchFields } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { sha256Hex } from '../../core/api-keys';
import {
  dayOf,
  readRequestLog,
  REQUEST_LOG_SHARDS,
  requestEntryById,
  type ApplicationScope,
  type LogPosition,
  type RequestLogEntry,
  type StatusFilter,
} from '../../data/request-log-repo';
import type { Deps } from '../../platform/runtime';

/** The longest time range one search covers (the log keeps 35 days). */
export const MAX_SEARCH_DAYS = 31;
const SEARCH_PAGE_DEFAULT = 50;
/** A search without a range covers the last day. */
const DEFAULT_RANGE_MS = 86_400_000;
const DAY_MS = 86_400_000;

type StatusInput = number | (typeof STATUS_CLASSES)[number];

export type RequestSearchInput = z.output<typeof RequestSearchFields>;

export interface RequestSearchResult {
  requests: RequestLogEntry[];
  next_cursor: string | null;
}

function statusFilterOf(status: StatusInput): StatusFilter {
  if (typeof status === 'number') return { exact: status };
  const hundreds = Number(status[0]) * 100;
  return { from: hundreds, to: hundreds + 99 };
}

// ---------- the cursor ----------

/** What a cursor carries: the search it continues (so a next page is the same search) and where. */
const Cursor = z.strictObject({
  v: z.literal(1),
  /** Binds the cursor to one application and environment. */
  scope: z.string().length(16),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  route: z.string().nullable(),
  status: z.union([z.int(), z.enum(STATUS_CLASSES)]).nullable(),
  day: z.iso.date(),
  shards: z.array(z.union([z.string(), z.null(), z.literal(false)])).length(REQUEST_LOG_SHARDS),
});
type Cursor = z.output<typeof Cursor>;

const scopeTag = (scope: ApplicationScope) => sha256Hex(`${scope.applicationId}#${scope.environment}`).slice(0, 16);

const ENTRY_SORT_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#([A-Za-z0-9_-]{1,128})$/;

const badCursor = () => new ApiError('invalid_cursor', 'The cursor is not a next_cursor of this search. Search again without a cursor.');

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c), 'utf8').toString('base64url');
}

/** The cursor's search, checked whole: a cursor this search did not hand out is refused (400). */
function decodeCursor(raw: string, scope: ApplicationScope): Cursor {
  let parsed: ReturnType<typeof Cursor.safeParse>;
  try {
    parsed = Cursor.safeParse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    throw badCursor();
  }
  if (!parsed.success) throw badCursor();
  const c = parsed.data;
  const span = Date.parse(c.to) - Date.parse(c.from);
  if (c.scope !== scopeTag(scope) || span < 0 || span > MAX_SEARCH_DAYS * DAY_MS || c.day < dayOf(c.from) || c.day > dayOf(c.to)) throw badCursor();
  for (const position of c.shards) {
    if (typeof position !== 'string') continue;
    // A position is an entry of that day within the range: anything else could not have been returned.
    const m = ENTRY_SORT_KEY.exec(position);
    if (!m || dayOf(m[1]) !== c.day || m[1] < c.from || m[1] > c.to || new Date(m[1]).toISOString() !== m[1]) throw badCursor();
  }
  return c;
}

// ---------- the search ----------

/** The range searched: as given, or the last day; at most MAX_SEARCH_DAYS. */
function rangeOf(deps: Deps, input: RequestSearchInput): { from: string; to: string } {
  const to = input.to !== undefined ? Date.parse(input.to) : deps.clock.now();
  const from = input.from !== undefined ? Date.parse(input.from) : to - DEFAULT_RANGE_MS;
  if (from > to) throw new ApiError('invalid_date_range', 'from must not be after to.');
  if (to - from > MAX_SEARCH_DAYS * DAY_MS) throw new ApiError('invalid_date_range', `A search covers at most ${MAX_SEARCH_DAYS} days: narrow from and to.`);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

function matches(entry: RequestLogEntry, input: RequestSearchInput): boolean {
  if (input.route !== undefined && entry.route !== input.route) return false;
  if (input.status !== undefined) {
    const f = statusFilterOf(input.status);
    if ('exact' in f ? entry.status !== f.exact : entry.status < f.from || entry.status > f.to) return false;
  }
  if (input.from !== undefined && entry.at < new Date(input.from).toISOString()) return false;
  if (input.to !== undefined && entry.at > new Date(input.to).toISOString()) return false;
  return true;
}

/**
 * console.requests.search. By request id: that request's entry, if it is this application's and
 * environment's (any other answers as no entry). Otherwise a page of the range newest first; the
 * next page continues the same search (its range and filters travel in the cursor).
 */
export async function searchRequests(deps: Deps, scope: ApplicationScope, input: RequestSearchInput): Promise<RequestSearchResult> {
  if (input.request_id !== undefined) {
    if (input.cursor !== undefined) throw new ApiError('invalid_field', 'Search by request_id or page with a cursor, not both.');
    const entry = await requestEntryById(deps, scope, input.request_id);
    return { requests: entry && matches(entry, input) ? [entry] : [], next_cursor: null };
  }
  let search: Omit<Cursor, 'day' | 'shards'>;
  let resume: LogPosition | undefined;
  if (input.cursor !== undefined && input.cursor !== '') {
    const c = decodeCursor(input.cursor, scope);
    // A next page of another search would skip or repeat entries: what is given must be the cursor's.
    const given = { from: input.from && new Date(input.from).toISOString(), to: input.to && new Date(input.to).toISOString(), route: input.route, status: input.status };
    for (const [field, value] of Object.entries(given)) {
      if (value !== undefined && value !== c[field as keyof typeof given]) throw badCursor();
    }
    search = { v: 1, scope: c.scope, from: c.from, to: c.to, route: c.route, status: c.status };
    resume = { day: c.day, shards: c.shards };
  } else {
    search = { v: 1, scope: scopeTag(scope), ...rangeOf(deps, input), route: input.route ?? null, status: input.status ?? null };
  }
  const page = await readRequestLog(deps, scope, {
    from: search.from,
    to: search.to,
    ...(search.route === null ? {} : { route: search.route }),
    ...(search.status === null ? {} : { status: statusFilterOf(search.status) }),
    limit: input.limit ?? SEARCH_PAGE_DEFAULT,
    resume,
  });
  return { requests: page.entries, next_cursor: page.next ? encodeCursor({ ...search, day: page.next.day, shards: page.next.shards }) : null };
}
