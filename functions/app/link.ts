// The Link journey's steps that reach a connector: credentials and MFA, the consent methods of real
// connectors (OAuth redirect, API key, wallet address, statement upload), and item creation or
// repair with its public token. The session and token steps that need no connector (link tokens,
// the page's session, the exchange) are in ./link-session, re-exported here.
import { connectorFor, connectorNamed, sandboxCredentials } from '../connectors';
import { SANDBOX_OAUTH_CODE } from '../connectors/sandbox';
import { ApiError, ERRORS, fail, itemErrorOf, statusOf, type ErrorCode } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Environment, Product } from '../contracts/schemas';
import { randomToken } from '../core/api-keys';
import { ConnectorError, type ConnectorPort, type ConsentInput, type LinkMethod, type LoginResult, type ProviderSecrets, type SourceBatch } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID, SANDBOX_CONNECTOR_ID } from '../core/connectors';
import { findInstitution } from '../core/institutions';
import { sandboxBankReturnAllowed, successRedirect } from '../core/link-rules';
import { mintToken, newItemId, tokenHash } from '../core/tokens';
import { getLinkSettings, type AuthContext } from '../data/api-keys-repo';
import { newEvent, publishEvent } from '../data/events';
import {
  commitAccountSelection,
  commitLinkConnection,
  createConnectingItem,
  getItem,
  getItemForSelection,
  getLinkSessionByHash,
  getPublicToken,
  listAbandonedConnections,
  listAccounts,
  putAccounts,
  reapAbandonedConnection,
  recordFailedAttempt,
  recordSandboxOauthDecision,
  releaseFailedAttempt,
  setPendingMfa,
  setPendingOauth,
  takePendingOauth,
  type ItemCommit,
  type ItemRecord,
  type LinkSessionRecord,
  type StoredAccount,
} from '../data/items-repo';
import { eventPut, type WebhookFormat } from '../data/webhooks-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { connectorEnvFor, loadHistory, sourceAccounts, syncFromSource } from './item-source';
import { markItemError } from './item-state';
import { LINK_LIFETIME_MS, openCompletedSession, openSession, requireSupported, selectionStep, type CatalogInstitution, type LinkCaller } from './link-session';
import { sharedAccounts } from './reads';

export { createLinkToken, describePage, describeSession, exchangePublicToken, linkCallerOf, openSession, type LinkCaller } from './link-session';
import { openProviderSecrets, sealProviderSecrets } from './provider-secrets';
import { ingestStatementBatch } from './statement-import';

const CONNECT_DEADLINE_MS = LIMITS.linkConnectDeadlineMinutes * 60_000;

/**
 * One of the session's attempts, reserved before the connector sees what the user typed: parallel
 * requests cannot get more guesses to the institution than the lockout allows, since each must take
 * an attempt first (a conditional ADD). An attempt that fails stays counted (failAttempt); one that
 * succeeds, or whose input was never judged (the connector failed), is given back (releaseAttempt).
 */
interface Attempt {
  /** The session's failed attempts, this one included. */
  counted: number;
  settled: boolean;
}

async function reserveAttempt(deps: Deps, session: LinkSessionRecord): Promise<Attempt> {
  const counted = await recordFailedAttempt(deps, session, LIMITS.linkAttemptsMax);
  if (counted === null) sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
  return { counted, settled: false };
}

async function releaseAttempt(deps: Deps, session: LinkSessionRecord, attempt: Attempt): Promise<void> {
  if (attempt.settled) return;
  attempt.settled = true;
  await releaseFailedAttempt(deps, session);
}

/** Runs a step with a reserved attempt, given back unless the step counted it as failed. */
async function withAttempt<T>(deps: Deps, session: LinkSessionRecord, step: (attempt: Attempt) => Promise<T>): Promise<T> {
  const attempt = await reserveAttempt(deps, session);
  try {
    return await step(attempt);
  } finally {
    await releaseAttempt(deps, session, attempt).catch((err: unknown) => logger.warn('could not give back a Link attempt', { error: (err as Error).message }));
  }
}

/**
 * Answers a refused attempt (already counted by its reservation). `message` is the connector's own
 * word on what was refused (an API key without read permission), when it says.
 */
