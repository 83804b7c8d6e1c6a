// The Link journey: link tokens, the hosted page's session steps (credentials, MFA), item creation
// or repair, public tokens and the exchange for an access token.
import { connectorFor, sandboxCredentials } from '../connectors';
import { ApiError, fail, itemErrorOf } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Environment, Product } from '../contracts/schemas';
import { randomToken } from '../core/api-keys';
import { findInstitution, toPublicInstitution } from '../core/institutions';
import { embedOriginAllowed, redirectUriRefusal, successRedirect } from '../core/link-rules';
import { mintToken, newItemId, tokenHash } from '../core/tokens';
import { getLinkSettings, type AuthContext } from '../data/api-keys-repo';
import { newEvent, publishEvent } from '../data/events';
import {
  commitLinkConnection,
  countLinkCall,
  createConnectingItem,
  getItem,
  getLinkSession,
  getLinkSessionByHash,
  getPublicToken,
  listAbandonedConnections,
  issueAccessToken,
  putAccounts,
  putLinkSession,
  reapAbandonedConnection,
  recordFailedAttempt,
  setPendingMfa,
  TokenSpentError,
  type ItemCommit,
  type ItemRecord,
  type LinkSessionRecord,
  type StoredAccount,
} from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { loadHistory, sourceAccounts, syncFromSource } from './item-source';
import { markItemError } from './lifecycle';
import { registerEndpoint } from './webhooks';

const LINK_LIFETIME_MS = LIMITS.linkTokenLifetimeMinutes * 60_000;
const CONNECT_DEADLINE_MS = LIMITS.linkConnectDeadlineMinutes * 60_000;
const LINK_CALL_WINDOW_MS = 60_000;
type CatalogInstitution = NonNullable<ReturnType<typeof findInstitution>>;

function requireSupported(institution: CatalogInstitution, products: Product[]): void {
  const missing = products.filter((p) => !institution.products.includes(p));
  if (missing.length) fail('products_not_supported', `${institution.name} does not support: ${missing.join(', ')}.`);
}

export async function createLinkToken(deps: Deps, auth: AuthContext, body: RequestOf<'link.token.create'>) {
  let institutionId = body.institution_id ?? null;
  if (body.update_item_id !== undefined) {
    const item = await getItem(deps, body.update_item_id);
    if (!item || item.applicationId !== auth.applicationId || item.environment !== auth.environment) fail('invalid_item_id');
    institutionId = item.institutionId;
  }
  if (institutionId !== null) {
    const institution = findInstitution(institutionId) ?? fail('institution_not_found');
    requireSupported(institution, body.products);
  }
  if (body.redirect_uri !== undefined) {
    const allowlist = auth.environment === 'live' ? (await getLinkSettings(deps, auth.applicationId)).redirectUris : [];
    const refusal = redirectUriRefusal(body.redirect_uri, auth.environment, allowlist);
    if (refusal) fail('redirect_uri_not_allowed', refusal);
  }
  // The webhook field registers an endpoint for the key's environment (signed with its secret).
  if (body.webhook !== undefined) await registerEndpoint(deps, auth, body.webhook);
  const linkToken = mintToken('link');
  const expiresAt = deps.clock.now() + LINK_LIFETIME_MS;
  await putLinkSession(deps, {
    linkTokenHash: tokenHash(linkToken),
    linkSessionId: `lnk_${randomToken(20)}`,
    applicationId: auth.applicationId,
    environment: auth.environment,
    clientName: body.client_name ?? 'This app',
    clientUserId: body.user.client_user_id,
    products: body.products,
    institutionId,
    updateItemId: body.update_item_id ?? null,
    webhook: body.webhook ?? null,
    redirectUri: body.redirect_uri ?? null,
    expiresAt,
  });
  return { link_token: linkToken, expiration: new Date(expiresAt).toISOString() };
}

