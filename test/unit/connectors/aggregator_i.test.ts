import { ConnectorError, type Connection, type ConnectorPort } from '../../../functions/core/connector-port';
import { createAggregatorIConnector } from '../../../functions/connectors/aggregator_i';
import { errorKind, mapAccount, mapActivity, mapPosition } from '../../../functions/connectors/aggregator_i/mapping';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { errorBody, FAKE_CLIENT_ID, FAKE_CONSUMER_KEY, fakeAccount, fakeActivity, fakePosition, startAggregatorIFake, type AggregatorIFake } from '../../support/provider-fakes/aggregator_i';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const LOGIN = 'user-31ab';
const account = { id: '8c4e-acct', brokerage_authorization: 'auth-1', name: 'Individual Margin', number: 'Q12345678', institution_name: 'Example Brokerage', balance: { total: { amount: 25410.32, currency: 'USD' } }, raw_type: 'Margin' };
const position = { symbol: { symbol: { id: 'sym-aapl', symbol: 'AAPL', description: 'Apple Inc.', type: { code: 'cs', description: 'Common Stock' }, currency: { code: 'USD' } } }, units: 12, price: 231.5, average_purchase_price: 180.25 };
const buy = { id: 'act-1', account: { id: '8c4e-acct' }, symbol: { symbol: 'AAPL' }, type: 'BUY', units: 2, price: 225, amount: -450, currency: { code: 'USD' }, trade_date: '2026-01-05T00:00:00Z', description: 'Bought 2 AAPL' };

function thrown(fn: () => unknown): ConnectorError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConnectorError) return err;
    throw err;
  }
  throw new Error('expected a ConnectorError');
}

describe('aggregator_i mapping', () => {
  it('maps brokerage accounts', () => {
    expect(mapAccount(account, LOGIN).record).toMatchObject({ type: 'investment', subtype: 'margin', mask: '5678', balances: { current: 25410.32, iso_currency_code: 'USD' } });
  });

  it('maps positions to holdings with value and cost basis, and a stable security id', () => {
    const { holding, security } = mapPosition(position, LOGIN, 'acc_ours');
    expect(holding).toMatchObject({ account_id: 'acc_ours', quantity: 12, value: 2778, cost_basis: 2163 });
    expect(security).toMatchObject({ ticker: 'AAPL', type: 'equity', close_price: 231.5 });
    expect(mapPosition(position, 'other-user', 'acc_x').security.security_id).toBe(security.security_id);
  });

  it('maps activities with the contract sign and skips types it has no place for', () => {
    expect(mapActivity(buy, LOGIN, 'acc_ours')).toMatchObject({ type: 'buy', ticker: 'AAPL', quantity: 2, price: 225, amount: 450, date: '2026-01-05' });
    expect(mapActivity({ ...buy, id: 'act-2', type: 'DIVIDEND', units: null, price: null, amount: 3.12 }, LOGIN, 'acc_ours')).toMatchObject({ type: 'dividend', amount: -3.12, quantity: 0 });
    expect(mapActivity({ ...buy, id: 'act-3', type: 'OPTIONEXPIRATION' }, LOGIN, 'acc_ours')).toBeNull();
  });

  it('refuses hostile payloads and maps the documented errors', () => {
    expect(thrown(() => mapPosition({ ...position, units: '12' }, LOGIN, 'a')).message).toContain('position.units');
    expect(thrown(() => mapAccount({ ...account, balance: {} }, LOGIN)).message).toContain('account.balance.total');
    expect(errorKind(401, { detail: 'Unable to verify signature sent', status_code: 401, code: '1076' }).kind).toBe('provider_error');
    expect(errorKind(404, { detail: 'User not found', status_code: 404, code: '1012' }).kind).toBe('login_required');
    expect(errorKind(429, { detail: 'Too many requests' }).kind).toBe('rate_limited');
  });
});

const TODAY = '2026-01-15';
let fake: AggregatorIFake;
let sleeps: number[];
let connector: ConnectorPort;

const build = (consumerKey = FAKE_CONSUMER_KEY) =>
  createAggregatorIConnector({
    config: { AGGREGATOR_I_CLIENT_ID: FAKE_CLIENT_ID, AGGREGATOR_I_CONSUMER_KEY: consumerKey, AGGREGATOR_I_BASE_URL: `${fake.url}/api/v1` },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });

