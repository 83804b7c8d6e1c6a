// THE console permission table: every console action, the least role it needs, and where the
// target of the action raises (or, for leaving an organisation, lowers) that need. Every console use
// case asks `canPerform` through one helper (functions/app/console/authorize.ts); the role matrix
// tests iterate ROLE_MATRIX below, so a rule changed here is a rule changed everywhere.
//
// Baseline (the operator's issue): a viewer reads; a developer also manages test keys, webhooks
// (both environments), replays events, refreshes items and reads the logs (request log, webhook
// delivery log); an admin also manages live keys, plans, applications, members and invitations
// except owners; an owner may do everything, including granting the owner role and deleting the
// organisation. The audit log is for admins and owners. Session actions need no role.
import { CONSOLE_ROLES, type ConsoleRole } from '../contracts/console-roles';
import type { Environment } from '../contracts/schemas';

/** Weakest first: a role may do everything the roles before it may (the list is the contract's). */
export { CONSOLE_ROLES, type ConsoleRole };

export function roleRank(role: ConsoleRole): number {
  return CONSOLE_ROLES.indexOf(role);
}

export function isAtLeast(role: ConsoleRole, needed: ConsoleRole): boolean {
  return roleRank(role) >= roleRank(needed);
}

/** What the permission of some actions depends on besides the action itself. */
export interface ConsoleTarget {
  /** The environment of the key (keys.create, keys.revoke): live keys need an admin. */
  environment?: Environment;
  /** The current role of the member acted on (members.update, members.remove). */
  memberRole?: ConsoleRole;
  /** The role granted (members.update) or offered by an invitation (invitations.create, .revoke). */
  grantedRole?: ConsoleRole;
  /** The actor acts on their own membership (members.remove: leaving the organisation). */
  self?: boolean;
}

/**
 * `session`: any signed-in user, no organisation involved (or not yet: accepting an invitation,
 * creating an organisation). `organization` and `application`: a member of the organisation that
 * owns the organisation or application named in the request; a non-member is told it does not exist.
 */
export type ConsoleScope = 'session' | 'organization' | 'application';

export interface ConsoleActionRule {
  /** The least role; null for session actions. */
  role: ConsoleRole | null;
  scope: ConsoleScope;
  /** Changes something: every call is audited. A read is audited only when it is denied. */
  changes: boolean;
  /** The least role for this target when the target matters (never below what `role` says, except leaving). */
  refine?: (target: ConsoleTarget) => ConsoleRole;
}

/** Live keys are an admin's; test keys a developer's. */
const keyEnvironment = (target: ConsoleTarget): ConsoleRole => (target.environment === 'live' ? 'admin' : 'developer');
/** Only an owner grants the owner role or changes an owner; an admin manages admins, developers and viewers. */
const ownerTouched = (...roles: Array<ConsoleRole | undefined>): ConsoleRole => (roles.includes('owner') ? 'owner' : 'admin');

export const CONSOLE_ACTIONS = {
  'console.session': { role: null, scope: 'session', changes: false },
  'console.auth.logout': { role: null, scope: 'session', changes: true },
  'console.orgs.create': { role: null, scope: 'session', changes: true },
  'console.invitations.accept': { role: null, scope: 'session', changes: true },

  'console.orgs.delete': { role: 'owner', scope: 'organization', changes: true },
  'console.members.list': { role: 'viewer', scope: 'organization', changes: false },
  'console.members.update': {
    role: 'admin',
    scope: 'organization',
    changes: true,
    refine: (t) => ownerTouched(t.memberRole, t.grantedRole),
  },
  'console.members.remove': {
    role: 'admin',
    scope: 'organization',
    changes: true,
    // Anyone may leave (the last owner is kept by the owner count, not by the table).
    refine: (t) => (t.self ? 'viewer' : ownerTouched(t.memberRole)),
  },
  'console.invitations.list': { role: 'viewer', scope: 'organization', changes: false },
  'console.invitations.create': { role: 'admin', scope: 'organization', changes: true, refine: (t) => ownerTouched(t.grantedRole) },
  'console.invitations.revoke': { role: 'admin', scope: 'organization', changes: true, refine: (t) => ownerTouched(t.grantedRole) },
  'console.applications.list': { role: 'viewer', scope: 'organization', changes: false },
  'console.applications.create': { role: 'admin', scope: 'organization', changes: true },
  'console.audit.list': { role: 'admin', scope: 'organization', changes: false },

  'console.applications.update': { role: 'admin', scope: 'application', changes: true },
  'console.keys.list': { role: 'viewer', scope: 'application', changes: false },
  'console.keys.create': { role: 'developer', scope: 'application', changes: true, refine: keyEnvironment },
  'console.keys.revoke': { role: 'developer', scope: 'application', changes: true, refine: keyEnvironment },
  'console.webhooks.endpoints.list': { role: 'viewer', scope: 'application', changes: false },
  'console.webhooks.endpoints.create': { role: 'developer', scope: 'application', changes: true },
  'console.webhooks.endpoints.delete': { role: 'developer', scope: 'application', changes: true },
  'console.webhooks.secret.rotate': { role: 'developer', scope: 'application', changes: true },
  'console.webhooks.deliveries.list': { role: 'developer', scope: 'application', changes: false },
  'console.webhooks.events.replay': { role: 'developer', scope: 'application', changes: true },
  'console.requests.search': { role: 'developer', scope: 'application', changes: false },
  'console.usage.get': { role: 'viewer', scope: 'application', changes: false },
  'console.items.get': { role: 'viewer', scope: 'application', changes: false },
  'console.items.refresh': { role: 'developer', scope: 'application', changes: true },
} as const satisfies Record<string, ConsoleActionRule>;

