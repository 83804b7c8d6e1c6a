// The Plaid surface's dispatcher and its account, item and institution translations: the fifteen
// endpoints by path, an unknown path answered as Plaid's NOT_FOUND naming the closest endpoint, a
// client_id of another application and a body that is not JSON refused before anything runs; and
// the field-by-field shapes, checked against the plaid client's own interfaces at compile time.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { AccountBase, Institution, ItemWithConsentFields } from 'plaid';
import type { AuthContext } from '../../functions/data/api-keys-repo';
import type { Deps } from '../../functions/platform/runtime';
import { currencyFields, plaidAccountOf } from '../../functions/surfaces/plaid/accounts';
import { plaidInstitutionOf } from '../../functions/surfaces/plaid/institutions';
import { plaidItemWithConsentOf } from '../../functions/surfaces/plaid/items';
import { ourProductsOf, plaidProductsOf } from '../../functions/surfaces/plaid/products';
import { ApiError } from '../../functions/contracts/errors';
import { PLAID_ENDPOINT_ROUTES } from '../../functions/contracts/plaid-endpoints';
import { PLAID_ENDPOINTS, closestPlaidPath, plaidPathOf, plaidPathOfEvent, plaidProtocolHooks, servePlaidRequest } from '../../functions/surfaces/plaid/server';
import type { Wire } from '../../functions/surfaces/plaid/wire';

const KEY = 'fc_sk_test_abcdefghijklmnop1234';
const auth = { applicationId: 'app_1', environment: 'test', keyId: 'key_1' } as AuthContext;
/** Nothing here may reach storage: a dependency that is touched fails the test. */
const untouchableDeps = new Proxy({}, { get: (_target, name) => { throw new Error(`deps.${String(name)} was used`); } }) as Deps;

function call(path: string, body: string, headers: Record<string, string> = {}) {
  const event = { httpMethod: 'POST', path: `/plaid${path}`, headers: { 'Content-Type': 'application/json', 'PLAID-CLIENT-ID': 'app_1', 'PLAID-SECRET': KEY, ...headers }, body } as unknown as APIGatewayProxyEvent;
  return servePlaidRequest({ deps: untouchableDeps, auth, requestId: 'req_1', baseUrl: 'http://localhost', event, body, path });
}

describe('the Plaid endpoints', () => {
  it('serves the fourteen journey endpoints, /item/webhook/update and the verification key', () => {
    expect(Object.keys(PLAID_ENDPOINTS).sort()).toEqual(
      [
        '/link/token/create',
        '/sandbox/public_token/create',
        '/item/public_token/exchange',
        '/item/get',
        '/item/remove',
        '/item/webhook/update',
        '/accounts/get',
        '/accounts/balance/get',
        '/transactions/sync',
        '/transactions/get',
        '/transactions/refresh',
        '/institutions/search',
        '/institutions/get_by_id',
        '/sandbox/item/fire_webhook',
        '/sandbox/item/reset_login',
        '/webhook_verification_key/get',
      ].sort(),
    );
  });

  it('declares, for the stack\'s grants, the same endpoints the server serves', () => {
    expect(Object.keys(PLAID_ENDPOINT_ROUTES).sort()).toEqual(Object.keys(PLAID_ENDPOINTS).sort());
  });

  it('reads the endpoint from the greedy path parameter, or below /plaid in the path without one', () => {
    expect(plaidPathOfEvent({ path: '/plaid/transactions/sync', pathParameters: { proxy: 'transactions/sync' } })).toBe('transactions/sync');
    expect(plaidPathOfEvent({ path: '/plaid/item/get', pathParameters: null })).toBe('item/get');
    // A stage prefix (a bare execute-api host) before the route's own path.
    expect(plaidPathOfEvent({ path: '/prod/plaid/accounts/get', pathParameters: null })).toBe('accounts/get');
  });

  it("hands the middlewares Plaid's secret as the key and renders their refusals as Plaid's errors", () => {
    const headers = { 'plaid-client-id': 'app_1', 'plaid-secret': KEY };
    expect(plaidProtocolHooks.apiKeyOf({ headers, repeatedHeaders: new Set(), rawBody: '{}' })).toBe(KEY);
    expect(plaidProtocolHooks.apiKeyOf({ headers: {}, repeatedHeaders: new Set(), rawBody: JSON.stringify({ client_id: 'app_1', secret: KEY }) })).toBe(KEY);
    // Only Plaid's credentials: a bearer key is not where a Plaid client sends it.
    expect(() => plaidProtocolHooks.apiKeyOf({ headers: { authorization: `Bearer ${KEY}` }, repeatedHeaders: new Set(), rawBody: '{}' })).toThrow(
      expect.objectContaining({ code: 'missing_api_key' }),
    );
    expect(() => plaidProtocolHooks.apiKeyOf({ headers, repeatedHeaders: new Set(['plaid-secret']), rawBody: '{}' })).toThrow(expect.objectContaining({ code: 'duplicate_header' }));
    const limited = plaidProtocolHooks.errorResponse(new ApiError('rate_limit_exceeded', undefined, { 'Retry-After': '3' }), 'req_9', 'https://api.example.test');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers).toMatchObject({ 'Retry-After': '3', 'Content-Type': 'application/json' });
    expect(JSON.parse(limited.body)).toMatchObject({ error_type: 'RATE_LIMIT_EXCEEDED', error_code: 'RATE_LIMIT', request_id: 'req_9' });
    const tooLarge = plaidProtocolHooks.errorResponse(new ApiError('request_too_large'), 'req_9', 'https://api.example.test');
    expect({ status: tooLarge.statusCode, code: (JSON.parse(tooLarge.body) as { error_code: string }).error_code }).toEqual({ status: 400, code: 'INVALID_BODY' });
  });

  it('reads a path with or without its slashes', () => {
    expect(plaidPathOf('transactions/sync/')).toBe('/transactions/sync');
    expect(plaidPathOf('//item/get')).toBe('/item/get');
  });

  it('suggests the endpoint a slip was meant for, and nothing for a path far from all', () => {
    expect(closestPlaidPath('/transactions/synk')).toBe('/transactions/sync');
    expect(closestPlaidPath('/ITEM/GET')).toBe('/item/get');
    expect(closestPlaidPath('/auth/get')).toBeUndefined();
  });
});