beforeEach(async () => {
  fake = await startAggregatorIFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

async function link(): Promise<Connection> {
  const start = await connector.beginOauth!({ institutionId: 'ins_broker', state: 'st_3', redirectUri: 'https://api.example.test/link/oauth/callback' });
  fake.authorizations.push({ id: 'auth-1', disabled: false, brokerage: { name: 'Example Brokerage' } });
  const result = await connector.connect!('ins_broker', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return { ...result.connection, secrets: result.secrets };
}

describe('aggregator_i: Link', () => {
  it('registers a user, opens the signed connection portal returning with the state, and connects with the user secret as the item secret', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_broker', state: 'st_3', redirectUri: 'https://api.example.test/link/oauth/callback' });
    const redirect = new URL(new URL(start.authorizeUrl).searchParams.get('redirect')!);
    expect(redirect.searchParams.get('state')).toBe('st_3');
    expect(fake.requests.find((r) => r.path.endsWith('/snapTrade/login'))?.parsed).toMatchObject({ immediateRedirect: true, connectionType: 'read' });
    expect(await connector.connect!('ins_broker', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    fake.authorizations.push({ id: 'auth-1', disabled: false });
    const result = await connector.connect!('ins_broker', { method: 'oauth', code: '', redirectUri: 'x', pending: start.pending });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_broker', login: start.pending.user }, secrets: { userSecret: fake.users.get(start.pending.user) } });
  });

  it('a wrong consumer key fails the signature: provider_error without the key; other methods are refused', async () => {
    const err = await failure(build('not-the-key').beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test/cb' }));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('not-the-key');
    expect(await connector.connect!('i', { method: 'api_key', apiKey: 'k', apiSecret: 's' })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('deletes the user at disconnect', async () => {
    const connection = await link();
    await connector.disconnect!(connection);
    expect(fake.users.has(connection.login)).toBe(false);
  });
});

describe('aggregator_i: accounts and investments', () => {
  it('reads accounts; the pulls carry balances and no cash transactions', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acct-1'));
    const batch = await connector.initialHistory(connection, TODAY);
    expect(batch.accounts[0]).toMatchObject({ type: 'investment', balances: { current: 25410.32, iso_currency_code: 'USD' } });
    expect(batch.transactions).toEqual({ kind: 'changes', upserted: [], removed: [] });
    expect(JSON.stringify(batch)).not.toContain('acct-1');
  });

  it('maps positions and every page of two years of activities, newest first', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acct-1'));
    fake.positions.set('acct-1', [fakePosition('sym-aapl', 'AAPL', 10, 200), fakePosition('sym-msft', 'MSFT', 2, 400)]);
    fake.activities.set('acct-1', [fakeActivity('a1', 'BUY', -200, '2025-05-01'), fakeActivity('a2', 'DIVIDEND', 3.5, '2025-11-01'), fakeActivity('a3', 'OPTIONEXPIRATION', 0, '2025-12-01'), fakeActivity('a4', 'SELL', 410, '2026-01-05')]);
    const result = await connector.investments(connection, { today: TODAY, accounts: [] });
    expect(result.holdings.map((h) => [h.security.ticker, h.value])).toEqual([['AAPL', 2000], ['MSFT', 800]]);
    expect(result.securities).toHaveLength(2);
    expect(result.investment_transactions.map((t) => [t.type, t.amount, t.date])).toEqual([['sell', -410, '2026-01-05'], ['dividend', -3.5, '2025-11-01'], ['buy', 200, '2025-05-01']]);
    const pages = fake.requests.filter((r) => r.path.endsWith('/activities'));
    expect(pages.map((r) => r.query.get('offset'))).toEqual(['0', '2']);
    expect(pages[0].query.get('startDate')).toBe('2024-01-16');
  });
});

describe('aggregator_i: failures', () => {
  it('a user the aggregator no longer has, or a missing user secret, needs the user again', async () => {
    const connection = await link();
    fake.users.delete(connection.login);
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
    expect((await failure(connector.accounts({ ...connection, secrets: {} }, TODAY))).kind).toBe('login_required');
  });

  it('429 is rate_limited with its hint, 5xx a provider_error after retries, a failing activities page fails the whole read', async () => {
    const connection = await link();
    fake.accounts.push(fakeAccount('acct-1'));
    fake.fail({ pathPrefix: '/api/v1/accounts', response: { ...errorBody(429, '1115', 'Too many requests'), headers: { 'retry-after': '30' } } });
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 30 } });
    fake.fail({ pathPrefix: '/api/v1/accounts', response: errorBody(500, '1000', 'Internal error'), times: 3 });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
    expect(sleeps.length).toBeGreaterThan(0);
    fake.activities.set('acct-1', [fakeActivity('a1', 'BUY', -1, '2025-05-01'), fakeActivity('a2', 'BUY', -1, '2025-05-02'), fakeActivity('a3', 'BUY', -1, '2025-05-03')]);
    fake.fail({ pathPrefix: '/api/v1/accounts/acct-1/activities', response: errorBody(502, '1000', 'Bad gateway'), times: 3 });
    await expect(connector.investments(connection, { today: TODAY, accounts: [] })).rejects.toMatchObject({ kind: 'provider_error' });
  });

  it('refuses hostile answers: a non-list, strings for numbers, an activity page without pagination', async () => {
    const connection = await link();
    fake.fail({ pathPrefix: '/api/v1/accounts', response: { status: 200, body: { accounts: [] } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('accounts');
    fake.accounts.push(fakeAccount('acct-1'));
    fake.positions.set('acct-1', [{ ...fakePosition('s', 'X', 1, 1), units: '1' }]);
    expect((await failure(connector.investments(connection, { today: TODAY, accounts: [] }))).message).toContain('position.units');
    fake.positions.set('acct-1', []);
    fake.fail({ pathPrefix: '/api/v1/accounts/acct-1/activities', response: { status: 200, body: { data: [] } } });
    expect((await failure(connector.investments(connection, { today: TODAY, accounts: [] }))).message).toContain('activities.pagination');
  });
});
