// Usage of one application and environment in a month: API and AI requests against the plan's
// quotas, the rate limit, connected users against the plan's limit, the 80 % and 95 % notices, and
// requests per day as a bar chart (chart.js) with the same numbers in a table.
import { useState } from 'react';
import { DailyUsageChart } from '../components/daily-chart';
import { ErrorNotice, Field, Loading, Notice, TableScroll, Time, useLoad } from '../components/ui';
import { callConsole } from '../api';
import { currentMonth, formatNumber, percentOf } from '../format';
import type { UsageView } from '../types';
import type { SectionProps } from './section';

/** The notices a quota is past, by how much is used (the server's notices list when they were sent). */
function thresholdPassed(used: number, quota: number | null): 95 | 80 | null {
  const percent = percentOf(used, quota);
  if (percent === null) return null;
  if (percent >= 95) return 95;
  if (percent >= 80) return 80;
  return null;
}

function QuotaMeter({ id, title, used, quota }: { id: string; title: string; used: number; quota: number | null }) {
  const percent = percentOf(used, quota);
  const passed = thresholdPassed(used, quota);
  return (
    <div className="stat" data-testid={`quota-${id}`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p className="stat-value">
        {formatNumber(used)} <span className="muted">of {quota === null ? 'unlimited' : formatNumber(quota)}</span>
      </p>
      {quota !== null ? (
        <>
          <meter aria-labelledby={`${id}-title`} min={0} max={quota} low={quota * 0.8} high={quota * 0.95} optimum={0} value={Math.min(used, quota)} />
          <p className="muted">{percent} % used</p>
        </>
      ) : (
        <p className="muted">The plan has no monthly quota.</p>
      )}
      {passed ? (
        <p className={`notice ${passed === 95 ? 'notice-error' : 'notice-warning'}`}>
          {passed} % of the monthly {title.toLowerCase()} quota is used.
        </p>
      ) : null}
    </div>
  );
}

export function UsageSection({ app, env }: SectionProps) {
  const [month, setMonth] = useState(currentMonth());
  const usage = useLoad(
    () => callConsole<UsageView>('console.usage.get', { application_id: app.application_id, environment: env, ...(month ? { month } : {}) }),
    [app.application_id, env, month],
  );
  const data = usage.data;
  return (
    <>
      <form className="filters" noValidate onSubmit={(event) => event.preventDefault()}>
        <Field label="Month" type="month" value={month} max={currentMonth()} onChange={(e) => setMonth(e.target.value)} />
      </form>
      {usage.state === 'failed' ? <ErrorNotice error={usage.error} /> : null}
      {data === null ? (
        usage.state === 'loading' ? <Loading what="usage" /> : null
      ) : (
        <>
          <section aria-labelledby="quota-heading">
            <h2 id="quota-heading">
              Plan {data.plan}, {data.month}
            </h2>
            {data.notices.length > 0 ? (
              <Notice tone="warning" title="Usage notices this month">
                <ul>
                  {data.notices.map((n) => (
                    <li key={n.event_id}>
                      {n.threshold_percent} % of the {n.quota === 'ai' ? 'AI' : 'API'} quota reached on <Time iso={n.at} />: {formatNumber(n.used)} of{' '}
                      {formatNumber(n.limit)} (a usage.limit_approaching event was sent).
                    </li>
                  ))}
                </ul>
              </Notice>
            ) : null}
            <div className="stats">
              <QuotaMeter id="api" title="API requests" used={data.used.api} quota={data.quota.api} />
              <QuotaMeter id="ai" title="AI requests" used={data.used.ai} quota={data.quota.ai} />
              <div className="stat" data-testid="connected-users">
                <h3 id="users-title">Connected users</h3>
                <p className="stat-value">
                  {formatNumber(data.connected_users.count)}{' '}
                  <span className="muted">of {data.connected_users.limit === null ? 'unlimited' : formatNumber(data.connected_users.limit)}</span>
                </p>
                {data.connected_users.limit !== null ? (
                  <meter aria-labelledby="users-title" min={0} max={data.connected_users.limit} value={Math.min(data.connected_users.count, data.connected_users.limit)} />
                ) : null}
              </div>
              <div className="stat">
                <h3>Rate limit</h3>
                <p className="stat-value">
                  {formatNumber(data.rate_limit_per_second)} <span className="muted">requests per second</span>
                </p>
                {data.burst ? <p className="muted">Bursts up to {formatNumber(data.burst)}.</p> : null}
              </div>
            </div>
          </section>
          <section aria-labelledby="daily-heading">
            <h2 id="daily-heading">Requests per day</h2>
            {data.daily.length === 0 ? (
              <p>No requests this month.</p>
            ) : (
              <>
                <DailyUsageChart
                  points={data.daily}
                  label={`Bar chart of API and AI requests per day in ${data.month}: ${formatNumber(data.daily.reduce((s, d) => s + (d.api ?? 0), 0))} API and ${formatNumber(
                    data.daily.reduce((s, d) => s + (d.ai ?? 0), 0),
                  )} AI requests in all. The table below has each day's numbers.`}
                />
                <details>
                  <summary>Requests per day as a table</summary>
                  <TableScroll label="Requests per day">
                    <table>
                      <caption className="visually-hidden">Requests per day</caption>
                      <thead>
                        <tr>
                          <th scope="col">Day</th>
                          <th scope="col">API requests</th>
                          <th scope="col">AI requests</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.daily.map((d) => (
                          <tr key={d.date}>
                            <th scope="row">{d.date}</th>
                            <td>{d.api === null ? 'not kept' : formatNumber(d.api)}</td>
                            <td>{d.ai === null ? 'not kept' : formatNumber(d.ai)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </TableScroll>
                </details>
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
