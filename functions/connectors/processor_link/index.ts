// The payment processor's account-linking product behind the connector port. The user links US
// bank accounts in the processor's own modal (opened from a small launch page the operator hosts
// with the session's client secret), and the service reads balances, transactions and account
// owners with the operator's secret key. Nothing per item is secret: the item's login is the
// processor customer the linked accounts belong to.
import { notOffered } from '../payload';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type ConsentInput,
  type LoginResult,
  type ProviderRequest,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import { listOf, mapAccount, mapOwners, mapTransaction, PROCESSOR_LINK_ID, providerError, type LinkedAccount } from './mapping';
import { invalid, obj, str } from './payload';

const DEFAULT_BASE_URL = 'https://api.stripe.com';
/** The API version the mapping was written against; pinned so a change of account default cannot reshape payloads. */
const API_VERSION = '2024-06-20';
const PAGE_SIZE = 100;
/** 500 pages of 100: far beyond any real account's history; a provider that keeps answering has_more is broken. */
const MAX_PAGES = 500;
const HISTORY_DAYS = 730;

interface Cursor {
  /** Per provider account id: the last transaction refresh whose results were read. */
  after: Record<string, string>;
}

function parseCursor(cursor: string | undefined): Cursor {
  if (!cursor) return { after: {} };
  try {
    const parsed = JSON.parse(cursor) as unknown;
    const after = (parsed as { after?: unknown }).after;
    if (typeof after === 'object' && after !== null && Object.values(after).every((v) => typeof v === 'string')) return { after: after as Record<string, string> };
  } catch {
    // An unreadable cursor is read as none: the whole history is read again, and upserts by stable id add nothing twice.
  }
  return { after: {} };
}

function unixDaysBefore(today: string, days: number): number {
  return Math.floor(Date.parse(`${today}T00:00:00Z`) / 1000) - days * 86_400;
}

