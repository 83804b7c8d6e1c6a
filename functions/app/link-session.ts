// The Link session and its tokens: link tokens, the hosted page's session (metered per token and
// client address), and the exchange of a public token for an access token. Nothing here reaches a
// connector: the steps that do (credentials, consents, uploads) are in ./link.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Product } from '../contracts/schemas';
import { randomToken } from '../core/api-keys';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { findInstitution, toPublicInstitution } from '../core/institutions';
import { embedOriginAllowed, redirectUriRefusal } from '../core/link-rules';
import { mintToken, tokenHash } from '../core/tokens';
import { getLinkSettings, type AuthContext } from '../data/api-keys-repo';
import {
  countLinkCall,
  getItem,
  getItemForSelection,
  getLinkSession,
  getPublicToken,
  issueAccessToken,
  listAccounts,
  putLinkSession,
  putSelectionToken,
  TokenSpentError,
  type ItemRecord,
  type LinkSessionRecord,
  type StoredAccount,
} from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { sharedAccounts } from './reads';
import { prepareItemWebhook } from './webhooks';

export const LINK_LIFETIME_MS = LIMITS.linkTokenLifetimeMinutes * 60_000;
const LINK_CALL_WINDOW_MS = 60_000;
export type CatalogInstitution = NonNullable<ReturnType<typeof findInstitution>>;

export function requireSupported(institution: CatalogInstitution, products: Product[]): void {
  const missing = products.filter((p) => !institution.products.includes(p));
  if (missing.length) fail('products_not_supported', `${institution.name} does not support: ${missing.join(', ')}.`);
}

export async function createLinkToken(deps: Deps, auth: AuthContext, body: RequestOf<'link.token.create'>) {
  let institutionId = body.institution_id ?? null;
  if (body.update_item_id !== undefined) {
    const item = await getItem(deps, body.update_item_id);
    if (!item || item.applicationId !== auth.applicationId || item.environment !== auth.environment) fail('invalid_item_id');
    if (item.connector === FILE_IMPORT_CONNECTOR_ID) {
      fail('statement_import_not_supported', 'An item created from a statement has no login to repair: upload a newer statement with POST /v1/items/statements/upload.');
    }
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
  // The webhook field is the URL of the item this session connects (or repairs): checked as an
  // endpoint's URL is, but not an endpoint. The environment's signing secret is shown if this made it.
  const { webhookSecret } = body.webhook !== undefined ? await prepareItemWebhook(deps, auth, body.webhook) : { webhookSecret: null };
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
    language: body.language ?? 'en',
    accountSelectionEnabled: body.update?.account_selection_enabled === true,
    expiresAt,
  });
  return { link_token: linkToken, expiration: new Date(expiresAt).toISOString(), webhook_secret: webhookSecret };
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

/**
 * A session that ended with a connection whose accounts the user still chooses
 * (/link/api/accounts/select): metered like every page call, and not expired.
 */
export async function openCompletedSession(deps: Deps, linkToken: string, caller: LinkCaller): Promise<LinkSessionRecord> {
  await meterLinkCall(deps, linkToken, caller);
  const session = (await getLinkSession(deps, linkToken)) ?? fail('invalid_link_token');
  if (session.expiresAt <= deps.clock.now()) fail('link_token_expired');
  if (session.status !== 'completed' || !session.completedItemId) fail('invalid_field', 'This link has no connection whose accounts can be chosen yet.');
  return session;
}

function publicSession(session: LinkSessionRecord) {
  const institution = session.institutionId ? findInstitution(session.institutionId) : undefined;
  return {
    link_session_id: session.linkSessionId,
    client_name: session.clientName,
    products: session.products,
    mode: session.updateItemId ? ('update' as const) : ('create' as const),
    environment: session.environment,
    language: session.language,
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
  const found = (await getLinkSession(deps, linkToken)) ?? fail('invalid_link_token');
  // A page reloaded at the account-selection step shows that step again; any other spent session is used.
  const resumed = await resumableSelection(deps, found);
  const session = resumed === null ? await usableSession(deps, linkToken) : found;
  let embedAllowed: boolean | null = null;
  if (parentOrigin !== null) {
    const { linkOrigins } = await getLinkSettings(deps, session.applicationId);
    embedAllowed = embedOriginAllowed(parentOrigin, session.environment, linkOrigins);
  }
  return { session: publicSession(session), embedAllowed, resumed };
}

/**
 * The step after a connection when the user chooses accounts: the item is committed and its public
 * token issued, but the token cannot be exchanged until /link/api/accounts/select records the
 * choice. Every account is offered; a new item's are all preselected, a repaired item's current
 * choice is (an account that appeared since is not).
 */
export function selectionStep(session: LinkSessionRecord, institution: CatalogInstitution, item: ItemRecord, publicToken: string, accounts: StoredAccount[]) {
  return {
    status: 'select_accounts' as const,
    public_token: publicToken,
    link_session_id: session.linkSessionId,
    item_id: item.itemId,
    institution: { institution_id: institution.institution_id, name: institution.name },
    accounts: [...accounts]
      .sort((a, b) => a.account_id.localeCompare(b.account_id))
      .map((a) => ({ account_id: a.account_id, name: a.name, mask: a.mask, type: a.type, subtype: a.subtype, balances: { current: a.balances.current, iso_currency_code: a.balances.iso_currency_code } })),
    selected_account_ids: sharedAccounts(item, accounts).map((a) => a.account_id).sort(),
  };
}

/**
 * GET /link at the account-selection step (the page was reloaded or reopened before the choice): the
 * step again, for a new item still awaiting its choice, while the link session lives. The first
 * page's public token is known only to that page, so the step comes with a new one; null when the
 * session is not at that step (the page then answers as for any spent link). An update-mode
 * session is not resumed: its item keeps the choice it had.
 */
async function resumableSelection(deps: Deps, session: LinkSessionRecord) {
  if (session.status !== 'completed' || !session.completedItemId || session.updateItemId !== null) return null;
  if (session.expiresAt <= deps.clock.now()) return null;
  const item = await getItemForSelection(deps, session.completedItemId);
  if (!item?.awaitingSelection) return null;
  const institution = findInstitution(item.institutionId);
  if (!institution) return null;
  const publicToken = mintToken('public');
  await putSelectionToken(deps, publicToken, { itemId: item.itemId, applicationId: item.applicationId, environment: item.environment, expiresAt: session.expiresAt });
  const { accounts } = await listAccounts(deps, item.itemId);
  return selectionStep(session, institution, item, publicToken, accounts);
}

export async function exchangePublicToken(deps: Deps, auth: AuthContext, publicToken: string) {
  const record = await getPublicToken(deps, publicToken);
  if (!record || record.applicationId !== auth.applicationId || record.environment !== auth.environment) fail('invalid_public_token');
  if (record.spent) fail('public_token_used');
  if (record.selectionPending) fail('invalid_public_token', 'The user has not chosen the accounts to share yet: Link hands out the public token once they have.');
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

/** The page's callback URL for OAuth consents: the provider sends the user back here. */
export function oauthRedirectUri(baseUrl: string): string {
  return `${baseUrl.replace(/\/$/, '')}/link/oauth/callback`;
}

/** `url` with `params` set in its query. */
export function withQuery(url: string, params: Record<string, string>): string {
  const out = new URL(url);
  for (const [name, value] of Object.entries(params)) out.searchParams.set(name, value);
  return out.toString();
}
