// The Australian and New Zealand aggregator behind the connector port (API v3). The user consents
// in the aggregator's hosted Consent UI (consumer data right); the service then reads the user's
// connections, jobs, accounts, transactions and identities with a server token minted from the
// operator's API key. Nothing per item is secret: the item's login is the aggregator's user id,
// created for this item when Link starts, and removing the item deletes that user.
import { randomUUID } from 'node:crypto';
import { followNextLinks } from '../pages';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ConsentInput, type LoginResult, type ProviderRequest, type ProviderResponse, type SourceBatch, type SourceTransaction } from '../../core/connector-port';
import { addDays, notOffered } from '../payload';
import { retryAfterMs } from '../provider-http';
import { stableId } from '../ids';
import { AGGREGATOR_F_ID, connectionsState, jobsInProgress, mapAccount, mapIdentities, mapTransaction, pageOf, providerError } from './mapping';
import { obj, str, type Json } from './payload';

const DEFAULT_BASE_URL = 'https://au-api.basiq.io';
const DEFAULT_CONSENT_URL = 'https://consent.basiq.io';
const API_VERSION = '3.0';
const PAGE_LIMIT = 500;
/** 200 pages of 500; a provider that keeps answering links.next past that is broken. */
const MAX_PAGES = 200;
/** Consumer data right holders share up to two years; older history is not asked for. */
const HISTORY_DAYS = 730;
/** Posted transactions are read again this far back at every refresh: late postings and corrections land there. */
const OVERLAP_DAYS = 14;
const MAX_PENDING_IN_CURSOR = 2_000;

interface Cursor {
  /** The postDate the next read of posted transactions starts from (inclusive). */
  since: string;
  /** Provider ids of the pending transactions the last pull reported. */
  pending: string[];
}

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    if (typeof parsed.since === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(parsed.since) && Array.isArray(parsed.pending)) return { since: parsed.since, pending: parsed.pending.map(String) };
  } catch {
    // Unreadable: read the whole history again; stable ids make the re-read harmless.
  }
  return null;
}

/** The user id as a path segment: the aggregator's ids are UUID-like; anything else is refused before it reaches a URL. */
function userPath(userId: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(userId)) throw new ConnectorError('provider_error', 'The item does not hold a valid aggregator user id.');
  return `/users/${userId}`;
}

/** The error of a request sent once (no retries): the documented error list, with the Retry-After hint of a 429. */
function unsent(response: ProviderResponse, what: string): ConnectorError {
  const error = providerError(response.status, response.json, what);
  const hint = retryAfterMs(response.headers['retry-after']);
  if (error.kind !== 'rate_limited' || hint === null) return error;
  return new ConnectorError('rate_limited', error.message, { ...error.details, retryAfterSeconds: Math.ceil(hint / 1000) });
}

