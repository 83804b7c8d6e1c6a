// The audit log against DynamoDB Local: every changing console action and every denied one leaves
// a row (who, role, what, target, when, from where) kept 400 days; admins and owners read it newest
// first, by time range, a page at a time. A session's repeated denials of one action within a minute
// share one row that counts them.
import { listAudit } from '../../functions/app/console/audit';
import { createApplication, listApplications } from '../../functions/app/console/applications';
import { createKey } from '../../functions/app/console/keys';
import { ApiError } from '../../functions/contracts/errors';
import { embeddedDeps, manualClock } from '../support/embedded';
import { DENIAL_WINDOW_MS } from '../../functions/app/console/authorize';
import { actorOf, consoleWorld, expectConsoleError, rejectionOf, tableRows } from './console-fixtures';

async function audited() {
  const deps = await embeddedDeps(manualClock());
  const w = await consoleWorld(deps);
  return { deps, w };
}

describe('the audit log', () => {
  it('records who did what to what, when and from where; denied attempts too; reads that were allowed not', async () => {
    const { deps, w } = await audited();
    deps.clock.advance(60_000);
    const t = new Date(deps.clock.now()).toISOString();
    const admin = actorOf(w.members.admin, { clientAddress: '198.51.100.20', userAgent: `Mozilla/5.0 ${'x'.repeat(300)}` });
    const app = await createApplication(deps, admin, { organization_id: w.organizationId, name: 'Audited' });
    await listApplications(deps, w.as('viewer'), { organization_id: w.organizationId });
    const viewer = w.as('viewer');
    await expectConsoleError(createKey(deps, viewer, { application_id: app.application_id, environment: 'test' }), 'role_forbidden', 403);

    const page = await listAudit(deps, w.as('owner'), { organization_id: w.organizationId, from: t });
    expect(page.entries).toHaveLength(2);
    const byRequest = new Map(page.entries.map((e) => [e.request_id, e]));
    expect(byRequest.get(admin.requestId)).toEqual({
      at: t,
      request_id: admin.requestId,
      user_id: w.members.admin.userId,
      email: w.members.admin.email,
      role: 'admin',
      action: 'console.applications.create',
      target: { organization_id: w.organizationId, application_id: app.application_id },
      outcome: 'allowed',
      reason: null,
      client_address: '198.51.100.20',
      user_agent: admin.userAgent.slice(0, 200),
      repeats: 1,
      last_at: null,
    });
    expect(byRequest.get(viewer.requestId)).toMatchObject({
      role: 'viewer',
      action: 'console.keys.create',
      target: { organization_id: w.organizationId, application_id: app.application_id, environment: 'test' },
      outcome: 'denied',
      reason: expect.stringContaining('needs the developer role'),
    });
  });

  it('keeps entries 400 days (the TTL attribute)', async () => {
    const { deps, w } = await audited();
    const rows = (await tableRows(deps)).map((r) => JSON.parse(r)).filter((r) => r.pk === `AUDIT#${w.organizationId}`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.expires_at).toBe(Math.ceil(Date.parse(row.at) / 1000) + 400 * 86_400);
  });

  it('is for admins and owners only; a developer or viewer asking is denied and that is audited too', async () => {
    const { deps, w } = await audited();
    const developer = w.as('developer');
    await expectConsoleError(listAudit(deps, developer, { organization_id: w.organizationId }), 'role_forbidden', 403);
    await expectConsoleError(listAudit(deps, w.as('viewer'), { organization_id: w.organizationId }), 'role_forbidden', 403);
    const page = await listAudit(deps, w.as('admin'), { organization_id: w.organizationId });
    expect(page.entries.filter((e) => e.request_id === developer.requestId)).toEqual([expect.objectContaining({ action: 'console.audit.list', outcome: 'denied' })]);
  });

  it('pages newest first within a time range, with a cursor that works only for its organisation', async () => {
    const { deps, w } = await audited();
    const start = deps.clock.now() + 1000;
    for (let i = 0; i < 5; i += 1) {
      deps.clock.set(start + i * 1000);
      await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: `App ${i}` });
    }
    const from = new Date(start).toISOString();
    const to = new Date(start + 3000).toISOString();
    const first = await listAudit(deps, w.as('owner'), { organization_id: w.organizationId, from, to, limit: 3 });
    expect(first.entries.map((e) => e.at)).toEqual([start + 3000, start + 2000, start + 1000].map((ms) => new Date(ms).toISOString()));
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await listAudit(deps, w.as('owner'), { organization_id: w.organizationId, from, to, limit: 3, cursor: first.next_cursor! });
    expect(second.entries.map((e) => e.at)).toEqual([new Date(start).toISOString()]);
    expect(second.next_cursor).toBeNull();

    const other = await consoleWorld(deps);
    const err = await rejectionOf(listAudit(deps, other.as('owner'), { organization_id: other.organizationId, cursor: first.next_cursor! }));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('invalid_field');
    const garbage = await rejectionOf(listAudit(deps, w.as('owner'), { organization_id: w.organizationId, cursor: 'not-a-cursor' }));
    expect((garbage as ApiError).code).toBe('invalid_field');
  });
});

