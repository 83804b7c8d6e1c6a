import { ConnectorError, type Connection, type ConnectorPort } from '../../../functions/core/connector-port';
import { createAggregatorFConnector } from '../../../functions/connectors/aggregator_f';
import { errorKind, mapAccount, mapTransaction, pageOf } from '../../../functions/connectors/aggregator_f/mapping';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { activeConnection, errorList, FAKE_API_KEY, fakeAccount, fakeTransaction, settledJob, startAggregatorFFake, type AggregatorFFake } from '../../support/provider-fakes/aggregator_f';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const LOGIN = 'user-7d2c';
const account = { type: 'account', id: 'acc-9f31', accountNo: '062-000 12345678', name: 'Smart Access', currency: 'AUD', balance: '1523.40', availableFunds: '1500.00', class: { type: 'transaction', product: 'Smart Access Everyday' }, status: 'available' };
const card = { ...account, id: 'acc-cc77', name: 'Low Rate Card', balance: '-842.15', availableFunds: '4157.85', class: { type: 'credit-card', product: 'Low Rate Mastercard' } };
const accounts = new Map([['acc-9f31', { accountId: 'acc_ours', currency: 'AUD' }]]);
const txn = { type: 'transaction', id: 'txn-01', status: 'posted', description: 'WOOLWORTHS 1234 SYDNEY', amount: '-54.20', account: 'acc-9f31', direction: 'debit', postDate: '2026-01-12T00:00:00Z', transactionDate: '2026-01-11T09:15:00Z', subClass: { code: '5411', title: 'Supermarkets' } };

function thrown(fn: () => unknown): ConnectorError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConnectorError) return err;
    throw err;
  }
  throw new Error('expected a ConnectorError');
}

describe('aggregator_f mapping', () => {
  it('maps accounts from decimal strings, a card balance as owed, without the provider ids', () => {
    const { record } = mapAccount(account, LOGIN);
    expect(record).toMatchObject({ type: 'depository', subtype: 'checking', official_name: 'Smart Access Everyday', mask: '5678', balances: { current: 1523.4, available: 1500, iso_currency_code: 'AUD' } });
    expect(record.account_id).not.toContain('acc-9f31');
    expect(mapAccount(card, LOGIN).record).toMatchObject({ type: 'credit', balances: { current: 842.15, available: null } });
  });

  it('maps transactions: debit positive, credit negative, pending, dates, MCC and the account currency', () => {
    expect(mapTransaction(txn, LOGIN, accounts)).toMatchObject({ account_id: 'acc_ours', amount: 54.2, date: '2026-01-12', authorized_datetime: '2026-01-11T09:15:00Z', pending: false, mcc: '5411', iso_currency_code: 'AUD' });
    expect(mapTransaction({ ...txn, id: 'txn-02', amount: '2500.00', status: 'pending', postDate: null }, LOGIN, accounts)).toMatchObject({ amount: -2500, pending: true, date: '2026-01-11' });
  });

  it('refuses hostile payloads with provider_error naming the field', () => {
    expect(thrown(() => mapTransaction({ ...txn, amount: 54.2 }, LOGIN, accounts)).message).toContain('transaction.amount');
    expect(thrown(() => mapTransaction({ ...txn, amount: 'NaN' }, LOGIN, accounts)).message).toContain('transaction.amount');
    expect(thrown(() => mapTransaction({ ...txn, account: 'acc-other' }, LOGIN, accounts)).message).toContain('transaction.account');
    expect(thrown(() => mapAccount({ ...account, balance: null }, LOGIN)).kind).toBe('provider_error');
    expect(thrown(() => pageOf({ type: 'list', data: 'x' }, 'transactions')).message).toContain('transactions.data');
  });

  it('reads the next-page link and maps documented error lists', () => {
    expect(pageOf({ type: 'list', data: [txn], links: { self: 'a', next: 'https://au-api.example.test/users/u/transactions?next=abc' } }, 'transactions').next).toContain('next=abc');
    expect(errorKind(403, { type: 'list', correlationId: 'c', data: [{ type: 'error', code: 'access-denied', title: 'Forbidden', detail: 'Access denied' }] }).kind).toBe('login_required');
    expect(errorKind(429, { type: 'list', data: [{ code: 'rate-limit-exceeded' }] }).kind).toBe('rate_limited');
    expect(errorKind(500, undefined)).toEqual({ kind: 'provider_error', code: 'http_500' });
  });
});

