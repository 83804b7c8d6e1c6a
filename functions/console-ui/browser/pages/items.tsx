// Items, for support: find an item of this application and environment by id, see its status,
// connector, last sync and last error, and ask for a refresh (developers and up; the API's own
// refresh limits apply).
import { useState, type FormEvent } from 'react';
import { callConsole } from '../api';
import { ActionButton, Button, ErrorNotice, Field, Loading, StatusBadge, Time, useAction, useAnnounce, useLoad } from '../components/ui';
import { permission } from '../permissions';
import { href, navigate } from '../route';
import type { ItemView } from '../types';
import type { SectionProps } from './section';

function lastError(error: ItemView['last_sync_error']): string {
  if (!error) return 'None';
  return `${error.code}: ${error.message}`;
}

export function ItemsSection({ org, app, env, role, params }: SectionProps) {
  const announce = useAnnounce();
  const itemId = params.get('item_id') ?? '';
  const [typed, setTyped] = useState(itemId);
  const scope = { application_id: app.application_id, environment: env };
  const item = useLoad(async () => {
    if (!itemId) return null;
    return (await callConsole<{ item: ItemView }>('console.items.get', { ...scope, item_id: itemId })).item;
  }, [app.application_id, env, itemId]);
  const refresh = useAction(() => callConsole('console.items.refresh', { ...scope, item_id: itemId }));
  const [refreshed, setRefreshed] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefreshed(false);
    const target = href.application(org, app.application_id, env, 'items', typed.trim() ? { item_id: typed.trim() } : undefined);
    if (location.hash === target) item.reload();
    else navigate(target);
  };
  const runRefresh = async () => {
    if (refresh.busy) return;
    setRefreshed(false);
    const outcome = await refresh.execute();
    if (!outcome.ok) return;
    setRefreshed(true);
    announce('Refresh requested. The item syncs in the background.');
    item.reload();
  };

  const data = item.data;
  return (
    <>
      <form onSubmit={submit} className="filters form-card" noValidate>
        <Field label="Item ID" value={typed} onChange={(e) => setTyped(e.target.value)} spellCheck={false} autoComplete="off" />
        <Button type="submit" variant="primary">
          Find item
        </Button>
      </form>
      {item.state === 'failed' ? <ErrorNotice error={item.error} /> : null}
      {!itemId ? (
        <p>Enter the id of an item of this environment (it starts with item_).</p>
      ) : data === null ? (
        item.state === 'loading' ? <Loading what="the item" /> : null
      ) : (
        <section aria-labelledby="item-heading">
          <h2 id="item-heading">
            Item <code>{data.item_id}</code>
          </h2>
          <dl className="details">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={data.status} />
            </dd>
            <dt>Connector</dt>
            <dd>{data.connector}</dd>
            <dt>Institution</dt>
            <dd>{data.institution_name ?? data.institution_id ?? '—'}</dd>
            <dt>Last successful sync</dt>
            <dd>{data.last_successful_sync ? <Time iso={data.last_successful_sync} /> : 'Never'}</dd>
            <dt>Last sync error</dt>
            <dd>
              {lastError(data.last_sync_error)}
              {data.last_sync_error?.occurred_at ? (
                <>
                  {' '}
                  (<Time iso={data.last_sync_error.occurred_at} />)
                </>
              ) : null}
            </dd>
            <dt>Created</dt>
            <dd>
              <Time iso={data.created_at} />
            </dd>
            {data.products ? (
              <>
                <dt>Products</dt>
                <dd>{data.products.join(', ') || '—'}</dd>
              </>
            ) : null}
            {data.consent_expires_at ? (
              <>
                <dt>Consent expires</dt>
                <dd>
                  <Time iso={data.consent_expires_at} />
                </dd>
              </>
            ) : null}
          </dl>
          <div className="toolbar">
            <ActionButton permission={permission(role, 'console.items.refresh')} busy={refresh.busy} onClick={() => void runRefresh()}>
              Refresh
            </ActionButton>
            <Button onClick={() => item.reload()}>Reload details</Button>
          </div>
          {refreshed ? <p className="notice notice-success">Refresh requested: the item syncs in the background.</p> : null}
          {refresh.error ? <ErrorNotice error={refresh.error} /> : null}
        </section>
      )}
    </>
  );
}