/** Who is calling the Link page's API: the client address (API Gateway's sourceIp), when known. */
export interface LinkCaller {
  address: string | null;
}

/** The caller of a request as API Gateway (or the local server, from the socket) describes it. */
export function linkCallerOf(event: { requestContext?: { identity?: { sourceIp?: string | null } } }): LinkCaller {
  return { address: event.requestContext?.identity?.sourceIp || null };
}

/**
 * Counts one call of the Link page's API against its link token and its client address (fixed
 * one-minute windows); over either limit the call is refused with 429 and Retry-After. Every
 * `/link/api/...` operation passes here through openSession, before any other work.
 */
async function meterLinkCall(deps: Deps, linkToken: string, caller: LinkCaller): Promise<void> {
  const now = deps.clock.now();
  const windowStart = now - (now % LINK_CALL_WINDOW_MS);
  const window = { windowStart, windowMs: LINK_CALL_WINDOW_MS };
  const [tokenCounted, addressCounted] = await Promise.all([
    countLinkCall(deps, { scope: 'token', idHash: tokenHash(linkToken), ...window }, LIMITS.linkCallsPerTokenPerMinute),
    caller.address === null ? true : countLinkCall(deps, { scope: 'address', idHash: tokenHash(caller.address), ...window }, LIMITS.linkCallsPerAddressPerMinute),
  ]);
  if (tokenCounted && addressCounted) return;
  const windowEnd = windowStart + LINK_CALL_WINDOW_MS;
  fail('rate_limit_exceeded', 'Too many requests for this link. Wait for the time in Retry-After, then retry.', {
    'X-RateLimit-Limit': String(tokenCounted ? LIMITS.linkCallsPerAddressPerMinute : LIMITS.linkCallsPerTokenPerMinute),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil(windowEnd / 1000)),
    'Retry-After': String(Math.max(1, Math.ceil((windowEnd - now) / 1000))),
  });
}

/** The session behind a link token, if the page may still act on it; the error says why not otherwise. */
async function usableSession(deps: Deps, linkToken: string): Promise<LinkSessionRecord> {
  const session = (await getLinkSession(deps, linkToken)) ?? fail('invalid_link_token');
  if (session.status === 'completed') fail('link_token_used');
  if (session.expiresAt <= deps.clock.now()) fail('link_token_expired');
  return session;
}

/** A session the page's API may act on: the call is rate limited first (meterLinkCall). */
export async function openSession(deps: Deps, linkToken: string, caller: LinkCaller): Promise<LinkSessionRecord> {
  await meterLinkCall(deps, linkToken, caller);
  return usableSession(deps, linkToken);
}

function publicSession(session: LinkSessionRecord) {
  const institution = session.institutionId ? findInstitution(session.institutionId) : undefined;
  return {
    link_session_id: session.linkSessionId,
    client_name: session.clientName,
    products: session.products,
    mode: session.updateItemId ? ('update' as const) : ('create' as const),
    environment: session.environment,
    institution: institution ? toPublicInstitution(institution) : null,
    redirect_uri: session.redirectUri,
    expiration: new Date(session.expiresAt).toISOString(),
  };
}

export async function describeSession(deps: Deps, linkToken: string, caller: LinkCaller) {
  return publicSession(await openSession(deps, linkToken, caller));
}

/**
 * What GET /link renders: the session, and whether the page may be framed by `parentOrigin` (the
 * SDK's embed=1&origin=...): only origins on the application's list, plus loopback origins for test
 * keys. Null when the page is not embedded.
 */
export async function describePage(deps: Deps, linkToken: string, parentOrigin: string | null) {
  const session = await usableSession(deps, linkToken);
  let embedAllowed: boolean | null = null;
  if (parentOrigin !== null) {
    const { linkOrigins } = await getLinkSettings(deps, session.applicationId);
    embedAllowed = embedOriginAllowed(parentOrigin, session.environment, linkOrigins);
  }
  return { session: publicSession(session), embedAllowed };
}

