// Creating an organisation (any signed-in user; they become its owner), and its settings page,
// where an owner deletes it after typing its name.
import { useState, type FormEvent } from 'react';
import { callConsole } from '../api';
import { ActionButton, Button, ConfirmDialog, ErrorNotice, Field, PageTitle, useAction, useAnnounce } from '../components/ui';
import { roleLabel } from '../format';
import { permission } from '../permissions';
import { href, navigate } from '../route';
import { membershipOf, useSession } from '../session';
import type { OrganizationView } from '../types';

export function NewOrganizationPage() {
  const { session, refresh } = useSession();
  const announce = useAnnounce();
  const [name, setName] = useState('');
  const create = useAction(() => callConsole<OrganizationView>('console.orgs.create', { name: name.trim() }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (create.busy) return;
    const outcome = await create.execute();
    if (!outcome.ok) return;
    const organization = outcome.value;
    await refresh();
    announce(`Organisation ${organization.name} created.`);
    navigate(href.applications(organization.organization_id));
  };
  return (
    <>
      <PageTitle title="Create an organisation" />
      {session.organizations.length === 0 ? (
        <p>You are not a member of any organisation yet. Create one (you will be its owner), or open an invitation link someone sent you.</p>
      ) : (
        <p>You will be the owner of the new organisation. Applications and their keys belong to an organisation.</p>
      )}
      <form onSubmit={submit} className="stack form-card" noValidate>
        <Field label="Organisation name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <div>
          <Button type="submit" variant="primary" aria-disabled={create.busy ? true : undefined}>
            Create organisation
          </Button>
        </div>
      </form>
    </>
  );
}

export function SettingsPage({ org }: { org: string }) {
  const { session, refresh } = useSession();
  const announce = useAnnounce();
  const membership = membershipOf(session, org);
  const role = membership?.role ?? null;
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useAction(() => callConsole('console.orgs.delete', { organization_id: org, confirm_name: typed }));
  const confirm = async () => {
    if (remove.busy) return;
    const outcome = await remove.execute();
    if (!outcome.ok) return;
    setConfirming(false);
    await refresh();
    announce(`Organisation ${membership?.name ?? ''} deleted.`);
    navigate(href.home());
  };
  return (
    <>
      <PageTitle title="Settings" context={membership?.name} />
      <dl className="details">
        <dt>Organisation</dt>
        <dd>{membership?.name}</dd>
        <dt>Organisation ID</dt>
        <dd>
          <code>{org}</code>
        </dd>
        <dt>Your role</dt>
        <dd>{roleLabel(role)}</dd>
      </dl>
      <section aria-labelledby="danger-zone" className="danger-zone">
        <h2 id="danger-zone">Delete the organisation</h2>
        <p>
          Deleting revokes every key of the organisation&apos;s applications and removes its members and invitations. It cannot be undone. An
          organisation whose applications still have items cannot be deleted: remove the items through the API first.
        </p>
        <ActionButton variant="danger" permission={permission(role, 'console.orgs.delete')} onClick={() => setConfirming(true)}>
          Delete organisation
        </ActionButton>
      </section>
      <ConfirmDialog
        open={confirming}
        title="Delete this organisation?"
        description={`Type the organisation's name, ${membership?.name ?? ''}, to confirm.`}
        confirmLabel="Delete organisation"
        danger
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => void confirm()}
        onClose={() => {
          setConfirming(false);
          remove.clearError();
        }}
      >
        <Field label="Organisation name" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
      </ConfirmDialog>
    </>
  );
}
