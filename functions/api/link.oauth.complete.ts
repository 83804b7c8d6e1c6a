// POST /link/api/oauth/complete: what the provider sent back to the callback -> connected, or why not.
import { completeOauth } from '../app/link-oauth';
import { linkCallerOf } from '../app/link-session';
import { linkOauthComplete } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkOauthComplete, ({ deps, body, event, baseUrl }) => completeOauth(deps, body, linkCallerOf(event), baseUrl));
