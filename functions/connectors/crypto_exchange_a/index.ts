// The first crypto exchange's adapter: OAuth 2.0 (authorization code with PKCE) against the
// exchange's consumer app API (v2 wallets, wallet transactions, the user). Access tokens live an
// hour and refresh tokens are single use, so every refresh exchange rotates both: a pull that had to
// renew the access token hands the new pair back in SourceBatch.secrets (docs/connectors.md).
import { createHash, randomBytes } from 'node:crypto';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConsentInput,
  type LoginResult,
  type OauthStart,
  type ProviderHttp,
  type ProviderRequest,
  type ProviderResponse,
  type ProviderSecrets,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import { findInstitution } from '../../core/institutions';
import {
  bad,
  CONNECTOR_ID,
  isReported,
  objectAt,
  readCursor,
  readTransaction,
  readWallet,
  stringAt,
  toAccount,
  toHolding,
  toIdentity,
  toInvestmentTransaction,
  toSourceTransaction,
  transactionIdOf,
  type Cursor,
  type Wallet,
  type WalletTransaction,
} from './mapping';
import { credentialsRefused } from '../payload';

const DEFAULT_API_URL = 'https://api.coinbase.com';
const DEFAULT_AUTH_URL = 'https://login.coinbase.com';
/** Read-only: wallets, their transactions, the user's name and email; offline_access yields the refresh token. */
export const SCOPES = ['wallet:accounts:read', 'wallet:transactions:read', 'wallet:user:read', 'wallet:user:email', 'offline_access'];
/** The largest page the API serves. */
const PAGE_LIMIT = 100;
/** Bounds one listing (100 x 500 = 50,000 rows): a provider that keeps answering next pages must not keep a pull alive forever. */
const MAX_PAGES = 500;
/** The history read at connect: the API keeps the whole history; the service keeps 24 months. */
const HISTORY_MONTHS = 24;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The first instant of the day `months` months before `today` (YYYY-MM-DD), as an ISO timestamp. */
export function monthsBefore(today: string, months: number): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (!match) throw new ConnectorError('provider_error', `today must be YYYY-MM-DD, got ${JSON.stringify(today)}.`);
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1 - months, Number(match[3]))).toISOString();
}

