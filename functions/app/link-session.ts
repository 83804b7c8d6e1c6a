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
import { countLinkCall, getItem, getLinkSession, getPublicToken, issueAccessToken, putLinkSession, TokenSpentError, type LinkSessionRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { registerEndpoint } from './webhooks';

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
