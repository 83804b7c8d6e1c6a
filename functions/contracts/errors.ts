// The one error catalogue: every error the API can answer, by code. The HTTP status and `type`
// live here and nowhere else; openapi.json lists every code from this table.
//
// Envelope: {"error": {"type", "code", "message", "request_id", "documentation_url", "display_message"}}.
import { errorDocumentationPath } from './docs-links';

export const ERROR_TYPES = {
  invalid_request: 400,
  authentication_error: 401,
  permission_denied: 403,
  not_found: 404,
  rate_limit_error: 429,
  provider_error: 502,
  api_error: 500,
  /** The institution login itself failed (credentials, MFA, locked): shown in Link, passed to onExit. */
  item_error: 400,
} as const;
export type ErrorType = keyof typeof ERROR_TYPES;

interface ErrorDef {
  type: ErrorType;
  /** Defaults to the type's status; a few transport-level errors use the more precise HTTP status. */
  status?: number;
  message: string;
  /**
   * Answered by the console's own API only (/console/api/...): the public documents (openapi.json,
   * llms.txt and the SDKs generated from them) leave it out, since no API call can get it.
   */
  console?: true;
}

function consent(product: string): ErrorDef {
  return {
    type: 'permission_denied',
    message: `The item's consent does not include the ${product} product. Open Link in update mode with ${product} in products to ask the user for it.`,
  };
}

