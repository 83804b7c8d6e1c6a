// The Link journey: link tokens, the hosted page's session steps (credentials, MFA), item creation
// or repair, public tokens and the exchange for an access token.
import { ApiError, fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { Product } from '../contracts/schemas';
import { randomToken } from '../core/api-keys';
import { resolveConnector } from '../core/connectors';
import { findInstitution, toPublicInstitution } from '../core/institutions';
import { isCorrectMfaCode, sandboxOutcome, successRedirect } from '../core/link-rules';
import { mintToken, newItemId, tokenHash } from '../core/tokens';
import type { AuthContext } from '../data/api-keys-repo';
import type { Environment } from '../data/keys';
import {
  completeLinkSession,
  createItem,
  getItem,
  getLinkSession,
  getPublicToken,
  issueAccessToken,
  putLinkSession,
  putPublicToken,
  recordFailedAttempt,
  setPendingMfa,
  TokenSpentError,
  updateItemState,
  type ItemRecord,
  type LinkSessionRecord,
} from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { fetchFromSource, SANDBOX_CONNECTOR, syncFromSource } from './item-source';
import { announceRepair, markItemError } from './lifecycle';
import { registerEndpoint } from './webhooks';

const LINK_LIFETIME_MS = LIMITS.linkTokenLifetimeMinutes * 60_000;
type CatalogInstitution = NonNullable<ReturnType<typeof findInstitution>>;

export interface LinkTokenRequest {
  client_name?: string;
  user: { client_user_id: string };
  products: Product[];
  institution_id?: string;
  update_item_id?: string;
  webhook?: string;
  redirect_uri?: string;
}

function requireSupported(institution: CatalogInstitution, products: Product[]): void {
  const missing = products.filter((p) => !institution.products.includes(p));
  if (missing.length) fail('products_not_supported', `${institution.name} does not support: ${missing.join(', ')}.`);
}

export async function createLinkToken(deps: Deps, auth: AuthContext, body: LinkTokenRequest) {
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

/** A session the page may still act on; the error says why not otherwise. */
export async function openSession(deps: Deps, linkToken: string): Promise<LinkSessionRecord> {
  const session = (await getLinkSession(deps, linkToken)) ?? fail('invalid_link_token');
  if (session.status === 'completed') fail('link_token_used');
  if (session.expiresAt <= deps.clock.now()) fail('link_token_expired');
  return session;
}

export async function describeSession(deps: Deps, linkToken: string) {
  const session = await openSession(deps, linkToken);
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

async function failAttempt(deps: Deps, session: LinkSessionRecord, code: 'invalid_credentials' | 'invalid_mfa_code'): Promise<never> {
  const attempts = await recordFailedAttempt(deps, session);
  const left = LIMITS.linkAttemptsMax - attempts;
  if (left <= 0) fail('too_many_attempts');
  throw new ApiError(code, `${code === 'invalid_credentials' ? 'The username or password is incorrect.' : 'The code is incorrect.'} ${left} attempt${left === 1 ? '' : 's'} left.`);
}

export interface ConnectRequest {
  link_token: string;
  institution_id: string;
  username: string;
  password: string;
}

export async function submitCredentials(deps: Deps, body: ConnectRequest) {
  const session = await openSession(deps, body.link_token);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  if (session.environment === 'live') {
    // Live keys reach the institution's connector chain; none is wired yet, so nothing pretends.
    if (!resolveConnector(institution.connectors, deps.config.connectorEnv ?? {})) fail('provider_error');
    fail('provider_error', 'The connector for this institution is configured but not available in this release.');
  }
  const outcome = sandboxOutcome(body.username, body.password);
  if (outcome === 'invalid') return failAttempt(deps, session, 'invalid_credentials');
  if (outcome === 'locked') {
    const item = session.updateItemId ? await getItem(deps, session.updateItemId) : undefined;
    if (item) await markItemError(deps, item, lockedError());
    fail('item_locked');
  }
  if (outcome === 'mfa') {
    await setPendingMfa(deps, session, { institutionId: institution.institution_id, username: body.username });
    return { status: 'mfa_required' as const, mfa: { type: 'code' as const, prompt: 'Enter the 4-digit code sent to your phone. (Sandbox: 1234.)' } };
  }
  return finishConnection(deps, session, institution, body.username);
}

function lockedError() {
  return { type: 'item_error', code: 'item_locked', message: 'The institution has locked this login.' };
}

export async function submitMfaCode(deps: Deps, body: { link_token: string; code: string }) {
  const session = await openSession(deps, body.link_token);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  if (!session.mfa) fail('no_mfa_pending');
  if (!isCorrectMfaCode(body.code)) return failAttempt(deps, session, 'invalid_mfa_code');
  const institution = findInstitution(session.mfa.institutionId) ?? fail('institution_not_found');
  return finishConnection(deps, session, institution, session.mfa.username);
}

async function finishConnection(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, username: string) {
  let item: ItemRecord;
  let rotate = false;
  if (session.updateItemId) {
    item = (await getItem(deps, session.updateItemId)) ?? fail('invalid_item_id');
    if (!(await completeLinkSession(deps, session, item.itemId))) fail('link_token_used');
    const products = [...new Set([...item.consentedProducts, ...session.products])];
    const wasBroken = item.status !== 'healthy';
    await updateItemState(deps, item.itemId, { status: 'healthy', error: null, consentedProducts: products, webhook: session.webhook ?? item.webhook });
    item = { ...item, status: 'healthy', error: null, consentedProducts: products };
    if (wasBroken) await announceRepair(deps, item);
    await syncFromSource(deps, item);
    rotate = true;
  } else {
    const itemId = newItemId();
    if (!(await completeLinkSession(deps, session, itemId))) fail('link_token_used');
    item = await connectItem(deps, {
      itemId,
      applicationId: session.applicationId,
      environment: session.environment,
      institution,
      username,
      products: session.products,
      clientUserId: session.clientUserId,
      webhook: session.webhook,
    });
  }
  const publicToken = await mintPublicToken(deps, item, rotate);
  const accounts = fetchFromSource(deps, item).accounts;
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

/** Creates a healthy sandbox item and loads its accounts and 24 months of transactions. */
export async function connectItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const item = await createItem(deps, {
    itemId: args.itemId,
    applicationId: args.applicationId,
    environment: args.environment,
    institutionId: args.institution.institution_id,
    institutionName: args.institution.name,
    connector: SANDBOX_CONNECTOR,
    consentedProducts: args.products,
    sandboxUsername: args.username,
    clientUserId: args.clientUserId,
    webhook: args.webhook,
  });
  const committed = await syncFromSource(deps, item);
  return { ...item, committedSeq: committed?.committedSeq ?? item.committedSeq };
}

async function mintPublicToken(deps: Deps, item: ItemRecord, rotate: boolean): Promise<string> {
  const publicToken = mintToken('public');
  await putPublicToken(deps, publicToken, {
    itemId: item.itemId,
    applicationId: item.applicationId,
    environment: item.environment,
    expiresAt: deps.clock.now() + LINK_LIFETIME_MS,
    rotate,
  });
  return publicToken;
}

/** POST /v1/sandbox/public_token/create: the browser-free path for integrators' CI. */
export async function createSandboxPublicToken(
  deps: Deps,
  auth: AuthContext,
  body: { institution_id: string; products: Product[]; username?: string },
) {
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  requireSupported(institution, body.products);
  const username = body.username ?? 'user_good';
  const outcome = sandboxOutcome(username, 'pass_good');
  if (outcome === 'locked') fail('item_locked');
  if (outcome === 'invalid') fail('invalid_credentials', `${username} is not a sandbox login; use user_good, user_good_<suffix> or user_mfa.`);
  const item = await connectItem(deps, {
    itemId: newItemId(),
    applicationId: auth.applicationId,
    environment: auth.environment,
    institution,
    username,
    products: body.products,
    clientUserId: 'sandbox',
    webhook: null,
  });
  return { public_token: await mintPublicToken(deps, item, false) };
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
