// The signed-in session as every page sees it: the user, their organisations with their role in
// each, and how identity works here (local password or Cognito). The CSRF token goes to the API
// client only.
import { createContext, useContext } from 'react';
import type { ConsoleRole, IdentityKind, OrganizationMembership, SessionView } from './types';

export interface SessionContextValue {
  session: SessionView;
  /** Asks the server again (after joining or creating an organisation, or a role_forbidden answer). */
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}

export function membershipOf(session: SessionView, orgId: string): OrganizationMembership | undefined {
  return session.organizations.find((o) => o.organization_id === orgId);
}

export function roleIn(session: SessionView, orgId: string): ConsoleRole | null {
  return membershipOf(session, orgId)?.role ?? null;
}

/**
 * How this deployment signs users in, before anyone is signed in: the shell says it in
 * <meta name="fc-console-identity"> (functions/console-ui/page.ts); the session answer says it again.
 */
export function shellIdentity(): IdentityKind {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="fc-console-identity"]');
  return meta?.content === 'cognito' ? 'cognito' : 'local';
}

const LAST_ORG = 'fc-console.last-organization';

/** The organisation last opened in this browser (not sensitive: an id the user can see anyway). */
export function rememberOrganization(orgId: string): void {
  try {
    localStorage.setItem(LAST_ORG, orgId);
  } catch {
    // Storage may be unavailable (private mode): the first organisation is the default then.
  }
}

export function preferredOrganization(session: SessionView): OrganizationMembership | undefined {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(LAST_ORG);
  } catch {
    remembered = null;
  }
  return session.organizations.find((o) => o.organization_id === remembered) ?? session.organizations[0];
}

const PENDING_INVITATION = 'fc-console.pending-invitation';

/**
 * An invitation being accepted across a Cognito sign-in (the hosted UI comes back to /console/, not
 * to the invitation's URL). Session storage: gone with the tab.
 */
export function keepPendingInvitation(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(PENDING_INVITATION, token);
    else sessionStorage.removeItem(PENDING_INVITATION);
  } catch {
    // Without storage the user opens the invitation link again after signing in.
  }
}

export function pendingInvitation(): string | null {
  try {
    return sessionStorage.getItem(PENDING_INVITATION);
  } catch {
    return null;
  }
}
