// Members of an organisation: list them, change a member's role, remove a member (or leave).
//
// The permission table decides who may touch whom (only owners grant the owner role or change an
// owner; admins manage admins, developers and viewers; anyone may leave). The rule that an
// organisation keeps at least one owner is the owner count's condition, in the same transaction as
// the membership write (functions/data/console-repo.ts): it holds however many changes race.
// A member removed or demoted takes along the pending invitations they created that their new role
// could not create (./invitations.ts checks the creator again when an invitation is opened).
import type * as z from 'zod';
import type { ListMembersInput, RemoveMemberInput, UpdateMemberInput } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { changeMemberRole, getMembership, listMembers as membersOf, removeMember as deleteMember, type MembershipRecord } from '../../data/console-repo';
import { getUsers } from '../../data/console-sessions-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorize } from './authorize';
import { revokeInvitationsTheirRoleCannotGrant } from './invitations';

/** A role change or removal that met a concurrent change of the same member is decided again, this often. */
const MEMBER_CHANGE_TRIES = 3;

export async function listMembers(deps: Deps, actor: ConsoleActor, input: z.infer<typeof ListMembersInput>) {
  await authorize(deps, actor, input.organization_id, { action: 'console.members.list' });
  const members = await membersOf(deps, input.organization_id);
  const users = await getUsers(deps, members.map((m) => m.userId));
  return {
    members: members.map((m) => ({
      user_id: m.userId,
      email: users.get(m.userId)?.email ?? null,
      name: users.get(m.userId)?.name ?? null,
      role: m.role,
      joined_at: m.joinedAt,
    })),
  };
}

async function memberOrFail(deps: Deps, organizationId: string, userId: string): Promise<MembershipRecord> {
  const member = await getMembership(deps, organizationId, userId);
  if (!member) throw new ApiError('member_not_found');
  return member;
}

export async function updateMember(deps: Deps, actor: ConsoleActor, input: z.infer<typeof UpdateMemberInput>) {
  for (let attempt = 1; ; attempt += 1) {
    const seen: { member?: MembershipRecord } = {};
    await authorize(deps, actor, input.organization_id, {
      action: 'console.members.update',
      subject: { user_id: input.user_id, role: input.role },
      target: async () => {
        seen.member = await memberOrFail(deps, input.organization_id, input.user_id);
        return { memberRole: seen.member.role, grantedRole: input.role, self: input.user_id === actor.user.userId };
      },
    });
    const outcome = await changeMemberRole(deps, input.organization_id, input.user_id, roleSeen(seen), input.role);
    if (outcome === 'done') {
      await revokeInvitationsTheirRoleCannotGrant(deps, input.organization_id, input.user_id, input.role);
      return { user_id: input.user_id, role: input.role };
    }
    if (outcome === 'last_owner') throw new ApiError('last_owner');
    // The member changed meanwhile: decide again on what they are now.
    if (attempt >= MEMBER_CHANGE_TRIES) throw new ApiError('member_not_found', 'The member changed while this request was made; reload and try again.');
  }
}

/** The member's role the permission was decided on (authorize loads it before it decides). */
function roleSeen(seen: { member?: MembershipRecord }) {
  if (!seen.member) throw new Error('authorize returned without loading the member');
  return seen.member.role;
}

/** Removes a member; removing oneself is leaving the organisation. */
export async function removeMember(deps: Deps, actor: ConsoleActor, input: z.infer<typeof RemoveMemberInput>) {
  for (let attempt = 1; ; attempt += 1) {
    const seen: { member?: MembershipRecord } = {};
    await authorize(deps, actor, input.organization_id, {
      action: 'console.members.remove',
      subject: { user_id: input.user_id },
      target: async () => {
        seen.member = await memberOrFail(deps, input.organization_id, input.user_id);
        return { memberRole: seen.member.role, self: input.user_id === actor.user.userId };
      },
    });
    const outcome = await deleteMember(deps, input.organization_id, input.user_id, roleSeen(seen));
    if (outcome === 'done') {
      await revokeInvitationsTheirRoleCannotGrant(deps, input.organization_id, input.user_id, null);
      return { user_id: input.user_id, removed: true };
    }
    if (outcome === 'last_owner') throw new ApiError('last_owner');
    if (attempt >= MEMBER_CHANGE_TRIES) throw new ApiError('member_not_found', 'The member changed while this request was made; reload and try again.');
  }
}
