// Aggregator A: a hosted-widget aggregator (docs/connectors.md). Link creates a link token with a
// hosted widget URL (`beginOauth`), the user picks and logs into their institution there, and the
// public token the widget hands back is exchanged for the item's access token (`connect`), which is
// the item's only secret. Transactions arrive through the provider's cursor-based sync (added,
// modified, removed), so every pull is a `changes` batch and the sync cursor is the item's cursor.
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type ProviderResponse,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import { findInstitution } from '../../core/institutions';
import { addDays, type Json, credentialsRefused } from '../payload';
import { CONNECTOR_ID, connectorErrorOf, errorBodyOf, idsFor, mapAccount, mapIdentity, mapInvestments, mapLiabilities, mapTransaction, read } from './mapping';

const DEFAULT_BASE_URL = 'https://production.plaid.com';
/** The API version the payload shapes above follow (sent on every call so a default change cannot alter them). */
const API_VERSION = '2020-09-14';
/** The countries the provider's widget serves; an institution's others are not offered. */
const SUPPORTED_COUNTRIES = new Set(['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PT', 'SE', 'FI', 'DK', 'NO', 'PL', 'LU', 'EE', 'LT', 'LV']);
/** The provider's maximum page size of a sync call. */
const SYNC_PAGE_SIZE = 500;
/** A bound on one pull: 500 pages of 500 is far beyond 24 months of any real item. */
const MAX_PAGES = 500;
/** How often a sync is restarted from its first cursor when the data changed during pagination. */
const MAX_SYNC_RESTARTS = 3;
const INVESTMENT_PAGE_SIZE = 500;
/** 24 months of history, the most the provider keeps for transactions. */
const HISTORY_DAYS = 730;

/** `idempotent`: a read (or a removal that tolerates repeating) that may be retried after a 5xx or timeout. */
type Call = (path: string, body: Json, what: string, idempotent?: boolean) => Promise<Json>;

function secretOf(connection: Connection): string {
  const token = connection.secrets?.access_token;
  if (!token) throw new ConnectorError('login_required', 'The item has no access token at Aggregator A: link it again.');
  return token;
}

