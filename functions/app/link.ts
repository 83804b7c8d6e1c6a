// The Link journey: link tokens, the hosted page's session steps (credentials, MFA), item creation
// or repair, public tokens and the exchange for an access token.
import { connectorFor, sandboxCredentials } from '../connectors';
import { ApiError, fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Environment, Product } from '../contracts/schemas';
import { randomToken } from '../core/api-keys';
import { findInstitution, toPublicInstitution } from '../core/institutions';
import { successRedirect } from '../core/link-rules';
import { mintToken, newItemId, tokenHash } from '../core/tokens';
import type { AuthContext } from '../data/api-keys-repo';
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
import { sourceAccounts, syncFromSource } from './item-source';
import { announceRepair, markItemError } from './lifecycle';
import { registerEndpoint } from './webhooks';

const LINK_LIFETIME_MS = LIMITS.linkTokenLifetimeMinutes * 60_000;
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

export async function submitCredentials(deps: Deps, body: RequestOf<'link.connect'>) {
  const session = await openSession(deps, body.link_token);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  const connector = connectorFor(session.environment, institution, deps.config.connectorEnv ?? {});
  const result = await connector.login(institution.institution_id, { username: body.username, password: body.password });
  if (result.status === 'invalid_credentials') return failAttempt(deps, session, 'invalid_credentials');
  if (result.status === 'locked') {
    const item = session.updateItemId ? await getItem(deps, session.updateItemId) : undefined;
    if (item) await markItemError(deps, item, lockedError());
    fail('item_locked');
  }
  if (result.status === 'mfa_required') {
    await setPendingMfa(deps, session, { institutionId: result.connection.institutionId, username: result.connection.login });
    return { status: 'mfa_required' as const, mfa: { type: 'code' as const, prompt: result.prompt } };
  }
  return finishConnection(deps, session, institution, result.connection.login);
}

function lockedError() {
  return { type: 'item_error', code: 'item_locked', message: 'The institution has locked this login.' };
}

export async function submitMfaCode(deps: Deps, body: RequestOf<'link.mfa'>) {
  const session = await openSession(deps, body.link_token);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  if (!session.mfa) fail('no_mfa_pending');
  const institution = findInstitution(session.mfa.institutionId) ?? fail('institution_not_found');
  const connector = connectorFor(session.environment, institution, deps.config.connectorEnv ?? {});
  const pending = { institutionId: session.mfa.institutionId, login: session.mfa.username };
  if (!(await connector.verifyMfaCode(pending, body.code))) return failAttempt(deps, session, 'invalid_mfa_code');
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
  const accounts = await sourceAccounts(deps, item);
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

/** Creates a healthy item served by the login's connector and loads its accounts and history. */
export async function connectItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const connector = connectorFor(args.environment, args.institution, deps.config.connectorEnv ?? {});
  const item = await createItem(deps, {
    itemId: args.itemId,
    applicationId: args.applicationId,
    environment: args.environment,
    institutionId: args.institution.institution_id,
    institutionName: args.institution.name,
    connector: connector.id,
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
  body: RequestOf<'sandbox.public_token.create'>,
) {
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  requireSupported(institution, body.products);
  const username = body.username ?? 'user_good';
  const connector = connectorFor(auth.environment, institution, deps.config.connectorEnv ?? {});
  const result = await connector.login(institution.institution_id, sandboxCredentials(username));
  if (result.status === 'locked') fail('item_locked');
  if (result.status === 'invalid_credentials') fail('invalid_credentials', `${username} is not a sandbox login; use user_good, user_good_<suffix> or user_mfa.`);
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
