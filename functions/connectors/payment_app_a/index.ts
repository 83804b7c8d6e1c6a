// The payment-app connector: Log in with PayPal (OAuth authorization code), then the account
// holder's balances (Reporting balances), activity (Transaction Search) and profile (Identity
// userinfo), coded against PayPal's public REST API documentation. Per item it keeps the OAuth
// access and refresh tokens (sealed by the service); the login reference is the PayPal payer id.
// See .scratch/connector-doc-payment_app_a.md for the operator's side and the known limits.
import type { AccountRecord } from '../../contracts/schemas';
import { findInstitution } from '../../core/institutions';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type LoginResult,
  type ProviderHttp,
  type ProviderResponse,
  type ProviderSecrets,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import {
  PAYMENT_APP_CONNECTOR_ID,
  accountsOfBalances,
  bad,
  emptyAccount,
  errorNameOf,
  identityOf,
  isResultSetTooLarge,
  mapTransactionDetail,
  parseTokenResponse,
  parseTransactionsPage,
  parseUserInfo,
  type Tokens,
  type UserInfo,
} from './mapping';
import { credentialsRefused, notOffered } from '../payload';

export const DEFAULT_API_URL = 'https://api-m.paypal.com';
export const DEFAULT_AUTH_URL = 'https://www.paypal.com';

/**
 * Log in with PayPal's OpenID scopes for the profile, plus the reporting scope that Transaction
 * Search and the balances call require.
 */
export const OAUTH_SCOPES = ['openid', 'profile', 'email', 'address', 'https://uri.paypal.com/services/paypalattributes', 'https://uri.paypal.com/services/reporting/search/read'];

/** History read at connect (the provider keeps three years). */
const HISTORY_MONTHS = 24;
/** Transaction Search accepts at most 31 days per request. */
const SLICE_DAYS = 31;
const PAGE_SIZE = 500;
/** Bounds of one pull: requests in all, and how often a too-large slice may be halved. */
const MAX_REQUESTS = 250;
const MAX_SPLIT_DEPTH = 5;
/** Days re-read before the cursor at each refresh: pending transactions settle and late ones appear (up to 3 hours). */
const REFRESH_OVERLAP_DAYS = 10;
/** A pending transaction keeps the refresh window open this long at most. */
const MAX_PENDING_LOOKBACK_DAYS = 90;
const SECRET_ACCESS = 'access_token';
const SECRET_REFRESH = 'refresh_token';

const DAY_MS = 86_400_000;
const dayNumber = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
const addDays = (iso: string, days: number): string => isoOfDay(dayNumber(iso) + days);
function monthsBefore(today: string, months: number): string {
  const [y, m, d] = today.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1 - months, d)).toISOString().slice(0, 10);
}

/** The item's tokens for this call; rotated in place when a refresh grant replaces them. */
interface Session {
  accessToken: string;
  refreshToken: string;
}