export const createProcessorLinkConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.PROCESSOR_LINK_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const secretKey = config.PROCESSOR_LINK_SECRET_KEY ?? '';

  async function call(what: string, request: Omit<ProviderRequest, 'url' | 'headers'> & { path: string }): Promise<Record<string, unknown>> {
    const { path, ...rest } = request;
    let response;
    try {
      response = await http.sendOk({ ...rest, url: `${baseUrl}${path}`, headers: { authorization: `Bearer ${secretKey}`, 'stripe-version': API_VERSION } });
    } catch (err) {
      // A 401 here refuses the operator's secret key, not the user's consent: relinking would not help.
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `${what} was refused: the operator's secret key is not accepted (401).`, { status: 401 });
      throw err;
    }
    if (response.status >= 400) throw providerError(response.status, response.json, what);
    return obj(response.json, what);
  }

  /** Every page of a list endpoint, or a ConnectorError: never a partial list. */
  async function listAll(what: string, path: string, query: Record<string, string>): Promise<unknown[]> {
    const items: unknown[] = [];
    let startingAfter: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const body = await call(what, { method: 'GET', path, query: { ...query, limit: PAGE_SIZE, starting_after: startingAfter } });
      const { data, hasMore } = listOf(body, what);
      items.push(...data);
      if (!hasMore) return items;
      const last = data.length > 0 ? str(obj(data[data.length - 1], `${what}.data[]`).id, `${what}.data[].id`) : undefined;
      if (last === undefined || last === startingAfter) throw invalid(`${what}.has_more`, 'followed by a new page');
      startingAfter = last;
    }
    throw new ConnectorError('provider_error', `${what} returned more than ${MAX_PAGES} pages.`);
  }

  async function linkedAccounts(connection: Connection): Promise<LinkedAccount[]> {
    const raw = await listAll('Listing linked accounts', '/v1/financial_connections/accounts', { 'account_holder[customer]': connection.login });
    const all = raw.map((a) => mapAccount(a, connection.login));
    const usable = all.filter((a) => a.status !== 'disconnected');
    if (usable.length === 0) throw new ConnectorError('login_required', all.length > 0 ? 'Every linked account was disconnected: the user must link again.' : 'No linked account remains for this item.');
    return usable;
  }

  async function pull(connection: Connection, today: string): Promise<SourceBatch> {
    const accounts = await linkedAccounts(connection);
    const accountIds = new Map(accounts.map((a) => [a.providerId, a.record.account_id]));
    const cursor = parseCursor(connection.cursor);
    const next: Cursor = { after: { ...cursor.after } };
    const upserted: SourceTransaction[] = [];
    const removed: string[] = [];
    for (const account of accounts) {
      // The refresh read before listing: anything a later refresh adds is read again next time (harmless), never skipped.
      const latest = account.transactionRefresh;
      const after = cursor.after[account.providerId];
      const query: Record<string, string> = after
        ? { account: account.providerId, 'transaction_refresh[after]': after }
        : { account: account.providerId, 'transacted_at[gte]': String(unixDaysBefore(today, HISTORY_DAYS)) };
      const rows = await listAll('Listing transactions', '/v1/financial_connections/transactions', query);
      for (const row of rows) {
        const mapped = mapTransaction(row, connection.login, accountIds);
        if (mapped.kind === 'void') removed.push(mapped.transactionId);
        else upserted.push(mapped.transaction);
      }
      if (latest?.status === 'succeeded') next.after[account.providerId] = latest.id;
    }
    upserted.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    return { accounts: accounts.map((a) => a.record), transactions: { kind: 'changes', upserted, removed }, cursor: JSON.stringify(next) };
  }


  const port: ConnectorPort = {
    id: PROCESSOR_LINK_ID,
    linkMethod: 'oauth',

    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials' };
    },
    async verifyMfaCode() {
      return false;
    },

    async beginOauth({ institutionId, state, redirectUri }) {
      const launchUrl = config.PROCESSOR_LINK_LAUNCH_URL;
      if (!launchUrl) throw new ConnectorError('provider_error', 'PROCESSOR_LINK_LAUNCH_URL is not set: the provider\u2019s linking modal needs the operator\u2019s launch page.');
      const customer = await call('Creating the account holder', { method: 'POST', path: '/v1/customers', form: { description: 'Linked item', 'metadata[institution_id]': institutionId } });
      const customerId = str(customer.id, 'customer.id');
      const session = await call('Creating the linking session', {
        method: 'POST',
        path: '/v1/financial_connections/sessions',
        form: {
          'account_holder[type]': 'customer',
          'account_holder[customer]': customerId,
          'permissions[0]': 'balances',
          'permissions[1]': 'transactions',
          'permissions[2]': 'ownership',
          'prefetch[0]': 'balances',
          'prefetch[1]': 'transactions',
          'prefetch[2]': 'ownership',
          'filters[countries][0]': 'US',
          return_url: redirectUri,
        },
      });
      const sessionId = str(session.id, 'session.id');
      const url = new URL(launchUrl);
      url.searchParams.set('client_secret', str(session.client_secret, 'session.client_secret'));
      url.searchParams.set('session', sessionId);
      url.searchParams.set('state', state);
      url.searchParams.set('redirect_uri', redirectUri);
      return { authorizeUrl: url.toString(), pending: { session: sessionId, customer: customerId } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution links through the provider\u2019s own page.' };
      const { session: sessionId, customer } = input.pending;
      // The launch page hands back the session it completed; another session would attach someone else's accounts.
      if (!sessionId || !customer || input.code !== sessionId) return { status: 'invalid_credentials', message: 'The linking session did not complete.' };
      const session = await call('Reading the linking session', { method: 'GET', path: `/v1/financial_connections/sessions/${encodeURIComponent(sessionId)}` });
      const holder = obj(session.account_holder, 'session.account_holder');
      if (holder.customer !== customer) throw invalid('session.account_holder.customer', 'the customer the session was created for');
      const { data } = listOf(session.accounts, 'session.accounts');
      if (data.length === 0) return { status: 'invalid_credentials', message: 'No account was linked.' };
      for (const raw of data) {
        const accountId = str(obj(raw, 'session.accounts.data[]').id, 'session.accounts.data[].id');
        // Subscribing starts the provider's daily transaction refreshes that `refresh` reads.
        await call('Subscribing to transaction refreshes', { method: 'POST', path: `/v1/financial_connections/accounts/${encodeURIComponent(accountId)}/subscribe`, form: { 'features[0]': 'transactions' } });
      }
      return { status: 'connected', connection: { institutionId, login: customer } };
    },

    async disconnect(connection) {
      const raw = await listAll('Listing linked accounts', '/v1/financial_connections/accounts', { 'account_holder[customer]': connection.login });
      for (const account of raw.map((a) => mapAccount(a, connection.login)).filter((a) => a.status !== 'disconnected')) {
        await call('Disconnecting an account', { method: 'POST', path: `/v1/financial_connections/accounts/${encodeURIComponent(account.providerId)}/disconnect` });
      }
    },

    async accounts(connection) {
      return (await linkedAccounts(connection)).map((a) => a.record);
    },
    initialHistory: (connection, today) => pull(connection, today),
    refresh: (connection, today) => pull(connection, today),

    async identity(connection) {
      const accounts = await linkedAccounts(connection);
      const owners: { accountId: string; owners: unknown[] }[] = [];
      for (const account of accounts) {
        if (!account.ownership) continue;
        const rows = await listAll('Listing account owners', `/v1/financial_connections/accounts/${encodeURIComponent(account.providerId)}/owners`, { ownership: account.ownership });
        owners.push({ accountId: account.record.account_id, owners: rows });
      }
      return mapOwners(owners);
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
