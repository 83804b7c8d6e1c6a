// Invitations by link: an admin (an owner, for the owner role) invites an e-mail address with a
// role; the link carries a random token shown once (only its SHA-256 is stored), valid 7 days
// (checked against the clock when accepted; the row's TTL removes it later), for one use, revocable.
// Only a user signed in with the invited address may accept it (compared case-insensitively).
//
// An invitation offers what its creator may grant, and only as long as they may: removing or
// demoting a member revokes their pending invitations that their new role could not create
// (revokeInvitationsTheirRoleCannotGrant, from ./members.ts), and listing, opening and accepting
// check the creator's current role again (an invitation created while its creator was being
// demoted escapes the revocation; the acceptance re-checks the role in its own transaction).
import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import type { AcceptInvitationInput, CreateInvitationInput, ListInvitationsInput, RevokeInvitationInput } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { sha256Hex } from '../../core/api-keys';
import { canPerform, CONSOLE_ROLES, type ConsoleRole } from '../../core/console-permissions';
import {
  acceptInvitation as spendInvitation,
  getInvitation,
  getMembership,
  getOrganization,
  listInvitations as invitationsOf,
  listMembers,
  putInvitation,
  revokeInvitation as markRevoked,
  type InvitationRecord,
} from '../../data/console-repo';
import { normaliseEmail } from '../../data/console-sessions-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorize, recordAudit } from './authorize';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
const TOKEN_PREFIX = 'fc_inv_';
/** `fc_inv_` and 32 random bytes in base64url (43 characters). */
const INVITATION_TOKEN = /^fc_inv_[A-Za-z0-9_-]{43}$/;

function newInvitationToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Where the console opens an invitation: the token rides in the fragment, which browsers never send to a server. */
export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/$/, '')}/console/#/invitations/${token}`;
}

function isOpen(inv: InvitationRecord, now: number): boolean {
  return inv.status === 'pending' && inv.expiresAt > now;
}

/** May a member with `role` (undefined: no longer a member) create an invitation to `invitedRole`? The permission table decides. */
function mayGrant(role: ConsoleRole | undefined, invitedRole: ConsoleRole): boolean {
  return role !== undefined && canPerform(role, 'console.invitations.create', { grantedRole: invitedRole }).allowed;
}

/** The roles whose members may create an invitation to `invitedRole` (the acceptance's condition on the creator). */
function rolesThatGrant(invitedRole: ConsoleRole): ConsoleRole[] {
  return CONSOLE_ROLES.filter((role) => mayGrant(role, invitedRole));
}

/**
 * Revokes the member's pending invitations that `role` (their new role; null: removed) could not
 * create. Called after a removal or demotion took effect; returns how many were revoked.
 */
export async function revokeInvitationsTheirRoleCannotGrant(deps: Deps, organizationId: string, creatorId: string, role: ConsoleRole | null): Promise<number> {
  const revokedAt = new Date(deps.clock.now()).toISOString();
  const beyond = (await invitationsOf(deps, organizationId)).filter((inv) => inv.status === 'pending' && inv.createdBy === creatorId && !mayGrant(role ?? undefined, inv.role));
  // One at a time: an organisation has few pending invitations, and a lost race (accepted meanwhile) is just skipped.
  let revoked = 0;
  for (const inv of beyond) if (await markRevoked(deps, inv.tokenHash, revokedAt)) revoked += 1;
  return revoked;
}

const publicInvitation = (inv: InvitationRecord) => ({
  invitation_id: inv.invitationId,
  email: inv.email,
  role: inv.role,
  created_by: inv.createdBy,
  created_at: inv.createdAt,
  expires_at: new Date(inv.expiresAt).toISOString(),
});

/** Creates an invitation; the answer holds its link, the only time the token is ever shown. */
export async function createInvitation(deps: Deps, actor: ConsoleActor, input: z.infer<typeof CreateInvitationInput>, baseUrl: string) {
  const email = normaliseEmail(input.email);
  await authorize(deps, actor, input.organization_id, { action: 'console.invitations.create', subject: { email, role: input.role }, target: { grantedRole: input.role } });
  const token = newInvitationToken();
  const now = deps.clock.now();
  const invitation = {
    invitationId: `inv_${randomBytes(8).toString('hex')}`,
    tokenHash: sha256Hex(token),
    organizationId: input.organization_id,
    role: input.role,
    email,
    createdBy: actor.user.userId,
    createdAt: new Date(now).toISOString(),
    expiresAt: now + INVITATION_LIFETIME_MS,
  };
  await putInvitation(deps, invitation);
  return { ...publicInvitation({ ...invitation, status: 'pending' }), invitation_url: invitationUrl(baseUrl, token) };
}

