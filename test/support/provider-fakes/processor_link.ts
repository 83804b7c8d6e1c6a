// A loopback fake of the payment processor's account-linking API (Financial Connections): customers,
// sessions, linked accounts, transactions (cursor pagination with starting_after/has_more and the
// transaction_refresh[after] filter), account owners, and the provider's error objects. It checks
// the bearer secret key and the pinned API version header like the provider does.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_SECRET_KEY = 'sk_test_fake_4f9c2b7d';

type Raw = Record<string, unknown>;

export interface ProcessorLinkFake extends FakeServer {
  /** Linked accounts (raw provider objects); `account_holder.customer` says whose they are. */
  accounts: Raw[];
  /** Transactions (raw provider objects), oldest first. */
  transactions: Raw[];
  /** Owners by ownership id. */
  owners: Record<string, Raw[]>;
  sessions: Map<string, { customer: string; accountIds: string[] }>;
  /** The accounts the next completed session links (ids of `accounts`). */
  linkOnSession: string[];
}

const error = (status: number, type: string, code: string | undefined, message: string): FakeResponse => ({
  status,
  body: { error: { type, ...(code ? { code } : {}), message } },
});

function page(items: Raw[], query: URLSearchParams, url: string): FakeResponse {
  const limit = Math.min(Number(query.get('limit') ?? '10'), 100);
  const after = query.get('starting_after');
  const start = after ? items.findIndex((i) => i.id === after) + 1 : 0;
  if (after && start === 0) return error(400, 'invalid_request_error', 'resource_missing', `No such object: '${after}'`);
  const data = items.slice(start, start + limit);
  return { status: 200, body: { object: 'list', data, has_more: start + limit < items.length, url } };
}

export async function startProcessorLinkFake(): Promise<ProcessorLinkFake> {
  let customers = 0;
  let sessions = 0;
  const state = {
    accounts: [] as Raw[],
    transactions: [] as Raw[],
    owners: {} as Record<string, Raw[]>,
    sessions: new Map<string, { customer: string; accountIds: string[] }>(),
    linkOnSession: [] as string[],
  };
  const route = (req: FakeRequest): FakeResponse => {
    if (req.headers.authorization !== `Bearer ${FAKE_SECRET_KEY}`) return error(401, 'invalid_request_error', undefined, 'Invalid API Key provided.');
    if (!req.headers['stripe-version']) return error(400, 'invalid_request_error', 'parameter_missing', 'API version header missing.');
    const form = (req.parsed ?? {}) as Record<string, string>;
    if (req.method === 'POST' && req.path === '/v1/customers') {
      customers += 1;
      return { status: 200, body: { id: `cus_fake${customers}`, object: 'customer' } };
    }
    if (req.method === 'POST' && req.path === '/v1/financial_connections/sessions') {
      if (form['account_holder[type]'] !== 'customer' || !form['account_holder[customer]']) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing account_holder.');
      if (!form['permissions[0]']) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing permissions.');
      sessions += 1;
      const id = `fcsess_fake${sessions}`;
      state.sessions.set(id, { customer: form['account_holder[customer]'], accountIds: [] });
      return { status: 200, body: { id, object: 'financial_connections.session', client_secret: `${id}_secret_abc`, account_holder: { type: 'customer', customer: form['account_holder[customer]'] }, accounts: { object: 'list', data: [], has_more: false } } };
    }
    const sessionMatch = /^\/v1\/financial_connections\/sessions\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && sessionMatch) {
      const session = state.sessions.get(sessionMatch[1]);
      if (!session) return error(404, 'invalid_request_error', 'resource_missing', `No such session: '${sessionMatch[1]}'`);
      const linked = state.accounts.filter((a) => state.linkOnSession.includes(String(a.id)));
      for (const a of linked) (a.account_holder as Raw).customer = session.customer;
      return { status: 200, body: { id: sessionMatch[1], object: 'financial_connections.session', account_holder: { type: 'customer', customer: session.customer }, accounts: { object: 'list', data: linked, has_more: false } } };
    }
    if (req.method === 'GET' && req.path === '/v1/financial_connections/accounts') {
      const customer = req.query.get('account_holder[customer]');
      if (!customer) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing account_holder.');
      return page(state.accounts.filter((a) => (a.account_holder as Raw).customer === customer), req.query, req.path);
    }
    const accountAction = /^\/v1\/financial_connections\/accounts\/([^/]+)\/(subscribe|disconnect|owners)$/.exec(req.path);
    if (accountAction) {
      const account = state.accounts.find((a) => a.id === accountAction[1]);
      if (!account) return error(404, 'invalid_request_error', 'resource_missing', `No such account: '${accountAction[1]}'`);
      if (accountAction[2] === 'subscribe') {
        if (form['features[0]'] !== 'transactions') return error(400, 'invalid_request_error', 'parameter_invalid', 'Unknown feature.');
        return { status: 200, body: account };
      }
      if (accountAction[2] === 'disconnect') {
        account.status = 'disconnected';
        return { status: 200, body: account };
      }
      const ownership = req.query.get('ownership');
      if (!ownership) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing ownership.');
      return page(state.owners[ownership] ?? [], req.query, req.path);
    }
    if (req.method === 'GET' && req.path === '/v1/financial_connections/transactions') {
      const account = req.query.get('account');
      if (!account) return error(400, 'invalid_request_error', 'parameter_missing', 'Missing account.');
      const after = req.query.get('transaction_refresh[after]');
      const since = req.query.get('transacted_at[gte]');
      const rows = state.transactions.filter(
        (t) => t.account === account && (!after || String(t.transaction_refresh) > after) && (!since || Number(t.transacted_at) >= Number(since)),
      );
      return page(rows, req.query, req.path);
    }
    return error(404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${req.method}: ${req.path}).`);
  };
  const server = await startFakeServer(route);
  // The state object itself becomes the fake, so a test that replaces a list is seen by the route.
  return Object.assign(state, server);
}

/** A linked account in the provider's shape. */
export function fakeAccount(id: string, overrides: Raw = {}): Raw {
  return {
    id,
    object: 'financial_connections.account',
    account_holder: { type: 'customer', customer: null },
    category: 'cash',
    subcategory: 'checking',
    display_name: 'Everyday Checking',
    institution_name: 'Riverbend Bank',
    last4: '6789',
    status: 'active',
    balance: { as_of: 1767225600, type: 'cash', current: { usd: 254_310 }, cash: { available: { usd: 250_010 } } },
    transaction_refresh: { id: 'fctxnref_002', status: 'succeeded', last_attempted_at: 1767225600 },
    ownership: null,
    ...overrides,
  };
}

/** A transaction in the provider's shape (amount in cents, negative = money out). */
export function fakeTransaction(id: string, account: string, amount: number, day: string, overrides: Raw = {}): Raw {
  return {
    id,
    object: 'financial_connections.transaction',
    account,
    amount,
    currency: 'usd',
    description: `DESCRIPTOR ${id}`,
    status: 'posted',
    transacted_at: Date.parse(`${day}T15:30:00Z`) / 1000,
    transaction_refresh: 'fctxnref_001',
    ...overrides,
  };
}
