// Our error catalogue in Plaid's words: every code the API can answer has a Plaid error, with the
// HTTP status Plaid documents for that kind of error, and the answer body is Plaid's error object.
import type { PlaidError } from 'plaid';
import { ApiError, ERRORS, displayMessageOf, publicErrorCodes, type ErrorCode } from '../../functions/contracts/errors';
import { PLAID_ERRORS, PlaidFailure, invalidProduct, plaidErrorBody, plaidErrorDefOf, plaidErrorResponse, plaidItemError } from '../../functions/core/plaid/errors';
import type { Wire } from '../../functions/surfaces/plaid/wire';

// Compile time: the bodies are Plaid's error object.
const asPlaidError = (e: ReturnType<typeof plaidErrorBody>): Wire<PlaidError> => e;
void asPlaidError;

const BASE = 'https://api.example.test/stage';

/** Plaid's documented status for each error type (an unknown endpoint is the one 404). */
const STATUS_OF_TYPE: Record<string, number> = {
  INVALID_REQUEST: 400,
  INVALID_INPUT: 400,
  ITEM_ERROR: 400,
  INSTITUTION_ERROR: 400,
  RATE_LIMIT_EXCEEDED: 429,
  API_ERROR: 500,
};

describe('the Plaid error table', () => {
  it('has a row for every code the API can answer, and nothing else', () => {
    expect(Object.keys(PLAID_ERRORS).sort()).toEqual([...publicErrorCodes()].sort());
  });

  it("answers each code with Plaid's status for its type", () => {
    for (const code of Object.keys(ERRORS) as ErrorCode[]) {
      const def = plaidErrorDefOf(code);
      const expected = def.code === 'NOT_FOUND' ? 404 : STATUS_OF_TYPE[def.type];
      expect({ code, status: def.status }).toEqual({ code, status: expected });
      expect(def.code).toMatch(/^[A-Z][A-Z_]+$/);
    }
  });

  it.each([
    ['invalid_access_token', 'INVALID_INPUT', 'INVALID_ACCESS_TOKEN'],
    ['item_login_required', 'ITEM_ERROR', 'ITEM_LOGIN_REQUIRED'],
    ['rate_limit_exceeded', 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT'],
    ['monthly_api_quota_exceeded', 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT'],
    ['invalid_field', 'INVALID_REQUEST', 'INVALID_FIELD'],
    ['missing_field', 'INVALID_REQUEST', 'MISSING_FIELDS'],
    ['unknown_field', 'INVALID_REQUEST', 'UNKNOWN_FIELDS'],
    ['invalid_json', 'INVALID_REQUEST', 'INVALID_BODY'],
    ['route_not_found', 'INVALID_REQUEST', 'NOT_FOUND'],
    ['provider_error', 'INSTITUTION_ERROR', 'INSTITUTION_NOT_RESPONDING'],
    ['missing_api_key', 'INVALID_REQUEST', 'MISSING_FIELDS'],
    ['invalid_api_key', 'INVALID_INPUT', 'INVALID_API_KEYS'],
    ['test_key_required', 'INVALID_REQUEST', 'SANDBOX_ONLY'],
    ['product_not_ready', 'ITEM_ERROR', 'PRODUCT_NOT_READY'],
    ['transactions_not_consented', 'ITEM_ERROR', 'ADDITIONAL_CONSENT_REQUIRED'],
    ['invalid_public_token', 'INVALID_INPUT', 'INVALID_PUBLIC_TOKEN'],
    ['institution_not_found', 'INVALID_INPUT', 'INVALID_INSTITUTION'],
    ['internal_error', 'API_ERROR', 'INTERNAL_SERVER_ERROR'],
  ] as const)('maps %s to %s / %s', (code, type, plaidCode) => {
    expect(plaidErrorDefOf(code)).toMatchObject({ type, code: plaidCode });
  });

  it('renders the console\'s own codes, which never reach an API key, by their type', () => {
    const publicCodes = new Set<string>(publicErrorCodes());
    const consoleCodes = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => !publicCodes.has(code));
    expect(consoleCodes.length).toBeGreaterThan(0);
    expect(plaidErrorDefOf('session_required')).toMatchObject({ type: 'INVALID_INPUT', code: 'INVALID_API_KEYS' });
    for (const code of consoleCodes) expect(plaidErrorDefOf(code).type).toMatch(/^[A-Z_]+$/);
  });
});

describe("a failed request's answer", () => {
  it("is Plaid's error object with the request id, Plaid's status and our headers", () => {
    const err = new ApiError('rate_limit_exceeded', undefined, { 'Retry-After': '3' });
    const res = plaidErrorResponse(err, 'req_1', BASE);
    expect(res.statusCode).toBe(429);
    expect(res.headers).toEqual({ 'Content-Type': 'application/json', 'Retry-After': '3' });
    expect(JSON.parse(res.body)).toEqual({
      error_type: 'RATE_LIMIT_EXCEEDED',
      error_code: 'RATE_LIMIT',
      error_code_reason: null,
      error_message: err.message,
      display_message: 'We are receiving a lot of requests right now. Please try again shortly.',
      request_id: 'req_1',
      causes: [],
      documentation_url: 'https://api.example.test/stage/docs/errors#rate_limit_exceeded',
      suggested_action: null,
    });
  });

  it('shows the end user a message only for what is theirs to act on', () => {
    expect(plaidErrorBody(new ApiError('invalid_credentials'), 'r', BASE).display_message).toBe(displayMessageOf('invalid_credentials'));
    expect(plaidErrorBody(new ApiError('item_login_required'), 'r', BASE).display_message).toEqual(expect.any(String));
    expect(plaidErrorBody(new ApiError('invalid_field'), 'r', BASE).display_message).toBeNull();
  });

  it("answers a failure only Plaid has a word for in Plaid's terms", () => {
    const failure = invalidProduct('auth is not served');
    expect(failure).toBeInstanceOf(PlaidFailure);
    expect(plaidErrorResponse(failure, 'r', BASE)).toMatchObject({ statusCode: 400 });
    expect(JSON.parse(plaidErrorResponse(failure, 'r', BASE).body)).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_PRODUCT', error_message: 'auth is not served' });
  });
});

describe("an item's error", () => {
  it('carries the status and no request id, as Plaid writes errors outside an answer', () => {
    const error = plaidItemError({ code: 'item_login_required', message: ERRORS.item_login_required.message });
    expect(error).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', status: 400, error_message: ERRORS.item_login_required.message });
    expect(error).not.toHaveProperty('request_id');
  });
});