/** The organisation's open invitations (pending and not expired), newest first; never their tokens. */
export async function listInvitations(deps: Deps, actor: ConsoleActor, input: z.infer<typeof ListInvitationsInput>) {
  await authorize(deps, actor, input.organization_id, { action: 'console.invitations.list' });
  const now = deps.clock.now();
  const [invitations, members] = await Promise.all([invitationsOf(deps, input.organization_id), listMembers(deps, input.organization_id)]);
  const roleOf = new Map(members.map((m) => [m.userId, m.role]));
  return { invitations: invitations.filter((inv) => isOpen(inv, now) && mayGrant(roleOf.get(inv.createdBy), inv.role)).map(publicInvitation) };
}

export async function revokeInvitation(deps: Deps, actor: ConsoleActor, input: z.infer<typeof RevokeInvitationInput>) {
  const seen: { invitation?: InvitationRecord } = {};
  await authorize(deps, actor, input.organization_id, {
    action: 'console.invitations.revoke',
    subject: { invitation_id: input.invitation_id },
    target: async () => {
      const now = deps.clock.now();
      seen.invitation = (await invitationsOf(deps, input.organization_id)).find((inv) => inv.invitationId === input.invitation_id && isOpen(inv, now));
      if (!seen.invitation) throw new ApiError('invitation_not_found');
      return { grantedRole: seen.invitation.role };
    },
  });
  if (!seen.invitation || !(await markRevoked(deps, seen.invitation.tokenHash, new Date(deps.clock.now()).toISOString()))) {
    throw new ApiError('invitation_not_found');
  }
  return { invitation_id: input.invitation_id, revoked: true };
}

/**
 * The open invitation a token names; 410 invitation_expired for anything else (unknown, spent,
 * revoked, expired, or its creator no longer a member whose role may grant it).
 */
async function openInvitation(deps: Deps, token: string): Promise<InvitationRecord> {
  const inv = INVITATION_TOKEN.test(token) ? await getInvitation(deps, sha256Hex(token)) : undefined;
  if (!inv || !isOpen(inv, deps.clock.now())) throw new ApiError('invitation_expired');
  if (!mayGrant((await getMembership(deps, inv.organizationId, inv.createdBy))?.role, inv.role)) throw new ApiError('invitation_expired');
  return inv;
}

/**
 * What an invitation link offers, for the sign-up and accept screens (no session needed: the token
 * is the credential): the organisation's name, the role and the invited address.
 */
export async function peekInvitation(deps: Deps, token: string) {
  const inv = await openInvitation(deps, token);
  const org = await getOrganization(deps, inv.organizationId);
  if (!org) throw new ApiError('invitation_expired');
  return { organization_id: org.organizationId, organization_name: org.name, email: inv.email, role: inv.role, expires_at: new Date(inv.expiresAt).toISOString() };
}

/** Accepts an invitation as the signed-in user: they become a member with its role. */
export async function acceptInvitation(deps: Deps, actor: ConsoleActor, input: z.infer<typeof AcceptInvitationInput>) {
  const inv = await openInvitation(deps, input.token);
  const audit = { organizationId: inv.organizationId, action: 'console.invitations.accept', role: null, target: { invitation_id: inv.invitationId } };
  if (normaliseEmail(actor.user.email) !== inv.email) {
    await recordAudit(deps, actor, { ...audit, outcome: 'denied', reason: 'signed in with another e-mail address than the invitation names' });
    throw new ApiError('invitation_email_mismatch');
  }
  const outcome = await spendInvitation(deps, inv, actor.user.userId, deps.clock.now(), rolesThatGrant(inv.role));
  if (outcome === 'spent') throw new ApiError('invitation_expired');
  await recordAudit(deps, actor, { ...audit, outcome: 'allowed' });
  const org = await getOrganization(deps, inv.organizationId);
  const role = outcome === 'accepted' ? inv.role : ((await getMembership(deps, inv.organizationId, actor.user.userId))?.role ?? inv.role);
  return { organization_id: inv.organizationId, name: org?.name ?? null, role, joined: outcome === 'accepted' };
}
