// A loopback fake of the payment app's REST API as PayPal documents it: the OAuth token endpoint
// (Basic client credentials; authorization_code and refresh_token grants; invalid_client and
// invalid_grant errors) and its terminate call, Identity userinfo (schema=paypalv1.1), Reporting
// balances, and Transaction Search (RFC 3339 dates, at most 31 days per request, page/page_size
// with total_pages, RESULTSET_TOO_LARGE). Bearer tokens are checked: an unknown or expired one is a
// 401 invalid_token, a consent without the reporting scope a 403 NOT_AUTHORIZED.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_CLIENT_ID = 'fake-client-id';
export const FAKE_CLIENT_SECRET = 'fake-client-secret-value';
export const REPORTING_SCOPE = 'https://uri.paypal.com/services/reporting/search/read';

export interface FakeTransaction {
  id: string;
  eventCode?: string;
  /** RFC 3339 with PayPal's +0000 offset form. */
  initiated: string;
  value: string;
  currency?: string;
  status?: 'S' | 'P' | 'V' | 'D' | 'F';
  fee?: string;
  payerName?: string;
  subject?: string;
  items?: string[];
}

export interface PaymentAppFakeState {
  transactions: FakeTransaction[];
  balances: { currency: string; total: string; available: string }[];
  /** Whether a refresh grant also rotates the refresh token. */
  rotateRefreshTokens: boolean;
  /** A Transaction Search request over more results than this answers RESULTSET_TOO_LARGE. */
  resultSetLimit: number;
  /** Answers a request instead of the route when it returns a response (a failure on page 2 only). */
  intercept?: (request: FakeRequest) => FakeResponse | undefined;
}

export interface PaymentAppFake extends FakeServer {
  state: PaymentAppFakeState;
  /** Authorization codes the consent page handed out. */
  issueCode(code: string, scopes?: string[]): void;
  /** Makes every access token issued so far expire (the next API call gets 401 invalid_token). */
  expireAccessTokens(): void;
  /** Revokes every refresh token (the next refresh grant gets 400 invalid_grant). */
  revokeRefreshTokens(): void;
  accessTokens(): string[];
  refreshTokens(): string[];
}

const RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const paypalError = (status: number, name: string, message: string): FakeResponse => ({ status, body: { name, message, debug_id: 'f1a2b3c4d5e6', details: [{ issue: name }] } });

