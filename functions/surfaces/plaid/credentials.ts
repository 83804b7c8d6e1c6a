// Plaid's credentials on a Plaid-shaped request, mapped to ours. Plaid takes `client_id` and
// `secret` either in the JSON body or in the `PLAID-CLIENT-ID` / `PLAID-SECRET` headers (its own
// Node client sends the headers) and documents no precedence between the two. So either place is
// accepted, and a request that names a credential in both places must name the same value: two
// different values would leave it to chance which one is honoured, the way a repeated header is
// refused elsewhere (functions/platform/middleware.ts).
//
// The mapping: `secret` is the integrator's Fincore API key (fc_sk_test_... or fc_sk_live_...),
// which the shared middleware authenticates and meters as it does a bearer key; `client_id` is the
// key's application id, checked once the key is known (checkClientId), a mismatch answered as
// Plaid's INVALID_API_KEYS. Both are required, as Plaid requires both; a missing one is refused
// before the key is looked up.
//
// Depends on the contract and core only, so that the middleware can call it.
import { ApiError } from '../../contracts/errors';
import { isWellFormedApiKey } from '../../core/api-keys';

export const CLIENT_ID_HEADER = 'plaid-client-id';
export const SECRET_HEADER = 'plaid-secret';

export interface PlaidCredentialSource {
  /** The request's headers by lower-case name. */
  headers: Readonly<Record<string, string | undefined>>;
  /** Lower-case names of the headers the request sent more than once. */
  repeatedHeaders?: ReadonlySet<string>;
  /** The request body as sent (JSON, possibly not). */
  rawBody: string;
}

export interface PlaidCredentials {
  /** The Fincore API key (`secret`). */
  apiKey: string;
  /** The application id the caller names (`client_id`). */
  clientId: string;
}

/** The credential fields of a JSON body; nothing when the body is not a JSON object. */
function bodyCredentials(rawBody: string): { client_id?: unknown; secret?: unknown } {
  try {
    const parsed: unknown = JSON.parse(rawBody.startsWith('\uFEFF') ? rawBody.slice(1) : rawBody);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as { client_id?: unknown; secret?: unknown }) : {};
  } catch {
    return {};
  }
}

function headerValue(source: PlaidCredentialSource, name: string): string | undefined {
  const value = source.headers[name];
  // Neither credential ever contains a comma: one means two values folded into one header.
  if (source.repeatedHeaders?.has(name) || value?.includes(',')) {
    throw new ApiError('duplicate_header', `The ${name.toUpperCase()} header appears more than once; send exactly one.`);
  }
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** One credential from the body or its header: the same value when both carry it. */
function credential(source: PlaidCredentialSource, fromBody: unknown, field: 'client_id' | 'secret', header: string): string | undefined {
  const inHeader = headerValue(source, header);
  if (fromBody !== undefined && fromBody !== null && typeof fromBody !== 'string') {
    throw new ApiError('malformed_api_key', `The ${field} field must be a string.`);
  }
  const inBody = typeof fromBody === 'string' && fromBody.trim() !== '' ? fromBody.trim() : undefined;
  if (inBody !== undefined && inHeader !== undefined && inBody !== inHeader) {
    throw new ApiError('malformed_api_key', `The ${field} in the body differs from the ${header.toUpperCase()} header; send it once, or the same value in both.`);
  }
  return inBody ?? inHeader;
}

/**
 * The credentials of a Plaid-shaped request. Throws ApiError: `missing_api_key` when either is
 * absent, `malformed_api_key` when the secret is not a Fincore API key or the two places disagree,
 * `duplicate_header` when a credential header is repeated.
 */
export function plaidCredentialsOf(source: PlaidCredentialSource): PlaidCredentials {
  const body = bodyCredentials(source.rawBody);
  const clientId = credential(source, body.client_id, 'client_id', CLIENT_ID_HEADER);
  const apiKey = credential(source, body.secret, 'secret', SECRET_HEADER);
  const missing = [clientId === undefined ? 'client_id' : null, apiKey === undefined ? 'secret' : null].filter((f) => f !== null);
  if (clientId === undefined || apiKey === undefined) {
    throw new ApiError(
      'missing_api_key',
      `The following required fields are missing: ${missing.join(', ')}. Send client_id (your application id) and secret (your Fincore API key) in the body or in the PLAID-CLIENT-ID and PLAID-SECRET headers.`,
    );
  }
  if (!isWellFormedApiKey(apiKey)) {
    throw new ApiError('malformed_api_key', 'The secret is not a Fincore API key: send fc_sk_test_... or fc_sk_live_... as secret.');
  }
  return { apiKey, clientId };
}

/** The API key the middleware authenticates and meters for a Plaid-shaped request (see plaidCredentialsOf). */
export function plaidBearerKey(source: PlaidCredentialSource): string {
  return plaidCredentialsOf(source).apiKey;
}

/** After authentication: `client_id` must name the application the key belongs to. */
export function checkClientId(clientId: string, applicationId: string): void {
  if (clientId !== applicationId) {
    throw new ApiError('invalid_api_key', 'The client_id does not match the secret: client_id is the application id of the API key sent as secret.');
  }
}
