// The open_banking_eu adapter against a loopback fake of the GoCardless Bank Account Data API v2:
// Link (agreement + requisition, then the requisition's status), accounts and balances,
// transactions (signs, pending, ids), incremental refresh with its cursor, the service token's
// cache and renewal, every documented failure mode, and hostile payloads.
import type { Connection, ConnectorPort, SourceBatch, SourceTransaction } from '../../../functions/core/connector-port';
import { createProviderHttp } from '../../../functions/connectors/provider-http';
import { createOpenBankingEuConnector, openBankingEuConnectorFactory } from '../../../functions/connectors/open_banking_eu';
import { matchInstitution, type ProviderInstitution } from '../../../functions/connectors/open_banking_eu/mapping';
import type { ServiceTokenCache } from '../../../functions/connectors/open_banking_eu/service-token';
import { OB_SECRET_ID, OB_SECRET_KEY, startOpenBankingEuFake, type FakeAccount, type FakeInstitution, type OpenBankingEuFake } from '../../support/provider-fakes/open_banking_eu';
import { connectorFailure as failure } from '../../support/provider-fakes/connector-failure';

const TODAY = '2026-07-01';
const REDIRECT = 'https://link.example/oauth/callback';

const GB_INSTITUTIONS: FakeInstitution[] = [
  { id: 'BARCLAYS_BUSINESS_BUKBGB22', name: 'Barclays Business', transaction_total_days: '730', max_access_valid_for_days: '180', countries: ['GB'] },
  { id: 'BARCLAYCARD_COMMERCIAL_BUKBGB22', name: 'Barclaycard Commercial Payments', transaction_total_days: '730', max_access_valid_for_days: '180', countries: ['GB'] },
  { id: 'BARCLAYS_BUKBGB22', name: 'Barclays Personal', transaction_total_days: '730', max_access_valid_for_days: '180', countries: ['GB'] },
  { id: 'MONZO_MONZGB2L', name: 'Monzo Bank', transaction_total_days: '90', max_access_valid_for_days: '90', countries: ['GB'] },
];
const NL_INSTITUTIONS: FakeInstitution[] = [
  { id: 'INGBANK_INGBNL2A', name: 'ING', transaction_total_days: '540', max_access_valid_for_days: '90', countries: ['NL'] },
  { id: 'INGENICO_X', name: 'Ingenico Payments', transaction_total_days: '90', countries: ['NL'] },
];

const current = (over: Partial<FakeAccount> = {}): FakeAccount => ({
  details: { resourceId: 'r1', iban: 'GB33BUKB20201555555555', currency: 'GBP', ownerName: 'Jane Doe', name: 'Main account', product: 'Barclays Bank Account', cashAccountType: 'CACC' },
  balances: [
    { balanceAmount: { amount: '1520.35', currency: 'GBP' }, balanceType: 'closingBooked', referenceDate: '2026-06-30' },
    { balanceAmount: { amount: '1490.00', currency: 'GBP' }, balanceType: 'interimAvailable', referenceDate: '2026-07-01' },
  ],
  booked: [
    {
      transactionId: 'TX-1',
      bookingDate: '2026-06-28',
      valueDate: '2026-06-28',
      transactionAmount: { amount: '-45.20', currency: 'GBP' },
      creditorName: 'TESCO STORES 3217',
      remittanceInformationUnstructured: 'TESCO STORES 3217   LONDON',
      merchantCategoryCode: '5411',
    },
    { transactionId: 'TX-2', bookingDate: '2026-06-25', transactionAmount: { amount: '2500.00', currency: 'GBP' }, debtorName: 'ACME LTD', remittanceInformationUnstructuredArray: ['SALARY', 'JUNE'] },
    // No provider id at all: content hash, and two identical rows stay two transactions.
    { bookingDate: '2026-06-20', transactionAmount: { amount: '-3.50', currency: 'GBP' }, remittanceInformationUnstructured: 'COFFEE' },
    { bookingDate: '2026-06-20', transactionAmount: { amount: '-3.50', currency: 'GBP' }, remittanceInformationUnstructured: 'COFFEE' },
    { internalTransactionId: 'int-77', bookingDate: '2025-01-10', transactionAmount: { amount: '-10.00', currency: 'GBP' }, remittanceInformationUnstructured: 'OLD' },
  ],
  pending: [{ valueDate: '2026-06-30', transactionAmount: { amount: '-12.99', currency: 'GBP' }, remittanceInformationUnstructured: 'NETFLIX.COM' }],
  ...over,
});