function failAttempt(attempt: Attempt, code: 'invalid_credentials' | 'invalid_mfa_code', message?: string): never {
  attempt.settled = true;
  const left = LIMITS.linkAttemptsMax - attempt.counted;
  if (left <= 0) fail('too_many_attempts');
  const refused = message ?? (code === 'invalid_credentials' ? 'The username or password is incorrect.' : 'The code is incorrect.');
  throw new ApiError(code, `${refused.replace(/\.?\s*$/, '.')} ${left} attempt${left === 1 ? '' : 's'} left.`);
}

export async function submitCredentials(deps: Deps, body: RequestOf<'link.connect'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  const connector = await sessionConnector(deps, session, institution);
  // No connector takes a username and password for this institution here (it is served by another method).
  if (connector.linkMethod !== 'credentials') fail('provider_error', `${institution.name} is not connected with a username and password here.`);
  return withAttempt(deps, session, async (attempt) => {
    const result = await connector.login(institution.institution_id, { username: body.username, password: body.password });
    if (result.status === 'invalid_credentials') return failAttempt(attempt, 'invalid_credentials');
    await releaseAttempt(deps, session, attempt);
    if (result.status === 'locked') {
      const item = session.updateItemId ? await getItem(deps, session.updateItemId) : undefined;
      if (item) await markItemError(deps, item, itemErrorOf('item_locked'));
      fail('item_locked');
    }
    if (result.status === 'mfa_required') {
      await setPendingMfa(deps, session, { institutionId: result.connection.institutionId, username: result.connection.login });
      return { status: 'mfa_required' as const, mfa: { type: 'code' as const, prompt: result.prompt } };
    }
    return finishConnection(deps, session, institution, { connector, login: result.connection.login, selection: selectionWanted(session, body) });
  });
}


export async function submitMfaCode(deps: Deps, body: RequestOf<'link.mfa'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const mfa = session.mfa ?? fail('no_mfa_pending');
  const institution = findInstitution(mfa.institutionId) ?? fail('institution_not_found');
  const connector = await sessionConnector(deps, session, institution);
  const pending = { institutionId: mfa.institutionId, login: mfa.username };
  return withAttempt(deps, session, async (attempt) => {
    if (!(await connector.verifyMfaCode(pending, body.code))) return failAttempt(attempt, 'invalid_mfa_code');
    await releaseAttempt(deps, session, attempt);
    return finishConnection(deps, session, institution, { connector, login: mfa.username, selection: selectionWanted(session, body) });
  });
}

/**
 * The connector a session talks to: in update mode the item's own (its consent is repaired where it
 * lives, never moved to another connector); else the one the institution's chain picks.
 */
async function sessionConnector(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, method?: LinkMethod): Promise<ConnectorPort> {
  const env = await connectorEnvFor(deps, session.environment);
  if (session.updateItemId) {
    const item = (await getItem(deps, session.updateItemId)) ?? fail('invalid_item_id');
    // A sandbox item is repaired the way its institution connects (the simulated OAuth consent or credentials).
    if (item.connector === SANDBOX_CONNECTOR_ID) return connectorFor('test', institution, env);
    return connectorNamed(item.connector, env);
  }
  return connectorFor(session.environment, institution, env, method);
}

// ---------- consent methods of real connectors (oauth, api_key, address, file) ----------

/** The institution a consent step names, if the session may connect it. */
function sessionInstitution(session: LinkSessionRecord, institutionId: string): CatalogInstitution {
  const institution = findInstitution(institutionId) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  return institution;
}

/** The usable session and institution of a consent step: the checks every Link step makes first. */
async function consentContext(deps: Deps, linkToken: string, institutionId: string, caller: LinkCaller) {
  const session = await openSession(deps, linkToken, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  return { session, institution: sessionInstitution(session, institutionId) };
}


/** The connector serving `method` (or the institution's default) for the session, or null when none can. */
async function servingConnector(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, method?: LinkMethod): Promise<ConnectorPort | null> {
  try {
    return await sessionConnector(deps, session, institution, method);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'provider_error') return null;
    throw err;
  }
}

/**
 * POST /link/api/method: how the page collects consent for an institution. `method` is the one of
 * the connector that serves it for this session (null when none is configured); `file_upload` says
 * whether a statement may be uploaded instead (the institution's chain lists the file importer).
 */
export async function describeConsentMethod(deps: Deps, body: RequestOf<'link.method'>, caller: LinkCaller) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  // Update mode repairs the item's own consent: a statement cannot stand in for it.
  const fileUpload = !session.updateItemId && institution.connectors.includes(FILE_IMPORT_CONNECTOR_ID) && (await servingConnector(deps, session, institution, 'file')) !== null;
  const connector = await servingConnector(deps, session, institution);
  // A chain whose only configured entry is the file importer is served by an upload.
  const method = connector && connector.id !== FILE_IMPORT_CONNECTOR_ID ? connector.linkMethod : fileUpload ? ('file' as const) : null;
  return { institution_id: institution.institution_id, method, file_upload: fileUpload };
}

