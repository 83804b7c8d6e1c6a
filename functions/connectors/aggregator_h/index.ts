// The Latin American aggregator behind the connector port. The user connects their bank in the
// aggregator's hosted widget, opened with a short-lived widget token; the widget creates a
// recurrent link tagged with an external id this service chose, which is how the service finds it
// when the user comes back. The service then reads the link's accounts, transactions and owners
// with the operator's secret key id and password (HTTP Basic). Nothing per item is secret: the
// item's login is the link id.
import { randomUUID } from 'node:crypto';
import { followNextLinks } from '../pages';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ConsentInput, type LoginResult, type ProviderRequest, type SourceBatch, type SourceTransaction } from '../../core/connector-port';
import { addDays, notOffered } from '../payload';
import { stableId } from '../ids';
import { AGGREGATOR_H_ID, linkState, mapAccount, mapOwners, mapTransaction, pageOf, providerError } from './mapping';
import { obj, str } from './payload';
import { retryAfterMs } from '../provider-http';

const DEFAULT_BASE_URL = 'https://api.belvo.com';
const DEFAULT_WIDGET_URL = 'https://widget.belvo.io';
const PAGE_SIZE = 1000;
/** 200 pages of 1000; a provider that keeps answering `next` past that is broken. */
const MAX_PAGES = 200;
const HISTORY_DAYS = 730;
/** Transactions are read again this far back at every refresh: late postings and reclassifications land there. */
const OVERLAP_DAYS = 14;
const MAX_PENDING_IN_CURSOR = 2_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Cursor {
  /** The value_date the next read starts from (inclusive). */
  since: string;
  /** The pending transactions the last pull reported: provider id and value date. */
  pending: [string, string][];
}

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    const pendingOk = Array.isArray(parsed.pending) && parsed.pending.every((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(p[1]));
    if (typeof parsed.since === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(parsed.since) && pendingOk) return { since: parsed.since, pending: parsed.pending as [string, string][] };
  } catch {
    // Unreadable: read the whole history again; stable ids make the re-read harmless.
  }
  return null;
}

function linkId(connection: Connection): string {
  if (!UUID.test(connection.login)) throw new ConnectorError('provider_error', 'The item does not hold a valid aggregator link id.');
  return connection.login;
}

/** Link statuses after which only the user can make the link readable again. */
const NEEDS_USER = new Set(['invalid', 'token_required', 'unconfirmed']);

