// An invitation link (#/invitations/<token>): signed in, the user accepts it; signed out, they sign
// in first (or, with the local identity, create their account with the invited e-mail address).
// The token stays in the fragment, which browsers never send to a server or in a Referer.
import { useState, type FormEvent } from 'react';
import { callConsole } from '../api';
import { Button, ErrorNotice, Field, Notice, PageTitle, useAction, useAnnounce } from '../components/ui';
import { roleLabel } from '../format';
import { href } from '../route';
import { keepPendingInvitation, useSession } from '../session';
import type { AcceptedInvitation, IdentityKind, SignInAnswer } from '../types';
import { PasswordSignInForm, cognitoSignIn } from './sign-in';

/** `joined`: the invitation was already accepted by signing up with it (console.auth.signup does both). */
export function AcceptInvitationPage({ token, joined }: { token: string; joined: AcceptedInvitation | null }) {
  const { session, refresh } = useSession();
  const announce = useAnnounce();
  const [accepted, setAccepted] = useState<AcceptedInvitation | null>(joined);
  const accept = useAction(() => callConsole<AcceptedInvitation>('console.invitations.accept', { token }));
  const run = async () => {
    if (accept.busy) return;
    const outcome = await accept.execute();
    if (!outcome.ok) return;
    keepPendingInvitation(null);
    await refresh();
    setAccepted(outcome.value);
    announce('Invitation accepted.');
  };
  if (accepted) {
    const name = accepted.name ?? session.organizations.find((o) => o.organization_id === accepted.organization_id)?.name ?? 'the organisation';
    return (
      <>
        <PageTitle title="Invitation accepted" />
        <Notice tone="success">
          <p>
            You joined {name} as {roleLabel(accepted.role).toLowerCase()}.
          </p>
        </Notice>
        <p>
          <a href={href.applications(accepted.organization_id)}>Open {name}</a>
        </p>
      </>
    );
  }
  return (
    <>
      <PageTitle title="Join an organisation" />
      <p>
        You were invited to an organisation on the Fincore console. You are signed in as <strong>{session.user.email}</strong>; the invitation must
        be for this address.
      </p>
      {accept.error ? (
        <ErrorNotice
          error={accept.error}
          action={accept.error.code === 'invitation_expired' ? <p>Ask the person who invited you for a new invitation.</p> : undefined}
        />
      ) : null}
      <div className="toolbar">
        <Button variant="primary" onClick={() => void run()} aria-disabled={accept.busy ? true : undefined}>
          Accept invitation
        </Button>
        <a href={href.home()}>Not now</a>
      </div>
    </>
  );
}

/**
 * Signed out: sign in first (the page then offers to accept), or, with the local identity, create
 * the account with the invited address, which also accepts the invitation.
 */
export function InvitationSignInPage({ token, identity, onSignedIn }: { token: string; identity: IdentityKind; onSignedIn: (answer: SignInAnswer) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signUp = useAction(() => callConsole<SignInAnswer>('console.auth.signup', { email: email.trim(), password, name: name.trim(), invitation_token: token }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (signUp.busy) return;
    const outcome = await signUp.execute();
    if (outcome.ok) onSignedIn(outcome.value);
  };
  return (
    <>
      <PageTitle title="Join an organisation" />
      <p>You were invited to an organisation on the Fincore console. Sign in with the e-mail address the invitation was sent to, then accept it.</p>
      {identity === 'cognito' ? (
        <div>
          <Button
            variant="primary"
            onClick={() => {
              keepPendingInvitation(token);
              cognitoSignIn();
            }}
          >
            Sign in
          </Button>
        </div>
      ) : (
        <div className="columns">
          <section aria-labelledby="have-account">
            <h2 id="have-account">I have an account</h2>
            <PasswordSignInForm onSignedIn={onSignedIn} />
          </section>
          <section aria-labelledby="new-account">
            <h2 id="new-account">I am new here</h2>
            <form onSubmit={submit} className="stack" noValidate>
              <Field label="Your name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} />
              <Field label="E-mail (the invited address)" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
              <Field
                label="New password"
                type="password"
                autoComplete="new-password"
                required
                minLength={12}
                hint="At least 12 characters."
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              {signUp.error ? <ErrorNotice error={signUp.error} /> : null}
              <div>
                <Button type="submit" variant="primary" aria-disabled={signUp.busy ? true : undefined}>
                  Create account
                </Button>
              </div>
            </form>
          </section>
        </div>
      )}
    </>
  );
}
