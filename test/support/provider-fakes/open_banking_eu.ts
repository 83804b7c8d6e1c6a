// A loopback fake of the GoCardless Bank Account Data API v2 (the open_banking_eu connector's
// provider), serving its documented shapes: service tokens (new + refresh), institutions by
// country, end-user agreements, requisitions, and account details / balances / transactions. It
// checks what the provider checks (secret id and key, the bearer token, required fields, agreement
// limits, date ranges) and answers the provider's error bodies when a request is wrong, so a wrong
// request fails the test. Documented failure modes are queued with `server.fail(...)`.
import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const OB_PREFIX = '/api/v2';
export const OB_SECRET_ID = 'fake-secret-id-0001';
export const OB_SECRET_KEY = 'fake-secret-key-must-stay-secret-0001';

type Json = Record<string, unknown>;

export interface FakeInstitution {
  id: string;
  name: string;
  transaction_total_days?: string;
  max_access_valid_for_days?: string;
  countries: string[];
}

export interface FakeAccount {
  details: Json;
  balances: Json[];
  booked: Json[];
  pending: Json[];
}

export interface FakeRequisition {
  id: string;
  status: string;
  institution_id: string;
  agreement: string;
  reference: string;
  redirect: string;
  accounts: string[];
}

export interface FakeAgreement {
  id: string;
  institution_id: string;
  max_historical_days: number;
  access_valid_for_days: number;
  access_scope: string[];
}

export interface OpenBankingEuFake {
  server: FakeServer;
  /** The adapter's OPEN_BANKING_EU_BASE_URL. */
  baseUrl: string;
  /** The day the fake believes it is (agreement limits on date_from are checked against it). */
  today: string;
  institutions: FakeInstitution[];
  agreements: Map<string, FakeAgreement>;
  requisitions: Map<string, FakeRequisition>;
  accounts: Map<string, FakeAccount>;
  /** Access tokens issued and still honoured; clear it to simulate the provider expiring them. */
  validAccess: Set<string>;
  validRefresh: Set<string>;
  /** Counts of token grants, by endpoint. */
  grants: { new: number; refresh: number };
  /** The user completes the consent at the bank and shares these accounts. */
  completeConsent(requisitionId: string, accountIds: string[], status?: string): void;
  /** A linked consent set up directly (what beginOauth + the bank would leave behind). */
  linkedConsent(args: { institutionId: string; maxHistoricalDays?: number; accounts: Record<string, FakeAccount> }): FakeRequisition;
  /** Requests to the provider's API paths (prefix removed), for assertions. */
  calls(): Array<{ method: string; path: string; query: URLSearchParams }>;
  close(): Promise<void>;
}

const invalidToken: FakeResponse = { status: 401, body: { summary: 'Invalid token', detail: 'Token is invalid or expired', status_code: 401 } };
const notFound: FakeResponse = { status: 404, body: { summary: 'Not found.', detail: 'Not found.', status_code: 404 } };
const badRequest = (field: string, summary: string): FakeResponse => ({ status: 400, body: { [field]: { summary, detail: summary }, status_code: 400 } });

const isDay = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const rowDate = (row: Json): string => String(row.bookingDate ?? row.valueDate ?? '');

