// Sign-in: locally an e-mail and password form (console.auth.login); on AWS a button to Amazon
// Cognito's hosted UI (GET api/auth/start, which comes back to /console/ signed in).
import { useState, type FormEvent } from 'react';
import { apiUrl, callConsole } from '../api';
import { Button, ErrorNotice, Field, PageTitle, useAction } from '../components/ui';
import type { IdentityKind, SignInAnswer } from '../types';

export function cognitoSignIn(): void {
  location.assign(apiUrl('console.auth.start'));
}

/** The local password form; `onSignedIn` gets the answer (the app then loads the session). */
export function PasswordSignInForm({ onSignedIn, submitLabel = 'Sign in' }: { onSignedIn: (answer: SignInAnswer) => void; submitLabel?: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useAction(() => callConsole<SignInAnswer>('console.auth.login', { email: email.trim(), password }));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (signIn.busy) return;
    const outcome = await signIn.execute();
    if (outcome.ok) onSignedIn(outcome.value);
  };
  return (
    <form onSubmit={submit} className="stack" noValidate>
      <Field label="E-mail" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <Field label="Password" type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      {signIn.error ? <ErrorNotice error={signIn.error} /> : null}
      <div>
        <Button type="submit" variant="primary" aria-disabled={signIn.busy ? true : undefined}>
          {signIn.busy ? 'Signing in…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}

export function SignInPage({ identity, onSignedIn }: { identity: IdentityKind; onSignedIn: (answer: SignInAnswer) => void }) {
  return (
    <>
      <PageTitle title="Sign in" />
      <p>Sign in to manage your organisation&apos;s applications, API keys, webhooks and members.</p>
      {identity === 'cognito' ? (
        <div className="stack">
          <p>You sign in with your organisation&apos;s account on the sign-in page (Amazon Cognito); it brings you back here.</p>
          <div>
            <Button variant="primary" onClick={cognitoSignIn}>
              Sign in
            </Button>
          </div>
        </div>
      ) : (
        <PasswordSignInForm onSignedIn={onSignedIn} />
      )}
    </>
  );
}
