// One application in one environment: the section pages share its title, its navigation and the
// environment switch. The application is looked up in the organisation's list, so an id from
// another organisation (or none) is a plain "not found".
import { ApplicationNav, sectionLabel } from '../components/layout';
import { ErrorNotice, Loading, PageTitle, useLoad } from '../components/ui';
import { environmentLabel } from '../format';
import type { AppSection } from '../route';
import { href } from '../route';
import { roleIn, useSession } from '../session';
import type { Environment } from '../types';
import { listApplications } from './applications';
import { ItemsSection } from './items';
import { KeysSection } from './keys';
import { RequestsSection } from './requests';
import type { SectionProps } from './section';
import { UsageSection } from './usage';
import { WebhooksSection } from './webhooks';

function Section({ section, ...props }: SectionProps & { section: AppSection }) {
  switch (section) {
    case 'keys':
      return <KeysSection {...props} />;
    case 'webhooks':
      return <WebhooksSection {...props} />;
    case 'requests':
      return <RequestsSection {...props} />;
    case 'usage':
      return <UsageSection {...props} />;
    case 'items':
      return <ItemsSection {...props} />;
  }
}

export function ApplicationPage({ org, appId, env, section, params }: { org: string; appId: string; env: Environment; section: AppSection; params: URLSearchParams }) {
  const { session } = useSession();
  const role = roleIn(session, org);
  const apps = useLoad(() => listApplications(org), [org]);
  const app = apps.data?.find((a) => a.application_id === appId);
  const context = app ? `${app.name} · ${environmentLabel(env)}` : undefined;
  return (
    <>
      <PageTitle title={sectionLabel(section)} context={context} />
      {apps.state === 'failed' ? <ErrorNotice error={apps.error} /> : null}
      {apps.data === null ? (
        apps.state === 'loading' ? <Loading what="the application" /> : null
      ) : !app ? (
        <p>
          This organisation has no application <code>{appId}</code>. <a href={href.applications(org)}>See its applications</a>.
        </p>
      ) : (
        <>
          <ApplicationNav org={org} app={appId} env={env} section={section} />
          {env === 'live' ? <p className="env-banner env-live">Live environment: real institutions and real data.</p> : <p className="env-banner">Test environment: sandbox institutions and data.</p>}
          <Section section={section} org={org} app={app} env={env} role={role} params={params} />
        </>
      )}
    </>
  );
}
