// The investment aggregator behind the connector port. The service registers one aggregator user
// per item (its userSecret is the item's only secret), sends the user to the aggregator's
// connection portal, and then reads the user's brokerage accounts, positions and activities. Every
// request carries the operator's clientId and a timestamp and is signed with the consumer key
// (HMAC-SHA256 over the canonical JSON of body, path and query).
import { createHmac, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ConsentInput, type Investments, type LoginResult, type ProviderRequest, type SourceBatch } from '../../core/connector-port';
import { addDays, notOffered } from '../payload';
import { AGGREGATOR_I_ID, mapAccount, mapActivity, mapPosition, providerError } from './mapping';
import { arr, int, obj, optStr, str } from './payload';

const DEFAULT_BASE_URL = 'https://api.snaptrade.com/api/v1';
const ACTIVITY_PAGE = 1000;
const MAX_PAGES = 100;
const HISTORY_DAYS = 730;

/** The request signature: base64 HMAC-SHA256 with the consumer key over `{content, path, query}`. */
export function signRequest(consumerKey: string, path: string, query: string, content: unknown): string {
  return createHmac('sha256', consumerKey).update(canonicalJson({ content: content ?? null, path, query })).digest('base64');
}

export const createAggregatorIConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_I_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const clientId = config.AGGREGATOR_I_CLIENT_ID ?? '';
  const consumerKey = config.AGGREGATOR_I_CONSUMER_KEY ?? '';

  async function call(what: string, method: ProviderRequest['method'], path: string, options: { query?: Record<string, string | number>; json?: unknown; idempotent?: boolean } = {}): Promise<unknown> {
    const params = new URLSearchParams();
    params.set('clientId', clientId);
    // The protocol needs the wall clock: the aggregator refuses signatures with a stale timestamp.
    params.set('timestamp', String(Math.floor(Date.now() / 1000)));
    for (const [k, v] of Object.entries(options.query ?? {})) params.set(k, String(v));
    const query = params.toString();
    const body = options.json === undefined ? undefined : canonicalJson(options.json);
    const headers: Record<string, string> = { signature: signRequest(consumerKey, `${basePath}${path}`, query, options.json ?? null), ...(body ? { 'content-type': 'application/json' } : {}) };
    let response;
    try {
      response = await http.sendOk({ method, url: `${baseUrl}${path}?${query}`, headers, ...(body ? { body } : {}), ...(options.idempotent ? { idempotent: true } : {}) });
    } catch (err) {
      // A 401 refuses the operator's clientId or signature, not the user's connection.
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `${what} was refused: the operator's clientId or consumer key is not accepted (401).`, { status: 401 });
      throw err;
    }
    if (response.status >= 400) throw providerError(response.status, response.json, what);
    return response.json;
  }

  function userQuery(connection: Connection): { userId: string; userSecret: string } {
    const userSecret = connection.secrets?.userSecret;
    if (!userSecret) throw new ConnectorError('login_required', 'The item holds no aggregator user secret: connect again.');
    return { userId: connection.login, userSecret };
  }

  async function readAccounts(connection: Connection) {
    const accounts = arr(await call('Listing accounts', 'GET', '/accounts', { query: userQuery(connection) }), 'accounts');
    return accounts.map((raw) => mapAccount(raw, connection.login));
  }

  async function activities(connection: Connection, providerAccountId: string, accountId: string, today: string): Promise<Investments['investment_transactions']> {
    const out: Investments['investment_transactions'] = [];
    for (let page = 0, offset = 0; page < MAX_PAGES; page += 1) {
      const body = obj(
        await call('Listing activities', 'GET', `/accounts/${encodeURIComponent(providerAccountId)}/activities`, { query: { ...userQuery(connection), startDate: addDays(today, -HISTORY_DAYS), endDate: today, offset, limit: ACTIVITY_PAGE } }),
        'activities',
      );
      const data = arr(body.data, 'activities.data');
      for (const raw of data) {
        const mapped = mapActivity(raw, connection.login, accountId);
        if (mapped) out.push(mapped);
      }
      const pagination = obj(body.pagination, 'activities.pagination');
      const total = int(pagination.total, 'activities.pagination.total');
      offset += data.length;
      if (data.length === 0 || offset >= total) return out;
    }
    throw new ConnectorError('provider_error', `Listing activities returned more than ${MAX_PAGES} pages.`);
  }

  async function pull(connection: Connection): Promise<SourceBatch> {
    // Brokerage cash movements are reported as investment transactions; the account batch carries balances.
    return { accounts: (await readAccounts(connection)).map((a) => a.record), transactions: { kind: 'changes', upserted: [], removed: [] } };
  }


  const port: ConnectorPort = {
    id: AGGREGATOR_I_ID,
    linkMethod: 'oauth',
    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials' };
    },
    async verifyMfaCode() {
      return false;
    },

    async beginOauth({ state, redirectUri }) {
      const registered = obj(await call('Registering the user', 'POST', '/snapTrade/registerUser', { json: { userId: randomUUID() } }), 'user');
      const userId = str(registered.userId, 'user.userId');
      const userSecret = str(registered.userSecret, 'user.userSecret');
      const back = new URL(redirectUri);
      back.searchParams.set('state', state);
      const portal = obj(
        await call('Opening the connection portal', 'POST', '/snapTrade/login', { query: { userId, userSecret }, json: { customRedirect: back.toString(), immediateRedirect: true, connectionType: 'read' } }),
        'login',
      );
      return { authorizeUrl: str(portal.redirectURI, 'login.redirectURI'), pending: { user: userId, userSecret } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through the aggregator\u2019s connection portal.' };
      const { user, userSecret } = input.pending;
      if (!user || !userSecret) return { status: 'invalid_credentials', message: 'The connection did not complete.' };
      // The user was registered for this consent: any enabled connection it holds is the one just made.
      const connections = arr(await call('Listing connections', 'GET', '/authorizations', { query: { userId: user, userSecret } }), 'authorizations');
      const enabled = connections.filter((raw, i) => obj(raw, `authorizations[${i}]`).disabled !== true && optStr(obj(raw, `authorizations[${i}]`).id, `authorizations[${i}].id`) !== null);
      if (enabled.length === 0) return { status: 'invalid_credentials', message: 'The brokerage did not grant access.' };
      return { status: 'connected', connection: { institutionId, login: user }, secrets: { userSecret } };
    },

    async disconnect(connection) {
      await call('Deleting the user', 'DELETE', '/snapTrade/deleteUser', { query: { userId: connection.login } });
    },

    async accounts(connection) {
      return (await readAccounts(connection)).map((a) => a.record);
    },
    initialHistory: (connection) => pull(connection),
    refresh: (connection) => pull(connection),

    async identity() {
      throw notOffered('Identity');
    },
    async liabilities() {
      throw notOffered('Liabilities');
    },
    async investments(connection, context) {
      const accounts = await readAccounts(connection);
      const result: Investments = { holdings: [], securities: [], investment_transactions: [] };
      const securities = new Map<string, Investments['securities'][number]>();
      for (const account of accounts) {
        const path = `/accounts/${encodeURIComponent(account.providerId)}/positions`;
        for (const raw of arr(await call('Listing positions', 'GET', path, { query: userQuery(connection) }), 'positions')) {
          const { holding, security } = mapPosition(raw, connection.login, account.record.account_id);
          result.holdings.push(holding);
          securities.set(security.security_id, security);
        }
        result.investment_transactions.push(...(await activities(connection, account.providerId, account.record.account_id, context.today)));
      }
      result.securities = [...securities.values()];
      result.investment_transactions.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      return result;
    },
  };
  return port;
};