/** The API's documented error body: { errors: [{ id, message }] }; the first id, or null. */
function errorIdOf(response: ProviderResponse): string | null {
  const body = response.json as { errors?: unknown } | undefined;
  const first = Array.isArray(body?.errors) ? (body.errors[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : null;
}

/** The OAuth token endpoint's error code ({ error: 'invalid_grant', ... }), or null. */
function oauthErrorOf(response: ProviderResponse): string | null {
  const body = response.json as { error?: unknown } | undefined;
  return typeof body?.error === 'string' ? body.error : null;
}

interface Tokens {
  access_token: string;
  refresh_token: string;
}

function readTokens(response: ProviderResponse): Tokens {
  const body = objectAt(response.json, 'token response');
  return { access_token: stringAt(body.access_token, 'access_token'), refresh_token: stringAt(body.refresh_token, 'refresh_token') };
}

/**
 * The client's bounded retry of 429 and 5xx (sendOk), but a 401 is answered with its body: the
 * documented error id tells an expired access token (renewable) from a revoked grant.
 */
async function sendReadingUnauthorized(http: ProviderHttp, request: ProviderRequest): Promise<ProviderResponse> {
  try {
    return await http.sendOk(request);
  } catch (err) {
    if (err instanceof ConnectorError && err.details.status === 401) return http.send(request);
    throw err;
  }
}

export const createCryptoExchangeAConnector: ConnectorFactory = (context) => {
  const { config, http } = context;
  const apiUrl = trimSlash(config.CRYPTO_EXCHANGE_A_BASE_URL ?? DEFAULT_API_URL);
  const authUrl = trimSlash(config.CRYPTO_EXCHANGE_A_AUTH_URL ?? DEFAULT_AUTH_URL);
  const apiOrigin = new URL(apiUrl).origin;

  function clientCredentials(): { client_id: string; client_secret: string } {
    const clientId = config.CRYPTO_EXCHANGE_A_CLIENT_ID;
    const clientSecret = config.CRYPTO_EXCHANGE_A_CLIENT_SECRET;
    if (!clientId || !clientSecret) throw new ConnectorError('provider_error', 'The exchange connector is not configured (CRYPTO_EXCHANGE_A_CLIENT_ID / _SECRET).');
    return { client_id: clientId, client_secret: clientSecret };
  }

  /**
   * The item's tokens for one call. Only pulls (initialHistory, refresh) may renew an expired
   * access token: the rotated pair can be handed back only in a SourceBatch, and a refresh token
   * is single use, so renewing it anywhere else would lose the item's authorization.
   */
  class Session {
    rotated = false;
    constructor(
      private tokens: Tokens,
      private readonly mayRotate: boolean,
    ) {}

    static of(connection: Connection, mayRotate: boolean): Session {
      const access = connection.secrets?.access_token;
      const refresh = connection.secrets?.refresh_token;
      if (!access || !refresh) throw new ConnectorError('login_required', 'The item holds no authorization for the exchange: the user must connect again.');
      return new Session({ access_token: access, refresh_token: refresh }, mayRotate);
    }

    secrets(): ProviderSecrets {
      return { ...this.tokens };
    }

    async get(pathAndQuery: string): Promise<unknown> {
      for (let attempt = 0; ; attempt += 1) {
        const request: ProviderRequest = { method: 'GET', url: `${apiOrigin}${pathAndQuery}`, headers: { authorization: `Bearer ${this.tokens.access_token}` } };
        const response = await sendReadingUnauthorized(http, request);
        if (response.status >= 200 && response.status < 300) {
          if (typeof response.json !== 'object' || response.json === null) bad(`the body of GET ${pathAndQuery.split('?')[0]}`);
          return response.json;
        }
        const id = errorIdOf(response);
        if (response.status === 401) {
          if (id === 'expired_token' && this.mayRotate && attempt === 0) {
            await this.rotate();
            continue;
          }
          if (id === 'expired_token') {
            throw new ConnectorError('provider_error', 'The exchange access token has expired; the item\u2019s next refresh renews it.', { status: 401, code: 'expired_token' });
          }
          throw new ConnectorError('login_required', `The exchange refused the item's authorization (${id ?? 'unauthorized'}): the user must connect again.`, { status: 401 });
        }
        if (response.status === 403) {
          throw new ConnectorError('login_required', `The exchange refused access (${id ?? 'forbidden'}): the user must grant the read permissions again.`, { status: 403 });
        }
        throw new ConnectorError('provider_error', `The exchange answered ${response.status}${id ? ` (${id})` : ''} to GET ${pathAndQuery.split('?')[0]}.`, { status: response.status });
      }
    }

    /** Exchanges the single-use refresh token for a new pair. */
    private async rotate(): Promise<void> {
      const response = await sendReadingUnauthorized(http, {
        method: 'POST',
        url: `${authUrl}/oauth2/token`,
        form: { grant_type: 'refresh_token', refresh_token: this.tokens.refresh_token, ...clientCredentials() },
      });
      if (response.status === 400 || response.status === 401) {
        throw new ConnectorError('login_required', `The exchange refused the item's refresh token (${oauthErrorOf(response) ?? response.status}): the user must connect again.`, { status: response.status });
      }
      if (response.status !== 200) throw new ConnectorError('provider_error', `The exchange's token endpoint answered ${response.status}.`, { status: response.status });
      this.tokens = readTokens(response);
      this.rotated = true;
      // The old refresh token is spent: store the new pair before anything else can fail.
      await context.saveSecrets?.(this.secrets());
    }

    /** Every object of a paginated listing, following next_uri (only ever to the API's own origin). */
    async list(path: string, keepGoing: (page: unknown[]) => boolean = () => true): Promise<unknown[]> {
      const items: unknown[] = [];
      const seen = new Set<string>();
      let next: string | null = `${path}?limit=${PAGE_LIMIT}&order=desc`;
      for (let page = 0; next !== null; page += 1) {
        if (page >= MAX_PAGES) throw new ConnectorError('provider_error', `The exchange listing ${path} did not end after ${MAX_PAGES} pages.`);
        seen.add(next);
        const body = objectAt(await this.get(next), 'body');
        if (!Array.isArray(body.data)) bad(`${path}: data`);
        if (body.data.length > PAGE_LIMIT) bad(`${path}: data`, `holds more than the ${PAGE_LIMIT} rows asked for`);
        items.push(...body.data);
        const pagination = body.pagination === undefined || body.pagination === null ? {} : objectAt(body.pagination, `${path}: pagination`);
        const nextUri = pagination.next_uri;
        const wanted = keepGoing(body.data);
        if (nextUri === null || nextUri === undefined || nextUri === '' || !wanted) break;
        const resolved = new URL(stringAt(nextUri, `${path}: pagination.next_uri`), apiOrigin);
        // a next page elsewhere would receive the bearer token
        if (resolved.origin !== apiOrigin || !resolved.pathname.startsWith('/v2/')) bad(`${path}: pagination.next_uri`, 'points outside the API');
        next = `${resolved.pathname}${resolved.search}`;
        if (seen.has(next)) throw new ConnectorError('provider_error', `The exchange listing ${path} repeated a page.`);
      }
      return items;
    }

    async wallets(): Promise<Wallet[]> {
      return (await this.list('/v2/accounts')).map(readWallet);
    }

    /** A wallet's transactions created at or after `since` (ISO), newest first. */
    async transactions(walletId: string, since: string): Promise<WalletTransaction[]> {
      const path = `/v2/accounts/${encodeURIComponent(walletId)}/transactions`;
      const sinceMs = Date.parse(since);
      let index = 0;
      const read: WalletTransaction[] = [];
      // newest first: stop paging once a page reaches past `since`
      await this.list(path, (page) => {
        const parsed = page.map((raw) => readTransaction(raw, `${path}: data[${index++}]`));
        read.push(...parsed);
        return parsed.every((t) => Date.parse(t.createdAt.iso) >= sinceMs);
      });
      return read.filter((t) => Date.parse(t.createdAt.iso) >= sinceMs);
    }
  }

  const institutionName = (connection: Connection) => findInstitution(connection.institutionId)?.name ?? 'Crypto exchange';

  function reportedWallets(wallets: Wallet[], cursor: Cursor | null): Wallet[] {
    const known = new Set(Object.keys(cursor?.wallets ?? {}));
    return wallets.filter((w) => isReported(w, known));
  }

  function accountsOf(connection: Connection, wallets: Wallet[]) {
    return wallets.map((w) => toAccount(w, connection.login, institutionName(connection))).filter((a) => a !== null);
  }

  /** One pull: every reported wallet's transactions since its cursor (24 months for a wallet seen first). */
  async function pull(connection: Connection, today: string, useCursor: boolean): Promise<SourceBatch> {
    const session = Session.of(connection, true);
    const cursor = useCursor ? readCursor(connection.cursor) : null;
    const historyStart = monthsBefore(today, HISTORY_MONTHS);
    const wallets = reportedWallets(await session.wallets(), cursor);
    const upserted: SourceTransaction[] = [];
    const removed: string[] = [];
    const next: Cursor = { v: 1, wallets: {} };
    for (const wallet of wallets) {
      const since = cursor?.wallets[wallet.id] ?? historyStart;
      const read = await session.transactions(wallet.id, since);
      for (const tx of read) {
        if (tx.isVoid) {
          removed.push(transactionIdOf(connection.login, tx.id));
          continue;
        }
        const mapped = toSourceTransaction(tx, wallet, connection.login);
        if (mapped) upserted.push(mapped);
      }
      // re-read from the oldest transaction still pending, so its completion (or cancellation) is seen
      const live = read.filter((t) => !t.isVoid);
      const pending = live.filter((t) => t.status !== 'completed').map((t) => t.createdAt.iso);
      const newest = live.map((t) => t.createdAt.iso);
      next.wallets[wallet.id] = pending.length > 0 ? pending.reduce((a, b) => (a < b ? a : b)) : newest.length > 0 ? newest.reduce((a, b) => (a > b ? a : b)) : since;
    }
    return {
      accounts: accountsOf(connection, wallets),
      transactions: { kind: 'changes', upserted, removed },
      cursor: JSON.stringify(next),
      ...(session.rotated ? { secrets: session.secrets() } : {}),
    };
  }

  return {
    id: CONNECTOR_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This exchange connects through its own consent page.'),

    async beginOauth({ state, redirectUri }): Promise<OauthStart> {
      const { client_id } = clientCredentials();
      const verifier = randomBytes(32).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const url = new URL(`${authUrl}/oauth2/auth`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: redirectUri,
        state,
        scope: SCOPES.join(','),
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      return { authorizeUrl: url.toString(), pending: { code_verifier: verifier } };
    },

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This exchange connects through its own consent page.' };
      if (!input.code) return { status: 'invalid_credentials', message: 'The exchange did not return an authorization code.' };
      const verifier = input.pending.code_verifier;
      if (!verifier) return { status: 'invalid_credentials', message: 'The consent session expired: please start again.' };
      const response = await sendReadingUnauthorized(http, {
        method: 'POST',
        url: `${authUrl}/oauth2/token`,
        form: { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: verifier, ...clientCredentials() },
      });
      if (response.status === 400 || response.status === 401) {
        return { status: 'invalid_credentials', message: `The exchange refused the authorization (${oauthErrorOf(response) ?? response.status}): please connect again.` };
      }
      if (response.status !== 200) throw new ConnectorError('provider_error', `The exchange's token endpoint answered ${response.status}.`, { status: response.status });
      const tokens = readTokens(response);
      const session = new Session(tokens, false);
      const user = objectAt(objectAt(await session.get('/v2/user'), 'body').data, 'data');
      return { status: 'connected', connection: { institutionId, login: stringAt(user.id, 'data.id') }, secrets: { ...tokens } };
    },

    async disconnect(connection) {
      const token = connection.secrets?.refresh_token ?? connection.secrets?.access_token;
      if (!token) return;
      // best effort: the item is deleted either way, and a token that no longer works needs no revoking
      await sendReadingUnauthorized(http, { method: 'POST', url: `${authUrl}/oauth2/revoke`, form: { token, ...clientCredentials() } }).catch(() => undefined);
    },

    async accounts(connection) {
      const wallets = reportedWallets(await Session.of(connection, false).wallets(), readCursor(connection.cursor));
      return accountsOf(connection, wallets);
    },

    initialHistory: (connection, today) => pull(connection, today, false),

    refresh: (connection, today) => pull(connection, today, true),

    async identity(connection, context) {
      const user = await Session.of(connection, false).get('/v2/user');
      return toIdentity(user, context.accounts.map((a) => a.account_id));
    },

    async liabilities() {
      throw new ConnectorError('provider_error', 'Liabilities are not offered by this connector.');
    },

    async investments(connection, context) {
      const session = Session.of(connection, false);
      const crypto = reportedWallets(await session.wallets(), readCursor(connection.cursor)).filter((w) => !w.isFiat);
      const since = monthsBefore(context.today, HISTORY_MONTHS);
      const holdings = crypto.filter((w) => w.balance !== 0).map((w) => toHolding(w, connection.login));
      const investmentTransactions = [];
      for (const wallet of crypto) {
        for (const tx of await session.transactions(wallet.id, since)) {
          const mapped = toInvestmentTransaction(tx, wallet, connection.login);
          if (mapped) investmentTransactions.push(mapped);
        }
      }
      investmentTransactions.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      return { holdings, securities: holdings.map((h) => h.security), investment_transactions: investmentTransactions };
    },
  };
};
