import { createAggregatorAConnector } from '../../../functions/connectors/aggregator_a';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { stableId } from '../../../functions/connectors/ids';
import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { Account, Transaction } from '../../../functions/contracts/schemas';
import { Identity, Liabilities } from '../../../functions/contracts/product-schemas';
import {
  A_ACCESS_TOKEN,
  A_CLIENT_ID,
  A_ITEM_ID,
  A_LINK_TOKEN,
  A_PUBLIC_TOKEN,
  A_SECRET,
  card,
  checking,
  defaultState,
  errorBody,
  startAggregatorAFake,
  txn,
} from '../../support/provider-fakes/aggregator_a';
import type { FakeServer } from '../../support/provider-fakes/fake-server';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
type Fake = FakeServer & { state: ReturnType<typeof defaultState> };

let fake: Fake;
let sleeps: number[];
let connector: ConnectorPort;
const connection = (extra: Partial<Connection> = {}): Connection => ({ institutionId: 'ins_any', login: A_ITEM_ID, secrets: { access_token: A_ACCESS_TOKEN }, ...extra });
const accId = (id: string) => stableId('acc', 'aggregator_a', A_ITEM_ID, id);
const txnId = (id: string) => stableId('txn', 'aggregator_a', A_ITEM_ID, id);

beforeEach(async () => {
  fake = await startAggregatorAFake(defaultState());
  sleeps = [];
  connector = createAggregatorAConnector({
    config: { AGGREGATOR_A_CLIENT_ID: A_CLIENT_ID, AGGREGATOR_A_SECRET: A_SECRET, AGGREGATOR_A_BASE_URL: fake.url },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });
});
afterEach(() => fake.close());

