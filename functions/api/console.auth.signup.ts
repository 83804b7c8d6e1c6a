// POST /console/api/auth/signup: a local account for the address an open invitation names, made a
// member with the invitation's role and signed in (the session cookie is set on the answer).
import { deploymentIdentity, signUpWithInvitation } from '../app/console/session';
import { ApiError } from '../contracts/errors';
import { consoleAuthSignup } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(consoleAuthSignup, async ({ deps, body, caller, requestId }) => {
  const identity = deploymentIdentity();
  if (identity.kind !== 'local') throw new ApiError('sign_in_method_unavailable', 'This console signs up through its identity provider: open the invitation link and choose Sign in.');
  const signedUp = await signUpWithInvitation(deps, { clientAddress: caller.clientAddress, userAgent: caller.userAgent, requestId }, body, identity);
  caller.startSession(signedUp.sessionToken, signedUp.sessionExpiresAt);
  return signedUp.answer;
});
