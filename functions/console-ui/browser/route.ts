// Hash routing: every page has a URL after `#/`, so the shell is one document the server serves
// for every page, and a page can be bookmarked, reloaded and shared (an invitation link is one).
// A fragment that does not start with `#/` is not a route (the skip link's target, for one).
import { useEffect, useState } from 'react';
import type { Environment } from './types';

export const APP_SECTIONS = ['keys', 'webhooks', 'requests', 'usage', 'items'] as const;
export type AppSection = (typeof APP_SECTIONS)[number];

export type Route =
  | { name: 'home' }
  | { name: 'sign-in'; next: string | null }
  | { name: 'new-organization' }
  | { name: 'applications'; org: string }
  | { name: 'application'; org: string; app: string; env: Environment; section: AppSection; params: URLSearchParams }
  | { name: 'members'; org: string }
  | { name: 'audit'; org: string }
  | { name: 'settings'; org: string }
  | { name: 'invitation'; token: string }
  | { name: 'not-found'; path: string };

function isSection(value: string | undefined): value is AppSection {
  return (APP_SECTIONS as readonly string[]).includes(value ?? '');
}

export function parseRoute(hash: string): Route {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw === '' || raw === '/') return { name: 'home' };
  const [pathPart = '', query = ''] = raw.split('?', 2);
  const params = new URLSearchParams(query);
  const parts = pathPart.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const [first, org, second, app, env, section] = parts;
  if (first === 'sign-in' && parts.length === 1) return { name: 'sign-in', next: params.get('next') };
  if (first === 'organizations' && org === 'new' && parts.length === 2) return { name: 'new-organization' };
  if (first === 'invitations' && org && parts.length === 2) return { name: 'invitation', token: org };
  if (first === 'orgs' && org) {
    if (parts.length === 3 && second === 'applications') return { name: 'applications', org };
    if (parts.length === 3 && second === 'members') return { name: 'members', org };
    if (parts.length === 3 && second === 'audit') return { name: 'audit', org };
    if (parts.length === 3 && second === 'settings') return { name: 'settings', org };
    if (parts.length === 6 && second === 'apps' && app && (env === 'test' || env === 'live') && isSection(section)) {
      return { name: 'application', org, app, env, section, params };
    }
  }
  return { name: 'not-found', path: raw };
}

const seg = encodeURIComponent;

export const href = {
  home: () => '#/',
  signIn: (next?: string | null) => (next ? `#/sign-in?${new URLSearchParams({ next }).toString()}` : '#/sign-in'),
  newOrganization: () => '#/organizations/new',
  applications: (org: string) => `#/orgs/${seg(org)}/applications`,
  application: (org: string, app: string, env: Environment, section: AppSection, params?: Record<string, string>) => {
    const query = params && Object.keys(params).length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
    return `#/orgs/${seg(org)}/apps/${seg(app)}/${env}/${section}${query}`;
  },
  members: (org: string) => `#/orgs/${seg(org)}/members`,
  audit: (org: string) => `#/orgs/${seg(org)}/audit`,
  settings: (org: string) => `#/orgs/${seg(org)}/settings`,
};

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) {
    history.replaceState(null, '', to);
    // replaceState fires no hashchange: tell the router ourselves.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = to;
  }
}

/** The current route; re-renders on every change of a `#/` fragment. */
export function useRoute(): { route: Route; hash: string } {
  const [hash, setHash] = useState(() => routeHash());
  useEffect(() => {
    const update = () => {
      const next = routeHash();
      if (next !== null) setHash(next);
    };
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  const current = hash ?? '#/';
  return { route: parseRoute(current), hash: current };
}

/** The fragment when it is a route; null for an in-page target such as the skip link's. */
function routeHash(): string | null {
  const { hash } = location;
  if (hash === '' || hash === '#') return '#/';
  return hash.startsWith('#/') ? hash : null;
}
