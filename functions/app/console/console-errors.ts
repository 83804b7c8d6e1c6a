// The console's own error answers, in one place until they join the error catalogue
// (functions/contracts/errors.ts): each entry below is the catalogue entry to add, with its status,
// type and message. Meanwhile a ConsoleError carries the right status, type and message under the
// nearest existing code (`standIn`) and its own code in `consoleCode`; when the catalogue has the
// codes, ConsoleError becomes `new ApiError(code)` and nothing else changes.
import type * as z from 'zod';
import { ApiError, type ErrorCode, type ErrorType } from '../../contracts/errors';

interface ConsoleErrorDef {
  type: ErrorType;
  status: number;
  message: string;
  /** The existing catalogue code thrown until this one is in the catalogue. */
  standIn: ErrorCode;
}

export const CONSOLE_ERRORS = {
  role_forbidden: {
    type: 'permission_denied',
    status: 403,
    message: 'Your role in this organisation does not allow this action.',
    standIn: 'test_key_required',
  },
  organization_not_found: {
    type: 'not_found',
    status: 404,
    message: 'No organisation of yours has this organization_id.',
    standIn: 'route_not_found',
  },
  application_not_found: {
    type: 'not_found',
    status: 404,
    message: 'No application of your organisations has this application_id.',
    standIn: 'route_not_found',
  },
  member_not_found: { type: 'not_found', status: 404, message: 'No member of this organisation has this user_id.', standIn: 'route_not_found' },
  invitation_not_found: {
    type: 'not_found',
    status: 404,
    message: 'No pending invitation of this organisation has this invitation_id.',
    standIn: 'route_not_found',
  },
  key_not_found: { type: 'not_found', status: 404, message: 'No key of this application has this key_id.', standIn: 'route_not_found' },
  item_not_found: { type: 'not_found', status: 404, message: 'No item of this application and environment has this item_id.', standIn: 'route_not_found' },
  last_owner: {
    type: 'invalid_request',
    status: 409,
    message: 'An organisation needs at least one owner: make another member an owner first.',
    standIn: 'statement_import_busy',
  },
  organization_not_empty: {
    type: 'invalid_request',
    status: 409,
    message:
      'The organisation still has connected items. Remove them through the API (POST /v1/items/remove) first: deleting the organisation revokes every key, after which nothing could remove them.',
    standIn: 'statement_import_busy',
  },
  invitation_expired: {
    type: 'invalid_request',
    status: 410,
    message: 'This invitation was already used, revoked, or has expired (invitations last 7 days). Ask for a new one.',
    standIn: 'link_token_expired',
  },
  invitation_email_mismatch: {
    type: 'permission_denied',
    status: 403,
    message: 'This invitation is for another e-mail address: sign in with the address it was sent to.',
    standIn: 'test_key_required',
  },
  // --- sign-in and sessions (session.ts) ---
  /** Unknown address, wrong password, or a user without a local password: one answer for all. */
  console_invalid_credentials: {
    type: 'authentication_error',
    status: 401,
    message: 'The e-mail address or password is incorrect.',
    standIn: 'invalid_credentials',
  },
  session_required: {
    type: 'authentication_error',
    status: 401,
    message: 'Sign in to the console first: there is no session, or it ended.',
    standIn: 'missing_api_key',
  },
  csrf_failed: {
    type: 'permission_denied',
    status: 403,
    message: 'Send the X-CSRF-Token header with the token this session was given (console.session answers it).',
    standIn: 'test_key_required',
  },
  email_taken: {
    type: 'invalid_request',
    status: 409,
    message: 'An account with this e-mail address already exists. Sign in instead.',
    standIn: 'statement_import_busy',
  },
  sign_in_failed: {
    type: 'invalid_request',
    status: 400,
    message: 'This sign-in could not be completed: it was started in another browser, already used, or expired. Sign in again.',
    standIn: 'oauth_state_invalid',
  },
  email_not_verified: {
    type: 'permission_denied',
    status: 403,
    message: 'Verify your e-mail address first (the sign-up e-mail has a code), then sign in again.',
    standIn: 'test_key_required',
  },
  identity_provider_unavailable: {
    type: 'provider_error',
    status: 502,
    message: 'The sign-in service did not answer. Try again in a moment.',
    standIn: 'provider_error',
  },
} as const satisfies Record<string, ConsoleErrorDef>;

export type ConsoleErrorCode = keyof typeof CONSOLE_ERRORS;

export class ConsoleError extends ApiError {
  readonly consoleCode: ConsoleErrorCode;
  override readonly status: number;
  override readonly type: ErrorType;

  constructor(code: ConsoleErrorCode, message?: string) {
    const def: ConsoleErrorDef = CONSOLE_ERRORS[code];
    super(def.standIn, message ?? def.message);
    this.consoleCode = code;
    this.status = def.status;
    this.type = def.type;
  }
}

export function consoleFail(code: ConsoleErrorCode, message?: string): never {
  throw new ConsoleError(code, message);
}

/**
 * Parses a use case's input with its schema; the first problem becomes the API's own 400 answer
 * (unknown_field, missing_field or invalid_field, naming the field). The route table will parse
 * bodies itself once the console routes exist; the use cases keep taking parsed input.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue.path.join('.') || 'body';
  if (issue.code === 'unrecognized_keys') throw new ApiError('unknown_field', `Unknown field: ${issue.keys.join(', ')}.`);
  const present = issue.path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined), raw);
  if (present === undefined) throw new ApiError('missing_field', `${field} is required.`);
  throw new ApiError('invalid_field', `${field}: ${issue.message}`);
}
