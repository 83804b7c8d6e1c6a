// The sandbox's simulated bank consent page (link.sandbox.oauth.authorize, link.sandbox.oauth.decide):
// the OAuth consent of the sandbox network's OAuth institutions, for test keys. It answers consents
// Link started (./link-oauth) and reaches no connector.
import { SANDBOX_OAUTH_CODE } from '../connectors/sandbox/oauth-bank';
import { LIMITS } from '../contracts/limits';
import { findInstitution } from '../core/institutions';
import { sandboxBankReturnAllowed } from '../core/link-rules';
import { tokenHash } from '../core/tokens';
import { getLinkSettings } from '../data/api-keys-repo';
import { getLinkSessionByHash, recordSandboxOauthDecision, type LinkSessionRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { oauthRedirectUri, withQuery } from './link-session';

/** What the sandbox bank answers: the consent page (GET), the redirect back (a submitted decision), or a refusal. */
export type SandboxBankAnswer =
  | { kind: 'page'; institutionName: string; clientName: string; fields: Record<string, string>; returnOrigin: string | null }
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid' };

/** The application's allowlist or a loopback host: where the sandbox bank may send the user (core/link-rules.ts). */
export async function sandboxBankMayReturnTo(deps: Deps, session: LinkSessionRecord, redirectUri: string): Promise<boolean> {
  return sandboxBankReturnAllowed(redirectUri, (await getLinkSettings(deps, session.applicationId)).redirectUris);
}

/** The test session and its sandbox consent under way that a bank request names, or null. */
async function sandboxBankConsentOf(deps: Deps, sessionKey: string | undefined, state: string | undefined) {
  if (!sessionKey || !/^[0-9a-f]{64}$/.test(sessionKey) || !state || state.length > LIMITS.tokenMaxLength) return null;
  const session = await getLinkSessionByHash(deps, sessionKey);
  const now = deps.clock.now();
  if (!session || session.environment !== 'test' || session.status !== 'open' || session.expiresAt <= now) return null;
  const pending = session.oauth;
  if (!pending || pending.stateHash !== tokenHash(state) || pending.expiresAt <= now || pending.sandboxDecision !== 'awaiting') return null;
  const institution = findInstitution(pending.institutionId);
  if (!institution) return null;
  if (session.redirectUri && !(await sandboxBankMayReturnTo(deps, session, session.redirectUri))) return null;
  return { session, institution };
}

/**
 * GET: the simulated bank of the sandbox's OAuth institutions. The URL names the Link session (its
 * key) and the consent's state: both must match a test session's consent under way, unexpired and
 * not yet answered, so the page only ever answers a consent Link started. A GET never decides (a
 * `decision` in the URL is ignored): it renders the page, whose Allow and Deny buttons POST the form.
 */
export async function sandboxBankConsent(deps: Deps, query: Record<string, string | undefined>): Promise<SandboxBankAnswer> {
  const found = await sandboxBankConsentOf(deps, query.session, query.state);
  if (!found) return { kind: 'invalid' };
  const { session, institution } = found;
  return {
    kind: 'page',
    institutionName: institution.name,
    clientName: session.clientName,
    fields: { session: session.linkTokenHash, state: query.state as string },
    returnOrigin: session.redirectUri ? new URL(session.redirectUri).origin : null,
  };
}

/**
 * POST (the page's form): the user's Allow or Deny, recorded on the session against the state (once),
 * then the redirect back, never to an address taken from the request: the link token's redirect_uri
 * with `oauth_state_id` (as Plaid's OAuth redirect; only a loopback or allowlisted one), else Link's
 * own callback with the state and a code. Deny adds `error=access_denied`, which Link answers with
 * oauth_access_denied. oauth/resume and oauth/complete refuse a sandbox state with no recorded answer.
 */
export async function sandboxBankDecide(deps: Deps, form: Record<string, string | undefined>, baseUrl: string): Promise<SandboxBankAnswer> {
  const { decision, state } = form;
  if (decision !== 'allow' && decision !== 'deny') return { kind: 'invalid' };
  const found = await sandboxBankConsentOf(deps, form.session, state);
  if (!found || state === undefined) return { kind: 'invalid' };
  const { session } = found;
  if (!(await recordSandboxOauthDecision(deps, session, tokenHash(state), decision))) return { kind: 'invalid' };
  const outcome: Record<string, string> = decision === 'deny' ? { error: 'access_denied' } : {};
  const location = session.redirectUri
    ? withQuery(session.redirectUri, { oauth_state_id: state, ...outcome })
    : withQuery(oauthRedirectUri(baseUrl), { state, ...(decision === 'deny' ? outcome : { code: SANDBOX_OAUTH_CODE }) });
  return { kind: 'redirect', location };
}