const card = (): FakeAccount => ({
  details: { resourceId: 'r2', maskedPan: '************4321', currency: 'GBP', ownerName: 'JANE DOE', product: 'Barclaycard Rewards', cashAccountType: 'CARD' },
  balances: [
    { balanceAmount: { amount: '-250.10', currency: 'GBP' }, balanceType: 'closingBooked' },
    { balanceAmount: { amount: '2749.90', currency: 'GBP' }, balanceType: 'interimAvailable', creditLimitIncluded: true },
  ],
  booked: [{ transactionId: 'C-1', bookingDate: '2026-06-29', transactionAmount: { amount: '-250.10', currency: 'GBP' }, remittanceInformationUnstructured: 'AMAZON MARKETPLACE' }],
  pending: [],
});

let fake: OpenBankingEuFake;
let sleeps: number[];
let tokenCache: ServiceTokenCache;
let clockMs: number;

function adapter(config: Record<string, string> = {}): ConnectorPort {
  return openBankingEuConnectorFactory({ tokenCache, nowMs: () => clockMs })({
    config: { OPEN_BANKING_EU_CLIENT_ID: OB_SECRET_ID, OPEN_BANKING_EU_CLIENT_SECRET: OB_SECRET_KEY, OPEN_BANKING_EU_BASE_URL: fake.baseUrl, ...config },
    http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms), timeoutMs: 5_000 }),
  });
}

function linked(accounts: Record<string, FakeAccount> = { 'acc-1': current(), 'acc-2': card() }, maxHistoricalDays = 730): Connection {
  const requisition = fake.linkedConsent({ institutionId: 'BARCLAYS_BUKBGB22', accounts, maxHistoricalDays });
  return { institutionId: 'ins_barclays', login: requisition.id };
}

const windowOf = (batch: SourceBatch): SourceTransaction[] => {
  if (batch.transactions.kind !== 'window') throw new Error('expected a window batch');
  return batch.transactions.transactions;
};
const changesOf = (batch: SourceBatch) => {
  if (batch.transactions.kind !== 'changes') throw new Error('expected a changes batch');
  return batch.transactions;
};

beforeEach(async () => {
  fake = await startOpenBankingEuFake({ today: TODAY, institutions: [...GB_INSTITUTIONS, ...NL_INSTITUTIONS] });
  sleeps = [];
  tokenCache = new Map();
  clockMs = 1_000_000;
});

afterEach(async () => {
  await fake.close();
});

