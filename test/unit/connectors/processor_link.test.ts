import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { createProcessorLinkConnector } from '../../../functions/connectors/processor_link';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { FAKE_SECRET_KEY, fakeAccount, fakeTransaction, startProcessorLinkFake, type ProcessorLinkFake } from '../../support/provider-fakes/processor_link';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-01-15';
const LAUNCH = 'https://link.example.test/processor-launch';
let fake: ProcessorLinkFake;
let sleeps: number[];
let connector: ConnectorPort;

beforeEach(async () => {
  fake = await startProcessorLinkFake();
  sleeps = [];
  connector = createProcessorLinkConnector({
    config: { PROCESSOR_LINK_SECRET_KEY: FAKE_SECRET_KEY, PROCESSOR_LINK_BASE_URL: fake.url, PROCESSOR_LINK_LAUNCH_URL: LAUNCH },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
});
afterEach(() => fake.close());

/** Links `accountIds` through the full Link flow and answers the item's connection. */
async function link(accountIds: string[]): Promise<Connection> {
  fake.linkOnSession = accountIds;
  const start = await connector.beginOauth!({ institutionId: 'ins_riverbend', state: 'st_123', redirectUri: 'https://api.example.test/link/oauth' });
  const result = await connector.connect!('ins_riverbend', { method: 'oauth', code: start.pending.session, redirectUri: 'https://api.example.test/link/oauth', pending: start.pending });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return result.connection;
}

describe('processor_link: Link', () => {
  it('creates an account holder and a session, hands the launch page the client secret and state, and connects on the completed session', async () => {
    fake.accounts.push(fakeAccount('fca_chk'));
    fake.linkOnSession = ['fca_chk'];
    const start = await connector.beginOauth!({ institutionId: 'ins_riverbend', state: 'st_123', redirectUri: 'https://api.example.test/link/oauth' });
    const url = new URL(start.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(LAUNCH);
    expect(url.searchParams.get('state')).toBe('st_123');
    expect(url.searchParams.get('client_secret')).toBe('fcsess_fake1_secret_abc');
    const sessionCall = fake.requests.find((r) => r.path === '/v1/financial_connections/sessions');
    expect(sessionCall?.parsed).toMatchObject({ 'account_holder[customer]': 'cus_fake1', 'permissions[1]': 'transactions', return_url: 'https://api.example.test/link/oauth' });

    const result = await connector.connect!('ins_riverbend', { method: 'oauth', code: 'fcsess_fake1', redirectUri: 'x', pending: start.pending });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_riverbend', login: 'cus_fake1' } });
    expect(fake.requests.some((r) => r.path === '/v1/financial_connections/accounts/fca_chk/subscribe')).toBe(true);
  });

  it('refuses a code that is not the session it started, other methods, and a session that linked nothing', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_riverbend', state: 's', redirectUri: 'https://r.test' });
    expect(await connector.connect!('ins_riverbend', { method: 'oauth', code: 'fcsess_other', redirectUri: 'x', pending: start.pending })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('ins_riverbend', { method: 'api_key', apiKey: 'a', apiSecret: 'b' })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('ins_riverbend', { method: 'oauth', code: start.pending.session, redirectUri: 'x', pending: start.pending })).toEqual({ status: 'invalid_credentials', message: 'No account was linked.' });
    expect(await connector.login('ins_riverbend', { username: 'u', password: 'p' })).toEqual({ status: 'invalid_credentials' });
  });

  it('needs the operator launch page before it can start a session', async () => {
    const bare = createProcessorLinkConnector({ config: { PROCESSOR_LINK_SECRET_KEY: FAKE_SECRET_KEY, PROCESSOR_LINK_BASE_URL: fake.url }, http: createProviderHttp() });
    expect((await failure(bare.beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test' }))).kind).toBe('provider_error');
  });
});

describe('processor_link: accounts and transactions', () => {
  it('maps balances from minor units, shows a card balance as owed, and never shows the provider ids', async () => {
    fake.accounts.push(
      fakeAccount('fca_chk'),
      fakeAccount('fca_card', { category: 'credit', subcategory: 'credit_card', display_name: 'Rewards Card', last4: '4242', balance: { type: 'credit', current: { usd: -48_250 }, credit: { used: { usd: 48_250 } } } }),
    );
    const connection = await link(['fca_chk', 'fca_card']);
    const accounts = await connector.accounts(connection, TODAY);
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toMatchObject({ type: 'depository', subtype: 'checking', mask: '6789', balances: { current: 2543.1, available: 2500.1, limit: null, iso_currency_code: 'USD' } });
    expect(accounts[1]).toMatchObject({ type: 'credit', subtype: 'credit card', balances: { current: 482.5, available: null } });
    expect(JSON.stringify(accounts)).not.toContain('fca_');
    expect(await connector.accounts(connection, TODAY)).toEqual(accounts);
  });

  it('maps signs, pending and void, follows every page and records where the next refresh resumes', async () => {
    fake.accounts.push(fakeAccount('fca_chk'));
    for (let i = 0; i < 230; i += 1) fake.transactions.push(fakeTransaction(`fctxn_${String(i).padStart(3, '0')}`, 'fca_chk', -1_000 - i, '2025-12-01'));
    fake.transactions.push(fakeTransaction('fctxn_pay', 'fca_chk', 250_000, '2025-12-31', { description: 'ACME PAYROLL' }));
    fake.transactions.push(fakeTransaction('fctxn_pend', 'fca_chk', -1_299, '2026-01-14', { status: 'pending' }));
    fake.transactions.push(fakeTransaction('fctxn_void', 'fca_chk', -500, '2026-01-13', { status: 'void' }));
    const connection = await link(['fca_chk']);
    const batch = await connector.initialHistory(connection, TODAY);
    if (batch.transactions.kind !== 'changes') throw new Error('expected changes');
    const { upserted, removed } = batch.transactions;
    expect(upserted).toHaveLength(232);
    expect(new Set(upserted.map((t) => t.transaction_id)).size).toBe(232);
    expect(upserted[0]).toMatchObject({ date: '2026-01-14', amount: 12.99, pending: true, iso_currency_code: 'USD' });
    expect(upserted.find((t) => t.name === 'ACME PAYROLL')).toMatchObject({ amount: -2500, pending: false, date: '2025-12-31', authorized_datetime: '2025-12-31T15:30:00Z' });
    expect(removed).toHaveLength(1);
    expect(fake.requests.filter((r) => r.path === '/v1/financial_connections/transactions')).toHaveLength(3);
    expect(JSON.parse(batch.cursor ?? '')).toEqual({ after: { fca_chk: 'fctxnref_002' } });

    // The next refresh asks only for what refreshes after the recorded one brought.
    fake.transactions.push(fakeTransaction('fctxn_new', 'fca_chk', -4_200, '2026-01-15', { transaction_refresh: 'fctxnref_003' }));
    fake.accounts[0].transaction_refresh = { id: 'fctxnref_003', status: 'succeeded' };
    const next = await connector.refresh({ ...connection, cursor: batch.cursor }, TODAY, 1);
    expect(fake.requests[fake.requests.length - 1].query.get('transaction_refresh[after]')).toBe('fctxnref_002');
    expect(next.transactions).toEqual({ kind: 'changes', upserted: [expect.objectContaining({ amount: 42 })], removed: [] });
    expect(JSON.parse(next.cursor ?? '')).toEqual({ after: { fca_chk: 'fctxnref_003' } });
  });

  it('keeps the cursor while a transaction refresh is still running', async () => {
    fake.accounts.push(fakeAccount('fca_chk', { transaction_refresh: { id: 'fctxnref_009', status: 'pending' } }));
    const connection = await link(['fca_chk']);
    const batch = await connector.refresh({ ...connection, cursor: JSON.stringify({ after: { fca_chk: 'fctxnref_002' } }) }, TODAY, 1);
    expect(JSON.parse(batch.cursor ?? '')).toEqual({ after: { fca_chk: 'fctxnref_002' } });
  });
});

describe('processor_link: failures', () => {
  let connection: Connection;
  beforeEach(async () => {
    fake.accounts.push(fakeAccount('fca_chk'));
    for (let i = 0; i < 150; i += 1) fake.transactions.push(fakeTransaction(`fctxn_${String(i).padStart(3, '0')}`, 'fca_chk', -100, '2025-12-01'));
    connection = await link(['fca_chk']);
  });

  it('answers a refused secret key as provider_error without the key in the message', async () => {
    const wrong = createProcessorLinkConnector({ config: { PROCESSOR_LINK_SECRET_KEY: 'sk_live_wrong_secret', PROCESSOR_LINK_BASE_URL: fake.url }, http: createProviderHttp() });
    const err = await failure(wrong.accounts(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('sk_live_wrong_secret');
  });

  it('answers 429 with its Retry-After hint as rate_limited', async () => {
    fake.fail({ pathPrefix: '/v1/financial_connections/accounts', response: { status: 429, headers: { 'retry-after': '30' }, body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } } } });
    const err = await failure(connector.accounts(connection, TODAY));
    expect(err).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 30 } });
  });

  it('retries a 5xx and gives up with provider_error, and a failing page fails the whole pull', async () => {
    fake.fail({ pathPrefix: '/v1/financial_connections/accounts', response: { status: 500, body: { error: { type: 'api_error', message: 'boom' } } }, times: 3 });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
    expect(sleeps).toHaveLength(2);

    // The first transactions page answers; the second fails on every attempt: no batch at all.
    fake.fail({ pathPrefix: '/v1/financial_connections/transactions', response: { status: 200, body: { object: 'list', data: fake.transactions.slice(0, 100), has_more: true } } });
    fake.fail({ pathPrefix: '/v1/financial_connections/transactions', response: { status: 502, body: 'bad gateway' }, times: 3 });
    expect((await failure(connector.initialHistory(connection, TODAY))).kind).toBe('provider_error');
    expect(fake.requests.filter((r) => r.path === '/v1/financial_connections/transactions')).toHaveLength(4);
  });

  it('answers a linked account the provider no longer has, or disconnected accounts, as login_required', async () => {
    fake.fail({ pathPrefix: '/v1/financial_connections/transactions', response: { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such account: 'fca_chk'" } } } });
    expect((await failure(connector.initialHistory(connection, TODAY))).kind).toBe('login_required');
    await connector.disconnect!(connection);
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
  });

  it('turns hostile payloads into provider_error naming the field', async () => {
    fake.transactions[3].amount = '12.50';
    const err = await failure(connector.initialHistory(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('transaction.amount');

    fake.fail({ pathPrefix: '/v1/financial_connections/accounts', response: { status: 200, body: { object: 'list', data: [fakeAccount('fca_chk', { balance: { current: { usd: 'lots' } } })], has_more: false } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('account.balance.current.usd');

    fake.fail({ pathPrefix: '/v1/financial_connections/accounts', response: { status: 200, body: { object: 'list', data: [] } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('has_more');
  });

  it('stops on a provider that repeats the same page forever', async () => {
    const stuck = { status: 200, body: { object: 'list', data: [fakeTransaction('fctxn_loop', 'fca_chk', -1, '2025-12-01')], has_more: true } };
    fake.fail({ pathPrefix: '/v1/financial_connections/transactions', response: stuck, times: 5 });
    const err = await failure(connector.initialHistory(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(fake.requests.filter((r) => r.path === '/v1/financial_connections/transactions').length).toBeLessThanOrEqual(2);
  });
});

describe('processor_link: products', () => {
  it('maps account owners into identity, merging an owner of several accounts', async () => {
    fake.accounts.push(fakeAccount('fca_chk', { ownership: 'fcaowns_1' }), fakeAccount('fca_sav', { subcategory: 'savings', ownership: 'fcaowns_2' }));
    const owner = { id: 'fcaowner_1', object: 'financial_connections.account_owner', name: 'Jordan Rivera', email: 'jordan@example.test', phone: '+15555550123', raw_address: '12 Elm St, Springfield, IL 62701', ownership: 'fcaowns_1' };
    fake.owners = { fcaowns_1: [owner], fcaowns_2: [{ ...owner, id: 'fcaowner_2', ownership: 'fcaowns_2' }] };
    const connection = await link(['fca_chk', 'fca_sav']);
    const accounts = await connector.accounts(connection, TODAY);
    const identity = await connector.identity(connection, { today: TODAY, accounts });
    expect(identity.owners).toHaveLength(1);
    expect(identity.owners[0]).toMatchObject({ names: ['Jordan Rivera'], emails: [{ data: 'jordan@example.test', primary: true }], account_ids: accounts.map((a) => a.account_id) });
  });

  it('says liabilities and investments are not offered', async () => {
    const connection: Connection = { institutionId: 'i', login: 'cus_x' };
    expect((await failure(connector.liabilities(connection, { today: TODAY, accounts: [] }))).message).toBe('Liabilities is not offered by this connector.');
    expect((await failure(connector.investments(connection, { today: TODAY, accounts: [] }))).kind).toBe('provider_error');
  });
});
