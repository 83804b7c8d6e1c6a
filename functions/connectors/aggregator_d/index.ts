// Aggregator D: a bank-owned data-access network (docs/connectors.md). Link sends the user to the
// network's identity provider for the institution (`connector` = the network's provider id); the
// authorization code that comes back is exchanged, with the operator's client id and secret, for
// an id token (the bearer of every data call) and a refresh token. Both are the item's secrets.
// Id tokens are short-lived: a data call the network refuses with 401 exchanges the refresh token
// once for a new pair (the old refresh token is then spent, so the pair is saved at once) and is
// sent again. The item's login is `<provider id>/<subject>`: the provider id is part of every data
// path, the subject (from the id token) tells the users of one provider apart.
//
// Transactions are read per account by time range with offset/limit paging; there is no change
// feed, so pulls report `changes`: everything read is upserted, and a pending transaction the
// previous pull reported that is no longer listed is removed. The cursor carries the day read
// through and those pending transactions.
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type ProviderRequest,
  type ProviderResponse,
  type ProviderSecrets,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import { addDays, type Json, credentialsRefused, notOffered } from '../payload';
import { CONNECTOR_ID, connectorErrorOf, mapAccount, mapCustomer, mapHoldings, mapTransaction, providerAccountIdOf, read } from './mapping';

const DEFAULT_IDP_URL = 'https://idp.ddp.akoya.com';
const DEFAULT_BASE_URL = 'https://products.ddp.akoya.com';
const API_VERSION = 'v2';
const SCOPE = 'openid profile offline_access';
const PAGE_SIZE = 50;
/** Per account: 500 pages of 50 is far beyond 24 months of any real account. */
const MAX_PAGES = 500;
/** 24 months asked for; each provider decides how much it serves (see the connector's doc). */
const HISTORY_DAYS = 730;
const REFRESH_OVERLAP_DAYS = 14;
const MAX_PENDING_IN_CURSOR = 2_000;

interface Cursor {
  through: string;
  /** Pending transactions the previous pull reported: provider account id, transaction id, day. */
  pending: Array<[string, string, string]>;
}

function parseCursor(cursor: string | undefined): Cursor | null {
  if (!cursor) return null;
  try {
    const parsed = JSON.parse(cursor) as Partial<Cursor>;
    if (typeof parsed.through === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(parsed.through) && Array.isArray(parsed.pending)) {
      const pending = parsed.pending.filter((p): p is [string, string, string] => Array.isArray(p) && p.length === 3 && p.every((v) => typeof v === 'string'));
      return { through: parsed.through, pending };
    }
  } catch {
    // Unreadable: read the whole history again; stable ids make the re-read harmless.
  }
  return null;
}

/** `<provider id>/<subject>` -> the provider id (the first segment). */
function providerIdOf(connection: Connection): string {
  const slash = connection.login.indexOf('/');
  return slash > 0 ? connection.login.slice(0, slash) : connection.login;
}

/** The `sub` claim of an id token (read, not verified: it came straight from the token endpoint over TLS). */
function subjectOf(idToken: string): string {
  const payload = idToken.split('.')[1];
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
  } catch {
    throw read.fail('id_token', 'not a JWT');
  }
  return read.string(read.object(claims, 'id_token claims').sub, 'id_token.sub');
}

/** Which of the network's provider ids serves an institution: `AGGREGATOR_D_PROVIDER_IDS` = `ins_1=provider,ins_2=other`. */
function providerFor(institutionId: string, mapping: string | undefined): string {
  for (const pair of (mapping ?? '').split(',')) {
    const [ours, theirs] = pair.split('=').map((s) => s.trim());
    if (ours === institutionId && theirs) return theirs;
  }
  return institutionId;
}

