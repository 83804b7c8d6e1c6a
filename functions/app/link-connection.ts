// What every Link step that connects shares, and nothing that reaches an adapter: the session's
// attempts, which connector serves the session (decided without building it), the consent's answer,
// and the connection itself (a new item, or update mode's repair) with its public token. Each step
// builds its connector from the adapters of its own method (functions/connectors/by-method) in its
// own module (./link-credentials, ./link-oauth, ./link-consent, ./link-upload), so a route's bundle
// carries the adapters it can reach and no others; only the statement upload, whose data comes with
// the consent, brings ingestion (BatchIngestion). A new or repaired item's data is pulled by the
// refresh worker, never here.
import { chooseConnector, namedConnector, type ConnectorChoice, type ConnectorEnv } from '../connectors/choice';
import { buildAdapter, type AdapterSet } from '../connectors/registry';
import { ApiError, ERRORS, fail, itemErrorOf, statusOf, type ErrorCode } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf } from '../contracts/routes';
import type { Environment, Product } from '../contracts/schemas';
import { ConnectorError, type ConnectorPort, type LinkMethod, type LoginResult, type ProviderSecrets, type SourceBatch } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID, SANDBOX_CONNECTOR_ID } from '../core/connectors';
import { findInstitution } from '../core/institutions';
import { successRedirect } from '../core/link-rules';
import { mintToken, newItemId } from '../core/tokens';
import { newEvent, publishEvent } from '../data/events';
import {
  commitLinkConnection,
  createConnectingItem,
  getItem,
  getLinkSessionByHash,
  listAbandonedConnections,
  putAccounts,
  reapAbandonedConnection,
  recordFailedAttempt,
  releaseFailedAttempt,
  type ItemCommit,
  type ItemRecord,
  type LinkSessionRecord,
  type StoredAccount,
} from '../data/items-repo';
import { eventPut, type WebhookFormat } from '../data/webhooks-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { accountsIn, connectorEnvFor } from './item-connector';
import { markItemError } from './item-state';
import { LINK_LIFETIME_MS, openSession, requireSupported, selectionStep, type CatalogInstitution, type LinkCaller } from './link-session';
import { sharedAccounts } from './reads';
import { sealProviderSecrets } from './provider-secrets';

const CONNECT_DEADLINE_MS = LIMITS.linkConnectDeadlineMinutes * 60_000;

/**
 * One of the session's attempts, reserved before the connector sees what the user typed: parallel
 * requests cannot get more guesses to the institution than the lockout allows, since each must take
 * an attempt first (a conditional ADD). An attempt that fails stays counted (failAttempt); one that
 * succeeds, or whose input was never judged (the connector failed), is given back (releaseAttempt).
 */
export interface Attempt {
  /** The session's failed attempts, this one included. */
  counted: number;
  settled: boolean;
}

async function reserveAttempt(deps: Deps, session: LinkSessionRecord): Promise<Attempt> {
  const counted = await recordFailedAttempt(deps, session, LIMITS.linkAttemptsMax);
  if (counted === null) sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
  return { counted, settled: false };
}

export async function releaseAttempt(deps: Deps, session: LinkSessionRecord, attempt: Attempt): Promise<void> {
  if (attempt.settled) return;
  attempt.settled = true;
  await releaseFailedAttempt(deps, session);
}

