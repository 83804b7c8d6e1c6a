import { generateKeyPairSync } from 'node:crypto';
import type { Connection, ConnectorPort } from '../../../functions/core/connector-port';
import { createAggregatorGConnector } from '../../../functions/connectors/aggregator_g';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { FAKE_APP_ID, FAKE_SECRET, fakeAccount, fakeTransaction, startAggregatorGFake, type AggregatorGFake } from '../../support/provider-fakes/aggregator_g';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-01-15';
let fake: AggregatorGFake;
let sleeps: number[];
let connector: ConnectorPort;

const build = (extra: Record<string, string> = {}) =>
  createAggregatorGConnector({
    config: { AGGREGATOR_G_APP_ID: FAKE_APP_ID, AGGREGATOR_G_SECRET: FAKE_SECRET, AGGREGATOR_G_BASE_URL: fake.url, ...extra },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
  });

beforeEach(async () => {
  fake = await startAggregatorGFake();
  sleeps = [];
  connector = build();
});
afterEach(() => fake.close());

async function link(connectionId = '5551001'): Promise<Connection> {
  fake.connectionOnSession = connectionId;
  const start = await connector.beginOauth!({ institutionId: 'ins_de_bank', state: 'st_9', redirectUri: 'https://api.example.test/link/oauth' });
  const result = await connector.connect!('ins_de_bank', { method: 'oauth', code: connectionId, redirectUri: 'x', pending: start.pending });
  if (result.status !== 'connected') throw new Error(`not connected: ${result.status}`);
  return result.connection;
}