const TODAY = '2026-01-15';
let fake: AggregatorFFake;
let sleeps: number[];
let connector: ConnectorPort;

const build = (apiKey = FAKE_API_KEY) =>
  createAggregatorFConnector({ config: { AGGREGATOR_F_API_KEY: apiKey, AGGREGATOR_F_BASE_URL: fake.url, AGGREGATOR_F_CONSENT_URL: 'https://consent.example.test' }, http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }) });

beforeEach(async () => {
  fake = await startAggregatorFFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

async function link(): Promise<Connection> {
  const start = await connector.beginOauth!({ institutionId: 'ins_au', state: 'st_1', redirectUri: 'https://api.example.test/link/oauth/callback' });
  fake.connections.push(activeConnection());
  const result = await connector.connect!('ins_au', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return result.connection;
}

describe('aggregator_f: Link', () => {
  it('creates a user, opens the consent UI with a client token bound to it and the state, and connects once a connection is active', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_au', state: 'st_1', redirectUri: 'https://api.example.test/link/oauth/callback' });
    const url = new URL(start.authorizeUrl);
    expect(url.origin + url.pathname).toBe('https://consent.example.test/home');
    expect(url.searchParams.get('state')).toBe('st_1');
    expect(url.searchParams.get('token')).toBe(fake.clientTokens.get(start.pending.user));
    // Before the user consented there is no connection: nothing to connect.
    expect(await connector.connect!('ins_au', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    fake.connections.push(activeConnection());
    expect(await connector.connect!('ins_au', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toEqual({ status: 'connected', connection: { institutionId: 'ins_au', login: start.pending.user } });
  });

  it('refuses other methods and a session without its user; an operator key the aggregator refuses is a provider_error', async () => {
    expect(await connector.connect!('i', { method: 'api_key', apiKey: 'k', apiSecret: 's' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('i', { method: 'oauth', code: 'x', redirectUri: 'x', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
    const err = await failure(build('wrong-key').beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test' }));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('wrong-key');
  });

  it('deletes the user at disconnect', async () => {
    const connection = await link();
    await connector.disconnect!(connection);
    expect(fake.users).not.toContain(connection.login);
  });
});

describe('aggregator_f: accounts and transactions', () => {
  it('reads accounts and two years of posted and pending transactions across pages, signed for the contract', async () => {
    const connection = await link();
    fake.pageSize = 2;
    fake.accounts.push(fakeAccount('acc-1'), fakeAccount('acc-2', { name: 'Card', balance: '-842.15', class: { type: 'credit-card' } }));
    fake.transactions.push(
      fakeTransaction('t1', 'acc-1', '-54.20', '2026-01-12'),
      fakeTransaction('t2', 'acc-1', '2500.00', '2026-01-10'),
      fakeTransaction('t3', 'acc-2', '-12.00', '2025-06-01'),
      fakeTransaction('t-old', 'acc-1', '-1.00', '2023-01-01'),
      fakeTransaction('p1', 'acc-1', '-9.99', null),
    );
    const batch = await connector.initialHistory(connection, TODAY);
    expect(batch.accounts.map((a) => a.balances.current)).toEqual([1523.4, 842.15]);
    if (batch.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(batch.transactions.upserted.map((t) => [t.amount, t.pending, t.date])).toEqual([
      [9.99, true, '2026-01-14'],
      [54.2, false, '2026-01-12'],
      [-2500, false, '2026-01-10'],
      [12, false, '2025-06-01'],
    ]);
    const filters = fake.requests.filter((r) => r.path.endsWith('/transactions')).map((r) => r.query.get('filter'));
    expect(filters).toContain("transaction.postDate.gteq('2024-01-16')");
    expect(fake.requests.filter((r) => r.path.endsWith('/transactions') && r.query.get('next') !== null).length).toBeGreaterThan(0);
    expect(JSON.stringify(batch)).not.toContain('acc-1');
  });

  it('refreshes incrementally from the cursor, triggers the day\'s first bank refresh, and removes a pending transaction that went away', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acc-1'));
    fake.jobs.push(settledJob());
    fake.transactions.push(fakeTransaction('t1', 'acc-1', '-54.20', '2026-01-12'), fakeTransaction('p1', 'acc-1', '-9.99', null));
    const first = await connector.initialHistory(connection, TODAY);
    expect(JSON.parse(first.cursor!)).toEqual({ since: '2026-01-01', pending: ['p1'] });
    fake.transactions.splice(1, 1, fakeTransaction('t2', 'acc-1', '-9.99', '2026-01-16'));
    const second = await connector.refresh({ ...connection, cursor: first.cursor }, '2026-01-16', 1);
    expect(fake.requests.some((r) => r.method === 'POST' && r.path.endsWith('/connections/refresh'))).toBe(true);
    expect(fake.requests.filter((r) => r.path.endsWith('/transactions')).at(-2)?.query.get('filter')).toBe("transaction.postDate.gteq('2026-01-01')");
    if (second.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(second.transactions.removed).toEqual([first.transactions.kind === 'changes' ? first.transactions.upserted.find((t) => t.pending)!.transaction_id : '']);
    // The day's later refreshes only read.
    const posts = fake.requests.filter((r) => r.method === 'POST').length;
    await connector.refresh({ ...connection, cursor: second.cursor }, '2026-01-16', 2);
    expect(fake.requests.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('keeps reading from the same date while a job is still retrieving data', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acc-1'));
    fake.jobs.push(settledJob('job-1', 'in-progress'));
    const batch = await connector.initialHistory(connection, TODAY);
    expect(JSON.parse(batch.cursor!).since).toBe('2024-01-16');
  });
});

describe('aggregator_f: identity and failures', () => {
  it('maps the identities to owners of the item\'s accounts', async () => {
    const connection = await link();
    fake.identities.push({ type: 'identity', id: 'id-1', fullName: 'Olivia Nguyen', emailAddresses: ['olivia@example.test'], phoneNumbers: ['+61400000000'], physicalAddresses: [{ addressLine1: '1 George St', city: 'Sydney', state: 'NSW', postcode: '2000', country: 'AU' }] });
    const identity = await connector.identity(connection, { today: TODAY, accounts: [] });
    expect(identity.owners[0]).toMatchObject({ names: ['Olivia Nguyen'], emails: [{ data: 'olivia@example.test', primary: true }], addresses: [{ data: { city: 'Sydney', postal_code: '2000' } }] });
    await expect(connector.liabilities(connection, { today: TODAY, accounts: [] })).rejects.toMatchObject({ kind: 'provider_error' });
  });

  it('an invalid or missing connection needs the user again; a revoked consent error list too', async () => {
    const connection = await link();
    fake.connections.splice(0, 1, { ...activeConnection(), status: 'invalid' });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
    fake.connections.splice(0, 1, activeConnection());
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: errorList(403, 'consent-revoked', 'Consent revoked') });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
  });

  it('429 becomes rate_limited with the hint; 5xx after retries a provider_error; a failing page leaves no partial batch', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acc-1'));
    fake.transactions.push(fakeTransaction('t1', 'acc-1', '-1.00', '2026-01-12'), fakeTransaction('t2', 'acc-1', '-2.00', '2026-01-11'));
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: { ...errorList(429, 'rate-limit-exceeded', 'Too many'), headers: { 'retry-after': '90' } } });
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 90 } });
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: errorList(503, 'service-unavailable', 'Down'), times: 3 });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
    expect(sleeps.length).toBeGreaterThan(0);
    fake.pageSize = 1;
    fake.fail({ pathPrefix: `/users/${connection.login}/transactions`, response: errorList(500, 'internal-server-error', 'x'), times: 4 });
    await expect(connector.initialHistory(connection, TODAY)).rejects.toMatchObject({ kind: 'provider_error' });
  });

  it('refuses hostile pages: a next link to another host, a repeated page, ill-typed amounts', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acc-1'));
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: { status: 200, body: { type: 'list', data: [], links: { next: 'https://evil.example.test/steal' } } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('another host');
    const loop = `${fake.url}/users/${connection.login}/accounts?next=0`;
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: { status: 200, body: { type: 'list', data: [], links: { next: loop } } }, times: 2 });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('repeated');
    fake.transactions.push(fakeTransaction('t1', 'acc-1', '-1.00', '2026-01-12', { amount: 12 }));
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transaction.amount');
    fake.fail({ pathPrefix: `/users/${connection.login}/accounts`, response: { status: 200, body: 'not json' } });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
  });
});
