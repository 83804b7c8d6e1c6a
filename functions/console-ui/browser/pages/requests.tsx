// The request log of one application and environment: search by request id (a whole error
// envelope pasted works too), or by route, status and time range; newest first, page by page.
// The search is in the URL (#/...requests?request_id=...), so a link to a request can be shared.
import { useState, type FormEvent } from 'react';
import { callConsole } from '../api';
import { Button, EmptyState, ErrorNotice, Field, Loading, TableScroll, Time, useAction, useAnnounce, useLoad } from '../components/ui';
import { localInputToIso, requestIdFrom } from '../format';
import { permission } from '../permissions';
import { href, navigate } from '../route';
import type { RequestLogEntryView, RequestPage } from '../types';
import type { SectionProps } from './section';

const SEARCH_FIELDS = ['request_id', 'route', 'status', 'from', 'to'] as const;
type Search = Partial<Record<(typeof SEARCH_FIELDS)[number], string>>;

function searchOf(params: URLSearchParams): Search {
  const search: Search = {};
  for (const field of SEARCH_FIELDS) {
    const value = params.get(field);
    if (value) search[field] = value;
  }
  return search;
}

/** The search as the API takes it: an exact status is a number (404), a class a string (4xx). */
function searchBody(search: Search): Record<string, string | number> {
  const { status, ...rest } = search;
  if (status === undefined) return rest;
  return { ...rest, status: /^\d{3}$/.test(status) ? Number(status) : status.toLowerCase() };
}

/** The datetime-local value (local time, minutes) of an ISO instant, for the form. */
function isoToLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function statusClass(status: number): string {
  if (status >= 500) return 'badge badge-bad';
  if (status >= 400) return 'badge badge-warn';
  return 'badge badge-good';
}

export function RequestsSection({ org, app, env, role, params }: SectionProps) {
  const announce = useAnnounce();
  const canSearch = permission(role, 'console.requests.search');
  const search = searchOf(params);
  const searchKey = JSON.stringify(search);
  const [requestId, setRequestId] = useState(search.request_id ?? '');
  const [route, setRoute] = useState(search.route ?? '');
  const [status, setStatus] = useState(search.status ?? '');
  const [from, setFrom] = useState(isoToLocalInput(search.from));
  const [to, setTo] = useState(isoToLocalInput(search.to));
  const [more, setMore] = useState<{ requests: RequestLogEntryView[]; cursor: string | null } | null>(null);
  const scope = { application_id: app.application_id, environment: env };

  const results = useLoad(async () => {
    setMore(null);
    if (!canSearch.allowed) return null;
    const page = await callConsole<RequestPage>('console.requests.search', { ...scope, ...searchBody(search) });
    announce(page.requests.length === 0 ? 'No request matches.' : `${page.requests.length} request${page.requests.length === 1 ? '' : 's'} found.`);
    return page;
  }, [app.application_id, env, searchKey, canSearch.allowed]);
  const loadMore = useAction((cursor: string) => callConsole<RequestPage>('console.requests.search', { ...scope, ...searchBody(search), cursor }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    const id = requestIdFrom(requestId);
    if (id) next.request_id = id;
    if (route.trim()) next.route = route.trim();
    if (status.trim()) next.status = status.trim();
    const fromIso = localInputToIso(from);
    const toIso = localInputToIso(to);
    if (fromIso) next.from = fromIso;
    if (toIso) next.to = toIso;
    setRequestId(id);
    const target = href.application(org, app.application_id, env, 'requests', next);
    if (`#${location.hash.slice(1)}` === target) results.reload();
    else navigate(target);
  };

  const rows = [...(results.data?.requests ?? []), ...(more?.requests ?? [])];
  const cursor = more ? more.cursor : (results.data?.next_cursor ?? null);

  if (!canSearch.allowed) {
    return (
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Search requests</h2>
        <p className="role-hint">{canSearch.why}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby="requests-heading">
      <h2 id="requests-heading">Search requests</h2>
      <p>Every API request of this environment is kept 35 days: route, status, latency, request id and key prefix (never bodies or secrets).</p>
      <form onSubmit={submit} className="search-form form-card" noValidate aria-describedby="requests-help">
        <p id="requests-help" className="hint">
          Paste a request id (or the whole error answer that carries it) to find one request; leave it empty to search by route, status and
          time. The time range is 31 days at most.
        </p>
        <div className="grid">
          <Field label="Request ID" value={requestId} onChange={(e) => setRequestId(e.target.value)} spellCheck={false} autoComplete="off" />
          <Field label="Route" hint="A route id, e.g. transactions.sync" value={route} onChange={(e) => setRoute(e.target.value)} spellCheck={false} />
          <Field label="Status" hint="A code (404) or a class (4xx, 5xx)" value={status} onChange={(e) => setStatus(e.target.value)} spellCheck={false} />
          <Field label="From" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
          <Field label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
        </div>
        <div className="toolbar">
          <Button type="submit" variant="primary">
            Search
          </Button>
          <Button
            onClick={() => {
              setRequestId('');
              setRoute('');
              setStatus('');
              setFrom('');
              setTo('');
              navigate(href.application(org, app.application_id, env, 'requests'));
            }}
          >
            Clear
          </Button>
        </div>
      </form>
      <h3>Results</h3>
      {results.state === 'failed' ? <ErrorNotice error={results.error} /> : null}
      {results.data === null ? (
        results.state === 'loading' ? <Loading what="requests" /> : null
      ) : rows.length === 0 ? (
        <EmptyState>{search.request_id ? `No request ${search.request_id} in this environment (it may be older than 35 days, or of the other environment).` : 'No request matches.'}</EmptyState>
      ) : (
        <TableScroll label="Requests found">
          <table>
            <caption className="visually-hidden">Requests found, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Request ID</th>
                <th scope="col">Route</th>
                <th scope="col">Status</th>
                <th scope="col">Latency</th>
                <th scope="col">Key</th>
                <th scope="col">Error</th>
                <th scope="col">Item</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.request_id} data-request-id={r.request_id} data-status={r.status}>
                  <td>
                    <Time iso={r.at} />
                  </td>
                  <th scope="row">
                    <code>{r.request_id}</code>
                  </th>
                  <td>
                    <code>{r.route}</code>
                    <br />
                    <span className="muted">
                      {r.method} {r.path}
                    </span>
                  </td>
                  <td>
                    <span className={statusClass(r.status)}>{r.status}</span>
                  </td>
                  <td>{r.latency_ms} ms</td>
                  <td>{r.key_display ? <code className="nowrap">{r.key_display}</code> : '—'}</td>
                  <td>{r.error_code ? <code className="nowrap">{r.error_code}</code> : '—'}</td>
                  <td>
                    {r.item_id ? (
                      <a href={href.application(org, app.application_id, env, 'items', { item_id: r.item_id })}>
                        <code>{r.item_id}</code>
                      </a>
                    ) : (
                      '—'
                    )}
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
              setMore({ requests: [...(more?.requests ?? []), ...outcome.value.requests], cursor: outcome.value.next_cursor });
              announce(`Loaded ${outcome.value.requests.length} more requests.`);
            }
          }}
        >
          Load more requests
        </Button>
      ) : null}
    </section>
  );
}
