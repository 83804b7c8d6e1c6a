// A loopback fake of Aggregator A's documented API: JSON POSTs authenticated by client_id and secret
// in the body, the hosted link token flow, accounts, cursor-paged transaction sync, identity,
// liabilities and investments, and its documented error body `{error_type, error_code, ...}`.
// Values are invented; shapes follow the provider's public API reference.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const A_CLIENT_ID = 'client-a-123';
export const A_SECRET = 'secret-a-very-private';
export const A_PUBLIC_TOKEN = 'public-production-7f3c1e';
export const A_ACCESS_TOKEN = 'access-production-91b2cd';
export const A_ITEM_ID = 'item-Qx81';
export const A_LINK_TOKEN = 'link-production-55aa';

export function errorBody(type: string, code: string, status = 400): FakeResponse {
  return { status, body: { error_type: type, error_code: code, error_message: `invented message for ${code}`, display_message: null, request_id: 'req-1' } };
}

export interface AggregatorAState {
  /** Sync pages by the cursor they answer (the empty string for the first). */
  syncPages: Record<string, { added?: unknown[]; modified?: unknown[]; removed?: unknown[]; next_cursor: string; has_more: boolean }>;
  accounts: unknown[];
  /** Public token the finished hosted session produced (null: the user did not finish). */
  sessionPublicToken: string | null;
  identityAccounts: unknown[];
  liabilities: unknown;
  holdings: { holdings: unknown[]; securities: unknown[] } | null;
  investmentTransactions: unknown[];
  /** A sync cursor whose page answers 500 (a page failing in the middle of pagination). */
  failingCursor: string | null;
}

export const checking = {
  account_id: 'BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp',
  balances: { available: 1203.42, current: 1250.1, limit: null, iso_currency_code: 'USD', unofficial_currency_code: null },
  mask: '0042',
  name: 'Everyday Checking',
  official_name: 'Everyday Checking Plus',
  type: 'depository',
  subtype: 'checking',
};
export const card = {
  account_id: 'card-77',
  balances: { available: 4100, current: 900.5, limit: 5000, iso_currency_code: 'USD', unofficial_currency_code: null },
  mask: '9911',
  name: 'Rewards Card',
  official_name: null,
  type: 'credit',
  subtype: 'credit card',
};

export function txn(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_id: id,
    account_id: checking.account_id,
    amount: 12.5,
    iso_currency_code: 'USD',
    unofficial_currency_code: null,
    date: '2026-06-28',
    authorized_date: '2026-06-27',
    authorized_datetime: null,
    name: 'Corner Coffee',
    original_description: 'CORNER COFFEE #221 SPRINGFIELD',
    merchant_name: 'Corner Coffee',
    pending: false,
    counterparties: [{ name: 'Corner Coffee', type: 'merchant' }],
    ...overrides,
  };
}

export function defaultState(): AggregatorAState {
  return {
    syncPages: {
      '': { added: [txn('t1'), txn('t2', { amount: -2500, name: 'PAYROLL', original_description: 'ACME CORP PAYROLL', merchant_name: null, counterparties: [] })], next_cursor: 'c1', has_more: true },
      c1: { added: [txn('t3', { pending: true, amount: 40.01, date: '2026-06-30' })], modified: [], removed: [], next_cursor: 'c2', has_more: false },
      c2: { added: [txn('t4', { amount: 7.25 })], modified: [txn('t1', { amount: 13 })], removed: [{ transaction_id: 't3', account_id: checking.account_id }], next_cursor: 'c3', has_more: false },
    },
    accounts: [checking, card],
    sessionPublicToken: A_PUBLIC_TOKEN,
    identityAccounts: [],
    liabilities: { credit: [], mortgage: null, student: null },
    holdings: null,
    investmentTransactions: [],
    failingCursor: null,
  };
}