/** A connector and its consent call (every method but credentials has one). */
interface ConsentConnector {
  connector: ConnectorPort;
  connect: NonNullable<ConnectorPort['connect']>;
}

function consentCallOf(connector: ConnectorPort): ConsentConnector {
  if (!connector.connect) throw new ApiError('provider_error', 'The connector for this institution cannot take this consent.');
  return { connector, connect: connector.connect.bind(connector) };
}

/** The connector the session's institution is served by, when it uses `method`; invalid_field otherwise. */
async function connectorUsing(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, methods: readonly LinkMethod[]): Promise<ConsentConnector> {
  const connector = await sessionConnector(deps, session, institution);
  if (!methods.includes(connector.linkMethod)) {
    fail('invalid_field', `${institution.name} is connected with the ${connector.linkMethod.replace('_', ' ')} method, not this one.`);
  }
  return consentCallOf(connector);
}

/**
 * Runs a connector call of a consent step and maps its ConnectorError to the API's answers:
 * login_required is a refused consent (counted like wrong credentials, with the adapter's message),
 * rate_limited is 429 with Retry-After, provider_error is 502, and invalid_input answers 400 (or
 * the catalogue's status) with the adapter's code when it is one of ours.
 */
async function connectorCall<T>(call: () => Promise<T>, attempt?: Attempt): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    logger.warn('a Link consent step failed at the connector', { kind: err.kind, error: err.message });
    switch (err.kind) {
      case 'login_required':
        if (attempt) return failAttempt(attempt, 'invalid_credentials', err.message);
        return fail('invalid_credentials', err.message);
      case 'rate_limited':
        return fail('rate_limit_exceeded', 'The institution asked us to slow down. Wait for the time in Retry-After, then retry.', {
          'Retry-After': String(Math.max(1, Math.ceil(err.details.retryAfterSeconds ?? 60))),
        });
      case 'provider_error':
        return fail('provider_error', 'The institution could not be reached. Try again later.');
      case 'invalid_input': {
        const code = err.details.code;
        if (code !== undefined && isOurInputError(code)) return fail(code, err.message);
        return fail('invalid_field', err.message);
      }
    }
  }
}

/** An error code of the catalogue that describes refused input (400 family, or 413 for too large). */
function isOurInputError(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERRORS, code) && [400, 413].includes(statusOf(code as ErrorCode));
}

/** The end of every consent step: the connector's answer to what the user supplied. */
async function finishConsent(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, connector: ConnectorPort, result: LoginResult, selection: boolean, attempt?: Attempt) {
  if (result.status === 'invalid_credentials') {
    if (attempt) return failAttempt(attempt, 'invalid_credentials', result.message);
    return fail('invalid_credentials', result.message);
  }
  // The input was accepted: its attempt is given back before the connection commits (which refuses a locked session).
  if (attempt) await releaseAttempt(deps, session, attempt);
  if (result.status === 'locked') {
    const item = session.updateItemId ? await getItem(deps, session.updateItemId) : undefined;
    if (item) await markItemError(deps, item, itemErrorOf('item_locked'));
    fail('item_locked');
  }
  // Only the credentials method has a second step; a connector asking for one here is a connector fault.
  if (result.status === 'mfa_required') throw new Error(`${connector.id} asked for MFA after a ${connector.linkMethod} consent`);
  return finishConnection(deps, session, institution, { connector, login: result.connection.login, secrets: result.secrets, batch: result.batch, selection });
}

/** The page's callback URL for OAuth consents: the provider sends the user back here. */
export function oauthRedirectUri(baseUrl: string): string {
  return `${baseUrl.replace(/\/$/, '')}/link/oauth/callback`;
}

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
  const { connector } = await connectorUsing(deps, session, institution, ['oauth']);
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

