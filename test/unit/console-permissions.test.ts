// The console permission table against the operator's baseline, spelled out here independently of
// the table: viewer reads; developer also manages test keys, webhooks, replays, item refresh and
// reads the logs; admin also live keys, plans, applications, members and invitations except
// owners; owner everything, including deleting the organisation and the owner role.
import {
  canPerform,
  CONSOLE_ACTION_IDS,
  CONSOLE_ACTIONS,
  CONSOLE_ROLES,
  MEMBER_ACTION_IDS,
  requiredRole,
  ROLE_MATRIX,
  type ConsoleActionId,
  type ConsoleRole,
  type ConsoleTarget,
} from '../../functions/core/console-permissions';

/** The least role of every console action in its base case (null: a session action, no role). */
const BASELINE: Record<ConsoleActionId, ConsoleRole | null> = {
  'console.session': null,
  'console.auth.logout': null,
  'console.orgs.create': null,
  'console.invitations.accept': null,
  'console.orgs.delete': 'owner',
  'console.members.list': 'viewer',
  'console.members.update': 'admin',
  'console.members.remove': 'admin',
  'console.invitations.list': 'viewer',
  'console.invitations.create': 'admin',
  'console.invitations.revoke': 'admin',
  'console.applications.list': 'viewer',
  'console.applications.create': 'admin',
  'console.applications.update': 'admin',
  'console.audit.list': 'admin',
  'console.keys.list': 'viewer',
  'console.keys.create': 'developer',
  'console.keys.revoke': 'developer',
  'console.webhooks.endpoints.list': 'viewer',
  'console.webhooks.endpoints.create': 'developer',
  'console.webhooks.endpoints.delete': 'developer',
  'console.webhooks.secret.rotate': 'developer',
  'console.webhooks.deliveries.list': 'developer',
  'console.webhooks.events.replay': 'developer',
  'console.requests.search': 'developer',
  'console.usage.get': 'viewer',
  'console.items.get': 'viewer',
  'console.items.refresh': 'developer',
};

const allowedRoles = (action: ConsoleActionId, target?: ConsoleTarget) => CONSOLE_ROLES.filter((role) => canPerform(role, action, target).allowed);

describe('the console permission table', () => {
  it('has exactly the actions of the baseline, each with the baseline least role', () => {
    expect([...CONSOLE_ACTION_IDS].sort()).toEqual(Object.keys(BASELINE).sort());
    for (const action of CONSOLE_ACTION_IDS) expect([action, requiredRole(action)]).toEqual([action, BASELINE[action]]);
  });

  it('orders the roles viewer < developer < admin < owner, and a stronger role may do all a weaker one may', () => {
    expect(CONSOLE_ROLES).toEqual(['viewer', 'developer', 'admin', 'owner']);
    for (const c of ROLE_MATRIX) {
      const allowed = CONSOLE_ROLES.map((role) => c.allowed[role]);
      // Once allowed, allowed for every stronger role: [false, ..., false, true, ..., true].
      expect([c.label, allowed]).toEqual([c.label, [...allowed].sort((a, b) => Number(a) - Number(b))]);
    }
  });

  it('lets a viewer read everything but the logs and the audit log, and change nothing', () => {
    const viewerMay = MEMBER_ACTION_IDS.filter((action) => canPerform('viewer', action).allowed);
    expect(viewerMay.every((action) => !CONSOLE_ACTIONS[action].changes)).toBe(true);
    expect(viewerMay.sort()).toEqual(
      [
        'console.members.list',
        'console.invitations.list',
        'console.applications.list',
        'console.keys.list',
        'console.webhooks.endpoints.list',
        'console.usage.get',
        'console.items.get',
      ].sort(),
    );
  });

  it('gives test keys to developers and live keys to admins', () => {
    for (const action of ['console.keys.create', 'console.keys.revoke'] as const) {
      expect(allowedRoles(action, { environment: 'test' })).toEqual(['developer', 'admin', 'owner']);
      expect(allowedRoles(action, { environment: 'live' })).toEqual(['admin', 'owner']);
    }
  });

  it('lets only owners grant the owner role or touch an owner; admins manage admins, developers and viewers', () => {
    expect(allowedRoles('console.members.update', { memberRole: 'developer', grantedRole: 'admin' })).toEqual(['admin', 'owner']);
    expect(allowedRoles('console.members.update', { memberRole: 'admin', grantedRole: 'viewer' })).toEqual(['admin', 'owner']);
    expect(allowedRoles('console.members.update', { memberRole: 'admin', grantedRole: 'owner' })).toEqual(['owner']);
    expect(allowedRoles('console.members.update', { memberRole: 'owner', grantedRole: 'developer' })).toEqual(['owner']);
    expect(allowedRoles('console.members.remove', { memberRole: 'admin' })).toEqual(['admin', 'owner']);
    expect(allowedRoles('console.members.remove', { memberRole: 'owner' })).toEqual(['owner']);
    expect(allowedRoles('console.invitations.create', { grantedRole: 'admin' })).toEqual(['admin', 'owner']);
    expect(allowedRoles('console.invitations.create', { grantedRole: 'owner' })).toEqual(['owner']);
    expect(allowedRoles('console.invitations.revoke', { grantedRole: 'owner' })).toEqual(['owner']);
  });

  it('lets every member leave (removing themself), whatever their role', () => {
    expect(allowedRoles('console.members.remove', { memberRole: 'viewer', self: true })).toEqual(CONSOLE_ROLES);
    expect(allowedRoles('console.members.remove', { memberRole: 'owner', self: true })).toEqual(CONSOLE_ROLES);
  });

  it('keeps deleting the organisation to owners and the audit log to admins and owners', () => {
    expect(allowedRoles('console.orgs.delete')).toEqual(['owner']);
    expect(allowedRoles('console.audit.list')).toEqual(['admin', 'owner']);
  });

  it('names the role needed when it denies', () => {
    expect(canPerform('developer', 'console.keys.create', { environment: 'live' })).toEqual({
      allowed: false,
      required: 'admin',
      reason: expect.stringContaining('needs the admin role') as unknown as string,
    });
    expect(canPerform('owner', 'console.orgs.delete')).toEqual({ allowed: true });
  });
});

describe('ROLE_MATRIX (what the role matrix tests iterate)', () => {
  it('covers every member action, every role, and agrees with canPerform', () => {
    expect(new Set(ROLE_MATRIX.map((c) => c.action))).toEqual(new Set(MEMBER_ACTION_IDS));
    for (const c of ROLE_MATRIX) {
      expect(Object.keys(c.allowed).sort()).toEqual([...CONSOLE_ROLES].sort());
      for (const role of CONSOLE_ROLES) expect([c.label, role, c.allowed[role]]).toEqual([c.label, role, canPerform(role, c.action, c.target).allowed]);
    }
  });

  it('has a case for each target that changes the answer, with distinct labels', () => {
    const labels = ROLE_MATRIX.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    const live = ROLE_MATRIX.find((c) => c.action === 'console.keys.create' && c.target.environment === 'live');
    expect(live?.allowed).toEqual({ viewer: false, developer: false, admin: true, owner: true });
    const grantOwner = ROLE_MATRIX.find((c) => c.action === 'console.members.update' && c.target.grantedRole === 'owner');
    expect(grantOwner?.allowed).toEqual({ viewer: false, developer: false, admin: false, owner: true });
    const leave = ROLE_MATRIX.find((c) => c.action === 'console.members.remove' && c.target.self);
    expect(leave?.allowed).toEqual({ viewer: true, developer: true, admin: true, owner: true });
  });
});