export const createPaymentAppAConnector: ConnectorFactory = (context): ConnectorPort => {
  const http: ProviderHttp = context.http;
  const apiBase = (context.config.PAYMENT_APP_A_BASE_URL ?? DEFAULT_API_URL).replace(/\/+$/, '');
  const authBase = (context.config.PAYMENT_APP_A_AUTH_URL ?? DEFAULT_AUTH_URL).replace(/\/+$/, '');
  const clientId = context.config.PAYMENT_APP_A_CLIENT_ID ?? '';
  const clientSecret = context.config.PAYMENT_APP_A_CLIENT_SECRET ?? '';

  function requireClient(): void {
    if (!clientId || !clientSecret) throw new ConnectorError('provider_error', 'PAYMENT_APP_A_CLIENT_ID and PAYMENT_APP_A_CLIENT_SECRET must both be configured.');
  }

  /** What a failed call says, without anything secret: the status, PayPal's error name. */
  const failure = (what: string, response: ProviderResponse): ConnectorError => {
    const name = errorNameOf(response.json);
    return new ConnectorError('provider_error', `${what} answered ${response.status}${name ? ` ${name}` : ''}.`, { status: response.status });
  };

  /** POST to the OAuth token endpoint (or its `/terminate`) with the operator's client credentials. */
  async function tokenCall(form: Record<string, string>, path = '/v1/oauth2/token'): Promise<ProviderResponse> {
    requireClient();
    try {
      return await http.sendOk({
        method: 'POST',
        url: `${apiBase}${path}`,
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
        form,
      });
    } catch (err) {
      // 401 at the token endpoint is invalid_client: the operator's credentials, not the user's consent.
      if (err instanceof ConnectorError && err.details.status === 401) throw new ConnectorError('provider_error', 'The payment app refused the operator\u2019s client credentials (PAYMENT_APP_A_CLIENT_ID / _SECRET).', { status: 401 });
      throw err;
    }
  }

  function sessionOf(connection: Connection): Session {
    const accessToken = connection.secrets?.[SECRET_ACCESS];
    const refreshToken = connection.secrets?.[SECRET_REFRESH];
    if (!accessToken || !refreshToken) throw new ConnectorError('login_required', 'The item holds no payment-app authorization; the user must log in again.');
    return { accessToken, refreshToken };
  }

  /** The refresh grant; a refused refresh token means the user must consent again. */
  async function refreshSession(session: Session): Promise<void> {
    const response = await tokenCall({ grant_type: 'refresh_token', refresh_token: session.refreshToken });
    if (response.status === 400 || response.status === 403) {
      throw new ConnectorError('login_required', `The payment app refused the item's refresh token (${errorNameOf(response.json) ?? response.status}); the user must log in again.`, { status: response.status });
    }
    if (response.status !== 200) throw failure('The token endpoint', response);
    const tokens = parseTokenResponse(response.json);
    session.accessToken = tokens.accessToken;
    if (tokens.refreshToken) session.refreshToken = tokens.refreshToken;
    // Store the renewed tokens before anything else can fail (the old refresh token may be spent).
    await context.saveSecrets?.({ [SECRET_ACCESS]: session.accessToken, [SECRET_REFRESH]: session.refreshToken });
  }

  /**
   * GET with the session's bearer token. A 401 (invalid_token: the access token expired) is
   * answered by one refresh grant and one retry; a 403 (NOT_AUTHORIZED: the consent lacks a
   * scope) needs the user to consent again.
   */
  async function apiGet(session: Session, path: string, query: Record<string, string> = {}, retried = false): Promise<ProviderResponse> {
    let response: ProviderResponse;
    try {
      response = await http.sendOk({ method: 'GET', url: `${apiBase}${path}`, query, headers: { authorization: `Bearer ${session.accessToken}` } });
    } catch (err) {
      if (!(err instanceof ConnectorError) || err.details.status !== 401 || retried) throw err;
      await refreshSession(session);
      return apiGet(session, path, query, true);
    }
    if (response.status === 403) throw new ConnectorError('login_required', `The payment app refused ${path} (${errorNameOf(response.json) ?? 403}): the consent does not cover it; the user must log in again.`, { status: 403 });
    return response;
  }

  async function userInfo(session: Session): Promise<UserInfo> {
    const response = await apiGet(session, '/v1/identity/oauth2/userinfo', { schema: 'paypalv1.1' });
    if (response.status !== 200) throw failure('The userinfo endpoint', response);
    return parseUserInfo(response.json);
  }

  const institutionName = (connection: Connection): string => findInstitution(connection.institutionId)?.name ?? 'Payment app';

  async function balances(session: Session, connection: Connection): Promise<AccountRecord[]> {
    const response = await apiGet(session, '/v1/reporting/balances');
    if (response.status !== 200) throw failure('The balances endpoint', response);
    return accountsOfBalances(response.json, connection.login, institutionName(connection));
  }

  /**
   * Every transaction between `from` and `to` (dates, inclusive): 31-day slices, every page of
   * each, a slice halved when the provider says it holds too many. Any failure fails the pull.
   */
  async function readTransactions(session: Session, login: string, from: string, to: string): Promise<{ upserted: SourceTransaction[]; removed: string[]; oldestPending: string | null }> {
    const upserted = new Map<string, SourceTransaction>();
    const removed = new Set<string>();
    let oldestPending: string | null = null;
    let requests = 0;

    async function readSlice(start: string, end: string, depth: number): Promise<void> {
      let totalPages = 1;
      for (let page = 1; page <= totalPages; page += 1) {
        requests += 1;
        if (requests > MAX_REQUESTS) throw new ConnectorError('provider_error', `Transaction Search needed more than ${MAX_REQUESTS} requests; the pull was stopped.`);
        const response = await apiGet(session, '/v1/reporting/transactions', {
          start_date: `${start}T00:00:00Z`,
          end_date: `${end}T23:59:59Z`,
          fields: 'all',
          balance_affecting_records_only: 'Y',
          page_size: String(PAGE_SIZE),
          page: String(page),
        });
        if (response.status === 400 && isResultSetTooLarge(response.json) && page === 1 && start !== end && depth < MAX_SPLIT_DEPTH) {
          requests -= 1;
          const middle = addDays(start, Math.floor((dayNumber(end) - dayNumber(start)) / 2));
          await readSlice(start, middle, depth + 1);
          await readSlice(addDays(middle, 1), end, depth + 1);
          return;
        }
        if (response.status !== 200) throw failure('Transaction Search', response);
        const parsed = parseTransactionsPage(response.json);
        if (parsed.details.length > PAGE_SIZE) throw bad(`a page lists ${parsed.details.length} transactions, more than the ${PAGE_SIZE} asked for`);
        totalPages = Math.max(totalPages, parsed.totalPages);
        parsed.details.forEach((detail, i) => {
          const mapped = mapTransactionDetail(detail, i, login);
          if (mapped.kind === 'removed') {
            for (const id of mapped.ids) {
              removed.add(id);
              upserted.delete(id);
            }
            return;
          }
          for (const tx of mapped.transactions) if (!removed.has(tx.transaction_id)) upserted.set(tx.transaction_id, tx);
          if (mapped.pendingDate && (oldestPending === null || mapped.pendingDate < oldestPending)) oldestPending = mapped.pendingDate;
        });
      }
    }

    for (let start = from; start <= to; start = addDays(start, SLICE_DAYS)) {
      const end = addDays(start, SLICE_DAYS - 1) < to ? addDays(start, SLICE_DAYS - 1) : to;
      await readSlice(start, end, 0);
    }
    return { upserted: [...upserted.values()], removed: [...removed], oldestPending };
  }

  /** A pull: refresh the tokens first (so the batch carries fresh ones), read balances and the range. */
  async function pull(connection: Connection, today: string, from: string): Promise<SourceBatch> {
    const session = sessionOf(connection);
    await refreshSession(session);
    const accounts = await balances(session, connection);
    const read = await readTransactions(session, connection.login, from, today);
    // A transaction in a currency the balances no longer list still needs its account.
    const known = new Set(accounts.map((a) => a.account_id));
    const mask = accounts[0]?.mask ?? connection.login.slice(-4);
    for (const tx of read.upserted) {
      if (!known.has(tx.account_id)) {
        known.add(tx.account_id);
        accounts.push(emptyAccount(connection.login, tx.iso_currency_code, institutionName(connection), mask));
      }
    }
    // The next refresh starts before today by the overlap, or earlier while a transaction is pending.
    const overlapStart = addDays(today, -REFRESH_OVERLAP_DAYS);
    const pendingFloor = addDays(today, -MAX_PENDING_LOOKBACK_DAYS);
    const oldestPending = read.oldestPending !== null && read.oldestPending < overlapStart ? (read.oldestPending < pendingFloor ? pendingFloor : read.oldestPending) : null;
    const secrets: ProviderSecrets = { [SECRET_ACCESS]: session.accessToken, [SECRET_REFRESH]: session.refreshToken };
    return {
      accounts,
      transactions: { kind: 'changes', upserted: read.upserted, removed: read.removed },
      secrets,
      cursor: oldestPending ?? overlapStart,
    };
  }

  return {
    id: PAYMENT_APP_CONNECTOR_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This institution connects through its own login page.'),

    async beginOauth({ state, redirectUri }) {
      requireClient();
      const url = new URL(`${authBase}/signin/authorize`);
      url.searchParams.set('flowEntry', 'static');
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', OAUTH_SCOPES.join(' '));
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return { authorizeUrl: url.toString(), pending: {} };
    },

    async connect(institutionId, input): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through its own login page.' };
      if (!/^[\x21-\x7e]{1,2048}$/.test(input.code)) return { status: 'invalid_credentials', message: 'The authorization code from the payment app is malformed; start again.' };
      const response = await tokenCall({ grant_type: 'authorization_code', code: input.code });
      if (response.status === 400) return { status: 'invalid_credentials', message: 'The payment app refused the authorization (it may have expired or been used); start again.' };
      if (response.status !== 200) throw failure('The token endpoint', response);
      const tokens: Tokens = parseTokenResponse(response.json);
      if (!tokens.refreshToken) throw bad('token response.refresh_token is missing');
      const session: Session = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
      const info = await userInfo(session);
      return {
        status: 'connected',
        connection: { institutionId, login: info.payerId },
        secrets: { [SECRET_ACCESS]: session.accessToken, [SECRET_REFRESH]: session.refreshToken },
      };
    },

    /** Best effort: revokes the refresh token (and with it the consent); a failure is not the user's concern. */
    async disconnect(connection) {
      const refreshToken = connection.secrets?.[SECRET_REFRESH];
      if (!refreshToken) return;
      try {
        await tokenCall({ token: refreshToken, token_type_hint: 'REFRESH_TOKEN' }, '/v1/oauth2/token/terminate');
      } catch (err) {
        if (!(err instanceof ConnectorError)) throw err;
      }
    },

    async accounts(connection) {
      return balances(sessionOf(connection), connection);
    },

    initialHistory: (connection, today) => pull(connection, today, monthsBefore(today, HISTORY_MONTHS)),

    async refresh(connection, today) {
      const historyStart = monthsBefore(today, HISTORY_MONTHS);
      const cursor = connection.cursor && /^\d{4}-\d{2}-\d{2}$/.test(connection.cursor) && !Number.isNaN(dayNumber(connection.cursor)) ? connection.cursor : addDays(today, -SLICE_DAYS);
      const from = cursor < historyStart ? historyStart : cursor > today ? today : cursor;
      return pull(connection, today, from);
    },

    async identity(connection, productContext) {
      const info = await userInfo(sessionOf(connection));
      return identityOf(info, productContext.accounts.map((a) => a.account_id));
    },

    async liabilities() {
      throw notOffered('Liabilities');
    },

    async investments() {
      throw notOffered('Investments');
    },
  };
};