async function failAttempt(deps: Deps, session: LinkSessionRecord, code: 'invalid_credentials' | 'invalid_mfa_code'): Promise<never> {
  const attempts = (await recordFailedAttempt(deps, session, LIMITS.linkAttemptsMax)) ?? LIMITS.linkAttemptsMax;
  const left = LIMITS.linkAttemptsMax - attempts;
  if (left <= 0) fail('too_many_attempts');
  throw new ApiError(code, `${code === 'invalid_credentials' ? 'The username or password is incorrect.' : 'The code is incorrect.'} ${left} attempt${left === 1 ? '' : 's'} left.`);
}

export async function submitCredentials(deps: Deps, body: RequestOf<'link.connect'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  const connector = connectorFor(session.environment, institution, deps.config.connectorEnv ?? {});
  const result = await connector.login(institution.institution_id, { username: body.username, password: body.password });
  if (result.status === 'invalid_credentials') return failAttempt(deps, session, 'invalid_credentials');
  if (result.status === 'locked') {
    const item = session.updateItemId ? await getItem(deps, session.updateItemId) : undefined;
    if (item) await markItemError(deps, item, itemErrorOf('item_locked'));
    fail('item_locked');
  }
  if (result.status === 'mfa_required') {
    await setPendingMfa(deps, session, { institutionId: result.connection.institutionId, username: result.connection.login });
    return { status: 'mfa_required' as const, mfa: { type: 'code' as const, prompt: result.prompt } };
  }
  return finishConnection(deps, session, institution, result.connection.login);
}


export async function submitMfaCode(deps: Deps, body: RequestOf<'link.mfa'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  if (!session.mfa) fail('no_mfa_pending');
  const institution = findInstitution(session.mfa.institutionId) ?? fail('institution_not_found');
  const connector = connectorFor(session.environment, institution, deps.config.connectorEnv ?? {});
  const pending = { institutionId: session.mfa.institutionId, login: session.mfa.username };
  if (!(await connector.verifyMfaCode(pending, body.code))) return failAttempt(deps, session, 'invalid_mfa_code');
  return finishConnection(deps, session, institution, session.mfa.username);
}

/**
 * Ends a session with a connected item. Everything that can fail (the institution, a new item's
 * accounts) happens first; then ONE transaction issues the public token, spends the session and makes
 * the item healthy (commitLinkConnection). A failure before it leaves the session open, so the user
 * can simply retry, and a new item invisible (the reaper removes what it wrote). A new item's history
 * is loaded afterwards by the refresh worker (refreshItem), so Link answers without waiting for it.
 */
