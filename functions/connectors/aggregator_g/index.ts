// The pan-European aggregator behind the connector port: the user connects their bank in the
// aggregator's hosted connect page; the service reads the connection's accounts, transactions and
// holder info with the operator's App-id and Secret (and signs each request with the operator's
// private key when one is configured, as live applications must). Nothing per item is secret: the
// item's login is the aggregator's connection id.
import { notOffered } from '../payload';
import { createSign, randomUUID } from 'node:crypto';
import { ConnectorError, type Connection, type ConnectorFactory, type ConnectorPort, type ConsentInput, type LoginResult, type ProviderRequest, type SourceBatch, type SourceTransaction } from '../../core/connector-port';
import { AGGREGATOR_G_ID, connectionState, failedConnection, mapAccount, mapHolderInfo, mapTransaction, pageOf, providerError } from './mapping';
import { stableId } from '../ids';
import { obj, str } from './payload';

const DEFAULT_BASE_URL = 'https://www.saltedge.com/api/v5';
const PER_PAGE = 1000;
/** 200 pages of 1000; a provider that keeps answering next_id past that is broken. */
const MAX_PAGES = 200;
/** Pending ids carried in the cursor, so a pending transaction that disappears is removed. */
const MAX_PENDING_IN_CURSOR = 2_000;

interface Cursor {
  /** Per provider account id: the id the next read of posted transactions starts from. */
  from: Record<string, string>;
  /** Provider ids of the pending transactions the last pull reported. */
  pending: string[];
}

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    if (typeof parsed.from === 'object' && parsed.from !== null && Array.isArray(parsed.pending)) return { from: parsed.from, pending: parsed.pending.map(String) };
  } catch {
    // Unreadable: read everything again; stable ids make the re-read harmless.
  }
  return null;
}

