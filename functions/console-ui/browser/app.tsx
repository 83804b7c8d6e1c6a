// The console app: reads the session, then renders the page the fragment names inside the signed-in
// or signed-out frame. Signed out, every page but the invitation page sends the user to sign-in and
// back where they were afterwards.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { asApiError, callConsole, setCsrfToken, whenRoleForbidden, whenSessionLost, type ConsoleApiError } from './api';
import { SignedInLayout, SignedOutLayout } from './components/layout';
import { AnnouncerProvider, Button, ErrorNotice, PageTitle, useAnnounce } from './components/ui';
import { ApplicationPage } from './pages/application';
import { ApplicationsPage } from './pages/applications';
import { AuditPage } from './pages/audit';
import { AcceptInvitationPage, InvitationSignInPage } from './pages/invitation';
import { MembersPage } from './pages/members';
import { NewOrganizationPage, SettingsPage } from './pages/organizations';
import { SignInPage } from './pages/sign-in';
import { href, navigate, parseRoute, useRoute, type Route } from './route';
import { SessionContext, keepPendingInvitation, membershipOf, pendingInvitation, preferredOrganization, rememberOrganization, shellIdentity, type SessionContextValue } from './session';
import type { AcceptedInvitation, IdentityKind, SessionView, SignInAnswer } from './types';

type Auth =
  | { status: 'loading' }
  | { status: 'signed-out'; identity: IdentityKind }
  | { status: 'signed-in'; session: SessionView }
  | { status: 'failed'; error: ConsoleApiError };

/** The organisation a sign-up by invitation just joined (the sign-up answer says so), for that invitation's page. */
interface JoinedByInvitation {
  token: string;
  accepted: AcceptedInvitation;
}

function orgOf(route: Route): string | null {
  return 'org' in route ? route.org : null;
}

function NotFoundPage({ message }: { message: string }) {
  return (
    <>
      <PageTitle title="Not found" />
      <p>{message}</p>
      <p>
        <a href={href.home()}>Go to the console&apos;s start page</a>
      </p>
    </>
  );
}

function SignedInPage({ route, joined }: { route: Route; joined: JoinedByInvitation | null }) {
  switch (route.name) {
    case 'new-organization':
      return <NewOrganizationPage />;
    case 'applications':
      return <ApplicationsPage org={route.org} />;
    case 'application':
      return <ApplicationPage org={route.org} appId={route.app} env={route.env} section={route.section} params={route.params} />;
    case 'members':
      return <MembersPage org={route.org} />;
    case 'audit':
      return <AuditPage org={route.org} />;
    case 'settings':
      return <SettingsPage org={route.org} />;
    case 'invitation':
      return <AcceptInvitationPage token={route.token} joined={joined?.token === route.token ? joined.accepted : null} />;
    case 'home':
    case 'sign-in':
      // Redirected by the effect in Console; nothing to show for the moment in between.
      return <PageTitle title="Opening the console" />;
    case 'not-found':
      return <NotFoundPage message="The console has no page at this address." />;
  }
}

function activeNavKey(route: Route): string {
  if (route.name === 'application') return 'applications';
  return route.name;
}

