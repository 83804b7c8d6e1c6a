// A loopback fake of Aggregator D's documented API: the identity provider's token endpoint (client
// id and secret as HTTP Basic; authorization-code and rotating refresh-token grants; OAuth error
// bodies) and revocation, and the FDX-style data API (id token as bearer): balances, per-account
// transactions by startTime/endTime with offset/limit paging and `links.next`, the current
// customer and investments, with FDX error bodies `{code, message}`. One server serves both hosts.
// Values are invented; shapes follow the provider's public reference.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const D_CLIENT_ID = 'client-d-5521';
export const D_CLIENT_SECRET = 'client-secret-d-very-private';
export const D_PROVIDER = 'mikomo';
export const D_CODE = 'auth-code-d-1';
export const D_SUBJECT = 'user-8842';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** An id token with the given subject and generation (unsigned: the adapter reads, never verifies, it). */
export const idToken = (generation: number, sub = D_SUBJECT) => `${b64({ alg: 'RS256' })}.${b64({ sub, iss: 'fake', gen: generation })}.sig${generation}`;
export const refreshToken = (generation: number) => `refresh-d-${generation}`;

const fdxError = (status: number, code: number, message: string): FakeResponse => ({ status, body: { code, message } });
const oauthError = (status: number, error: string): FakeResponse => ({ status, body: { error, error_description: `invented description of ${error}` } });

export const deposit = { depositAccount: { accountId: 'dep-001', accountNumberDisplay: 'xxxx4321', productName: 'Premier Checking', nickname: null, accountType: 'CHECKING', currency: { currencyCode: 'USD' }, currentBalance: 2044.31, availableBalance: 1999.01, balanceAsOf: '2026-07-01T04:00:00Z' } };
export const loc = { locAccount: { accountId: 'loc-9', accountNumberDisplay: '7788', productName: 'Travel Card', accountType: 'CREDITCARD', currentBalance: 512.7, availableCredit: 4487.3, creditLine: 5000 } };

export function depositTxn(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { depositTransaction: { accountId: 'dep-001', transactionId: id, postedTimestamp: '2026-06-25T00:00:00Z', transactionTimestamp: '2026-06-24T15:10:00Z', description: 'ACH DEBIT UTILITY CO', debitCreditMemo: 'DEBIT', status: 'POSTED', amount: 88.12, ...overrides } };
}

export interface AggregatorDState {
  accounts: unknown[];
  /** Transactions by provider account id. */
  transactions: Record<string, unknown[]>;
  customer: unknown;
  investments: unknown;
  /** Current token generation: only its id token and refresh token are valid. */
  generation: number;
  /** Whether the current id token has expired (the data API answers 401 until a rotation). */
  idTokenExpired: boolean;
  /** Whether the refresh token was revoked (the token endpoint answers invalid_grant). */
  refreshRevoked: boolean;
  revoked: string[];
  /** An offset whose page answers 500 (a page failing in the middle of pagination). */
  failingOffset: number | null;
  /** Replaces the body of the transactions page at this offset (hostile payloads). */
  pageOverride: { offset: number; body: unknown } | null;
}

export function defaultState(): AggregatorDState {
  return {
    accounts: [deposit, loc],
    transactions: {
      'dep-001': [
        depositTxn('tr-1'),
        depositTxn('tr-2', { debitCreditMemo: 'CREDIT', description: 'PAYROLL ACME CORP', amount: 2500, postedTimestamp: '2026-06-15T00:00:00Z', transactionTimestamp: '2026-06-15T00:00:00Z' }),
        depositTxn('tr-3', { status: 'PENDING', postedTimestamp: null, transactionTimestamp: '2026-06-30T18:00:00Z', amount: 40.01, description: 'CARD AUTH GROCERY' }),
      ],
      'loc-9': [{ locTransaction: { accountId: 'loc-9', transactionId: 'lt-1', postedTimestamp: '2025-02-01T00:00:00Z', description: 'AIRLINE', debitCreditMemo: 'DEBIT', status: 'POSTED', amount: 310.4 } }],
    },
    customer: { customer: { customerId: 'c-1', name: { first: 'Alex', last: 'Example' }, addresses: [{ line1: '1 Main St', city: 'Springfield', region: 'IL', postalCode: '62701', country: 'US' }], email: ['alex@example.com'], telephones: [{ type: 'CELL', number: '5555550100' }] } },
    investments: { accounts: [] },
    generation: 1,
    idTokenExpired: false,
    refreshRevoked: false,
    revoked: [],
    failingOffset: null,
    pageOverride: null,
  };
}

