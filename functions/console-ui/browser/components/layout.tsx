// The frame around every page: a skip link, the banner (organisation switcher, account menu), the
// organisation's navigation and the main landmark the page renders into.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { environmentLabel, roleLabel } from '../format';
import { permission } from '../permissions';
import { APP_SECTIONS, href, type AppSection } from '../route';
import { membershipOf, useSession } from '../session';
import type { Environment } from '../types';

function SkipLink() {
  return (
    <a
      className="skip-link"
      href="#main-content"
      onClick={(event) => {
        // The fragment is the router's: move focus without changing it.
        event.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
    >
      Skip to main content
    </a>
  );
}

/**
 * A button that shows and hides a panel (the disclosure pattern): Enter or Space toggles it,
 * Escape closes it and puts focus back on the button, and so does a click outside it.
 */
function Disclosure({ buttonText, children, className }: { buttonText: ReactNode; children: (close: () => void) => ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div
      ref={root}
      className={`disclosure ${className ?? ''}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
    >
      <button ref={button} type="button" className="disclosure-button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        {buttonText}
        <span aria-hidden="true" className="chevron">
          ▾
        </span>
      </button>
      <div id={panelId} className="disclosure-panel" hidden={!open}>
        {children(close)}
      </div>
    </div>
  );
}

function OrganizationSwitcher({ currentOrg }: { currentOrg: string | null }) {
  const { session } = useSession();
  const current = currentOrg ? membershipOf(session, currentOrg) : undefined;
  return (
    <Disclosure
      buttonText={
        <>
          <span className="visually-hidden">Organisation: </span>
          {current?.name ?? 'Organisations'}
        </>
      }
      className="org-switcher"
    >
      {(close) => (
        <ul className="menu-list">
          {session.organizations.map((org) => (
            <li key={org.organization_id}>
              <a href={href.applications(org.organization_id)} aria-current={org.organization_id === currentOrg ? 'true' : undefined} onClick={close}>
                {org.name} <span className="muted">({roleLabel(org.role)})</span>
              </a>
            </li>
          ))}
          <li>
            <a href={href.newOrganization()} onClick={close}>
              Create an organisation
            </a>
          </li>
        </ul>
      )}
    </Disclosure>
  );
}

function AccountMenu() {
  const { session, signOut } = useSession();
  return (
    <Disclosure
      buttonText={
        <>
          <span className="visually-hidden">Account: </span>
          {session.user.name || session.user.email}
        </>
      }
      className="account-menu"
    >
      {() => (
        <div className="account-panel">
          <p>
            Signed in as <strong>{session.user.email}</strong>
          </p>
          <button type="button" className="button button-secondary" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      )}
    </Disclosure>
  );
}

function OrganizationNav({ org, active }: { org: string; active: string }) {
  const { session } = useSession();
  const role = membershipOf(session, org)?.role ?? null;
  const links = [
    { key: 'applications', label: 'Applications', to: href.applications(org) },
    { key: 'members', label: 'Members', to: href.members(org) },
    ...(permission(role, 'console.audit.list').allowed ? [{ key: 'audit', label: 'Audit log', to: href.audit(org) }] : []),
    { key: 'settings', label: 'Settings', to: href.settings(org) },
  ];
  return (
    <nav aria-label="Organisation" className="side-nav">
      <ul>
        {links.map((link) => (
          <li key={link.key}>
            <a href={link.to} aria-current={active === link.key ? 'page' : undefined}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SignedInLayout({ org, active, children }: { org: string | null; active: string; children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <header className="topbar">
        <a className="brand" href={href.home()}>
          Fincore console
        </a>
        <div className="topbar-menus">
          <OrganizationSwitcher currentOrg={org} />
          <AccountMenu />
        </div>
      </header>
      <div className="layout">
        {org ? <OrganizationNav org={org} active={active} /> : null}
        <main id="main-content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </>
  );
}

export function SignedOutLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <header className="topbar">
        <span className="brand">Fincore console</span>
      </header>
      <main id="main-content" tabIndex={-1} className="narrow">
        {children}
      </main>
    </>
  );
}

const SECTION_LABELS: Record<AppSection, string> = { keys: 'API keys', webhooks: 'Webhooks', requests: 'Request log', usage: 'Usage', items: 'Items' };

export function sectionLabel(section: AppSection): string {
  return SECTION_LABELS[section];
}

/** An application's sections and its environment switch (links: each is a page with its own URL). */
export function ApplicationNav({ org, app, env, section }: { org: string; app: string; env: Environment; section: AppSection }) {
  return (
    <div className="app-nav">
      <nav aria-label="Application sections">
        <ul className="tabs">
          {APP_SECTIONS.map((s) => (
            <li key={s}>
              <a href={href.application(org, app, env, s)} aria-current={s === section ? 'page' : undefined}>
                {SECTION_LABELS[s]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Environment">
        <ul className="segmented">
          {(['test', 'live'] as const).map((e) => (
            <li key={e}>
              <a href={href.application(org, app, e, section)} aria-current={e === env ? 'page' : undefined}>
                {environmentLabel(e)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
