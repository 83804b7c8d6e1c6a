// The second crypto exchange's adapter: a read-only API key the user creates at the exchange
// ("Query Funds" and "Query Ledger Entries"), against its REST API: signed private calls for the
// balances and the ledger, the public ticker for prices. The exchange needs nothing from the
// operator, so CRYPTO_EXCHANGE_B_ENABLED alone offers it.
import { createHash, createHmac } from 'node:crypto';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConsentInput,
  type LoginResult,
  type ProviderResponse,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import { findInstitution } from '../../core/institutions';
import {
  assetOf,
  bad,
  CONNECTOR_ID,
  isIsoShaped,
  objectAt,
  readBalances,
  readCursor,
  readLedgerEntry,
  readTickers,
  toAccount,
  toHolding,
  toSourceTransaction,
  usdPriceOf,
  type Asset,
  type Cursor,
  type LedgerEntry,
} from './mapping';
import { credentialsRefused } from '../payload';

const DEFAULT_BASE_URL = 'https://api.kraken.com';
/** The ledger serves 50 entries a page. */
const LEDGER_PAGE = 50;
/** Bounds one ledger read (400 x 50 = 20,000 entries): a provider that never ends its pages must not keep a pull alive forever. */
const MAX_LEDGER_PAGES = 400;
/** The history read at connect (the ledger goes back further; the service keeps 24 months). */
const HISTORY_MONTHS = 24;
/** Re-read this much before the cursor: entries of the same second may straddle it; stable ids make the overlap harmless. */
const CURSOR_OVERLAP_SECONDS = 1;
/** Balances that are not assets of the user (fee credits). */
const NOT_ASSETS = new Set(['KFEE']);

const PERMISSIONS_HINT = 'Create an API key with the "Query Funds" and "Query Ledger Entries" permissions (nothing else) and paste its key and private key.';

/** The documented error strings ("EAPI:Invalid key", "EGeneral:Permission denied: ...") by what they mean here. */
const CREDENTIAL_ERRORS = ['EAPI:Invalid key', 'EAPI:Invalid signature', 'EGeneral:Permission denied'];
const RATE_LIMIT_ERRORS = ['EAPI:Rate limit exceeded', 'EGeneral:Too many requests', 'EGeneral:Temporary lockout', 'EService:Throttled'];
const NONCE_ERROR = 'EAPI:Invalid nonce';

const matches = (errors: readonly string[], known: readonly string[]) => errors.some((e) => known.some((k) => e.startsWith(k)));

let lastNonce = 0;
/**
 * Private calls need a nonce that always increases for the key. Microseconds since the epoch keep
 * it increasing across containers and restarts; the counter keeps two calls of one process apart
 * within the same microsecond. (This is the one clock read of the adapter, required by the protocol.)
 */
function nextNonce(): string {
  lastNonce = Math.max(lastNonce + 1, Date.now() * 1000);
  return String(lastNonce);
}

/** API-Sign: base64(HMAC-SHA512(uri path + SHA256(nonce + post data), base64-decoded secret)). */
export function signature(path: string, nonce: string, postData: string, secret: string): string {
  const digest = createHash('sha256').update(nonce + postData).digest();
  return createHmac('sha512', Buffer.from(secret, 'base64')).update(Buffer.concat([Buffer.from(path), digest])).digest('base64');
}

interface ApiKey {
  key: string;
  secret: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** What Link checks before calling the exchange: a key and a base64 private key of plausible size. */
function keyShapeProblem(apiKey: string, apiSecret: string): string | null {
  if (!/^[A-Za-z0-9+/=]{16,256}$/.test(apiKey)) return 'The API key does not look like one: paste the "API Key" the exchange showed when the key was created.';
  if (!BASE64.test(apiSecret) || apiSecret.length % 4 !== 0 || Buffer.from(apiSecret, 'base64').length < 32) {
    return 'The private key must be the base64 "Private Key" the exchange showed when the key was created.';
  }
  return null;
}

/** The non-secret reference of an item: a hash of the key, never the key. */
const loginOf = (apiKey: string) => `key_${createHash('sha256').update(`${CONNECTOR_ID}\u0000${apiKey}`).digest('hex').slice(0, 32)}`;

/** The envelope every answer comes in: { error: [...], result }. */
function envelopeOf(response: ProviderResponse, path: string): { errors: string[]; result: unknown } {
  if (response.status !== 200) throw new ConnectorError('provider_error', `The exchange answered ${response.status} to ${path}.`, { status: response.status });
  const body = objectAt(response.json, `the body of ${path}`);
  if (!Array.isArray(body.error) || !body.error.every((e) => typeof e === 'string')) bad(`${path}: error`);
  return { errors: body.error as string[], result: body.result };
}

function unixSecondsMonthsBefore(today: string, months: number): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (!match) throw new ConnectorError('provider_error', `today must be YYYY-MM-DD, got ${JSON.stringify(today)}.`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1 - months, Number(match[3])) / 1000;
}

