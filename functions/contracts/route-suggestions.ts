// "Did you mean ...?" for a path no route answers: the closest routes by method and path, and the
// usual mistakes named as what they are: a path without `/v1`, Plaid's path sent to our base URL (our
// equivalent, and the same endpoint on the Plaid-compatible API under /plaid), a typo in a segment
// (`/v1/link/token/exchnge`), a segment too many or too few, a dash for an underscore, the wrong case.
//
// Pure and table-free: callers pass the routes they can name (the fallback: the whole route table;
// the Plaid surface: its own endpoints), so a bundle that calls it carries no more of the table than
// it already does.
import { editDistance } from './field-errors';

export interface KnownRoute {
  method: string;
  path: string;
  /** The route's id, for Plaid's paths that name it (PLAID_ENDPOINT_EQUIVALENT). */
  id?: string;
}

export interface RouteSuggestion {
  method: string;
  path: string;
  /** Why it is suggested: a close path, our equivalent of a Plaid path, or that Plaid path on the Plaid-compatible API. */
  reason: 'close' | 'plaid_equivalent' | 'plaid_surface';
}

export interface PlaidPaths {
  /** Where the Plaid-compatible API is served (`/plaid`). */
  prefix: string;
  /** Each Plaid endpoint served, with the id of our route that is its equivalent, or null (PLAID_ENDPOINT_EQUIVALENT). */
  endpoints: Readonly<Record<string, string | null>>;
}

/** The most routes one answer suggests. */
const MAX_SUGGESTIONS = 3;
/** Longer paths are never compared (the longest route path is under 60 characters). */
const MAX_COMPARED_PATH_LENGTH = 200;
/** A suggestion scoring this much worse than the best one is left out. */
const SCORE_SPREAD = 0.34;

const normalise = (segment: string) => segment.toLowerCase().replace(/-/g, '_');
const segmentsOf = (path: string) =>
  path
    .split('/')
    .filter((s) => s !== '')
    .map(normalise);

/** `/v1/transactions/sync/` -> `/v1/transactions/sync` (a lone `/` stays). */
const withoutTrailingSlash = (path: string) => path.replace(/\/+$/, '') || '/';

/**
 * How far apart two paths are, segment by segment: a segment added or dropped costs 1, a segment
 * replaced costs its share of letters changed (`exchnge` for `exchange`: 1/8) while that share is
 * under half, and 1 beyond (`auth` is no typo of `accounts`): a typo weighs little, a different
 * word as much as a missing one.
 */
export function pathDistance(a: string, b: string): number {
  const x = segmentsOf(a);
  const y = segmentsOf(b);
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const share = x[i - 1] === y[j - 1] ? 0 : editDistance(x[i - 1], y[j - 1]) / Math.max(x[i - 1].length, y[j - 1].length);
      const replace = share < 0.5 ? share : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + replace);
    }
  }
  return d[x.length][y.length];
}

/** Close enough to be a slip: at most one segment's worth of change, and well under a third of the candidate's segments. */
function isClose(score: number, candidate: string): boolean {
  return score <= 1 && score < segmentsOf(candidate).length / 3;
}

/** The candidates closest to `path` (best first, at most three), when any is close enough to be a slip. */
export function closestPaths(path: string, candidates: readonly string[]): string[] {
  const scored = candidates.map((candidate) => ({ candidate, score: pathDistance(path, candidate) })).filter((s) => isClose(s.score, s.candidate));
  scored.sort((a, b) => a.score - b.score);
  const best = scored[0]?.score;
  return scored
    .filter((s) => s.score <= best + SCORE_SPREAD)
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.candidate);
}

function plaidEndpointAt(path: string, plaid: PlaidPaths): string | undefined {
  // Plaid's paths are sent both bare and, by someone used to ours, below /v1.
  const bare = withoutTrailingSlash(path.replace(/^\/v1(?=\/)/i, '')).toLowerCase();
  return Object.keys(plaid.endpoints).find((endpoint) => endpoint === bare);
}

/**
 * The routes a request for an unknown `method path` most likely meant, best first. `known` lists the
 * routes to suggest from (greedy paths such as `/plaid/{proxy+}` are left out); `aliasPrefix` is
 * taken off a path first (`/api/v1/...` is `/v1/...`).
 */
