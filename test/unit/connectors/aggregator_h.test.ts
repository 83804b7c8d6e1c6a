import { ConnectorError, type Connection, type ConnectorPort } from '../../../functions/core/connector-port';
import { createAggregatorHConnector } from '../../../functions/connectors/aggregator_h';
import { errorKind, mapAccount, mapOwners, mapTransaction } from '../../../functions/connectors/aggregator_h/mapping';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { errorArray, FAKE_SECRET_ID, FAKE_SECRET_PASSWORD, fakeAccount, fakeTransaction, startAggregatorHFake, type AggregatorHFake } from '../../support/provider-fakes/aggregator_h';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const LOGIN = 'link-5e0a';
const account = { id: 'b1d8-acc', link: LOGIN, institution: { name: 'Banco Ficticio', type: 'bank' }, category: 'CHECKING_ACCOUNT', type: 'Cuentas de efectivo', name: 'Cuenta Nómina', number: '4057 0000 1234', balance: { current: 15320.5, available: 15000 }, currency: 'MXN', credit_data: null };
const card = { ...account, id: 'c2e9-acc', category: 'CREDIT_CARD', name: 'Tarjeta Oro', balance: { current: 4210.75, available: 5789.25 }, credit_data: { credit_limit: 10000 } };
const ids = new Map([['b1d8-acc', 'acc_ours']]);
const txn = { id: 'f00d-txn', account: { id: 'b1d8-acc' }, created_at: '2026-01-12T10:00:00Z', value_date: '2026-01-11', accounting_date: '2026-01-12T08:00:00Z', amount: 389.9, currency: 'MXN', description: 'OXXO SUC 1234', type: 'OUTFLOW', status: 'PROCESSED', merchant: { merchant_name: 'OXXO', website: null } };

function thrown(fn: () => unknown): ConnectorError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConnectorError) return err;
    throw err;
  }
  throw new Error('expected a ConnectorError');
}

describe('aggregator_h mapping', () => {
  it('maps accounts and a credit card with its limit', () => {
    expect(mapAccount(account, LOGIN).record).toMatchObject({ type: 'depository', subtype: 'checking', mask: '1234', official_name: 'Banco Ficticio Cuenta Nómina', balances: { current: 15320.5, available: 15000, iso_currency_code: 'MXN' } });
    expect(mapAccount(card, LOGIN).record).toMatchObject({ type: 'credit', balances: { current: 4210.75, available: null, limit: 10000 } });
  });

  it('signs transactions by direction and maps pending and the merchant', () => {
    expect(mapTransaction(txn, LOGIN, ids)).toMatchObject({ account_id: 'acc_ours', amount: 389.9, date: '2026-01-11', pending: false, counterparty: 'OXXO', iso_currency_code: 'MXN' });
    expect(mapTransaction({ ...txn, id: 'x2', type: 'INFLOW', status: 'PENDING', amount: 12000, merchant: null }, LOGIN, ids)).toMatchObject({ amount: -12000, pending: true });
  });

  it('refuses hostile payloads with provider_error naming the field', () => {
    expect(thrown(() => mapTransaction({ ...txn, amount: '389.90' }, LOGIN, ids)).message).toContain('transaction.amount');
    expect(thrown(() => mapTransaction({ ...txn, type: 'SIDEWAYS' }, LOGIN, ids)).message).toContain('transaction.type');
    expect(thrown(() => mapAccount({ ...account, balance: { current: null } }, LOGIN)).message).toContain('account.balance.current');
  });

  it('maps owners and the documented error codes', () => {
    expect(mapOwners([{ id: 'o1', display_name: 'Mariana López', email: 'mariana@example.test', phone_number: '+525555550000', address: 'Av. Reforma 100, CDMX' }], ['acc_ours']).owners[0]).toMatchObject({ names: ['Mariana López'], account_ids: ['acc_ours'] });
    expect(errorKind(400, [{ code: 'invalid_credentials', message: 'Invalid credentials provided', request_id: 'r1' }]).kind).toBe('login_required');
    expect(errorKind(428, [{ code: 'token_required', message: 'A MFA token is required' }]).kind).toBe('login_required');
    expect(errorKind(400, [{ code: 'session_expired' }]).kind).toBe('login_required');
    expect(errorKind(400, [{ code: 'too_many_sessions' }]).kind).toBe('rate_limited');
    expect(errorKind(500, [{ code: 'institution_down' }]).kind).toBe('provider_error');
  });
});

