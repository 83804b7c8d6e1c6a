// A loopback fake of the Australian and New Zealand aggregator's API v3: /token (Basic API key,
// basiq-version 3.0, SERVER_ACCESS / CLIENT_ACCESS bound to a user), users, connections, jobs with
// steps, accounts, transactions with the postDate / status filters and links.next pagination,
// identities, and its `{ type: 'list', data: [{ code, title, detail }] }` error bodies.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_API_KEY = 'ZmFrZS1hcGkta2V5LTRkOWE=';
const SERVER_TOKEN = 'server-token-71ab';

type Raw = Record<string, unknown>;

export interface AggregatorFFake extends FakeServer {
  users: string[];
  connections: Raw[];
  jobs: Raw[];
  accounts: Raw[];
  transactions: Raw[];
  identities: Raw[];
  pageSize: number;
  /** Client tokens minted, by user. */
  clientTokens: Map<string, string>;
}

export const errorList = (status: number, code: string, title: string): FakeResponse => ({ status, body: { type: 'list', correlationId: 'corr-1', data: [{ type: 'error', code, title, detail: title }] } });

export async function startAggregatorFFake(): Promise<AggregatorFFake> {
  const fake = { users: [] as string[], connections: [] as Raw[], jobs: [] as Raw[], accounts: [] as Raw[], transactions: [] as Raw[], identities: [] as Raw[], pageSize: 500, clientTokens: new Map<string, string>() };
  const list = (req: FakeRequest, rows: Raw[]): FakeResponse => {
    const limit = Math.min(Number(req.query.get('limit') ?? '500'), fake.pageSize);
    const offset = Number(req.query.get('next') ?? '0');
    const data = rows.slice(offset, offset + limit);
    const more = offset + limit < rows.length;
    const nextQuery = new URLSearchParams(req.query);
    nextQuery.set('next', String(offset + limit));
    return { status: 200, body: { type: 'list', count: rows.length, size: data.length, data, links: { self: `${server.url}${req.path}`, ...(more ? { next: `${server.url}${req.path}?${nextQuery.toString()}` } : {}) } } };
  };
  const route = (req: FakeRequest): FakeResponse => {
    if (req.headers['basiq-version'] !== '3.0') return errorList(400, 'parameter-not-valid', 'basiq-version header missing');
    if (req.method === 'POST' && req.path === '/token') {
      if (req.headers.authorization !== `Basic ${FAKE_API_KEY}`) return errorList(401, 'unauthorized-access', 'Invalid API key');
      const form = (req.parsed ?? {}) as Record<string, string>;
      if (form.scope === 'SERVER_ACCESS') return { status: 200, body: { access_token: SERVER_TOKEN, token_type: 'Bearer', expires_in: 3600 } };
      if (form.scope === 'CLIENT_ACCESS' && fake.users.includes(form.userId)) {
        const clientToken = `client-${form.userId}`;
        fake.clientTokens.set(form.userId, clientToken);
        return { status: 200, body: { access_token: clientToken, token_type: 'Bearer', expires_in: 3600 } };
      }
      return errorList(400, 'parameter-not-valid', 'scope or userId invalid');
    }
    if (req.headers.authorization !== `Bearer ${SERVER_TOKEN}`) return errorList(401, 'unauthorized-access', 'Invalid token');
    if (req.method === 'POST' && req.path === '/users') {
      const body = (req.parsed ?? {}) as Raw;
      if (typeof body.email !== 'string' && typeof body.mobile !== 'string') return errorList(400, 'parameter-not-supplied', 'email or mobile required');
      const id = `u-${fake.users.length + 1}a2b`;
      fake.users.push(id);
      return { status: 201, body: { type: 'user', id, email: body.email, links: { self: `${server.url}/users/${id}` } } };
    }
    const user = /^\/users\/([^/]+)(\/.*)?$/.exec(req.path);
    if (!user) return errorList(404, 'resource-not-found', 'Not found');
    if (!fake.users.includes(user[1])) return errorList(404, 'resource-not-found', 'User not found');
    const rest = user[2] ?? '';
    if (req.method === 'DELETE' && rest === '') {
      fake.users = fake.users.filter((u) => u !== user[1]);
      return { status: 204 };
    }
    if (req.method === 'GET' && rest === '/connections') return list(req, fake.connections);
    if (req.method === 'POST' && rest === '/connections/refresh') {
      const jobs = fake.connections.map((c, i) => ({ type: 'job', id: `job-r${i}`, links: { source: `${server.url}/users/${user[1]}/connections/${String(c.id)}` } }));
      return { status: 202, body: { type: 'list', data: jobs } };
    }
    if (req.method === 'GET' && rest === '/jobs') return list(req, fake.jobs);
    if (req.method === 'GET' && rest === '/accounts') return list(req, fake.accounts);
    if (req.method === 'GET' && rest === '/identities') return list(req, fake.identities);
    if (req.method === 'GET' && rest === '/transactions') {
      const filter = req.query.get('filter') ?? '';
      const since = /^transaction\.postDate\.gteq\('(\d{4}-\d{2}-\d{2})'\)$/.exec(filter);
      let rows = fake.transactions;
      if (since) rows = rows.filter((t) => typeof t.postDate === 'string' && t.postDate.slice(0, 10) >= since[1]);
      else if (filter === "transaction.status.eq('pending')") rows = rows.filter((t) => t.status === 'pending');
      else if (filter !== '') return errorList(400, 'parameter-not-valid', `Unknown filter ${filter}`);
      return list(req, rows);
    }
    return errorList(404, 'resource-not-found', `${req.method} ${req.path}`);
  };
  const server = await startFakeServer(route);
  return Object.assign(fake, server);
}

export function fakeAccount(id: string, overrides: Raw = {}): Raw {
  return { type: 'account', id, accountNo: '062-000 12345678', name: 'Smart Access', currency: 'AUD', balance: '1523.40', availableFunds: '1500.00', class: { type: 'transaction', product: 'Smart Access Everyday' }, status: 'available', ...overrides };
}

export function fakeTransaction(id: string, account: string, amount: string, postDate: string | null, overrides: Raw = {}): Raw {
  return { type: 'transaction', id, status: postDate ? 'posted' : 'pending', description: `EFTPOS ${id}`, amount, account, direction: amount.startsWith('-') ? 'debit' : 'credit', postDate: postDate ? `${postDate}T00:00:00Z` : null, transactionDate: postDate ?? '2026-01-14', ...overrides };
}

export const activeConnection = (id = 'conn-1'): Raw => ({ type: 'connection', id, status: 'active', institution: { id: 'AU00000' } });
export const settledJob = (id = 'job-1', status = 'success'): Raw => ({ type: 'job', id, steps: [{ title: 'verify-credentials', status: 'success' }, { title: 'retrieve-accounts', status: 'success' }, { title: 'retrieve-transactions', status }] });
