// @fincore/sdk: the API client, its models and errors, and webhook verification.
// Browser helpers live in subpaths: @fincore/sdk/link (Link SDK loader) and @fincore/sdk/react.
export { Fincore } from './client.js';
export { FincoreError, type FincoreErrorFields } from './errors.js';
export { Transport, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, SDK_VERSION, defaultBackoffMs, type ClientOptions, type RequestOptions, type OperationSpec } from './transport.js';
export * from './generated/groups.js';
export type * from './generated/models.js';
export { ERROR_CODES, type ErrorCode, type ErrorType } from './generated/error-codes.js';
export * from './webhooks.js';
