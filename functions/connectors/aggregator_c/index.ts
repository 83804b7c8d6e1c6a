// Aggregator C: a hosted-Connect aggregator (docs/connectors.md). Every call carries the operator's
// App-Key and a partner token obtained from the partner id and secret. Link creates a customer at
// the provider and a Connect URL for it (`beginOauth`); the user adds their institution there, and
// `connect` finds the accounts Connect added: the item's login is the customer id. Nothing per item
// is secret (the partner token reaches every customer of the operator).
//
// The provider has no change feed for transactions, only date-range reads, so pulls read a range
// and report `changes`: everything read is upserted, and a pending transaction the previous pull
// reported that the provider no longer lists is removed (it posted under a new id, or was dropped).
// The cursor carries the day read through and those pending ids.
import { createHash } from 'node:crypto';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type ProviderRequest,
  type ProviderResponse,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { addDays, type Json, credentialsRefused, notOffered } from '../payload';
import { aggregationStatusError, CONNECTOR_ID, connectorErrorOf, mapAccount, mapOwners, mapTransaction, read } from './mapping';

const DEFAULT_BASE_URL = 'https://api.finicity.com';
/** The provider's maximum page size of a transaction read. */
const PAGE_SIZE = 1000;
/** 200 pages of 1000 is far beyond 24 months of any real customer. */
const MAX_PAGES = 200;
/** 24 months asked for; the provider returns what it holds (see the connector's doc). */
const HISTORY_DAYS = 730;
/** How far back a refresh reads again: late-posting transactions and amended ones land here. */
const REFRESH_OVERLAP_DAYS = 14;
const MAX_PENDING_IN_CURSOR = 2_000;

interface Cursor {
  /** The last day the previous pull read through (YYYY-MM-DD). */
  through: string;
  /** Pending transactions the previous pull reported: provider id and the day it was dated. */
  pending: Array<[string, string]>;
}

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    if (typeof parsed.through === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(parsed.through) && Array.isArray(parsed.pending)) {
      const pending = parsed.pending.filter((p): p is [string, string] => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'string');
      return { through: parsed.through, pending };
    }
  } catch {
    // Unreadable: read the whole history again; stable ids make the re-read harmless.
  }
  return null;
}

const epochOfDay = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);

