// HTTP for every method: bearer key, JSON, timeouts and retries. Uses the global fetch, so it runs in
// Node 18+, Deno, Bun, Cloudflare Workers and Vercel/Next.js edge functions alike.
//
// Retries: a 429 is retried (a refused request did nothing), honouring Retry-After; a 5xx, a
// timeout or a network error only for calls that are safe to repeat (reads and idempotent writes;
// each method knows), with exponential backoff. maxRetries (default 2) bounds both. Never retried: a
// 429 for a used-up monthly quota (its Retry-After is the time to the monthly reset) and any answer
// whose Retry-After exceeds MAX_RETRY_AFTER_SECONDS; the error is raised at once with retryAfter set.
import { errorFromResponse, FincoreError } from './errors.js';

export interface ClientOptions {
  /** Your secret key, fc_sk_test_... or fc_sk_live_... */
  apiKey: string;
  /** Your deployment's base URL (local: http://localhost:4010). */
  baseUrl: string;
  /** Per-attempt timeout in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /**
   * Retries after the first attempt (429 except a monthly quota; 5xx/network only for retry-safe
   * calls; never when Retry-After is over 60 s). Default 2.
   */
  maxRetries?: number;
  /** Pin an API version (sent as FC-Version); the account's default when omitted. */
  apiVersion?: string;
  /** A fetch implementation (tests, proxies); the global fetch by default. */
  fetch?: typeof fetch;
  /** How to wait between attempts (tests pass one that records and returns at once). */
  sleep?: (milliseconds: number) => Promise<void>;
  /** Backoff before retry n (0-based) when no Retry-After is given. Default 500 ms doubling, at most 8 s. */
  backoffMs?: (retry: number) => number;
}

export interface RequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface OperationSpec {
  method: 'GET' | 'POST';
  path: string;
  retrySafe: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
export const defaultBackoffMs = (retry: number): number => Math.min(8_000, 500 * 2 ** retry);
const defaultSleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

export const SDK_VERSION = '0.1.0';

/** The longest Retry-After (seconds) the client waits out; a longer one is the caller's decision. */
export const MAX_RETRY_AFTER_SECONDS = 60;
/** 429 codes that waiting a few seconds cannot clear: the quota resets on the first of next month. */
const MONTHLY_QUOTA_CODES: ReadonlySet<string> = new Set(['monthly_api_quota_exceeded', 'monthly_ai_quota_exceeded']);

export class Transport {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (milliseconds: number) => Promise<void>;
  private readonly backoffMs: (retry: number) => number;

  constructor(private readonly options: ClientOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('Fincore: apiKey is required');
    if (typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('Fincore: baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const globalFetch = typeof fetch === 'function' ? fetch.bind(globalThis) : undefined;
    const chosen = options.fetch ?? globalFetch;
    if (!chosen) throw new TypeError('Fincore: no fetch available; pass options.fetch');
    this.fetchImpl = chosen;
    this.sleep = options.sleep ?? defaultSleep;
    this.backoffMs = options.backoffMs ?? defaultBackoffMs;
  }

  async call<T>(spec: OperationSpec, body: unknown, options: RequestOptions = {}): Promise<T> {
    const maxRetries = options.maxRetries ?? this.options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (this.options.apiVersion) headers['FC-Version'] = this.options.apiVersion;
    const payload = body === undefined ? undefined : JSON.stringify(body);

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await this.attempt(spec, headers, payload, timeoutMs, options.signal));
      } catch (cause) {
        if (options.signal?.aborted) throw cause;
        const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
        const error = new FincoreError(
          { status: 0, type: 'connection_error', code: timedOut ? 'timeout' : 'network_error', message: timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${String(cause)}`, requestId: null },
          { cause },
        );
        if (spec.retrySafe && canRetry) {
          await this.sleep(this.backoffMs(attempt));
          continue;
        }
        throw error;
      }
      if (response.ok) return (text === '' ? undefined : JSON.parse(text)) as T;
      const error = errorFromResponse(response.status, text, response.headers);
      const retryable = (response.status === 429 && !MONTHLY_QUOTA_CODES.has(error.code)) || (response.status >= 500 && spec.retrySafe);
      const waitTooLong = error.retryAfter !== null && error.retryAfter > MAX_RETRY_AFTER_SECONDS;
      if (!retryable || !canRetry || waitTooLong) throw error;
      await this.sleep(error.retryAfter !== null ? error.retryAfter * 1000 : this.backoffMs(attempt));
    }
  }

  private async attempt(spec: OperationSpec, headers: Record<string, string>, payload: string | undefined, timeoutMs: number, signal?: AbortSignal) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.fetchImpl(`${this.baseUrl}${spec.path}`, { method: spec.method, headers, body: payload, signal: controller.signal });
      // The body is read under the same timeout: a stalled body is as bad as no answer.
      const text = await response.text();
      return { response, text };
    } catch (error) {
      // fetch rejects with the abort reason; keep its name so a timeout is reported as one.
      throw controller.signal.aborted && !signal?.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
