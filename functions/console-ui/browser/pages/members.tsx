// Members of an organisation and its invitations. Each member has one role; only owners grant or
// change the owner role, admins manage admins, developers and viewers, anyone may leave (the last
// owner excepted: the server answers 409 last_owner). An invitation is a link with an expiry,
// shown once when created.
import { useState, type FormEvent } from 'react';
import { CONSOLE_ROLES } from '../../../core/console-permissions';
import { callConsole } from '../api';
import {
  ActionButton,
  Button,
  ConfirmDialog,
  EmptyState,
  ErrorNotice,
  Field,
  Loading,
  Modal,
  PageTitle,
  SelectField,
  ShownOnce,
  TableScroll,
  Time,
  useAction,
  useAnnounce,
  useLoad,
} from '../components/ui';
import { formatDateTime, roleLabel } from '../format';
import { permission } from '../permissions';
import { href, navigate } from '../route';
import { membershipOf, useSession } from '../session';
import type { ConsoleRole, CreatedInvitation, InvitationView, MemberView } from '../types';

const ROLE_OPTIONS = [...CONSOLE_ROLES].reverse().map((role) => ({ value: role, label: roleLabel(role) }));

function MemberRow({ org, member, role, self, onChanged, onRemove }: { org: string; member: MemberView; role: ConsoleRole | null; self: boolean; onChanged: () => void; onRemove: (m: MemberView) => void }) {
  const announce = useAnnounce();
  const [chosen, setChosen] = useState<string>(member.role);
  const update = useAction(() => callConsole('console.members.update', { organization_id: org, user_id: member.user_id, role: chosen }));
  const canChange = permission(role, 'console.members.update', { memberRole: member.role, grantedRole: chosen as ConsoleRole });
  const canRemove = permission(role, 'console.members.remove', self ? { self: true } : { memberRole: member.role });
  const who = member.email ?? member.user_id;
  const change = async () => {
    if (update.busy || chosen === member.role) return;
    const outcome = await update.execute();
    if (!outcome.ok) return;
    announce(`${who} is now ${roleLabel(chosen as ConsoleRole).toLowerCase()}.`);
    onChanged();
  };
  return (
    <tr data-member={who}>
      <th scope="row">
        {member.name || who}
        {self ? <span className="muted"> (you)</span> : null}
        <br />
        <span className="muted">{who}</span>
      </th>
      <td>
        <div className="inline-form">
          <SelectField label={`Role of ${who}`} hideLabel value={chosen} onChange={setChosen} options={ROLE_OPTIONS} />
          <ActionButton permission={chosen === member.role ? { allowed: true } : canChange} busy={update.busy} onClick={() => void change()}>
            Change role<span className="visually-hidden"> of {who}</span>
          </ActionButton>
        </div>
        {update.error ? <ErrorNotice error={update.error} /> : null}
      </td>
      <td>{member.joined_at ? <Time iso={member.joined_at} /> : '—'}</td>
      <td>
        <ActionButton variant="danger" permission={canRemove} onClick={() => onRemove(member)}>
          {self ? 'Leave organisation' : 'Remove'}
          {self ? null : <span className="visually-hidden"> {who}</span>}
        </ActionButton>
      </td>
    </tr>
  );
}

