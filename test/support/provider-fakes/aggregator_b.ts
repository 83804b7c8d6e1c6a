// A loopback fake of Aggregator B's documented API: HTTP Basic (client id : API key), the vendor
// Accept header, users, connect-widget URLs, members with a connection status, page-numbered lists
// (`pagination.current_page` / `total_pages`) of accounts, transactions and account owners.
// Values are invented; shapes follow the provider's public API reference.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const B_CLIENT_ID = 'client-b-42';
export const B_API_KEY = 'apikey-b-very-private';
export const B_USER = 'USR-11aa';
export const B_MEMBER = 'MBR-22bb';

export interface AggregatorBState {
  connectionStatus: string;
  accounts: unknown[];
  transactions: unknown[];
  owners: unknown[];
  /** A page number of the transactions list that answers 500. */
  failingTransactionsPage: number | null;
}

export const mxChecking = { guid: 'ACT-1', name: 'Checking', type: 'CHECKING', subtype: 'NONE', balance: 840.5, available_balance: 800, credit_limit: null, currency_code: 'USD', account_number: '****6789' };
export const mxCard = { guid: 'ACT-2', name: 'Visa', type: 'CREDIT_CARD', subtype: null, balance: 310.2, available_balance: 4689.8, credit_limit: 5000, currency_code: 'USD', account_number: null };

export function mxTxn(guid: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { guid, account_guid: 'ACT-1', amount: 61.09, type: 'DEBIT', status: 'POSTED', date: '2026-06-20', transacted_at: '2026-06-19T18:00:00Z', posted_at: '2026-06-20T12:00:00Z', description: 'Grocer', original_description: 'GROCER 0042 SPRINGFIELD', currency_code: 'USD', merchant_category_code: 5411, ...overrides };
}

export function defaultBState(): AggregatorBState {
  return {
    connectionStatus: 'CONNECTED',
    accounts: [mxChecking, mxCard],
    transactions: Array.from({ length: 150 }, (_, i) => mxTxn(`TRN-${i}`, { date: `2026-06-${String((i % 28) + 1).padStart(2, '0')}` })),
    owners: [],
    failingTransactionsPage: null,
  };
}

const paged = (key: string, rows: unknown[], req: FakeRequest): FakeResponse => {
  const page = Number(req.query.get('page') ?? '1');
  const per = Number(req.query.get('records_per_page') ?? '25');
  const totalPages = Math.max(1, Math.ceil(rows.length / per));
  return { status: 200, body: { [key]: rows.slice((page - 1) * per, page * per), pagination: { current_page: page, per_page: per, total_entries: rows.length, total_pages: totalPages } } };
};

function route(state: AggregatorBState) {
  return (req: FakeRequest): FakeResponse => {
    const expected = `Basic ${Buffer.from(`${B_CLIENT_ID}:${B_API_KEY}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return { status: 401, body: { error: { message: 'Unauthorized' } } };
    if (req.headers.accept !== 'application/vnd.mx.api.v1+json') return { status: 406, body: { error: { message: 'Not acceptable' } } };
    const member = `/users/${B_USER}/members/${B_MEMBER}`;
    if (req.method === 'POST' && req.path === '/users') return { status: 200, body: { user: { guid: B_USER, id: (req.parsed as { user: { id: string } }).user.id } } };
    if (req.method === 'POST' && req.path === `/users/${B_USER}/widget_urls`) return { status: 200, body: { widget_url: { type: 'connect_widget', url: 'https://widgets.example/connect/abc', user_id: 'u' } } };
    if (!req.path.startsWith(member)) return { status: 404, body: { error: { message: 'Not found' } } };
    const rest = req.path.slice(member.length);
    if (req.method === 'DELETE' && rest === '') return { status: 204 };
    if (rest === '/status') return { status: 200, body: { member: { guid: B_MEMBER, connection_status: state.connectionStatus, is_being_aggregated: false } } };
    if (rest === '/accounts') return paged('accounts', state.accounts, req);
    if (rest === '/account_owners') return paged('account_owners', state.owners, req);
    if (rest === '/transactions') {
      if (!req.query.get('from_date') || !req.query.get('to_date')) return { status: 400, body: { error: { message: 'dates required' } } };
      if (Number(req.query.get('page')) === state.failingTransactionsPage) return { status: 500, body: { error: { message: 'boom' } } };
      return paged('transactions', state.transactions, req);
    }
    return { status: 404, body: { error: { message: 'Not found' } } };
  };
}

export async function startAggregatorBFake(state: AggregatorBState = defaultBState()): Promise<FakeServer & { state: AggregatorBState }> {
  return Object.assign(await startFakeServer(route(state)), { state });
}