export const createAggregatorDConnector: ConnectorFactory = ({ config, http, saveSecrets }) => {
  const idpUrl = (config.AGGREGATOR_D_IDP_URL ?? DEFAULT_IDP_URL).replace(/\/+$/, '');
  const baseUrl = (config.AGGREGATOR_D_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const clientId = config.AGGREGATOR_D_CLIENT_ID ?? '';
  const clientSecret = config.AGGREGATOR_D_CLIENT_SECRET ?? '';

  function clientAuth(): string {
    if (clientId === '' || clientSecret === '') throw new ConnectorError('provider_error', 'Aggregator D is not configured (client id and secret).');
    return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
  }

  /** A token endpoint call: sent once (never retried: a refresh token must not be spent twice). */
  async function tokenCall(form: Record<string, string>): Promise<ProviderResponse> {
    const request: ProviderRequest = { method: 'POST', url: `${idpUrl}/token`, headers: { authorization: clientAuth() }, form };
    try {
      return await http.sendOk(request);
    } catch (err) {
      // The token endpoint answers 401 to the operator's client credentials, not the user's.
      if (err instanceof ConnectorError && err.details.status === 401) return http.send(request);
      throw err;
    }
  }

  function readTokens(response: ProviderResponse): { id_token: string; refresh_token: string } {
    const body = read.object(response.json, 'token response');
    return { id_token: read.string(body.id_token, 'id_token'), refresh_token: read.string(body.refresh_token, 'refresh_token') };
  }

  /** The item's tokens for one adapter call; `rotated` says whether they changed during it. */
  class Session {
    private tokens: { id_token: string; refresh_token: string };
    rotated = false;

    constructor(readonly connection: Connection) {
      const secrets = connection.secrets ?? {};
      if (!secrets.id_token || !secrets.refresh_token) throw new ConnectorError('login_required', 'The item has no tokens at Aggregator D: link it again.');
      this.tokens = { id_token: secrets.id_token, refresh_token: secrets.refresh_token };
    }

    secrets(): ProviderSecrets {
      return { ...this.tokens };
    }

    private async rotate(): Promise<void> {
      const response = await tokenCall({ grant_type: 'refresh_token', refresh_token: this.tokens.refresh_token });
      if (response.status === 400 || response.status === 401) {
        const error = typeof response.json === 'object' && response.json !== null ? (response.json as Json).error : undefined;
        if (response.status === 401 && error === 'invalid_client') throw new ConnectorError('provider_error', 'Aggregator D refused the operator\u2019s client credentials.', { status: 401 });
        throw new ConnectorError('login_required', `Aggregator D refused the item's refresh token (${typeof error === 'string' ? error.slice(0, 40) : response.status}): the user must link again.`, { status: response.status });
      }
      if (response.status !== 200) throw new ConnectorError('provider_error', `Aggregator D's token endpoint answered ${response.status}.`, { status: response.status });
      this.tokens = readTokens(response);
      this.rotated = true;
      // The old refresh token is spent: store the new pair before anything else can fail.
      await saveSecrets?.(this.secrets());
    }

    /** A GET of the data API; one token rotation when the id token is refused. */
    async get(path: string, query: ProviderRequest['query'], what: string): Promise<Json> {
      for (let attempt = 0; ; attempt += 1) {
        const request: ProviderRequest = { method: 'GET', url: `${baseUrl}${path}`, headers: { authorization: `Bearer ${this.tokens.id_token}`, 'x-akoya-interaction-type': 'batch' }, ...(query ? { query } : {}) };
        let response: ProviderResponse;
        try {
          response = await http.sendOk(request);
        } catch (err) {
          if (!(err instanceof ConnectorError && err.details.status === 401)) throw err;
          if (attempt > 0) throw new ConnectorError('login_required', `Aggregator D refused the item's authorization at ${what}: the user must link again.`, { status: 401 });
          await this.rotate();
          continue;
        }
        if (response.status !== 200) throw connectorErrorOf(response.status, response.json);
        return read.object(response.json, `${what} response`);
      }
    }
  }

  async function readAccounts(session: Session): Promise<{ accounts: AccountRecord[]; providerIds: string[] }> {
    const body = await session.get(`/balances/${API_VERSION}/${encodeURIComponent(providerIdOf(session.connection))}`, undefined, 'balances');
    const raw = read.array(body.accounts, 'accounts', 1_000);
    return { accounts: raw.map((a, i) => mapAccount(a, `accounts[${i}]`, session.connection.login)), providerIds: raw.map((a, i) => providerAccountIdOf(a, `accounts[${i}]`)) };
  }

  /** Every page of one account's transactions in [from, through], or a ConnectorError. */
  async function readTransactions(session: Session, providerAccountId: string, currency: string, from: string, through: string) {
    const rows: Array<{ providerId: string; transaction: SourceTransaction }> = [];
    const path = `/transactions/${API_VERSION}/${encodeURIComponent(providerIdOf(session.connection))}/${encodeURIComponent(providerAccountId)}`;
    let offset = 0;
    for (let page = 0; ; page += 1) {
      if (page >= MAX_PAGES) throw new ConnectorError('provider_error', `Aggregator D's transactions did not end after ${MAX_PAGES} pages.`);
      const body = await session.get(path, { startTime: `${from}T00:00:00Z`, endTime: `${addDays(through, 1)}T00:00:00Z`, offset, limit: PAGE_SIZE }, 'transactions');
      const list = read.array(body.transactions, 'transactions', PAGE_SIZE);
      list.forEach((raw, i) => {
        const p = `transactions[${offset + i}]`;
        const transaction = mapTransaction(raw, p, session.connection.login, providerAccountId, currency);
        const wrapper = read.object(raw, p);
        const inner = read.object(Object.values(wrapper)[0], p);
        rows.push({ providerId: read.string(inner.transactionId, `${p}.transactionId`), transaction });
      });
      const next = nextOffsetOf(body, offset + list.length);
      if (next === null) return rows;
      if (list.length === 0 || next <= offset) throw new ConnectorError('provider_error', 'Aggregator D repeated a page of transactions.');
      offset = next;
    }
  }

  async function pull(connection: Connection, today: string, cursor: Cursor | null): Promise<SourceBatch> {
    const session = new Session(connection);
    const { accounts, providerIds } = await readAccounts(session);
    let from = cursor ? addDays(cursor.through, -REFRESH_OVERLAP_DAYS) : addDays(today, -HISTORY_DAYS);
    for (const [, , day] of cursor?.pending ?? []) if (day < from) from = day;
    const upserted = new Map<string, SourceTransaction>();
    const pending: Cursor['pending'] = [];
    for (const [i, providerAccountId] of providerIds.entries()) {
      const rows = await readTransactions(session, providerAccountId, accounts[i].balances.iso_currency_code ?? 'USD', from, today);
      for (const { providerId, transaction } of rows) {
        upserted.set(transaction.transaction_id, transaction);
        if (transaction.pending) pending.push([providerAccountId, providerId, transaction.date]);
      }
    }
    const removed = (cursor?.pending ?? []).map(([account, id]) => stableId('txn', CONNECTOR_ID, connection.login, account, id)).filter((id) => !upserted.has(id));
    const next: Cursor = { through: today, pending: pending.slice(0, MAX_PENDING_IN_CURSOR) };
    return {
      accounts,
      transactions: { kind: 'changes', upserted: [...upserted.values()], removed },
      cursor: JSON.stringify(next),
      ...(session.rotated ? { secrets: session.secrets() } : {}),
    };
  }

  const port: ConnectorPort = {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This institution is linked through its hosted consent page.'),

    async beginOauth({ institutionId, state, redirectUri }) {
      if (clientId === '') throw new ConnectorError('provider_error', 'Aggregator D is not configured (client id and secret).');
      const providerId = providerFor(institutionId, config.AGGREGATOR_D_PROVIDER_IDS);
      const url = new URL(`${idpUrl}/auth`);
      url.search = new URLSearchParams({ connector: providerId, client_id: clientId, redirect_uri: redirectUri, state, response_type: 'code', scope: SCOPE }).toString();
      return { authorizeUrl: url.toString(), pending: { provider_id: providerId } };
    },

    async connect(institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution is linked through its hosted consent page.' };
      const providerId = input.pending.provider_id;
      if (!providerId) return { status: 'invalid_credentials', message: 'The consent session is missing: start again.' };
      const response = await tokenCall({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri });
      if (response.status === 400) return { status: 'invalid_credentials', message: 'The consent expired or was already used: start again.' };
      if (response.status === 401) throw new ConnectorError('provider_error', 'Aggregator D refused the operator\u2019s client credentials.', { status: 401 });
      if (response.status !== 200) throw new ConnectorError('provider_error', `Aggregator D's token endpoint answered ${response.status}.`, { status: response.status });
      const tokens = readTokens(response);
      return { status: 'connected', connection: { institutionId, login: `${providerId}/${subjectOf(tokens.id_token)}` }, secrets: tokens };
    },

    async disconnect(connection) {
      const refreshToken = connection.secrets?.refresh_token;
      if (!refreshToken) return;
      const response = await http.send({ method: 'POST', url: `${idpUrl}/revoke`, headers: { authorization: clientAuth() }, form: { token: refreshToken, token_type_hint: 'refresh_token' } });
      // RFC 7009: an unknown or already revoked token answers 200 too; only a failure is reported.
      if (response.status >= 500) throw new ConnectorError('provider_error', `Aggregator D's revocation endpoint answered ${response.status}.`, { status: response.status });
    },

    async accounts(connection) {
      return (await readAccounts(new Session(connection))).accounts;
    },

    async initialHistory(connection, today) {
      return pull(connection, today, null);
    },

    async refresh(connection, today) {
      return pull(connection, today, parseCursor(connection.cursor));
    },

    async identity(connection) {
      const session = new Session(connection);
      const { accounts } = await readAccounts(session);
      const body = await session.get(`/customers/${API_VERSION}/${encodeURIComponent(providerIdOf(connection))}/current`, undefined, 'customer');
      return mapCustomer(body, accounts.map((a) => a.account_id));
    },

    async investments(connection) {
      const session = new Session(connection);
      const body = await session.get(`/investments/${API_VERSION}/${encodeURIComponent(providerIdOf(connection))}`, undefined, 'investments');
      return mapHoldings(body, connection.login);
    },

    async liabilities() {
      throw notOffered('Liabilities');
    },
  };
  return port;
};

/**
 * Where the next page starts: the `offset` of `links.next.href` when the provider links one, else
 * `page.nextOffset`; null when neither says there is more.
 */
function nextOffsetOf(body: Json, fallback: number): number | null {
  const links = body.links == null ? null : read.object(body.links, 'links');
  if (links?.next != null) {
    const href = read.string(read.object(links.next, 'links.next').href, 'links.next.href');
    const offset = new URL(href, 'https://relative.invalid').searchParams.get('offset');
    if (offset === null) return fallback;
    if (!/^\d{1,9}$/.test(offset)) throw read.fail('links.next.href', 'expected a numeric offset');
    return Number(offset);
  }
  const page = body.page == null ? null : read.object(body.page, 'page');
  if (page?.nextOffset != null) {
    const next = page.nextOffset;
    if (typeof next === 'string' && /^\d{1,9}$/.test(next)) return Number(next);
    return read.number(next, 'page.nextOffset');
  }
  return null;
}