const basic = `Basic ${Buffer.from(`${D_CLIENT_ID}:${D_CLIENT_SECRET}`).toString('base64')}`;

function route(state: AggregatorDState) {
  return (req: FakeRequest): FakeResponse => {
    const form = (req.parsed ?? {}) as Record<string, string>;
    if (req.path === '/token' || req.path === '/revoke') {
      if (req.method !== 'POST' || !String(req.headers['content-type']).includes('application/x-www-form-urlencoded')) return oauthError(400, 'invalid_request');
      if (req.headers.authorization !== basic) return oauthError(401, 'invalid_client');
      if (req.path === '/revoke') {
        state.revoked.push(form.token);
        return { status: 200, body: '' };
      }
      if (form.grant_type === 'authorization_code') {
        if (form.code !== D_CODE || !form.redirect_uri) return oauthError(400, 'invalid_grant');
        return { status: 200, body: { id_token: idToken(state.generation), refresh_token: refreshToken(state.generation), access_token: 'opaque', token_type: 'bearer', expires_in: 900 } };
      }
      if (form.grant_type === 'refresh_token') {
        if (state.refreshRevoked || form.refresh_token !== refreshToken(state.generation)) return oauthError(400, 'invalid_grant');
        state.generation += 1;
        state.idTokenExpired = false;
        return { status: 200, body: { id_token: idToken(state.generation), refresh_token: refreshToken(state.generation), token_type: 'bearer', expires_in: 900 } };
      }
      return oauthError(400, 'unsupported_grant_type');
    }

    if (req.method !== 'GET') return fdxError(405, 405, 'Method not allowed');
    if (req.headers.authorization !== `Bearer ${idToken(state.generation)}` || state.idTokenExpired) return fdxError(401, 602, 'Customer not authorized');
    const parts = req.path.split('/').filter(Boolean);
    if (parts[1] !== 'v2' || parts[2] !== D_PROVIDER) return fdxError(404, 1100, 'Unknown provider');
    switch (parts[0]) {
      case 'balances':
        return { status: 200, body: { accounts: state.accounts } };
      case 'customers':
        return parts[3] === 'current' ? { status: 200, body: state.customer } : fdxError(404, 601, 'Customer not found');
      case 'investments':
        return { status: 200, body: state.investments };
      case 'transactions': {
        const rows = state.transactions[decodeURIComponent(parts[3] ?? '')];
        if (!rows) return fdxError(404, 701, 'Account not found');
        const startTime = req.query.get('startTime');
        const endTime = req.query.get('endTime');
        if ((startTime === null) !== (endTime === null) || (startTime && Number.isNaN(Date.parse(startTime))) || (endTime && Number.isNaN(Date.parse(endTime)))) return fdxError(400, 703, 'Invalid date range');
        const offset = Number(req.query.get('offset') ?? '0');
        const limit = Number(req.query.get('limit') ?? '50');
        if (state.failingOffset === offset) return fdxError(500, 500, 'Internal error');
        if (state.pageOverride?.offset === offset) return { status: 200, body: state.pageOverride.body };
        const inRange = rows.filter((raw) => {
          const t = Object.values(raw as Record<string, Record<string, string | null>>)[0];
          const when = Date.parse((t.postedTimestamp ?? t.transactionTimestamp) as string);
          return (!startTime || when >= Date.parse(startTime)) && (!endTime || when < Date.parse(endTime));
        });
        const page = inRange.slice(offset, offset + limit);
        const self = (o: number) => `/transactions/v2/${D_PROVIDER}/${parts[3]}?startTime=${startTime}&endTime=${endTime}&offset=${o}&limit=${limit}`;
        const links = { ...(offset > 0 ? { prev: { href: self(Math.max(0, offset - limit)) } } : {}), ...(offset + page.length < inRange.length ? { next: { href: self(offset + limit) } } : {}) };
        return { status: 200, body: { links, transactions: page } };
      }
      default:
        return fdxError(404, 404, 'Not found');
    }
  };
}

export async function startAggregatorDFake(state: AggregatorDState = defaultState()): Promise<FakeServer & { state: AggregatorDState }> {
  const server = await startFakeServer(route(state));
  return Object.assign(server, { state });
}
