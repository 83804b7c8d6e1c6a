// Webhook verification with Web Crypto (crypto.subtle) only: no node: imports, so the same code runs
// in Node 18+, Deno, Bun and edge runtimes (Cloudflare Workers, Vercel/Next.js edge, Netlify).
// The rules are exactly those of the service's reference implementation, and the shared vectors
// (sdks/webhook-vectors.json) pin them:
//   FC-Timestamp: <Unix seconds>
//   FC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>[,v1=<hex>...]
// Checks, in order: arguments (throws TypeError), headers present, timestamp well formed, signature
// well formed, signature (any v1 entry under any secret, constant time), timestamp window (both
// directions), body is an event.

export const SIGNATURE_HEADER = 'FC-Signature';
export const TIMESTAMP_HEADER = 'FC-Timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookFailureReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'timestamp_outside_window'
  | 'signature_mismatch'
  | 'invalid_body';

export interface WebhookEvent<Data = Record<string, unknown>> {
  id: string;
  type: string;
  /** Unix seconds when the event was created. */
  created: number;
  data: Data;
}

export type VerifyResult = { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookFailureReason };

/** A header as frameworks give it: Node's `req.headers[name]` may be an array, fetch's Headers a string or null. */
export type HeaderValue = string | readonly string[] | null | undefined;

export interface VerifyWebhookOptions {
  /** The body exactly as received: the text, or its bytes. Never re-serialised JSON. */
  rawBody: string | Uint8Array | ArrayBuffer;
  signature: HeaderValue;
  timestamp: HeaderValue;
  /** Every secret currently valid for the environment (several during a rotation); empty strings are ignored. */
  secrets?: readonly string[];
  /** Shorthand for one secret. */
  secret?: string;
  /** Allowed distance between FC-Timestamp and now, either direction. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (Date.now() by default). */
  now?: number;
}

const SCHEME = 'v1';
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP = /^\d{1,15}$/;
const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error('Fincore webhooks: Web Crypto (globalThis.crypto.subtle) is not available in this runtime');
  return api;
}

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

async function hmac(secret: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  const key = await subtle().importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return new Uint8Array(await subtle().sign('HMAC', key, message));
}

function headerText(value: HeaderValue): string | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = (typeof value === 'string' ? [value] : [...value]).map((v) => v.trim()).filter((v) => v !== '');
  return parts.length === 0 ? undefined : parts.join(',');
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The v1 signatures of the header; null when it is not a list of `scheme=value` or has no v1 entry. */
function parseSignatures(header: string): Uint8Array[] | null {
  const found: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const entry = part.trim();
    const eq = entry.indexOf('=');
    if (eq <= 0) return null;
    if (entry.slice(0, eq) !== SCHEME) continue; // other schemes are for other verifiers
    const value = entry.slice(eq + 1);
    if (!HEX_SIGNATURE.test(value)) return null;
    found.push(fromHex(value));
  }
  return found.length > 0 ? found : null;
}

/** Equal-length comparison whose time does not depend on where the bytes differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

function parseEvent(body: Uint8Array): WebhookEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8').decode(body));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '' || typeof e.type !== 'string' || e.type === '') return null;
  if (typeof e.created !== 'number' || !Number.isFinite(e.created)) return null;
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return null;
  return value as WebhookEvent;
}

/**
 * Verifies one delivery. Resolves `{ ok: true, event }` or `{ ok: false, reason }`; rejects with a
 * TypeError for arguments that are a programming error (no secret, a tolerance or clock that is not
 * a finite number, a negative tolerance): NaN or Infinity would switch the time window off.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<VerifyResult> {
  const { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now() } = options;
  const secrets = (options.secrets ?? (options.secret === undefined ? [] : [options.secret])).filter((s) => typeof s === 'string' && s !== '');
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs a non-empty secret or secrets');
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('verifyWebhook: toleranceSeconds must be a finite number of seconds, 0 or more');
  }
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new TypeError('verifyWebhook: now must be a finite number of milliseconds');

  const signatureHeader = headerText(options.signature);
  if (signatureHeader === undefined) return { ok: false, reason: 'missing_signature' };
  const timestampHeader = headerText(options.timestamp);
  if (timestampHeader === undefined) return { ok: false, reason: 'missing_timestamp' };

  // A repeated FC-Timestamp header is acceptable only when every copy is the same value.
  const stamps = new Set(timestampHeader.split(',').map((s) => s.trim()));
  const [timestamp] = stamps;
  if (stamps.size !== 1 || !TIMESTAMP.test(timestamp)) return { ok: false, reason: 'malformed_timestamp' };

  const given = parseSignatures(signatureHeader);
  if (given === null) return { ok: false, reason: 'malformed_signature' };

  const body = bytesOf(options.rawBody);
  let matched = false;
  for (const secret of secrets) {
    const expected = await hmac(secret, timestamp, body);
    // Every pair is compared (no early exit): timing says nothing about which entry matched.
    for (const candidate of given) if (constantTimeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: 'timestamp_outside_window' };

  const event = parseEvent(body);
  return event === null ? { ok: false, reason: 'invalid_body' } : { ok: true, event };
}

/**
 * Verifies a fetch-API Request (Next.js route handlers, Cloudflare Workers, Deno, Bun, Hono):
 * reads its body bytes and the two headers. The request body is consumed.
 */
export async function verifyWebhookRequest(
  request: { headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> },
  options: Omit<VerifyWebhookOptions, 'rawBody' | 'signature' | 'timestamp'>,
): Promise<VerifyResult> {
  return verifyWebhook({
    ...options,
    rawBody: new Uint8Array(await request.arrayBuffer()),
    signature: request.headers.get(SIGNATURE_HEADER),
    timestamp: request.headers.get(TIMESTAMP_HEADER),
  });
}

/** Signs a body as the service does (for receivers' own tests). */
export async function signWebhook(secret: string, timestampSeconds: number, rawBody: string | Uint8Array | ArrayBuffer): Promise<string> {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) throw new TypeError('timestamp must be Unix seconds');
  if (secret === '') throw new TypeError('secret must not be empty');
  const mac = await hmac(secret, String(timestampSeconds), bytesOf(rawBody));
  return `${SCHEME}=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
