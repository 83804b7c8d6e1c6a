// The role matrix against DynamoDB Local: every console use case of organisations, members,
// invitations, applications, keys and the audit log, called by a member of every role (and by a
// stranger), each case of ROLE_MATRIX (functions/core/console-permissions.ts). An allowed call
// succeeds (and, when it changes something, is audited as allowed); a denied call answers 403
// role_forbidden, changes nothing, and writes one `denied` audit row; a stranger is told the
// organisation or application does not exist, and nothing is written.
import { updateApplication, createApplication, listApplications } from '../../functions/app/console/applications';
import { listAudit } from '../../functions/app/console/audit';
import { createInvitation, listInvitations, revokeInvitation } from '../../functions/app/console/invitations';
import { createKey, listKeys, revokeKey } from '../../functions/app/console/keys';
import { listMembers, removeMember, updateMember } from '../../functions/app/console/members';
import { deleteOrganization } from '../../functions/app/console/organizations';
import type { ConsoleActor } from '../../functions/app/console/actor';
import { CONSOLE_ACTIONS, CONSOLE_ROLES, ROLE_MATRIX, type ConsoleTarget, type MemberActionId } from '../../functions/core/console-permissions';
import { putApplication } from '../../functions/data/api-keys-repo';
import { listAuditEntries } from '../../functions/data/console-repo';
import { embeddedDeps } from '../support/embedded';
import { actorOf, addMember, BASE_URL, consoleWorld, expectConsoleError, newUser, tableRows, type ConsoleWorld } from './console-fixtures';
import type { Deps } from '../../functions/platform/runtime';

type Prepared = (actor: ConsoleActor) => Promise<unknown>;

/**
 * Per action: what the call needs (made as an owner, before the snapshot), then the call itself.
 * `self`: the acting member is the target (leaving).
 */
const RUNNERS: Partial<Record<MemberActionId, (deps: Deps, w: ConsoleWorld, target: ConsoleTarget, actorRole: string) => Promise<Prepared>>> = {
  'console.orgs.delete': async (deps, w) => (actor) => deleteOrganization(deps, actor, { organization_id: w.organizationId, confirm_name: w.name }),
  'console.members.list': async (deps, w) => (actor) => listMembers(deps, actor, { organization_id: w.organizationId }),
  'console.members.update': async (deps, w, target) => {
    const member = await newUser(deps, 'target');
    await addMember(deps, w.members.owner, w.organizationId, member, target.memberRole!);
    return (actor) => updateMember(deps, actor, { organization_id: w.organizationId, user_id: member.userId, role: target.grantedRole! });
  },
  'console.members.remove': async (deps, w, target, actorRole) => {
    if (target.self) {
      const self = actorRole === 'stranger' ? w.stranger : w.members[actorRole as keyof ConsoleWorld['members']];
      return (actor) => removeMember(deps, actor, { organization_id: w.organizationId, user_id: self.userId });
    }
    const member = await newUser(deps, 'target');
    await addMember(deps, w.members.owner, w.organizationId, member, target.memberRole!);
    return (actor) => removeMember(deps, actor, { organization_id: w.organizationId, user_id: member.userId });
  },
  'console.invitations.list': async (deps, w) => (actor) => listInvitations(deps, actor, { organization_id: w.organizationId }),
  'console.invitations.create': async (deps, w, target) => (actor) =>
    createInvitation(deps, actor, { organization_id: w.organizationId, email: 'invitee@example.com', role: target.grantedRole! }, BASE_URL),
  'console.invitations.revoke': async (deps, w, target) => {
    const inv = await createInvitation(deps, w.as('owner'), { organization_id: w.organizationId, email: 'invitee@example.com', role: target.grantedRole! }, BASE_URL);
    return (actor) => revokeInvitation(deps, actor, { organization_id: w.organizationId, invitation_id: inv.invitation_id });
  },
  'console.applications.list': async (deps, w) => {
    await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Listed' });
    return (actor) => listApplications(deps, actor, { organization_id: w.organizationId });
  },
  'console.applications.create': async (deps, w) => (actor) => createApplication(deps, actor, { organization_id: w.organizationId, name: 'New app', plan: 'startup' }),
  'console.applications.update': async (deps, w) => {
    const app = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'To change', plan: 'free' });
    await createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'test' });
    return (actor) => updateApplication(deps, actor, { application_id: app.application_id, name: 'Changed', plan: 'growth' });
  },
  'console.keys.list': async (deps, w) => {
    const app = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Keys', plan: 'growth' });
    await createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'test' });
    return (actor) => listKeys(deps, actor, { application_id: app.application_id });
  },
  'console.keys.create': async (deps, w, target) => {
    const app = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Keys', plan: 'growth' });
    return (actor) => createKey(deps, actor, { application_id: app.application_id, environment: target.environment! });
  },
  'console.keys.revoke': async (deps, w, target) => {
    const app = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Keys', plan: 'growth' });
    const key = await createKey(deps, w.as('owner'), { application_id: app.application_id, environment: target.environment! });
    return (actor) => revokeKey(deps, actor, { application_id: app.application_id, key_id: key.key_id });
  },
  'console.audit.list': async (deps, w) => (actor) => listAudit(deps, actor, { organization_id: w.organizationId }),
};

