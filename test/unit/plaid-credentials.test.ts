// Plaid's credentials mapped to ours: client_id and secret from the body or the PLAID-CLIENT-ID and
// PLAID-SECRET headers, the same value when both carry one, both required; client_id must be the
// secret's application.
import { ApiError } from '../../functions/contracts/errors';
import { checkClientId, plaidBearerKey, plaidCredentialsOf } from '../../functions/surfaces/plaid/credentials';

const KEY = 'fc_sk_test_abcdefghijklmnop1234';

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('did not throw');
}

describe('reading Plaid credentials', () => {
  it('reads the headers, as Plaid\'s client sends them', () => {
    expect(plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': KEY }, rawBody: '{}' })).toEqual({ clientId: 'app_1', apiKey: KEY });
  });

  it('reads the body', () => {
    expect(plaidCredentialsOf({ headers: {}, rawBody: JSON.stringify({ client_id: 'app_1', secret: KEY, access_token: 'x' }) })).toEqual({ clientId: 'app_1', apiKey: KEY });
  });

  it('takes one from each place, and the same value in both', () => {
    expect(plaidCredentialsOf({ headers: { 'plaid-secret': KEY }, rawBody: JSON.stringify({ client_id: 'app_1' }) })).toEqual({ clientId: 'app_1', apiKey: KEY });
    expect(plaidBearerKey({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': KEY }, rawBody: JSON.stringify({ client_id: 'app_1', secret: KEY }) })).toBe(KEY);
  });

  it('refuses two different values for one credential', () => {
    const other = 'fc_sk_test_zzzzzzzzzzzzzzzz9999';
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': KEY }, rawBody: JSON.stringify({ secret: other }) }))).toMatchObject({
      code: 'malformed_api_key',
      message: expect.stringContaining('PLAID-SECRET'),
    });
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': KEY }, rawBody: JSON.stringify({ client_id: 'app_2' }) })).code).toBe(
      'malformed_api_key',
    );
  });

  it('names what is missing, before any key is looked up', () => {
    expect(failure(() => plaidCredentialsOf({ headers: {}, rawBody: '{}' }))).toMatchObject({ code: 'missing_api_key', message: expect.stringContaining('client_id, secret') });
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-secret': KEY }, rawBody: 'not json' }))).toMatchObject({ code: 'missing_api_key', message: expect.stringContaining('client_id') });
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': '  ' }, rawBody: '{}' })).code).toBe('missing_api_key');
  });

  it('refuses a secret that is not a Fincore key, and a credential that is not a string', () => {
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': 'a1b2c3d4e5f6' }, rawBody: '{}' })).code).toBe('malformed_api_key');
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1' }, rawBody: JSON.stringify({ secret: 42 }) })).code).toBe('malformed_api_key');
  });

  it('refuses a credential header sent twice', () => {
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1', 'plaid-secret': KEY }, repeatedHeaders: new Set(['plaid-secret']), rawBody: '{}' })).code).toBe(
      'duplicate_header',
    );
    expect(failure(() => plaidCredentialsOf({ headers: { 'plaid-client-id': 'app_1,app_2', 'plaid-secret': KEY }, rawBody: '{}' })).code).toBe('duplicate_header');
  });
});

describe('checking client_id against the key', () => {
  it("accepts the key's own application id and refuses any other", () => {
    expect(() => checkClientId('app_1', 'app_1')).not.toThrow();
    expect(failure(() => checkClientId('app_2', 'app_1')).code).toBe('invalid_api_key');
  });
});