describe('serving a request', () => {
  it("answers an unknown path with Plaid's NOT_FOUND, 404, and the request id", async () => {
    const res = await call('/transactions/synk', '{}');
    expect(res.statusCode).toBe(404);
    // Our code, for the request log (never sent: the route's wrapper takes it off the answer).
    expect(res.errorCode).toBe('route_not_found');
    expect(JSON.parse(res.body)).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'NOT_FOUND', request_id: 'req_1', error_message: expect.stringContaining('Did you mean /transactions/sync?') });
    const far = JSON.parse((await call('/auth/get', '{}')).body) as { error_message: string };
    expect(far.error_message).toContain('/webhook_verification_key/get');
  });

  it('refuses a client_id that is not the key\'s application as INVALID_API_KEYS before anything runs', async () => {
    const res = await call('/item/get', JSON.stringify({ access_token: 'fc_at_x' }), { 'PLAID-CLIENT-ID': 'app_2' });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' });
  });

  it('refuses a body that is not JSON, or not sent as JSON, as INVALID_BODY', async () => {
    expect(JSON.parse((await call('/item/get', '{"access_token":')).body)).toMatchObject({ error_code: 'INVALID_BODY' });
    expect(JSON.parse((await call('/item/get', '{}', { 'Content-Type': 'text/plain' })).body)).toMatchObject({ error_code: 'INVALID_BODY' });
    expect(JSON.parse((await call('/item/get', '[]')).body)).toMatchObject({ error_code: 'INVALID_BODY' });
  });

  it('names a missing or unknown field as Plaid does', async () => {
    expect(JSON.parse((await call('/item/get', '{}')).body)).toMatchObject({ error_code: 'MISSING_FIELDS', error_message: expect.stringContaining('access_token') });
    expect(JSON.parse((await call('/item/get', JSON.stringify({ access_token: 'fc_at_x', acess_token: 'y' }))).body)).toMatchObject({
      error_code: 'UNKNOWN_FIELDS',
      error_message: expect.stringContaining('acess_token'),
    });
  });

  it('answers a malformed access token as INVALID_ACCESS_TOKEN, as Plaid does, not as an invalid field', async () => {
    const res = await call('/accounts/get', JSON.stringify({ access_token: 'access-sandbox-123' }));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN', error_message: expect.stringContaining('access_token') });
    expect(JSON.parse((await call('/accounts/get', JSON.stringify({ access_token: 7 }))).body)).toMatchObject({ error_code: 'INVALID_FIELD' });
  });

  it('refuses a per-account sync stream, which our item-wide cursors cannot serve', async () => {
    const res = await call('/transactions/sync', JSON.stringify({ access_token: 'fc_at_x', options: { account_id: 'acc_1' } }));
    expect(JSON.parse(res.body)).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'INVALID_FIELD', error_message: expect.stringContaining('account_id') });
  });
});

