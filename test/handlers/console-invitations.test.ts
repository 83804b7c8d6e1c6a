// Invitations against DynamoDB Local: the token is shown once and stored only hashed; it expires
// after 7 days by the clock; only the invited address may accept it; it is spent once however many
// accepts race; it can be revoked; it works only while its creator is a member who may grant it.
import { sha256Hex } from '../../functions/core/api-keys';
import { acceptInvitation, createInvitation, INVITATION_LIFETIME_MS, listInvitations, peekInvitation, revokeInvitation } from '../../functions/app/console/invitations';
import { removeMember, updateMember } from '../../functions/app/console/members';
import { signUpWithInvitation } from '../../functions/app/console/session';
import type { LocalPasswordIdentity } from '../../functions/platform/console-identity';
import { listMyOrganizations } from '../../functions/app/console/organizations';
import {
  acceptInvitation as spendInvitation,
  changeMemberRole,
  getInvitation,
  getMembership,
  listAuditEntries,
  ownerCount,
  removeMember as deleteMembership,
} from '../../functions/data/console-repo';
import { createUser } from '../../functions/data/console-sessions-repo';
import { embeddedDeps, manualClock } from '../support/embedded';
import { actorOf, BASE_URL, consoleWorld, expectConsoleError, newUser, tableRows, tokenOf } from './console-fixtures';

async function invited(role: 'viewer' | 'developer' | 'admin' | 'owner' = 'developer', email = 'invitee@example.com') {
  const deps = await embeddedDeps(manualClock());
  const w = await consoleWorld(deps);
  const inviter = role === 'owner' ? 'owner' : 'admin';
  const invitation = await createInvitation(deps, w.as(inviter), { organization_id: w.organizationId, email, role }, BASE_URL);
  return { deps, w, invitation, token: tokenOf(invitation.invitation_url) };
}

describe('creating an invitation', () => {
  it('answers a link with a random token once, and stores only its hash', async () => {
    const { deps, w, invitation, token } = await invited();
    expect(invitation.invitation_url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/console\/#\/invitations\/fc_inv_[A-Za-z0-9_-]{43}$/);
    expect(invitation).toMatchObject({ email: 'invitee@example.com', role: 'developer', expires_at: new Date(deps.clock.now() + INVITATION_LIFETIME_MS).toISOString() });
    const rows = (await tableRows(deps)).join('\n');
    expect(rows).not.toContain(token);
    expect(rows).toContain(sha256Hex(token));
    const listed = await listInvitations(deps, w.as('viewer'), { organization_id: w.organizationId });
    expect(listed.invitations).toEqual([expect.objectContaining({ invitation_id: invitation.invitation_id, email: 'invitee@example.com', role: 'developer' })]);
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(JSON.stringify(listed)).not.toContain('fc_inv_');
  });

  it('keeps the TTL attribute at the expiry (seconds) so the table removes it', async () => {
    const { deps, token } = await invited();
    const row = (await tableRows(deps)).map((r) => JSON.parse(r)).find((r) => r.pk === `INVITE#${sha256Hex(token)}`);
    expect(row.expires_at).toBe(Math.ceil((deps.clock.now() + INVITATION_LIFETIME_MS) / 1000));
  });
});

describe('accepting an invitation', () => {
  it('makes the invited user a member with the role, comparing e-mail addresses case-insensitively, once', async () => {
    const { deps, w, token } = await invited('developer', 'New.Person@Example.com');
    const user = await createUser(deps, { email: 'new.person@example.com', name: 'New' });
    const peek = await peekInvitation(deps, token);
    expect(peek).toMatchObject({ organization_id: w.organizationId, organization_name: w.name, email: 'new.person@example.com', role: 'developer' });
    const actor = actorOf(user);
    expect(await acceptInvitation(deps, actor, { token })).toEqual({ organization_id: w.organizationId, name: w.name, role: 'developer', joined: true });
    expect((await getMembership(deps, w.organizationId, user.userId))?.role).toBe('developer');
    expect((await listMyOrganizations(deps, actor)).map((o) => o.organization_id)).toEqual([w.organizationId]);
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token }), 'invitation_expired', 410);
    await expectConsoleError(peekInvitation(deps, token), 'invitation_expired', 410);
    const audit = await listAuditEntries(deps, w.organizationId, { from: '2000', to: '3000', limit: 100 });
    expect(audit.entries.filter((e) => e.requestId === actor.requestId)).toEqual([expect.objectContaining({ action: 'console.invitations.accept', outcome: 'allowed', userId: user.userId })]);
  });

  it('refuses another address with 403 invitation_email_mismatch, audits it, and leaves the invitation usable', async () => {
    const { deps, w, token } = await invited();
    const other = await newUser(deps, 'intruder');
    const actor = actorOf(other);
    await expectConsoleError(acceptInvitation(deps, actor, { token }), 'invitation_email_mismatch', 403);
    expect(await getMembership(deps, w.organizationId, other.userId)).toBeUndefined();
    const audit = await listAuditEntries(deps, w.organizationId, { from: '2000', to: '3000', limit: 100 });
    expect(audit.entries.filter((e) => e.requestId === actor.requestId)).toEqual([expect.objectContaining({ action: 'console.invitations.accept', outcome: 'denied' })]);
    expect((await getInvitation(deps, sha256Hex(token)))?.status).toBe('pending');
  });

  it('expires 7 days after creation by the clock (the TTL may be late): 410 invitation_expired', async () => {
    const { deps, token } = await invited();
    const user = await createUser(deps, { email: 'invitee@example.com', name: 'Late' });
    deps.clock.advance(INVITATION_LIFETIME_MS);
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token }), 'invitation_expired', 410);
    deps.clock.advance(-1);
    await expect(acceptInvitation(deps, actorOf(user), { token })).resolves.toMatchObject({ joined: true });
  });

  it('is spent once when the same invitation is accepted many times at once', async () => {
    const { deps, w, token } = await invited('owner');
    const user = await createUser(deps, { email: 'invitee@example.com', name: 'Racer' });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => acceptInvitation(deps, actorOf(user), { token })));
    const joined = results.filter((r) => r.status === 'fulfilled' && r.value.joined);
    expect(joined).toHaveLength(1);
    // The others either lost the race (410) or found the membership already made and the invitation spent.
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'invitation_expired', status: 410 });
    }
    // Two owners before, one more now: the owner count moved once.
    expect(await ownerCount(deps, w.organizationId)).toBe(3);
  });

  it('answers 410 for tokens that are malformed or unknown, exactly as for spent ones', async () => {
    const deps = await embeddedDeps();
    const user = await newUser(deps);
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token: 'nonsense' }), 'invitation_expired', 410);
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token: `fc_inv_${'A'.repeat(43)}` }), 'invitation_expired', 410);
  });

  it('spends the invitation of a user who is a member already, without changing their role', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    const invitation = await createInvitation(deps, w.as('admin'), { organization_id: w.organizationId, email: w.members.viewer.email, role: 'admin' }, BASE_URL);
    const result = await acceptInvitation(deps, w.as('viewer'), { token: tokenOf(invitation.invitation_url) });
    expect(result).toMatchObject({ role: 'viewer', joined: false });
    expect((await getMembership(deps, w.organizationId, w.members.viewer.userId))?.role).toBe('viewer');
    await expectConsoleError(peekInvitation(deps, tokenOf(invitation.invitation_url)), 'invitation_expired', 410);
  });
});