export const ERRORS = {
  // --- transport and shape (400 family) ---
  invalid_json: { type: 'invalid_request', message: 'The request body is not valid JSON.' },
  invalid_content_type: {
    type: 'invalid_request',
    status: 415,
    message: 'Send the request body as JSON with the header Content-Type: application/json.',
  },
  request_too_large: {
    type: 'invalid_request',
    status: 413,
    message: 'The request body is larger than the 1 MiB limit.',
  },
  missing_field: { type: 'invalid_request', message: 'A required field is missing.' },
  invalid_field: { type: 'invalid_request', message: 'A field has the wrong type or value.' },
  unknown_field: { type: 'invalid_request', message: 'The request contains a field this operation does not accept.' },
  unsupported_version: {
    type: 'invalid_request',
    message: 'The FC-Version header names a version this API does not serve. The current version is 2026-07-01.',
  },
  request_rejected: {
    type: 'invalid_request',
    message: 'The API gateway rejected the request before it reached the service.',
  },
  request_header_fields_too_large: {
    type: 'invalid_request',
    status: 431,
    message: 'The request headers are larger than the server accepts. Send fewer or shorter headers.',
  },
  duplicate_header: {
    type: 'invalid_request',
    message: 'The request repeats a header that must appear once. Send it once.',
  },
  method_not_allowed: {
    type: 'invalid_request',
    status: 405,
    message: 'This path does not accept that HTTP method.',
  },
  invalid_cursor: {
    type: 'invalid_request',
    message: 'The cursor is not usable for this item. Resync from scratch by calling without a cursor.',
  },
  invalid_account_id: {
    type: 'invalid_request',
    message: 'One or more account_ids do not belong to this item.',
  },
  invalid_access_token: {
    type: 'invalid_request',
    message: 'The access_token is not valid for this application and environment.',
  },
  invalid_public_token: {
    type: 'invalid_request',
    message: 'The public_token is not valid for this application and environment.',
  },
  public_token_expired: {
    type: 'invalid_request',
    message: 'The public_token expired (they live 30 minutes). Open Link again.',
  },
  public_token_used: {
    type: 'invalid_request',
    message: 'The public_token was already exchanged; public tokens are single-use.',
  },
  invalid_link_token: { type: 'invalid_request', message: 'The link token is not valid.' },
  link_token_expired: {
    type: 'invalid_request',
    message: 'This link has expired (link tokens live 30 minutes). Ask the app for a new one.',
  },
  link_token_used: {
    type: 'invalid_request',
    message: 'This link was already used to connect an account. Ask the app for a new one.',
  },
  invalid_item_id: {
    type: 'invalid_request',
    message: 'update_item_id does not name an item of this application and environment.',
  },
  products_not_supported: {
    type: 'invalid_request',
    message: 'The institution does not support every requested product.',
  },
  // --- statement files (the file importer; the message names the problem and its line) ---
  statement_too_large: {
    type: 'invalid_request',
    status: 413,
    message: 'The statement file is larger than the import accepts (10 MiB, 100,000 transactions).',
  },
  statement_unrecognized: {
    type: 'invalid_request',
    message: 'The file is not a statement the import reads: upload a CSV, OFX, QFX or QBO export from your bank.',
  },
  statement_malformed: {
    type: 'invalid_request',
    message: 'The statement file is damaged or incomplete; export it again from your bank.',
  },
  statement_unsupported_encoding: {
    type: 'invalid_request',
    message: 'The statement file is in a text encoding the import does not read (UTF-8, UTF-16, Windows-1252, ISO-8859-1).',
  },
  statement_empty: {
    type: 'invalid_request',
    message: 'The statement file holds no accounts or transactions.',
  },
  statement_server_error: {
    type: 'invalid_request',
    message: "The file holds the bank's error answer instead of a statement; export it again from your bank.",
  },
  statement_import_busy: {
    type: 'rate_limit_error',
    status: 409,
    message: 'Another statement is being imported into this item. Retry after the time in Retry-After.',
  },
  statement_import_not_supported: {
    type: 'invalid_request',
    message: 'Statements can be uploaded only to items created from a statement file (connector file_import).',
  },
  institution_mismatch: {
    type: 'invalid_request',
    message: 'Update mode must reconnect the same institution as the item.',
  },
  redirect_uri_not_allowed: {
    type: 'invalid_request',
    message:
      "The redirect_uri is not allowed: live keys need an https URI on the application's list of allowed redirect URIs; test keys an https URI, or http on localhost.",
  },
  no_mfa_pending: { type: 'invalid_request', message: 'There is no MFA challenge to answer; submit credentials first.' },
  oauth_state_invalid: {
    type: 'invalid_request',
    message: 'This return from the institution does not match an open sign-in of this link: it belongs to another session, was already used, or expired. Start again.',
  },
  invalid_date_range: { type: 'invalid_request', message: 'start_date must not be after end_date.' },
  product_not_ready: {
    type: 'invalid_request',
    message:
      "The item's transaction history is still loading (items/get `transactions_update_status`). Retry after the `transactions.sync_updates_available` webhook: transactions/get answers once `initial_update_complete` is true, recurring, income and assets once `historical_update_complete` is true. transactions/sync serves what is loaded meanwhile.",
  },
  invalid_webhook_url: {
    type: 'invalid_request',
    message: 'The webhook URL is not allowed: live endpoints must be public https URLs (no private, loopback or link-local addresses).',
  },
  too_many_webhook_endpoints: {
    type: 'invalid_request',
    message: 'This environment already has the maximum of 10 webhook endpoints. Delete one first.',
  },

  // --- authentication (401) ---
  missing_api_key: {
    type: 'authentication_error',
    message: 'Send your secret key in the header Authorization: Bearer fc_sk_test_... or fc_sk_live_...',
  },
  malformed_api_key: {
    type: 'authentication_error',
    message: 'The Authorization header is not of the form "Bearer fc_sk_test_..." or "Bearer fc_sk_live_...".',
  },
  invalid_api_key: { type: 'authentication_error', message: 'The API key is not recognised.' },
  revoked_api_key: {
    type: 'authentication_error',
    message: 'The API key has been revoked. Use the key that replaced it.',
  },

  // --- the institution login (item errors, 400) ---
  invalid_credentials: {
    type: 'item_error',
    message: 'The username or password is incorrect. Check them and try again.',
  },
  invalid_mfa_code: { type: 'item_error', message: 'The code is incorrect. Check it and try again.' },
  oauth_access_denied: {
    type: 'item_error',
    message: 'You declined to share your data at the institution, so nothing was connected. Start again if you change your mind.',
  },
  item_locked: {
    type: 'item_error',
    message: 'This account is locked at your bank. Unlock it with your bank, then try again.',
  },
  item_login_required: {
    type: 'item_error',
    message: "The item's login needs the user's attention. Open Link in update mode (update_item_id) to repair it.",
  },
  item_not_healthy: {
    type: 'item_error',
    message: 'The item is in an error state at its institution. Open Link in update mode to repair it.',
  },
  too_many_attempts: {
    type: 'item_error',
    message: 'Too many failed attempts for this link. Ask the app for a new link.',
  },

  // --- permission (403) ---
  live_access_not_in_plan: {
    type: 'permission_denied',
    message: 'Your plan is sandbox only. Upgrade to use live keys.',
  },
  test_key_required: {
    type: 'permission_denied',
    message: 'Sandbox helpers only accept test keys (fc_sk_test_...).',
  },
  // The product consent errors, one per product: the same sentence with the product named.
  transactions_not_consented: /* @__PURE__ */ consent('transactions'),
  identity_not_consented: /* @__PURE__ */ consent('identity'),
  income_not_consented: /* @__PURE__ */ consent('income'),
  assets_not_consented: /* @__PURE__ */ consent('assets'),
  investments_not_consented: /* @__PURE__ */ consent('investments'),
  liabilities_not_consented: /* @__PURE__ */ consent('liabilities'),
  recurring_not_consented: /* @__PURE__ */ consent('recurring'),

  // --- not found (404) ---
  route_not_found: { type: 'not_found', message: 'No operation exists at this path.' },
  institution_not_found: { type: 'not_found', message: 'No institution has this institution_id.' },
  webhook_endpoint_not_found: { type: 'not_found', message: 'No webhook endpoint of this environment has this endpoint_id.' },
  event_not_found: { type: 'not_found', message: 'No event of this environment has this event_id.' },

  // --- limits (429) ---
  rate_limit_exceeded: {
    type: 'rate_limit_error',
    message: 'Too many requests for this key. Wait for the time in Retry-After, then retry.',
  },
  monthly_api_quota_exceeded: {
    type: 'rate_limit_error',
    message: "This month's API request quota for your plan is used up. It resets on the first of next month (UTC).",
  },
  monthly_ai_quota_exceeded: {
    type: 'rate_limit_error',
    message: "This month's AI request quota for your plan is used up. It resets on the first of next month (UTC).",
  },

  // --- upstream (502) ---
  provider_error: {
    type: 'provider_error',
    message: 'The institution could not be reached through any enabled connector.',
  },

  // --- ours (5xx) ---
  internal_error: {
    type: 'api_error',
    message: 'Something went wrong on our side. Retry later; quote the request_id if you contact support.',
  },
  storage_unavailable: {
    type: 'api_error',
    status: 503,
    message: 'Our storage is temporarily unavailable. Retry after the time in Retry-After; quote the request_id if it persists.',
  },

  // --- the GraphQL gateway (POST /v1/graphql): checked before the query runs ---
  graphql_syntax_error: { type: 'invalid_request', message: 'The query is not valid GraphQL syntax.' },
  graphql_validation_failed: {
    type: 'invalid_request',
    message: 'The query does not validate against the schema, or its variables do not match their declared types.',
  },
  graphql_operation_not_supported: {
    type: 'invalid_request',
    message: 'The GraphQL gateway is read-only: send a query operation (no mutations or subscriptions).',
  },
  graphql_query_too_deep: { type: 'invalid_request', message: 'The query nests selections more deeply than the depth limit.' },
  graphql_query_too_costly: {
    type: 'invalid_request',
    message: 'The query could resolve more objects than one request may (its cost estimate is over the limit). Ask for fewer items or smaller counts, or split the query.',
  },
  graphql_too_many_items: {
    type: 'invalid_request',
    message: 'The query names more access tokens than one request may, over every item and items field.',
  },
  graphql_introspection_disabled: {
    type: 'permission_denied',
    message: 'Schema introspection (__schema, __type) is available to test keys only (fc_sk_test_...).',
  },

  // --- the console's own API (/console/api/...; docs/console.md): never answered to an API key ---
  session_required: {
    type: 'authentication_error',
    message: 'Sign in to the console first: there is no session, or it ended.',
    console: true,
  },
  console_invalid_credentials: {
    type: 'authentication_error',
    message: 'The e-mail address or password is incorrect.',
    console: true,
  },
  csrf_failed: {
    type: 'permission_denied',
    message: 'Send the X-CSRF-Token header with the token this session was given (console.session answers it), from the console\u2019s own page.',
    console: true,
  },
  role_forbidden: { type: 'permission_denied', message: 'Your role in this organisation does not allow this action.', console: true },
  invitation_email_mismatch: {
    type: 'permission_denied',
    message: 'This invitation is for another e-mail address: sign in with the address it was sent to.',
    console: true,
  },
  email_not_verified: {
    type: 'permission_denied',
    message: 'Verify your e-mail address first (the sign-up e-mail has a code), then sign in again.',
    console: true,
  },
  organization_not_found: { type: 'not_found', message: 'No organisation of yours has this organization_id.', console: true },
  application_not_found: { type: 'not_found', message: 'No application of your organisations has this application_id.', console: true },
  member_not_found: { type: 'not_found', message: 'No member of this organisation has this user_id.', console: true },
  invitation_not_found: { type: 'not_found', message: 'No pending invitation of this organisation has this invitation_id.', console: true },
  key_not_found: { type: 'not_found', message: 'No key of this application has this key_id.', console: true },
  item_not_found: { type: 'not_found', message: 'No item of this application and environment has this item_id.', console: true },
  last_owner: {
    type: 'invalid_request',
    status: 409,
    message: 'An organisation needs at least one owner: make another member an owner first.',
    console: true,
  },
  organization_not_empty: {
    type: 'invalid_request',
    status: 409,
    message:
      'The organisation still has connected items. Remove them through the API (POST /v1/items/remove) first: deleting the organisation revokes every key, after which nothing could remove them.',
    console: true,
  },
  email_taken: {
    type: 'invalid_request',
    status: 409,
    message: 'An account with this e-mail address already exists. Sign in instead.',
    console: true,
  },
  invitation_expired: {
    type: 'invalid_request',
    status: 410,
    message: 'This invitation was already used, revoked, or has expired (invitations last 7 days). Ask for a new one.',
    console: true,
  },
  sign_in_failed: {
    type: 'invalid_request',
    message: 'This sign-in could not be completed: it was started in another browser, already used, or expired. Sign in again.',
    console: true,
  },
  sign_in_method_unavailable: {
    type: 'invalid_request',
    message: 'This console does not sign in this way: open the console page, which offers the way it does.',
    console: true,
  },
  identity_provider_unavailable: {
    type: 'provider_error',
    message: 'The sign-in service did not answer. Try again in a moment.',
    console: true,
  },

  // --- the MCP server (POST /mcp): messages its transport refuses before any tool runs ---
  mcp_invalid_message: {
    type: 'invalid_request',
    message: 'The body is not a JSON-RPC 2.0 message the MCP server accepts (method, params or protocol version).',
  },
  mcp_not_acceptable: {
    type: 'invalid_request',
    status: 406,
    message: 'Send Accept: application/json, text/event-stream (the Streamable HTTP transport requires both).',
  },
} as const satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;