export const createAggregatorAConnector: ConnectorFactory = ({ config, http }) => {
  const baseUrl = (config.AGGREGATOR_A_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const clientId = config.AGGREGATOR_A_CLIENT_ID ?? '';
  const secret = config.AGGREGATOR_A_SECRET ?? '';

  /** One POST with the operator's credentials in the body, as the provider authenticates every call. */
  const call: Call = async (path, body, what, idempotent = false) => {
    if (clientId === '' || secret === '') throw new ConnectorError('provider_error', 'Aggregator A is not configured (client id and secret).');
    const response: ProviderResponse = await http.sendOk({
      method: 'POST',
      url: `${baseUrl}${path}`,
      headers: { 'plaid-version': API_VERSION },
      json: { client_id: clientId, secret, ...body },
      idempotent,
    });
    if (response.status >= 200 && response.status < 300) {
      if (typeof response.json !== 'object' || response.json === null || Array.isArray(response.json)) throw read.fail(`${what} response`, 'not a JSON object');
      return response.json as Json;
    }
    throw connectorErrorOf(response.status, errorBodyOf(response.json), what);
  };

  /** Data calls for an item; the codes that say "nothing of this kind here" come back as null. */
  async function itemCall(connection: Connection, path: string, body: Json, what: string, emptyCodes: readonly string[] = []): Promise<Json | null> {
    try {
      // Every item call is a read, or a removal that tolerates repeating (ITEM_NOT_FOUND): safe to retry.
      return await call(path, { access_token: secretOf(connection), ...body }, what, true);
    } catch (err) {
      if (err instanceof ConnectorError && err.details.code !== undefined && emptyCodes.includes(err.details.code)) return null;
      throw err;
    }
  }

  async function accounts(connection: Connection) {
    const ids = idsFor(connection.login);
    const body = await itemCall(connection, '/accounts/get', {}, 'accounts/get');
    return read.array(body?.accounts, 'accounts').map((a, i) => mapAccount(a, `accounts[${i}]`, ids));
  }

  /**
   * Every page of a sync from `cursor`. A sync whose data changed under it is restarted from the
   * same first cursor, as the provider documents; any other failure fails the whole pull, so no
   * partial batch is ever returned.
   */
  async function sync(connection: Connection, cursor: string | undefined): Promise<SourceBatch> {
    const ids = idsFor(connection.login);
    for (let restart = 0; ; restart += 1) {
      const upserted = new Map<string, SourceTransaction>();
      const removed = new Set<string>();
      let next = cursor ?? '';
      let pages = 0;
      try {
        for (let hasMore = true; hasMore; ) {
          pages += 1;
          if (pages > MAX_PAGES) throw new ConnectorError('provider_error', `Aggregator A's transaction sync did not end after ${MAX_PAGES} pages.`);
          const page = (await itemCall(connection, '/transactions/sync', { count: SYNC_PAGE_SIZE, options: { include_original_description: true }, ...(next ? { cursor: next } : {}) }, 'transactions/sync')) as Json;
          for (const key of ['added', 'modified'] as const) {
            read.array(page[key], key).forEach((raw, i) => {
              const txn = mapTransaction(raw, `${key}[${i}]`, ids);
              removed.delete(txn.transaction_id);
              upserted.set(txn.transaction_id, txn);
            });
          }
          read.array(page.removed, 'removed').forEach((raw, i) => {
            const id = ids.transaction(read.string(read.object(raw, `removed[${i}]`).transaction_id, `removed[${i}].transaction_id`));
            upserted.delete(id);
            removed.add(id);
          });
          hasMore = read.boolean(page.has_more, 'has_more');
          const following = typeof page.next_cursor === 'string' ? page.next_cursor : read.string(page.next_cursor, 'next_cursor');
          if (hasMore && following === next) throw new ConnectorError('provider_error', 'Aggregator A repeated its sync cursor while reporting more pages.');
          next = following;
        }
      } catch (err) {
        if (err instanceof ConnectorError && err.details.code === 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION' && restart < MAX_SYNC_RESTARTS) continue;
        throw err;
      }
      return {
        accounts: await accounts(connection),
        transactions: { kind: 'changes', upserted: [...upserted.values()], removed: [...removed] },
        ...(next !== '' ? { cursor: next } : {}),
      };
    }
  }

  const port: ConnectorPort = {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This institution is linked through its hosted consent page.'),

    async beginOauth({ institutionId, state, redirectUri }) {
      const countries = (findInstitution(institutionId)?.country_codes ?? ['US']).filter((c) => SUPPORTED_COUNTRIES.has(c));
      const body = await call(
        '/link/token/create',
        {
          client_name: 'Fincore',
          language: 'en',
          country_codes: countries.length > 0 ? countries : ['US'],
          // One link token per Link session: the session's state identifies the end user here.
          user: { client_user_id: state },
          products: ['transactions'],
          transactions: { days_requested: HISTORY_DAYS },
          redirect_uri: redirectUri,
          hosted_link: { completion_redirect_uri: `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}state=${encodeURIComponent(state)}` },
        },
        'link/token/create',
      );
      const linkToken = read.string(body.link_token, 'link_token');
      return { authorizeUrl: read.string(body.hosted_link_url, 'hosted_link_url'), pending: { link_token: linkToken } };
    },

    async connect(_institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution is linked through its hosted consent page.' };
      let publicToken = input.code.trim();
      // The widget hands the public token back to a page script; a redirect carries none, so the
      // token is then read from the finished link session.
      if (!publicToken.startsWith('public-')) {
        const linkToken = input.pending.link_token;
        if (!linkToken) return { status: 'invalid_credentials', message: 'The consent session is missing: start again.' };
        const session = await call('/link/token/get', { link_token: linkToken }, 'link/token/get');
        publicToken = publicTokenOfSession(session) ?? '';
        if (publicToken === '') return { status: 'invalid_credentials', message: 'The consent was not completed.' };
      }
      let exchanged: Json;
      try {
        exchanged = await call('/item/public_token/exchange', { public_token: publicToken }, 'item/public_token/exchange');
      } catch (err) {
        if (err instanceof ConnectorError && err.details.code === 'INVALID_PUBLIC_TOKEN') return { status: 'invalid_credentials', message: 'The consent expired or was already used: start again.' };
        throw err;
      }
      const accessToken = read.string(exchanged.access_token, 'access_token');
      const itemId = read.string(exchanged.item_id, 'item_id');
      return { status: 'connected', connection: { institutionId: _institutionId, login: itemId }, secrets: { access_token: accessToken } };
    },

    async disconnect(connection) {
      await itemCall(connection, '/item/remove', {}, 'item/remove', ['ITEM_NOT_FOUND']);
    },

    accounts,

    async initialHistory(connection) {
      // The history the link token asked for (24 months) comes through the same sync, from no cursor.
      return sync(connection, undefined);
    },

    async refresh(connection) {
      return sync(connection, connection.cursor);
    },

    async identity(connection) {
      const body = await itemCall(connection, '/identity/get', {}, 'identity/get');
      return mapIdentity(read.array(body?.accounts, 'accounts'), idsFor(connection.login));
    },

    async liabilities(connection) {
      const body = await itemCall(connection, '/liabilities/get', {}, 'liabilities/get', ['NO_LIABILITY_ACCOUNTS', 'PRODUCTS_NOT_SUPPORTED']);
      return body === null ? { credit: [], mortgage: [], student: [], auto: [] } : mapLiabilities(body, idsFor(connection.login));
    },

    async investments(connection, context) {
      const empty = ['NO_INVESTMENT_ACCOUNTS', 'NO_INVESTMENT_AUTH_ACCOUNTS', 'PRODUCTS_NOT_SUPPORTED'];
      const holdings = await itemCall(connection, '/investments/holdings/get', {}, 'investments/holdings/get', empty);
      if (holdings === null) return { holdings: [], securities: [], investment_transactions: [] };
      const transactions: unknown[] = [];
      const startDate = addDays(context.today, -HISTORY_DAYS);
      for (let page = 0; ; page += 1) {
        if (page >= MAX_PAGES) throw new ConnectorError('provider_error', `Aggregator A's investment transactions did not end after ${MAX_PAGES} pages.`);
        const body = await itemCall(
          connection,
          '/investments/transactions/get',
          { start_date: startDate, end_date: context.today, options: { count: INVESTMENT_PAGE_SIZE, offset: transactions.length } },
          'investments/transactions/get',
          empty,
        );
        if (body === null) break;
        const rows = read.array(body.investment_transactions, 'investment_transactions', INVESTMENT_PAGE_SIZE);
        const total = read.number(body.total_investment_transactions, 'total_investment_transactions');
        transactions.push(...rows);
        if (rows.length === 0 || transactions.length >= total) break;
      }
      return mapInvestments(holdings, transactions, idsFor(connection.login), connection.login);
    },
  };
  return port;
};

/** The public token a finished hosted link session produced (`link_sessions[].results.item_add_results[]`). */
function publicTokenOfSession(session: Json): string | null {
  const sessions = session.link_sessions === undefined ? [] : read.array(session.link_sessions, 'link_sessions', 100);
  for (let i = sessions.length - 1; i >= 0; i -= 1) {
    const s = read.object(sessions[i], `link_sessions[${i}]`);
    const results = s.results == null ? null : read.object(s.results, `link_sessions[${i}].results`);
    const added = results?.item_add_results == null ? [] : read.array(results.item_add_results, `link_sessions[${i}].results.item_add_results`, 100);
    for (const [j, raw] of added.entries()) {
      const token = read.optionalString(read.object(raw, `link_sessions[${i}].results.item_add_results[${j}]`).public_token, 'public_token');
      if (token) return token;
    }
  }
  return null;
}