export type ConsoleActionId = keyof typeof CONSOLE_ACTIONS;
export const CONSOLE_ACTION_IDS = Object.keys(CONSOLE_ACTIONS) as ConsoleActionId[];
/** The actions a member of an organisation performs with a role (every action but the session ones). */
export type MemberActionId = { [A in ConsoleActionId]: (typeof CONSOLE_ACTIONS)[A]['scope'] extends 'session' ? never : A }[ConsoleActionId];

export function ruleOf(action: ConsoleActionId): ConsoleActionRule {
  return CONSOLE_ACTIONS[action];
}

/** The least role `action` needs on `target`; null when it needs none (a session action). */
export function requiredRole(action: ConsoleActionId, target: ConsoleTarget = {}): ConsoleRole | null {
  const rule = ruleOf(action);
  if (rule.role === null) return null;
  return rule.refine ? rule.refine(target) : rule.role;
}

export type Permission = { allowed: true } | { allowed: false; required: ConsoleRole; reason: string };

export function canPerform(role: ConsoleRole, action: ConsoleActionId, target: ConsoleTarget = {}): Permission {
  const required = requiredRole(action, target);
  if (required === null || isAtLeast(role, required)) return { allowed: true };
  return { allowed: false, required, reason: `${action} needs the ${required} role${describeTarget(target)}; this member is ${role}` };
}

function describeTarget(target: ConsoleTarget): string {
  const parts = [
    target.environment && `environment ${target.environment}`,
    target.memberRole && `member is ${target.memberRole}`,
    target.grantedRole && `role ${target.grantedRole}`,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

// ---------- the role matrix: every action x every role, with the targets that change the answer ----------

export interface RoleMatrixCase {
  action: MemberActionId;
  /** Names the case in test titles: the action, and the target when it matters. */
  label: string;
  target: ConsoleTarget;
  allowed: Record<ConsoleRole, boolean>;
}

/** The targets worth trying per action: the base case, and each target that changes the role needed. */
const MATRIX_TARGETS: Partial<Record<MemberActionId, ConsoleTarget[]>> = {
  'console.keys.create': [{ environment: 'test' }, { environment: 'live' }],
  'console.keys.revoke': [{ environment: 'test' }, { environment: 'live' }],
  'console.members.update': [
    { memberRole: 'developer', grantedRole: 'viewer' },
    { memberRole: 'viewer', grantedRole: 'admin' },
    { memberRole: 'admin', grantedRole: 'developer' },
    { memberRole: 'developer', grantedRole: 'owner' },
    { memberRole: 'owner', grantedRole: 'admin' },
  ],
  'console.members.remove': [{ memberRole: 'developer' }, { memberRole: 'admin' }, { memberRole: 'owner' }, { self: true }],
  'console.invitations.create': [{ grantedRole: 'viewer' }, { grantedRole: 'admin' }, { grantedRole: 'owner' }],
  'console.invitations.revoke': [{ grantedRole: 'developer' }, { grantedRole: 'owner' }],
};

export const MEMBER_ACTION_IDS = CONSOLE_ACTION_IDS.filter((action): action is MemberActionId => CONSOLE_ACTIONS[action].scope !== 'session');

export const ROLE_MATRIX: readonly RoleMatrixCase[] = MEMBER_ACTION_IDS.flatMap((action) =>
  (MATRIX_TARGETS[action] ?? [{}]).map((target) => ({
    action,
    label: `${action}${describeTarget(target)}${target.self ? ' (self)' : ''}`,
    target,
    allowed: Object.fromEntries(CONSOLE_ROLES.map((role) => [role, canPerform(role, action, target).allowed])) as Record<ConsoleRole, boolean>,
  })),
);