function withQuery(url: string, params: Record<string, string>): string {
  const out = new URL(url);
  for (const [name, value] of Object.entries(params)) out.searchParams.set(name, value);
  return out.toString();
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
  const { connector, connect } = await connectorUsing(deps, session, institution, ['oauth']);
  const kept = (await openProviderSecrets(deps, { ...pendingOwner(session), providerSecrets: pending.pending })) ?? {};
  // Some providers send back only a reference (the state) and no code: the adapter decides with what it kept.
  const input: ConsentInput = { method: 'oauth', code: body.code ?? '', redirectUri: oauthRedirectUri(baseUrl), pending: kept };
  return withAttempt(deps, session, async (attempt) => finishConsent(deps, session, institution, connector, await connectorCall(() => connect(institution.institution_id, input), attempt), selectionWanted(session, body), attempt));
}

const SANDBOX_UNANSWERED = 'The consent was not answered on the sandbox bank page: choose Allow or Deny there first.';

// ---------- the sandbox's simulated bank consent page ----------

/** What the sandbox bank answers: the consent page (GET), the redirect back (a submitted decision), or a refusal. */
export type SandboxBankAnswer =
  | { kind: 'page'; institutionName: string; clientName: string; fields: Record<string, string>; returnOrigin: string | null }
  | { kind: 'redirect'; location: string }
  | { kind: 'invalid' };

/** The application's allowlist or a loopback host: where the sandbox bank may send the user (core/link-rules.ts). */
async function sandboxBankMayReturnTo(deps: Deps, session: LinkSessionRecord, redirectUri: string): Promise<boolean> {
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

/** POST /link/api/consent: a read-only API key and secret, or a public wallet address. */
export async function submitConsent(deps: Deps, body: RequestOf<'link.consent'>, caller: LinkCaller) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  const { connector, connect } = await connectorUsing(deps, session, institution, ['api_key', 'address']);
  let input: ConsentInput;
  if (connector.linkMethod === 'api_key') {
    if (body.api_key === undefined || body.api_secret === undefined) fail('missing_field', 'Enter the API key and its secret.');
    if (body.address !== undefined) fail('unknown_field', `${institution.name} takes an API key, not an address.`);
    input = { method: 'api_key', apiKey: body.api_key.trim(), apiSecret: body.api_secret.trim() };
  } else {
    if (body.address === undefined) fail('missing_field', 'Enter the wallet address.');
    if (body.api_key !== undefined || body.api_secret !== undefined) fail('unknown_field', `${institution.name} takes a public address, not an API key.`);
    input = { method: 'address', address: body.address.trim() };
  }
  return withAttempt(deps, session, async (attempt) => finishConsent(deps, session, institution, connector, await connectorCall(() => connect(institution.institution_id, input), attempt), selectionWanted(session, body), attempt));
}

/**
 * POST /link/api/upload: a statement file. The file importer parses it into the item's accounts,
 * transactions and holdings, written with the new item before it commits; a refused file leaves
 * nothing behind and its error names the problem (and the line).
 */
export async function uploadStatement(deps: Deps, body: RequestOf<'link.upload'>, caller: LinkCaller) {
  const { session, institution } = await consentContext(deps, body.link_token, body.institution_id, caller);
  // A statement creates an item with its data; there is no login of an existing item to repair with one.
  if (session.updateItemId) fail('invalid_field', 'This link reconnects an existing account; a statement file cannot repair it.');
  if (session.environment === 'live' && !institution.connectors.includes(FILE_IMPORT_CONNECTOR_ID)) {
    fail('invalid_field', `${institution.name} does not accept statement files.`);
  }
  const { connector, connect } = consentCallOf(connectorFor(session.environment, institution, await connectorEnvFor(deps, session.environment), 'file'));
  const bytes = Buffer.from(body.file_base64, 'base64');
  if (bytes.length > LIMITS.statementMaxBytes) fail('statement_too_large');
  // A refused file is not a guessed login: it counts no attempt.
  const result = await connectorCall(() => connect(institution.institution_id, { method: 'file', bytes, fileName: body.file_name }));
  return finishConsent(deps, session, institution, connector, result, selectionWanted(session, body));
}

/**
 * Ends a session with a connected item. Everything that can fail (the institution, a new item's
 * accounts) happens first; then ONE transaction issues the public token, spends the session and makes
 * the item healthy (commitLinkConnection). A failure before it leaves the session open, so the user
 * can simply retry, and a new item invisible (the reaper removes what it wrote). A new item's history
 * is loaded afterwards by the refresh worker (refreshItem), so Link answers without waiting for it.
 */
