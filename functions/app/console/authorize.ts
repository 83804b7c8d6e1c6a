// The one permission check every console use case makes (the table is
// functions/core/console-permissions.ts): who the actor is in the organisation, whether that role
// may perform the action on that target, and the audit row.
//
// - A non-member (or an organisation or application that does not exist) gets the same not-found
//   answer, so nobody learns that an organisation exists from outside it. Nothing is audited then:
//   an outsider's guesses must not write rows into an organisation's log (or create partitions for
//   organisations that do not exist).
// - A member's denied call writes an audit row (outcome `denied`, with the reason), then answers
//   403 role_forbidden naming the role needed. It changes nothing else.
// - A member's allowed call to an action that changes something writes an audit row (outcome
//   `allowed`) before the use case acts: the row records the decision, so a change that then fails
//   (say, the last owner refusing to leave) still shows who tried. Allowed reads are not audited.
import { ApiError } from '../../contracts/errors';
import type { Environment } from '../../contracts/schemas';
import { canPerform, ruleOf, type ConsoleRole, type ConsoleTarget, type MemberActionId } from '../../core/console-permissions';
import { getApplication, type StoredApplication } from '../../data/api-keys-repo';
import { organizationAndMembership, putAuditEntry, type OrganizationRecord } from '../../data/console-repo';
import type { ApplicationScope } from '../../data/request-log-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';

/** What the permission depends on: known up front, or loaded once membership is established. */
export type TargetOf<S> = ConsoleTarget | ((scope: S) => Promise<ConsoleTarget> | ConsoleTarget);

export interface AuthorizeRequest<S> {
  action: MemberActionId;
  /** Ids of what is acted on, for the audit row (the organisation's and application's ids are added). */
  subject?: Record<string, string>;
  target?: TargetOf<S>;
}

export interface Authorized {
  role: ConsoleRole;
  organization: OrganizationRecord;
}

export interface AuthorizedForApplication extends Authorized {
  application: StoredApplication & { organizationId: string };
}

/** Checks and audits `action` in organisation `organizationId`; returns the actor's role there. */
export async function authorize(deps: Deps, actor: ConsoleActor, organizationId: string, request: AuthorizeRequest<Authorized>): Promise<Authorized> {
  const { organization, membership } = await organizationAndMembership(deps, organizationId, actor.user.userId);
  if (!organization || !membership) throw new ApiError('organization_not_found');
  const scope: Authorized = { role: membership.role, organization };
  await decide(deps, actor, scope, request, { organization_id: organizationId });
  return scope;
}

/** Checks and audits `action` on an application, through the organisation that owns it. */
export async function authorizeApplication(
  deps: Deps,
  actor: ConsoleActor,
  applicationId: string,
  request: AuthorizeRequest<AuthorizedForApplication>,
): Promise<AuthorizedForApplication> {
  const application = await getApplication(deps, applicationId);
  const organizationId = application?.organizationId;
  if (!application || !organizationId) throw new ApiError('application_not_found');
  const { organization, membership } = await organizationAndMembership(deps, organizationId, actor.user.userId);
  if (!organization || !membership) throw new ApiError('application_not_found');
  const scope: AuthorizedForApplication = { role: membership.role, organization, application: { ...application, organizationId } };
  await decide(deps, actor, scope, request, { organization_id: organizationId, application_id: applicationId });
  return scope;
}

/**
 * Checks and audits `action` on one environment of an application (webhooks, request log, usage,
 * items): the scope those use cases then act on. `subject` adds ids to the audit row.
 */
export async function authorizeScope(
  deps: Deps,
  actor: ConsoleActor,
  action: MemberActionId,
  input: { application_id: string; environment: Environment },
  subject: Record<string, string | undefined> = {},
): Promise<ApplicationScope> {
  const ids: Record<string, string> = { environment: input.environment };
  for (const [name, value] of Object.entries(subject)) if (value !== undefined) ids[name] = value;
  await authorizeApplication(deps, actor, input.application_id, { action, subject: ids });
  return { applicationId: input.application_id, environment: input.environment };
}

async function decide<S extends Authorized>(deps: Deps, actor: ConsoleActor, scope: S, request: AuthorizeRequest<S>, ids: Record<string, string>): Promise<void> {
  const target = typeof request.target === 'function' ? await request.target(scope) : (request.target ?? {});
  const permission = canPerform(scope.role, request.action, target);
  const subject = { ...ids, ...request.subject };
  if (!permission.allowed) {
    await recordAudit(deps, actor, {
      organizationId: scope.organization.organizationId,
      action: request.action,
      role: scope.role,
      target: subject,
      outcome: 'denied',
      reason: permission.reason,
    });
    throw new ApiError('role_forbidden', `Your role in this organisation (${scope.role}) does not allow this action: it needs the ${permission.required} role.`);
  }
  if (ruleOf(request.action).changes) {
    await recordAudit(deps, actor, { organizationId: scope.organization.organizationId, action: request.action, role: scope.role, target: subject, outcome: 'allowed' });
  }
}

/** Writes one audit row for the actor's request (also used by session actions that have no role check). */
export async function recordAudit(
  deps: Deps,
  actor: ConsoleActor,
  entry: { organizationId: string; action: string; role: ConsoleRole | null; target: Record<string, string>; outcome: 'allowed' | 'denied'; reason?: string },
): Promise<void> {
  await putAuditEntry(deps, {
    ...entry,
    at: new Date(deps.clock.now()).toISOString(),
    requestId: actor.requestId,
    userId: actor.user.userId,
    email: actor.user.email,
    clientAddress: actor.clientAddress,
    userAgent: actor.userAgent.slice(0, 200),
  });
}
