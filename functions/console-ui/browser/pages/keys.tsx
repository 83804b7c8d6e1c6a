// API keys of one application and environment. The spec's rule is one active secret key per
// application and environment: creating a key revokes the current one, and the page says so
// before it happens. A new key is shown once, in a dialog, and never again (only its prefix and
// last four characters are stored in a showable form).
import { useState } from 'react';
import { PLANS, type PlanName } from '../../../contracts/limits';
import { callConsole } from '../api';
import {
  ActionButton,
  Button,
  ConfirmDialog,
  EmptyState,
  ErrorNotice,
  Loading,
  Modal,
  ShownOnce,
  StatusBadge,
  TableScroll,
  Time,
  useAction,
  useAnnounce,
  useLoad,
} from '../components/ui';
import { environmentLabel } from '../format';
import { permission, type UiPermission } from '../permissions';
import type { CreatedKey, KeyView } from '../types';
import type { SectionProps } from './section';

function planAllowsLive(app: SectionProps['app']): boolean {
  if (app.live_access !== undefined) return app.live_access;
  return app.plan in PLANS ? PLANS[app.plan as PlanName].liveAccess : true;
}

export function KeysSection({ app, env, role }: SectionProps) {
  const announce = useAnnounce();
  const scope = { application_id: app.application_id, environment: env };
  const keys = useLoad(() => callConsole<{ keys: KeyView[] }>('console.keys.list', scope).then((a) => a.keys), [app.application_id, env]);
  const active = keys.data?.find((k) => k.status === 'active');
  const [confirmingCreate, setConfirmingCreate] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<KeyView | null>(null);

  let canCreate: UiPermission = permission(role, 'console.keys.create', { environment: env });
  if (canCreate.allowed && env === 'live' && !planAllowsLive(app)) {
    canCreate = { allowed: false, why: `The ${app.plan} plan has no live access; an admin can change the plan.` };
  }

  const create = useAction(() => callConsole<CreatedKey>('console.keys.create', scope));
  const revoke = useAction((key: KeyView) => callConsole('console.keys.revoke', { application_id: app.application_id, key_id: key.key_id }));

  const runCreate = async () => {
    if (create.busy) return;
    const outcome = await create.execute();
    setConfirmingCreate(false);
    if (!outcome.ok) return;
    setCreated(outcome.value);
    announce(`New ${env} key created. It is shown once.`);
    keys.reload();
  };
  const runRevoke = async () => {
    if (!revoking || revoke.busy) return;
    const outcome = await revoke.execute(revoking);
    if (!outcome.ok) return;
    announce(`Key ${revoking.display} revoked.`);
    setRevoking(null);
    keys.reload();
  };

  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">{environmentLabel(env)} keys</h2>
      <p>
        An application has one active secret key per environment. Creating a key revokes the current one immediately: requests with the old key
        are refused from then on.
      </p>
      <div className="toolbar">
        <ActionButton
          variant="primary"
          permission={canCreate}
          busy={create.busy}
          onClick={() => {
            create.clearError();
            if (active) setConfirmingCreate(true);
            else void runCreate();
          }}
        >
          Create {env} key
        </ActionButton>
      </div>
      {create.error && !confirmingCreate ? <ErrorNotice error={create.error} /> : null}
      {keys.state === 'failed' ? <ErrorNotice error={keys.error} /> : null}
      {keys.data === null ? (
        keys.state === 'loading' ? <Loading what="keys" /> : null
      ) : keys.data.length === 0 ? (
        <EmptyState>No {env} keys yet.</EmptyState>
      ) : (
        <TableScroll label="Keys">
          <table>
            <caption className="visually-hidden">{environmentLabel(env)} keys</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.key_id}>
                  <th scope="row">
                    <code className="nowrap">{key.display}</code>
                  </th>
                  <td>
                    <StatusBadge status={key.status} />
                  </td>
                  <td>
                    <Time iso={key.created_at} />
                  </td>
                  <td>{key.last_used_at ? <Time iso={key.last_used_at} /> : 'Never'}</td>
                  <td>
                    {key.status === 'active' ? (
                      <ActionButton
                        variant="danger"
                        permission={permission(role, 'console.keys.revoke', { environment: env })}
                        onClick={() => {
                          revoke.clearError();
                          setRevoking(key);
                        }}
                      >
                        Revoke<span className="visually-hidden"> key {key.display}</span>
                      </ActionButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}

      <ConfirmDialog
        open={confirmingCreate}
        title={`Create a new ${env} key?`}
        description={`The current ${env} key${active ? ` ${active.display}` : ''} is revoked as soon as the new one exists. Update your application with the new key right away.`}
        confirmLabel={`Create and revoke the current key`}
        busy={create.busy}
        error={create.error}
        onConfirm={() => void runCreate()}
        onClose={() => setConfirmingCreate(false)}
      />
      <Modal title={`Your new ${env} key`} open={created !== null} onClose={() => setCreated(null)}>
        {created ? (
          <ShownOnce
            label={`${environmentLabel(env)} secret key`}
            value={created.key}
            warning="Copy the key now and keep it in a secret store. It will not be shown again: if it is lost, create a new key."
          />
        ) : null}
        <div className="dialog-actions">
          <Button variant="primary" onClick={() => setCreated(null)}>
            I have stored the key
          </Button>
        </div>
      </Modal>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this key?"
        description={`Requests with ${revoking?.display ?? 'this key'} are refused from now on. This cannot be undone.`}
        confirmLabel="Revoke key"
        danger
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => void runRevoke()}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