export async function startPaymentAppFake(): Promise<PaymentAppFake> {
  const codes = new Map<string, string[]>();
  const access = new Map<string, string[]>();
  const refresh = new Map<string, string[]>();
  let counter = 0;
  const mint = (prefix: string) => `${prefix}-${(counter += 1)}-secretvalue`;

  const state: PaymentAppFakeState = {
    transactions: [],
    balances: [{ currency: 'USD', total: '125.50', available: '120.00' }],
    rotateRefreshTokens: false,
    resultSetLimit: 10_000,
  };

  const clientOk = (req: FakeRequest) => req.headers.authorization === `Basic ${Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString('base64')}`;
  const scopesOf = (req: FakeRequest): string[] | null => {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? (access.get(header.slice(7)) ?? null) : null;
  };

  function issue(scopes: string[], keepRefresh?: string): Record<string, unknown> {
    const accessToken = mint('A21AA');
    access.set(accessToken, scopes);
    const body: Record<string, unknown> = { scope: scopes.join(' '), access_token: accessToken, token_type: 'Bearer', expires_in: 28800, nonce: 'n' };
    if (keepRefresh === undefined || state.rotateRefreshTokens) {
      if (keepRefresh) refresh.delete(keepRefresh);
      const refreshToken = mint('R23AA');
      refresh.set(refreshToken, scopes);
      body.refresh_token = refreshToken;
    }
    return body;
  }

  function token(req: FakeRequest): FakeResponse {
    if (!clientOk(req)) return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    const form = (req.parsed ?? {}) as Record<string, string>;
    if (form.grant_type === 'authorization_code') {
      const scopes = codes.get(form.code ?? '');
      if (!scopes) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid authorization code' } };
      codes.delete(form.code);
      return { status: 200, body: issue(scopes) };
    }
    if (form.grant_type === 'refresh_token') {
      const scopes = refresh.get(form.refresh_token ?? '');
      if (!scopes) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid refresh token' } };
      return { status: 200, body: issue(scopes, form.refresh_token) };
    }
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Grant type is not supported' } };
  }

  const amount = (currency: string, value: string) => ({ currency_code: currency, value });

  function search(req: FakeRequest): FakeResponse {
    const start = req.query.get('start_date') ?? '';
    const end = req.query.get('end_date') ?? '';
    if (!RFC3339.test(start) || !RFC3339.test(end)) return paypalError(400, 'INVALID_REQUEST', 'Request is not well-formed, syntactically incorrect, or violates schema.');
    const from = Date.parse(start);
    const to = Date.parse(end);
    if (to < from || to - from > 31 * 86_400_000) return paypalError(400, 'INVALID_REQUEST', 'Date range is greater than 31 days');
    const pageSize = Number(req.query.get('page_size') ?? '100');
    const page = Number(req.query.get('page') ?? '1');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 500 || !Number.isInteger(page) || page < 1) return paypalError(400, 'INVALID_REQUEST', 'Invalid page or page_size.');
    const matching = state.transactions.filter((t) => {
      const at = Date.parse(t.initiated.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      return at >= from && at <= to;
    });
    if (matching.length > state.resultSetLimit) return paypalError(400, 'RESULTSET_TOO_LARGE', 'Result set size is greater than the maximum limit. Change the filter criteria and try again.');
    const totalPages = Math.ceil(matching.length / pageSize);
    const slice = matching.slice((page - 1) * pageSize, page * pageSize);
    return {
      status: 200,
      body: {
        transaction_details: slice.map((t) => ({
          transaction_info: {
            paypal_account_id: 'COUNTERPARTY1',
            transaction_id: t.id,
            transaction_event_code: t.eventCode ?? 'T0006',
            transaction_initiation_date: t.initiated,
            transaction_updated_date: t.initiated,
            transaction_amount: amount(t.currency ?? 'USD', t.value),
            ...(t.fee ? { fee_amount: amount(t.currency ?? 'USD', t.fee) } : {}),
            transaction_status: t.status ?? 'S',
            ...(t.subject ? { transaction_subject: t.subject } : {}),
          },
          payer_info: t.payerName ? { account_id: 'PAYER1', payer_name: { alternate_full_name: t.payerName } } : {},
          cart_info: { item_details: (t.items ?? []).map((item_name) => ({ item_name })) },
        })),
        account_number: 'ACCOUNT9XYZ',
        start_date: start,
        end_date: end,
        page,
        total_items: matching.length,
        total_pages: totalPages,
        links: [],
      },
    };
  }

  const server = await startFakeServer((req) => {
    const intercepted = state.intercept?.(req);
    if (intercepted) return intercepted;
    if (req.method === 'POST' && req.path === '/v1/oauth2/token') return token(req);
    if (req.method === 'POST' && req.path === '/v1/oauth2/token/terminate') {
      if (!clientOk(req)) return { status: 401, body: { error: 'invalid_client' } };
      refresh.delete(((req.parsed ?? {}) as Record<string, string>).token ?? '');
      return { status: 200, body: '' };
    }
    const scopes = scopesOf(req);
    if (!scopes) return { status: 401, body: { error: 'invalid_token', error_description: 'Token signature verification failed' } };
    if (req.method === 'GET' && req.path === '/v1/identity/oauth2/userinfo') {
      if (req.query.get('schema') !== 'paypalv1.1') return paypalError(400, 'INVALID_REQUEST', 'schema is required');
      return {
        status: 200,
        body: {
          user_id: 'https://www.paypal.com/webapps/auth/identity/user/abc',
          name: 'Ada Lovelace',
          payer_id: 'PAYERID7QX2',
          address: { street_address: '1 Main St', locality: 'San Jose', region: 'CA', postal_code: '95131', country: 'US' },
          verified_account: 'true',
          emails: [{ value: 'ada@example.com', primary: true, confirmed: true }],
        },
      };
    }
    if (!scopes.includes(REPORTING_SCOPE)) return paypalError(403, 'NOT_AUTHORIZED', 'Authorization failed due to insufficient permissions.');
    if (req.method === 'GET' && req.path === '/v1/reporting/balances') {
      return {
        status: 200,
        body: {
          balances: state.balances.map((b, i) => ({ currency: b.currency, primary: i === 0, total_balance: amount(b.currency, b.total), available_balance: amount(b.currency, b.available), withheld_balance: amount(b.currency, '0.00') })),
          account_id: 'ACCOUNT9XYZ',
          as_of_time: '2026-03-01T00:00:00Z',
          last_refresh_time: '2026-03-01T00:00:00Z',
        },
      };
    }
    if (req.method === 'GET' && req.path === '/v1/reporting/transactions') return search(req);
    return paypalError(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
  });

  return {
    ...server,
    state,
    issueCode: (code: string, scopes = ['openid', 'profile', 'email', REPORTING_SCOPE]) => void codes.set(code, scopes),
    expireAccessTokens: () => access.clear(),
    revokeRefreshTokens: () => refresh.clear(),
    accessTokens: () => [...access.keys()],
    refreshTokens: () => [...refresh.keys()],
  };
}