/** Runs a step with a reserved attempt, given back unless the step counted it as failed. */
export async function withAttempt<T>(deps: Deps, session: LinkSessionRecord, step: (attempt: Attempt) => Promise<T>): Promise<T> {
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
export function failAttempt(attempt: Attempt, code: 'invalid_credentials' | 'invalid_mfa_code', message?: string): never {
  attempt.settled = true;
  const left = LIMITS.linkAttemptsMax - attempt.counted;
  if (left <= 0) fail('too_many_attempts');
  const refused = message ?? (code === 'invalid_credentials' ? 'The username or password is incorrect.' : 'The code is incorrect.');
  throw new ApiError(code, `${refused.replace(/\.?\s*$/, '.')} ${left} attempt${left === 1 ? '' : 's'} left.`);
}

/** The connector a session talks to (not built yet), and the deployment's configuration it is built with. */
export interface SessionConnector {
  choice: ConnectorChoice;
  env: ConnectorEnv;
}

/**
 * The connector a session talks to: in update mode the item's own (its consent is repaired where it
 * lives, never moved to another connector); else the one the institution's chain picks.
 */
export async function sessionConnector(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, method?: LinkMethod): Promise<SessionConnector> {
  const env = await connectorEnvFor(deps, session.environment);
  if (session.updateItemId) {
    const item = (await getItem(deps, session.updateItemId)) ?? fail('invalid_item_id');
    // A sandbox item is repaired the way its institution connects (the simulated OAuth consent or credentials).
    if (item.connector === SANDBOX_CONNECTOR_ID) return { choice: chooseConnector('test', institution, env), env };
    return { choice: namedConnector(item.connector), env };
  }
  return { choice: chooseConnector(session.environment, institution, env, method), env };
}

/**
 * The adapter of the session's connector, from the adapters of the step's method: the step has
 * checked the connector's method first, so the set holds it (test/unit/connector-choice.test.ts).
 */
export function buildSessionConnector(adapters: AdapterSet, { choice, env }: SessionConnector): ConnectorPort {
  const connector = buildAdapter(adapters, choice.id, env);
  if (!connector || connector.linkMethod !== choice.linkMethod) throw new Error(`no ${choice.linkMethod} adapter of ${choice.id} among this step's adapters`);
  return connector;
}

// ---------- consent methods of real connectors (oauth, api_key, address, file) ----------

/** The institution a consent step names, if the session may connect it. */
export function sessionInstitution(session: LinkSessionRecord, institutionId: string): CatalogInstitution {
  const institution = findInstitution(institutionId) ?? fail('institution_not_found');
  if (session.institutionId && session.updateItemId && session.institutionId !== institution.institution_id) fail('institution_mismatch');
  requireSupported(institution, session.products);
  return institution;
}

/** The usable session and institution of a consent step: the checks every Link step makes first. */
export async function consentContext(deps: Deps, linkToken: string, institutionId: string, caller: LinkCaller) {
  const session = await openSession(deps, linkToken, caller);
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  return { session, institution: sessionInstitution(session, institutionId) };
}


/** The connector serving `method` (or the institution's default) for the session, or null when none can. */
async function servingConnector(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, method?: LinkMethod): Promise<ConnectorChoice | null> {
  try {
    return (await sessionConnector(deps, session, institution, method)).choice;
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
export interface ConsentConnector {
  connector: ConnectorPort;
  connect: NonNullable<ConnectorPort['connect']>;
}

export function consentCallOf(connector: ConnectorPort): ConsentConnector {
  if (!connector.connect) throw new ApiError('provider_error', 'The connector for this institution cannot take this consent.');
  return { connector, connect: connector.connect.bind(connector) };
}

/**
 * The connector the session's institution is served by, when it uses one of `methods` (built from
 * `adapters`, the adapters of those methods); invalid_field otherwise.
 */
export async function connectorUsing(adapters: AdapterSet, deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, methods: readonly LinkMethod[]): Promise<ConsentConnector> {
  const served = await sessionConnector(deps, session, institution);
  const method = served.choice.linkMethod;
  if (!methods.includes(method)) {
    fail('invalid_field', `${institution.name} is connected with the ${method.replace('_', ' ')} method, not this one.`);
  }
  return consentCallOf(buildSessionConnector(adapters, served));
}

/**
 * Runs a connector call of a consent step and maps its ConnectorError to the API's answers:
 * login_required is a refused consent (counted like wrong credentials, with the adapter's message),
 * rate_limited is 429 with Retry-After, provider_error is 502, and invalid_input answers 400 (or
 * the catalogue's status) with the adapter's code when it is one of ours.
 */
export async function connectorCall<T>(call: () => Promise<T>, attempt?: Attempt): Promise<T> {
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
export async function finishConsent(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, step: LinkStep, connector: ConnectorPort, result: LoginResult, selection: boolean, attempt?: Attempt) {
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
  // Only a statement file comes with data (the file method's step writes it); any other is a connector fault.
  if (result.batch && !step.ingest) throw new Error(`${connector.id} sent data with a ${connector.linkMethod} consent`);
  const data = result.batch && step.ingest ? { batch: result.batch, ingest: step.ingest } : undefined;
  return finishConnection(deps, session, institution, { connector, adapters: step.adapters, login: result.connection.login, secrets: result.secrets, ...(data ? { data } : {}), selection });
}

/**
 * Ends a session with a connected item. Everything that can fail (the institution, a new item's
 * accounts) happens first; then ONE transaction issues the public token, spends the session and makes
 * the item healthy (commitLinkConnection). A failure before it leaves the session open, so the user
 * can simply retry, and a new item invisible (the reaper removes what it wrote). A new item's history
 * is loaded afterwards by the refresh worker (refreshItem), so Link answers without waiting for it.
 */
export async function finishConnection(deps: Deps, session: LinkSessionRecord, institution: CatalogInstitution, consent: ConnectedConsent) {
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
        adapters: consent.adapters,
        secrets: consent.secrets,
        ...(consent.data ? { data: consent.data } : {}),
        selectionPending: consent.selection,
      });
  const { item, publicToken, accounts } = connected;
  if (consent.selection) return selectionStep(session, institution, item, publicToken, accounts);
  return connectedStep(session, institution, item, publicToken, accounts);
}

/** The step that ends a session: the public token, what onSuccess receives, and where the hosted page goes next. */
export function connectedStep(session: LinkSessionRecord, institution: CatalogInstitution, item: ItemRecord, publicToken: string, accounts: StoredAccount[]) {
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

/**
 * Whether the user chooses the accounts to share after this step: the page asks for it
 * (`account_selection`), for a new item always, in update mode only when the link token enabled it
 * (`update.account_selection_enabled`, as Plaid's). Without it a new item shares all its accounts
 * and a repaired one keeps its choice.
 */
export function selectionWanted(session: LinkSessionRecord, body: { account_selection?: boolean }): boolean {
  return body.account_selection === true && (session.updateItemId === null || session.accountSelectionEnabled === true);
}

/** Writes data that came with a consent (a statement file) to the new item, still connecting; answers its accounts. */
export type BatchIngestion = (deps: Deps, item: ItemRecord, batch: SourceBatch) => Promise<{ accounts: StoredAccount[] }>;

/**
 * What a Link step's method brings to the connection: the adapters of the method (the new or
 * repaired item's accounts are read through them) and, for the statement upload only, how the data
 * that comes with the consent is written.
 */
export interface LinkStep {
  adapters: AdapterSet;
  ingest?: BatchIngestion;
}

/** What a Link step connected: the connector, its reference for the user's data, and what came with the consent. */
export interface ConnectedConsent {
  connector: ConnectorPort;
  /** The adapters of the step's method: the item's accounts are read through them. */
  adapters: AdapterSet;
  login: string;
  /** Sealed to the item: a new item's, or a repaired item's replacing the old ones. */
  secrets?: ProviderSecrets;
  /** The item's data, when it came with the consent (a statement file), and how it is written. */
  data?: { batch: SourceBatch; ingest: BatchIngestion };
  /** The user chooses the accounts to share before the public token can be exchanged (selectionWanted). */
  selection: boolean;
}

/** Why commitLinkConnection refused a session (read again): spent by a concurrent success, or locked by failures. */
export function sessionRefusal(session: LinkSessionRecord): never {
  if (session.failedAttempts >= LIMITS.linkAttemptsMax) fail('too_many_attempts');
  fail('link_token_used');
}

function publicTokenRecord(deps: Deps, item: ItemRecord, rotate: boolean, selectionPending = false) {
  return { itemId: item.itemId, applicationId: item.applicationId, environment: item.environment, expiresAt: deps.clock.now() + LINK_LIFETIME_MS, rotate, selectionPending };
}

/**
 * Update mode: the user signed in again. The repair commits first; then the item's data sync is
 * queued for the refresh worker (an on-demand refresh), as a new item's history is: Link answers
 * without waiting for a pull, and a sync can never make it fail once the public token is issued. An
 * item whose history had not finished loading when its login broke has its history load queued instead.
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
  const accounts = await accountsIn(consent.adapters, deps, repaired);
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
    // Due at once either way: the queued job does the work, and if it is lost the scheduled sweep
    // (every 5 minutes on AWS) loads the history or syncs the repaired item instead of the plan's
    // next refresh hours later. A repaired item the job already synced is refreshed once more.
    firstRefreshDueAt: deps.clock.now(),
  });
  if (outcome === 'session_spent') sessionRefusal((await getLinkSessionByHash(deps, session.linkTokenHash)) ?? session);
  if (outcome === 'item_gone') fail('invalid_item_id');
  if (repairEvent) await publishEvent(deps, repairEvent.eventId);
  if (historyPending) await queueHistoryLoad(deps, itemId);
  else await queueRepairSync(deps, itemId);
  return { item: repaired, publicToken, accounts };
}

/**
 * Hands a connected item's history load to the refresh worker. Never fails the connection, which is
 * committed already: the item's refresh-due row is due at once, so a lost job is made up for by the
 * scheduled sweep (every 5 minutes on AWS).
 */
export async function queueHistoryLoad(deps: Deps, itemId: string): Promise<void> {
  try {
    await deps.ports.refreshQueue.enqueue({ item_id: itemId, reason: 'initial_history' });
  } catch (err) {
    logger.warn('could not queue the history load; the scheduled sweep will load it', { item_id: itemId, error: (err as Error).message });
  }
}

/**
 * Hands a repaired item's sync to the refresh worker (refreshItem, reason `login_repaired`: the
 * source's whole window, as a sync right after the repair reads it). Never fails the repair, which
 * is committed already: the repair made the item's refresh-due row due at once, so a lost job is
 * made up for by the scheduled sweep (every 5 minutes on AWS).
 */
async function queueRepairSync(deps: Deps, itemId: string): Promise<void> {
  try {
    await deps.ports.refreshQueue.enqueue({ item_id: itemId, reason: 'login_repaired' });
  } catch (err) {
    logger.warn('could not queue the repaired item\'s sync; the scheduled sweep will sync it', { item_id: itemId, error: (err as Error).message });
  }
}

/**
 * A new item: written invisibly (connecting) with its accounts, committed with its public token (or
 * removed again), and then its history is queued for the refresh worker: the item is visible with
 * `transactions_update_status` `not_ready` until the worker's first stage lands. An item without the
 * transactions product has no history to load.
 */
export async function connectNewItem(deps: Deps, session: LinkSessionRecord | null, args: ConnectArgs, history: 'queue' | 'caller loads' = 'queue') {
  const item = await createNewItem(deps, args);
  const historyPending = item.transactionsUpdateStatus !== 'historical_update_complete';
  let accounts: StoredAccount[];
  let imported: ReturnType<typeof newEvent> | null;
  const publicToken = mintToken('public');
  const awaitingSelection = args.selectionPending === true;
  const tokenRecord = publicTokenRecord(deps, item, false, awaitingSelection);
  try {
    if (args.data) {
      // The data came with the consent (a statement): it is written now, there is nothing to pull.
      accounts = (await args.data.ingest(deps, item, args.data.batch)).accounts;
    } else {
      accounts = await accountsIn(args.adapters, deps, item);
      await putAccounts(deps, item.itemId, accounts, deps.clock.now());
    }
    // A statement's transactions are in the feed already: the item's first sync event is announced by
    // the commit that makes the item real, so a connection that never commits announces nothing.
    // An item awaiting its account selection is made real by that choice (submitAccountSelection).
    imported = args.data && !awaitingSelection && item.consentedProducts.includes('transactions') ? newEvent(deps, item, 'transactions.sync_updates_available', { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }) : null;
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

export interface ConnectArgs {
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
  /** The connector that made the connection. */
  connectorId: string;
  /** Adapters that hold the connector's: the new item's accounts are read through them. */
  adapters: AdapterSet;
  /** The connector's secrets for the item, sealed to it when it is written. */
  secrets?: ProviderSecrets;
  /** The item's data when it came with the consent, and how it is written: before the commit, no history to load. */
  data?: { batch: SourceBatch; ingest: BatchIngestion };
  /** The public token waits for the user's account selection (Link's select_accounts step). */
  selectionPending?: boolean;
}

/** Writes a new item served by the login's connector, still invisible (connecting). */
async function createNewItem(deps: Deps, args: ConnectArgs): Promise<ItemRecord> {
  const owner = { itemId: args.itemId, applicationId: args.applicationId, environment: args.environment };
  return createConnectingItem(
    deps,
    {
      itemId: args.itemId,
      applicationId: args.applicationId,
      environment: args.environment,
      institutionId: args.institution.institution_id,
      institutionName: args.institution.name,
      connector: args.connectorId,
      consentedProducts: args.products,
      connectionLogin: args.username,
      clientUserId: args.clientUserId,
      webhook: args.webhook,
      webhookFormat: args.webhookFormat,
      // A statement's history is written with the item (connectNewItem), so it is complete at commit.
      transactionsUpdateStatus: args.products.includes('transactions') && !args.data ? 'not_ready' : 'historical_update_complete',
      ...(args.secrets ? { providerSecrets: await sealProviderSecrets(deps, owner, args.secrets) } : {}),
    },
    deps.clock.now() + CONNECT_DEADLINE_MS,
  );
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