export const createAggregatorCConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_C_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const partnerId = config.AGGREGATOR_C_PARTNER_ID ?? '';
  const partnerSecret = config.AGGREGATOR_C_SECRET ?? '';
  const appKey = config.AGGREGATOR_C_APP_KEY ?? '';
  let partnerToken: Promise<string> | null = null;

  /** A partner token (valid two hours at the provider); one per adapter, which lives for one call. */
  function token(): Promise<string> {
    partnerToken ??= (async () => {
      if (partnerId === '' || partnerSecret === '' || appKey === '') throw new ConnectorError('provider_error', 'Aggregator C is not configured (partner id, secret and App-Key).');
      const response = await send({ method: 'POST', url: `${baseUrl}/aggregation/v2/partners/authentication`, headers: { 'finicity-app-key': appKey }, json: { partnerId, partnerSecret } }, 'partner authentication', true);
      return read.string(read.object(response.json, 'partner authentication response').token, 'token');
    })();
    partnerToken.catch(() => (partnerToken = null));
    return partnerToken;
  }

  /**
   * One request through the shared client. A 401 here always refuses the operator's App-Key or
   * partner token (the provider knows no per-user authorization), so it is a provider_error, not a
   * reason to ask the user to link again.
   */
  async function send(request: ProviderRequest, what: string, operatorCall = false): Promise<ProviderResponse> {
    let response: ProviderResponse;
    try {
      response = await http.sendOk(request);
    } catch (err) {
      if (err instanceof ConnectorError && err.kind === 'login_required') throw new ConnectorError('provider_error', `Aggregator C refused the operator's credentials at ${what} (401).`, { status: 401 });
      throw err;
    }
    if (response.status === 200 || response.status === 201 || response.status === 204) return response;
    if (operatorCall && response.status < 500) throw new ConnectorError('provider_error', `Aggregator C refused the operator's credentials at ${what} (${response.status}).`, { status: response.status });
    throw connectorErrorOf(response.status, response.json, what);
  }

  async function call(what: string, method: ProviderRequest['method'], path: string, options: { query?: ProviderRequest['query']; json?: unknown } = {}): Promise<Json> {
    const response = await send(
      { method, url: `${baseUrl}${path}`, headers: { 'finicity-app-key': appKey, 'finicity-app-token': await token() }, ...(options.query ? { query: options.query } : {}), ...(options.json !== undefined ? { json: options.json } : {}) },
      what,
    );
    if (response.status === 204 || method === 'DELETE') return {};
    return read.object(response.json, `${what} response`);
  }

  const customerPath = (connection: Connection) => `/aggregation/v1/customers/${encodeURIComponent(connection.login)}`;

  /** The customer's accounts, with the currency of each by provider id. */
  async function readAccounts(connection: Connection): Promise<{ accounts: AccountRecord[]; providerIds: string[]; currencyOf: (providerId: string) => string }> {
    const body = await call('accounts', 'GET', `${customerPath(connection)}/accounts`);
    const raw = read.array(body.accounts, 'accounts', 1_000);
    const currencies = new Map<string, string>();
    const providerIds: string[] = [];
    const accounts = raw.map((a, i) => {
      const path = `accounts[${i}]`;
      const o = read.object(a, path);
      const status = read.optionalNumber(o.aggregationStatusCode, `${path}.aggregationStatusCode`);
      // Only a status the user must fix ends the pull; other non-zero codes leave the data of the
      // last successful aggregation, which is still the best the provider has.
      const failure = status === null ? null : aggregationStatusError(status);
      if (failure?.kind === 'login_required') throw failure;
      const record = mapAccount(o, path, connection.login);
      const providerId = typeof o.id === 'number' ? String(o.id) : read.string(o.id, `${path}.id`);
      providerIds.push(providerId);
      currencies.set(providerId, record.balances.iso_currency_code ?? 'USD');
      return record;
    });
    return { accounts, providerIds, currencyOf: (id) => currencies.get(id) ?? 'USD' };
  }

  /** Every page of the customer's transactions between two days (inclusive), or a ConnectorError. */
  async function readTransactions(connection: Connection, from: string, through: string, currencyOf: (id: string) => string): Promise<Array<{ providerId: string; transaction: SourceTransaction }>> {
    const rows: Array<{ providerId: string; transaction: SourceTransaction }> = [];
    let start = 1;
    for (let page = 0; ; page += 1) {
      if (page >= MAX_PAGES) throw new ConnectorError('provider_error', `Aggregator C's transactions did not end after ${MAX_PAGES} pages.`);
      const body = await call('transactions', 'GET', `/aggregation/v3/customers/${encodeURIComponent(connection.login)}/transactions`, {
        query: { fromDate: epochOfDay(from), toDate: epochOfDay(addDays(through, 1)) - 1, start, limit: PAGE_SIZE, sort: 'asc', includePending: 'true' },
      });
      const list = read.array(body.transactions, 'transactions', PAGE_SIZE);
      list.forEach((raw, i) => {
        const path = `transactions[${start - 1 + i}]`;
        const o = read.object(raw, path);
        rows.push({ providerId: typeof o.id === 'number' ? String(o.id) : read.string(o.id, `${path}.id`), transaction: mapTransaction(o, path, connection.login, currencyOf) });
      });
      const more = read.boolean(body.moreAvailable, 'moreAvailable');
      if (!more) return rows;
      if (list.length === 0) throw new ConnectorError('provider_error', 'Aggregator C reported more transactions but sent an empty page.');
      start += list.length;
    }
  }

  async function pull(connection: Connection, today: string, cursor: Cursor | null): Promise<SourceBatch> {
    const { accounts, currencyOf } = await readAccounts(connection);
    // A refresh reads from before every pending transaction it reported, so a missing one is known gone.
    let from = cursor ? addDays(cursor.through, -REFRESH_OVERLAP_DAYS) : addDays(today, -HISTORY_DAYS);
    for (const [, day] of cursor?.pending ?? []) if (day < from) from = day;
    const rows = await readTransactions(connection, from, today, currencyOf);
    const upserted = new Map<string, SourceTransaction>();
    const pending: Array<[string, string]> = [];
    for (const { providerId, transaction } of rows) {
      upserted.set(transaction.transaction_id, transaction);
      if (transaction.pending) pending.push([providerId, transaction.date]);
    }
    const removed = (cursor?.pending ?? []).map(([id]) => stableId('txn', CONNECTOR_ID, connection.login, id)).filter((id) => !upserted.has(id));
    const next: Cursor = { through: today, pending: pending.slice(0, MAX_PENDING_IN_CURSOR) };
    return { accounts, transactions: { kind: 'changes', upserted: [...upserted.values()], removed }, cursor: JSON.stringify(next) };
  }

  const port: ConnectorPort = {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This institution is linked through its hosted consent page.'),

    async beginOauth({ state, redirectUri }) {
      // One customer per Link session; its username only needs to be unique for the operator, and
      // is derived from the session state so it names no user.
      const username = `fincore-${createHash('sha256').update(state).digest('hex').slice(0, 32)}`;
      const customer = await call('customer creation', 'POST', '/aggregation/v2/customers/active', { json: { username, firstName: 'Fincore', lastName: 'Customer' } });
      const customerId = typeof customer.id === 'number' ? String(customer.id) : read.string(customer.id, 'id');
      const back = `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}state=${encodeURIComponent(state)}`;
      const generated = await call('Connect URL generation', 'POST', '/connect/v2/generate', { json: { partnerId, customerId, redirectUri: back, singleUseUrl: true } });
      const link = read.string(generated.link, 'link');
      if (!/^https?:\/\//.test(link)) throw read.fail('link', 'expected an http(s) URL');
      return { authorizeUrl: link, pending: { customer_id: customerId } };
    },

    async connect(institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution is linked through its hosted consent page.' };
      const customerId = input.pending.customer_id;
      if (!customerId) return { status: 'invalid_credentials', message: 'The consent session is missing: start again.' };
      const connection: Connection = { institutionId, login: customerId };
      // Connect hands nothing back but the user: what it added is the customer's accounts.
      const { accounts } = await readAccounts(connection);
      if (accounts.length === 0) return { status: 'invalid_credentials', message: 'The consent was not completed: no account was added.' };
      return { status: 'connected', connection };
    },

    async disconnect(connection) {
      try {
        await call('customer deletion', 'DELETE', customerPath(connection));
      } catch (err) {
        // Already gone at the provider: nothing left to revoke.
        if (err instanceof ConnectorError && err.details.status === 404) return;
        throw err;
      }
    },

    async accounts(connection) {
      return (await readAccounts(connection)).accounts;
    },

    async initialHistory(connection, today) {
      return pull(connection, today, null);
    },

    async refresh(connection, today) {
      return pull(connection, today, parseCursor(connection.cursor));
    },

    async identity(connection) {
      const { providerIds } = await readAccounts(connection);
      const perAccount = [];
      for (const providerId of providerIds) {
        const body = await call('account owner details', 'GET', `/aggregation/v3/customers/${encodeURIComponent(connection.login)}/accounts/${encodeURIComponent(providerId)}/owner`);
        perAccount.push({ accountId: stableId('acc', CONNECTOR_ID, connection.login, providerId), body });
      }
      return mapOwners(perAccount);
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
