// Aggregator B: a widget-based aggregator (docs/connectors.md). Link creates a provider user and a
// connect-widget URL for it (`beginOauth`); the widget hands back the member (the user's connection
// to one institution) it created, which `connect` checks. The operator's client id and API key
// authenticate every call (HTTP Basic), so an item keeps no secrets of its own: its login is the
// user and member reference. The provider offers no change cursor for transactions, so each pull
// reads a complete date window and reports it as a `window` batch.
import { randomBytes } from 'node:crypto';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ProviderRequest, type SourceBatch } from '../../core/connector-port';
import { addDays, type Json, credentialsRefused } from '../payload';
import { CONNECTOR_ID, loginOf, mapAccount, mapIdentity, mapTransaction, memberStatusError, parseLogin, read } from './mapping';

const DEFAULT_BASE_URL = 'https://api.mx.com';
const ACCEPT = 'application/vnd.mx.api.v1+json';
const PAGE_SIZE = 100;
const MAX_PAGES = 1_000;
/** 24 months at connect; the provider returns what the institution gave it within that range. */
const HISTORY_DAYS = 730;
/** A refresh re-reads the last 30 days: long enough for pendings to post or drop. */
const REFRESH_DAYS = 30;

/** `redirectUri` with our state as a query parameter. */
function withState(redirectUri: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}

export const createAggregatorBConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_B_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const clientId = config.AGGREGATOR_B_CLIENT_ID ?? '';
  const apiKey = config.AGGREGATOR_B_API_KEY ?? '';

  async function call(method: ProviderRequest['method'], path: string, what: string, extra: Pick<ProviderRequest, 'json' | 'query'> = {}): Promise<Json> {
    if (clientId === '' || apiKey === '') throw new ConnectorError('provider_error', 'Aggregator B is not configured (client id and API key).');
    let response;
    try {
      response = await http.sendOk({
        method,
        url: `${baseUrl}${path}`,
        headers: { accept: ACCEPT, authorization: `Basic ${Buffer.from(`${clientId}:${apiKey}`).toString('base64')}` },
        ...extra,
      });
    } catch (err) {
      // A 401 here refuses the operator's keys, not the user's consent: no reconnect would help.
      if (err instanceof ConnectorError && err.details.status === 401) throw new ConnectorError('provider_error', `Aggregator B refused the operator credentials at ${what}.`, { status: 401 });
      throw err;
    }
    if (response.status === 404) throw new ConnectorError('login_required', `Aggregator B no longer knows this connection (${what} answered 404).`, { status: 404 });
    if (response.status < 200 || response.status >= 300) throw new ConnectorError('provider_error', `Aggregator B answered ${response.status} to ${what}.`, { status: response.status });
    if (method === 'DELETE' && response.json === undefined) return {};
    return read.object(response.json, `${what} response`);
  }

  /** Every page of a list endpoint (`pagination.current_page` / `total_pages`); any failing page fails the list. */
  async function list(path: string, key: string, query: Record<string, string> = {}): Promise<unknown[]> {
    const rows: unknown[] = [];
    for (let page = 1; ; page += 1) {
      if (page > MAX_PAGES) throw new ConnectorError('provider_error', `Aggregator B's ${key} did not end after ${MAX_PAGES} pages.`);
      const body = await call('GET', path, key, { query: { ...query, page, records_per_page: PAGE_SIZE } });
      rows.push(...read.array(body[key], key, PAGE_SIZE * 10));
      const pagination = read.object(body.pagination, 'pagination');
      const current = read.number(pagination.current_page, 'pagination.current_page');
      const total = read.number(pagination.total_pages, 'pagination.total_pages');
      if (current !== page) throw read.fail('pagination.current_page', `expected page ${page}`);
      if (current >= total) return rows;
    }
  }

  const memberPath = (connection: Connection) => {
    const { userGuid, memberGuid } = parseLogin(connection.login);
    return `/users/${encodeURIComponent(userGuid)}/members/${encodeURIComponent(memberGuid)}`;
  };

  /** Reading a member whose connection needs the user fails as login_required before any data is read. */
  async function checkMember(connection: Connection): Promise<void> {
    const body = await call('GET', `${memberPath(connection)}/status`, 'member status');
    const status = read.string(read.object(body.member, 'member').connection_status, 'member.connection_status');
    const error = memberStatusError(status);
    if (error) throw error;
  }

  async function accounts(connection: Connection) {
    await checkMember(connection);
    return (await list(`${memberPath(connection)}/accounts`, 'accounts')).map((a, i) => mapAccount(a, `accounts[${i}]`, connection.login));
  }

  async function windowOf(connection: Connection, today: string, days: number): Promise<SourceBatch> {
    const accountList = await accounts(connection);
    const rows = await list(`${memberPath(connection)}/transactions`, 'transactions', { from_date: addDays(today, -days), to_date: today });
    const transactions = rows.map((t, i) => mapTransaction(t, `transactions[${i}]`, connection.login)).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    return { accounts: accountList, transactions: { kind: 'window', transactions } };
  }

  const notOffered = (product: string) => async (): Promise<never> => {
    throw new ConnectorError('provider_error', `${product} is not offered by this connector.`);
  };

  const port: ConnectorPort = {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',
    ...credentialsRefused('This institution is linked through its hosted consent page.'),

    async beginOauth({ state, redirectUri }) {
      // The user's id at the provider is a fresh random reference, never our state (a secret of the session).
      const user = read.object((await call('POST', '/users', 'create user', { json: { user: { id: `fc_${randomBytes(12).toString('hex')}`, metadata: JSON.stringify({ source: 'link' }) } } })).user, 'user');
      const userGuid = read.string(user.guid, 'user.guid');
      const widget = await call('POST', `/users/${encodeURIComponent(userGuid)}/widget_urls`, 'widget url', {
        // The widget sends the user back with member_guid only: our state rides along in the redirect URL.
        json: { widget_url: { widget_type: 'connect_widget', mode: 'aggregation', is_mobile_webview: false, client_redirect_url: withState(redirectUri, state), oauth_referral_source: 'BROWSER' } },
      });
      return { authorizeUrl: read.string(read.object(widget.widget_url, 'widget_url').url, 'widget_url.url'), pending: { user_guid: userGuid } };
    },

    async connect(institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution is linked through its hosted consent page.' };
      const userGuid = input.pending.user_guid;
      const memberGuid = input.code.trim();
      if (!userGuid || !/^MBR-[A-Za-z0-9-]+$/.test(memberGuid)) return { status: 'invalid_credentials', message: 'The consent did not name a connection: start again.' };
      const connection = { institutionId, login: loginOf(userGuid, memberGuid) };
      try {
        await checkMember(connection);
      } catch (err) {
        if (err instanceof ConnectorError && err.kind === 'login_required') return { status: 'invalid_credentials', message: 'The institution did not accept the login.' };
        throw err;
      }
      return { status: 'connected', connection };
    },

    async disconnect(connection) {
      await call('DELETE', memberPath(connection), 'delete member');
    },

    accounts,
    async initialHistory(connection, today) {
      return windowOf(connection, today, HISTORY_DAYS);
    },
    async refresh(connection, today) {
      return windowOf(connection, today, REFRESH_DAYS);
    },

    async identity(connection) {
      await checkMember(connection);
      return mapIdentity(await list(`${memberPath(connection)}/account_owners`, 'account_owners'), connection.login);
    },
    liabilities: notOffered('Liabilities'),
    investments: notOffered('Investments'),
  };
  return port;
};
