// POST /link/sandbox/oauth/authorize (form: session, state, decision): the user's Allow or Deny on
// the simulated bank page, recorded against the consent, and the redirect back.
import { sandboxBankDecide } from '../app/link-sandbox-bank';
import { linkSandboxOauthDecide } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { renderSandboxBankInvalid, sandboxBankForm, sandboxBankRedirect } from '../platform/link-ui/sandbox-bank';

export const handler = defineOperation(linkSandboxOauthDecide, async ({ deps, event, baseUrl }) => {
  const form = sandboxBankForm(event);
  const answer = form ? await sandboxBankDecide(deps, form, baseUrl) : ({ kind: 'invalid' } as const);
  return answer.kind === 'redirect' ? sandboxBankRedirect(answer.location) : renderSandboxBankInvalid();
});
