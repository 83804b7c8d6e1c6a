// GET /link?token=<link_token>[&embed=1&origin=<parent origin>][&received_redirect_uri=<url>]: the hosted Link page. A usable
// token gets the flow (functions/platform/link-ui); an invalid, expired or spent one gets an error
// page telling the user to ask the app for a new link. Embedded, the parent origin must be one the
// token's application allows (or loopback, for test keys), else the page is the invalid_embed error.
import { describePage } from '../app/link-session';
import { ApiError, type ErrorCode } from '../contracts/errors';
import { linkPage } from '../contracts/routes';
import { negotiateLanguage } from '../platform/link-ui/i18n';
import { embedModeOf, isLinkTokenShaped, receivedRedirectUriOf, renderErrorPage, renderFlowPage, type LinkPageProblem } from '../platform/link-ui/page';
import { headerOf } from '../platform/middleware';
import { defineOperation } from '../platform/operation';
import { logger } from '../platform/observability';

/** The errors about the token itself: the user gets the error page that says to ask for a new link. */
const TOKEN_PROBLEMS = ['invalid_link_token', 'link_token_expired', 'link_token_used'] as const satisfies readonly LinkPageProblem[];

function isTokenProblem(code: ErrorCode): code is (typeof TOKEN_PROBLEMS)[number] {
  return (TOKEN_PROBLEMS as readonly ErrorCode[]).includes(code);
}

export const handler = defineOperation(linkPage, async ({ deps, event, requestId, baseUrl }) => {
  const query = event.queryStringParameters ?? {};
  const embed = embedModeOf(query);
  // Without a usable token there is no session language: the error page follows the browser's.
  const language = negotiateLanguage(headerOf(event, 'accept-language'));
  if (embed === 'invalid') return renderErrorPage({ problem: 'invalid_embed', requestId, baseUrl, embed: null, language });
  const token = query.token;
  if (!isLinkTokenShaped(token)) return renderErrorPage({ problem: 'invalid_link_token', requestId, baseUrl, embed, language });
  try {
    // A page reloaded at the account-selection step opens at that step again (`resumed`).
    const { session, embedAllowed, resumed } = await describePage(deps, token, embed.embed ? embed.parentOrigin : null);
    // A parent origin the application has not allowed may neither frame the page nor be posted to.
    if (embedAllowed === false) return renderErrorPage({ problem: 'invalid_embed', requestId, baseUrl, embed: null, language });
    return renderFlowPage({ token, session, embed, receivedRedirectUri: receivedRedirectUriOf(query.received_redirect_uri), selectionStep: resumed });
  } catch (err) {
    if (err instanceof ApiError && isTokenProblem(err.code)) {
      return renderErrorPage({ problem: err.code, message: err.message, requestId, baseUrl, embed, language });
    }
    logger.error('link page could not load its session', { error: err as Error });
    return renderErrorPage({ problem: 'internal_error', requestId, baseUrl, embed, language });
  }
});