export async function startOpenBankingEuFake(options: { today: string; institutions?: FakeInstitution[] }): Promise<OpenBankingEuFake> {
  const fake = {
    today: options.today,
    institutions: options.institutions ?? [],
    agreements: new Map<string, FakeAgreement>(),
    requisitions: new Map<string, FakeRequisition>(),
    accounts: new Map<string, FakeAccount>(),
    validAccess: new Set<string>(),
    validRefresh: new Set<string>(),
    grants: { new: 0, refresh: 0 },
  };
  /** Which agreement governs an account (for the history limit). */
  const agreementOfAccount = (accountId: string): FakeAgreement | undefined => {
    for (const r of fake.requisitions.values()) if (r.accounts.includes(accountId)) return fake.agreements.get(r.agreement);
    return undefined;
  };

  const route = (req: FakeRequest): FakeResponse => {
    if (!req.path.startsWith(`${OB_PREFIX}/`)) return notFound;
    const path = req.path.slice(OB_PREFIX.length);
    const body = (typeof req.parsed === 'object' && req.parsed !== null ? req.parsed : {}) as Json;

    if (req.method === 'POST' && path === '/token/new/') {
      if (!String(req.headers['content-type']).includes('application/json')) return { status: 415, body: { detail: 'Unsupported media type', status_code: 415 } };
      if (body.secret_id !== OB_SECRET_ID || body.secret_key !== OB_SECRET_KEY) {
        return { status: 401, body: { summary: 'Authentication failed', detail: 'No active account found with the given credentials', status_code: 401 } };
      }
      fake.grants.new += 1;
      const access = `access-${randomUUID()}`;
      const refresh = `refresh-${randomUUID()}`;
      fake.validAccess.add(access);
      fake.validRefresh.add(refresh);
      return { status: 200, body: { access, access_expires: 86_400, refresh, refresh_expires: 2_592_000 } };
    }
    if (req.method === 'POST' && path === '/token/refresh/') {
      if (typeof body.refresh !== 'string' || !fake.validRefresh.has(body.refresh)) return invalidToken;
      fake.grants.refresh += 1;
      const access = `access-${randomUUID()}`;
      fake.validAccess.add(access);
      return { status: 200, body: { access, access_expires: 86_400 } };
    }

    const auth = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth) return { status: 401, body: { summary: 'Authentication credentials were not provided.', detail: 'Authentication credentials were not provided.', status_code: 401 } };
    if (!fake.validAccess.has(auth[1])) return invalidToken;

    if (req.method === 'GET' && path === '/institutions/') {
      const country = req.query.get('country');
      if (!country) return badRequest('country', 'This field is required.');
      return { status: 200, body: fake.institutions.filter((i) => i.countries.includes(country.toUpperCase())) };
    }

    if (req.method === 'POST' && path === '/agreements/enduser/') {
      const inst = fake.institutions.find((i) => i.id === body.institution_id);
      if (!inst) return badRequest('institution_id', 'Unknown Institution ID');
      const days = body.max_historical_days;
      const valid = body.access_valid_for_days;
      if (typeof days !== 'number' || days < 1 || days > Number(inst.transaction_total_days ?? 90)) {
        return badRequest('max_historical_days', `max_historical_days must be > 0 and <= ${inst.transaction_total_days ?? 90}`);
      }
      if (typeof valid !== 'number' || valid < 1 || valid > Number(inst.max_access_valid_for_days ?? 90)) {
        return badRequest('access_valid_for_days', `access_valid_for_days must be > 0 and <= ${inst.max_access_valid_for_days ?? 90}`);
      }
      const scope = body.access_scope;
      if (!Array.isArray(scope) || scope.some((s) => !['balances', 'details', 'transactions'].includes(String(s)))) return badRequest('access_scope', 'Invalid access scope');
      const agreement: FakeAgreement = { id: randomUUID(), institution_id: inst.id, max_historical_days: days, access_valid_for_days: valid, access_scope: scope.map(String) };
      fake.agreements.set(agreement.id, agreement);
      return { status: 201, body: { ...agreement, created: `${fake.today}T10:00:00Z`, accepted: null } };
    }
    const agreementMatch = /^\/agreements\/enduser\/([^/]+)\/$/.exec(path);
    if (req.method === 'GET' && agreementMatch) {
      const agreement = fake.agreements.get(agreementMatch[1]);
      return agreement ? { status: 200, body: { ...agreement, created: `${fake.today}T10:00:00Z`, accepted: `${fake.today}T10:05:00Z` } } : notFound;
    }

    if (req.method === 'POST' && path === '/requisitions/') {
      for (const field of ['redirect', 'institution_id', 'reference', 'agreement']) if (typeof body[field] !== 'string' || body[field] === '') return badRequest(field, 'This field is required.');
      const agreement = fake.agreements.get(String(body.agreement));
      if (!agreement) return badRequest('agreement', 'Unknown agreement');
      if (agreement.institution_id !== body.institution_id) return badRequest('agreement', 'Provided institution_id is different from the agreement');
      if ([...fake.requisitions.values()].some((r) => r.reference === body.reference)) return badRequest('reference', 'Client reference must be unique');
      const requisition: FakeRequisition = {
        id: randomUUID(),
        status: 'CR',
        institution_id: String(body.institution_id),
        agreement: agreement.id,
        reference: String(body.reference),
        redirect: String(body.redirect),
        accounts: [],
      };
      fake.requisitions.set(requisition.id, requisition);
      return { status: 201, body: requisitionBody(requisition) };
    }
    const requisitionMatch = /^\/requisitions\/([^/]+)\/$/.exec(path);
    if (requisitionMatch) {
      const requisition = fake.requisitions.get(requisitionMatch[1]);
      if (!requisition) return notFound;
      if (req.method === 'GET') return { status: 200, body: requisitionBody(requisition) };
      if (req.method === 'DELETE') {
        fake.requisitions.delete(requisition.id);
        fake.agreements.delete(requisition.agreement);
        return { status: 200, body: { summary: 'Requisition deleted', detail: `Requisition ${requisition.id} deleted with all its End User Agreements` } };
      }
    }

    const accountMatch = /^\/accounts\/([^/]+)\/(details|balances|transactions)\/$/.exec(path);
    if (req.method === 'GET' && accountMatch) {
      const account = fake.accounts.get(accountMatch[1]);
      if (!account) return notFound;
      if (accountMatch[2] === 'details') return { status: 200, body: { account: account.details } };
      if (accountMatch[2] === 'balances') return { status: 200, body: { balances: account.balances } };
      const from = req.query.get('date_from');
      const to = req.query.get('date_to');
      if (from !== null && !isDay(from)) return badRequest('date_from', 'Invalid date format');
      if (to !== null && !isDay(to)) return badRequest('date_to', 'Invalid date format');
      if (to !== null && to > fake.today) return badRequest('date_to', 'Date can not be in future');
      const agreement = agreementOfAccount(accountMatch[1]);
      const earliest = addDays(fake.today, -((agreement?.max_historical_days ?? 90) - 1));
      if (from !== null && from < earliest) {
        return badRequest('date_from', `Date too far in the past: the end user agreement allows ${agreement?.max_historical_days ?? 90} days of history`);
      }
      // A row without a date cannot be placed in the range: it is served, as a careless bank would.
      const inRange = (row: Json) => rowDate(row) === '' || ((from === null || rowDate(row) >= from) && (to === null || rowDate(row) <= to));
      return { status: 200, body: { transactions: { booked: account.booked.filter(inRange), pending: account.pending.filter(inRange) }, last_updated: `${fake.today}T09:00:00Z` } };
    }
    return notFound;
  };

  function requisitionBody(r: FakeRequisition): Json {
    return {
      id: r.id,
      created: `${fake.today}T10:00:00Z`,
      redirect: r.redirect,
      status: r.status,
      institution_id: r.institution_id,
      agreement: r.agreement,
      reference: r.reference,
      accounts: r.accounts,
      user_language: 'EN',
      link: `https://ob.gocardless.com/ob-psd2/start/${r.id}/${r.institution_id}`,
      ssn: null,
      account_selection: false,
      redirect_immediate: false,
    };
  }

  const server = await startFakeServer(route);
  return Object.assign(fake, {
    server,
    baseUrl: `${server.url}${OB_PREFIX}`,
    completeConsent(requisitionId: string, accountIds: string[], status = 'LN') {
      const r = fake.requisitions.get(requisitionId);
      if (!r) throw new Error(`no requisition ${requisitionId}`);
      r.status = status;
      r.accounts = accountIds;
    },
    linkedConsent(args: { institutionId: string; maxHistoricalDays?: number; accounts: Record<string, FakeAccount> }) {
      const agreement: FakeAgreement = {
        id: randomUUID(),
        institution_id: args.institutionId,
        max_historical_days: args.maxHistoricalDays ?? 730,
        access_valid_for_days: 180,
        access_scope: ['balances', 'details', 'transactions'],
      };
      fake.agreements.set(agreement.id, agreement);
      for (const [id, account] of Object.entries(args.accounts)) fake.accounts.set(id, account);
      const requisition: FakeRequisition = {
        id: randomUUID(),
        status: 'LN',
        institution_id: args.institutionId,
        agreement: agreement.id,
        reference: randomUUID(),
        redirect: 'https://link.example/oauth/callback',
        accounts: Object.keys(args.accounts),
      };
      fake.requisitions.set(requisition.id, requisition);
      return requisition;
    },
    calls() {
      return server.requests.filter((r) => r.path.startsWith(OB_PREFIX)).map((r) => ({ method: r.method, path: r.path.slice(OB_PREFIX.length), query: r.query }));
    },
    close: () => server.close(),
  });
}
