// An organisation's applications: the list, and creating one (admins and owners).
import { useState, type FormEvent } from 'react';
import { PLANS, type PlanName } from '../../../contracts/limits';
import { callConsole } from '../api';
import {
  ActionButton,
  EmptyState,
  ErrorNotice,
  Field,
  Loading,
  PageTitle,
  SelectField,
  TableScroll,
  Time,
  useAction,
  useAnnounce,
  useLoad,
} from '../components/ui';
import { permission } from '../permissions';
import { href } from '../route';
import { membershipOf, useSession } from '../session';
import type { ApplicationView, ConsoleRole } from '../types';

export function listApplications(org: string): Promise<ApplicationView[]> {
  return callConsole<{ applications: ApplicationView[] }>('console.applications.list', { organization_id: org }).then((a) => a.applications);
}

const PLAN_OPTIONS = (Object.keys(PLANS) as PlanName[]).map((plan) => ({
  value: plan,
  label: `${plan[0]!.toUpperCase()}${plan.slice(1)}${PLANS[plan].liveAccess ? '' : ' (test keys only)'}`,
}));

/** An application's plan, changed by admins and owners (the plan sets quotas, rate limit and live access). */
function PlanCell({ app, role, onChanged }: { app: ApplicationView; role: ConsoleRole | null; onChanged: () => void }) {
  const announce = useAnnounce();
  const [plan, setPlan] = useState(app.plan);
  const update = useAction(() => callConsole('console.applications.update', { application_id: app.application_id, plan }));
  const change = async () => {
    if (update.busy || plan === app.plan) return;
    const outcome = await update.execute();
    if (!outcome.ok) return;
    announce(`${app.name} is now on the ${plan} plan.`);
    onChanged();
  };
  return (
    <>
      <div className="inline-form">
        <SelectField label={`Plan of ${app.name}`} hideLabel value={plan} onChange={setPlan} options={PLAN_OPTIONS} />
        <ActionButton permission={plan === app.plan ? { allowed: true } : permission(role, 'console.applications.update')} busy={update.busy} onClick={() => void change()}>
          Change plan<span className="visually-hidden"> of {app.name}</span>
        </ActionButton>
      </div>
      {update.error ? <ErrorNotice error={update.error} /> : null}
    </>
  );
}

export function ApplicationsPage({ org }: { org: string }) {
  const { session } = useSession();
  const membership = membershipOf(session, org);
  const role = membership?.role ?? null;
  const announce = useAnnounce();
  const apps = useLoad(() => listApplications(org), [org]);
  const [name, setName] = useState('');
  const [plan, setPlan] = useState<string>('free');
  const canCreate = permission(role, 'console.applications.create');
  const create = useAction(() => callConsole<ApplicationView>('console.applications.create', { organization_id: org, name: name.trim(), plan }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canCreate.allowed || create.busy) return;
    const outcome = await create.execute();
    if (!outcome.ok) return;
    setName('');
    announce(`Application ${outcome.value.name} created.`);
    apps.reload();
  };
  return (
    <>
      <PageTitle title="Applications" context={membership?.name} />
      <section aria-labelledby="apps-list">
        <h2 id="apps-list">Your applications</h2>
        {apps.state === 'failed' ? <ErrorNotice error={apps.error} /> : null}
        {apps.data === null ? (
          apps.state === 'loading' ? <Loading what="applications" /> : null
        ) : apps.data.length === 0 ? (
          <EmptyState>No applications yet.</EmptyState>
        ) : (
          <TableScroll label="Applications">
            <table>
              <caption className="visually-hidden">Applications of {membership?.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Application ID</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Created</th>
                  <th scope="col">Open</th>
                </tr>
              </thead>
              <tbody>
                {apps.data.map((app) => (
                  <tr key={app.application_id}>
                    <th scope="row">{app.name}</th>
                    <td>
                      <code>{app.application_id}</code>
                    </td>
                    <td>
                      <PlanCell key={app.plan} app={app} role={role} onChanged={apps.reload} />
                    </td>
                    <td>
                      <Time iso={app.created_at} />
                    </td>
                    <td className="links">
                      <a href={href.application(org, app.application_id, 'test', 'keys')}>
                        Keys<span className="visually-hidden"> of {app.name}</span>
                      </a>
                      <a href={href.application(org, app.application_id, 'test', 'webhooks')}>
                        Webhooks<span className="visually-hidden"> of {app.name}</span>
                      </a>
                      <a href={href.application(org, app.application_id, 'test', 'usage')}>
                        Usage<span className="visually-hidden"> of {app.name}</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section aria-labelledby="apps-create">
        <h2 id="apps-create">Create an application</h2>
        <form onSubmit={submit} className="stack form-card" noValidate>
          <Field label="Application name" required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />
          <SelectField label="Plan" value={plan} onChange={setPlan} options={PLAN_OPTIONS} hint="Live keys need a plan with live access." />
          {create.error ? <ErrorNotice error={create.error} /> : null}
          <div>
            <ActionButton type="submit" variant="primary" permission={canCreate} busy={create.busy}>
              Create application
            </ActionButton>
          </div>
        </form>
      </section>
    </>
  );
}
