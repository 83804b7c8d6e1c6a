// The one HTTP client adapters reach their providers with (ProviderHttp in core/connector-port.ts).
// It owns what every provider integration gets wrong on its own: a deadline on every call, a
// bounded retry of 429 and 5xx that honours short Retry-After hints, and the mapping of what is
// left into ConnectorError kinds the service turns into item states. Long waits are never slept:
// a Lambda would bill the wait, so a hint beyond `maxInlineWaitMs` is handed up as `rate_limited`
// and the refresh is tried again later.
import { ConnectorError, type ProviderHttp, type ProviderRequest, type ProviderResponse } from '../core/connector-port';

export interface ProviderHttpOptions {
  /** Deadline of one attempt. */
  timeoutMs?: number;
  /** Attempts of one request in all, when the provider answers 429 or 5xx or the call fails. */
  maxAttempts?: number;
  /** The longest wait slept before a retry; a longer Retry-After ends the call with `rate_limited`. */
  maxInlineWaitMs?: number;
  /** Injected in tests so no test sleeps in real time; records the waits instead. */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

const DEFAULTS = { timeoutMs: 10_000, maxAttempts: 3, maxInlineWaitMs: 2_000 };
/** Backoff before the n-th retry when the provider gave no hint. */
const BACKOFF_MS = [250, 1_000, 2_000];
/** A provider body larger than this is not read (a misbehaving upstream must not exhaust memory). */
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait a Retry-After header asks for (seconds or an HTTP date), in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function urlOf(request: ProviderRequest): string {
  const url = new URL(request.url);
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** Where a request goes, without its query (which may carry an API key) for messages and logs. */
function describe(request: ProviderRequest): string {
  const url = new URL(request.url);
  return `${request.method} ${url.origin}${url.pathname}`;
}

function bodyOf(request: ProviderRequest): { body?: string; contentType?: string } {
  if (request.body !== undefined) return { body: request.body };
  if (request.form !== undefined) return { body: new URLSearchParams(request.form).toString(), contentType: 'application/x-www-form-urlencoded' };
  if (request.json !== undefined) return { body: JSON.stringify(request.json), contentType: 'application/json' };
  return {};
}

/**
 * The body as text, read chunk by chunk and abandoned as soon as it passes MAX_RESPONSE_BYTES: a
 * chunked response without a length never gets buffered whole.
 */
async function readBody(response: Response): Promise<string> {
  const tooLarge = () => new ConnectorError('provider_error', `The provider's response is larger than ${MAX_RESPONSE_BYTES} bytes.`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > MAX_RESPONSE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createProviderHttp(options: ProviderHttpOptions = {}): ProviderHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULTS.maxAttempts);
  const maxInlineWaitMs = options.maxInlineWaitMs ?? DEFAULTS.maxInlineWaitMs;
  const sleep = options.sleep ?? realSleep;
  const doFetch = options.fetch ?? fetch;

  async function send(request: ProviderRequest): Promise<ProviderResponse> {
    const { body, contentType } = bodyOf(request);
    const headers: Record<string, string> = { accept: 'application/json', ...(contentType ? { 'content-type': contentType } : {}), ...request.headers };
    let response: Response;
    try {
      response = await doFetch(urlOf(request), { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      throw new ConnectorError('provider_error', `${describe(request)} ${timedOut ? `timed out after ${timeoutMs} ms` : 'could not be reached'}.`);
    }
    const text = await readBody(response);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((v, k) => (responseHeaders[k] = v));
    return { status: response.status, headers: responseHeaders, json: parseJson(text), text };
  }

  async function sendOk(request: ProviderRequest): Promise<ProviderResponse> {
    // A request that changes state at the provider is sent once: its outcome may be unknown after a
    // timeout, and sending it again could spend what the first one already used (a refresh token).
    const attempts = request.method === 'POST' && request.idempotent !== true ? 1 : maxAttempts;
    for (let attempt = 1; ; attempt += 1) {
      let response: ProviderResponse | null = null;
      let failure: ConnectorError | null = null;
      try {
        response = await send(request);
      } catch (err) {
        if (!(err instanceof ConnectorError)) throw err;
        failure = err;
      }
      if (response && response.status < 500 && response.status !== 429) {
        if (response.status === 401) throw new ConnectorError('login_required', `${describe(request)} answered 401: the provider refused the item's authorization.`, { status: 401 });
        return response;
      }
      const hinted = response ? retryAfterMs(response.headers['retry-after']) : null;
      const last = attempt >= attempts;
      if (response?.status === 429 && (last || (hinted !== null && hinted > maxInlineWaitMs))) {
        throw new ConnectorError('rate_limited', `${describe(request)} was rate limited by the provider.`, {
          status: 429,
          ...(hinted !== null ? { retryAfterSeconds: Math.ceil(hinted / 1000) } : {}),
        });
      }
      if (last) throw failure ?? new ConnectorError('provider_error', `${describe(request)} answered ${response?.status} after ${attempt} attempts.`, { status: response?.status });
      await sleep(Math.min(hinted ?? BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)], maxInlineWaitMs));
    }
  }

  return { send, sendOk };
}