describe('revoking an invitation', () => {
  it('makes it unusable and unlisted; a second revoke answers invitation_not_found', async () => {
    const { deps, w, invitation, token } = await invited();
    const user = await createUser(deps, { email: 'invitee@example.com', name: 'Too late' });
    await revokeInvitation(deps, w.as('admin'), { organization_id: w.organizationId, invitation_id: invitation.invitation_id });
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token }), 'invitation_expired', 410);
    expect((await listInvitations(deps, w.as('admin'), { organization_id: w.organizationId })).invitations).toEqual([]);
    await expectConsoleError(revokeInvitation(deps, w.as('admin'), { organization_id: w.organizationId, invitation_id: invitation.invitation_id }), 'invitation_not_found', 404);
  });

  it('keeps invitations to the owner role for owners to create and revoke', async () => {
    const { deps, w, invitation } = await invited('owner');
    await expectConsoleError(revokeInvitation(deps, w.as('admin'), { organization_id: w.organizationId, invitation_id: invitation.invitation_id }), 'role_forbidden', 403);
    await expectConsoleError(createInvitation(deps, w.as('admin'), { organization_id: w.organizationId, email: 'x@example.com', role: 'owner' }, BASE_URL), 'role_forbidden', 403);
    await revokeInvitation(deps, w.as('secondOwner'), { organization_id: w.organizationId, invitation_id: invitation.invitation_id });
  });

  it("does not reach another organisation's invitation by its id", async () => {
    const { deps, invitation } = await invited();
    const other = await consoleWorld(deps);
    await expectConsoleError(revokeInvitation(deps, other.as('owner'), { organization_id: other.organizationId, invitation_id: invitation.invitation_id }), 'invitation_not_found', 404);
  });
});

