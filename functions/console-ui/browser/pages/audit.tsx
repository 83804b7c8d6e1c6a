// The organisation's audit log (owners and admins): every console action that changed something,
// and every refused one, with who, what, when and from where. Newest first, page by page.
import { useState, type FormEvent } from 'react';
import { callConsole } from '../api';
import { Button, EmptyState, ErrorNotice, Field, Loading, PageTitle, StatusBadge, TableScroll, Time, useAction, useAnnounce, useLoad } from '../components/ui';
import { localInputToIso, roleLabel } from '../format';
import { permission } from '../permissions';
import { membershipOf, useSession } from '../session';
import type { AuditEntryView, AuditPage as AuditAnswer } from '../types';

function targetText(target: AuditEntryView['target']): string {
  if (!target) return '—';
  if (typeof target === 'string') return target;
  return Object.entries(target)
    .map(([key, value]) => `${key}: ${value}`)
    .join(', ');
}

export function AuditPage({ org }: { org: string }) {
  const { session } = useSession();
  const membership = membershipOf(session, org);
  const canRead = permission(membership?.role ?? null, 'console.audit.list');
  const announce = useAnnounce();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [range, setRange] = useState<{ from?: string; to?: string }>({});
  const [more, setMore] = useState<{ entries: AuditEntryView[]; cursor: string | null } | null>(null);
  const first = useLoad(async () => {
    setMore(null);
    if (!canRead.allowed) return null;
    return callConsole<AuditAnswer>('console.audit.list', { organization_id: org, ...range });
  }, [org, JSON.stringify(range), canRead.allowed]);
  const loadMore = useAction((cursor: string) => callConsole<AuditAnswer>('console.audit.list', { organization_id: org, ...range, cursor }));
  const rows = [...(first.data?.entries ?? []), ...(more?.entries ?? [])];
  const cursor = more ? more.cursor : (first.data?.next_cursor ?? null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: { from?: string; to?: string } = {};
    const fromIso = localInputToIso(from);
    const toIso = localInputToIso(to);
    if (fromIso) next.from = fromIso;
    if (toIso) next.to = toIso;
    setRange(next);
    if (JSON.stringify(next) === JSON.stringify(range)) first.reload();
  };

  return (
    <>
      <PageTitle title="Audit log" context={membership?.name} />
      {!canRead.allowed ? (
        <p className="role-hint">{canRead.why}</p>
      ) : (
        <>
          <form onSubmit={submit} className="filters form-card" noValidate>
            <Field label="From" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
            <Field label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
            <Button type="submit" variant="primary">
              Show entries
            </Button>
          </form>
          {first.state === 'failed' ? <ErrorNotice error={first.error} /> : null}
          {first.data === null ? (
            first.state === 'loading' ? <Loading what="the audit log" /> : null
          ) : rows.length === 0 ? (
            <EmptyState>No entries in this period.</EmptyState>
          ) : (
            <TableScroll label="Audit entries">
              <table>
                <caption className="visually-hidden">Audit entries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">From</th>
                    <th scope="col">Request ID</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((e) => (
                    <tr key={`${e.at}-${e.request_id}`}>
                      <td>
                        <Time iso={e.at} />
                      </td>
                      <th scope="row">
                        {e.email}
                        <br />
                        <span className="muted">{roleLabel(e.role)}</span>
                      </th>
                      <td>
                        <code>{e.action}</code>
                      </td>
                      <td className="wrap">{targetText(e.target)}</td>
                      <td>
                        <StatusBadge status={e.outcome} />
                        {e.reason ? <span className="muted audit-reason">{e.reason}</span> : null}
                        {e.repeats > 1 ? (
                          <span className="muted audit-reason">
                            {e.repeats} times{e.last_at ? `, last at ${e.last_at}` : ''}
                          </span>
                        ) : null}
                      </td>
                      <td className="wrap">
                        {e.client_address}
                        <br />
                        <span className="muted">{e.user_agent}</span>
                      </td>
                      <td>
                        <code>{e.request_id}</code>
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
                  setMore({ entries: [...(more?.entries ?? []), ...outcome.value.entries], cursor: outcome.value.next_cursor });
                  announce(`Loaded ${outcome.value.entries.length} more entries.`);
                }
              }}
            >
              Load more entries
            </Button>
          ) : null}
        </>
      )}
    </>
  );
}
