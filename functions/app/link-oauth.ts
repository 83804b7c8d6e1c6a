// Link's OAuth steps (link.oauth.start, link.oauth.complete, link.oauth.resume): the provider's
// consent URL, and the consent's return through Link's callback or the integrator's redirect_uri.
// They build connectors from the OAuth adapters only (and the sandbox's simulated bank for test keys).
import { OAUTH_ADAPTERS } from '../connectors/by-method/oauth';
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { randomToken } from '../core/api-keys';
import type { ConsentInput } from '../core/connector-port';
import { SANDBOX_CONNECTOR_ID } from '../core/connectors';
import { tokenHash } from '../core/tokens';
import { setPendingOauth, takePendingOauth, type LinkSessionRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { connectorCall, connectorUsing, consentContext, finishConsent, selectionWanted, sessionInstitution, withAttempt, type LinkStep } from './link-connection';
import { sandboxBankMayReturnTo } from './link-sandbox-bank';
import { oauthRedirectUri, openSession, withQuery, type LinkCaller } from './link-session';
import { openProviderSecrets, sealProviderSecrets } from './provider-secrets';

/** What the OAuth steps bring to a connection: their adapters (no data comes with an OAuth consent). */
const OAUTH_STEP: LinkStep = { adapters: OAUTH_ADAPTERS };

/** How long an OAuth consent may take at the provider (within the session's own lifetime). */
const OAUTH_CONSENT_MS = 15 * 60_000;

/** The encryption context of an OAuth consent's pending secrets: bound to the Link session, not to any item. */
function pendingOwner(session: LinkSessionRecord) {
  return { itemId: session.linkSessionId, applicationId: session.applicationId, environment: session.environment };
}

/**
 * POST /link/api/oauth/start: a fresh random state (only its hash is stored on the session, with
 * what the connector asks to keep sealed), and the provider URL to send the user to.
 */
export async function startOauth(deps: Deps, body: RequestOf<'link.oauth.start'>, caller: LinkCaller, baseUrl: string) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  const { connector } = await connectorUsing(OAUTH_ADAPTERS, deps, session, institution, ['oauth']);
  const beginOauth = connector.beginOauth?.bind(connector) ?? fail('provider_error', 'The connector for this institution cannot start a consent.');
  const simulatedBank = connector.id === SANDBOX_CONNECTOR_ID;
  if (simulatedBank && session.redirectUri && !(await sandboxBankMayReturnTo(deps, session, session.redirectUri))) {
    fail(
      'redirect_uri_not_allowed',
      `The sandbox bank sends the user back only to a loopback redirect_uri or one on the application's list of allowed redirect URIs (OAuth redirect URIs are allowlisted in the sandbox too): add ${session.redirectUri} to the list, or create the link token without redirect_uri.`,
    );
  }
  const state = randomToken(32);
  const begun = await connectorCall(() => beginOauth({ institutionId: institution.institution_id, state, redirectUri: oauthRedirectUri(baseUrl) }));
  // The simulated bank finds the session (and so where to send the user back) by its key, checked
  // together with the state: it never takes a return address from the URL.
  const authorizeUrl = connector.id === SANDBOX_CONNECTOR_ID ? withQuery(begun.authorizeUrl, { session: session.linkTokenHash }) : begun.authorizeUrl;
  await setPendingOauth(deps, session, {
    stateHash: tokenHash(state),
    institutionId: institution.institution_id,
    pending: await sealProviderSecrets(deps, pendingOwner(session), begun.pending),
    expiresAt: Math.min(session.expiresAt, deps.clock.now() + OAUTH_CONSENT_MS),
    // The simulated bank's Allow or Deny is recorded here when the user submits it: until then the state cannot complete.
    ...(simulatedBank ? { sandboxDecision: 'awaiting' as const } : {}),
  });
  // The simulated bank sends the user to the link token's redirect_uri when it has one (Plaid's OAuth redirect).
  const returnsTo = connector.id === SANDBOX_CONNECTOR_ID && session.redirectUri ? ('redirect_uri' as const) : ('link' as const);
  return { authorize_url: authorizeUrl, returns_to: returnsTo };
}


/**
 * POST /link/api/oauth/complete: what the provider sent back to the callback. The state must be
 * the one this session started last, not redeemed before (taking it removes it) and not expired;
 * an `error` from the provider (the user declined) ends the consent without a connection.
 */