describe('Link: beginOauth and connect', () => {
  it('creates an agreement and a requisition for the matching provider institution, then connects once the consent is linked', async () => {
    const ob = adapter();
    expect(ob.linkMethod).toBe('oauth');
    const start = await ob.beginOauth!({ institutionId: 'ins_barclays', state: 'state-123', redirectUri: REDIRECT });

    const requisition = [...fake.requisitions.values()][0];
    expect(start.authorizeUrl).toBe(`https://ob.gocardless.com/ob-psd2/start/${requisition.id}/BARCLAYS_BUKBGB22`);
    expect(start.pending).toEqual({ requisition_id: requisition.id, agreement_id: requisition.agreement });
    expect(requisition).toMatchObject({ institution_id: 'BARCLAYS_BUKBGB22', reference: 'state-123', redirect: REDIRECT, status: 'CR' });
    // As much history and access as the institution allows, for the three AIS scopes.
    expect(fake.agreements.get(requisition.agreement)).toMatchObject({ max_historical_days: 730, access_valid_for_days: 180, access_scope: ['balances', 'details', 'transactions'] });
    expect(fake.calls().find((c) => c.path === '/institutions/')?.query.get('country')).toBe('gb');

    fake.accounts.set('acc-1', current());
    fake.completeConsent(requisition.id, ['acc-1']);
    // The redirect back carries `?ref=<reference>`, no code: whatever `code` holds is accepted.
    const result = await ob.connect!('ins_barclays', { method: 'oauth', code: 'state-123', redirectUri: REDIRECT, pending: start.pending });
    expect(result).toEqual({ status: 'connected', connection: { institutionId: 'ins_barclays', login: requisition.id } });
  });

  it('asks only for what a smaller institution allows (90 days of history and access)', async () => {
    await adapter().beginOauth!({ institutionId: 'ins_monzo', state: 's-monzo', redirectUri: REDIRECT });
    const agreement = [...fake.agreements.values()][0];
    expect(agreement).toMatchObject({ institution_id: 'MONZO_MONZGB2L', max_historical_days: 90, access_valid_for_days: 90 });
  });

  it('walks the institution\u2019s countries and matches by normalised name, not by a prefix inside a word', async () => {
    await adapter().beginOauth!({ institutionId: 'ins_ing', state: 's-ing', redirectUri: REDIRECT });
    expect([...fake.agreements.values()][0]).toMatchObject({ institution_id: 'INGBANK_INGBNL2A', max_historical_days: 540, access_valid_for_days: 90 });
  });

  it('answers provider_error when the provider does not list the institution', async () => {
    fake.institutions = NL_INSTITUTIONS;
    const err = await failure(adapter().beginOauth!({ institutionId: 'ins_barclays', state: 's', redirectUri: REDIRECT }));
    expect([err.kind, err.message]).toEqual(['provider_error', 'Barclays is not offered by the open banking provider in GB.']);
    expect(fake.requisitions.size).toBe(0);
  });

  it.each([
    ['RJ', /rejected/],
    ['EX', /expired/],
    ['UA', /not completed/],
    ['GA', /not completed/],
  ])('refuses a consent left in status %s with a message saying what happened', async (status, message) => {
    const ob = adapter();
    const start = await ob.beginOauth!({ institutionId: 'ins_barclays', state: `s-${status}`, redirectUri: REDIRECT });
    fake.completeConsent(start.pending.requisition_id, [], status);
    const result = await ob.connect!('ins_barclays', { method: 'oauth', code: '', redirectUri: REDIRECT, pending: start.pending });
    expect(result.status).toBe('invalid_credentials');
    expect(result.status === 'invalid_credentials' && result.message).toMatch(message);
  });

  it('refuses a linked consent without accounts, an unknown or missing requisition, and other Link methods', async () => {
    const ob = adapter();
    const start = await ob.beginOauth!({ institutionId: 'ins_barclays', state: 's-empty', redirectUri: REDIRECT });
    fake.completeConsent(start.pending.requisition_id, []);
    expect(await ob.connect!('ins_barclays', { method: 'oauth', code: 'x', redirectUri: REDIRECT, pending: start.pending })).toMatchObject({
      status: 'invalid_credentials',
      message: expect.stringMatching(/No account was shared/),
    });
    expect(await ob.connect!('ins_barclays', { method: 'oauth', code: 'x', redirectUri: REDIRECT, pending: { requisition_id: 'nope' } })).toMatchObject({
      status: 'invalid_credentials',
      message: expect.stringMatching(/not found/),
    });
    expect((await ob.connect!('ins_barclays', { method: 'oauth', code: 'x', redirectUri: REDIRECT, pending: {} })).status).toBe('invalid_credentials');
    expect((await ob.connect!('ins_barclays', { method: 'api_key', apiKey: 'k', apiSecret: 's' })).status).toBe('invalid_credentials');
    expect((await ob.login('ins_barclays', { username: 'u', password: 'p' })).status).toBe('invalid_credentials');
    expect(await ob.verifyMfaCode({ institutionId: 'ins_barclays', login: 'x' }, '123456')).toBe(false);
  });

  it('revokes the consent at disconnect, and treats one already gone as done', async () => {
    const connection = linked();
    await adapter().disconnect!(connection);
    expect(fake.requisitions.has(connection.login)).toBe(false);
    await expect(adapter().disconnect!(connection)).resolves.toBeUndefined();
    expect(fake.calls().filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/requisitions/${connection.login}/`, `/requisitions/${connection.login}/`]);
  });
});

describe('accounts and balances', () => {
  it('maps details and balances: booked balance as current, available as available, owed card balances positive, masks only', async () => {
    const connection = linked();
    const accounts = await adapter().accounts(connection, TODAY);
    expect(accounts).toEqual([
      {
        account_id: expect.stringMatching(/^acc_[0-9a-f]{24}$/),
        name: 'Main account',
        official_name: 'Barclays Bank Account',
        type: 'depository',
        subtype: 'checking',
        mask: '5555',
        balances: { current: 1520.35, available: 1490, limit: null, iso_currency_code: 'GBP' },
        verification_status: 'automatically_verified',
      },
      {
        account_id: expect.stringMatching(/^acc_[0-9a-f]{24}$/),
        name: 'Barclaycard Rewards',
        official_name: 'Barclaycard Rewards',
        type: 'credit',
        subtype: 'credit card',
        mask: '4321',
        balances: { current: 250.1, available: 2749.9, limit: null, iso_currency_code: 'GBP' },
        verification_status: 'not_applicable',
      },
    ]);
    // Never the provider's raw ids, never the whole IBAN.
    const shown = JSON.stringify(accounts);
    expect(shown).not.toMatch(/GB33BUKB20201555555555|acc-1|acc-2/);
    // Stable across reads.
    expect((await adapter().accounts(connection, TODAY)).map((a) => a.account_id)).toEqual(accounts.map((a) => a.account_id));
  });

  it('falls back to the account currency and the product name when the bank reports less', async () => {
    const connection = linked({ 'acc-s': { details: { currency: 'EUR', cashAccountType: 'SVGS', bban: '1234 5678 90' }, balances: [], booked: [], pending: [] } });
    const [account] = await adapter().accounts(connection, TODAY);
    expect(account).toMatchObject({ name: 'Barclays account', type: 'depository', subtype: 'savings', mask: '7890', balances: { current: 0, available: null, iso_currency_code: 'EUR' } });
  });
});

describe('transactions', () => {
  it('reads the whole agreement range as a window: signs flipped, pending flagged, hints kept, ids stable and never raw', async () => {
    const connection = linked();
    const batch = await adapter().initialHistory(connection, TODAY);
    const reads = fake.calls().filter((c) => c.path.endsWith('/transactions/'));
    expect(reads.map((c) => [c.path, c.query.get('date_from'), c.query.get('date_to')])).toEqual([
      ['/accounts/acc-1/transactions/', '2024-07-02', TODAY],
      ['/accounts/acc-2/transactions/', '2024-07-02', TODAY],
    ]);

    const txns = windowOf(batch);
    expect(txns.map((t) => [t.date, t.name, t.amount, t.pending])).toEqual([
      ['2026-06-30', 'NETFLIX.COM', 12.99, true],
      ['2026-06-29', 'AMAZON MARKETPLACE', 250.1, false],
      ['2026-06-28', 'TESCO STORES 3217 LONDON', 45.2, false],
      ['2026-06-25', 'SALARY JUNE', -2500, false],
      ['2026-06-20', 'COFFEE', 3.5, false],
      ['2026-06-20', 'COFFEE', 3.5, false],
      ['2025-01-10', 'OLD', 10, false],
    ]);
    const tesco = txns.find((t) => t.name.startsWith('TESCO'))!;
    expect(tesco).toMatchObject({ mcc: '5411', counterparty: 'TESCO STORES 3217', iso_currency_code: 'GBP', authorized_datetime: null, account_id: batch.accounts[0].account_id });
    expect(txns.find((t) => t.name === 'SALARY JUNE')).toMatchObject({ counterparty: 'ACME LTD' });
    const ids = txns.map((t) => t.transaction_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^txn_[0-9a-f]{24}$/.test(id))).toBe(true);

    const again = windowOf(await adapter().initialHistory(connection, TODAY));
    expect(again.map((t) => t.transaction_id)).toEqual(ids);
    expect(batch.cursor).toBeDefined();
    expect(batch.cursor).not.toMatch(/acc-1|access-|refresh-/);
  });

  it('asks only for the history the agreement grants', async () => {
    const connection = linked({ 'acc-1': current() }, 90);
    const batch = await adapter().initialHistory(connection, TODAY);
    expect(fake.calls().find((c) => c.path.endsWith('/transactions/'))?.query.get('date_from')).toBe('2026-04-03');
    expect(windowOf(batch).some((t) => t.name === 'OLD')).toBe(false);
  });

  it('keeps one transaction when a row is listed both booked and pending, and splits a reused id with different content', async () => {
    const connection = linked({
      'acc-1': current({
        booked: [
          { transactionId: 'SAME', bookingDate: '2026-06-28', transactionAmount: { amount: '-5.00', currency: 'GBP' }, remittanceInformationUnstructured: 'A' },
          { transactionId: 'SAME', bookingDate: '2026-06-28', transactionAmount: { amount: '-7.00', currency: 'GBP' }, remittanceInformationUnstructured: 'B' },
        ],
        pending: [{ transactionId: 'SAME', valueDate: '2026-06-28', transactionAmount: { amount: '-5.00', currency: 'GBP' }, remittanceInformationUnstructured: 'A' }],
      }),
    });
    const txns = windowOf(await adapter().initialHistory(connection, TODAY));
    expect(txns.map((t) => [t.name, t.pending]).sort()).toEqual([
      ['A', false],
      ['B', false],
    ]);
    expect(new Set(txns.map((t) => t.transaction_id)).size).toBe(2);
  });
});

describe('incremental refresh', () => {
  it('re-reads from the cursor minus the overlap and reports a pending row that vanished as removed', async () => {
    const connection = linked({ 'acc-1': current() });
    const first = await adapter().initialHistory(connection, TODAY);
    const netflix = windowOf(first).find((t) => t.name === 'NETFLIX.COM')!;

    // Next day: the pending row posted under a bank id, and a new purchase arrived.
    fake.today = '2026-07-02';
    const account = fake.accounts.get('acc-1')!;
    account.pending = [];
    account.booked.unshift(
      { transactionId: 'TX-3', bookingDate: '2026-07-01', transactionAmount: { amount: '-12.99', currency: 'GBP' }, remittanceInformationUnstructured: 'NETFLIX.COM' },
      { transactionId: 'TX-4', bookingDate: '2026-07-02', transactionAmount: { amount: '-8.00', currency: 'GBP' }, remittanceInformationUnstructured: 'PRET A MANGER' },
    );
    fake.server.requests.length = 0;
    const second = await adapter().refresh({ ...connection, cursor: first.cursor }, '2026-07-02', 1);
    const changes = changesOf(second);
    expect(changes.removed).toEqual([netflix.transaction_id]);
    expect(changes.upserted.map((t) => t.name)).toEqual(['PRET A MANGER', 'NETFLIX.COM', 'TESCO STORES 3217 LONDON', 'SALARY JUNE', 'COFFEE', 'COFFEE']);
    // The cursor's day minus 14, not the whole history; no agreement lookup needed.
    const read = fake.calls().find((c) => c.path.endsWith('/transactions/'))!;
    expect([read.query.get('date_from'), read.query.get('date_to')]).toEqual(['2026-06-17', '2026-07-02']);
    expect(fake.calls().some((c) => c.path.startsWith('/agreements/'))).toBe(false);

    // Nothing vanished since: nothing removed, and the settled row keeps its id.
    const third = changesOf(await adapter().refresh({ ...connection, cursor: second.cursor }, '2026-07-02', 2));
    expect(third.removed).toEqual([]);
    expect(third.upserted.map((t) => t.transaction_id)).toEqual(changes.upserted.map((t) => t.transaction_id));
  });

  it('reaches back to the oldest pending row it reported, so a stale pending row is re-checked rather than kept forever', async () => {
    const connection = linked({
      'acc-1': current({ booked: [], pending: [{ transactionId: 'P-OLD', valueDate: '2026-05-01', transactionAmount: { amount: '-20.00', currency: 'GBP' }, remittanceInformationUnstructured: 'HOLD' }] }),
    });
    const first = await adapter().initialHistory(connection, TODAY);
    fake.accounts.get('acc-1')!.pending = [];
    fake.server.requests.length = 0;
    const changes = changesOf(await adapter().refresh({ ...connection, cursor: first.cursor }, TODAY, 1));
    expect(fake.calls().find((c) => c.path.endsWith('/transactions/'))?.query.get('date_from')).toBe('2026-05-01');
    expect(changes.removed).toEqual([windowOf(first)[0].transaction_id]);
  });

  it('without a readable cursor re-reads the whole agreement range and removes nothing', async () => {
    const connection = linked({ 'acc-1': current() });
    const changes = changesOf(await adapter().refresh({ ...connection, cursor: 'not-ours' }, TODAY, 1));
    expect(changes.removed).toEqual([]);
    expect(fake.calls().find((c) => c.path.endsWith('/transactions/'))?.query.get('date_from')).toBe('2024-07-02');
  });
});

describe('the service token', () => {
  it('is granted once and shared by every adapter instance while it lives, then refreshed, then granted anew', async () => {
    const connection = linked({ 'acc-1': current() });
    await adapter().accounts(connection, TODAY);
    await adapter().accounts(connection, TODAY);
    expect(fake.grants).toEqual({ new: 1, refresh: 0 });

    clockMs += 86_400_000; // the access token's lifetime has passed on the monotonic counter
    await adapter().accounts(connection, TODAY);
    expect(fake.grants).toEqual({ new: 1, refresh: 1 });

    clockMs += 31 * 86_400_000; // so has the refresh token's
    await adapter().accounts(connection, TODAY);
    expect(fake.grants).toEqual({ new: 2, refresh: 1 });
  });

  it('replaces a token the provider refuses early and sends the request once more', async () => {
    const connection = linked({ 'acc-1': current() });
    await adapter().accounts(connection, TODAY);
    fake.validAccess.clear();
    fake.validRefresh.clear();
    const accounts = await adapter().accounts(connection, TODAY);
    expect(accounts).toHaveLength(1);
    expect(fake.grants.new).toBe(2);
  });

  it('gives up with provider_error (not login_required) when even a fresh token is refused', async () => {
    const invalid = { status: 401, body: { summary: 'Invalid token', detail: 'Token is invalid or expired', status_code: 401 } };
    fake.server.fail({ pathPrefix: '/api/v2/requisitions/', response: invalid, times: 2 });
    const err = await failure(adapter().accounts(linked(), TODAY));
    expect([err.kind, err.details.status]).toEqual(['provider_error', 401]);
    // The refused access token was replaced through its still-valid refresh token.
    expect(fake.grants).toEqual({ new: 1, refresh: 1 });
    expect(fake.calls().filter((c) => c.path.startsWith('/requisitions/'))).toHaveLength(2);
  });

  it('answers provider_error, without the secret, when the operator credentials are refused', async () => {
    const err = await failure(adapter({ OPEN_BANKING_EU_CLIENT_SECRET: 'wrong-secret-value-123' }).accounts(linked(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toMatch(/OPEN_BANKING_EU_CLIENT_ID/);
    expect(err.message).not.toMatch(/wrong-secret-value-123|fake-secret-key/);
  });

  it('answers rate_limited with the provider\u2019s hint when token grants are rate limited', async () => {
    fake.server.fail({ pathPrefix: '/api/v2/token/new/', response: { status: 429, body: { summary: 'Rate limit exceeded', detail: 'The rate limit for this resource is 100/hour. Please try again in 1800 seconds', status_code: 429 } } });
    const err = await failure(adapter().accounts(linked(), TODAY));
    expect([err.kind, err.details.retryAfterSeconds]).toEqual(['rate_limited', 1800]);
  });

  it('works through the production factory with its process-wide cache', async () => {
    const ob = createOpenBankingEuConnector({
      config: { OPEN_BANKING_EU_CLIENT_ID: OB_SECRET_ID, OPEN_BANKING_EU_CLIENT_SECRET: OB_SECRET_KEY, OPEN_BANKING_EU_BASE_URL: fake.baseUrl },
      http: createProviderHttp({ sleep: async (ms) => void sleeps.push(ms) }),
    });
    expect(await ob.accounts(linked({ 'acc-1': current() }), TODAY)).toHaveLength(1);
  });
});

describe('failure modes', () => {
  const accessExpired = { summary: "Couldn't update account transactions", detail: 'Access has expired or it has been revoked. To restore access reconnect the account.', type: 'AccessExpiredError', status_code: 401 };
  const euaExpired = {
    summary: 'End User Agreement (EUA) 76c790ff-274b-46cc-8c5e-1aefb2bee25f has expired',
    detail: 'EUA was valid for 90 days and it expired at 2026-06-30 15:57:27.203016+00:00. The end user must connect the account once more with new EUA and Requisition',
    status_code: 409,
  };

  it.each([
    ['401 AccessExpiredError', { status: 401, body: accessExpired }],
    ['403 access revoked', { status: 403, body: { ...accessExpired, status_code: 403 } }],
    ['409 EUA expired', { status: 409, body: euaExpired }],
    ['401 EUA expired', { status: 401, body: { ...euaExpired, status_code: 401 } }],
  ])('maps %s on an account endpoint to login_required without retrying', async (_name, response) => {
    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-1/transactions/', response });
    const err = await failure(adapter().initialHistory(linked(), TODAY));
    expect(err.kind).toBe('login_required');
    expect(fake.calls().filter((c) => c.path.endsWith('/transactions/'))).toHaveLength(1);
    expect(fake.grants.new).toBe(1);
  });

  it('maps an expired or deleted requisition to login_required', async () => {
    const connection = linked();
    fake.completeConsent(connection.login, ['acc-1'], 'EX');
    expect((await failure(adapter().refresh(connection, TODAY, 1))).kind).toBe('login_required');
    fake.requisitions.delete(connection.login);
    expect((await failure(adapter().accounts(connection, TODAY))).kind).toBe('login_required');
  });

  it('maps the bank\u2019s daily limit to rate_limited with the account reset header, without sleeping', async () => {
    fake.server.fail({
      pathPrefix: '/api/v2/accounts/acc-2/balances/',
      response: {
        status: 429,
        headers: { HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_LIMIT: '4', HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_REMAINING: '0', HTTP_X_RATELIMIT_ACCOUNT_SUCCESS_RESET: '21600' },
        body: { summary: "Couldn't update balances", detail: 'Daily request limit set by the Institution has been exceeded.', type: 'RateLimitError', status_code: 429 },
      },
    });
    const err = await failure(adapter().accounts(linked(), TODAY));
    expect([err.kind, err.details.retryAfterSeconds]).toEqual(['rate_limited', 21600]);
    expect(err.message).toMatch(/daily limit/);
    expect(sleeps).toEqual([]);
  });

  it('maps the API-level limit to rate_limited with its reset hint', async () => {
    fake.server.fail({
      pathPrefix: '/api/v2/requisitions/',
      response: { status: 429, headers: { http_x_ratelimit_limit: '300', http_x_ratelimit_remaining: '0', http_x_ratelimit_reset: '42' }, body: { summary: 'Rate limit exceeded', status_code: 429 } },
    });
    const err = await failure(adapter().accounts(linked(), TODAY));
    expect([err.kind, err.details.retryAfterSeconds]).toEqual(['rate_limited', 42]);
  });

  it('fails the whole pull when a later account\u2019s read fails: never a partial batch', async () => {
    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-2/transactions/', response: { status: 503, body: { summary: 'Institution service unavailable', type: 'ServiceError', status_code: 503 } } });
    const err = await failure(adapter().initialHistory(linked(), TODAY));
    expect([err.kind, err.details.status]).toEqual(['provider_error', 503]);
    expect(err.message).toMatch(/Institution service unavailable/);
  });

  it('maps 500s to provider_error and never puts a token or the secret in the message', async () => {
    const connection = linked();
    await adapter().accounts(connection, TODAY);
    const token = [...fake.validAccess][0];
    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-1/details/', response: { status: 500, body: { summary: `bad token ${token} key ${OB_SECRET_KEY}`, status_code: 500 } } });
    const err = await failure(adapter().accounts(connection, TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).not.toContain(token);
    expect(err.message).not.toContain(OB_SECRET_KEY);
  });

  it('answers provider_error when the connector is not configured', async () => {
    const err = await failure(adapter({ OPEN_BANKING_EU_CLIENT_ID: '' }).accounts(linked(), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(fake.calls()).toEqual([]);
  });
});

describe('hostile payloads', () => {
  it.each([
    ['an amount sent as a number', { transactionAmount: { amount: -4.5, currency: 'GBP' }, bookingDate: '2026-06-01' }, /booked\[0\]\.transactionAmount\.amount/],
    ['an amount that is not a number', { transactionAmount: { amount: '12,50', currency: 'GBP' }, bookingDate: '2026-06-01' }, /transactionAmount\.amount/],
    ['a missing amount', { bookingDate: '2026-06-01' }, /booked\[0\]\.transactionAmount/],
    ['a bad currency', { transactionAmount: { amount: '1.00', currency: 'pounds' }, bookingDate: '2026-06-01' }, /currency/],
    ['no date', { transactionAmount: { amount: '1.00', currency: 'GBP' } }, /bookingDate/],
    ['a date that is not one', { transactionAmount: { amount: '1.00', currency: 'GBP' }, bookingDate: '2026-02-30' }, /bookingDate/],
  ])('refuses %s with a provider_error naming the field', async (_name, row, field) => {
    const err = await failure(adapter().initialHistory(linked({ 'acc-1': current({ booked: [row as Record<string, unknown>], pending: [] }) }), TODAY));
    expect(err.kind).toBe('provider_error');
    expect(err.message).toMatch(field);
  });

  it('refuses a balance amount that is not a decimal string and a balance list that is not a list', async () => {
    const badAmount = current({ balances: [{ balanceAmount: { amount: 'NaN', currency: 'GBP' }, balanceType: 'closingBooked' }] });
    expect((await failure(adapter().accounts(linked({ 'acc-1': badAmount }), TODAY))).message).toMatch(/balances\[0\]\.balanceAmount\.amount/);
    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-1/balances/', response: { status: 200, body: { balances: 'none' } } });
    expect((await failure(adapter().accounts(linked({ 'acc-1': current() }), TODAY))).message).toMatch(/balances/);
  });

  it('refuses a huge response, a non-JSON body and an unreadable token grant', async () => {
    const row = { transactionAmount: { amount: '-1.00', currency: 'GBP' }, bookingDate: '2026-06-01', remittanceInformationUnstructured: 'X' };
    const connection = linked({ 'acc-1': current() });
    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-1/transactions/', response: { status: 200, body: { transactions: { booked: Array.from({ length: 50_001 }, () => row), pending: [] } } } });
    expect((await failure(adapter().initialHistory(connection, TODAY))).message).toMatch(/more than 50000/);

    fake.server.fail({ pathPrefix: '/api/v2/accounts/acc-1/details/', response: { status: 200, body: '<html>maintenance</html>' } });
    expect((await failure(adapter().accounts(connection, TODAY))).kind).toBe('provider_error');

    tokenCache.clear();
    fake.server.fail({ pathPrefix: '/api/v2/token/new/', response: { status: 200, body: { access: 'a-token', access_expires: 'soon' } } });
    expect((await failure(adapter().accounts(connection, TODAY))).message).toMatch(/access_expires/);
  });

  it('refuses a requisition without a status and an institution list that is not a list', async () => {
    const connection = linked();
    fake.server.fail({ pathPrefix: '/api/v2/requisitions/', response: { status: 200, body: { id: connection.login, accounts: ['acc-1'] } } });
    expect((await failure(adapter().accounts(connection, TODAY))).message).toMatch(/requisition status/);
    fake.server.fail({ pathPrefix: '/api/v2/institutions/', response: { status: 200, body: { results: [] } } });
    expect((await failure(adapter().beginOauth!({ institutionId: 'ins_barclays', state: 's', redirectUri: REDIRECT }))).kind).toBe('provider_error');
  });
});

describe('products', () => {
  it('reports identity from the account holder names, grouped by owner', async () => {
    const connection = linked({ 'acc-1': current(), 'acc-2': card(), 'acc-3': current({ details: { currency: 'GBP', ownerName: 'John Roe' } }) });
    const accounts = await adapter().accounts(connection, TODAY);
    const identity = await adapter().identity(connection, { today: TODAY, accounts });
    expect(identity.owners).toEqual([
      { names: ['Jane Doe'], emails: [], phone_numbers: [], addresses: [], account_ids: [accounts[0].account_id, accounts[1].account_id] },
      { names: ['John Roe'], emails: [], phone_numbers: [], addresses: [], account_ids: [accounts[2].account_id] },
    ]);
  });

  it('answers provider_error for identity without holder names, and for investments and liabilities', async () => {
    const connection = linked({ 'acc-1': current({ details: { currency: 'GBP', cashAccountType: 'CACC' } }) });
    const context = { today: TODAY, accounts: [] };
    expect((await failure(adapter().identity(connection, context))).kind).toBe('provider_error');
    expect((await failure(adapter().investments(connection, context))).message).toBe('Investments is not offered by this connector.');
    expect((await failure(adapter().liabilities(connection, context))).message).toBe('Liabilities is not offered by this connector.');
  });
});

describe('matchInstitution', () => {
  const inst = (id: string, name: string): ProviderInstitution => ({ id, name, transactionTotalDays: null, maxAccessValidForDays: null });
  it('prefers an exact name, then the personal entry for a bank and the business entry for a business', () => {
    const list = [inst('B_BUS', 'Barclays Business'), inst('B_PERS', 'Barclays Personal'), inst('B_WEALTH', 'Barclays Wealth Management')];
    expect(matchInstitution({ name: 'Barclays', type: 'bank' }, list)?.id).toBe('B_PERS');
    expect(matchInstitution({ name: 'Barclays', type: 'business' }, list)?.id).toBe('B_BUS');
    expect(matchInstitution({ name: 'Barclays', type: 'bank' }, [...list, inst('B', 'BARCLAYS')])?.id).toBe('B');
    expect(matchInstitution({ name: 'Société Générale', type: 'bank' }, [inst('SG', 'Societe Generale'), inst('SGP', 'Société Générale Private Banking')])?.id).toBe('SG');
    expect(matchInstitution({ name: 'ING', type: 'bank' }, [inst('X', 'Ingenico')])).toBeNull();
  });
});
