import { createAggregatorBConnector } from '../../../functions/connectors/aggregator_b';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { stableId } from '../../../functions/connectors/ids';
import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { Account } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import type { FakeServer } from '../../support/provider-fakes/fake-server';
import { B_API_KEY, B_CLIENT_ID, B_MEMBER, B_USER, defaultBState, mxTxn, startAggregatorBFake } from '../../support/provider-fakes/aggregator_b';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
const LOGIN = `${B_USER}/${B_MEMBER}`;
const connection: Connection = { institutionId: 'ins_any', login: LOGIN };
let fake: FakeServer & { state: ReturnType<typeof defaultBState> };
let sleeps: number[];
let connector: ConnectorPort;

const build = (apiKey = B_API_KEY) =>
  createAggregatorBConnector({ config: { AGGREGATOR_B_CLIENT_ID: B_CLIENT_ID, AGGREGATOR_B_API_KEY: apiKey, AGGREGATOR_B_BASE_URL: fake.url }, http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }) });

beforeEach(async () => {
  fake = await startAggregatorBFake(defaultBState());
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

describe('aggregator_b', () => {
  it('creates a user and a connect-widget URL, then connects the member the widget names', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_any', state: 'st-9', redirectUri: 'https://app.example/back' });
    expect(start).toEqual({ authorizeUrl: 'https://widgets.example/connect/abc', pending: { user_guid: B_USER } });
    // The widget returns member_guid only: our state must ride in the redirect URL, and never be the provider's user id.
    expect(fake.requests[1].parsed).toMatchObject({ widget_url: { widget_type: 'connect_widget', client_redirect_url: 'https://app.example/back?state=st-9' } });
    expect(JSON.stringify(fake.requests[0].parsed)).not.toContain('st-9');
    expect(await connector.connect!('ins_any', { method: 'oauth', code: B_MEMBER, redirectUri: 'r', pending: start.pending })).toEqual({ status: 'connected', connection: { institutionId: 'ins_any', login: LOGIN } });
  });

  it('refuses a malformed member and a member the institution challenged', async () => {
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'nope', redirectUri: 'r', pending: { user_guid: B_USER } })).toMatchObject({ status: 'invalid_credentials' });
    fake.state.connectionStatus = 'DENIED';
    expect(await connector.connect!('ins_any', { method: 'oauth', code: B_MEMBER, redirectUri: 'r', pending: { user_guid: B_USER } })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('maps accounts, taking the mask from the masked account number', async () => {
    const accounts = await connector.accounts(connection, TODAY);
    accounts.forEach((a) => Account.parse(a));
    expect(accounts[0]).toMatchObject({ account_id: stableId('acc', 'aggregator_b', LOGIN, 'ACT-1'), type: 'depository', subtype: 'none', mask: '6789', balances: { current: 840.5, available: 800, limit: null, iso_currency_code: 'USD' } });
    expect(accounts[1]).toMatchObject({ type: 'credit', mask: '', balances: { limit: 5000 } });
  });

  it('reads every page of the window and signs amounts by DEBIT/CREDIT', async () => {
    fake.state.transactions.push(mxTxn('TRN-credit', { type: 'CREDIT', amount: 1500, status: 'PENDING', merchant_category_code: null, date: '2026-06-30' }));
    const batch = await connector.initialHistory(connection, TODAY);
    if (batch.transactions.kind !== 'window') throw new Error('expected a window');
    expect(batch.transactions.transactions).toHaveLength(151);
    const pages = fake.requests.filter((r) => r.path.endsWith('/transactions'));
    expect(pages.map((r) => r.query.get('page'))).toEqual(['1', '2']);
    expect(pages[0].query.get('from_date')).toBe('2024-07-01');
    const credit = batch.transactions.transactions.find((t) => t.transaction_id === stableId('txn', 'aggregator_b', LOGIN, 'TRN-credit'))!;
    expect(credit).toMatchObject({ amount: -1500, pending: true, date: '2026-06-30' });
    expect(batch.transactions.transactions[0].date).toBe('2026-06-30');
    const debit = batch.transactions.transactions.find((t) => t.transaction_id === stableId('txn', 'aggregator_b', LOGIN, 'TRN-0'))!;
    expect(debit).toMatchObject({ amount: 61.09, name: 'GROCER 0042 SPRINGFIELD', mcc: '5411', counterparty: 'Grocer', authorized_datetime: '2026-06-19T18:00:00Z' });
  });

  it('refreshes a 30-day window', async () => {
    await connector.refresh(connection, TODAY, 1);
    expect(fake.requests.find((r) => r.path.endsWith('/transactions'))!.query.get('from_date')).toBe('2026-06-01');
  });

  it('fails the whole pull when a later page fails', async () => {
    fake.state.failingTransactionsPage = 2;
    const err = await failure(connector.initialHistory(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(sleeps).toHaveLength(2);
  });

  it('maps statuses needing the user, a deleted member, rate limits and refused operator keys', async () => {
    fake.state.connectionStatus = 'CHALLENGED';
    expect((await failure(connector.refresh(connection, TODAY, 1))).kind).toBe('login_required');
    expect((await failure(connector.accounts({ ...connection, login: `${B_USER}/MBR-gone` }, TODAY))).kind).toBe('login_required');
    fake.state.connectionStatus = 'CONNECTED';
    fake.fail({ pathPrefix: '/users', response: { status: 429, headers: { 'retry-after': '120' } } });
    const limited = await failure(connector.accounts(connection, TODAY));
    expect(limited).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 120 } });
    const refused = await failure(build('wrong-key-value').accounts(connection, TODAY));
    expect(refused.kind).toBe('provider_error');
    expect(refused.message).not.toContain('wrong-key-value');
  });

  it('turns hostile payloads into provider_error naming the field', async () => {
    fake.state.transactions = [mxTxn('x', { amount: '61.09' })];
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transactions[0].amount');
    fake.state.transactions = [mxTxn('x', { type: 'SIDEWAYS' })];
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transactions[0].type');
    fake.state.accounts = [{ guid: 'ACT-9', type: 'CHECKING' }];
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('accounts[0].name');
  });

  it('maps account owners to identity and says which products it does not offer', async () => {
    fake.state.owners = [
      { guid: 'ACO-1', account_guid: 'ACT-1', owner_name: 'Sam Doe', address: '5 Elm St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US', email: 'sam@example.com', phone: '555-0101' },
      { guid: 'ACO-2', account_guid: 'ACT-2', owner_name: 'Sam Doe', address: '5 Elm St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US', email: null, phone: null },
    ];
    const identity = Identity.parse(await connector.identity(connection, { today: TODAY, accounts: [] }));
    expect(identity.owners).toHaveLength(1);
    expect(identity.owners[0].account_ids).toHaveLength(2);
    expect(await failure(connector.investments(connection, { today: TODAY, accounts: [] }))).toMatchObject({ kind: 'provider_error', message: 'Investments is not offered by this connector.' });
    await connector.disconnect!(connection);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/users/${B_USER}/members/${B_MEMBER}` });
  });
});
