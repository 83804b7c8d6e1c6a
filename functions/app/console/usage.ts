// The console's usage page (console.usage.get): a month of API and AI usage against the plan's
// quotas and rate limit, per day, connected users against the plan's limit, and the month's
// 80 %/95 % notices. The caller has authorised the application and environment.
//
// Where each figure comes from:
// - used: the meter's own counts (every key of the environment, revoked ones too: they were used),
//   exactly what the quotas are enforced on;
// - daily: the request log, counted per day and shard with Select COUNT; a finished day's counts are
//   kept in a UsageDay row, so a month's page counts only today and days never counted before;
// - connected users: the environment's items, counted on their index;
// - notices: the usage.limit_approaching events of the month, from their monthly index.
import type * as z from 'zod';
import type { UsageFields } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { PLANS } from '../../contracts/limits';
import { AI_METERED_ROUTE_IDS } from '../../contracts/routes';
import { bucketFor } from '../../core/rate-limit';
import { getApplication, listKeys, monthlyUsageByHash } from '../../data/api-keys-repo';
import {
  cachedUsageDays,
  cacheUsageDay,
  countConnectedItems,
  countRequestsOfDay,
  daysNewestFirst,
  monthOf,
  REQUEST_LOG_RETENTION_DAYS,
  usageNoticesOf,
  type ApplicationScope,
  type DayCounts,
} from '../../data/request-log-repo';
import type { Deps } from '../../platform/runtime';

const DAY_MS = 86_400_000;
/**
 * How long after its end a day's counts are kept for good: a request's log entry is written when it
 * ends, so the last requests of a day may land a little after midnight.
 */
const SETTLE_MS = 5 * 60_000;
/** Days counted at once (each is four Queries). */
const DAYS_IN_FLIGHT = 4;

/** The routes metered against the AI quota: their requests are the AI share of a day's count. */
const AI_ROUTES: readonly string[] = AI_METERED_ROUTE_IDS;

export type UsageInput = z.output<typeof UsageFields>;

/** The month's counts per day; null for a day the log no longer holds and that was never counted. */
async function dailyCounts(deps: Deps, scope: ApplicationScope, days: string[]): Promise<Array<{ date: string } & { [K in keyof DayCounts]: number | null }>> {
  if (days.length === 0) return [];
  const now = deps.clock.now();
  const cached = await cachedUsageDays(deps, scope, days[days.length - 1], days[0]);
  const counted = new Map<string, DayCounts | null>();
  const toCount = days.filter((day) => !cached.has(day));
  for (let i = 0; i < toCount.length; i += DAYS_IN_FLIGHT) {
    await Promise.all(
      toCount.slice(i, i + DAYS_IN_FLIGHT).map(async (day) => {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        // Its entries expired (in part, at least): a count now would be wrong, so none is given.
        if (start < now - REQUEST_LOG_RETENTION_DAYS * DAY_MS) {
          counted.set(day, null);
          return;
        }
        const counts = await countRequestsOfDay(deps, scope, day, AI_ROUTES);
        if (start + DAY_MS + SETTLE_MS <= now) await cacheUsageDay(deps, scope, day, counts);
        counted.set(day, counts);
      }),
    );
  }
  return [...days].reverse().map((date) => {
    const counts = cached.get(date) ?? counted.get(date) ?? null;
    return { date, api: counts?.api ?? null, ai: counts?.ai ?? null };
  });
}

/** console.usage.get: the month (YYYY-MM, UTC; this month when absent) of one application's environment. */
export async function usageOf(deps: Deps, scope: ApplicationScope, input: UsageInput) {
  const now = deps.clock.now();
  const thisMonth = monthOf(now);
  const month = input.month ?? thisMonth;
  if (month > thisMonth) throw new ApiError('invalid_field', 'month is in the future.');
  const app = await getApplication(deps, scope.applicationId);
  // The caller authorised an application that exists; one that vanished since is not found.
  if (!app) throw new ApiError('application_not_found');
  const plan = PLANS[app.plan];
  const monthStart = Date.parse(`${month}-01T00:00:00.000Z`);
  const monthEnd = Date.UTC(new Date(monthStart).getUTCFullYear(), new Date(monthStart).getUTCMonth() + 1, 1);
  const lastDay = new Date(Math.min(now, monthEnd - 1)).toISOString().slice(0, 10);

  // Keys created after the month have nothing in it.
  const keys = (await listKeys(deps, scope.applicationId, scope.environment)).filter((k) => Date.parse(k.createdAt) < monthEnd);
  const [perKey, daily, connected, notices] = await Promise.all([
    Promise.all(keys.map((k) => monthlyUsageByHash(deps, k.keyHash, new Date(monthStart)))),
    dailyCounts(deps, scope, daysNewestFirst(`${month}-01`, lastDay)),
    countConnectedItems(deps, scope),
    usageNoticesOf(deps, scope, month),
  ]);
  const used = perKey.reduce((sum, u) => ({ api: sum.api + u.api, ai: sum.ai + u.ai }), { api: 0, ai: 0 });
  return {
    application_id: scope.applicationId,
    environment: scope.environment,
    month,
    plan: app.plan,
    quota: { api: plan.apiPerMonth, ai: plan.aiPerMonth },
    rate_limit_per_second: plan.ratePerSecond,
    burst: bucketFor(app.plan).burst,
    used,
    daily,
    connected_users: { count: connected, limit: plan.connectedUsers },
    notices,
  };
}
