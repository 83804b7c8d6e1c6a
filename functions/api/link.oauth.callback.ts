// GET /link/oauth/callback?state&code (or ?state&error, or a provider's ?ref): where the provider
// sends the user back after consent. The URL carries no link token, so the page finds its session in
// the browser (the flow kept the token in sessionStorage before leaving) and completes the consent
// through POST /link/api/oauth/complete, where the state is checked against the session.
import { linkOauthCallback } from '../contracts/routes';
import { renderOauthCallbackPage } from '../platform/link-ui/page';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkOauthCallback, ({ event }) => renderOauthCallbackPage(event.queryStringParameters ?? {}));