export const createAggregatorHConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_H_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const widgetUrl = (config.AGGREGATOR_H_WIDGET_URL ?? DEFAULT_WIDGET_URL).replace(/\/+$/, '');
  const secretId = config.AGGREGATOR_H_SECRET_ID ?? '';
  const secretPassword = config.AGGREGATOR_H_SECRET_PASSWORD ?? '';
  const authorization = `Basic ${Buffer.from(`${secretId}:${secretPassword}`).toString('base64')}`;

  async function call(what: string, method: ProviderRequest['method'], url: string, options: { query?: Record<string, string | number>; json?: unknown; once?: boolean } = {}): Promise<unknown> {
    let response;
    const request: ProviderRequest = { method, url, headers: { authorization }, ...(options.query ? { query: options.query } : {}), ...(options.json !== undefined ? { json: options.json } : {}) };
    try {
      response = options.once ? await http.send(request) : await http.sendOk(request);
    } catch (err) {
      // A 401 refuses the operator's secret keys, not the user's link.
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `${what} was refused: the operator's secret keys are not accepted (401).`, { status: 401 });
      throw err;
    }
    if (response.status === 401) throw new ConnectorError('provider_error', `${what} was refused: the operator's secret keys are not accepted (401).`, { status: 401 });
    if (method === 'DELETE' && response.status === 204) return {};
    if (response.status >= 400) {
      const error = providerError(response.status, response.json, what);
      const hint = retryAfterMs(response.headers['retry-after']);
      if (error.kind === 'rate_limited' && hint !== null) throw new ConnectorError('rate_limited', error.message, { ...error.details, retryAfterSeconds: Math.ceil(hint / 1000) });
      throw error;
    }
    return response.json;
  }

  /** Every page of a list, following `next` on the aggregator's own host only (the Basic credentials go with it). */
  async function listAll(what: string, path: string, query: Record<string, string | number>): Promise<unknown[]> {
    return followNextLinks({
      what,
      baseUrl,
      maxPages: MAX_PAGES,
      first: () => call(what, 'GET', `${baseUrl}${path}`, { query: { page_size: PAGE_SIZE, ...query } }),
      fetch: (url) => call(what, 'GET', url),
      pageOf: (body) => {
        const { results, next } = pageOf(body, what);
        return { items: results, next };
      },
    });
  }

  async function readAccounts(connection: Connection) {
    const id = linkId(connection);
    const link = linkState(await call('Reading the link', 'GET', `${baseUrl}/api/links/${id}/`));
    if (NEEDS_USER.has(link.status)) throw new ConnectorError('login_required', `The bank link needs the user again (${link.status}).`, { code: link.status });
    return (await listAll('Listing accounts', '/api/accounts/', { link: id })).map((raw) => mapAccount(raw, connection.login));
  }

  async function pull(connection: Connection, today: string): Promise<SourceBatch> {
    const accounts = await readAccounts(connection);
    const cursor = parseCursor(connection.cursor);
    // Read back far enough to see again every transaction the last pull reported as pending.
    const since = [cursor?.since ?? addDays(today, -HISTORY_DAYS), ...(cursor?.pending ?? []).map(([, date]) => date)].sort()[0];
    const ids = new Map(accounts.map((a) => [a.providerId, a.record.account_id]));
    const rows = await listAll('Listing transactions', '/api/transactions/', { link: linkId(connection), value_date__gte: since });
    const upserted: SourceTransaction[] = [];
    const pending: [string, string][] = [];
    const seen = new Set<string>();
    for (const raw of rows) {
      const transaction = mapTransaction(raw, connection.login, ids);
      const providerId = str(obj(raw, 'transaction').id, 'transaction.id');
      seen.add(providerId);
      upserted.push(transaction);
      if (transaction.pending) pending.push([providerId, transaction.date]);
    }
    // A pending transaction no longer listed inside the window read was dropped by the bank.
    const removed = (cursor?.pending ?? []).filter(([id]) => !seen.has(id)).map(([id]) => stableId('txn', AGGREGATOR_H_ID, connection.login, id));
    upserted.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    const next: Cursor = { since: addDays(today, -OVERLAP_DAYS), pending: pending.slice(0, MAX_PENDING_IN_CURSOR) };
    return { accounts: accounts.map((a) => a.record), transactions: { kind: 'changes', upserted, removed }, cursor: JSON.stringify(next) };
  }


  const port: ConnectorPort = {
    id: AGGREGATOR_H_ID,
    linkMethod: 'oauth',
    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials' };
    },
    async verifyMfaCode() {
      return false;
    },

    async beginOauth({ state, redirectUri }) {
      const externalId = randomUUID();
      const back = (extra: Record<string, string>) => {
        const url = new URL(redirectUri);
        url.searchParams.set('state', state);
        for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
        return url.toString();
      };
      // The widget token is created once per consent (never retried: it is a creation).
      const body = obj(
        await call('Creating the widget token', 'POST', `${baseUrl}/api/token/`, {
          once: true,
          json: {
            id: secretId,
            password: secretPassword,
            scopes: 'read_institutions,write_links',
            fetch_resources: ['ACCOUNTS', 'TRANSACTIONS', 'OWNERS'],
            widget: { callback_urls: { success: back({}), exit: back({ error: 'access_denied' }), event: back({ error: 'server_error' }) } },
          },
        }),
        'token',
      );
      const url = new URL(`${widgetUrl}/`);
      url.searchParams.set('access_token', str(body.access, 'token.access'));
      url.searchParams.set('access_mode', 'recurrent');
      url.searchParams.set('external_id', externalId);
      return { authorizeUrl: url.toString(), pending: { external: externalId } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through the aggregator\u2019s own widget.' };
      const externalId = input.pending.external;
      if (!externalId) return { status: 'invalid_credentials', message: 'The connection did not complete.' };
      // The widget's success redirect names the link in a parameter Link does not carry: the external id this consent chose finds it.
      const links = (await listAll('Finding the link', '/api/links/', { external_id: externalId })).map(linkState);
      const valid = links.find((l) => l.status === 'valid');
      if (!valid) return { status: 'invalid_credentials', message: links.length === 0 ? 'The connection did not complete.' : 'The bank did not grant access.' };
      return { status: 'connected', connection: { institutionId, login: valid.id } };
    },

    async disconnect(connection) {
      await call('Deleting the link', 'DELETE', `${baseUrl}/api/links/${linkId(connection)}/`);
    },

    async accounts(connection) {
      return (await readAccounts(connection)).map((a) => a.record);
    },
    initialHistory: (connection, today) => pull(connection, today),
    refresh: (connection, today) => pull(connection, today),

    async identity(connection, context) {
      const owners = await listAll('Listing owners', '/api/owners/', { link: linkId(connection) });
      return mapOwners(owners, context.accounts.map((a) => a.account_id));
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
