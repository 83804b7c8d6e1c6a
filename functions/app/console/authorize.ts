// The one permission check every console use case makes (the table is
// functions/core/console-permissions.ts): who the actor is in the organisation, whether that role
// may perform the action on that target, and the audit row.
//
// - A non-member (or an organisation or application that does not exist) gets the same not-found
//   answer, so nobody learns that an organisation exists from outside it. Nothing is audited then:
//   an outsider's guesses must not write rows into an organisation's log (or create partitions for
//   organisations that do not exist).
// - A member's denied call writes an audit row (outcome `denied`, with the reason), then answers
//   403 role_forbidden naming the role needed. It changes nothing else. A session's repeated
//   denials of one action in one organisation within a minute share one row (the first), which
//   counts them (`repeats`, `last_at`): a flood of refused calls cannot flood the log.
// - A member's allowed call to an action that changes something writes an audit row (outcome
//   `allowed`) before the use case acts: the row records the decision, so a change that then fails
//   (say, the last owner refusing to leave) still shows who tried. Allowed reads are not audited.
import { ApiError } from '../../contracts/errors';
import type { Environment } from '../../contracts/schemas';
import { canPerform, ruleOf, type ConsoleRole, type ConsoleTarget, type MemberActionId } from '../../core/console-permissions';
import { getApplication, type StoredApplication } from '../../data/api-keys-repo';
import { claimDenialWindow, countAuditRepeat, organizationAndMembership, putAuditEntry, type AuditEntryRef, type OrganizationRecord } from '../../data/console-repo';
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
  /** The audit row of this (allowed, changing) call; null for a read. */
  audit: AuditEntryRef | null;
}

/** Denials of one action by one session in one organisation within this window share one audit row. */
export const DENIAL_WINDOW_MS = 60_000;

export interface AuthorizedForApplication extends Authorized {
  application: StoredApplication & { organizationId: string };
}

/** Checks and audits `action` in organisation `organizationId`; returns the actor's role there. */
export async function authorize(deps: Deps, actor: ConsoleActor, organizationId: string, request: AuthorizeRequest<Authorized>): Promise<Authorized> {
  const { organization, membership } = await organizationAndMembership(deps, organizationId, actor.user.userId);
  if (!organization || !membership) throw new ApiError('organization_not_found');
  const scope: Authorized = { role: membership.role, organization, audit: null };
  scope.audit = await decide(deps, actor, scope, request, { organization_id: organizationId });
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
  const scope: AuthorizedForApplication = { role: membership.role, organization, application: { ...application, organizationId }, audit: null };
  scope.audit = await decide(deps, actor, scope, request, { organization_id: organizationId, application_id: applicationId });
  return scope;
}

/** An application environment a console call was allowed to act on, and the audit row of the call (null for a read). */
export type AuthorizedScope = ApplicationScope & { audit: AuditEntryRef | null };

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
): Promise<AuthorizedScope> {
  const ids: Record<string, string> = { environment: input.environment };
  for (const [name, value] of Object.entries(subject)) if (value !== undefined) ids[name] = value;
  const { audit } = await authorizeApplication(deps, actor, input.application_id, { action, subject: ids });
  return { applicationId: input.application_id, environment: input.environment, audit };
}

/** The audit row of the call when it is allowed and changes something; throws role_forbidden when denied. */
async function decide<S extends Authorized>(deps: Deps, actor: ConsoleActor, scope: S, request: AuthorizeRequest<S>, ids: Record<string, string>): Promise<AuditEntryRef | null> {
  const target = typeof request.target === 'function' ? await request.target(scope) : (request.target ?? {});
  const permission = canPerform(scope.role, request.action, target);
  const subject = { ...ids, ...request.subject };
  if (!permission.allowed) {
    await recordDenial(deps, actor, {
      organizationId: scope.organization.organizationId,
      action: request.action,
      role: scope.role,
      target: subject,
      outcome: 'denied',
      reason: permission.reason,
    });
    throw new ApiError('role_forbidden', `Your role in this organisation (${scope.role}) does not allow this action: it needs the ${permission.required} role.`);
  }
  if (!ruleOf(request.action).changes) return null;
  return recordAudit(deps, actor, { organizationId: scope.organization.organizationId, action: request.action, role: scope.role, target: subject, outcome: 'allowed' });
}

interface AuditRow {
  organizationId: string;
  action: string;
  role: ConsoleRole | null;
  target: Record<string, string>;
  outcome: 'allowed' | 'denied';
  reason?: string;
}

/**
 * Audits a denial: the first of the session's denials of this action in this organisation in the
 * window gets a row; the others count on that row. A row named by the window but not written yet
 * (its request still on its way) is no reason to lose this denial: it then gets its own row.
 */
async function recordDenial(deps: Deps, actor: ConsoleActor, entry: AuditRow & { outcome: 'denied' }): Promise<void> {
  const now = deps.clock.now();
  const mine = { organizationId: entry.organizationId, at: new Date(now).toISOString(), requestId: actor.requestId };
  const window = { sessionHash: actor.sessionHash, organizationId: entry.organizationId, action: entry.action, windowStart: now - (now % DENIAL_WINDOW_MS), windowMs: DENIAL_WINDOW_MS };
  const standing = await claimDenialWindow(deps, window, mine);
  if (standing && (await countAuditRepeat(deps, standing, mine))) return;
  await writeAuditRow(deps, actor, entry, mine.at);
}

/** Writes one audit row for the actor's request (also used by session actions that have no role check); returns where it is. */
export async function recordAudit(deps: Deps, actor: ConsoleActor, entry: AuditRow): Promise<AuditEntryRef> {
  return writeAuditRow(deps, actor, entry, new Date(deps.clock.now()).toISOString());
}

async function writeAuditRow(deps: Deps, actor: ConsoleActor, entry: AuditRow, at: string): Promise<AuditEntryRef> {
  await putAuditEntry(deps, {
    ...entry,
    at,
    requestId: actor.requestId,
    userId: actor.user.userId,
    email: actor.user.email,
    clientAddress: actor.clientAddress,
    userAgent: actor.userAgent.slice(0, 200),
  });
  return { organizationId: entry.organizationId, at, requestId: actor.requestId };
}
