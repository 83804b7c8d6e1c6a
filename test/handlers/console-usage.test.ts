// The console's usage page against DynamoDB Local: the month's metered usage summed over the
// environment's keys (revoked ones too), the plan's quotas and rate limit, per-day API and AI counts
// from the request log with finished days counted once and kept, connected users against the plan's
// limit, and the month's usage notices.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { usageOf } from '../../functions/app/console/usage';
import { ApiError } from '../../functions/contracts/errors';
import { generateApiKey } from '../../functions/core/api-keys';
import { authorizeAndMeter, issueKey, putApplication, type ApplicationRecord } from '../../functions/data/api-keys-repo';
import { removeItem } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import { recordRequest, recordUsageNotice, requestLogEntryOf, type ApplicationScope } from '../../functions/data/request-log-repo';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps } from '../support/embedded';

// The clock (test/support/embedded.ts) stands at 2026-11-21T12:00:00Z.
const APP: ApplicationRecord = { applicationId: 'app_usage', name: 'Usage', plan: 'free' };
const SCOPE: ApplicationScope = { applicationId: APP.applicationId, environment: 'test' };

let requestNumber = 0;
async function logRequest(deps: Deps, at: string, routeId: string, scope: ApplicationScope = SCOPE): Promise<void> {
  const entry = requestLogEntryOf({
    route: { id: routeId, method: 'POST', path: `/v1/${routeId.replace(/\./g, '/')}` },
    status: 200,
    latencyMs: 5,
    requestId: `req_u${++requestNumber}`,
    auth: scope,
    at: Date.parse(at),
  });
  expect(await recordRequest(deps, entry)).toEqual({ recorded: true });
}

async function usageDayRow(deps: Deps, day: string) {
  return (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.usageDay(SCOPE.applicationId, SCOPE.environment, day) }))).Item;
}