export function MembersPage({ org }: { org: string }) {
  const { session, refresh } = useSession();
  const membership = membershipOf(session, org);
  const role = membership?.role ?? null;
  const announce = useAnnounce();
  const members = useLoad(() => callConsole<{ members: MemberView[] }>('console.members.list', { organization_id: org }).then((a) => a.members), [org]);
  const [removing, setRemoving] = useState<MemberView | null>(null);
  const remove = useAction((m: MemberView) => callConsole('console.members.remove', { organization_id: org, user_id: m.user_id }));
  const confirmRemove = async () => {
    if (!removing || remove.busy) return;
    const outcome = await remove.execute(removing);
    if (!outcome.ok) return;
    const self = removing.user_id === session.user.user_id;
    announce(self ? `You left ${membership?.name ?? 'the organisation'}.` : `${removing.email ?? removing.user_id} removed.`);
    setRemoving(null);
    if (self) {
      await refresh();
      navigate(href.home());
    } else {
      members.reload();
    }
  };
  return (
    <>
      <PageTitle title="Members" context={membership?.name} />
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members</h2>
        {members.state === 'failed' ? <ErrorNotice error={members.error} /> : null}
        {members.data === null ? (
          members.state === 'loading' ? <Loading what="members" /> : null
        ) : (
          <TableScroll label="Members">
            <table>
              <caption className="visually-hidden">Members of {membership?.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {members.data.map((m) => (
                  <MemberRow
                    key={`${m.user_id}-${m.role}`}
                    org={org}
                    member={m}
                    role={role}
                    self={m.user_id === session.user.user_id}
                    onChanged={() => {
                      members.reload();
                      if (m.user_id === session.user.user_id) void refresh();
                    }}
                    onRemove={(member) => {
                      remove.clearError();
                      setRemoving(member);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <Invitations org={org} role={role} />
      <ConfirmDialog
        open={removing !== null}
        title={removing?.user_id === session.user.user_id ? 'Leave this organisation?' : 'Remove this member?'}
        description={
          removing?.user_id === session.user.user_id
            ? 'You lose access to its applications until someone invites you again.'
            : `${removing?.email ?? 'The member'} loses access to the organisation's applications at once.`
        }
        confirmLabel={removing?.user_id === session.user.user_id ? 'Leave' : 'Remove member'}
        danger
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

function Invitations({ org, role }: { org: string; role: ConsoleRole | null }) {
  const announce = useAnnounce();
  const canList = permission(role, 'console.invitations.list');
  const invitations = useLoad(async () => {
    if (!canList.allowed) return null;
    return (await callConsole<{ invitations: InvitationView[] }>('console.invitations.list', { organization_id: org })).invitations;
  }, [org, canList.allowed]);
  const [email, setEmail] = useState('');
  const [invitedRole, setInvitedRole] = useState<string>('developer');
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const canInvite = permission(role, 'console.invitations.create', { grantedRole: invitedRole as ConsoleRole });
  const create = useAction(() => callConsole<CreatedInvitation>('console.invitations.create', { organization_id: org, email: email.trim(), role: invitedRole }));
  const revoke = useAction((inv: InvitationView) => callConsole('console.invitations.revoke', { organization_id: org, invitation_id: inv.invitation_id }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canInvite.allowed || create.busy) return;
    const outcome = await create.execute();
    if (!outcome.ok) return;
    setCreated(outcome.value);
    setEmail('');
    announce('Invitation created. Its link is shown once.');
    invitations.reload();
  };
  const runRevoke = async (inv: InvitationView) => {
    if (revoke.busy) return;
    const outcome = await revoke.execute(inv);
    if (!outcome.ok) return;
    announce(`Invitation for ${inv.email} revoked.`);
    invitations.reload();
  };

  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <form onSubmit={submit} className="stack form-card" noValidate>
        <h3>Invite someone</h3>
        <p className="hint">The invitation is a link, valid 7 days, for this e-mail address only: send it yourself.</p>
        <Field label="E-mail address" type="email" autoComplete="off" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <SelectField label="Role" value={invitedRole} onChange={setInvitedRole} options={ROLE_OPTIONS} />
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <div>
          <ActionButton type="submit" variant="primary" permission={canInvite} busy={create.busy}>
            Create invitation
          </ActionButton>
        </div>
      </form>
      <h3>Pending invitations</h3>
      {!canList.allowed ? <p className="role-hint">{canList.why}</p> : null}
      {invitations.state === 'failed' ? <ErrorNotice error={invitations.error} /> : null}
      {revoke.error ? <ErrorNotice error={revoke.error} /> : null}
      {invitations.data === null ? (
        invitations.state === 'loading' && canList.allowed ? <Loading what="invitations" /> : null
      ) : invitations.data.length === 0 ? (
        <EmptyState>No pending invitations.</EmptyState>
      ) : (
        <TableScroll label="Invitations">
          <table>
            <caption className="visually-hidden">Invitations</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Invited</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {invitations.data.map((inv) => (
                <tr key={inv.invitation_id}>
                  <th scope="row">{inv.email}</th>
                  <td>{roleLabel(inv.role)}</td>
                  <td>
                    <Time iso={inv.created_at} />
                  </td>
                  <td>
                    <Time iso={inv.expires_at} />
                  </td>
                  <td>
                    <ActionButton permission={permission(role, 'console.invitations.revoke', { grantedRole: inv.role })} busy={revoke.busy} onClick={() => void runRevoke(inv)}>
                      Revoke<span className="visually-hidden"> invitation for {inv.email}</span>
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Modal title="Invitation link" open={created !== null} onClose={() => setCreated(null)}>
        {created ? (
          <>
            <ShownOnce
              label="Invitation link"
              value={created.invitation_url}
              warning={`Send this link to the person you invite. It works once, until ${formatDateTime(created.expires_at)}, and will not be shown again.`}
            />
          </>
        ) : null}
        <div className="dialog-actions">
          <Button variant="primary" onClick={() => setCreated(null)}>
            Done
          </Button>
        </div>
      </Modal>
    </section>
  );
}
