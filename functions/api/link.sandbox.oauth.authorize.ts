// GET /link/sandbox/oauth/authorize?session&state: the simulated bank consent page of the sandbox's
// OAuth institutions. It only renders the page: the decision is the page's POST form
// (link.sandbox.oauth.decide), so no link or prefetch can answer a consent.
import { sandboxBankConsent } from '../app/link-sandbox-bank';
import { linkSandboxOauthAuthorize } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { renderSandboxBankConsent, renderSandboxBankInvalid } from '../platform/link-ui/sandbox-bank';

export const handler = defineOperation(linkSandboxOauthAuthorize, async ({ deps, event }) => {
  const answer = await sandboxBankConsent(deps, event.queryStringParameters ?? {});
  return answer.kind === 'page' ? renderSandboxBankConsent(answer) : renderSandboxBankInvalid();
});