describe('the usage of a month', () => {
  it('sums the metered usage of every key of the environment, revoked keys included, against the plan', async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, APP);
    const first = generateApiKey('test');
    await issueKey(deps, APP, first);
    for (let i = 0; i < 3; i += 1) await authorizeAndMeter(deps, first, 'api');
    await authorizeAndMeter(deps, first, 'ai');
    // A new key revokes the first one: what the first one was used for still counts.
    const second = generateApiKey('test');
    await issueKey(deps, APP, second);
    for (let i = 0; i < 2; i += 1) await authorizeAndMeter(deps, second, 'api');
    for (let i = 0; i < 2; i += 1) await authorizeAndMeter(deps, second, 'ai');
    // Another application's key is not this one's usage.
    const otherApp = { ...APP, applicationId: 'app_usage_other' };
    await putApplication(deps, otherApp);
    const foreign = generateApiKey('test');
    await issueKey(deps, otherApp, foreign);
    await authorizeAndMeter(deps, foreign, 'api');

    const usage = await usageOf(deps, SCOPE, {});
    expect(usage).toMatchObject({
      application_id: 'app_usage',
      environment: 'test',
      month: '2026-11',
      plan: 'free',
      quota: { api: 10_000, ai: 1_000 },
      rate_limit_per_second: 10,
      burst: 30,
      used: { api: 5, ai: 3 },
      connected_users: { count: 0, limit: 100 },
      notices: [],
    });
    // October: nothing was used then.
    expect((await usageOf(deps, SCOPE, { month: '2026-10' })).used).toEqual({ api: 0, ai: 0 });
  });

  it('shows an unlimited plan as null quotas and limit', async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, { ...APP, plan: 'enterprise' });
    expect(await usageOf(deps, SCOPE, {})).toMatchObject({
      quota: { api: null, ai: null },
      rate_limit_per_second: 1000,
      burst: 3000,
      connected_users: { count: 0, limit: null },
    });
  });

  it('counts each day of the month from the request log, AI routes apart, and counts a finished day only once', async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, APP);
    for (const route of ['transactions.sync', 'accounts.get', 'items.refresh', 'ai.categorize', 'ai.cashflow']) await logRequest(deps, '2026-11-03T08:00:00.000Z', route);
    await logRequest(deps, '2026-11-20T23:59:59.999Z', 'transactions.sync');
    await logRequest(deps, '2026-11-21T00:00:00.000Z', 'transactions.sync');
    await logRequest(deps, '2026-11-21T11:00:00.000Z', 'ai.merchant');
    // Other environments' and applications' requests, and the month before, are not this month's.
    await logRequest(deps, '2026-11-03T09:00:00.000Z', 'transactions.sync', { ...SCOPE, environment: 'live' });
    await logRequest(deps, '2026-11-03T09:00:00.000Z', 'transactions.sync', { ...SCOPE, applicationId: 'app_usage_other' });
    await logRequest(deps, '2026-10-31T23:00:00.000Z', 'transactions.sync');

    const first = await usageOf(deps, SCOPE, {});
    expect(first.daily).toHaveLength(21);
    expect(first.daily[0]).toEqual({ date: '2026-11-01', api: 0, ai: 0 });
    expect(first.daily.find((d) => d.date === '2026-11-03')).toEqual({ date: '2026-11-03', api: 3, ai: 2 });
    expect(first.daily.find((d) => d.date === '2026-11-20')).toEqual({ date: '2026-11-20', api: 1, ai: 0 });
    expect(first.daily[20]).toEqual({ date: '2026-11-21', api: 1, ai: 1 });
    expect(first.daily.reduce((n, d) => n + (d.api ?? 0) + (d.ai ?? 0), 0)).toBe(8);

    // Finished days are kept; today, still running, is not.
    expect(await usageDayRow(deps, '2026-11-03')).toMatchObject({ api: 3, ai: 2 });
    expect(await usageDayRow(deps, '2026-11-20')).toMatchObject({ api: 1, ai: 0 });
    expect(await usageDayRow(deps, '2026-11-21')).toBeUndefined();

    // A kept day is read, not counted again (a late entry of it changes nothing); today is counted again.
    await logRequest(deps, '2026-11-03T10:00:00.000Z', 'transactions.sync');
    await logRequest(deps, '2026-11-21T11:30:00.000Z', 'transactions.sync');
    const second = await usageOf(deps, SCOPE, {});
    expect(second.daily.find((d) => d.date === '2026-11-03')).toEqual({ date: '2026-11-03', api: 3, ai: 2 });
    expect(second.daily[20]).toEqual({ date: '2026-11-21', api: 2, ai: 1 });
  });

  it('does not keep the count of a day that ended less than five minutes ago: its last entries may still be landing', async () => {
    const deps = await embeddedDeps();
    deps.clock.set(Date.UTC(2026, 10, 21, 0, 2, 0));
    await putApplication(deps, APP);
    await logRequest(deps, '2026-11-20T23:59:00.000Z', 'transactions.sync');
    expect((await usageOf(deps, SCOPE, {})).daily.find((d) => d.date === '2026-11-20')).toEqual({ date: '2026-11-20', api: 1, ai: 0 });
    expect(await usageDayRow(deps, '2026-11-20')).toBeUndefined();
    deps.clock.set(Date.UTC(2026, 10, 21, 0, 6, 0));
    await usageOf(deps, SCOPE, {});
    expect(await usageDayRow(deps, '2026-11-20')).toMatchObject({ api: 1, ai: 0 });
  });

  it('gives no count for a day the log no longer holds and that was never counted, and refuses a future month', async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, APP);
    const october = await usageOf(deps, SCOPE, { month: '2026-10' });
    expect(october.daily).toHaveLength(31);
    // 35 days back from 2026-11-21T12:00Z is 2026-10-17T12:00Z: that day's log is partly gone.
    expect(october.daily.find((d) => d.date === '2026-10-17')).toEqual({ date: '2026-10-17', api: null, ai: null });
    expect(october.daily.find((d) => d.date === '2026-10-18')).toEqual({ date: '2026-10-18', api: 0, ai: 0 });
    expect((await usageOf(deps, SCOPE, { month: '2026-09' })).daily.every((d) => d.api === null && d.ai === null)).toBe(true);
    const future = await usageOf(deps, SCOPE, { month: '2026-12' }).catch((err: unknown) => err);
    expect(future).toBeInstanceOf(ApiError);
    expect(future).toMatchObject({ code: 'invalid_field', status: 400 });
  });

  it('counts the connected users (items) of the environment against the plan, without removed ones', async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, APP);
    const items = [];
    for (let i = 0; i < 3; i += 1) items.push(await createTestItem(deps, `item_usage${i}`, { applicationId: SCOPE.applicationId }));
    await createTestItem(deps, 'item_usagelive', { applicationId: SCOPE.applicationId, environment: 'live' });
    await createTestItem(deps, 'item_usageother', { applicationId: 'app_usage_other' });
    expect((await usageOf(deps, SCOPE, {})).connected_users).toEqual({ count: 3, limit: 100 });
    await removeItem(deps, items[1]);
    expect((await usageOf(deps, SCOPE, {})).connected_users).toEqual({ count: 2, limit: 100 });
  });

  it("lists the month's 80 % and 95 % notices of this environment, with when they fired", async () => {
    const deps = await embeddedDeps();
    await putApplication(deps, APP);
    const notice = (thresholdPercent: number, at: string, quota: 'api' | 'ai' = 'api') => ({
      quota,
      thresholdPercent,
      used: Math.ceil((10_000 * thresholdPercent) / 100),
      limit: 10_000,
      eventId: `evt_${thresholdPercent}${quota}${at.slice(5, 7)}`,
      at: Date.parse(at),
    });
    await recordUsageNotice(deps, SCOPE, notice(95, '2026-11-15T10:00:00.000Z'));
    await recordUsageNotice(deps, SCOPE, notice(80, '2026-11-10T10:00:00.000Z'));
    await recordUsageNotice(deps, SCOPE, notice(80, '2026-10-20T10:00:00.000Z'));
    await recordUsageNotice(deps, { ...SCOPE, environment: 'live' }, notice(80, '2026-11-11T10:00:00.000Z', 'ai'));
    expect((await usageOf(deps, SCOPE, {})).notices).toEqual([
      { quota: 'api', threshold_percent: 80, used: 8_000, limit: 10_000, event_id: 'evt_80api11', at: '2026-11-10T10:00:00.000Z' },
      { quota: 'api', threshold_percent: 95, used: 9_500, limit: 10_000, event_id: 'evt_95api11', at: '2026-11-15T10:00:00.000Z' },
    ]);
    expect((await usageOf(deps, SCOPE, { month: '2026-10' })).notices.map((n) => n.event_id)).toEqual(['evt_80api10']);
  });
});
