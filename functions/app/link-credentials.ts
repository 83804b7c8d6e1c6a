// Link's username-and-password steps (link.connect, link.mfa) and the sandbox's browser-free login
// (sandbox.public_token.create). They build connectors from the credentials adapters only: in this
// release the sandbox simulator; an institution served by another method is answered without building
// its adapter (./link-connection sessionConnector decides first).
import { CREDENTIALS_ADAPTERS } from '../connectors/by-method/credentials';
import { sandboxConnector, sandboxCredentials } from '../connectors/sandbox';
import { fail, itemErrorOf } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import { findInstitution } from '../core/institutions';
import { newItemId } from '../core/tokens';
import type { AuthContext } from '../data/api-keys-repo';
import { getItem, setPendingMfa } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { markItemError } from './item-state';
import { buildSessionConnector, connectNewItem, failAttempt, finishConnection, releaseAttempt, selectionWanted, sessionConnector, withAttempt } from './link-connection';
import { openSession, requireSupported, type LinkCaller } from './link-session';

export async function submitCredentials(deps: Deps, body: RequestOf<'link.connect'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const institution = findInstitution(body.institution_id) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  const served = await sessionConnector(deps, session, institution);
  // No connector takes a username and password for this institution here (it is served by another method).
  if (served.choice.linkMethod !== 'credentials') fail('provider_error', `${institution.name} is not connected with a username and password here.`);
  const connector = buildSessionConnector(CREDENTIALS_ADAPTERS, served);
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
    return finishConnection(deps, session, institution, { connector, adapters: CREDENTIALS_ADAPTERS, login: result.connection.login, selection: selectionWanted(session, body) });
  });
}

export async function submitMfaCode(deps: Deps, body: RequestOf<'link.mfa'>, caller: LinkCaller) {
  const session = await openSession(deps, body.link_token, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  const mfa = session.mfa ?? fail('no_mfa_pending');
  const institution = findInstitution(mfa.institutionId) ?? fail('institution_not_found');
  const served = await sessionConnector(deps, session, institution);
  // Only a credentials login raises a challenge: a connector of another method refuses every code, as its adapter would.
  const connector = served.choice.linkMethod === 'credentials' ? buildSessionConnector(CREDENTIALS_ADAPTERS, served) : null;
  const pending = { institutionId: mfa.institutionId, login: mfa.username };
  return withAttempt(deps, session, async (attempt) => {
    if (!connector || !(await connector.verifyMfaCode(pending, body.code))) return failAttempt(attempt, 'invalid_mfa_code');
    await releaseAttempt(deps, session, attempt);
    return finishConnection(deps, session, institution, { connector, adapters: CREDENTIALS_ADAPTERS, login: mfa.username, selection: selectionWanted(session, body) });
  });
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
  // Test keys only (the route refuses live keys), so the simulator: its logins connect every sandbox
  // institution, the OAuth ones too (this path skips their consent page).
  const connector = sandboxConnector;
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
    connectorId: connector.id,
    adapters: CREDENTIALS_ADAPTERS,
  });
  return { public_token: publicToken };
}