describe('aggregator_a link', () => {
  it('creates a hosted link session and exchanges the public token the widget hands back', async () => {
    const start = await connector.beginOauth!({ institutionId: 'ins_any', state: 'st-1', redirectUri: 'https://app.example/oauth' });
    expect(start.authorizeUrl).toBe(`https://hosted.example/link/${A_LINK_TOKEN}`);
    expect(start.pending).toEqual({ link_token: A_LINK_TOKEN });
    const create = fake.requests.find((r) => r.path === '/link/token/create')!.parsed as Record<string, unknown>;
    expect(create).toMatchObject({ user: { client_user_id: 'st-1' }, redirect_uri: 'https://app.example/oauth', transactions: { days_requested: 730 } });

    const result = await connector.connect!('ins_any', { method: 'oauth', code: A_PUBLIC_TOKEN, redirectUri: 'https://app.example/oauth', pending: start.pending });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_any', login: A_ITEM_ID }, secrets: { access_token: A_ACCESS_TOKEN } });
  });

  it('reads the public token from the finished session when the redirect carries none', async () => {
    const result = await connector.connect!('ins_any', { method: 'oauth', code: 'redirect-done', redirectUri: 'https://app.example/oauth', pending: { link_token: A_LINK_TOKEN } });
    expect(result.status).toBe('connected');
    expect(fake.requests.map((r) => r.path)).toEqual(['/link/token/get', '/item/public_token/exchange']);
  });

  it('refuses an unfinished session and an expired public token', async () => {
    fake.state.sessionPublicToken = null;
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'x', redirectUri: 'r', pending: { link_token: A_LINK_TOKEN } })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('ins_any', { method: 'oauth', code: 'public-stale', redirectUri: 'r', pending: {} })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.login('ins_any', { username: 'u', password: 'p' })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('names no secret when the operator credentials are wrong', async () => {
    const wrong = createAggregatorAConnector({ config: { AGGREGATOR_A_CLIENT_ID: A_CLIENT_ID, AGGREGATOR_A_SECRET: 'not-the-secret', AGGREGATOR_A_BASE_URL: fake.url }, http: createProviderHttp({ sleep: async () => {} }) });
    const err = await failure(wrong.accounts(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('INVALID_API_KEYS');
    expect(err.message).not.toContain('not-the-secret');
    expect(err.message).not.toContain(A_ACCESS_TOKEN);
  });
});

describe('aggregator_a accounts and transactions', () => {
  it('maps accounts and balances to the contract with stable ids', async () => {
    const accounts = await connector.accounts(connection(), TODAY);
    for (const a of accounts) Account.parse(a);
    expect(accounts[0]).toEqual({
      account_id: accId(checking.account_id),
      name: 'Everyday Checking',
      official_name: 'Everyday Checking Plus',
      type: 'depository',
      subtype: 'checking',
      mask: '0042',
      balances: { current: 1250.1, available: 1203.42, limit: null, iso_currency_code: 'USD' },
      verification_status: 'automatically_verified',
    });
    expect(accounts[1]).toMatchObject({ account_id: accId(card.account_id), type: 'credit', official_name: 'Rewards Card', balances: { limit: 5000 } });
    expect(accounts[0].account_id).not.toContain(checking.account_id);
  });

  it('reads the whole history across sync pages as a changes batch, keeping signs, pending and the raw descriptor', async () => {
    const batch = await connector.initialHistory(connection(), TODAY);
    expect(batch.cursor).toBe('c2');
    expect(batch.transactions.kind).toBe('changes');
    if (batch.transactions.kind !== 'changes') return;
    const byId = new Map(batch.transactions.upserted.map((t) => [t.transaction_id, t]));
    expect([...byId.keys()].sort()).toEqual([txnId('t1'), txnId('t2'), txnId('t3')].sort());
    expect(byId.get(txnId('t1'))).toEqual({
      transaction_id: txnId('t1'),
      account_id: accId(checking.account_id),
      date: '2026-06-28',
      authorized_datetime: null,
      name: 'CORNER COFFEE #221 SPRINGFIELD',
      amount: 12.5,
      iso_currency_code: 'USD',
      pending: false,
      counterparty: 'Corner Coffee',
    });
    expect(byId.get(txnId('t2'))!.amount).toBe(-2500);
    expect(byId.get(txnId('t2'))!.counterparty).toBeUndefined();
    expect(byId.get(txnId('t3'))!.pending).toBe(true);
    for (const t of byId.values()) Transaction.parse({ ...t, merchant_name: null, category: null, category_detailed: null, payment_channel: 'other' });
    expect(batch.accounts).toHaveLength(2);
  });

  it('refreshes from the stored cursor: added, modified and removed since the last pull', async () => {
    const batch = await connector.refresh(connection({ cursor: 'c2' }), TODAY, 1);
    expect(batch.cursor).toBe('c3');
    expect(batch.transactions).toEqual({
      kind: 'changes',
      upserted: [expect.objectContaining({ transaction_id: txnId('t4'), amount: 7.25 }), expect.objectContaining({ transaction_id: txnId('t1'), amount: 13 })],
      removed: [txnId('t3')],
    });
    expect((fake.requests.find((r) => r.path === '/transactions/sync')!.parsed as { cursor: string }).cursor).toBe('c2');
  });

  it('restarts the sync from its first cursor when the data changed during pagination', async () => {
    fake.fail({ pathPrefix: '/transactions/sync', response: errorBody('TRANSACTIONS_ERROR', 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION') });
    const batch = await connector.initialHistory(connection(), TODAY);
    const cursors = fake.requests.filter((r) => r.path === '/transactions/sync').map((r) => (r.parsed as { cursor?: string }).cursor ?? '');
    expect(cursors).toEqual(['', '', 'c1']);
    expect(batch.cursor).toBe('c2');
  });

  it('fails the whole pull when a later page fails after the retries: no partial batch', async () => {
    fake.state.failingCursor = 'c1';
    const err = await failure(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    const cursors = fake.requests.filter((r) => r.path === '/transactions/sync').map((r) => (r.parsed as { cursor?: string }).cursor ?? '');
    expect(cursors).toEqual(['', 'c1', 'c1', 'c1']);
    expect(sleeps).toHaveLength(2);
  });

  it('fails the pull on a page without its documented fields', async () => {
    fake.state.syncPages.c1 = { next_cursor: 'c2' } as never;
    const err = await failure(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('has_more');
  });

  it('never loops on a repeated cursor', async () => {
    fake.state.syncPages.c1 = { added: [], next_cursor: 'c1', has_more: true };
    const err = await failure(connector.initialHistory(connection(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toContain('repeated');
  });
});

describe('aggregator_a errors', () => {
  it('maps an expired login to login_required', async () => {
    fake.fail({ pathPrefix: '/transactions/sync', response: errorBody('ITEM_ERROR', 'ITEM_LOGIN_REQUIRED') });
    const err = await failure(connector.refresh(connection({ cursor: 'c2' }), TODAY, 1));
    expect(err.kind).toBe('login_required');
    expect(err.message).toContain('ITEM_LOGIN_REQUIRED');
  });

  it('maps the documented rate limit to rate_limited', async () => {
    fake.fail({ pathPrefix: '/accounts/get', response: { ...errorBody('RATE_LIMIT_EXCEEDED', 'ACCOUNTS_LIMIT', 429), headers: { 'retry-after': '30' } }, times: 3 });
    const err = await failure(connector.accounts(connection(), TODAY));
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterSeconds).toBe(30);
  });

  it('asks for a new login when the item has no access token', async () => {
    const err = await failure(connector.accounts({ institutionId: 'ins_any', login: A_ITEM_ID }, TODAY));
    expect(err.kind).toBe('login_required');
    expect(fake.requests).toHaveLength(0);
  });

  it('turns hostile payloads into provider_error naming the field', async () => {
    fake.state.accounts = [{ ...checking, balances: { ...checking.balances, current: '1250.10', available: null } }];
    const strings = await failure(connector.accounts(connection(), TODAY));
    expect(strings.kind).toBe('provider_error');
    expect(strings.message).toContain('accounts[0].balances.current');

    fake.state.accounts = [checking];
    fake.state.syncPages[''] = { added: [txn('bad', { amount: null })], next_cursor: 'c9', has_more: false };
    const missing = await failure(connector.initialHistory(connection(), TODAY));
    expect(missing.message).toContain('added[0].amount');

    fake.state.syncPages[''] = { added: new Array(10_001).fill(txn('same')), next_cursor: 'c9', has_more: false };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('more than');

    fake.state.syncPages[''] = { added: [txn('d', { date: '2026-13-45' })], next_cursor: 'c9', has_more: false };
    expect((await failure(connector.initialHistory(connection(), TODAY))).message).toContain('added[0].date');
  });
});

describe('aggregator_a products', () => {
  it('merges identity owners across accounts', async () => {
    const owner = {
      names: ['Alex Example'],
      emails: [{ data: 'alex@example.com', primary: true, type: 'primary' }],
      phone_numbers: [{ data: '+15555550100', primary: true, type: 'mobile' }],
      addresses: [{ data: { street: '1 Main St', city: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' }, primary: true }],
    };
    fake.state.identityAccounts = [{ ...checking, owners: [owner] }, { ...card, owners: [owner] }];
    const identity = Identity.parse(await connector.identity(connection(), { today: TODAY, accounts: [] }));
    expect(identity.owners).toHaveLength(1);
    expect(identity.owners[0].account_ids).toEqual([accId(checking.account_id), accId(card.account_id)]);
    expect(identity.owners[0].phone_numbers[0].type).toBe('mobile');
  });

  it('maps credit liabilities and leaves out entries the contract cannot hold', async () => {
    fake.state.liabilities = {
      credit: [
        { account_id: card.account_id, aprs: [{ apr_percentage: 22.9, apr_type: 'purchase_apr', balance_subject_to_apr: null }], is_overdue: false, last_payment_amount: 100, last_payment_date: '2026-06-10', last_statement_balance: 900.5, last_statement_issue_date: '2026-06-01', minimum_payment_amount: 35, next_payment_due_date: '2026-07-10' },
        { account_id: 'new-card', aprs: [], is_overdue: null, last_payment_amount: null, last_payment_date: null, last_statement_balance: null, last_statement_issue_date: null, minimum_payment_amount: null, next_payment_due_date: null },
      ],
      mortgage: null,
      student: null,
    };
    const liabilities = Liabilities.parse(await connector.liabilities(connection(), { today: TODAY, accounts: [] }));
    expect(liabilities.credit).toEqual([expect.objectContaining({ account_id: accId(card.account_id), aprs: [{ apr_type: 'purchase', apr_percentage: 22.9 }], minimum_payment_amount: 35 })]);
  });

  it('maps holdings and pages through investment transactions; no investment accounts is an empty answer', async () => {
    expect(await connector.investments(connection(), { today: TODAY, accounts: [] })).toEqual({ holdings: [], securities: [], investment_transactions: [] });

    fake.state.holdings = {
      securities: [{ security_id: 'sec-1', ticker_symbol: 'VTI', name: 'Total Market ETF', type: 'etf', close_price: 250.5 }],
      holdings: [{ account_id: 'brk-1', security_id: 'sec-1', quantity: 10, cost_basis: 2000, institution_price: 251, institution_value: 2510, iso_currency_code: 'USD' }],
    };
    fake.state.investmentTransactions = Array.from({ length: 501 }, (_, i) => ({
      investment_transaction_id: `it-${i}`,
      account_id: 'brk-1',
      security_id: i % 2 === 0 ? 'sec-1' : null,
      date: i === 0 ? '2026-06-30' : '2026-01-15',
      name: i % 2 === 0 ? 'BUY VTI' : 'DIVIDEND',
      quantity: i % 2 === 0 ? 1 : 0,
      amount: i % 2 === 0 ? 250 : -3.2,
      price: i % 2 === 0 ? 250 : 0,
      type: i % 2 === 0 ? 'buy' : 'cash',
      subtype: i % 2 === 0 ? 'buy' : 'dividend',
    }));
    const investments = await connector.investments(connection(), { today: TODAY, accounts: [] });
    expect(investments.holdings).toEqual([
      { holding_id: expect.stringMatching(/^hld_/), account_id: accId('brk-1'), security: { security_id: expect.stringMatching(/^sec_/), ticker: 'VTI', name: 'Total Market ETF', type: 'etf', close_price: 251 }, quantity: 10, cost_basis: 2000, value: 2510 },
    ]);
    expect(investments.investment_transactions).toHaveLength(501);
    expect(investments.investment_transactions[0]).toMatchObject({ date: '2026-06-30', type: 'buy', ticker: 'VTI' });
    expect(investments.investment_transactions.find((t) => t.name === 'DIVIDEND')).toMatchObject({ type: 'dividend', ticker: 'CASH', amount: -3.2 });
    const offsets = fake.requests.filter((r) => r.path === '/investments/transactions/get').map((r) => (r.parsed as { options: { offset: number } }).options.offset);
    expect(offsets).toEqual([0, 500]);
  });

  it('revokes the item at disconnect', async () => {
    await connector.disconnect!(connection());
    expect(fake.requests.map((r) => r.path)).toEqual(['/item/remove']);
  });
});