export const createAggregatorFConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_F_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const consentUrl = (config.AGGREGATOR_F_CONSENT_URL ?? DEFAULT_CONSENT_URL).replace(/\/+$/, '');
  let serverToken: Promise<string> | null = null;

  /** POST /token: a token of the given scope, minted with the operator's API key (never retried: it creates a token). */
  async function token(scope: 'SERVER_ACCESS' | 'CLIENT_ACCESS', userId?: string): Promise<string> {
    const response = await http.send({
      method: 'POST',
      url: `${baseUrl}/token`,
      headers: { authorization: `Basic ${config.AGGREGATOR_F_API_KEY ?? ''}`, 'basiq-version': API_VERSION },
      form: userId ? { scope, userId } : { scope },
    });
    // A refused API key is the operator's problem: the user consenting again would not help.
    if (response.status === 401 || response.status === 403) throw new ConnectorError('provider_error', `Getting an access token was refused: the operator's API key is not accepted (${response.status}).`, { status: response.status });
    if (response.status !== 200) throw unsent(response, 'Getting an access token');
    return str(obj(response.json, 'token').access_token, 'token.access_token');
  }

  async function call(what: string, method: ProviderRequest['method'], url: string, options: { query?: Record<string, string | number>; json?: unknown } = {}): Promise<Json> {
    serverToken ??= token('SERVER_ACCESS');
    const headers = { authorization: `Bearer ${await serverToken}`, 'basiq-version': API_VERSION };
    let response;
    try {
      response = await http.sendOk({ method, url, headers, ...(options.query ? { query: options.query } : {}), ...(options.json !== undefined ? { json: options.json } : {}) });
    } catch (err) {
      // A 401 refuses the server token (the operator's key), not the user's consent.
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `${what} was refused: the server token is not accepted (401).`, { status: 401 });
      throw err;
    }
    if (method === 'DELETE' && response.status === 204) return {};
    if (response.status >= 400) throw providerError(response.status, response.json, what);
    return obj(response.json, what);
  }

  /** Every page of a list, following links.next on the aggregator's own host only (the bearer token goes with it). */
  async function listAll(what: string, path: string, query: Record<string, string | number> = {}): Promise<unknown[]> {
    return followNextLinks({
      what,
      baseUrl,
      maxPages: MAX_PAGES,
      first: () => call(what, 'GET', `${baseUrl}${path}`, { query: { limit: PAGE_LIMIT, ...query } }),
      fetch: (url) => call(what, 'GET', url),
      pageOf: (body) => {
        const { data, next } = pageOf(body, what);
        return { items: data, next };
      },
    });
  }

  async function readAccounts(connection: Connection) {
    const base = userPath(connection.login);
    const state = connectionsState(await call('Listing connections', 'GET', `${baseUrl}${base}/connections`));
    if (state.active === 0) throw new ConnectorError('login_required', 'The user\u2019s consent at the aggregator is no longer active: connect again.', { code: state.invalid > 0 ? 'connection-invalid' : 'no-connection' });
    return (await listAll('Listing accounts', `${base}/accounts`)).map((raw) => mapAccount(raw, connection.login));
  }

  async function pull(connection: Connection, today: string): Promise<SourceBatch> {
    const base = userPath(connection.login);
    const accounts = await readAccounts(connection);
    // A job still retrieving data means what is listed now may be incomplete: keep reading from the same date next time.
    const retrieving = jobsInProgress(await call('Listing jobs', 'GET', `${baseUrl}${base}/jobs`));
    const cursor = parseCursor(connection.cursor);
    const since = cursor?.since ?? addDays(today, -HISTORY_DAYS);
    const byProviderId = new Map(accounts.map((a) => [a.providerId, { accountId: a.record.account_id, currency: a.record.balances.iso_currency_code ?? 'AUD' }]));
    const posted = await listAll('Listing transactions', `${base}/transactions`, { filter: `transaction.postDate.gteq('${since}')` });
    const pending = await listAll('Listing pending transactions', `${base}/transactions`, { filter: "transaction.status.eq('pending')" });
    const upserted: SourceTransaction[] = [];
    const pendingIds: string[] = [];
    for (const raw of posted) {
      const transaction = mapTransaction(raw, connection.login, byProviderId);
      if (!transaction.pending) upserted.push(transaction);
    }
    for (const raw of pending) {
      const transaction = mapTransaction(raw, connection.login, byProviderId);
      upserted.push({ ...transaction, pending: true });
      pendingIds.push(str(obj(raw, 'transaction').id, 'transaction.id'));
    }
    // A pending transaction no longer listed was dropped or replaced by its posted one (which has its own id).
    const stillPending = new Set(pendingIds);
    const removed = (cursor?.pending ?? []).filter((id) => !stillPending.has(id)).map((id) => stableId('txn', AGGREGATOR_F_ID, connection.login, id));
    upserted.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    const overlapStart = addDays(today, -OVERLAP_DAYS);
    const next: Cursor = { since: retrieving ? since : since > overlapStart ? since : overlapStart, pending: pendingIds.slice(0, MAX_PENDING_IN_CURSOR) };
    return { accounts: accounts.map((a) => a.record), transactions: { kind: 'changes', upserted, removed }, cursor: JSON.stringify(next) };
  }


  const port: ConnectorPort = {
    id: AGGREGATOR_F_ID,
    linkMethod: 'oauth',
    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials' };
    },
    async verifyMfaCode() {
      return false;
    },

    async beginOauth({ state }) {
      // The aggregator requires an email or mobile on the user; Link collects neither, so the user gets
      // an address under the operator's domain that identifies nothing about them.
      const domain = config.AGGREGATOR_F_USER_EMAIL_DOMAIN ?? 'users.fincore.invalid';
      const user = await call('Creating the user', 'POST', `${baseUrl}/users`, { json: { email: `${randomUUID()}@${domain}` } });
      const userId = str(user.id, 'user.id');
      const clientToken = await token('CLIENT_ACCESS', userId);
      const url = new URL(`${consentUrl}/home`);
      url.searchParams.set('token', clientToken);
      url.searchParams.set('state', state);
      return { authorizeUrl: url.toString(), pending: { user: userId } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through the aggregator\u2019s own consent page.' };
      const userId = input.pending.user;
      if (!userId) return { status: 'invalid_credentials', message: 'The consent did not complete.' };
      // The redirect carries no proof of its own: the connections of the user this session created decide.
      const state = connectionsState(await call('Listing connections', 'GET', `${baseUrl}${userPath(userId)}/connections`));
      if (state.active === 0) return { status: 'invalid_credentials', message: 'The bank did not grant access.' };
      return { status: 'connected', connection: { institutionId, login: userId } };
    },

    async disconnect(connection) {
      await call('Deleting the user', 'DELETE', `${baseUrl}${userPath(connection.login)}`);
    },

    async accounts(connection) {
      return (await readAccounts(connection)).map((a) => a.record);
    },
    initialHistory: (connection, today) => pull(connection, today),
    async refresh(connection, today, refreshCount) {
      // The day's first refresh asks the aggregator to fetch fresh data from the banks (a job per
      // connection); this pull reads what is there, and the next one what the jobs brought.
      if (refreshCount === 1) {
        serverToken ??= token('SERVER_ACCESS');
        const response = await http.send({ method: 'POST', url: `${baseUrl}${userPath(connection.login)}/connections/refresh`, headers: { authorization: `Bearer ${await serverToken}`, 'basiq-version': API_VERSION } });
        if (response.status >= 400) throw unsent(response, 'Refreshing the connections');
      }
      return pull(connection, today);
    },

    async identity(connection, context) {
      const body = await call('Reading identities', 'GET', `${baseUrl}${userPath(connection.login)}/identities`);
      return mapIdentities(body, context.accounts.map((a) => a.account_id));
    },
    async liabilities() {
      throw notOffered('Liabilities');
    },
    async investments() {
      throw notOffered('Investments');
    },
  };
  return port;
};