describe('aggregator_g: Link', () => {
  it('creates a customer and a connect session that returns with the state, and connects the returned connection', async () => {
    fake.connectionOnSession = '5551001';
    const start = await connector.beginOauth!({ institutionId: 'ins_de_bank', state: 'st_9', redirectUri: 'https://api.example.test/link/oauth' });
    expect(start.authorizeUrl).toBe('https://connect.example.test/connect?token=tok_901');
    const session = fake.requests.find((r) => r.path === '/connect_sessions/create')?.parsed as { data: { attempt: { return_to: string; return_connection_id: boolean } } };
    expect(new URL(session.data.attempt.return_to).searchParams.get('state')).toBe('st_9');
    expect(session.data.attempt.return_connection_id).toBe(true);
    expect(await connector.connect!('ins_de_bank', { method: 'oauth', code: '5551001', redirectUri: 'x', pending: start.pending })).toEqual({
      status: 'connected',
      connection: { institutionId: 'ins_de_bank', login: '5551001' },
    });
  });

  it('refuses a connection of another customer, a malformed code and other methods', async () => {
    fake.connectionOnSession = '5551001';
    await connector.beginOauth!({ institutionId: 'i', state: 's', redirectUri: 'https://r.test' });
    expect(await connector.connect!('i', { method: 'oauth', code: '5551001', redirectUri: 'x', pending: { customer: '999' } })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('i', { method: 'oauth', code: '../customers', redirectUri: 'x', pending: { customer: '901' } })).toMatchObject({ status: 'invalid_credentials' });
    expect(await connector.connect!('i', { method: 'address', address: 'x' })).toMatchObject({ status: 'invalid_credentials' });
  });

  it('signs every request with the operator key when one is configured', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fake.publicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    connector = build({ AGGREGATOR_G_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    fake.accounts.push(fakeAccount('301', '5551001'));
    const connection = await link();
    expect(await connector.accounts(connection, TODAY)).toHaveLength(1);
    // Without the key the same fake refuses the requests.
    const unsigned = build();
    expect((await failure(unsigned.accounts(connection, TODAY))).kind).toBe('provider_error');
  });
});

describe('aggregator_g: accounts and transactions', () => {
  it('maps accounts, a card balance as owed, and masks the IBAN', async () => {
    fake.accounts.push(fakeAccount('301', '5551001'), fakeAccount('302', '5551001', { name: 'Kreditkarte', nature: 'credit_card', balance: -312.4, extra: { credit_limit: 2000 } }));
    const connection = await link();
    const [giro, card] = await connector.accounts(connection, TODAY);
    expect(giro).toMatchObject({ type: 'depository', subtype: 'checking', mask: '3000', balances: { current: 1820.55, available: 1700.05, iso_currency_code: 'EUR' } });
    expect(card).toMatchObject({ type: 'credit', balances: { current: 312.4, available: null, limit: 2000 } });
    expect(JSON.stringify([giro, card])).not.toContain('DE89');
  });

  it('reads every page, maps signs and pending, resumes from the highest id, and removes a pending transaction that disappeared', async () => {
    fake.pageSize = 50;
    fake.accounts.push(fakeAccount('301', '5551001'));
    for (let i = 0; i < 120; i += 1) fake.transactions.push(fakeTransaction(1000 + i, '301', -(10 + i), '2025-11-20'));
    fake.transactions.push(fakeTransaction(1200, '301', 2450, '2025-12-28', { description: 'Gehalt ACME GmbH', extra: { payee: 'ACME GmbH' } }));
    fake.transactions.push(fakeTransaction(1201, '301', -19.99, '2026-01-14', { status: 'pending', extra: { mcc: '5812', time: '12:30:05' } }));
    const connection = await link();
    const first = await connector.initialHistory(connection, TODAY);
    if (first.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(first.transactions.upserted).toHaveLength(122);
    expect(first.transactions.upserted[0]).toMatchObject({ date: '2026-01-14', amount: 19.99, pending: true, mcc: '5812', authorized_datetime: '2026-01-14T12:30:05Z' });
    expect(first.transactions.upserted.find((t) => t.amount === -2450)).toMatchObject({ counterparty: 'ACME GmbH', pending: false });
    expect(JSON.parse(first.cursor ?? '')).toEqual({ from: { '301': '1201' }, pending: ['1201'] });

    // The pending one posts under a new id: the next pull reads from the recorded id and removes the pending one.
    fake.transactions.splice(fake.transactions.findIndex((t) => t.id === '1201'), 1);
    fake.transactions.push(fakeTransaction(1202, '301', -19.99, '2026-01-15'));
    const second = await connector.refresh({ ...connection, cursor: first.cursor }, TODAY, 1);
    if (second.transactions.kind !== 'changes') throw new Error('expected changes');
    expect(fake.requests.some((r) => r.query.get('from_id') === '1201')).toBe(true);
    expect(second.transactions.upserted.map((t) => t.amount)).toEqual([19.99]);
    expect(second.transactions.removed).toEqual([first.transactions.upserted[0].transaction_id]);
  });
});

describe('aggregator_g: failures', () => {
  let connection: Connection;
  beforeEach(async () => {
    fake.accounts.push(fakeAccount('301', '5551001'));
    for (let i = 0; i < 80; i += 1) fake.transactions.push(fakeTransaction(1000 + i, '301', -5, '2025-12-01'));
    connection = await link();
  });

  it('answers expired consent, a removed connection and an inactive connection as login_required', async () => {
    fake.fail({ pathPrefix: '/accounts', response: { status: 406, body: { error: { class: 'ConsentExpired', message: 'Consent expired' } } } });
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
    fake.connections[0].status = 'inactive';
    fake.connections[0].last_attempt = { fail_error_class: 'InvalidCredentials' };
    const inactive = await failure(connector.accounts(connection, TODAY));
    expect(inactive).toMatchObject({ kind: 'login_required', details: { code: 'InvalidCredentials' } });
    await connector.disconnect!(connection);
    expect((await failure(connector.accounts(connection, TODAY))).kind).toBe('login_required');
  });

  it('answers 429 with Retry-After as rate_limited and refused operator keys as provider_error without the secret', async () => {
    fake.fail({ pathPrefix: '/connections', response: { status: 429, headers: { 'retry-after': '120' }, body: { error: { class: 'RateLimitExceeded', message: 'slow down' } } } });
    expect(await failure(connector.accounts(connection, TODAY))).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 120 } });
    const wrong = createAggregatorGConnector({ config: { AGGREGATOR_G_APP_ID: FAKE_APP_ID, AGGREGATOR_G_SECRET: 'not-the-secret-xyz', AGGREGATOR_G_BASE_URL: fake.url }, http: createProviderHttp() });
    const err = await failure(wrong.accounts(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain('not-the-secret-xyz');
    expect(err.message).not.toContain(FAKE_SECRET);
  });

  it('fails the whole pull when a later page fails, and stops on a repeated page', async () => {
    fake.pageSize = 50;
    fake.fail({ pathPrefix: '/transactions', response: { status: 200, body: { data: fake.transactions.slice(0, 50), meta: { next_id: '1050' } } } });
    fake.fail({ pathPrefix: '/transactions', response: { status: 503, body: 'unavailable' }, times: 3 });
    expect((await failure(connector.initialHistory(connection, TODAY))).kind).toBe('provider_error');
    expect(sleeps).toHaveLength(2);

    fake.fail({ pathPrefix: '/transactions', response: { status: 200, body: { data: [], meta: { next_id: '1050' } } }, times: 3 });
    expect((await failure(connector.initialHistory({ ...connection, cursor: JSON.stringify({ from: { '301': '1050' }, pending: [] }) }, TODAY))).message).toContain('repeated');
  });

  it('turns hostile payloads into provider_error naming the field', async () => {
    fake.transactions[5].amount = '12,50';
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transaction.amount');
    fake.transactions[5].amount = -12.5;
    fake.transactions[6].id = 'abc';
    expect((await failure(connector.initialHistory(connection, TODAY))).message).toContain('transaction.id');
    fake.fail({ pathPrefix: '/accounts', response: { status: 200, body: { data: [{ id: '301', name: 'x', nature: 'account', currency_code: 'EUR' }] } } });
    expect((await failure(connector.accounts(connection, TODAY))).message).toContain('account.balance');
  });
});

describe('aggregator_g: products', () => {
  it('maps holder info to identity and says liabilities are not offered', async () => {
    fake.accounts.push(fakeAccount('301', '5551001'));
    fake.holderInfo = { names: ['Lena Vogel'], emails: ['lena@example.test'], phone_numbers: ['+4915550000'], addresses: [{ street: 'Hauptstr. 5', city: 'Berlin', post_code: '10115', country_code: 'DE' }] };
    const connection = await link();
    const accounts = await connector.accounts(connection, TODAY);
    const identity = await connector.identity(connection, { today: TODAY, accounts });
    expect(identity.owners[0]).toMatchObject({ names: ['Lena Vogel'], addresses: [{ data: { city: 'Berlin', postal_code: '10115', country: 'DE', region: null } }], account_ids: [accounts[0].account_id] });
    expect((await failure(connector.liabilities(connection, { today: TODAY, accounts })))).toMatchObject({ kind: 'provider_error', message: 'Liabilities is not offered by this connector.' });
  });
});