describe('an invitation outlives its creator only while they may still grant it', () => {
  /** Sign-up without scrypt work: these tests are about the invitation, not the password. */
  const plainPasswords: LocalPasswordIdentity = { kind: 'local', hashPassword: async (p) => `plain:${p}`, verifyPassword: async (p, stored) => stored === `plain:${p}` };

  it('is revoked when its creator is removed: no longer listed, opened or usable to sign up and join (410)', async () => {
    const { deps, w, invitation, token } = await invited('admin', 'joiner@example.com');
    await removeMember(deps, w.as('owner'), { organization_id: w.organizationId, user_id: w.members.admin.userId });
    expect((await getInvitation(deps, sha256Hex(token)))?.status).toBe('revoked');
    expect((await listInvitations(deps, w.as('owner'), { organization_id: w.organizationId })).invitations.map((i) => i.invitation_id)).not.toContain(invitation.invitation_id);
    await expectConsoleError(peekInvitation(deps, token), 'invitation_expired', 410);
    await expectConsoleError(
      signUpWithInvitation(deps, { clientAddress: '192.0.2.10', userAgent: 'test', requestId: 'req_signup' }, { email: 'joiner@example.com', password: 'long enough password', name: 'Joiner', invitation_token: token }, plainPasswords),
      'invitation_expired',
      410,
    );
    const user = await createUser(deps, { email: 'joiner@example.com', name: 'Joiner' });
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token }), 'invitation_expired', 410);
    expect(await getMembership(deps, w.organizationId, user.userId)).toBeUndefined();
  });

  it('is revoked when its creator is demoted to a role that cannot grant it; what the new role may grant stays', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    const ownerRole = await createInvitation(deps, w.as('secondOwner'), { organization_id: w.organizationId, email: 'o@example.com', role: 'owner' }, BASE_URL);
    const adminRole = await createInvitation(deps, w.as('secondOwner'), { organization_id: w.organizationId, email: 'a@example.com', role: 'admin' }, BASE_URL);
    const byAnother = await createInvitation(deps, w.as('owner'), { organization_id: w.organizationId, email: 'b@example.com', role: 'owner' }, BASE_URL);
    await updateMember(deps, w.as('owner'), { organization_id: w.organizationId, user_id: w.members.secondOwner.userId, role: 'admin' });
    expect((await getInvitation(deps, sha256Hex(tokenOf(ownerRole.invitation_url))))?.status).toBe('revoked');
    expect((await getInvitation(deps, sha256Hex(tokenOf(adminRole.invitation_url))))?.status).toBe('pending');
    expect((await getInvitation(deps, sha256Hex(tokenOf(byAnother.invitation_url))))?.status).toBe('pending');
    // Down to developer, who may invite nobody: the rest goes too.
    await updateMember(deps, w.as('owner'), { organization_id: w.organizationId, user_id: w.members.secondOwner.userId, role: 'developer' });
    expect((await getInvitation(deps, sha256Hex(tokenOf(adminRole.invitation_url))))?.status).toBe('revoked');
    expect((await listInvitations(deps, w.as('owner'), { organization_id: w.organizationId })).invitations.map((i) => i.invitation_id)).toEqual([byAnother.invitation_id]);
  });

  it('is checked against its creator when opened, listed and accepted, even when no revocation reached it (a race with the demotion)', async () => {
    const { deps, w, invitation, token } = await invited('admin', 'racer@example.com');
    const user = await createUser(deps, { email: 'racer@example.com', name: 'Racer' });
    // The demotion as a concurrent request would leave it: the membership changed, the invitation untouched.
    expect(await changeMemberRole(deps, w.organizationId, w.members.admin.userId, 'admin', 'developer')).toBe('done');
    expect((await getInvitation(deps, sha256Hex(token)))?.status).toBe('pending');
    expect((await listInvitations(deps, w.as('owner'), { organization_id: w.organizationId })).invitations.map((i) => i.invitation_id)).not.toContain(invitation.invitation_id);
    await expectConsoleError(peekInvitation(deps, token), 'invitation_expired', 410);
    await expectConsoleError(acceptInvitation(deps, actorOf(user), { token }), 'invitation_expired', 410);
    // Promoted back, the creator may grant it again: it works (nothing revoked it).
    expect(await changeMemberRole(deps, w.organizationId, w.members.admin.userId, 'developer', 'admin')).toBe('done');
    await expect(acceptInvitation(deps, actorOf(user), { token })).resolves.toMatchObject({ role: 'admin', joined: true });
  });

  it('is refused in the acceptance itself when the creator leaves between the check and the write', async () => {
    const { deps, w, token } = await invited('admin', 'late@example.com');
    const user = await createUser(deps, { email: 'late@example.com', name: 'Late' });
    const inv = (await getInvitation(deps, sha256Hex(token)))!;
    // The creator is removed after the invitation was read as open: the transaction's condition still holds the line.
    expect(await deleteMembership(deps, w.organizationId, w.members.admin.userId, 'admin')).toBe('done');
    expect(await spendInvitation(deps, inv, user.userId, deps.clock.now(), ['admin', 'owner'])).toBe('spent');
    expect(await getMembership(deps, w.organizationId, user.userId)).toBeUndefined();
    expect((await getInvitation(deps, sha256Hex(token)))?.status).toBe('pending');
  });
});
