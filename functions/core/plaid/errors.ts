// Our errors in Plaid's words. Every code the API can answer (functions/contracts/errors.ts,
// PublicErrorCode) has a row: the table is typed over those codes, so a new one fails the type check
// until it is mapped here. The console's own codes never reach an API key; should one ever arrive
// here, it is rendered by its type (PLAID_ERRORS_BY_TYPE).
//
// A Plaid error is `{error_type, error_code, error_code_reason, error_message, display_message,
// request_id, causes, documentation_url, suggested_action}` with the HTTP status Plaid documents for
// that code: 400 for request, input, item and institution errors, 404 for an unknown endpoint, 429
// for rate limits, 500 for Plaid's own failures. `error_message` is our message (for developers);
// `display_message` and `documentation_url` are filled as our own envelope fills them (the
// catalogue's display message, null where the error is the integration's to fix; our error page's
// entry for the code). The same object inside a webhook or an item carries `status` and no
// `request_id` (Plaid's rule for errors that are not the answer to a request).
//
// Pure (the contract alone): the Plaid-compatible API answers with it, the shared middlewares render
// the errors they raise (missing key, rate limit, body size) with it through the hooks its route's
// handler passes them (functions/api/plaid.call.ts), and Plaid-shaped webhooks carry an item's error
// in it (./webhooks.ts).
import type { PlaidError } from 'plaid';
import { ERRORS, displayMessageOf, documentationUrlOf, type ApiError, type ErrorCode, type ErrorType, type PublicErrorCode } from '../../contracts/errors';
import type { Wire } from './wire';

export type PlaidErrorType = Wire<PlaidError>['error_type'];

export interface PlaidErrorDef {
  type: PlaidErrorType;
  code: string;
  status: number;
}

const invalidRequest = (code: string, status = 400): PlaidErrorDef => ({ type: 'INVALID_REQUEST', code, status });
const invalidInput = (code: string): PlaidErrorDef => ({ type: 'INVALID_INPUT', code, status: 400 });
const itemError = (code: string): PlaidErrorDef => ({ type: 'ITEM_ERROR', code, status: 400 });
const rateLimit = (code: string): PlaidErrorDef => ({ type: 'RATE_LIMIT_EXCEEDED', code, status: 429 });

const INSTITUTION_NOT_RESPONDING: PlaidErrorDef = {
  type: 'INSTITUTION_ERROR',
  code: 'INSTITUTION_NOT_RESPONDING',
  status: 400,
};
const CONSENT_REQUIRED = itemError('ADDITIONAL_CONSENT_REQUIRED');
const INVALID_BODY = invalidRequest('INVALID_BODY');
const INVALID_FIELD = invalidRequest('INVALID_FIELD');
const INVALID_HEADERS = invalidRequest('INVALID_HEADERS');
const NOT_FOUND = invalidRequest('NOT_FOUND', 404);

/**
 * Each of our codes as Plaid's error. Codes no Plaid endpoint of this surface can raise (the Link
 * page's own API, statement uploads, webhook management, GraphQL, MCP) still have a row, with the
 * closest request error, so that nothing can reach a Plaid client unmapped.
 */
