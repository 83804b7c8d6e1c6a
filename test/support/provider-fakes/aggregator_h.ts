// A loopback fake of the Latin American aggregator's API: /api/token/ (widget token), links with
// status and external_id filter, accounts, transactions (value_date__gte) and owners as
// `{ count, next, previous, results }` pages, link deletion, and its `[{ code, message, request_id }]`
// error arrays. It checks the HTTP Basic secret keys on every call.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const FAKE_SECRET_ID = 'secret-id-5c0e';
export const FAKE_SECRET_PASSWORD = 'secret-password-d71f';

type Raw = Record<string, unknown>;

export interface AggregatorHFake extends FakeServer {
  links: Raw[];
  accounts: Raw[];
  transactions: Raw[];
  owners: Raw[];
  pageSize: number;
  /** The link the widget creates when the user completes it, tagged with the external id of the widget URL. */
  completeWidget(externalId: string, linkId: string, status?: string): void;
}

export const errorArray = (status: number, code: string, message: string): FakeResponse => ({ status, body: [{ code, message, request_id: 'req-4f1a' }] });

export async function startAggregatorHFake(): Promise<AggregatorHFake> {
  const fake = {
    links: [] as Raw[],
    accounts: [] as Raw[],
    transactions: [] as Raw[],
    owners: [] as Raw[],
    pageSize: 1000,
    completeWidget(externalId: string, linkId: string, status = 'valid') {
      fake.links.push({ id: linkId, institution: 'banco_ficticio_mx_retail', access_mode: 'recurrent', status, external_id: externalId, created_at: '2026-01-15T10:00:00Z' });
    },
  };
  const page = (req: FakeRequest, rows: Raw[]): FakeResponse => {
    const size = Math.min(Number(req.query.get('page_size') ?? '100'), fake.pageSize);
    const pageNo = Number(req.query.get('page') ?? '1');
    const results = rows.slice((pageNo - 1) * size, pageNo * size);
    const nextQuery = new URLSearchParams(req.query);
    nextQuery.set('page', String(pageNo + 1));
    return { status: 200, body: { count: rows.length, next: pageNo * size < rows.length ? `${server.url}${req.path}?${nextQuery.toString()}` : null, previous: null, results } };
  };
  const basic = `Basic ${Buffer.from(`${FAKE_SECRET_ID}:${FAKE_SECRET_PASSWORD}`).toString('base64')}`;
  const route = (req: FakeRequest): FakeResponse => {
    if (req.headers.authorization !== basic) return { status: 401, body: { detail: 'Invalid credentials.' } };
    if (req.method === 'POST' && req.path === '/api/token/') {
      const body = (req.parsed ?? {}) as Raw;
      if (body.id !== FAKE_SECRET_ID || body.password !== FAKE_SECRET_PASSWORD || typeof body.scopes !== 'string') return errorArray(400, 'invalid', 'id, password and scopes are required');
      return { status: 200, body: { access: 'widget-access-token-9e', refresh: 'widget-refresh-token-3c' } };
    }
    const one = /^\/api\/links\/([^/]+)\/$/.exec(req.path);
    if (one) {
      const index = fake.links.findIndex((l) => l.id === one[1]);
      if (index < 0) return errorArray(404, 'not_found', 'Not found.');
      if (req.method === 'DELETE') {
        fake.links.splice(index, 1);
        return { status: 204 };
      }
      return { status: 200, body: fake.links[index] };
    }
    if (req.method === 'GET' && req.path === '/api/links/') return page(req, fake.links.filter((l) => !req.query.get('external_id') || l.external_id === req.query.get('external_id')));
    const link = req.query.get('link');
    if (req.method === 'GET' && ['/api/accounts/', '/api/transactions/', '/api/owners/'].includes(req.path)) {
      if (!link) return errorArray(400, 'required', 'link is required');
      const stored = fake.links.find((l) => l.id === link);
      if (!stored) return errorArray(404, 'not_found', 'Not found.');
      if (req.path === '/api/accounts/') return page(req, fake.accounts.filter((a) => a.link === link));
      if (req.path === '/api/owners/') return page(req, fake.owners.filter((o) => o.link === link));
      const from = req.query.get('value_date__gte');
      return page(req, fake.transactions.filter((t) => t.link === link && (!from || String(t.value_date) >= from)));
    }
    return errorArray(404, 'not_found', `${req.method} ${req.path}`);
  };
  const server = await startFakeServer(route);
  return Object.assign(fake, server);
}

export function fakeAccount(id: string, link: string, overrides: Raw = {}): Raw {
  return { id, link, institution: { name: 'Banco Ficticio', type: 'bank' }, category: 'CHECKING_ACCOUNT', type: 'Cuentas de efectivo', name: 'Cuenta Nómina', number: '4057 0000 1234', balance: { current: 15320.5, available: 15000 }, currency: 'MXN', credit_data: null, ...overrides };
}

export function fakeTransaction(id: string, link: string, account: string, amount: number, valueDate: string, overrides: Raw = {}): Raw {
  return { id, link, account: { id: account }, value_date: valueDate, accounting_date: `${valueDate}T08:00:00Z`, amount, currency: 'MXN', description: `COMPRA ${id}`, type: 'OUTFLOW', status: 'PROCESSED', merchant: null, ...overrides };
}