async function finishConnection(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, consent: ConnectedConsent) {
  const connected = session.updateItemId
    ? await repairItem(deps, session, session.updateItemId, consent)
    : await connectNewItem(deps, session, {
        itemId: newItemId(),
        applicationId: session.applicationId,
        environment: session.environment,
        institution,
        username: consent.login,
        products: session.products,
        clientUserId: session.clientUserId,
        webhook: session.webhook,
        webhookFormat: session.webhookFormat,
        connectorId: consent.connector.id,
        secrets: consent.secrets,
        batch: consent.batch,
        selectionPending: consent.selection,
      });
  const { item, publicToken, accounts } = connected;
  if (consent.selection) return selectionStep(session, institution, item, publicToken, accounts);
  return connectedStep(session, institution, item, publicToken, accounts);
}

/** The step that ends a session: the public token, what onSuccess receives, and where the hosted page goes next. */
function connectedStep(session: LinkSessionRecord, institution: CatalogInstitution, item: ItemRecord, publicToken: string, accounts: StoredAccount[]) {
  const metadata = {
    link_session_id: session.linkSessionId,
    item_id: item.itemId,
    institution: { institution_id: institution.institution_id, name: institution.name },
    // Only the accounts the item's consent shares (all, unless the user chose some).
    accounts: sharedAccounts(item, accounts).map((a) => ({ account_id: a.account_id, name: a.name, mask: a.mask, type: a.type, subtype: a.subtype })),
  };
  const redirect_url = session.redirectUri
    ? successRedirect(session.redirectUri, {
        public_token: publicToken,
        item_id: item.itemId,
        institution_id: institution.institution_id,
        institution_name: institution.name,
        link_session_id: session.linkSessionId,
      })
    : null;
  return { status: 'connected' as const, public_token: publicToken, metadata, redirect_url };
}

// ---------- account selection ----------

/**
 * Whether the user chooses the accounts to share after this step: the page asks for it
 * (`account_selection`), for a new item always, in update mode only when the link token enabled it
 * (`update.account_selection_enabled`, as Plaid's). Without it a new item shares all its accounts
 * and a repaired one keeps its choice.
 */
function selectionWanted(session: LinkSessionRecord, body: { account_selection?: boolean }): boolean {
  return body.account_selection === true && (session.updateItemId === null || session.accountSelectionEnabled === true);
}

/**
 * POST /link/api/accounts/select: the accounts the user chose. One transaction limits the item's
 * consent to them and makes the public token exchangeable (commitAccountSelection), so a replayed
 * or concurrent selection has one outcome: the first commits, the others answer link_token_used.
 */
export async function submitAccountSelection(deps: Deps, body: RequestOf<'link.accounts.select'>, caller: LinkCaller) {
  const session = await openCompletedSession(deps, body.link_token, caller);
  const record = await getPublicToken(deps, body.public_token);
  // The public token must be the one this session issued (it names the session's item).
  if (!record || record.applicationId !== session.applicationId || record.environment !== session.environment || record.itemId !== session.completedItemId) fail('invalid_public_token');
  if (!record.selectionPending || record.spent) fail('link_token_used', 'The accounts of this connection were already chosen.');
  if (record.expiresAt <= deps.clock.now()) fail('link_token_expired');
  const item = (await getItemForSelection(deps, record.itemId)) ?? fail('invalid_item_id');
  // A new item's token (not a repair's, which rotates) chooses only while the item awaits its first
  // choice: once another of its tokens (a reloaded page's) made it, this one is spent with the link.
  if (!record.rotate && !item.awaitingSelection) fail('link_token_used', 'The accounts of this connection were already chosen.');
  const { accounts } = await listAccounts(deps, item.itemId);
  const known = new Set(accounts.map((a) => a.account_id));
  const unknown = body.account_ids.filter((id) => !known.has(id));
  if (unknown.length) fail('invalid_account_id', `Not accounts of this connection: ${unknown.slice(0, 5).join(', ')}.`);
  const chosen = [...body.account_ids].sort();
  const chosenItem: ItemRecord = { ...item, sharedAccountIds: chosen };
  const historyPending = item.transactionsUpdateStatus !== 'historical_update_complete';
  const announces = item.consentedProducts.includes('transactions');
  const events: ReturnType<typeof newEvent>[] = [];
  let rotateCursorSecret = false;
  if (item.awaitingSelection) {
    // A new item: its connection is announced now, not before (a statement's transactions are in
    // the feed already; a login's history is loaded from here on, and its events follow).
    if (announces && !historyPending) events.push(newEvent(deps, item, 'transactions.sync_updates_available', { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }));
  } else {
    // Update mode: an integrator's sync cursors predate the new choice. They are refused from now on
    // with the reason (functions/app/sync.ts), and the webhook tells the integrator to sync again.
    const before = sharedAccounts(item, accounts).map((a) => a.account_id).sort();
    rotateCursorSecret = before.join(',') !== chosen.join(',');
    if (rotateCursorSecret && announces) {
      events.push(
        newEvent(deps, item, 'transactions.sync_updates_available', {
          item_id: item.itemId,
          initial_update_complete: item.transactionsUpdateStatus !== 'not_ready',
          historical_update_complete: !historyPending,
        }),
      );
    }
  }
  const outcome = await commitAccountSelection(deps, {
    publicToken: body.public_token,
    item,
    accountIds: chosen,
    ...(item.awaitingSelection ? { activate: { firstRefreshDueAt: historyPending ? deps.clock.now() : undefined } } : {}),
    rotateCursorSecret,
    outbox: events.map((e) => eventPut(deps, e)),
  });
  if (outcome === 'token_refused') fail('link_token_used', 'The accounts of this connection were already chosen.');
  // A new item activated meanwhile by another of its tokens (the page was reloaded): chosen already.
  if (outcome === 'item_gone' && item.awaitingSelection && (await getItem(deps, item.itemId))) fail('link_token_used', 'The accounts of this connection were already chosen.');
  if (outcome === 'item_gone') fail('invalid_item_id');
  for (const e of events) await publishEvent(deps, e.eventId);
  if (item.awaitingSelection && historyPending) await queueHistoryLoad(deps, item.itemId);
  const institution = findInstitution(item.institutionId) ?? fail('institution_not_found');
  return connectedStep(session, institution, chosenItem, body.public_token, accounts);
}