export const PLAID_ERRORS: { readonly [Code in PublicErrorCode]: PlaidErrorDef } = {
  // transport and shape
  invalid_json: INVALID_BODY,
  invalid_content_type: INVALID_BODY,
  request_too_large: INVALID_BODY,
  missing_field: invalidRequest('MISSING_FIELDS'),
  invalid_field: INVALID_FIELD,
  unknown_field: invalidRequest('UNKNOWN_FIELDS'),
  unsupported_version: invalidRequest('INCOMPATIBLE_API_VERSION'),
  request_rejected: INVALID_BODY,
  request_header_fields_too_large: INVALID_HEADERS,
  duplicate_header: INVALID_HEADERS,
  method_not_allowed: NOT_FOUND,
  invalid_cursor: INVALID_FIELD,
  invalid_account_id: invalidInput('INVALID_ACCOUNT_ID'),
  invalid_access_token: invalidInput('INVALID_ACCESS_TOKEN'),
  invalid_public_token: invalidInput('INVALID_PUBLIC_TOKEN'),
  public_token_expired: invalidInput('INVALID_PUBLIC_TOKEN'),
  public_token_used: invalidInput('INVALID_PUBLIC_TOKEN'),
  invalid_link_token: invalidInput('INVALID_LINK_TOKEN'),
  link_token_expired: invalidInput('INVALID_LINK_TOKEN'),
  link_token_used: invalidInput('INVALID_LINK_TOKEN'),
  // Update mode names the item by its access token on this surface (link.ts resolves it).
  invalid_item_id: invalidInput('INVALID_ACCESS_TOKEN'),
  products_not_supported: itemError('PRODUCTS_NOT_SUPPORTED'),
  statement_too_large: INVALID_BODY,
  statement_unrecognized: INVALID_FIELD,
  statement_malformed: INVALID_FIELD,
  statement_unsupported_encoding: INVALID_FIELD,
  statement_empty: INVALID_FIELD,
  statement_server_error: INVALID_FIELD,
  statement_import_busy: rateLimit('RATE_LIMIT'),
  statement_import_not_supported: INVALID_FIELD,
  institution_mismatch: invalidInput('INVALID_INSTITUTION'),
  redirect_uri_not_allowed: INVALID_FIELD,
  no_mfa_pending: INVALID_FIELD,
  oauth_state_invalid: INVALID_FIELD,
  invalid_date_range: INVALID_FIELD,
  product_not_ready: itemError('PRODUCT_NOT_READY'),
  invalid_webhook_url: INVALID_FIELD,
  too_many_webhook_endpoints: INVALID_FIELD,
  // authentication: Plaid answers a missing client_id or secret as missing fields, a wrong one as invalid keys
  missing_api_key: invalidRequest('MISSING_FIELDS'),
  malformed_api_key: invalidInput('INVALID_API_KEYS'),
  invalid_api_key: invalidInput('INVALID_API_KEYS'),
  revoked_api_key: invalidInput('INVALID_API_KEYS'),
  // the institution login
  invalid_credentials: itemError('INVALID_CREDENTIALS'),
  invalid_mfa_code: itemError('INVALID_MFA'),
  oauth_access_denied: itemError('ACCESS_NOT_GRANTED'),
  item_locked: itemError('ITEM_LOCKED'),
  item_login_required: itemError('ITEM_LOGIN_REQUIRED'),
  item_not_healthy: INSTITUTION_NOT_RESPONDING,
  too_many_attempts: invalidInput('TOO_MANY_VERIFICATION_ATTEMPTS'),
  // permission
  live_access_not_in_plan: invalidInput('UNAUTHORIZED_ENVIRONMENT'),
  test_key_required: invalidRequest('SANDBOX_ONLY'),
  transactions_not_consented: CONSENT_REQUIRED,
  identity_not_consented: CONSENT_REQUIRED,
  income_not_consented: CONSENT_REQUIRED,
  assets_not_consented: CONSENT_REQUIRED,
  investments_not_consented: CONSENT_REQUIRED,
  liabilities_not_consented: CONSENT_REQUIRED,
  recurring_not_consented: CONSENT_REQUIRED,
  // not found
  route_not_found: NOT_FOUND,
  institution_not_found: invalidInput('INVALID_INSTITUTION'),
  webhook_endpoint_not_found: NOT_FOUND,
  event_not_found: NOT_FOUND,
  // limits: Plaid has no monthly quota; its generic rate limit code is the nearest
  rate_limit_exceeded: rateLimit('RATE_LIMIT'),
  monthly_api_quota_exceeded: rateLimit('RATE_LIMIT'),
  monthly_ai_quota_exceeded: rateLimit('RATE_LIMIT'),
  // upstream
  provider_error: INSTITUTION_NOT_RESPONDING,
  // ours
  internal_error: { type: 'API_ERROR', code: 'INTERNAL_SERVER_ERROR', status: 500 },
  storage_unavailable: { type: 'API_ERROR', code: 'INTERNAL_SERVER_ERROR', status: 500 },
  // the GraphQL and MCP endpoints (never reached through this surface)
  graphql_syntax_error: INVALID_BODY,
  graphql_validation_failed: INVALID_BODY,
  graphql_operation_not_supported: INVALID_BODY,
  graphql_query_too_deep: INVALID_BODY,
  graphql_query_too_costly: INVALID_BODY,
  graphql_too_many_items: INVALID_BODY,
  graphql_introspection_disabled: INVALID_FIELD,
  mcp_invalid_message: INVALID_BODY,
  mcp_not_acceptable: INVALID_HEADERS,
};

