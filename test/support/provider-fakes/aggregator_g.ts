// A loopback fake of the pan-European aggregator's API (v5 shapes): customers, connect sessions,
// connections with status and last attempt, accounts, transactions paginated by meta.next_id with
// the pending filter, holder info, and its `{ error: { class, message } }` bodies. It checks the
// App-id and Secret headers, and the request signature when a public key is given.
import { createVerify } from 'node:crypto';
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_APP_ID = 'app-id-fake-7c1d';
export const FAKE_SECRET = 'secret-fake-93aa01';

type Raw = Record<string, unknown>;

export interface AggregatorGFake extends FakeServer {
  connections: Raw[];
  accounts: Raw[];
  /** Transactions with numeric-string ids, ascending. */
  transactions: Raw[];
  holderInfo: Raw | null;
  /** The connection the next completed connect session creates, for the customer it was made for. */
  connectionOnSession: string;
  pageSize: number;
  publicKey: string | null;
}

const error = (status: number, errorClass: string, message: string): FakeResponse => ({ status, body: { error: { class: errorClass, message, documentation_url: 'https://docs.example.test/errors' }, request: {} } });

export async function startAggregatorGFake(): Promise<AggregatorGFake> {
  let customers = 0;
  const fake = {
    connections: [] as Raw[],
    accounts: [] as Raw[],
    transactions: [] as Raw[],
    holderInfo: null as Raw | null,
    connectionOnSession: '',
    pageSize: 1000,
    publicKey: null as string | null,
  };
  const route = (req: FakeRequest): FakeResponse => {
    if (req.headers['app-id'] !== FAKE_APP_ID || req.headers.secret !== FAKE_SECRET) return error(401, 'Unauthorized', 'Invalid App-id or Secret.');
    if (fake.publicKey) {
      const expiresAt = String(req.headers['expires-at'] ?? '');
      const signature = String(req.headers.signature ?? '');
      const url = `${server.url}${req.path}${req.query.toString() ? `?${req.query.toString()}` : ''}`;
      const ok = createVerify('RSA-SHA256').update(`${expiresAt}|${req.method}|${url}|${req.body}`).verify(fake.publicKey, signature, 'base64');
      if (!ok) return error(401, 'InvalidSignature', 'The request signature does not match.');
    }
    const body = (req.parsed ?? {}) as { data?: Raw };
    if (req.method === 'POST' && req.path === '/customers') {
      if (typeof body.data?.identifier !== 'string') return error(400, 'WrongRequestFormat', 'identifier missing');
      customers += 1;
      return { status: 200, body: { data: { id: `90${customers}`, identifier: body.data.identifier, secret: 'customer-secret' } } };
    }
    if (req.method === 'POST' && req.path === '/connect_sessions/create') {
      const customerId = body.data?.customer_id;
      if (typeof customerId !== 'string') return error(400, 'WrongRequestFormat', 'customer_id missing');
      const attempt = body.data?.attempt as Raw | undefined;
      if (typeof attempt?.return_to !== 'string') return error(400, 'WrongRequestFormat', 'return_to missing');
      fake.connections.push({ id: fake.connectionOnSession, customer_id: customerId, status: 'active', provider_name: 'Fake Bank', last_attempt: { fail_error_class: null } });
      return { status: 200, body: { data: { expires_at: '2026-01-15T12:00:00Z', connect_url: `https://connect.example.test/connect?token=tok_${customerId}` } } };
    }
    const conn = /^\/connections\/([^/]+)$/.exec(req.path);
    if (conn) {
      const index = fake.connections.findIndex((c) => c.id === conn[1]);
      if (index < 0) return error(404, 'ConnectionNotFound', `Connection with id: '${conn[1]}' was not found.`);
      if (req.method === 'DELETE') {
        fake.connections.splice(index, 1);
        return { status: 200, body: { data: { removed: true, id: conn[1] } } };
      }
      return { status: 200, body: { data: fake.connections[index] } };
    }
    const connectionId = req.query.get('connection_id');
    if (req.method === 'GET' && ['/accounts', '/transactions', '/holder_info'].includes(req.path)) {
      if (!connectionId) return error(400, 'WrongRequestFormat', 'connection_id missing');
      if (!fake.connections.some((c) => c.id === connectionId)) return error(404, 'ConnectionNotFound', `Connection with id: '${connectionId}' was not found.`);
    }
    if (req.method === 'GET' && req.path === '/holder_info') return fake.holderInfo ? { status: 200, body: { data: fake.holderInfo } } : error(404, 'HolderInfoNotFound', 'none');
    if (req.method === 'GET' && (req.path === '/accounts' || req.path === '/transactions')) {
      const accountId = req.query.get('account_id');
      const pending = req.query.get('pending') === 'true';
      let rows =
        req.path === '/accounts'
          ? fake.accounts.filter((a) => a.connection_id === connectionId)
          : fake.transactions.filter((t) => (!accountId || t.account_id === accountId) && (pending ? t.status === 'pending' : true));
      const fromId = req.query.get('from_id');
      if (fromId) rows = rows.filter((r) => BigInt(String(r.id)) >= BigInt(fromId));
      const perPage = Math.min(Number(req.query.get('per_page') ?? '1000'), fake.pageSize);
      const data = rows.slice(0, perPage);
      const next = rows[perPage];
      return { status: 200, body: { data, meta: { next_id: next ? String(next.id) : null, next_page: next ? `${req.path}?from_id=${String(next.id)}` : null } } };
    }
    return error(404, 'ActionNotFound', `${req.method} ${req.path}`);
  };
  const server = await startFakeServer(route);
  return Object.assign(fake, server);
}

export function fakeAccount(id: string, connectionId: string, overrides: Raw = {}): Raw {
  return { id, connection_id: connectionId, name: 'Girokonto', nature: 'account', balance: 1820.55, currency_code: 'EUR', extra: { iban: 'DE89370400440532013000', available_amount: 1700.05 }, ...overrides };
}

export function fakeTransaction(id: number, accountId: string, amount: number, madeOn: string, overrides: Raw = {}): Raw {
  return { id: String(id), account_id: accountId, mode: 'normal', status: 'posted', made_on: madeOn, amount, currency_code: 'EUR', description: `Kartenzahlung ${id}`, category: 'uncategorized', duplicated: false, extra: {}, ...overrides };
}
