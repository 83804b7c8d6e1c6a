// The open-banking connector for UK and EU banks, over the GoCardless Bank Account Data API v2
// (formerly Nordigen): regulated account-information access where the user consents on the bank's
// own site. Link: an end-user agreement and a requisition per consent (`beginOauth`), the
// requisition's status when the user is back (`connect`); the item's login is the requisition id.
// The operator's secret id and key buy a service token (service-token.ts); the user's consent
// lives at the provider, so items hold no per-item secrets.
//
// Account endpoints count against the bank's own daily budget (four calls a day per account and
// scope is the guaranteed minimum), so nothing here retries them inline: a failure ends the pull
// and the service's refresh schedule tries again later.
import { performance } from 'node:perf_hooks';
import {
  ConnectorError,
  type Connection,
  type ConnectorFactory,
  type ConnectorPort,
  type ProviderHttp,
  type ProviderRequest,
  type ProviderResponse,
  type SourceBatch,
  type SourceTransaction,
} from '../../core/connector-port';
import { findConnector } from '../../core/connectors';
import { findInstitution } from '../../core/institutions';
import type { AccountRecord } from '../../contracts/schemas';
import { stableId } from '../ids';
import {
  addDays,
  agreementTerms,
  decodeCursor,
  encodeCursor,
  errorFields,
  isConsentGone,
  matchInstitution,
  newestFirst,
  OPEN_BANKING_EU_ID,
  pendingOf,
  rateLimitResetSeconds,
  readAccountDetails,
  readAgreementHistoryDays,
  readBalances,
  readCreatedId,
  readInstitutions,
  readRequisition,
  readTransactions,
  REFRESH_OVERLAP_DAYS,
  requisitionRefusal,
  toAccount,
  toIdentity,
  DEFAULT_HISTORY_DAYS,
  type AccountDetails,
  type ProviderInstitution,
  type Requisition,
} from './mapping';
import { serviceTokens, type ServiceTokenCache } from './service-token';
import { credentialsRefused } from '../payload';

export const DEFAULT_BASE_URL = 'https://bankaccountdata.gocardless.com/api/v2';
/** The language of the provider's consent screens (it falls back to English where it lacks one). */
const USER_LANGUAGE = 'EN';
const ACCESS_SCOPE = ['balances', 'details', 'transactions'];

/** What the requests are about: decides what a 404 means. */
type Scope = 'requisition' | 'account' | 'other';

export interface OpenBankingEuOptions {
  /** Service tokens shared between adapter instances; the process-wide cache by default. */
  tokenCache?: ServiceTokenCache;
  /** A monotonic millisecond counter for token lifetimes; performance.now by default. */
  nowMs?: () => number;
}

const processTokenCache: ServiceTokenCache = new Map();

interface ProviderAccount {
  providerAccountId: string;
  account: AccountRecord;
  details: AccountDetails;
}

function notOffered(product: string): never {
  throw new ConnectorError('provider_error', `${product} is not offered by this connector.`);
}

/** A factory with its own token cache and counter (tests); production uses createOpenBankingEuConnector. */
export function openBankingEuConnectorFactory(options: OpenBankingEuOptions = {}): ConnectorFactory {
  const cache = options.tokenCache ?? processTokenCache;
  const nowMs = options.nowMs ?? (() => performance.now());
  return (context) => buildConnector(context.http, context.config, cache, nowMs);
}

export const createOpenBankingEuConnector: ConnectorFactory = openBankingEuConnectorFactory();