/** A code without a row of its own (the console's), by its type. */
export const PLAID_ERRORS_BY_TYPE: { readonly [Type in ErrorType]: PlaidErrorDef } = {
  invalid_request: INVALID_FIELD,
  authentication_error: invalidInput('INVALID_API_KEYS'),
  permission_denied: invalidInput('UNAUTHORIZED_ROUTE_ACCESS'),
  not_found: NOT_FOUND,
  rate_limit_error: rateLimit('RATE_LIMIT'),
  provider_error: INSTITUTION_NOT_RESPONDING,
  api_error: { type: 'API_ERROR', code: 'INTERNAL_SERVER_ERROR', status: 500 },
  item_error: itemError('ITEM_LOGIN_REQUIRED'),
};

/** Plaid's error for one of our codes. */
export function plaidErrorDefOf(code: ErrorCode): PlaidErrorDef {
  return Object.hasOwn(PLAID_ERRORS, code) ? PLAID_ERRORS[code as PublicErrorCode] : PLAID_ERRORS_BY_TYPE[ERRORS[code].type];
}

/**
 * A failure that exists only in Plaid's vocabulary (a product we do not serve, an unknown webhook
 * verification key): raised by the translation itself, in Plaid's terms from the start.
 */
export class PlaidFailure extends Error {
  constructor(
    readonly def: PlaidErrorDef,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'PlaidFailure';
  }
}

/** Plaid's INVALID_PRODUCT: a product this surface does not serve (auth, transfer, signal, ...). */
export const invalidProduct = (message: string) => new PlaidFailure(invalidInput('INVALID_PRODUCT'), message);
/** Plaid's INVALID_WEBHOOK_VERIFICATION_KEY_ID: no key of this application and environment has that id. */
export const invalidVerificationKeyId = (message: string) => new PlaidFailure(invalidInput('INVALID_WEBHOOK_VERIFICATION_KEY_ID'), message);
/** A field Plaid declares that this surface cannot honour (its value would change the answer). */
export const unsupportedField = (message: string) => new PlaidFailure(INVALID_FIELD, message);

export type PlaidErrorObject = Wire<PlaidError>;

function defOf(err: ApiError | PlaidFailure): PlaidErrorDef {
  return err instanceof PlaidFailure ? err.def : plaidErrorDefOf(err.code);
}

/**
 * The catalogue code that documents an error: ours, or for a failure only Plaid has a word for (a
 * product or field this surface cannot honour, an unknown verification key id) `invalid_field`,
 * which is what each of them is.
 */
const documentedCodeOf = (err: ApiError | PlaidFailure): ErrorCode => (err instanceof PlaidFailure ? 'invalid_field' : err.code);

/** The error object of a failed request: what Plaid puts in a non-2xx answer's body; `baseUrl` is the API's base URL for the request. */
export function plaidErrorBody(err: ApiError | PlaidFailure, requestId: string, baseUrl: string): PlaidErrorObject {
  const def = defOf(err);
  return {
    error_type: def.type,
    error_code: def.code,
    error_code_reason: null,
    error_message: err.message,
    display_message: err instanceof PlaidFailure ? null : displayMessageOf(err.code),
    request_id: requestId,
    causes: [],
    documentation_url: documentationUrlOf(documentedCodeOf(err), baseUrl),
    suggested_action: null,
  };
}

/** A failed request's answer: Plaid's status for the code, our headers (Retry-After, rate limit) kept. */
export function plaidErrorResponse(err: ApiError | PlaidFailure, requestId: string, baseUrl: string): { statusCode: number; headers: Record<string, string>; body: string } {
  return {
    statusCode: defOf(err).status,
    headers: { 'Content-Type': 'application/json', ...err.headers },
    body: JSON.stringify(plaidErrorBody(err, requestId, baseUrl)),
  };
}

/**
 * An item's own error (items/get `error`, the `item.error` webhook) as Plaid's error object, the way
 * Plaid writes errors that are not a request's answer: with `status`, without `request_id`.
 */
export function plaidItemError(error: { code: string; message: string }): PlaidErrorObject {
  const known = Object.hasOwn(ERRORS, error.code) ? (error.code as ErrorCode) : undefined;
  const def: PlaidErrorDef = known ? plaidErrorDefOf(known) : INSTITUTION_NOT_RESPONDING;
  return {
    error_type: def.type,
    error_code: def.code,
    error_code_reason: null,
    error_message: error.message,
    display_message: displayMessageOf(known ?? 'item_not_healthy'),
    causes: [],
    status: def.status,
    suggested_action: null,
  };
}