describe('repeated denials', () => {
  it("collapse into one row per session, action and minute, counting them (repeats, last_at): a flood of refused calls is one row", async () => {
    const { deps, w } = await audited();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Flooded' });
    deps.clock.set(Math.ceil(deps.clock.now() / DENIAL_WINDOW_MS) * DENIAL_WINDOW_MS + 1000);
    const first = deps.clock.now();
    const session = { sessionHash: 'flooding-session' };
    const viewer = () => actorOf(w.members.viewer, session);
    const firstActor = viewer();
    await expectConsoleError(createKey(deps, firstActor, { application_id: app.application_id, environment: 'test' }), 'role_forbidden', 403);
    for (let i = 1; i < 200; i += 1) {
      deps.clock.advance(100);
      await expectConsoleError(createKey(deps, viewer(), { application_id: app.application_id, environment: 'test' }), 'role_forbidden', 403);
    }
    const denied = () => listAudit(deps, w.as('owner'), { organization_id: w.organizationId, from: new Date(first).toISOString() }).then((p) => p.entries.filter((e) => e.outcome === 'denied'));
    expect(await denied()).toEqual([
      expect.objectContaining({
        at: new Date(first).toISOString(),
        request_id: firstActor.requestId,
        action: 'console.keys.create',
        repeats: 200,
        last_at: new Date(first + 199 * 100).toISOString(),
      }),
    ]);
    // Another action, another session, or the next minute: a row of its own.
    await expectConsoleError(listAudit(deps, viewer(), { organization_id: w.organizationId }), 'role_forbidden', 403);
    await expectConsoleError(createKey(deps, actorOf(w.members.viewer, { sessionHash: 'another-session' }), { application_id: app.application_id, environment: 'test' }), 'role_forbidden', 403);
    deps.clock.set(first - 1000 + DENIAL_WINDOW_MS);
    await expectConsoleError(createKey(deps, viewer(), { application_id: app.application_id, environment: 'test' }), 'role_forbidden', 403);
    expect((await denied()).map((e) => [e.action, e.repeats]).sort()).toEqual(
      [
        ['console.keys.create', 200],
        ['console.keys.create', 1],
        ['console.keys.create', 1],
        ['console.audit.list', 1],
      ].sort(),
    );
    // The markers that tie a window to its row live in the session's partition and expire with the window.
    const markers = (await tableRows(deps)).map((r) => JSON.parse(r)).filter((r) => r.pk === 'SESSION#flooding-session');
    expect(markers.length).toBe(3);
    // The last window began a minute after the first: two windows after its start at the latest.
    for (const marker of markers) expect(marker.expires_at * 1000).toBeLessThanOrEqual(first - 1000 + 3 * DENIAL_WINDOW_MS);
  });

  it('loses no denial when many race: every one is counted on some row', async () => {
    const { deps, w } = await audited();
    const app = await createApplication(deps, w.as('admin'), { organization_id: w.organizationId, name: 'Raced' });
    const from = new Date(deps.clock.now()).toISOString();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => createKey(deps, actorOf(w.members.developer, { sessionHash: 'racing-session' }), { application_id: app.application_id, environment: 'live' })),
    );
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).code === 'role_forbidden')).toBe(true);
    const denied = (await listAudit(deps, w.as('owner'), { organization_id: w.organizationId, from })).entries.filter((e) => e.outcome === 'denied');
    expect(denied.reduce((sum, e) => sum + e.repeats, 0)).toBe(30);
    expect(denied.length).toBeLessThan(30);
  });
});
