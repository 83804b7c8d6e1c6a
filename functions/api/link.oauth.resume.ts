// POST /link/api/oauth/resume: the OAuth consent finished at the integrator's redirect_uri page,
// which re-opened Link with received_redirect_uri -> connected, select_accounts, or why not.
import { resumeOauth } from '../app/link-oauth';
import { linkCallerOf } from '../app/link-session';
import { linkOauthResume } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkOauthResume, ({ deps, body, event, baseUrl }) => resumeOauth(deps, body, linkCallerOf(event), baseUrl));
