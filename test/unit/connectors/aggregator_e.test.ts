import { createAggregatorEConnector } from '../../../functions/connectors/aggregator_e';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { stableId } from '../../../functions/connectors/ids';
import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { Account } from '../../../functions/contracts/schemas';
import { Identity } from '../../../functions/contracts/product-schemas';
import type { FakeServer } from '../../support/provider-fakes/fake-server';
import { defaultEState, E_API_KEY, E_CUSTOMER, E_LOGIN, eChequing, startAggregatorEFake } from '../../support/provider-fakes/aggregator_e';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
const connection: Connection = { institutionId: 'ins_any', login: E_LOGIN };
let fake: FakeServer & { state: ReturnType<typeof defaultEState> };
let connector: ConnectorPort;
const build = (apiKey = E_API_KEY) =>
  createAggregatorEConnector({
    config: { AGGREGATOR_E_CUSTOMER_ID: E_CUSTOMER, AGGREGATOR_E_API_KEY: apiKey, AGGREGATOR_E_BASE_URL: fake.url, AGGREGATOR_E_CONNECT_URL: 'https://demo-iframe.example/v2/' },
    http: createProviderHttp({ sleep: async () => {} }),
  });

beforeEach(async () => {
  fake = await startAggregatorEFake(defaultEState());
  connector = build();
});
afterEach(() => fake.close());

describe('aggregator_e', () => {
  it('sends the user to the hosted Connect page and connects the loginId it returns', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_any', state: 's-1', redirectUri: 'https://app.example/back' });
    const url = new URL(start.authorizeUrl);
    expect(url.origin + url.pathname).toBe('https://demo-iframe.example/v2/');
    expect(url.searchParams.get('redirectUrl')).toBe('https://app.example/back?state=s-1');
    expect(await connector.connect!('ins_any', { method: 'oauth', code: E_LOGIN, redirectUri: 'r', pending: {} })).toEqual({ status: 'connected', connection: { institutionId: 'ins_any', login: E_LOGIN } });
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'not-a-login', redirectUri: 'r', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('ins_any', { method: 'oauth', code: '00000000-0000-4000-8000-000000000000', redirectUri: 'r', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('polls past 202 OPERATION_PENDING and maps accounts and debit/credit transactions to a window', async () => {
    const batch = await connector.initialHistory(connection, TODAY);
    expect(fake.requests.map((r) => r.path.split('/BankingServices/')[1])).toEqual(['Authorize', 'GetAccountsDetail', expect.stringMatching(/^GetAccountsDetailAsync\//)]);
    Account.parse(batch.accounts[0]);
    expect(batch.accounts[0]).toMatchObject({ account_id: stableId('acc', 'aggregator_e', E_LOGIN, 'acct-e-1'), mask: '3344', type: 'depository', subtype: 'chequing', balances: { current: 1500.5, iso_currency_code: 'CAD' } });
    expect(batch.transactions).toEqual({
      kind: 'window',
      transactions: [
        expect.objectContaining({ date: '2026-06-29', amount: 45.1, name: 'PAIEMENT EPICERIE', pending: false, iso_currency_code: 'CAD' }),
        expect.objectContaining({ date: '2026-06-15', amount: -2100 }),
      ],
    });
  });

  it('hands a long preparation back as rate_limited with the documented polling interval', async () => {
    fake.state.pendingPolls = 10;
    expect(await failure(connector.refresh(connection, TODAY, 1))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 10 } });
  });

  it('maps FlinksCode errors and refused operator keys', async () => {
    fake.state.authorizeError = 'SESSION_EXPIRED';
    expect((await failure(connector.refresh(connection, TODAY, 1))).kind).toBe('login_required');
    fake.state.authorizeError = null;
    const refused = await failure(build('wrong-key-e').accounts(connection, TODAY));
    expect(refused.kind).toBe('provider_error');
    expect(refused.message).not.toContain('wrong-key-e');
    fake.fail({ pathPrefix: '/v3/', response: { status: 503, body: 'down' } });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('provider_error');
    fake.fail({ pathPrefix: '/v3/', response: { status: 429, headers: { 'retry-after': '60' }, body: { FlinksCode: 'TOO_MANY_REQUESTS' } } });
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 60 } });
  });

  it('turns hostile payloads into provider_error naming the field', async () => {
    fake.state.pendingPolls = 0;
    fake.state.accounts = [{ ...eChequing, Transactions: [{ Id: 't', Date: '2026/06/01', Description: 'X', Debit: '5.00', Credit: null }] }];
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('Accounts[0].Transactions[0].Debit');
    fake.state.accounts = [{ ...eChequing, Transactions: [{ Id: 't', Date: '2026/06/01', Description: 'X', Debit: 5, Credit: 5 }] }];
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('exactly one of Debit and Credit');
    fake.state.accounts = [{ ...eChequing, Balance: null }];
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('Accounts[0].Balance');
  });

  it('reads identity from the account holder and says which products it does not offer', async () => {
    fake.state.pendingPolls = 0;
    const identity = Identity.parse(await connector.identity(connection, { today: TODAY, accounts: [] }));
    expect(identity.owners[0]).toMatchObject({ names: ['Jordan Tremblay'], addresses: [{ data: { city: 'Montreal', region: 'QC' } }] });
    expect((await failure(connector.liabilities(connection, { today: TODAY, accounts: [] }))).message).toBe('Liabilities is not offered by this connector.');
  });
});