/** What a Link step connected: the connector, its reference for the user's data, and what came with the consent. */
interface ConnectedConsent {
  connector: ConnectorPort;
  login: string;
  /** Sealed to the item: a new item's, or a repaired item's replacing the old ones. */
  secrets?: ProviderSecrets;
  /** The item's data, when it came with the consent (a statement file). */
  batch?: SourceBatch;
  /** The user chooses the accounts to share before the public token can be exchanged (selectionWanted). */
  selection: boolean;
}

/** Why commitLinkConnection refused a session (read again): spent by a concurrent success, or locked by failures. */
function sessionRefusal(session: LinkSessionRecord): never {
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  fail('link_token_used');
}

function publicTokenRecord(deps: Deps, item: ItemRecord, rotate: boolean, selectionPending = false) {
  return { itemId: item.itemId, applicationId: item.applicationId, environment: item.environment, expiresAt: deps.clock.now() + LINK_LIFETIME_MS, rotate, selectionPending };
}

/**
 * Update mode: the user signed in again. The repair commits first; the data sync follows and may
 * not make Link fail, since the public token is already issued: while a refresh holds the item's
 * ingestion lease (or the sync fails for any reason) the sync is left to the refresh worker. An
 * item whose history had not finished loading when its login broke has it loaded by the worker.
 */
async function repairItem(deps: Deps, session: LinkSessionRecord, itemId: string, consent: ConnectedConsent) {
  const current = (await getItem(deps, itemId)) ?? fail('invalid_item_id');
  // A new consent (OAuth, API key, address) replaces the item's secrets and the provider's
  // reference; a credentials login keeps the item's reference as it is.
  const providerSecrets = consent.secrets ? await sealProviderSecrets(deps, current, consent.secrets) : undefined;
  const connectionLogin = consent.connector.linkMethod === 'credentials' ? undefined : consent.login;
  const repaired: ItemRecord = {
    ...current,
    status: 'healthy',
    error: null,
    consentedProducts: [...new Set([...current.consentedProducts, ...session.products])],
    // A session without a webhook keeps the item's URL (and what it receives).
    ...(session.webhook !== null ? { webhook: session.webhook, webhookFormat: session.webhookFormat ?? 'fincore' } : {}),
    ...(providerSecrets ? { providerSecrets } : {}),
    ...(connectionLogin !== undefined ? { connectionLogin } : {}),
  };
  const accounts = await sourceAccounts(deps, repaired);
  // Announced to the webhook URL the repair leaves the item with.
  const repairEvent = current.status !== 'healthy' ? newEvent(deps, repaired, 'item.login_repaired', { item_id: itemId }) : null;
  const publicToken = mintToken('public');
  const commit: ItemCommit = {
    kind: 'repair',
    item: repaired,
    consentedProducts: repaired.consentedProducts,
    webhook: repaired.webhook,
    ...(providerSecrets ? { providerSecrets } : {}),
    ...(connectionLogin !== undefined ? { connectionLogin } : {}),
  };
  const historyPending = repaired.transactionsUpdateStatus !== 'historical_update_complete';
  const outcome = await commitLinkConnection(deps, {
    session,
    maxAttempts: LIMITS.linkAttemptsMax,
    item: commit,
    publicToken,
    publicTokenRecord: publicTokenRecord(deps, repaired, true, consent.selection),
    outbox: repairEvent ? [eventPut(deps, repairEvent)] : [],
    firstRefreshDueAt: historyPending ? deps.clock.now() : undefined,
  });
  if (outcome === 'session_spent') sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
  if (outcome === 'item_gone') fail('invalid_item_id');
  if (repairEvent) await publishEvent(deps, repairEvent.eventId);
  if (historyPending) await queueHistoryLoad(deps, itemId);
  else await syncOrLeaveToRefresh(deps, repaired);
  return { item: repaired, publicToken, accounts };
}