// --- display_message: what an integrator's app may show its end user ---
/**
 * A sentence for the person using the integrator's app (no jargon, field names or keys), for the
 * errors that person can act on or should be told about: their bank login, their link, an
 * institution or this service being unavailable, a file they chose. A code absent here is the
 * integration's to fix (validation, keys, unknown ids, routes): its envelope's display_message is
 * null, and the app should show its own generic wording, never our developer message.
 */
const DISPLAY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  public_token_expired: 'Connecting your account took too long. Please connect it again.',
  public_token_used: 'This connection was already completed. Please connect your account again if it does not appear.',
  invalid_link_token: 'This link is not valid. Please start again from the app.',
  link_token_expired: 'This link has expired. Please start again from the app.',
  link_token_used: 'This link was already used to connect an account. Please start again from the app.',
  products_not_supported: 'This institution does not offer everything this app needs. Please choose another institution.',
  statement_too_large: 'This file is too large to import. Please export a shorter date range from your bank.',
  statement_unrecognized: 'This file is not a bank statement we can read. Please upload a CSV, OFX, QFX or QBO export from your bank.',
  statement_malformed: 'This file seems damaged or incomplete. Please export it again from your bank.',
  statement_unsupported_encoding: 'This file uses a text format we cannot read. Please export it again from your bank.',
  statement_empty: 'This file contains no accounts or transactions. Please check that you exported the right statement.',
  statement_server_error: 'This file contains an error page from your bank instead of a statement. Please export it again.',
  statement_import_busy: 'Another statement is still being imported. Please try again in a minute.',
  institution_mismatch: 'Please sign in to the same institution you connected before.',
  oauth_state_invalid: 'This sign-in could not be completed. Please start again.',
  product_not_ready: 'Your account data is still loading. Please check back in a few minutes.',
  invalid_credentials: 'The username or password is incorrect. Check them and try again.',
  invalid_mfa_code: 'The code is incorrect. Check it and try again.',
  oauth_access_denied: 'You declined to share your data at the institution, so nothing was connected. Start again if you change your mind.',
  item_locked: 'This account is locked at your bank. Unlock it with your bank, then try again.',
  item_login_required: 'The login details of this account need your attention. Please sign in to your bank again.',
  item_not_healthy: 'Your bank is having trouble sharing this account right now. Please try again later or reconnect it.',
  too_many_attempts: 'Too many attempts. Please start again from the app.',
  transactions_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  identity_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  income_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  assets_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  investments_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  liabilities_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  recurring_not_consented: 'This app needs your permission to see more of your account. Please reconnect your account to grant it.',
  rate_limit_exceeded: 'We are receiving a lot of requests right now. Please try again shortly.',
  monthly_api_quota_exceeded: 'This service is temporarily unavailable. Please try again later.',
  monthly_ai_quota_exceeded: 'This feature is temporarily unavailable. Please try again later.',
  provider_error: 'We could not reach your institution right now. Please try again later.',
  internal_error: 'Something went wrong on our side. Please try again later.',
  storage_unavailable: 'This service is temporarily unavailable. Please try again in a few moments.',
};