/** Actions whose use cases take an already-authorised application scope (webhooks, request log, usage, items): wired by the edge. */
const SCOPED_ELSEWHERE = [
  'console.items.get',
  'console.items.refresh',
  'console.requests.search',
  'console.usage.get',
  'console.webhooks.deliveries.list',
  'console.webhooks.endpoints.create',
  'console.webhooks.endpoints.delete',
  'console.webhooks.endpoints.list',
  'console.webhooks.events.replay',
  'console.webhooks.secret.rotate',
];

it('runs every member action of the table here except the application-scoped ones of the webhooks, request log, usage and items views', () => {
  const covered = new Set(Object.keys(RUNNERS));
  expect(ROLE_MATRIX.map((c) => c.action).filter((a) => !covered.has(a)).filter((a, i, all) => all.indexOf(a) === i).sort()).toEqual(SCOPED_ELSEWHERE);
});

/**
 * The rows a call added, but the session's own bookkeeping (the marker that ties a session's denials
 * of an action within a minute to one audit row, app/console/authorize.ts).
 */
const newAuditRows = (before: string[], after: string[]) =>
  after
    .filter((row) => !before.includes(row))
    .map((row) => JSON.parse(row) as Record<string, unknown>)
    .filter((row) => !String(row.pk).startsWith('SESSION#'));

describe.each(ROLE_MATRIX.filter((c) => RUNNERS[c.action]).map((c) => [c.label, c] as const))('%s', (_label, matrixCase) => {
  let deps: Deps;
  beforeAll(async () => {
    deps = await embeddedDeps();
  });

  it.each(CONSOLE_ROLES.map((role) => [role, matrixCase.allowed[role]] as const))('as %s: allowed = %s', async (role, allowed) => {
    const w = await consoleWorld(deps);
    const call = await RUNNERS[matrixCase.action]!(deps, w, matrixCase.target, role);
    const actor = w.as(role);
    const before = await tableRows(deps);
    if (allowed) {
      await call(actor);
      if (CONSOLE_ACTIONS[matrixCase.action].changes) {
        const audit = await listAuditEntries(deps, w.organizationId, { from: '2000', to: '3000', limit: 100 });
        expect(audit.entries.filter((e) => e.requestId === actor.requestId).map((e) => [e.action, e.outcome, e.role])).toEqual([[matrixCase.action, 'allowed', role]]);
      } else {
        expect(await tableRows(deps)).toEqual(before);
      }
      return;
    }
    const err = await expectConsoleError(call(actor), 'role_forbidden', 403);
    expect(err.message).toContain(`needs the`);
    const added = newAuditRows(before, await tableRows(deps));
    expect(added).toEqual([
      expect.objectContaining({
        pk: `AUDIT#${w.organizationId}`,
        action: matrixCase.action,
        outcome: 'denied',
        role,
        user_id: actor.user.userId,
        request_id: actor.requestId,
        client_address: '203.0.113.7',
      }),
    ]);
  });

  it('as a stranger: not found, and nothing written', async () => {
    const w = await consoleWorld(deps);
    const call = await RUNNERS[matrixCase.action]!(deps, w, matrixCase.target, 'stranger');
    const before = await tableRows(deps);
    const scope = CONSOLE_ACTIONS[matrixCase.action].scope;
    await expectConsoleError(call(w.as('stranger')), scope === 'application' ? 'application_not_found' : 'organization_not_found', 404);
    expect(await tableRows(deps)).toEqual(before);
  });
});

it('answers an unknown organisation exactly as one the actor is not a member of', async () => {
  const deps = await embeddedDeps();
  const w = await consoleWorld(deps);
  const unknown = await expectConsoleError(listMembers(deps, w.as('stranger'), { organization_id: 'org_0000000000000000' }), 'organization_not_found', 404);
  const foreign = await expectConsoleError(listMembers(deps, w.as('stranger'), { organization_id: w.organizationId }), 'organization_not_found', 404);
  expect(foreign.message).toBe(unknown.message);
  // An application with no organisation (seeded before the console) is nobody's.
  await putApplication(deps, { applicationId: 'app_seeded', name: 'Seeded', plan: 'free' });
  await expectConsoleError(listKeys(deps, actorOf(w.members.owner), { application_id: 'app_seeded' }), 'application_not_found', 404);
});
