// GET /console/api/auth/callback?code&state: Cognito sends the browser back here. The state must be
// the one this browser's sign-in began with; the code is redeemed, the session cookie set, and the
// browser goes on to the console.
import { deploymentIdentity, finishCognitoSignIn } from '../app/console/session';
import { CONSOLE_SIGN_IN_COOKIE } from '../contracts/console-schemas';
import { ApiError } from '../contracts/errors';
import { consoleAuthCallback } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleAuthCallback, async ({ deps, caller, baseUrl, event }) => {
  const identity = deploymentIdentity();
  if (identity.kind !== 'cognito') throw new ApiError('sign_in_method_unavailable', 'This console signs in with a password: open the console page.');
  const query = event.queryStringParameters ?? {};
  // Spent or not, the sign-in's state has done its work.
  caller.clearSignInState();
  const signedIn = await finishCognitoSignIn(deps, identity, { code: query.code, state: query.state, keptState: caller.cookie(CONSOLE_SIGN_IN_COOKIE) });
  caller.startSession(signedIn.sessionToken, signedIn.sessionExpiresAt);
  return { statusCode: 302, headers: { Location: `${baseUrl}/console/` }, body: '' };
});