/** What the end user may be shown for `code` (envelope `display_message`); null where the error is the integration's to fix. */
export function displayMessageOf(code: ErrorCode): string | null {
  return DISPLAY_MESSAGES[code] ?? null;
}

/**
 * Where `code` is explained (envelope `documentation_url`): the error catalogue page's entry for it,
 * under the API's base URL as the request reached it (functions/platform/middleware.ts baseUrlOf).
 */
export function documentationUrlOf(code: ErrorCode, baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${errorDocumentationPath(code)}`;
}
/** The console's own codes (ErrorDef.console): answered by /console/api/... only, never to an API key. */
export type ConsoleErrorCode = { [C in ErrorCode]: (typeof ERRORS)[C] extends { console: true } ? C : never }[ErrorCode];
/** The codes the public API can answer (openapi.json, llms.txt, the SDKs): every code but the console's. */
export type PublicErrorCode = Exclude<ErrorCode, ConsoleErrorCode>;

/** The errors an item itself can be in (items/get `error`, the `item.error` webhook). */
export type ItemErrorCode = 'item_locked' | 'item_login_required' | 'item_not_healthy';

/** An item's `error` object, in the catalogue's own words, so the item and the API answer agree. */
export function itemErrorOf(code: ItemErrorCode): { type: ErrorType; code: ItemErrorCode; message: string } {
  return { type: ERRORS[code].type, code, message: ERRORS[code].message };
}

export function statusOf(code: ErrorCode): number {
  const def: ErrorDef = ERRORS[code];
  return def.status ?? ERROR_TYPES[def.type];
}

/** Whether the public documents list the code: every code but the console's own (ErrorDef.console). */
export function isPublicErrorCode(code: ErrorCode): boolean {
  const def: ErrorDef = ERRORS[code];
  return def.console !== true;
}

/** The codes the public API can answer, as openapi.json and llms.txt list them. */
export function publicErrorCodes(): PublicErrorCode[] {
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code): code is PublicErrorCode => isPublicErrorCode(code));
}

/** Every status a public operation can answer, for openapi.json. */
export function allErrorStatuses(): number[] {
  return [...new Set(publicErrorCodes().map(statusOf))].sort((a, b) => a - b);
}

/** The public codes answered with `status`, for openapi.json. */
export function codesForStatus(status: number): ErrorCode[] {
  return publicErrorCodes().filter((code) => statusOf(code) === status);
}

/** Thrown by handlers and middleware; the error middleware turns it into the envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: ErrorType;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? ERRORS[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.type = ERRORS[code].type;
    this.status = statusOf(code);
    this.headers = headers;
  }
}

export function fail(code: ErrorCode, message?: string, headers?: Record<string, string>): never {
  throw new ApiError(code, message, headers);
}

export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    request_id: string;
    /** `{base_url}/docs/errors#<code>`: the code's entry in the error catalogue page. */
    documentation_url: string;
    /** A sentence safe to show the integrator's end user, or null when the error is the integration's to fix. */
    display_message: string | null;
  };
}

/** The error envelope; `baseUrl` is the API's base URL for this request (where documentation_url points). */
export function envelope(err: ApiError, requestId: string, baseUrl: string): ErrorEnvelope {
  return {
    error: {
      type: err.type,
      code: err.code,
      message: err.message,
      request_id: requestId,
      documentation_url: documentationUrlOf(err.code, baseUrl),
      display_message: displayMessageOf(err.code),
    },
  };
}
