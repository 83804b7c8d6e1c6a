// One webhook POST, sent to an address that was checked and to nothing else.
//
// `fetch` resolves the host itself, so between our check and its connection DNS could answer a
// private or loopback address (DNS rebinding). Here the host is resolved once, every address is
// checked, and the connection gets a `lookup` that can only answer those addresses. The URL is
// unchanged, so the Host header and TLS SNI (and so certificate validation) still use the hostname.
// Redirects are not followed; each attempt opens a fresh connection (no pooled socket from an
// earlier check).
import { request as httpRequest, type Agent as HttpAgent, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { resolveWebhookTarget, type WebhookUrlFailureReason, type WebhookUrlOptions } from '../core/webhook-url';

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  /** Sent as these exact bytes. */
  body: string;
  /** The whole POST: resolving the host, connecting, sending and the response headers. */
  timeoutMs: number;
  /** Connection factory; tests pass one to observe where a request connects. */
  agent?: HttpAgent;
}

export type WebhookPostResult = { sent: true; status: number } | { sent: false; reason: WebhookUrlFailureReason };

/** Raised when no response arrived within `timeoutMs` (DNS, connect, send and response headers). */
export class WebhookTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** A `lookup` that answers only the given (already checked) addresses and never asks DNS. */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? entries.filter((e) => e.family === options.family) : entries;
    if (wanted.length === 0) {
      callback(Object.assign(new Error(`no checked address of family ${String(options.family)} for ${hostname}`), { code: 'ENOTFOUND' }), '');
      return;
    }
    if (options.all) callback(null, wanted);
    else callback(null, wanted[0].address, wanted[0].family);
  };
}

/**
 * Checks the URL (resolving its host once) and POSTs the body to one of the checked addresses.
 * Resolves with the response status once the response is read; rejects on connection errors and
 * with `WebhookTimeoutError` when `timeoutMs` passes first. The limit covers the DNS lookup too:
 * dispatch makes many first attempts at once within one Lambda timeout, so a resolver that never
 * answers must not hold an attempt past it.
 */
export async function postWebhook(post: WebhookPost, check: WebhookUrlOptions): Promise<WebhookPostResult> {
  const deadline = Date.now() + post.timeoutMs;
  const target = await beforeDeadline(resolveWebhookTarget(post.url, check), post.timeoutMs, post.timeoutMs);
  if (!target.ok) return { sent: false, reason: target.reason };
  const status = await send(target.url, target.addresses, post, Math.max(0, deadline - Date.now()));
  return { sent: true, status };
}

/** `work`, or a WebhookTimeoutError (naming the whole POST's limit) once `remainingMs` have passed. */
function beforeDeadline<T>(work: Promise<T>, remainingMs: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebhookTimeoutError(timeoutMs)), remainingMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

function send(url: URL, addresses: string[], post: WebhookPost, remainingMs: number): Promise<number> {
  const body = Buffer.from(post.body, 'utf8');
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...post.headers, 'Content-Length': String(body.length) },
    lookup: pinnedLookup(addresses),
    agent: post.agent ?? false,
  };
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    let status: number | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const onResponse = (res: IncomingMessage) => {
      const answered = res.statusCode ?? 0;
      status = answered;
      // The status is what counts; the body is read and discarded (an error reading it changes nothing).
      res.on('error', () => finish(() => resolve(answered)));
      res.on('end', () => finish(() => resolve(answered)));
      res.on('close', () => finish(() => resolve(answered)));
      res.resume();
    };
    const req: ClientRequest = url.protocol === 'https:' ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
    const timer = setTimeout(() => {
      // A receiver that answered but keeps the body open has still answered.
      const answered = status;
      finish(() => (answered === undefined ? reject(new WebhookTimeoutError(post.timeoutMs)) : resolve(answered)));
      req.destroy();
    }, remainingMs);
    req.on('error', (err) => finish(() => reject(err)));
    req.end(body);
  });
}
