// The console API client: every call is a same-origin POST of JSON to api/<route path> relative to
// the console's own URL (so a stage prefix in front of /console/ is kept), with the session's CSRF
// token in X-CSRF-Token. The session cookie is HttpOnly: this code never sees it, only the CSRF
// token the session answer carries, kept in memory (never in storage).
import type { ErrorEnvelope } from './types';

let csrfToken: string | null = null;
let onSessionLost: (() => void) | null = null;
let onRoleForbidden: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when an answer says the session is gone (401 outside sign-in): the app goes to sign-in. */
export function whenSessionLost(handler: () => void): void {
  onSessionLost = handler;
}

/**
 * Called on a 403 role_forbidden: the member's role changed since the session was read, so the app
 * reads it again and the buttons follow (the refusal itself is shown where it happened).
 */
export function whenRoleForbidden(handler: () => void): void {
  onRoleForbidden = handler;
}

/** The console's root URL (the shell's own directory), e.g. https://api.example.com/console/. */
export function consoleRoot(): string {
  const path = location.pathname.endsWith('/') ? location.pathname : `${location.pathname}/`;
  return `${location.origin}${path}`;
}

/** `console.webhooks.secret.rotate` -> <root>api/webhooks/secret/rotate. */
export function apiUrl(routeId: string): string {
  return new URL(`api/${routeId.replace(/^console\./, '').split('.').join('/')}`, consoleRoot()).toString();
}

/** A failed call, with what the error envelope said (the request id is what support asks for). */
export class ConsoleApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly retryAfter: string | null;

  constructor(status: number, code: string, message: string, requestId: string | null, retryAfter: string | null = null) {
    super(message);
    this.name = 'ConsoleApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.retryAfter = retryAfter;
  }
}

/** Sign-in and sign-up answer 401 for wrong credentials: that is not a lost session. */
const SIGN_IN_ROUTES = new Set(['console.auth.login', 'console.auth.signup', 'console.session']);

function isEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** The answer's JSON (an empty body is `{}`); null when it is not JSON (a gateway's HTML error page). */
function parseJson(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function callConsole<T>(routeId: string, body: object = {}): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(apiUrl(routeId), {
      method: 'POST',
      credentials: 'same-origin',
      cache: 'no-store',
      headers,
      body: JSON.stringify(body),
    });
  } catch {
    throw new ConsoleApiError(0, 'network_error', 'The console could not reach the service. Check your connection and try again.', null);
  }
  const parsed = parseJson(await response.text());
  if (response.ok && parsed !== null) return parsed as T;
  const requestId = response.headers.get('X-Request-Id');
  const error = isEnvelope(parsed)
    ? new ConsoleApiError(response.status, parsed.error.code, parsed.error.message, parsed.error.request_id ?? requestId, response.headers.get('Retry-After'))
    : new ConsoleApiError(response.status, 'unexpected_answer', `The service answered HTTP ${response.status} without a readable error.`, requestId);
  if (response.status === 401 && !SIGN_IN_ROUTES.has(routeId)) onSessionLost?.();
  if (error.code === 'role_forbidden') onRoleForbidden?.();
  throw error;
}

/** Any thrown value as a ConsoleApiError (a bug in this app shows as one too, never as nothing). */
export function asApiError(err: unknown): ConsoleApiError {
  if (err instanceof ConsoleApiError) return err;
  return new ConsoleApiError(0, 'console_error', err instanceof Error ? err.message : String(err), null);
}