/**
 * Hands a connected item's history load to the refresh worker. Never fails the connection, which is
 * committed already: the item's refresh-due row is due at once, so a lost job is made up for by the
 * scheduled sweep (every 5 minutes on AWS).
 */
async function queueHistoryLoad(deps: Deps, itemId: string): Promise<void> {
  try {
    await deps.ports.refreshQueue.enqueue({ item_id: itemId, reason: 'initial_history' });
  } catch (err) {
    logger.warn('could not queue the history load; the scheduled sweep will load it', { item_id: itemId, error: (err as Error).message });
  }
}

async function syncOrLeaveToRefresh(deps: Deps, item: ItemRecord): Promise<void> {
  try {
    await syncFromSource(deps, item);
  } catch (err) {
    logger.warn('update-mode Link left the sync to the refresh worker', { item_id: item.itemId, error: (err as Error).message });
    await deps.ports.refreshQueue
      .enqueue({ item_id: item.itemId, reason: 'on_demand' })
      .catch((enqueueErr: unknown) => logger.error('could not enqueue the refresh; the schedule will pick the item up', { item_id: item.itemId, error: enqueueErr as Error }));
  }
}

/**
 * A new item: written invisibly (connecting) with its accounts, committed with its public token (or
 * removed again), and then its history is queued for the refresh worker: the item is visible with
 * `transactions_update_status` `not_ready` until the worker's first stage lands. An item without the
 * transactions product has no history to load.
 */
async function connectNewItem(deps: Deps, session: LinkSessionRecord | null, args: ConnectArgs, history: 'queue' | 'caller loads' = 'queue') {
  const item = await createNewItem(deps, args);
  const historyPending = item.transactionsUpdateStatus !== 'historical_update_complete';
  let accounts: StoredAccount[];
  let imported: ReturnType<typeof newEvent> | null;
  const publicToken = mintToken('public');
  const awaitingSelection = args.selectionPending === true;
  const tokenRecord = publicTokenRecord(deps, item, false, awaitingSelection);
  try {
    if (args.batch) {
      // The data came with the consent (a statement): it is written now, there is nothing to pull.
      accounts = (await ingestStatementBatch(deps, item, args.batch)).accounts;
    } else {
      accounts = await sourceAccounts(deps, item);
      await putAccounts(deps, item.itemId, accounts, deps.clock.now());
    }
    // A statement's transactions are in the feed already: the item's first sync event is announced by
    // the commit that makes the item real, so a connection that never commits announces nothing.
    // An item awaiting its account selection is made real by that choice (submitAccountSelection).
    imported = args.batch && !awaitingSelection && item.consentedProducts.includes('transactions') ? newEvent(deps, item, 'transactions.sync_updates_available', { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }) : null;
    const outcome = await commitLinkConnection(deps, {
      session,
      maxAttempts: LIMITS.linkAttemptsMax,
      item: { kind: 'create', item },
      publicToken,
      publicTokenRecord: tokenRecord,
      outbox: imported ? [eventPut(deps, imported)] : [],
      firstRefreshDueAt: historyPending ? deps.clock.now() : undefined,
      // The item stays connecting, as long as its public token lives, until the user's choice.
      ...(awaitingSelection ? { awaitSelectionUntil: tokenRecord.expiresAt } : {}),
    });
    if (outcome === 'session_spent' && session) sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
    if (outcome !== 'committed') throw new Error(`the connection of ${item.itemId} passed its deadline before it committed`);
  } catch (err) {
    await discardConnection(deps, item.itemId);
    throw err;
  }
  if (imported) await publishEvent(deps, imported.eventId);
  if (historyPending && history === 'queue' && !awaitingSelection) await queueHistoryLoad(deps, item.itemId);
  return { item, publicToken, accounts };
}

