// Organisations against DynamoDB Local: creating one makes its creator the only owner; deleting one
// (owner only, confirm_name) is refused while an application still has items, and otherwise revokes
// every key, detaches the applications and removes invitations and memberships.
import { GetCommand } from '../../functions/platform/aws/dynamodb';
import { createApplication } from '../../functions/app/console/applications';
import { createInvitation, peekInvitation } from '../../functions/app/console/invitations';
import { createKey } from '../../functions/app/console/keys';
import { listMembers } from '../../functions/app/console/members';
import { createOrganization, deleteOrganization, listMyOrganizations } from '../../functions/app/console/organizations';
import { CreateOrganizationInput } from '../../functions/contracts/console-schemas';
import { ApiError } from '../../functions/contracts/errors';
import { authorizeAndMeter, getApplication, listApplicationsOf } from '../../functions/data/api-keys-repo';
import { deleteInvitationsAndMembers, listAuditEntries, listInvitations, listMembers as membersOf, ownerCount } from '../../functions/data/console-repo';
import { keys } from '../../functions/data/keys';
import { createTestItem, embeddedDeps } from '../support/embedded';
import { actorOf, BASE_URL, consoleWorld, expectConsoleError, newUser, parseInput, rejectionOf, tableRows, tokenOf } from './console-fixtures';

describe('creating an organisation', () => {
  it('makes the creator its only owner, counts one owner, lists it among theirs, and audits it', async () => {
    const deps = await embeddedDeps();
    const user = await newUser(deps, 'founder');
    const actor = actorOf(user);
    const org = await createOrganization(deps, actor, parseInput(CreateOrganizationInput, { name: '  Acme  ' }));
    expect(org).toMatchObject({ organization_id: expect.stringMatching(/^org_[0-9a-f]{16}$/), name: 'Acme', role: 'owner' });
    expect((await membersOf(deps, org.organization_id)).map((m) => [m.userId, m.role])).toEqual([[user.userId, 'owner']]);
    expect(await ownerCount(deps, org.organization_id)).toBe(1);
    expect(await listMyOrganizations(deps, actor)).toEqual([{ organization_id: org.organization_id, name: 'Acme', role: 'owner', created_at: org.created_at }]);
    const audit = await listAuditEntries(deps, org.organization_id, { from: '2000', to: '3000', limit: 10 });
    expect(audit.entries).toEqual([expect.objectContaining({ action: 'console.orgs.create', outcome: 'allowed', userId: user.userId, requestId: actor.requestId })]);
  });

  it('lists only the organisations the user belongs to, with the role in each', async () => {
    const deps = await embeddedDeps();
    const a = await consoleWorld(deps);
    const b = await consoleWorld(deps);
    expect((await listMyOrganizations(deps, a.as('developer'))).map((o) => [o.organization_id, o.role])).toEqual([[a.organizationId, 'developer']]);
    expect(await listMyOrganizations(deps, b.as('stranger'))).toEqual([]);
  });
});

describe('deleting an organisation', () => {
  async function populated() {
    const deps = await embeddedDeps();
    const w = await consoleWorld(deps);
    const app = await createApplication(deps, w.as('owner'), { organization_id: w.organizationId, name: 'Prod', plan: 'startup' });
    const testKey = await createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'test' });
    const liveKey = await createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'live' });
    const invitation = await createInvitation(deps, w.as('admin'), { organization_id: w.organizationId, email: 'later@example.com', role: 'viewer' }, BASE_URL);
    return { deps, w, app, testKey, liveKey, invitation };
  }

  it('needs confirm_name to be the name exactly: a wrong one answers 400 and deletes nothing', async () => {
    const { deps, w } = await populated();
    const before = await tableRows(deps);
    const err = await rejectionOf(deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name.toLowerCase() }));
    expect(err).toBeInstanceOf(ApiError);
    expect({ code: (err as ApiError).code, status: (err as ApiError).status }).toEqual({ code: 'invalid_field', status: 400 });
    // Only the audit row of the (allowed) attempt is new.
    const added = (await tableRows(deps)).filter((row) => !before.includes(row));
    expect(added.map((row) => JSON.parse(row).action)).toEqual(['console.orgs.delete']);
  });

  it('is refused with 409 organization_not_empty while an application has items (test or live), and deletes nothing', async () => {
    const { deps, w, app, testKey } = await populated();
    await createTestItem(deps, 'item_still_here', { applicationId: app.application_id, environment: 'live' });
    const before = await tableRows(deps);
    await expectConsoleError(deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name }), 'organization_not_empty', 409);
    expect((await tableRows(deps)).filter((row) => !before.includes(row)).map((row) => JSON.parse(row).pk)).toEqual([`AUDIT#${w.organizationId}`]);
    await expect(authorizeAndMeter(deps, testKey.key, 'api')).resolves.toMatchObject({ applicationId: app.application_id });
  });

  it('revokes every key, detaches the applications, removes invitations, memberships and the organisation', async () => {
    const { deps, w, app, testKey, liveKey, invitation } = await populated();
    const result = await deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name });
    expect(result).toEqual({ organization_id: w.organizationId, deleted: true, revoked_keys: 2, detached_applications: 1 });
    for (const key of [testKey.key, liveKey.key]) await expect(authorizeAndMeter(deps, key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
    expect(await listApplicationsOf(deps, w.organizationId)).toEqual([]);
    expect(await getApplication(deps, app.application_id)).toMatchObject({ organizationId: null });
    expect(await membersOf(deps, w.organizationId)).toEqual([]);
    expect(await listInvitations(deps, w.organizationId)).toEqual([]);
    await expect(peekInvitation(deps, tokenOf(invitation.invitation_url))).rejects.toMatchObject({ code: 'invitation_expired' });
    const rows = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.organization(w.organizationId), ConsistentRead: true }));
    expect(rows.Item).toBeUndefined();
    expect(await ownerCount(deps, w.organizationId)).toBe(0);
    // Former members see nothing of it any more; the audit log stays (until its TTL).
    expect(await listMyOrganizations(deps, w.as('admin'))).toEqual([]);
    await expectConsoleError(listMembers(deps, w.as('owner'), { organization_id: w.organizationId }), 'organization_not_found', 404);
    await expectConsoleError(createKey(deps, w.as('owner'), { application_id: app.application_id, environment: 'test' }), 'application_not_found', 404);
    const audit = await listAuditEntries(deps, w.organizationId, { from: '2000', to: '3000', limit: 100 });
    expect(audit.entries.filter((e) => e.action === 'console.orgs.delete').map((e) => [e.outcome, e.userId])).toEqual([['allowed', w.members.owner.userId]]);
  });

  it('can be run again by the same owner after stopping part-way (members and invitations gone, the organisation not yet)', async () => {
    const { deps, w, testKey } = await populated();
    // What a delete that stopped before its last step leaves: the deleting owner's membership and the organisation.
    await deleteInvitationsAndMembers(deps, w.organizationId, w.members.owner.userId);
    const again = await deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name });
    expect(again).toMatchObject({ deleted: true, revoked_keys: 2 });
    await expect(authorizeAndMeter(deps, testKey.key, 'api')).rejects.toMatchObject({ code: 'revoked_api_key' });
    await expectConsoleError(deleteOrganization(deps, w.as('owner'), { organization_id: w.organizationId, confirm_name: w.name }), 'organization_not_found', 404);
  });
});
