// POST /console/api/auth/login: password sign-in (the local identity): the session cookie is set on
// the answer, which carries the session's CSRF token. A deployment that signs in through Cognito
// has no passwords: there the console's page offers auth/start instead.
import { deploymentIdentity, signInWithPassword } from '../app/console/session';
import { ApiError } from '../contracts/errors';
import { consoleAuthLogin } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleAuthLogin, async ({ deps, body, caller }) => {
  const identity = deploymentIdentity();
  if (identity.kind !== 'local') throw new ApiError('sign_in_method_unavailable', 'This console signs in through its identity provider: open the console page and choose Sign in.');
  const signedIn = await signInWithPassword(deps, { clientAddress: caller.clientAddress }, body, identity);
  caller.startSession(signedIn.sessionToken, signedIn.sessionExpiresAt);
  return signedIn.answer;
});