/** Removes a connection that will never commit now, rather than waiting for the reaper. */
async function discardConnection(deps: Deps, itemId: string): Promise<void> {
  try {
    // Past any deadline: reapAbandonedConnection still touches only a row that is connecting.
    await reapAbandonedConnection(deps, itemId, Number.MAX_SAFE_INTEGER);
  } catch (err) {
    logger.warn('an uncommitted connection is left to the reaper', { item_id: itemId, error: (err as Error).message });
  }
}

interface ConnectArgs {
  itemId: string;
  applicationId: string;
  environment: Environment;
  institution: CatalogInstitution;
  username: string;
  products: Product[];
  clientUserId: string;
  webhook: string | null;
  /** What the item's webhook URL receives (default: our events). */
  webhookFormat?: WebhookFormat;
  /** The connector that made the connection (default: the one serving the institution's logins). */
  connectorId?: string;
  /** The connector's secrets for the item, sealed to it when it is written. */
  secrets?: ProviderSecrets;
  /** The item's data when it came with the consent: written before the commit, no history to load. */
  batch?: SourceBatch;
  /** The public token waits for the user's account selection (Link's select_accounts step). */
  selectionPending?: boolean;
}

/** Writes a new item served by the login's connector, still invisible (connecting). */
async function createNewItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const connectorId = args.connectorId ?? connectorFor(args.environment, args.institution, await connectorEnvFor(deps, args.environment)).id;
  const owner = { itemId: args.itemId, applicationId: args.applicationId, environment: args.environment };
  return createConnectingItem(
    deps,
    {
      itemId: args.itemId,
      applicationId: args.applicationId,
      environment: args.environment,
      institutionId: args.institution.institution_id,
      institutionName: args.institution.name,
      connector: connectorId,
      consentedProducts: args.products,
      connectionLogin: args.username,
      clientUserId: args.clientUserId,
      webhook: args.webhook,
      webhookFormat: args.webhookFormat,
      // A statement's history is written with the item (connectNewItem), so it is complete at commit.
      transactionsUpdateStatus: args.products.includes('transactions') && !args.batch ? 'not_ready' : 'historical_update_complete',
      ...(args.secrets ? { providerSecrets: await sealProviderSecrets(deps, owner, args.secrets) } : {}),
    },
    deps.clock.now() + CONNECT_DEADLINE_MS,
  );
}

/**
 * Creates a healthy item served by the login's connector, with its accounts and its whole history
 * loaded in this process, in the refresh worker's two stages (benchmarks and tests; no Link session).
 */
export async function connectItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const { item } = await connectNewItem(deps, null, args, 'caller loads');
  if (item.transactionsUpdateStatus !== 'historical_update_complete') await loadHistory(deps, item);
  return (await getItem(deps, item.itemId)) ?? fail('invalid_item_id');
}

/** Removes what Link connections that never committed left behind (run on the refresh schedule). */
export async function reapAbandonedConnections(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  let reaped = 0;
  for (const itemId of await listAbandonedConnections(deps, now)) {
    if (await reapAbandonedConnection(deps, itemId, now)) reaped += 1;
  }
  return reaped;
}

/** POST /v1/sandbox/public_token/create: the browser-free path for integrators' CI. */
export async function createSandboxPublicToken(
  deps: Deps,
  auth: AuthContext,
  body: RequestOf<'sandbox.public_token.create'>,
) {
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  requireSupported(institution, body.products);
  const username = body.username ?? 'user_good';
  const connector = connectorFor(auth.environment, institution, await connectorEnvFor(deps, auth.environment));
  const result = await connector.login(institution.institution_id, sandboxCredentials(username));
  if (result.status === 'locked') fail('item_locked');
  if (result.status === 'invalid_credentials') fail('invalid_credentials', `${username} is not a sandbox login; use user_good, user_good_<suffix> or user_mfa.`);
  const { publicToken } = await connectNewItem(deps, null, {
    itemId: newItemId(),
    applicationId: auth.applicationId,
    environment: auth.environment,
    institution,
    username,
    products: body.products,
    clientUserId: 'sandbox',
    webhook: null,
  });
  return { public_token: publicToken };
}
