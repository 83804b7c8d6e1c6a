// A loopback fake of the investment aggregator's API (v1): registerUser, the connection portal
// login, authorizations, accounts, positions, paginated activities and deleteUser. Every request
// must carry the clientId and a timestamp and a Signature header: base64 HMAC-SHA256 with the
// consumer key over the sorted-key compact JSON of {content, path, query}. Errors are
// `{ detail, status_code, code }`.
import { createHmac } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_CLIENT_ID = 'FAKE-CLIENT-8B2D';
export const FAKE_CONSUMER_KEY = 'fake-consumer-key-0c6e91';

type Raw = Record<string, unknown>;

export interface AggregatorIFake extends FakeServer {
  users: Map<string, string>;
  authorizations: Raw[];
  accounts: Raw[];
  positions: Map<string, Raw[]>;
  activities: Map<string, Raw[]>;
}

export const errorBody = (status: number, code: string, detail: string): FakeResponse => ({ status, body: { detail, status_code: status, code } });

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.keys(value as Raw).sort().map((k) => [k, sorted((value as Raw)[k])]));
  return value;
}

export async function startAggregatorIFake(): Promise<AggregatorIFake> {
  const fake = { users: new Map<string, string>(), authorizations: [] as Raw[], accounts: [] as Raw[], positions: new Map<string, Raw[]>(), activities: new Map<string, Raw[]>() };
  const route = (req: FakeRequest): FakeResponse => {
    if (req.query.get('clientId') !== FAKE_CLIENT_ID || !/^\d+$/.test(req.query.get('timestamp') ?? '')) return errorBody(401, '1076', 'Unable to verify signature sent');
    const rawQuery = req.query.toString();
    const content = req.body === '' ? null : (JSON.parse(req.body) as unknown);
    const expected = createHmac('sha256', FAKE_CONSUMER_KEY).update(JSON.stringify(sorted({ content, path: req.path, query: rawQuery }))).digest('base64');
    if (req.headers.signature !== expected) return errorBody(401, '1076', 'Unable to verify signature sent');
    const path = req.path.replace(/^\/api\/v1/, '');
    if (req.method === 'POST' && path === '/snapTrade/registerUser') {
      const userId = (content as Raw | null)?.userId;
      if (typeof userId !== 'string') return errorBody(400, '1010', 'userId required');
      const secret = `user-secret-${fake.users.size + 1}-7f3a`;
      fake.users.set(userId, secret);
      return { status: 200, body: { userId, userSecret: secret } };
    }
    if (req.method === 'DELETE' && path === '/snapTrade/deleteUser') {
      fake.users.delete(req.query.get('userId') ?? '');
      return { status: 200, body: { status: 'deleted', detail: 'User queued for deletion', userId: req.query.get('userId') } };
    }
    const userId = req.query.get('userId') ?? '';
    if (!fake.users.has(userId)) return errorBody(404, '1012', 'User not found');
    if (fake.users.get(userId) !== req.query.get('userSecret')) return errorBody(401, '1083', 'Invalid userID or userSecret provided');
    if (req.method === 'POST' && path === '/snapTrade/login') {
      const redirect = (content as Raw | null)?.customRedirect;
      return { status: 200, body: { redirectURI: `https://portal.example.test/redeem?token=t-${userId}&redirect=${encodeURIComponent(String(redirect))}`, sessionId: 's-1' } };
    }
    if (req.method === 'GET' && path === '/authorizations') return { status: 200, body: fake.authorizations };
    if (req.method === 'GET' && path === '/accounts') return { status: 200, body: fake.accounts };
    const positions = /^\/accounts\/([^/]+)\/positions$/.exec(path);
    if (req.method === 'GET' && positions) return { status: 200, body: fake.positions.get(positions[1]) ?? [] };
    const activities = /^\/accounts\/([^/]+)\/activities$/.exec(path);
    if (req.method === 'GET' && activities) {
      const rows = fake.activities.get(activities[1]) ?? [];
      const offset = Number(req.query.get('offset') ?? '0');
      const limit = Math.min(Number(req.query.get('limit') ?? '1000'), 2);
      return { status: 200, body: { data: rows.slice(offset, offset + limit), pagination: { offset, limit, total: rows.length } } };
    }
    return errorBody(404, '1000', `${req.method} ${path}`);
  };
  const server = await startFakeServer(route);
  return Object.assign(fake, server);
}

export function fakeAccount(id: string, overrides: Raw = {}): Raw {
  return { id, brokerage_authorization: 'auth-1', name: 'Individual Margin', number: 'Q12345678', institution_name: 'Example Brokerage', balance: { total: { amount: 25410.32, currency: 'USD' } }, raw_type: 'Margin', ...overrides };
}

export function fakePosition(symbolId: string, ticker: string, units: number, price: number): Raw {
  return { symbol: { symbol: { id: symbolId, symbol: ticker, description: `${ticker} Inc.`, type: { code: 'cs' }, currency: { code: 'USD' } } }, units, price, average_purchase_price: price * 0.8 };
}

export function fakeActivity(id: string, type: string, amount: number, tradeDate: string): Raw {
  return { id, symbol: { symbol: 'AAPL' }, type, units: 1, price: Math.abs(amount), amount, currency: { code: 'USD' }, trade_date: `${tradeDate}T00:00:00Z`, description: `${type} ${id}` };
}
