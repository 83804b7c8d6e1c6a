// A loopback fake of Aggregator C's documented API: partner authentication (App-Key header, partner
// id and secret) returning a token every later call must carry with the App-Key, customer creation,
// Connect URL generation, customer accounts with aggregation status codes, customer transactions by
// epoch-second range with start/limit paging, account owner details, customer deletion, and its
// error body `{code, message}`. Values are invented; shapes follow the provider's public reference.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const C_PARTNER_ID = '2445582695152';
export const C_SECRET = 'partner-secret-c-very-private';
export const C_APP_KEY = 'app-key-c-0f3e';
export const C_TOKEN = 'partner-token-c-77aa';
export const C_CUSTOMER_ID = '1005061234';

const error = (status: number, code: number, message: string): FakeResponse => ({ status, body: { code, message } });

export const checking = { id: '5011648377', number: '8000008888', accountNumberDisplay: '8888', name: 'Everyday Checking', balance: 1250.1, type: 'checking', aggregationStatusCode: 0, status: 'active', customerId: C_CUSTOMER_ID, institutionId: '101732', currency: 'USD', detail: { availableBalanceAmount: 1203.42 } };
export const card = { id: 5011648399, number: '4100007777', accountNumberDisplay: '7777', name: 'Rewards Card', balance: -900.5, type: 'creditCard', aggregationStatusCode: 0, status: 'active', customerId: C_CUSTOMER_ID, institutionId: '101732', currency: 'USD', detail: { creditMaxAmount: 5000 } };

/** Epoch seconds of a day at noon UTC. */
export const at = (day: string) => Date.parse(`${day}T12:00:00Z`) / 1000;

export function txn(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    amount: -12.5,
    accountId: Number(checking.id),
    customerId: Number(C_CUSTOMER_ID),
    status: 'active',
    description: 'CORNER COFFEE #221 SPRINGFIELD',
    memo: null,
    postedDate: at('2026-06-28'),
    transactionDate: at('2026-06-27'),
    createdDate: at('2026-06-28'),
    categorization: { normalizedPayeeName: 'Corner Coffee', category: 'Coffee Shops', country: 'USA' },
    ...overrides,
  };
}

export interface AggregatorCState {
  accounts: unknown[];
  transactions: Array<Record<string, unknown>>;
  holders: Record<string, unknown[]>;
  customers: Set<string>;
  /** The `start` whose page answers 500 (a page failing in the middle of pagination). */
  failingStart: number | null;
  /** Overrides the body of the transactions page at this `start` (hostile payloads). */
  pageOverride: { start: number; body: unknown } | null;
}

export function defaultState(): AggregatorCState {
  return {
    accounts: [checking, card],
    transactions: [
      txn(9001),
      txn(9002, { amount: 2500, description: 'ACME CORP PAYROLL', categorization: { normalizedPayeeName: 'Acme Corp', category: 'Paycheck' }, postedDate: at('2026-06-15'), transactionDate: at('2026-06-15') }),
      txn(9003, { amount: -40.01, status: 'pending', postedDate: null, transactionDate: at('2026-06-30') }),
      txn(9004, { amount: -310.4, accountId: Number(card.id), description: 'AIRLINE TICKET', categorization: null, postedDate: at('2025-01-10'), transactionDate: at('2025-01-09') }),
    ],
    holders: {},
    customers: new Set([C_CUSTOMER_ID]),
    failingStart: null,
    pageOverride: null,
  };
}

function route(state: AggregatorCState) {
  return (req: FakeRequest): FakeResponse => {
    if (req.headers['finicity-app-key'] !== C_APP_KEY) return error(401, 10010, 'Invalid App-Key');
    const body = (req.parsed ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && req.path === '/aggregation/v2/partners/authentication') {
      if (body.partnerId !== C_PARTNER_ID || body.partnerSecret !== C_SECRET) return error(401, 10003, 'Invalid credentials');
      return { status: 200, body: { token: C_TOKEN } };
    }
    if (req.headers['finicity-app-token'] !== C_TOKEN) return error(401, 10022, 'Invalid or expired token');

    if (req.method === 'POST' && req.path === '/aggregation/v2/customers/active') {
      if (typeof body.username !== 'string' || body.username.length < 6 || typeof body.firstName !== 'string' || typeof body.lastName !== 'string') return error(400, 10001, 'Missing required field');
      state.customers.add('1005069999');
      return { status: 201, body: { id: '1005069999', username: body.username, createdDate: String(at('2026-07-01')) } };
    }
    if (req.method === 'POST' && req.path === '/connect/v2/generate') {
      if (body.partnerId !== C_PARTNER_ID) return error(400, 10002, 'Invalid partner id');
      if (typeof body.customerId !== 'string' || !state.customers.has(body.customerId)) return error(404, 14001, 'Customer not found');
      return { status: 200, body: { link: `https://connect2.example/?customerId=${body.customerId}&signature=abc` } };
    }

    const customer = /^\/aggregation\/v[13]\/customers\/([^/]+)(\/.*)?$/.exec(req.path);
    if (!customer) return error(404, 404, 'Not found');
    if (!state.customers.has(decodeURIComponent(customer[1]))) return error(404, 14001, 'Customer not found');
    const rest = customer[2] ?? '';
    if (req.method === 'DELETE' && rest === '') {
      state.customers.delete(decodeURIComponent(customer[1]));
      return { status: 204 };
    }
    if (req.method === 'GET' && rest === '/accounts') return { status: 200, body: { accounts: decodeURIComponent(customer[1]) === C_CUSTOMER_ID ? state.accounts : [] } };
    if (req.method === 'GET' && rest === '/transactions') {
      const fromDate = Number(req.query.get('fromDate'));
      const toDate = Number(req.query.get('toDate'));
      const start = Number(req.query.get('start') ?? '1');
      const limit = Number(req.query.get('limit') ?? '25');
      if (!Number.isInteger(fromDate) || !Number.isInteger(toDate) || toDate <= fromDate) return error(400, 10011, 'Invalid date range');
      if (!Number.isInteger(start) || start < 1 || !Number.isInteger(limit) || limit < 1 || limit > 1000) return error(400, 10012, 'Invalid paging');
      if (state.failingStart === start) return error(500, 500, 'Internal error');
      if (state.pageOverride?.start === start) return { status: 200, body: state.pageOverride.body };
      const inRange = state.transactions
        .filter((t) => {
          const when = (t.postedDate ?? t.transactionDate) as number;
          return when >= fromDate && when <= toDate;
        })
        .sort((a, b) => ((a.postedDate ?? a.transactionDate) as number) - ((b.postedDate ?? b.transactionDate) as number));
      const page = inRange.slice(start - 1, start - 1 + limit);
      return { status: 200, body: { found: inRange.length, displaying: page.length, moreAvailable: start - 1 + page.length < inRange.length, fromDate: String(fromDate), toDate: String(toDate), sort: req.query.get('sort') ?? 'desc', transactions: page } };
    }
    const owner = /^\/accounts\/([^/]+)\/owner$/.exec(rest);
    if (req.method === 'GET' && owner) return { status: 200, body: { holders: state.holders[decodeURIComponent(owner[1])] ?? [] } };
    return error(404, 404, 'Not found');
  };
}

export async function startAggregatorCFake(state: AggregatorCState = defaultState()): Promise<FakeServer & { state: AggregatorCState }> {
  const server = await startFakeServer(route(state));
  return Object.assign(server, { state });
}
