// POST /link/api/oauth/start: the provider's consent URL for an institution; the user comes back to
// GET /link/oauth/callback on this deployment's base URL.
import { startOauth } from '../app/link-oauth';
import { linkCallerOf } from '../app/link-session';
import { linkOauthStart } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkOauthStart, ({ deps, body, event, baseUrl }) => startOauth(deps, body, linkCallerOf(event), baseUrl));