function Console() {
  const [auth, setAuth] = useState<Auth>({ status: 'loading' });
  const [joined, setJoined] = useState<JoinedByInvitation | null>(null);
  const { route, hash } = useRoute();
  const announce = useAnnounce();

  const signedOut = useCallback(() => {
    setCsrfToken(null);
    setAuth({ status: 'signed-out', identity: shellIdentity() });
  }, []);

  const loadSession = useCallback(async () => {
    try {
      const session = await callConsole<SessionView>('console.session');
      setCsrfToken(session.csrf_token);
      setAuth({ status: 'signed-in', session });
    } catch (err) {
      const error = asApiError(err);
      if (error.status === 401) signedOut();
      else setAuth({ status: 'failed', error });
    }
  }, [signedOut]);

  useEffect(() => {
    whenSessionLost(() => {
      signedOut();
      announce('Your session ended. Sign in again.');
    });
    whenRoleForbidden(() => void loadSession());
    void loadSession();
  }, [announce, loadSession, signedOut]);

  // Where the fragment and the session disagree, the fragment follows.
  useEffect(() => {
    if (auth.status === 'signed-out') {
      // The address as it is now, not as last rendered: signing out has already moved it to sign-in.
      const current = parseRoute(location.hash);
      if (current.name !== 'sign-in' && current.name !== 'invitation') navigate(href.signIn(current.name === 'home' ? null : location.hash), { replace: true });
    }
    if (auth.status !== 'signed-in') return;
    const { session } = auth;
    if (route.name === 'sign-in') {
      navigate(route.next && route.next.startsWith('#/') ? route.next : href.home(), { replace: true });
    } else if (route.name === 'home') {
      const invitation = pendingInvitation();
      const preferred = preferredOrganization(session);
      if (invitation) {
        // Back from a Cognito sign-in started on an invitation's page: once, then forgotten.
        keepPendingInvitation(null);
        navigate(`#/invitations/${encodeURIComponent(invitation)}`, { replace: true });
      }
      else if (preferred) navigate(href.applications(preferred.organization_id), { replace: true });
      else navigate(href.newOrganization(), { replace: true });
    }
    const org = orgOf(route);
    if (org && membershipOf(session, org)) rememberOrganization(org);
  }, [auth, route, hash]);

  const onSignedIn = useCallback(
    (answer: SignInAnswer) => {
      setCsrfToken(answer.csrf_token);
      const { organization } = answer;
      if (organization && route.name === 'invitation') {
        setJoined({ token: route.token, accepted: { organization_id: organization.organization_id, name: organization.name, role: organization.role } });
      }
      announce(answer.organization ? 'Account created and invitation accepted.' : 'Signed in.');
      void loadSession();
    },
    [announce, loadSession, route],
  );

  const context = useMemo<SessionContextValue | null>(() => {
    if (auth.status !== 'signed-in') return null;
    return {
      session: auth.session,
      refresh: loadSession,
      signOut: async () => {
        try {
          await callConsole('console.auth.logout');
        } catch {
          // Whatever the server answered, this page forgets the session; a session left on the server ends by its own expiry.
        }
        signedOut();
        announce('Signed out.');
        navigate(href.signIn());
      },
    };
  }, [auth, loadSession, signedOut, announce]);

  if (auth.status === 'loading') {
    return (
      <SignedOutLayout>
        <p className="muted">Loading the console…</p>
      </SignedOutLayout>
    );
  }
  if (auth.status === 'failed') {
    return (
      <SignedOutLayout>
        <PageTitle title="The console cannot start" />
        <ErrorNotice error={auth.error} />
        <Button variant="primary" onClick={() => void loadSession()}>
          Try again
        </Button>
      </SignedOutLayout>
    );
  }
  if (auth.status === 'signed-out') {
    return (
      <SignedOutLayout>
        {route.name === 'invitation' ? (
          <InvitationSignInPage token={route.token} identity={auth.identity} onSignedIn={onSignedIn} />
        ) : (
          <SignInPage identity={auth.identity} onSignedIn={onSignedIn} />
        )}
      </SignedOutLayout>
    );
  }
  const org = orgOf(route);
  const member = org ? membershipOf(auth.session, org) : undefined;
  return (
    <SessionContext.Provider value={context}>
      <SignedInLayout org={member ? org : (preferredOrganization(auth.session)?.organization_id ?? null)} active={activeNavKey(route)}>
        {org && !member ? <NotFoundPage message="This organisation does not exist, or you are not one of its members." /> : <SignedInPage route={route} joined={joined} />}
      </SignedInLayout>
    </SessionContext.Provider>
  );
}

export function App() {
  return (
    <AnnouncerProvider>
      <Console />
    </AnnouncerProvider>
  );
}