export const createCryptoExchangeBConnector: ConnectorFactory = (context) => {
  const { config, http } = context;
  const baseUrl = (config.CRYPTO_EXCHANGE_B_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');

  /** A signed private call; the exchange's error strings become ConnectorErrors (credential errors: login_required). */
  async function privateCall(key: ApiKey, method: 'Balance' | 'Ledgers', params: Record<string, string> = {}): Promise<unknown> {
    const path = `/0/private/${method}`;
    for (let attempt = 1; ; attempt += 1) {
      const nonce = nextNonce();
      const postData = new URLSearchParams({ nonce, ...params }).toString();
      const response = await http.sendOk({
        method: 'POST',
        url: `${baseUrl}${path}`,
        body: postData,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'API-Key': key.key, 'API-Sign': signature(path, nonce, postData, key.secret) },
        // Balance and Ledgers are reads the exchange exposes as signed POSTs: safe to send again.
        idempotent: true,
      });
      const { errors, result } = envelopeOf(response, path);
      if (errors.length === 0) return result;
      // another caller of the same key may have sent a larger nonce a moment earlier: one fresh try
      if (matches(errors, [NONCE_ERROR]) && attempt === 1) continue;
      throw errorOf(errors, path);
    }
  }

  function errorOf(errors: string[], path: string): ConnectorError {
    const listed = errors.join(', ').slice(0, 200);
    if (matches(errors, CREDENTIAL_ERRORS)) return new ConnectorError('login_required', `The exchange refused the item's API key (${listed}): the user must connect a new key. ${PERMISSIONS_HINT}`, { code: errors[0] });
    if (matches(errors, RATE_LIMIT_ERRORS)) return new ConnectorError('rate_limited', `The exchange rate limited ${path} (${listed}).`, { code: errors[0] });
    return new ConnectorError('provider_error', `The exchange answered ${path} with ${listed}.`, { code: errors[0] });
  }

  async function tickers(): Promise<Map<string, number>> {
    const path = '/0/public/Ticker';
    const { errors, result } = envelopeOf(await http.sendOk({ method: 'GET', url: `${baseUrl}${path}` }), path);
    if (errors.length > 0) throw errorOf(errors, path);
    return readTickers(result);
  }

  function keyOf(connection: Connection): ApiKey {
    const key = connection.secrets?.api_key;
    const secret = connection.secrets?.api_secret;
    if (!key || !secret) throw new ConnectorError('login_required', 'The item holds no API key for the exchange: the user must connect again.');
    return { key, secret };
  }

  /** Every ledger entry after `start` (Unix seconds), following the offset pages to the reported count. */
  async function ledger(key: ApiKey, start: number): Promise<LedgerEntry[]> {
    const entries = new Map<string, LedgerEntry>();
    let offset = 0;
    for (let page = 0; ; page += 1) {
      if (page >= MAX_LEDGER_PAGES) throw new ConnectorError('provider_error', `The exchange ledger did not end after ${MAX_LEDGER_PAGES} pages.`);
      const result = objectAt(await privateCall(key, 'Ledgers', { start: String(Math.floor(start)), ofs: String(offset) }), 'Ledgers: result');
      const count = result.count;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) bad('Ledgers: result.count');
      const rows = Object.entries(objectAt(result.ledger ?? {}, 'Ledgers: result.ledger'));
      if (rows.length > LEDGER_PAGE) bad('Ledgers: result.ledger', `holds more than the ${LEDGER_PAGE} entries of a page`);
      // a new entry arriving mid-read shifts the offsets by one: the overlap is deduplicated by id
      for (const [id, raw] of rows) entries.set(id, readLedgerEntry(id, raw));
      offset += rows.length;
      if (rows.length === 0 || offset >= count) break;
    }
    return [...entries.values()].sort((a, b) => b.time - a.time);
  }

  const institutionName = (connection: Connection) => findInstitution(connection.institutionId)?.name ?? 'Crypto exchange';

  /**
   * The accounts of the item: every asset with a balance, every asset the item already reported
   * (an emptied one keeps its history's account) and every asset the ledger entries read now
   * touch. Prices are read only when an asset must be reported in USD.
   */
  async function accountsOf(connection: Connection, balances: Map<string, number>, alsoAssets: Iterable<string>) {
    const raws = new Set<string>();
    for (const [raw, amount] of balances) if (amount !== 0) raws.add(raw);
    for (const raw of alsoAssets) raws.add(raw);
    const assets = [...raws].filter((raw) => !NOT_ASSETS.has(raw)).sort().map(assetOf);
    const prices = assets.some((a) => !isIsoShaped(a.code)) ? await tickers() : new Map<string, number>();
    return {
      assets,
      accounts: assets.map((a) => toAccount(a, balances.get(a.raw) ?? 0, usdPriceOf(a, prices), connection.login, institutionName(connection))),
    };
  }

  async function pull(connection: Connection, today: string, cursor: Cursor | null): Promise<SourceBatch> {
    const key = keyOf(connection);
    const balances = readBalances(await privateCall(key, 'Balance'));
    const start = cursor ? Math.max(0, cursor.since - CURSOR_OVERLAP_SECONDS) : unixSecondsMonthsBefore(today, HISTORY_MONTHS);
    const entries = (await ledger(key, start)).filter((e) => !NOT_ASSETS.has(e.asset.raw));
    const { assets, accounts } = await accountsOf(connection, balances, [...(cursor?.assets ?? []), ...entries.map((e) => e.asset.raw)]);
    const upserted = entries.map((e) => toSourceTransaction(e, connection.login)).filter((t): t is SourceTransaction => t !== null);
    const since = entries.reduce((newest, e) => Math.max(newest, e.time), cursor?.since ?? start);
    return {
      accounts,
      // the ledger lists booked entries only and never withdraws one, so nothing is ever removed
      transactions: { kind: 'changes', upserted, removed: [] },
      cursor: JSON.stringify({ v: 1, since, assets: assets.map((a: Asset) => a.raw) } satisfies Cursor),
    };
  }

  return {
    id: CONNECTOR_ID,
    linkMethod: 'api_key',

    ...credentialsRefused('This exchange connects with a read-only API key.'),

    async connect(institutionId: string, input: ConsentInput): Promise<LoginResult> {
      if (input.method !== 'api_key') return { status: 'invalid_credentials', message: 'This exchange connects with a read-only API key.' };
      const key = { key: input.apiKey.trim(), secret: input.apiSecret.trim() };
      const problem = keyShapeProblem(key.key, key.secret);
      if (problem) return { status: 'invalid_credentials', message: problem };
      try {
        // proves both permissions the item needs: Query Funds (Balance) and Query Ledger Entries (Ledgers)
        await privateCall(key, 'Balance');
        await privateCall(key, 'Ledgers', { ofs: '0' });
      } catch (err) {
        if (err instanceof ConnectorError && err.kind === 'login_required') {
          return { status: 'invalid_credentials', message: `The exchange refused this API key (${err.details.code ?? 'refused'}). ${PERMISSIONS_HINT}` };
        }
        throw err;
      }
      return { status: 'connected', connection: { institutionId, login: loginOf(key.key) }, secrets: { api_key: key.key, api_secret: key.secret } };
    },

    async accounts(connection) {
      const balances = readBalances(await privateCall(keyOf(connection), 'Balance'));
      return (await accountsOf(connection, balances, readCursor(connection.cursor)?.assets ?? [])).accounts;
    },

    initialHistory: (connection, today) => pull(connection, today, null),

    refresh: (connection, today) => pull(connection, today, readCursor(connection.cursor)),

    async identity() {
      throw new ConnectorError('provider_error', 'Identity is not offered by this connector.');
    },

    async liabilities() {
      throw new ConnectorError('provider_error', 'Liabilities are not offered by this connector.');
    },

    async investments(connection) {
      const balances = readBalances(await privateCall(keyOf(connection), 'Balance'));
      const held = [...balances].filter(([raw, amount]) => amount !== 0 && !NOT_ASSETS.has(raw)).map(([raw, amount]) => ({ asset: assetOf(raw), amount }));
      const crypto = held.filter((h) => !h.asset.isFiat);
      const prices = crypto.length > 0 ? await tickers() : new Map<string, number>();
      const holdings = crypto.map((h) => toHolding(h.asset, h.amount, usdPriceOf(h.asset, prices), connection.login));
      // trades are reported as transactions of the asset accounts; the ledger carries no per-trade price in USD
      return { holdings, securities: holdings.map((h) => h.security), investment_transactions: [] };
    },
  };
};
