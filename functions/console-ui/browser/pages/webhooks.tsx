// Webhooks of one application and environment: endpoints (the environment's signing secret is
// shown once, when the first endpoint creates it), the secret's rotation with a grace period (the
// new secret shown once), and the delivery log with every attempt, dead letters, and replay.
import { useState, type FormEvent } from 'react';
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
  SelectField,
  ShownOnce,
  StatusBadge,
  TableScroll,
  Time,
  useAction,
  useAnnounce,
  useLoad,
} from '../components/ui';
import { formatDateTime } from '../format';
import { permission } from '../permissions';
import type { CreatedEndpoint, DeliveryPage, RotatedSecret, WebhookDeliveryView, WebhookEndpointView } from '../types';
import type { SectionProps } from './section';

interface OnceSecret {
  title: string;
  secret: string;
  note?: string;
}

export function WebhooksSection(props: SectionProps) {
  const [secret, setSecret] = useState<OnceSecret | null>(null);
  return (
    <>
      <EndpointsPart {...props} onSecret={setSecret} />
      <SecretPart {...props} onSecret={setSecret} />
      <DeliveriesPart {...props} />
      <Modal title={secret?.title ?? 'Signing secret'} open={secret !== null} onClose={() => setSecret(null)}>
        {secret ? (
          <>
            <ShownOnce
              label="Signing secret"
              value={secret.secret}
              warning="Store the secret where your webhook receiver can read it: it verifies the FC-Signature header of every delivery. It will not be shown again."
            />
            {secret.note ? <p>{secret.note}</p> : null}
          </>
        ) : null}
        <div className="dialog-actions">
          <Button variant="primary" onClick={() => setSecret(null)}>
            I have stored the secret
          </Button>
        </div>
      </Modal>
    </>
  );
}