describe('accounts, items and institutions in Plaid\'s shape', () => {
  it('maps an account, with crypto as investment and subtypes in Plaid\'s spelling', () => {
    const account = plaidAccountOf({
      account_id: 'acc_1',
      name: 'Crypto',
      official_name: '',
      type: 'crypto',
      subtype: 'crypto_exchange',
      mask: '1234',
      balances: { current: 0.5, available: null, limit: null, iso_currency_code: 'BTC' },
      verification_status: 'not_applicable',
    }) satisfies Wire<AccountBase>;
    expect(account).toEqual({
      account_id: 'acc_1',
      name: 'Crypto',
      official_name: null,
      type: 'investment',
      subtype: 'crypto exchange',
      mask: '1234',
      balances: { current: 0.5, available: null, limit: null, iso_currency_code: null, unofficial_currency_code: 'BTC' },
    });
    const everyday = plaidAccountOf({
      account_id: 'acc_2',
      name: 'Everyday',
      official_name: 'Everyday Account',
      type: 'depository',
      subtype: 'everyday',
      mask: '',
      balances: { current: 1, available: 1, limit: null, iso_currency_code: 'EUR' },
      verification_status: 'automatically_verified',
    });
    expect(everyday).toMatchObject({ type: 'depository', subtype: null, mask: null, official_name: 'Everyday Account' });
    expect(everyday).not.toHaveProperty('verification_status');
    expect(currencyFields('EUR')).toEqual({ iso_currency_code: 'EUR', unofficial_currency_code: null });
  });

  it('maps an item with its products under Plaid\'s names and its error as Plaid\'s', () => {
    const item = plaidItemWithConsentOf(
      {
        item_id: 'item_1',
        institution_id: 'ins_sandbox_first_bank',
        institution_name: 'Sandbox First Bank',
        status: 'login_required',
        connector: 'sandbox',
        error: { type: 'item_error', code: 'item_login_required', message: 'Repair it.' },
        consented_products: ['transactions', 'recurring', 'income'],
        last_successful_sync: null,
        created_at: '2026-11-21T12:00:00.000Z',
        transactions_update_status: 'historical_update_complete',
        last_sync_error: null,
        webhook: 'https://example.com/hook',
      },
      'https://example.com/hook',
    ) satisfies Wire<ItemWithConsentFields>;
    expect(item).toMatchObject({
      item_id: 'item_1',
      webhook: 'https://example.com/hook',
      billed_products: ['transactions', 'recurring_transactions', 'income_verification'],
      available_products: [],
      update_type: 'background',
      created_at: '2026-11-21T12:00:00.000Z',
      error: { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', error_message: 'Repair it.' },
    });
  });

  it("reads Plaid's product names, drops those needing no product here, and refuses those not served", () => {
    expect(ourProductsOf(['transactions', 'balance', 'income', 'income_verification', 'recurring_transactions'])).toEqual(['transactions', 'income', 'recurring']);
    expect(plaidProductsOf(ourProductsOf(['investments', 'liabilities', 'identity', 'assets']))).toEqual(['investments', 'liabilities', 'identity', 'assets']);
    expect(() => ourProductsOf(['transactions', 'auth'])).toThrow(/auth/);
  });

  it('maps an institution, its optional metadata only when asked for', () => {
    const ours = {
      institution_id: 'ins_chase',
      name: 'Chase',
      type: 'bank' as const,
      country_codes: ['US'],
      url: 'https://www.chase.com',
      primary_color: '#117ACA',
      logo: null,
      products: ['transactions' as const, 'investments' as const],
      oauth: true,
      sandbox: false,
      popularity: 2,
    };
    const plain = plaidInstitutionOf(ours, false) satisfies Wire<Institution>;
    expect(plain).toMatchObject({ institution_id: 'ins_chase', products: ['transactions', 'investments'], country_codes: ['US'], url: null, primary_color: null, oauth: true, routing_numbers: [] });
    expect(plaidInstitutionOf(ours, true)).toMatchObject({ url: 'https://www.chase.com', primary_color: '#117ACA' });
  });
});