function route(state: AggregatorAState) {
  return (req: FakeRequest): FakeResponse => {
    if (req.method !== 'POST') return { status: 405, body: 'method not allowed' };
    if (req.headers['plaid-version'] !== '2020-09-14') return errorBody('INVALID_REQUEST', 'INVALID_FIELD');
    const body = (req.parsed ?? {}) as Record<string, unknown>;
    if (body.client_id !== A_CLIENT_ID || body.secret !== A_SECRET) return errorBody('INVALID_INPUT', 'INVALID_API_KEYS');
    const needsItem = !['/link/token/create', '/link/token/get', '/item/public_token/exchange'].includes(req.path);
    if (needsItem && body.access_token !== A_ACCESS_TOKEN) return errorBody('INVALID_INPUT', 'INVALID_ACCESS_TOKEN');
    switch (req.path) {
      case '/link/token/create': {
        const required = ['client_name', 'language', 'country_codes', 'user', 'products'];
        if (required.some((k) => body[k] === undefined)) return errorBody('INVALID_REQUEST', 'MISSING_FIELDS');
        return { status: 200, body: { link_token: A_LINK_TOKEN, expiration: '2026-07-01T12:30:00Z', hosted_link_url: `https://hosted.example/link/${A_LINK_TOKEN}`, request_id: 'r' } };
      }
      case '/link/token/get':
        if (body.link_token !== A_LINK_TOKEN) return errorBody('INVALID_INPUT', 'INVALID_LINK_TOKEN');
        return {
          status: 200,
          body: { link_token: A_LINK_TOKEN, link_sessions: state.sessionPublicToken ? [{ link_session_id: 's1', results: { item_add_results: [{ public_token: state.sessionPublicToken }] } }] : [{ link_session_id: 's1', results: null }] },
        };
      case '/item/public_token/exchange':
        if (body.public_token !== A_PUBLIC_TOKEN) return errorBody('INVALID_INPUT', 'INVALID_PUBLIC_TOKEN');
        return { status: 200, body: { access_token: A_ACCESS_TOKEN, item_id: A_ITEM_ID, request_id: 'r' } };
      case '/accounts/get':
        return { status: 200, body: { accounts: state.accounts, item: { item_id: A_ITEM_ID } } };
      case '/transactions/sync': {
        if (state.failingCursor !== null && String(body.cursor ?? '') === state.failingCursor) return errorBody('API_ERROR', 'INTERNAL_SERVER_ERROR', 500);
        const page = state.syncPages[String(body.cursor ?? '')];
        if (!page) return errorBody('INVALID_INPUT', 'INVALID_FIELD');
        return { status: 200, body: { added: [], modified: [], removed: [], ...page, transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE', request_id: 'r' } };
      }
      case '/identity/get':
        return { status: 200, body: { accounts: state.identityAccounts, item: { item_id: A_ITEM_ID } } };
      case '/liabilities/get':
        return { status: 200, body: { accounts: state.accounts, liabilities: state.liabilities } };
      case '/investments/holdings/get':
        return state.holdings ? { status: 200, body: { accounts: state.accounts, ...state.holdings } } : errorBody('ITEM_ERROR', 'NO_INVESTMENT_ACCOUNTS');
      case '/investments/transactions/get': {
        const options = (body.options ?? {}) as { count?: number; offset?: number };
        const offset = options.offset ?? 0;
        const count = options.count ?? 100;
        return { status: 200, body: { investment_transactions: state.investmentTransactions.slice(offset, offset + count), total_investment_transactions: state.investmentTransactions.length, securities: state.holdings?.securities ?? [] } };
      }
      case '/item/remove':
        return { status: 200, body: { request_id: 'r' } };
      default:
        return { status: 404, body: errorBody('INVALID_REQUEST', 'NOT_FOUND').body };
    }
  };
}

export async function startAggregatorAFake(state: AggregatorAState = defaultState()): Promise<FakeServer & { state: AggregatorAState }> {
  const server = await startFakeServer(route(state));
  return Object.assign(server, { state });
}