const TODAY = '2026-01-15';
const LINK = '4c8a0f32-7b1e-4d2a-9c55-0e6f1a2b3c4d';
let fake: AggregatorHFake;
let sleeps: number[];
let connector: ConnectorPort;

const build = (password = FAKE_SECRET_PASSWORD) =>
  createAggregatorHConnector({
    config: { AGGREGATOR_H_SECRET_ID: FAKE_SECRET_ID, AGGREGATOR_H_SECRET_PASSWORD: password, AGGREGATOR_H_BASE_URL: fake.url, AGGREGATOR_H_WIDGET_URL: 'https://widget.example.test' },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });

beforeEach(async () => {
  fake = await startAggregatorHFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

async function link(): Promise<Connection> {
  const start = await connector.beginOauth!({ institutionId: 'ins_mx', state: 'st_7', redirectUri: 'https://api.example.test/link/oauth/callback' });
  fake.completeWidget(start.pending.external, LINK);
  const result = await connector.connect!('ins_mx', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return result.connection;
}

describe('aggregator_h: Link', () => {
  it('opens the hosted widget with a widget token and an external id, returning with the state, and connects the link it created', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_mx', state: 'st_7', redirectUri: 'https://api.example.test/link/oauth/callback' });
    const url = new URL(start.authorizeUrl);
    expect(url.origin).toBe('https://widget.example.test');
    expect(url.searchParams.get('access_token')).toBe('widget-access-token-9e');
    expect(url.searchParams.get('external_id')).toBe(start.pending.external);
    const token = fake.requests.find((r) => r.path === '/api/token/')?.parsed as { widget: { callback_urls: Record<string, string> } };
    expect(new URL(token.widget.callback_urls.success).searchParams.get('state')).toBe('st_7');
    expect(new URL(token.widget.callback_urls.exit).searchParams.get('error')).toBe('access_denied');
    // Before the widget completed there is no link with that external id.
    expect(await connector.connect!('ins_mx', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    fake.completeWidget('someone-else', '11111111-1111-4111-8111-111111111111');
    fake.completeWidget(start.pending.external, LINK);
    expect(await connector.connect!('ins_mx', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toEqual({ status: 'connected', connection: { institutionId: 'ins_mx', login: LINK } });
  });

  it('refuses a link that is not valid, other methods, and wrong operator keys (provider_error, no secret in the message)', async () => {
    const start = await connector.beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test/cb' });
    fake.completeWidget(start.pending.external, LINK, 'invalid');
    expect(await connector.connect!('i', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toMatchObject({ status: 'invalid_credentials', message: 'The bank did not grant access.' });
    expect(await connector.connect!('i', { method: 'address', address: 'x' })).toMatchObject({ status: 'invalid_credentials' });
    const err = await failure(build('wrong-password').beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test/cb' }));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('wrong-password');
  });

  it('deletes the link at disconnect', async () => {
    const connection = await link();
    await connector.disconnect!(connection);
    expect(fake.links).toHaveLength(0);
  });
});

describe('aggregator_h: accounts, transactions, owners', () => {
  it('reads accounts and transactions across pages, signed by direction, from two years back', async () => {
    const connection = await link();
    fake.pageSize = 2;
    fake.accounts.push(fakeAccount('a1', LINK), fakeAccount('a2', LINK, { category: 'CREDIT_CARD', name: 'Tarjeta', balance: { current: 4210.75, available: 5789.25 }, credit_data: { credit_limit: 10000 } }));
    fake.transactions.push(
      fakeTransaction('t1', LINK, 'a1', 389.9, '2026-01-11'),
      fakeTransaction('t2', LINK, 'a1', 12000, '2026-01-10', { type: 'INFLOW' }),
      fakeTransaction('t3', LINK, 'a2', 99, '2025-03-02'),
      fakeTransaction('t-old', LINK, 'a1', 1, '2023-01-01'),
    );
    const batch = await connector.initialHistory(connection, TODAY);
    expect(batch.accounts.map((a) => [a.type, a.balances.current, a.balances.limit])).toEqual([['depository', 15320.5, null], ['credit', 4210.75, 10000]]);
    if (batch.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(batch.transactions.upserted.map((t) => [t.amount, t.date])).toEqual([[389.9, '2026-01-11'], [-12000, '2026-01-10'], [99, '2025-03-02']]);
    expect(fake.requests.find((r) => r.path === '/api/transactions/')?.query.get('value_date__gte')).toBe('2024-01-16');
    expect(fake.requests.filter((r) => r.path === '/api/transactions/').length).toBe(2);
  });

  it('refreshes from the cursor, reads back to the oldest pending transaction, and removes one the bank dropped', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('a1', LINK));
    fake.transactions.push(fakeTransaction('p1', LINK, 'a1', 50, '2025-12-20', { status: 'PENDING' }), fakeTransaction('t1', LINK, 'a1', 20, '2026-01-12'));
    const first = await connector.initialHistory(connection, TODAY);
    expect(JSON.parse(first.cursor!)).toEqual({ since: '2026-01-01', pending: [['p1', '2025-12-20']] });
    fake.transactions.splice(0, 1);
    const second = await connector.refresh({ ...connection, cursor: first.cursor }, '2026-01-16', 1);
    expect(fake.requests.filter((r) => r.path === '/api/transactions/').at(-1)?.query.get('value_date__gte')).toBe('2025-12-20');
    if (second.transactions.kind !== 'changes' || first.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(second.transactions.removed).toEqual([first.transactions.upserted.find((t) => t.pending)!.transaction_id]);
  });

  it('maps the owners of the link', async () => {
    const connection = await link();
    fake.owners.push({ id: 'o1', link: LINK, display_name: 'Mariana López', email: 'mariana@example.test', phone_number: '+525555550000', address: 'Av. Reforma 100, CDMX' });
    const identity = await connector.identity(connection, { today: TODAY, accounts: [] });
    expect(identity.owners[0]).toMatchObject({ names: ['Mariana López'], emails: [{ data: 'mariana@example.test' }] });
  });
});

describe('aggregator_h: failures', () => {
  it('a link that needs a token or was invalidated, and the documented 428 and session errors, need the user again', async () => {
    const connection = await link();
    fake.links[0].status = 'token_required';
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'login_required', details: { code: 'token_required' } });
    fake.links[0].status = 'valid';
    fake.fail({ pathPrefix: '/api/accounts/', response: errorArray(428, 'token_required', 'A MFA token is required by the institution') });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
    fake.fail({ pathPrefix: '/api/accounts/', response: errorArray(400, 'session_expired', 'The session has expired') });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
  });

  it('429 is rate_limited with its hint, 5xx a provider_error after retries, and a failing page leaves no partial batch', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('a1', LINK));
    fake.transactions.push(fakeTransaction('t1', LINK, 'a1', 1, '2026-01-12'), fakeTransaction('t2', LINK, 'a1', 2, '2026-01-11'));
    fake.fail({ pathPrefix: '/api/accounts/', response: { ...errorArray(429, 'too_many_requests', 'Too many requests'), headers: { 'retry-after': '60' } } });
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 60 } });
    fake.fail({ pathPrefix: '/api/accounts/', response: errorArray(500, 'unexpected_error', 'Belvo is having trouble'), times: 3 });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
    expect(sleeps.length).toBeGreaterThan(0);
    fake.pageSize = 1;
    fake.fail({ pathPrefix: '/api/transactions/', response: errorArray(503, 'institution_down', 'down'), times: 4 });
    await expect(connector.initialHistory(connection, TODAY)).rejects.toMatchObject({ kind: 'provider_error' });
  });

  it('refuses hostile answers: a next link to another host, a repeated page, strings for amounts, a login that is not a link id', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('a1', LINK));
    fake.fail({ pathPrefix: '/api/accounts/', response: { status: 200, body: { count: 9, next: 'https://evil.example.test/api/accounts/?page=2', results: [] } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('another host');
    const same = `${fake.url}/api/accounts/?link=${LINK}&page=2`;
    fake.fail({ pathPrefix: '/api/accounts/', response: { status: 200, body: { count: 9, next: same, results: [] } }, times: 2 });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('repeated');
    fake.transactions.push(fakeTransaction('t1', LINK, 'a1', 1, '2026-01-12', { amount: '389.90' }));
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transaction.amount');
    expect((await failure(connector.accounts({ ...connection, login: '../api/links' }, TODAY))).kind).toBe('provider_error');
  });
});