async function finishConnection(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, username: string) {
  const connected = session.updateItemId
    ? await repairItem(deps, session, session.updateItemId)
    : await connectNewItem(deps, session, {
        itemId: newItemId(),
        applicationId: session.applicationId,
        environment: session.environment,
        institution,
        username,
        products: session.products,
        clientUserId: session.clientUserId,
        webhook: session.webhook,
      });
  const { item, publicToken, accounts } = connected;
  const metadata = {
    link_session_id: session.linkSessionId,
    item_id: item.itemId,
    institution: { institution_id: institution.institution_id, name: institution.name },
    accounts: accounts.map((a) => ({ account_id: a.account_id, name: a.name, mask: a.mask, type: a.type, subtype: a.subtype })),
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

/** Why commitLinkConnection refused a session (read again): spent by a concurrent success, or locked by failures. */
function sessionRefusal(session: LinkSessionRecord): never {
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  fail('link_token_used');
}

function publicTokenRecord(deps: Deps, item: ItemRecord, rotate: boolean) {
  return { itemId: item.itemId, applicationId: item.applicationId, environment: item.environment, expiresAt: deps.clock.now() + LINK_LIFETIME_MS, rotate };
}

/**
 * Update mode: the user signed in again. The repair commits first; the data sync follows and may
 * not make Link fail, since the public token is already issued: while a refresh holds the item's
 * ingestion lease (or the sync fails for any reason) the sync is left to the refresh worker. An
 * item whose history had not finished loading when its login broke has it loaded by the worker.
 */
async function repairItem(deps: Deps, session: LinkSessionRecord, itemId: string) {
  const current = (await getItem(deps, itemId)) ?? fail('invalid_item_id');
  const repaired: ItemRecord = {
    ...current,
    status: 'healthy',
    error: null,
    consentedProducts: [...new Set([...current.consentedProducts, ...session.products])],
    webhook: session.webhook ?? current.webhook,
  };
  const accounts = await sourceAccounts(deps, repaired);
  const repairEvent = current.status !== 'healthy' ? newEvent(deps, current, 'item.login_repaired', { item_id: itemId }) : null;
  const publicToken = mintToken('public');
  const commit: ItemCommit = { kind: 'repair', item: repaired, consentedProducts: repaired.consentedProducts, webhook: repaired.webhook };
  const historyPending = repaired.transactionsUpdateStatus !== 'historical_update_complete';
  const outcome = await commitLinkConnection(deps, {
    session,
    maxAttempts: LIMITS.linkAttemptsMax,
    item: commit,
    publicToken,
    publicTokenRecord: publicTokenRecord(deps, repaired, true),
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
  const publicToken = mintToken('public');
  try {
    accounts = await sourceAccounts(deps, item);
    await putAccounts(deps, item.itemId, accounts, deps.clock.now());
    const outcome = await commitLinkConnection(deps, {
      session,
      maxAttempts: LIMITS.linkAttemptsMax,
      item: { kind: 'create', item },
      publicToken,
      publicTokenRecord: publicTokenRecord(deps, item, false),
      outbox: [],
      firstRefreshDueAt: historyPending ? deps.clock.now() : undefined,
    });
    if (outcome === 'session_spent' && session) sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
    if (outcome !== 'committed') throw new Error(`the connection of ${item.itemId} passed its deadline before it committed`);
  } catch (err) {
    await discardConnection(deps, item.itemId);
    throw err;
  }
  if (historyPending && history === 'queue') await queueHistoryLoad(deps, item.itemId);
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
}

/** Writes a new item served by the login's connector, still invisible (connecting). */
async function createNewItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const connector = connectorFor(args.environment, args.institution, deps.config.connectorEnv ?? {});
  return createConnectingItem(
    deps,
    {
      itemId: args.itemId,
      applicationId: args.applicationId,
      environment: args.environment,
      institutionId: args.institution.institution_id,
      institutionName: args.institution.name,
      connector: connector.id,
      consentedProducts: args.products,
      connectionLogin: args.username,
      clientUserId: args.clientUserId,
      webhook: args.webhook,
      transactionsUpdateStatus: args.products.includes('transactions') ? 'not_ready' : 'historical_update_complete',
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
  const connector = connectorFor(auth.environment, institution, deps.config.connectorEnv ?? {});
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

export async function exchangePublicToken(deps: Deps, auth: AuthContext, publicToken: string) {
  const record = await getPublicToken(deps, publicToken);
  if (!record || record.applicationId !== auth.applicationId || record.environment !== auth.environment) fail('invalid_public_token');
  if (record.spent) fail('public_token_used');
  if (record.expiresAt <= deps.clock.now()) fail('public_token_expired');
  const item = (await getItem(deps, record.itemId)) ?? fail('invalid_public_token');
  const accessToken = mintToken('access');
  try {
    await issueAccessToken(deps, { publicTokenHash: tokenHash(publicToken), item, accessToken, rotate: record.rotate });
  } catch (err) {
    if (err instanceof TokenSpentError) fail('public_token_used');
    throw err;
  }
  return { access_token: accessToken, item_id: item.itemId, rotated: record.rotate && item.accessTokenHash !== null };
}