export async function completeOauth(deps: Deps, body: RequestOf<'link.oauth.complete'>, caller: LinkCaller, baseUrl: string) {
  return completeOauthOf(deps, await openSession(deps, body.link_token, caller), body, baseUrl);
}

/**
 * POST /link/api/oauth/resume: the integrator's page at its redirect_uri re-opened Link with the URL
 * it was opened at (Plaid's received_redirect_uri). It must be the link token's redirect_uri (same
 * origin and path) and carry the consent's `oauth_state_id` (and `error` when the user declined);
 * the consent then completes exactly as through Link's own callback.
 */
export async function resumeOauth(deps: Deps, body: RequestOf<'link.oauth.resume'>, caller: LinkCaller, baseUrl: string) {
  const session = await openSession(deps, body.link_token, caller);
  if (!session.redirectUri) fail('invalid_field', 'This link token has no redirect_uri, so there is no OAuth redirect to resume: create it with the redirect_uri your page is served at.');
  const received = parsedUrl(body.received_redirect_uri) ?? fail('invalid_field', 'received_redirect_uri must be the full URL (https://...) your redirect page was opened at.');
  const expected = parsedUrl(session.redirectUri) ?? fail('invalid_field', 'received_redirect_uri does not match the link token\'s redirect_uri.');
  if (received.origin !== expected.origin || received.pathname !== expected.pathname) {
    fail('invalid_field', 'received_redirect_uri does not match the link token\'s redirect_uri (origin and path): pass the URL the page at your redirect_uri was opened at.');
  }
  const param = (name: string) => {
    const value = received.searchParams.get(name);
    return value !== null && value !== '' && value.length <= LINK_OAUTH_PARAM_MAX ? value : undefined;
  };
  const state = param('oauth_state_id') ?? fail('oauth_state_invalid', 'received_redirect_uri carries no oauth_state_id: pass the whole URL, query included.');
  const code = param('code');
  const error = param('error');
  return completeOauthOf(deps, session, { state, ...(code !== undefined ? { code } : {}), ...(error !== undefined ? { error } : {}), account_selection: body.account_selection }, baseUrl);
}

/** The longest value read from a redirect's query (as the callback page reads them). */
const LINK_OAUTH_PARAM_MAX = 2048;

function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** What a consent's return carries, from Link's callback or the integrator's redirect. */
interface OauthReturn {
  state: string;
  code?: string;
  error?: string;
  account_selection?: boolean;
}

async function completeOauthOf(deps: Deps, session: LinkSessionRecord, body: OauthReturn, baseUrl: string) {
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const stateHash = tokenHash(body.state);
  // A sandbox consent nobody answered on the bank page is refused without spending it, so the user can still answer.
  if (session.oauth?.stateHash === stateHash && session.oauth.sandboxDecision === 'awaiting') fail('oauth_state_invalid', SANDBOX_UNANSWERED);
  const pending = await takePendingOauth(deps, session, stateHash);
  if (!pending) fail('oauth_state_invalid');
  if (pending.expiresAt <= deps.clock.now()) fail('oauth_state_invalid', 'This sign-in took too long to come back. Start again.');
  // The decision recorded by the sandbox bank is the answer, whatever the returned URL says.
  if (pending.sandboxDecision === 'awaiting') fail('oauth_state_invalid', SANDBOX_UNANSWERED);
  if (pending.sandboxDecision === 'deny') fail('oauth_access_denied');
  if (body.error !== undefined) {
    if (body.error === 'access_denied') fail('oauth_access_denied');
    fail('oauth_access_denied', 'The institution did not grant access. Start again, or choose another way to connect.');
  }
  const institution = sessionInstitution(session, pending.institutionId);
  const { connector, connect } = await connectorUsing(OAUTH_ADAPTERS, deps, session, institution, ['oauth']);
  const kept = (await openProviderSecrets(deps, { ...pendingOwner(session), providerSecrets: pending.pending })) ?? {};
  // Some providers send back only a reference (the state) and no code: the adapter decides with what it kept.
  const input: ConsentInput = { method: 'oauth', code: body.code ?? '', redirectUri: oauthRedirectUri(baseUrl), pending: kept };
  return withAttempt(deps, session, async (attempt) => finishConsent(deps, session, institution, OAUTH_STEP, connector, await connectorCall(() => connect(institution.institution_id, input), attempt), selectionWanted(session, body), attempt));
}

const SANDBOX_UNANSWERED = 'The consent was not answered on the sandbox bank page: choose Allow or Deny there first.';