export const createAggregatorGConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_G_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');

  /** The optional request signature: `Expires-at|METHOD|full URL|body` signed with RSA-SHA256. */
  function signatureHeaders(method: string, url: string, body: string): Record<string, string> {
    const privateKey = config.AGGREGATOR_G_PRIVATE_KEY;
    if (!privateKey) return {};
    // The protocol needs a wall-clock expiry: the signature is valid for one minute.
    const expiresAt = String(Math.floor(Date.now() / 1000) + 60);
    const signature = createSign('RSA-SHA256').update(`${expiresAt}|${method}|${url}|${body}`).sign(privateKey, 'base64');
    return { 'expires-at': expiresAt, signature };
  }

  async function call(what: string, method: ProviderRequest['method'], path: string, options: { query?: Record<string, string | number | undefined>; json?: unknown } = {}): Promise<Record<string, unknown>> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const body = options.json === undefined ? '' : JSON.stringify(options.json);
    const headers = {
      'app-id': config.AGGREGATOR_G_APP_ID ?? '',
      secret: config.AGGREGATOR_G_SECRET ?? '',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...signatureHeaders(method, url.toString(), body),
    };
    let response;
    try {
      response = await http.sendOk({ method, url: url.toString(), headers, ...(body ? { body } : {}) });
    } catch (err) {
      // A bare 401 refuses the operator's App-id/Secret: connecting again would not help.
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `${what} was refused: the operator's App-id or Secret is not accepted (401).`, { status: 401 });
      throw err;
    }
    if (response.status >= 400) throw providerError(response.status, response.json, what);
    return obj(response.json, what);
  }

  async function listAll(what: string, path: string, query: Record<string, string>): Promise<unknown[]> {
    const items: unknown[] = [];
    let fromId: string | undefined = query.from_id;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const { data, nextId } = pageOf(await call(what, 'GET', path, { query: { ...query, from_id: fromId, per_page: PER_PAGE } }), what);
      items.push(...data);
      if (nextId === null) return items;
      if (nextId === fromId) throw new ConnectorError('provider_error', `${what}: the aggregator repeated the page starting at the same id.`);
      fromId = nextId;
    }
    throw new ConnectorError('provider_error', `${what} returned more than ${MAX_PAGES} pages.`);
  }

  async function activeAccounts(connection: Connection) {
    const state = connectionState(await call('Reading the connection', 'GET', `/connections/${encodeURIComponent(connection.login)}`));
    if (!state.active) throw failedConnection(state.failClass);
    const raw = await listAll('Listing accounts', '/accounts', { connection_id: connection.login });
    return raw.map((a) => mapAccount(a, connection.login));
  }

  async function pull(connection: Connection): Promise<SourceBatch> {
    const accounts = await activeAccounts(connection);
    const cursor = parseCursor(connection.cursor);
    const next: Cursor = { from: { ...(cursor?.from ?? {}) }, pending: [] };
    const upserted: SourceTransaction[] = [];
    for (const account of accounts) {
      const base = { connection_id: connection.login, account_id: account.providerId };
      const from = cursor?.from[account.providerId];
      const posted = await listAll('Listing transactions', '/transactions', from ? { ...base, from_id: from } : base);
      const pending = await listAll('Listing pending transactions', '/transactions', { ...base, pending: 'true' });
      let highest = from ?? null;
      for (const row of posted) {
        const { providerId, transaction } = mapTransaction(row, connection.login, account.record.account_id);
        if (!transaction.pending) upserted.push(transaction);
        // Ids grow with time: the next read starts at the highest one seen (inclusive, so it is read again harmlessly).
        if (highest === null || BigInt(providerId) > BigInt(highest)) highest = providerId;
      }
      for (const row of pending) {
        const { providerId, transaction } = mapTransaction(row, connection.login, account.record.account_id);
        upserted.push({ ...transaction, pending: true });
        next.pending.push(providerId);
      }
      if (highest !== null) next.from[account.providerId] = highest;
    }
    // A pending transaction the aggregator no longer lists was dropped or replaced by its posted one.
    const stillPending = new Set(next.pending);
    const removed = (cursor?.pending ?? []).filter((id) => !stillPending.has(id)).map((id) => stableId('txn', AGGREGATOR_G_ID, connection.login, id));
    next.pending = next.pending.slice(0, MAX_PENDING_IN_CURSOR);
    upserted.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
    return { accounts: accounts.map((a) => a.record), transactions: { kind: 'changes', upserted, removed }, cursor: JSON.stringify(next) };
  }


  const port: ConnectorPort = {
    id: AGGREGATOR_G_ID,
    linkMethod: 'oauth',
    async login(): Promise<LoginResult> {
      return { status: 'invalid_credentials' };
    },
    async verifyMfaCode() {
      return false;
    },

    async beginOauth({ institutionId, state, redirectUri }) {
      const customer = obj((await call('Creating the customer', 'POST', '/customers', { json: { data: { identifier: randomUUID() } } })).data, 'customer');
      const customerId = str(customer.id, 'customer.id');
      const returnTo = new URL(redirectUri);
      returnTo.searchParams.set('state', state);
      const session = obj(
        (
          await call('Creating the connect session', 'POST', '/connect_sessions/create', {
            json: {
              data: {
                customer_id: customerId,
                consent: { scopes: ['account_details', 'transactions_details', 'holder_information'] },
                attempt: { return_to: returnTo.toString(), return_connection_id: true, fetch_scopes: ['accounts', 'transactions', 'holder_info'] },
                include_fake_providers: false,
                // A hint only: the connect page lets the user pick their bank.
                provider_code: institutionId.startsWith('se:') ? institutionId.slice(3) : undefined,
              },
            },
          })
        ).data,
        'connect_session',
      );
      return { authorizeUrl: str(session.connect_url, 'connect_session.connect_url'), pending: { customer: customerId } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through the aggregator\u2019s own page.' };
      if (!/^\d{1,30}$/.test(input.code)) return { status: 'invalid_credentials', message: 'The connection did not complete.' };
      const state = connectionState(await call('Reading the connection', 'GET', `/connections/${input.code}`));
      // A connection of another customer is not this user's: refuse it.
      if (state.customerId !== input.pending.customer) return { status: 'invalid_credentials', message: 'The connection did not complete.' };
      if (!state.active) return { status: 'invalid_credentials', message: 'The bank did not grant access.' };
      return { status: 'connected', connection: { institutionId, login: state.id } };
    },

    async disconnect(connection) {
      await call('Removing the connection', 'DELETE', `/connections/${encodeURIComponent(connection.login)}`);
    },

    async accounts(connection) {
      return (await activeAccounts(connection)).map((a) => a.record);
    },
    initialHistory: (connection) => pull(connection),
    refresh: (connection) => pull(connection),

    async identity(connection, context) {
      const body = await call('Reading the holder info', 'GET', '/holder_info', { query: { connection_id: connection.login } });
      return mapHolderInfo(body, context.accounts.map((a) => a.account_id));
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
