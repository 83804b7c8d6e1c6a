// Members against DynamoDB Local: roles change within the permission table's rules, and an
// organisation never loses its last owner, however the changes race (the owner count's condition,
// in the same transaction as the membership write).
import { listMembers, removeMember, updateMember } from '../../functions/app/console/members';
import { createOrganization } from '../../functions/app/console/organizations';
import { getMembership, listMembers as membersOf, ownerCount } from '../../functions/data/console-repo';
import { embeddedDeps } from '../support/embedded';
import { actorOf, addMember, consoleWorld, expectConsoleError, newUser, rejectionOf } from './console-fixtures';

async function soleOwnerOrg() {
  const deps = await embeddedDeps();
  const owner = await newUser(deps, 'owner');
  const org = await createOrganization(deps, actorOf(owner), { name: 'Solo' });
  return { deps, owner, organizationId: org.organization_id };
}

describe('listing members', () => {
  it('shows every member with e-mail, name and role, to any member', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    const { members } = await listMembers(deps, w.as('viewer'), { organization_id: w.organizationId });
    expect(members.map((m) => [m.email, m.role]).sort()).toEqual(
      [
        [w.members.owner.email, 'owner'],
        [w.members.secondOwner.email, 'owner'],
        [w.members.admin.email, 'admin'],
        [w.members.developer.email, 'developer'],
        [w.members.viewer.email, 'viewer'],
      ].sort(),
    );
    expect(members.find((m) => m.user_id === w.members.admin.userId)).toMatchObject({ name: w.members.admin.name, joined_at: expect.any(String) });
  });
});

describe('changing roles', () => {
  it('lets an admin promote a developer to admin and demote an admin, but not grant or touch the owner role', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    const id = w.organizationId;
    await updateMember(deps, w.as('admin'), { organization_id: id, user_id: w.members.developer.userId, role: 'admin' });
    expect((await getMembership(deps, id, w.members.developer.userId))?.role).toBe('admin');
    await updateMember(deps, w.as('admin'), { organization_id: id, user_id: w.members.developer.userId, role: 'viewer' });
    expect((await getMembership(deps, id, w.members.developer.userId))?.role).toBe('viewer');
    await expectConsoleError(updateMember(deps, w.as('admin'), { organization_id: id, user_id: w.members.viewer.userId, role: 'owner' }), 'role_forbidden', 403);
    await expectConsoleError(updateMember(deps, w.as('admin'), { organization_id: id, user_id: w.members.owner.userId, role: 'viewer' }), 'role_forbidden', 403);
    await expectConsoleError(removeMember(deps, w.as('admin'), { organization_id: id, user_id: w.members.owner.userId }), 'role_forbidden', 403);
    expect(await ownerCount(deps, id)).toBe(2);
  });

  it('lets an owner grant the owner role, counting owners as it does', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    await updateMember(deps, w.as('owner'), { organization_id: w.organizationId, user_id: w.members.viewer.userId, role: 'owner' });
    expect(await ownerCount(deps, w.organizationId)).toBe(3);
    await updateMember(deps, w.as('owner'), { organization_id: w.organizationId, user_id: w.members.secondOwner.userId, role: 'developer' });
    expect(await ownerCount(deps, w.organizationId)).toBe(2);
  });

  it('answers member_not_found for a user who is not a member', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    await expectConsoleError(updateMember(deps, w.as('admin'), { organization_id: w.organizationId, user_id: w.stranger.userId, role: 'viewer' }), 'member_not_found', 404);
    await expectConsoleError(removeMember(deps, w.as('admin'), { organization_id: w.organizationId, user_id: w.stranger.userId }), 'member_not_found', 404);
  });
});

describe('the last owner', () => {
  it('cannot demote themself, leave, or be removed: 409 last_owner, and nothing changes', async () => {
    const { deps, owner, organizationId } = await soleOwnerOrg();
    await expectConsoleError(updateMember(deps, actorOf(owner), { organization_id: organizationId, user_id: owner.userId, role: 'admin' }), 'last_owner', 409);
    await expectConsoleError(removeMember(deps, actorOf(owner), { organization_id: organizationId, user_id: owner.userId }), 'last_owner', 409);
    expect((await getMembership(deps, organizationId, owner.userId))?.role).toBe('owner');
    expect(await ownerCount(deps, organizationId)).toBe(1);
  });

  it('can leave once another owner exists, and the other is then the last one', async () => {
    const { deps, owner, organizationId } = await soleOwnerOrg();
    const other = await newUser(deps, 'other');
    await addMember(deps, owner, organizationId, other, 'owner');
    await removeMember(deps, actorOf(owner), { organization_id: organizationId, user_id: owner.userId });
    expect((await membersOf(deps, organizationId)).map((m) => m.userId)).toEqual([other.userId]);
    await expectConsoleError(removeMember(deps, actorOf(other), { organization_id: organizationId, user_id: other.userId }), 'last_owner', 409);
  });

  it('survives two owners demoting each other at the same instant: exactly one change wins', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { deps, owner, organizationId } = await soleOwnerOrg();
      const other = await newUser(deps, 'other');
      await addMember(deps, owner, organizationId, other, 'owner');
      const results = await Promise.allSettled([
        updateMember(deps, actorOf(owner), { organization_id: organizationId, user_id: other.userId, role: 'admin' }),
        updateMember(deps, actorOf(other), { organization_id: organizationId, user_id: owner.userId, role: 'admin' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      // The loser is either the last owner now (409), or no longer an owner and so no longer allowed (403).
      expect(['last_owner', 'role_forbidden']).toContain(refused?.reason.code);
      const roles = (await membersOf(deps, organizationId)).map((m) => m.role).sort();
      expect(roles).toEqual(['admin', 'owner']);
      expect(await ownerCount(deps, organizationId)).toBe(1);
    }
  });

  it('survives all owners leaving at once: exactly one owner stays', async () => {
    const { deps, owner, organizationId } = await soleOwnerOrg();
    const others = [await newUser(deps, 'o2'), await newUser(deps, 'o3'), await newUser(deps, 'o4')];
    for (const u of others) await addMember(deps, owner, organizationId, u, 'owner');
    const everyone = [owner, ...others];
    const results = await Promise.allSettled(everyone.map((u) => removeMember(deps, actorOf(u), { organization_id: organizationId, user_id: u.userId })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['last_owner']);
    expect((await membersOf(deps, organizationId)).map((m) => m.role)).toEqual(['owner']);
    expect(await ownerCount(deps, organizationId)).toBe(1);
  });
});

describe('leaving', () => {
  it('lets a viewer leave, after which the organisation is not found for them', async () => {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    await removeMember(deps, w.as('viewer'), { organization_id: w.organizationId, user_id: w.members.viewer.userId });
    const err = await rejectionOf(listMembers(deps, w.as('viewer'), { organization_id: w.organizationId }));
    expect(err).toMatchObject({ code: 'organization_not_found', status: 404 });
  });
});