function buildConnector(http: ProviderHttp, config: Readonly<Record<string, string>>, cache: ServiceTokenCache, nowMs: () => number): ConnectorPort {
  const baseUrl = (config.OPEN_BANKING_EU_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const secretId = config.OPEN_BANKING_EU_CLIENT_ID ?? '';
  const secretKey = config.OPEN_BANKING_EU_CLIENT_SECRET ?? '';
  const tokens = serviceTokens({ http, baseUrl, secretId, secretKey, cache, nowMs });

  /** Provider text that may reach a message, with anything secret-looking of ours taken out. */
  function quoted(text: string): string {
    let out = text.replace(/\s+/g, ' ').trim().slice(0, 200);
    for (const secret of [secretKey, ...[...cache.values()].flatMap((t) => [t.access, t.refresh ?? ''])]) {
      if (secret.length >= 8) out = out.split(secret).join('[redacted]');
    }
    return out;
  }

  function failureOf(res: ProviderResponse, what: string, scope: Scope): ConnectorError {
    const status = res.status;
    if (status === 429) {
      const retryAfterSeconds = rateLimitResetSeconds(res.headers, res.json);
      const bank = errorFields(res.json).type === 'RateLimitError' ? 'the bank\u2019s daily limit' : 'its API limit';
      return new ConnectorError('rate_limited', `The open banking provider rate limited ${what} (${bank}).`, {
        status,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
    }
    if ((status === 401 || status === 403 || status === 409) && isConsentGone(res.json)) {
      return new ConnectorError('login_required', 'The bank consent has expired or was revoked: the user must reconnect the account.', { status });
    }
    if (status === 404 && scope === 'requisition') {
      return new ConnectorError('login_required', 'The bank consent no longer exists at the open banking provider: the user must reconnect.', { status });
    }
    if (status === 401) return new ConnectorError('provider_error', `The open banking provider refused the service token for ${what}.`, { status });
    const summary = quoted(errorFields(res.json).summary);
    return new ConnectorError('provider_error', `The open banking provider answered ${status} to ${what}${summary ? `: ${summary}` : ''}.`, { status });
  }

  /**
   * One authorized request. A 401 that is not about the user's consent means our service token
   * was refused (expired early, revoked): it is replaced and the request sent once more.
   */
  async function call(
    request: Omit<ProviderRequest, 'url' | 'headers'> & { path: string },
    what: string,
    scope: Scope,
    allow: readonly number[] = [],
  ): Promise<ProviderResponse> {
    if (secretId === '' || secretKey === '') throw new ConnectorError('provider_error', 'The open banking connector is not configured (OPEN_BANKING_EU_CLIENT_ID / OPEN_BANKING_EU_CLIENT_SECRET).');
    const { path, ...rest } = request;
    for (let attempt = 0; ; attempt += 1) {
      const access = await tokens.access();
      const res = await http.send({ ...rest, url: `${baseUrl}${path}`, headers: { authorization: `Bearer ${access}` } });
      if ((res.status >= 200 && res.status < 300) || allow.includes(res.status)) return res;
      if (res.status === 401 && attempt === 0 && !isConsentGone(res.json)) {
        tokens.invalidate(access);
        continue;
      }
      throw failureOf(res, what, scope);
    }
  }

  /** The body of a successful answer; an empty or non-JSON body is a provider_error. */
  function body(res: ProviderResponse, what: string): unknown {
    if (res.json === undefined) throw new ConnectorError('provider_error', `The open banking provider sent an unreadable answer to ${what}.`, { status: res.status });
    return res.json;
  }

  const requisitionPath = (id: string) => `/requisitions/${encodeURIComponent(id)}/`;
  const accountPath = (id: string, part: 'details' | 'balances' | 'transactions') => `/accounts/${encodeURIComponent(id)}/${part}/`;

  /** The item's requisition, which must still be linked; anything else means the user must consent again. */
  async function linkedRequisition(login: string): Promise<Requisition> {
    const req = readRequisition(body(await call({ method: 'GET', path: requisitionPath(login) }, 'the consent lookup', 'requisition'), 'the consent lookup'));
    if (req.status !== 'LN') throw new ConnectorError('login_required', `The bank consent is no longer active (${req.status.slice(0, 8)}): the user must reconnect.`);
    if (req.accountIds.length === 0) throw new ConnectorError('login_required', 'The bank consent grants access to no account: the user must reconnect.');
    return req;
  }

  async function agreementHistoryDays(agreementId: string | null): Promise<number> {
    if (agreementId === null) return DEFAULT_HISTORY_DAYS;
    const res = await call({ method: 'GET', path: `/agreements/enduser/${encodeURIComponent(agreementId)}/` }, 'the agreement lookup', 'other');
    return readAgreementHistoryDays(body(res, 'the agreement lookup'));
  }

  async function readAccount(connection: Connection, providerAccountId: string, index: number): Promise<ProviderAccount> {
    const detailsRes = await call({ method: 'GET', path: accountPath(providerAccountId, 'details') }, 'an account details read', 'account');
    const details = readAccountDetails(body(detailsRes, 'an account details read'), `accounts[${index}].details`);
    const balancesRes = await call({ method: 'GET', path: accountPath(providerAccountId, 'balances') }, 'an account balances read', 'account');
    const balances = readBalances(body(balancesRes, 'an account balances read'), `accounts[${index}].balances`);
    const institutionName = findInstitution(connection.institutionId)?.name ?? 'Bank';
    const accountId = stableId('acc', OPEN_BANKING_EU_ID, connection.login, providerAccountId);
    return { providerAccountId, details, account: toAccount({ accountId, details, balances, institutionName }) };
  }

  async function readAccountTransactions(connection: Connection, account: ProviderAccount, index: number, from: string, to: string): Promise<SourceTransaction[]> {
    const res = await call(
      { method: 'GET', path: accountPath(account.providerAccountId, 'transactions'), query: { date_from: from, date_to: to } },
      'a transactions read',
      'account',
    );
    return readTransactions(body(res, 'a transactions read'), {
      login: connection.login,
      providerAccountId: account.providerAccountId,
      accountId: account.account.account_id,
      path: `accounts[${index}].transactions`,
    });
  }

  /**
   * One pull: every account of the consent with its balances and its transactions from `from`
   * (or the whole agreement range) to today. Any failed read fails the pull: never a partial batch.
   */
  async function pull(connection: Connection, today: string, mode: 'initial' | 'refresh'): Promise<SourceBatch> {
    const req = await linkedRequisition(connection.login);
    const cursor = mode === 'refresh' ? decodeCursor(connection.cursor) : null;
    const historyDays = cursor?.historyDays ?? (await agreementHistoryDays(req.agreementId));
    const earliest = addDays(today, -(historyDays - 1));
    let from = earliest;
    if (cursor) {
      // Re-read the overlap, and far enough back that every pending row we reported is re-read
      // (so one that vanished can be reported removed), but never before what the consent grants.
      const oldestPending = Object.values(cursor.pending).flat().reduce((min, [, date]) => (date < min ? date : min), '9999-12-31');
      const resume = addDays(cursor.to, -REFRESH_OVERLAP_DAYS);
      from = [resume, oldestPending].reduce((a, b) => (b < a ? b : a));
      if (from < earliest) from = earliest;
      if (from > today) from = today;
    }

    const accounts: ProviderAccount[] = [];
    const transactions: SourceTransaction[] = [];
    const removed: string[] = [];
    for (const [index, providerAccountId] of req.accountIds.entries()) {
      const account = await readAccount(connection, providerAccountId, index);
      const read = await readAccountTransactions(connection, account, index, from, today);
      accounts.push(account);
      transactions.push(...read);
      if (cursor) {
        const reported = new Set(read.map((t) => t.transaction_id));
        for (const [id, date] of cursor.pending[account.account.account_id] ?? []) if (date >= from && !reported.has(id)) removed.push(id);
      }
    }
    const nextCursor = encodeCursor({ to: today, historyDays, pending: pendingOf(transactions) });
    const sorted = newestFirst(transactions);
    return {
      accounts: accounts.map((a) => a.account),
      // The initial read holds the agreement's whole range for every account: a complete window.
      // A refresh re-reads only part of it, so it reports changes (removals computed from the cursor).
      transactions: mode === 'initial' ? { kind: 'window', transactions: sorted } : { kind: 'changes', upserted: sorted, removed: [...new Set(removed)] },
      cursor: nextCursor,
    };
  }

  async function providerInstitutionFor(institutionId: string): Promise<ProviderInstitution> {
    const ours = findInstitution(institutionId);
    if (!ours) throw new ConnectorError('provider_error', 'This institution is not in the catalog.');
    const served = findConnector(OPEN_BANKING_EU_ID)?.countries ?? 'any';
    const countries = ours.country_codes.filter((c) => served === 'any' || served.includes(c));
    for (const country of countries) {
      const res = await call({ method: 'GET', path: '/institutions/', query: { country: country.toLowerCase() } }, 'the institution list', 'other');
      const match = matchInstitution(ours, readInstitutions(body(res, 'the institution list'), country));
      if (match) return match;
    }
    throw new ConnectorError('provider_error', `${ours.name} is not offered by the open banking provider${countries.length ? ` in ${countries.join(', ')}` : ''}.`);
  }

  return {
    id: OPEN_BANKING_EU_ID,
    linkMethod: 'oauth',

    ...credentialsRefused('This institution connects through the bank\u2019s own consent page.'),

    async beginOauth({ institutionId, state, redirectUri }) {
      const institution = await providerInstitutionFor(institutionId);
      const terms = agreementTerms(institution);
      const agreementRes = await call(
        {
          method: 'POST',
          path: '/agreements/enduser/',
          json: {
            institution_id: institution.id,
            max_historical_days: terms.maxHistoricalDays,
            access_valid_for_days: terms.accessValidForDays,
            access_scope: ACCESS_SCOPE,
          },
        },
        'the agreement creation',
        'other',
      );
      const agreementId = readCreatedId(body(agreementRes, 'the agreement creation'), 'agreement');
      const requisitionRes = await call(
        {
          method: 'POST',
          path: '/requisitions/',
          json: { redirect: redirectUri, institution_id: institution.id, reference: state, agreement: agreementId, user_language: USER_LANGUAGE },
        },
        'the consent creation',
        'other',
      );
      const requisition = readRequisition(body(requisitionRes, 'the consent creation'));
      const link = requisition.link;
      if (link === null || !/^https?:$/.test(safeProtocol(link))) throw new ConnectorError('provider_error', 'The open banking provider sent no usable consent link.');
      return { authorizeUrl: link, pending: { requisition_id: requisition.id, agreement_id: agreementId } };
    },

    async connect(institutionId, input) {
      if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This institution connects through the bank\u2019s own consent page.' };
      // The provider's redirect carries only `?ref=<reference>`: the requisition kept at beginOauth is what counts.
      const requisitionId = input.pending.requisition_id ?? '';
      if (requisitionId === '') return { status: 'invalid_credentials', message: 'The consent session is incomplete. Please start again.' };
      const res = await call({ method: 'GET', path: requisitionPath(requisitionId) }, 'the consent lookup', 'other', [404]);
      if (res.status === 404) return { status: 'invalid_credentials', message: 'The consent was not found at the open banking provider. Please start again.' };
      const requisition = readRequisition(body(res, 'the consent lookup'));
      if (requisition.status !== 'LN') return { status: 'invalid_credentials', message: requisitionRefusal(requisition.status) };
      if (requisition.accountIds.length === 0) {
        return { status: 'invalid_credentials', message: 'No account was shared during the consent. Please start again and select at least one account.' };
      }
      return { status: 'connected', connection: { institutionId, login: requisition.id } };
    },

    async disconnect(connection) {
      // Deleting the requisition also deletes its end-user agreement; one already gone is fine.
      await call({ method: 'DELETE', path: requisitionPath(connection.login) }, 'the consent deletion', 'other', [404]);
    },

    async accounts(connection) {
      const req = await linkedRequisition(connection.login);
      const out: AccountRecord[] = [];
      for (const [index, providerAccountId] of req.accountIds.entries()) out.push((await readAccount(connection, providerAccountId, index)).account);
      return out;
    },

    initialHistory(connection, today) {
      return pull(connection, today, 'initial');
    },

    refresh(connection, today) {
      return pull(connection, today, 'refresh');
    },

    async identity(connection) {
      const req = await linkedRequisition(connection.login);
      const owners: Array<{ accountId: string; ownerName: string | null }> = [];
      for (const [index, providerAccountId] of req.accountIds.entries()) {
        const res = await call({ method: 'GET', path: accountPath(providerAccountId, 'details') }, 'an account details read', 'account');
        const details = readAccountDetails(body(res, 'an account details read'), `accounts[${index}].details`);
        owners.push({ accountId: stableId('acc', OPEN_BANKING_EU_ID, connection.login, providerAccountId), ownerName: details.ownerName });
      }
      const identity = toIdentity(owners);
      if (identity.owners.length === 0) throw new ConnectorError('provider_error', 'Identity is not offered for this institution: the bank reports no account holder name.');
      return identity;
    },

    async liabilities() {
      return notOffered('Liabilities');
    },

    async investments() {
      return notOffered('Investments');
    },
  };
}

function safeProtocol(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}