export function suggestRoutes(request: { method: string; path: string }, known: readonly KnownRoute[], plaid: PlaidPaths, aliasPrefix = '/api'): RouteSuggestion[] {
  // No route's path is this long: nothing to suggest, and the comparison's cost grows with it.
  if (request.path.length > MAX_COMPARED_PATH_LENGTH) return [];
  let path = withoutTrailingSlash(request.path);
  if (path.toLowerCase().startsWith(`${aliasPrefix}/`)) path = path.slice(aliasPrefix.length);
  const concrete = known.filter((r) => !r.path.includes('{'));
  const sameMethodFirst = (routes: KnownRoute[]) => [...routes].sort((a, b) => Number(a.method !== request.method) - Number(b.method !== request.method));
  const exactly = (p: string) => concrete.filter((r) => segmentsOf(p).join('/') === segmentsOf(r.path).join('/'));

  // Our own path but for case or dashes (`/V1/Accounts/Get`) is that, even where Plaid has the same words.
  const ours = exactly(path);
  if (ours.length > 0) return sameMethodFirst(ours).slice(0, MAX_SUGGESTIONS).map((r) => ({ method: r.method, path: r.path, reason: 'close' }));

  // Plaid's own path at our base: our equivalent, and where the Plaid-compatible API serves it; the
  // Plaid-compatible API's path under /v1 (`/v1/plaid/accounts/get`): that path first.
  const plaidBelowV1 = path.toLowerCase().startsWith(`/v1${plaid.prefix.toLowerCase()}/`);
  const endpoint = plaidEndpointAt(plaidBelowV1 ? path.slice(`/v1${plaid.prefix}`.length) : path, plaid);
  if (endpoint) {
    const equivalentId = plaid.endpoints[endpoint];
    const equivalent = equivalentId === null ? undefined : concrete.find((r) => r.id === equivalentId);
    const ownEquivalent = equivalent ? [{ method: equivalent.method, path: equivalent.path, reason: 'plaid_equivalent' as const }] : [];
    const surface = { method: 'POST', path: `${plaid.prefix}${endpoint}`, reason: 'plaid_surface' as const };
    return plaidBelowV1 ? [surface, ...ownEquivalent] : [...ownEquivalent, surface];
  }

  // Our path without its /v1, or with another version (`/v2/transactions/sync`): exactly that, nothing fuzzier.
  const otherVersion = /^\/v\d+(\/.*)$/i.exec(path);
  const exact = exactly(otherVersion ? `/v1${otherVersion[1]}` : `/v1${path}`);
  if (exact.length > 0) return sameMethodFirst(exact).slice(0, MAX_SUGGESTIONS).map((r) => ({ method: r.method, path: r.path, reason: 'close' }));

  // A resource without its action (`/v1/identity`): the routes one segment below it, when there are few.
  const resource = otherVersion || path.toLowerCase().startsWith('/v1/') ? segmentsOf(path).slice(1) : segmentsOf(path);
  const below = resource.length > 0 ? concrete.filter((r) => {
    const segments = segmentsOf(r.path);
    return segments[0] === 'v1' && segments.length === resource.length + 2 && resource.every((segment, i) => segments[i + 1] === segment);
  }) : [];
  if (below.length > 0 && below.length <= MAX_SUGGESTIONS) return sameMethodFirst(below).map((r) => ({ method: r.method, path: r.path, reason: 'close' }));

  // Otherwise the closest paths; a path without /v1 is also compared as if it had it.
  const paths = [...new Set(concrete.map((r) => r.path))];
  const asSent = closestPaths(path, paths);
  const versioned = path.toLowerCase().startsWith('/v1/') ? [] : closestPaths(`/v1${path}`, paths);
  const chosen = [...new Set([...asSent, ...versioned])]
    .sort((a, b) => Math.min(pathDistance(path, a), pathDistance(`/v1${path}`, a)) - Math.min(pathDistance(path, b), pathDistance(`/v1${path}`, b)))
    .slice(0, MAX_SUGGESTIONS);
  return chosen.flatMap((p) => sameMethodFirst(concrete.filter((r) => r.path === p)).slice(0, 1)).map((r) => ({ method: r.method, path: r.path, reason: 'close' }));
}

/** Characters of an unknown path echoed in a message. */
export const ECHOED_PATH_LENGTH = 100;

/** The route_not_found message: what was asked for, and the suggestions as sentences. */
export function routeNotFoundMessage(request: { method: string; path: string }, suggestions: readonly RouteSuggestion[]): string {
  const asked = `${request.method} ${request.path.slice(0, ECHOED_PATH_LENGTH)}`;
  const plaidSurface = suggestions.find((s) => s.reason === 'plaid_surface');
  if (plaidSurface) {
    const equivalent = suggestions.find((s) => s.reason === 'plaid_equivalent');
    const ours = equivalent ? ` Fincore's own equivalent is ${equivalent.method} ${equivalent.path};` : '';
    return `No operation exists at ${asked}. That is a Plaid path:${ours} the Plaid-compatible API serves it at ${plaidSurface.method} ${plaidSurface.path}.`;
  }
  if (suggestions.length === 0) return `No operation exists at ${asked}.`;
  const named = suggestions.map((s) => `${s.method} ${s.path}`);
  const options = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
  return `No operation exists at ${asked}. Did you mean ${options}?`;
}