function EndpointsPart({ app, env, role, onSecret }: SectionProps & { onSecret: (s: OnceSecret) => void }) {
  const announce = useAnnounce();
  const scope = { application_id: app.application_id, environment: env };
  const endpoints = useLoad(
    () => callConsole<{ endpoints: WebhookEndpointView[] }>('console.webhooks.endpoints.list', scope).then((a) => a.endpoints),
    [app.application_id, env],
  );
  const [url, setUrl] = useState('');
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const canCreate = permission(role, 'console.webhooks.endpoints.create');
  const create = useAction(() => callConsole<CreatedEndpoint>('console.webhooks.endpoints.create', { ...scope, url: url.trim() }));
  const remove = useAction((endpoint: WebhookEndpointView) => callConsole('console.webhooks.endpoints.delete', { ...scope, endpoint_id: endpoint.endpoint_id }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canCreate.allowed || create.busy) return;
    const outcome = await create.execute();
    if (!outcome.ok) return;
    const { endpoint, created, secret } = outcome.value;
    setUrl('');
    announce(created ? `Endpoint ${endpoint.url} added.` : `${endpoint.url} was already registered.`);
    endpoints.reload();
    if (secret) onSecret({ title: 'Your signing secret', secret, note: `The ${env} environment had no signing secret yet: adding this endpoint created it.` });
  };
  const confirmDelete = async () => {
    if (!deleting || remove.busy) return;
    const outcome = await remove.execute(deleting);
    if (!outcome.ok) return;
    announce(`Endpoint ${deleting.url} deleted.`);
    setDeleting(null);
    endpoints.reload();
  };

  return (
    <section aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">Endpoints</h2>
      {endpoints.state === 'failed' ? <ErrorNotice error={endpoints.error} /> : null}
      {endpoints.data === null ? (
        endpoints.state === 'loading' ? <Loading what="endpoints" /> : null
      ) : endpoints.data.length === 0 ? (
        <EmptyState>No endpoints yet: events of this environment are not sent anywhere.</EmptyState>
      ) : (
        <TableScroll label="Webhook endpoints">
          <table>
            <caption className="visually-hidden">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Endpoint ID</th>
                <th scope="col">Added</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.map((endpoint) => (
                <tr key={endpoint.endpoint_id}>
                  <th scope="row" className="wrap">
                    {endpoint.url}
                  </th>
                  <td>
                    <code>{endpoint.endpoint_id}</code>
                  </td>
                  <td>
                    <Time iso={endpoint.created_at} />
                  </td>
                  <td>
                    <ActionButton
                      variant="danger"
                      permission={permission(role, 'console.webhooks.endpoints.delete')}
                      onClick={() => {
                        remove.clearError();
                        setDeleting(endpoint);
                      }}
                    >
                      Delete<span className="visually-hidden"> endpoint {endpoint.url}</span>
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <form onSubmit={submit} className="stack form-card" noValidate>
        <h3>Add an endpoint</h3>
        <Field
          label="Endpoint URL"
          type="url"
          inputMode="url"
          required
          placeholder="https://example.com/webhooks/fincore"
          hint={env === 'live' ? 'Live endpoints must be public https URLs.' : 'Events of the test environment are sent here.'}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        {create.error ? <ErrorNotice error={create.error} /> : null}
        <div>
          <ActionButton type="submit" variant="primary" permission={canCreate} busy={create.busy}>
            Add endpoint
          </ActionButton>
        </div>
      </form>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        description={`Events are no longer sent to ${deleting?.url ?? 'it'}, and its pending deliveries are cancelled.`}
        confirmLabel="Delete endpoint"
        danger
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}

function SecretPart({ app, env, role, onSecret }: SectionProps & { onSecret: (s: OnceSecret) => void }) {
  const announce = useAnnounce();
  const [graceHours, setGraceHours] = useState('24');
  const [confirming, setConfirming] = useState(false);
  const canRotate = permission(role, 'console.webhooks.secret.rotate');
  const hours = Number(graceHours);
  const validHours = graceHours.trim() !== '' && Number.isInteger(hours) && hours >= 0 && hours <= 168;
  const rotate = useAction(() => callConsole<RotatedSecret>('console.webhooks.secret.rotate', { application_id: app.application_id, environment: env, grace_hours: hours }));
  const run = async () => {
    if (rotate.busy) return;
    const outcome = await rotate.execute();
    setConfirming(false);
    if (!outcome.ok) return;
    announce('Signing secret rotated. The new secret is shown once.');
    onSecret({
      title: 'Your new signing secret',
      secret: outcome.value.secret,
      note: `The previous secret keeps signing deliveries, beside this one, until ${formatDateTime(outcome.value.previous_secret_expires_at)}.`,
    });
  };
  return (
    <section aria-labelledby="secret-heading">
      <h2 id="secret-heading">Signing secret</h2>
      <p>
        Rotating creates a new secret. During the grace period every delivery is signed with both the new and the previous secret, so your receiver
        can switch without missing one.
      </p>
      <form
        className="stack form-card"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (canRotate.allowed && validHours) {
            rotate.clearError();
            setConfirming(true);
          }
        }}
      >
        <Field
          label="Grace period (hours)"
          type="number"
          min={0}
          max={168}
          step={1}
          hint="0 to 168 hours (7 days)."
          value={graceHours}
          aria-invalid={validHours ? undefined : true}
          onChange={(e) => setGraceHours(e.target.value)}
        />
        {validHours ? null : (
          <p className="field-error" role="alert">
            Enter a whole number of hours from 0 to 168.
          </p>
        )}
        {rotate.error && !confirming ? <ErrorNotice error={rotate.error} /> : null}
        <div>
          <ActionButton type="submit" permission={canRotate} busy={rotate.busy}>
            Rotate secret
          </ActionButton>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        title="Rotate the signing secret?"
        description={`The previous secret stops signing ${hours} hours from now.`}
        confirmLabel="Rotate secret"
        busy={rotate.busy}
        error={rotate.error}
        onConfirm={() => void run()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}

const DELIVERY_FILTERS = [
  { value: '', label: 'All deliveries' },
  { value: 'pending', label: 'Pending (retrying)' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'dead_lettered', label: 'Dead letters (retries exhausted)' },
  { value: 'cancelled', label: 'Cancelled' },
] as const;

function Attempts({ delivery }: { delivery: WebhookDeliveryView }) {
  if (delivery.attempts.length === 0) return <span className="muted">No attempt yet</span>;
  return (
    <ol className="attempts">
      {delivery.attempts.map((attempt) => (
        <li key={attempt.attempt}>
          <span className="attempt-number">#{attempt.attempt}</span> <Time iso={attempt.at} /> ·{' '}
          <span>{attempt.status_code === null ? 'no response' : `HTTP ${attempt.status_code}`}</span> · <span>{attempt.latency_ms} ms</span>
          {attempt.error ? <span className="attempt-error"> · {attempt.error}</span> : null}
        </li>
      ))}
    </ol>
  );
}

function DeliveriesPart({ app, env, role }: SectionProps) {
  const announce = useAnnounce();
  const scope = { application_id: app.application_id, environment: env };
  const canRead = permission(role, 'console.webhooks.deliveries.list');
  const canReplay = permission(role, 'console.webhooks.events.replay');
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  const [more, setMore] = useState<{ deliveries: WebhookDeliveryView[]; cursor: string | null } | null>(null);
  const first = useLoad(async () => {
    setMore(null);
    if (!canRead.allowed) return null;
    return callConsole<DeliveryPage>('console.webhooks.deliveries.list', { ...scope, ...(applied ? { status: applied } : {}) });
  }, [app.application_id, env, applied, canRead.allowed]);
  const loadMore = useAction((cursor: string) => callConsole<DeliveryPage>('console.webhooks.deliveries.list', { ...scope, ...(applied ? { status: applied } : {}), cursor }));
  const replay = useAction((d: WebhookDeliveryView) =>
    callConsole<{ delivery_ids: string[] }>('console.webhooks.events.replay', { ...scope, event_id: d.event_id, endpoint_id: d.endpoint_id }),
  );
  const [replayed, setReplayed] = useState<string | null>(null);

  const rows = [...(first.data?.deliveries ?? []), ...(more?.deliveries ?? [])];
  const cursor = more ? more.cursor : (first.data?.next_cursor ?? null);

  const runReplay = async (delivery: WebhookDeliveryView) => {
    if (replay.busy) return;
    setReplayed(null);
    const outcome = await replay.execute(delivery);
    if (!outcome.ok) return;
    const message = `Event ${delivery.event_id} replayed to ${delivery.url}: a new delivery was queued.`;
    setReplayed(message);
    announce(message);
    first.reload();
  };

  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      {!canRead.allowed ? (
        <p className="role-hint">{canRead.why}</p>
      ) : (
        <>
          <form
            className="filters"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setApplied(filter);
              if (filter === applied) first.reload();
            }}
          >
            <SelectField label="Show" value={filter} onChange={setFilter} options={DELIVERY_FILTERS} />
            <Button type="submit">Apply filter</Button>
            <Button onClick={() => first.reload()}>Refresh</Button>
          </form>
          {replayed ? <p className="notice notice-success">{replayed}</p> : null}
          {replay.error ? <ErrorNotice error={replay.error} /> : null}
          {first.state === 'failed' ? <ErrorNotice error={first.error} /> : null}
          {first.data === null ? (
            first.state === 'loading' ? <Loading what="deliveries" /> : null
          ) : rows.length === 0 ? (
            <EmptyState>{applied === 'dead_lettered' ? 'No dead letters.' : 'No deliveries yet.'}</EmptyState>
          ) : (
            <TableScroll label="Webhook deliveries">
              <table className="deliveries">
                <caption className="visually-hidden">Webhook deliveries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Created</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((d) => (
                    <tr key={d.delivery_id} data-delivery-id={d.delivery_id}>
                      <th scope="row">
                        <span className="event-type">{d.event_type}</span>
                        <br />
                        <code>{d.event_id}</code>
                      </th>
                      <td className="wrap">{d.url}</td>
                      <td>
                        <StatusBadge status={d.status} label={d.status === 'dead_lettered' ? 'dead letter' : undefined} />
                      </td>
                      <td>
                        <Attempts delivery={d} />
                      </td>
                      <td>
                        <Time iso={d.created_at} />
                      </td>
                      <td>
                        <ActionButton permission={canReplay} busy={replay.busy} onClick={() => void runReplay(d)}>
                          Replay<span className="visually-hidden"> event {d.event_id} to {d.url}</span>
                        </ActionButton>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {loadMore.error ? <ErrorNotice error={loadMore.error} /> : null}
          {cursor ? (
            <Button
              onClick={async () => {
                const outcome = await loadMore.execute(cursor);
                if (outcome.ok) {
                  setMore({ deliveries: [...(more?.deliveries ?? []), ...outcome.value.deliveries], cursor: outcome.value.next_cursor });
                  announce(`Loaded ${outcome.value.deliveries.length} more deliveries.`);
                }
              }}
            >
              Load more deliveries
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
