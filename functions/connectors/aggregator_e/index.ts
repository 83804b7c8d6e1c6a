// Aggregator E: a widget-based aggregator (docs/connectors.md). The user logs in through the
// provider's hosted Connect page (`beginOauth` builds its URL), which redirects back with a loginId;
// `connect` opens a session for it. Every pull opens a session on the provider's most recently
// cached data (/Authorize with the loginId), then asks for the accounts with their transactions
// (/GetAccountsDetail). The provider answers 202 while it prepares the data; the adapter polls the
// async endpoint a few times at once and otherwise asks to be tried again later (rate_limited with
// the provider's documented 10-second polling interval), since a Lambda must not sleep for it.
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ProviderRequest, type SourceBatch } from '../../core/connector-port';
import { type Json, credentialsRefused } from '../payload';
import { CONNECTOR_ID, connectorErrorOf, mapAccount, mapIdentity, mapTransactions, read } from './mapping';

/** Polls of the async endpoint made in one pull before handing the wait back to the refresh worker. */
const MAX_IMMEDIATE_POLLS = 2;
const POLL_INTERVAL_SECONDS = 10;
/** The longest history the provider serves in one detail call. */
const HISTORY = 'Days365';

interface Detail {
  accounts: unknown[];
}

export const createAggregatorEConnector: ConnectorFactory = ({ config, http }) => {
  const customerId = config.AGGREGATOR_E_CUSTOMER_ID ?? '';
  const apiKey = config.AGGREGATOR_E_API_KEY ?? '';
  // The API and Connect hosts are per customer instance (`<instance>-api…`, `<instance>-iframe…`).
  const baseUrl = (config.AGGREGATOR_E_BASE_URL ?? '').replace(/\/+$/, '');
  const connectUrl = config.AGGREGATOR_E_CONNECT_URL ?? '';
  /** The secret key that mints one-time authorize tokens, for integrations that require them. */
  const authKey = config.AGGREGATOR_E_AUTH_KEY ?? '';

  async function call(method: ProviderRequest['method'], path: string, what: string, json?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
    if (customerId === '' || apiKey === '' || baseUrl === '') throw new ConnectorError('provider_error', 'Aggregator E is not configured (customer id, API key and instance URL).');
    const response = await http.send({ method, url: `${baseUrl}/v3/${encodeURIComponent(customerId)}/BankingServices/${path}`, headers: { 'x-api-key': apiKey, ...headers }, ...(json !== undefined ? { json } : {}) });
    if (response.status === 200 || response.status === 202) return { status: response.status, body: read.object(response.json, `${what} response`) };
    if (response.status === 429) {
      const hint = Number(response.headers['retry-after']);
      throw new ConnectorError('rate_limited', `Aggregator E rate limited ${what}.`, { status: 429, ...(Number.isFinite(hint) && hint > 0 ? { retryAfterSeconds: Math.ceil(hint) } : {}) });
    }
    throw connectorErrorOf(response.status, response.json, what);
  }

  async function authorizeToken(): Promise<Record<string, string>> {
    if (authKey === '') return {};
    const { body } = await call('POST', 'GenerateAuthorizeToken', 'GenerateAuthorizeToken', {}, { 'flinks-auth-key': authKey });
    return { 'flinks-auth-key': read.string(body.Token, 'Token') };
  }

  /** A session on the login's cached data; its RequestId is session-scoped and never stored. */
  async function openSession(loginId: string): Promise<string> {
    const { status, body } = await call('POST', 'Authorize', 'Authorize', { LoginId: loginId, MostRecentCached: true }, await authorizeToken());
    if (status !== 200) throw connectorErrorOf(status, body, 'Authorize');
    return read.string(body.RequestId, 'RequestId');
  }

  async function detail(connection: Connection): Promise<Detail> {
    const requestId = await openSession(connection.login);
    let answer = await call('POST', 'GetAccountsDetail', 'GetAccountsDetail', { RequestId: requestId, WithAccountIdentity: true, WithTransactions: true, DaysOfTransactions: HISTORY });
    for (let poll = 0; answer.status === 202 && poll < MAX_IMMEDIATE_POLLS; poll += 1) {
      answer = await call('GET', `GetAccountsDetailAsync/${encodeURIComponent(requestId)}`, 'GetAccountsDetailAsync');
    }
    if (answer.status === 202) throw new ConnectorError('rate_limited', 'Aggregator E is still preparing the data.', { retryAfterSeconds: POLL_INTERVAL_SECONDS });
    return { accounts: read.array(answer.body.Accounts, 'Accounts', 500) };
  }

  async function pull(connection: Connection): Promise<SourceBatch> {
    const { accounts: rawAccounts } = await detail(connection);
    const accounts = rawAccounts.map((a, i) => mapAccount(a, `Accounts[${i}]`, connection.login));
    const transactions = rawAccounts
      .flatMap((a, i) => mapTransactions(a, `Accounts[${i}]`, connection.login, accounts[i].balances.iso_currency_code))
      .sort((x, y) => (x.date < y.date ? 1 : x.date > y.date ? -1 : 0));
    // The detail call returns every transaction of its window, so it is a complete window batch.
    return { accounts, transactions: { kind: 'window', transactions } };
  }

  const notOffered = (product: string) => async (): Promise<never> => {
    throw new ConnectorError('provider_error', `${product} is not offered by this connector.`);
  };

  const port: ConnectorPort = {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',
    ...credentialsRefused('This institution is linked through its hosted consent page.'),

    async beginOauth({ state, redirectUri }) {
      if (connectUrl === '') throw new ConnectorError('provider_error', 'Aggregator E is not configured (Connect URL).');
      const url = new URL(connectUrl);
      const back = new URL(redirectUri);
      back.searchParams.set('state', state);
      url.searchParams.set('redirectUrl', back.toString());
      url.searchParams.set('innerRedirect', 'true');
      url.searchParams.set('daysOfTransactions', HISTORY);
      const token = await authorizeToken();
      if (token['flinks-auth-key']) url.searchParams.set('authorizeToken', token['flinks-auth-key']);
      return { authorizeUrl: url.toString(), pending: {} };
    },

    async connect(institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution is linked through its hosted consent page.' };
      const loginId = input.code.trim();
      if (!/^[0-9a-fA-F-]{36}$/.test(loginId)) return { status: 'invalid_credentials', message: 'The consent did not name a login: start again.' };
      try {
        await openSession(loginId);
      } catch (err) {
        if (err instanceof ConnectorError && err.kind === 'login_required') return { status: 'invalid_credentials', message: 'The institution did not accept the login.' };
        throw err;
      }
      return { status: 'connected', connection: { institutionId, login: loginId } };
    },

    async accounts(connection) {
      const { accounts } = await detail(connection);
      return accounts.map((a, i) => mapAccount(a, `Accounts[${i}]`, connection.login));
    },
    async initialHistory(connection) {
      return pull(connection);
    },
    async refresh(connection) {
      return pull(connection);
    },
    async identity(connection) {
      return mapIdentity((await detail(connection)).accounts, connection.login);
    },
    liabilities: notOffered('Liabilities'),
    investments: notOffered('Investments'),
  };
  return port;
};
