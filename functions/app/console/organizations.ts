// Organisations (teams): create one (the creator is its first owner), list one's own, delete one.
//
// Deleting (owner only, with the organisation's name typed again as `confirm_name`) is refused with
// 409 organization_not_empty while any of its applications still has an item, in either
// environment: items hold people's bank data and are refreshed on a schedule, and only the API
// (with the application's key) removes them, so deleting first would leave them running with no one
// able to reach them. Otherwise the delete revokes every key of the organisation's applications,
// takes the applications out of the organisation (their rows stay, marked `detached_from`), and
// removes its invitations, memberships, owner count and the organisation itself, the deleting
// owner's membership last, so a delete that fails half-way can be run again by the same owner.
// The audit log stays until its TTL.
import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import type { CreateOrganizationInput, DeleteOrganizationInput } from '../../contracts/console-schemas';
import { ApiError, ERRORS } from '../../contracts/errors';
import { ENVIRONMENTS } from '../../contracts/schemas';
import { activeKeyHashes, detachApplication, listApplicationsOf, listKeys, revokeKeyByHash } from '../../data/api-keys-repo';
import {
  applicationHasItems,
  createOrganization as insertOrganization,
  deleteInvitationsAndMembers,
  deleteOrganizationRow,
  organizationsOfUser,
} from '../../data/console-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorize, recordAudit } from './authorize';

export function newOrganizationId(): string {
  return `org_${randomBytes(8).toString('hex')}`;
}

/** Any signed-in user may create an organisation; they become its only owner. */
export async function createOrganization(deps: Deps, actor: ConsoleActor, input: z.infer<typeof CreateOrganizationInput>) {
  const organizationId = newOrganizationId();
  const createdAt = new Date(deps.clock.now()).toISOString();
  await insertOrganization(deps, { organizationId, name: input.name, createdAt, createdBy: actor.user.userId });
  await recordAudit(deps, actor, { organizationId, action: 'console.orgs.create', role: null, target: { organization_id: organizationId }, outcome: 'allowed' });
  return { organization_id: organizationId, name: input.name, role: 'owner' as const, created_at: createdAt };
}

/** The organisations the actor belongs to, with their role in each (for console.session). */
export async function listMyOrganizations(deps: Deps, actor: Pick<ConsoleActor, 'user'>) {
  const orgs = await organizationsOfUser(deps, actor.user.userId);
  return orgs
    .map((o) => ({ organization_id: o.organizationId, name: o.name, role: o.role, created_at: o.createdAt }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.organization_id.localeCompare(b.organization_id));
}

export async function deleteOrganization(deps: Deps, actor: ConsoleActor, input: z.infer<typeof DeleteOrganizationInput>) {
  const { organization } = await authorize(deps, actor, input.organization_id, { action: 'console.orgs.delete' });
  if (input.confirm_name !== organization.name) {
    throw new ApiError('invalid_field', "confirm_name must be the organisation's name exactly: a guard against deleting the wrong one.");
  }
  const applications = await listApplicationsOf(deps, organization.organizationId);
  for (const app of applications) {
    for (const environment of ENVIRONMENTS) {
      if (await applicationHasItems(deps, app.applicationId, environment)) {
        throw new ApiError('organization_not_empty', `${ERRORS.organization_not_empty.message} (application ${app.applicationId} has ${environment} items)`);
      }
    }
  }
  let revokedKeys = 0;
  for (const app of applications) {
    // Detached first: a key create racing this one is refused from then on (it checks the
    // organisation in its own transaction); a key issued before is listed, or named by the
    // application's activeKeyOf rows (read consistently: the listing may not show it yet).
    await detachApplication(deps, app.applicationId, organization.organizationId);
    const listed = (await listKeys(deps, app.applicationId)).filter((k) => k.status === 'active').map((k) => k.keyHash);
    for (const keyHash of new Set([...listed, ...(await activeKeyHashes(deps, app.applicationId))])) {
      if (await revokeKeyByHash(deps, keyHash)) revokedKeys += 1;
    }
  }
  await deleteInvitationsAndMembers(deps, organization.organizationId, actor.user.userId);
  await deleteOrganizationRow(deps, organization.organizationId, actor.user.userId);
  return { organization_id: organization.organizationId, deleted: true, revoked_keys: revokedKeys, detached_applications: applications.length };
}
