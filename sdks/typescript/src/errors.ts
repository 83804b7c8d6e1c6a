// The one error type every call raises: an API error answer (4xx/5xx with the error envelope), or a
// failure to get an answer at all (status 0: timeout or network), so callers catch one class.
import type { ErrorType } from './generated/error-codes.js';

export interface FincoreErrorFields {
  status: number;
  type: ErrorType | 'connection_error' | (string & {});
  code: string;
  message: string;
  requestId: string | null;
  /** Seconds from the Retry-After header (429, 503), when the answer had one. */
  retryAfter?: number | null;
  /** Where the code is explained (`{base_url}/docs/errors#<code>`), when the answer said. */
  documentationUrl?: string | null;
  /** A sentence safe to show your end user; null when the error is the integration's to fix. */
  displayMessage?: string | null;
}

export class FincoreError extends Error implements FincoreErrorFields {
  /** HTTP status; 0 when no answer arrived (timeout, connection refused or reset). */
  readonly status: number;
  /** The error type of the envelope (`invalid_request`, `item_error`, ...), or `connection_error`. */
  readonly type: FincoreErrorFields['type'];
  /** The error code (`invalid_access_token`, ...); `timeout` or `network_error` for connection errors. */
  readonly code: string;
  /** The request id to quote to support (also the X-Request-Id header); null when none arrived. */
  readonly requestId: string | null;
  readonly retryAfter: number | null;
  /** Where the code is explained (`{base_url}/docs/errors#<code>`); null when no envelope arrived. */
  readonly documentationUrl: string | null;
  /** A sentence safe to show your end user; null when the error is the integration's to fix (show your own words). */
  readonly displayMessage: string | null;

  constructor(fields: FincoreErrorFields, options?: { cause?: unknown }) {
    super(fields.message, options);
    this.name = 'FincoreError';
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter ?? null;
    this.documentationUrl = fields.documentationUrl ?? null;
    this.displayMessage = fields.displayMessage ?? null;
  }

  /** The JSON shape of the API's error envelope, with the status. */
  toJSON(): { status: number; type: string; code: string; message: string; request_id: string | null; documentation_url: string | null; display_message: string | null } {
    return {
      status: this.status,
      type: this.type,
      code: this.code,
      message: this.message,
      request_id: this.requestId,
      documentation_url: this.documentationUrl,
      display_message: this.displayMessage,
    };
  }
}

type Envelope = { error?: { type?: unknown; code?: unknown; message?: unknown; request_id?: unknown; documentation_url?: unknown; display_message?: unknown } };

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

/** The error for a non-2xx answer; bodies that are not the envelope (a proxy's HTML page) still map. */
export function errorFromResponse(status: number, bodyText: string, headers: { get(name: string): string | null }): FincoreError {
  let envelope: Envelope = {};
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (typeof parsed === 'object' && parsed !== null) envelope = parsed as Envelope;
  } catch {
    // not JSON: described below from the status alone
  }
  const e = envelope.error ?? {};
  const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
  return new FincoreError({
    status,
    type: text(e.type) ?? (status >= 500 ? 'api_error' : 'invalid_request'),
    code: text(e.code) ?? `http_${status}`,
    message: text(e.message) ?? `HTTP ${status} without an error body`,
    requestId: text(e.request_id) ?? headers.get('x-request-id'),
    retryAfter: parseRetryAfter(headers.get('retry-after')),
    documentationUrl: text(e.documentation_url),
    displayMessage: text(e.display_message),
  });
}
