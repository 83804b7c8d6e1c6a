// GET /console/api/auth/start: begins a sign-in at Cognito's hosted UI (authorization code with
// PKCE). The browser keeps the sign-in's state in a short-lived cookie (SameSite=Lax, so the
// cross-site return carries it); the verifier stays server-side (app/console/session.ts).
import { beginCognitoSignIn, COGNITO_SIGN_IN_MS, deploymentIdentity } from '../app/console/session';
import { ApiError } from '../contracts/errors';
import { consoleAuthStart } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleAuthStart, async ({ deps, caller, baseUrl }) => {
  const identity = deploymentIdentity();
  if (identity.kind !== 'cognito') throw new ApiError('sign_in_method_unavailable', 'This console signs in with a password: open the console page.');
  const { url, state } = await beginCognitoSignIn(deps, identity, `${baseUrl}/console/api/auth/callback`);
  caller.keepSignInState(state, COGNITO_SIGN_IN_MS / 1000);
  return { statusCode: 302, headers: { Location: url }, body: '' };
});
