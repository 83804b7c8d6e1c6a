// Webhook delivery signatures (SPEC §6). This module is published for integrators as well as used
// by the delivery worker, so it depends on nothing but node:crypto.
//
// Each delivery carries two headers:
//   FC-Timestamp: <Unix seconds>
//   FC-Signature: v1=<hex HMAC-SHA256(signing secret, timestamp + "." + raw body)>[,v1=<hex>...]
// The signing secret belongs to the environment (one per application and test/live environment,
// shared by all its endpoints). After a rotation the delivery is signed with every active secret
// (the new one and each replaced one still in its grace period, at most five), one `v1=` entry
// each, so a receiver holding any one of them verifies it.
//
// Usage in an Express receiver (the body must be the raw bytes, not re-serialised JSON):
//
//   import express from 'express';
//   import { verifyWebhook } from './webhook-signature';
//
//   app.post('/webhooks/fincore', express.raw({ type: 'application/json' }), (req, res) => {
//     const result = verifyWebhook({
//       rawBody: req.body,                        // Buffer from express.raw()
//       signature: req.headers['fc-signature'],   // Node lower-cases header names
//       timestamp: req.headers['fc-timestamp'],
//       secrets: [process.env.FINCORE_WEBHOOK_SECRET!],
//     });
//     if (!result.ok) return res.status(400).send(result.reason);
//     if (alreadyProcessed(result.event.id)) return res.sendStatus(200); // deliveries may repeat
//     enqueue(result.event);                      // answer 2xx quickly; do the work elsewhere
//     res.sendStatus(200);
//   });
//
// With plain node:http, collect the request chunks into one Buffer and pass it as `rawBody`.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'FC-Signature';
export const TIMESTAMP_HEADER = 'FC-Timestamp';
/** SPEC §6: deliveries whose timestamp is further than this from the receiver's clock are rejected. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const SCHEME = 'v1';
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP = /^\d{1,15}$/;

export type RawBody = string | Uint8Array;
/** A header as Node presents it (`req.headers[name]`). */
export type HeaderValue = string | string[] | undefined;

export interface WebhookEvent {
  id: string;
  type: string;
  /** Unix seconds when the event was created. */
  created: number;
  data: Record<string, unknown>;
}

export type WebhookFailureReason =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'malformed_signature'
  | 'malformed_timestamp'
  | 'timestamp_outside_window'
  | 'signature_mismatch'
  | 'invalid_body';

export type VerifyResult = { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookFailureReason };

interface VerifyCommon {
  /** The request body exactly as received (string or bytes). */
  rawBody: RawBody;
  /** Value(s) of the FC-Signature header. */
  signature: HeaderValue;
  /** Value(s) of the FC-Timestamp header. */
  timestamp: HeaderValue;
  /** Allowed distance between FC-Timestamp and `now`, either direction. Default 300. A finite number ≥ 0, or it throws. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds (Date.now() by default). A finite number, or it throws. */
  now?: number;
}

export type VerifyOptions = VerifyCommon & ({ secret: string; secrets?: never } | { secrets: readonly string[]; secret?: never });

function hmac(secret: string, timestamp: string, rawBody: RawBody): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/** The `v1=<hex>` signature of one delivery under one secret. */
export function signWebhook(secret: string, timestamp: number, rawBody: RawBody): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('timestamp must be Unix seconds');
  if (secret.length === 0) throw new TypeError('secret must not be empty');
  return `${SCHEME}=${hmac(secret, String(timestamp), rawBody).toString('hex')}`;
}

/** Headers for one delivery, signed with every active secret (several during rotations). */
export function webhookHeaders(
  secrets: readonly string[],
  timestamp: number,
  rawBody: RawBody,
): { 'FC-Signature': string; 'FC-Timestamp': string } {
  const unique = [...new Set(secrets)];
  if (unique.length === 0) throw new TypeError('at least one secret is required');
  return {
    'FC-Signature': unique.map((s) => signWebhook(s, timestamp, rawBody)).join(','),
    'FC-Timestamp': String(timestamp),
  };
}

/** One header value from what Node gives: repeated headers arrive as an array. */
function headerText(value: HeaderValue): string | undefined {
  if (value === undefined) return undefined;
  const text = (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter((v) => v !== '');
  return text.length === 0 ? undefined : text.join(',');
}

/** The v1 signatures in the header; null when the header is not a list of `scheme=value`. */
function parseSignatures(header: string): Buffer[] | null {
  const found: Buffer[] = [];
  for (const part of header.split(',')) {
    const entry = part.trim();
    const eq = entry.indexOf('=');
    if (eq <= 0) return null;
    const scheme = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (scheme !== SCHEME) continue; // other schemes are for other verifiers
    if (!HEX_SIGNATURE.test(value)) return null;
    found.push(Buffer.from(value, 'hex'));
  }
  return found.length > 0 ? found : null;
}

function parseEvent(rawBody: RawBody): WebhookEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const e = value as Record<string, unknown>;
  const data = e.data;
  if (typeof e.id !== 'string' || e.id === '' || typeof e.type !== 'string' || e.type === '') return null;
  if (typeof e.created !== 'number' || !Number.isFinite(e.created)) return null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  return value as WebhookEvent;
}

/**
 * Checks a delivery's signature and timestamp, then parses its body.
 * Order of checks: headers present, headers well formed, signature (any `v1=` entry under any of
 * the given secrets, compared in constant time), timestamp window (both directions), body.
 * Throws a TypeError for options that are a programming error rather than a bad delivery: no
 * secret, or a `toleranceSeconds` or `now` that is not a finite number (NaN or Infinity would
 * otherwise switch the timestamp window off).
 */
export function verifyWebhook(options: VerifyOptions): VerifyResult {
  const { rawBody, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Date.now() } = options;
  const secrets = (options.secrets ?? (options.secret === undefined ? [] : [options.secret])).filter((s) => s !== '');
  if (secrets.length === 0) throw new TypeError('verifyWebhook needs a non-empty secret or secrets');
  // NaN or Infinity would make every comparison with the window false, i.e. accept any timestamp.
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('verifyWebhook: toleranceSeconds must be a finite number of seconds, 0 or more');
  }
  if (typeof now !== 'number' || !Number.isFinite(now)) throw new TypeError('verifyWebhook: now must be a finite number of milliseconds');

  const signatureHeader = headerText(options.signature);
  if (signatureHeader === undefined) return { ok: false, reason: 'missing_signature' };
  const timestampHeader = headerText(options.timestamp);
  if (timestampHeader === undefined) return { ok: false, reason: 'missing_timestamp' };

  // A repeated FC-Timestamp header is only acceptable when every copy is the same value.
  const stamps = new Set(timestampHeader.split(',').map((s) => s.trim()));
  const [timestamp] = stamps;
  if (stamps.size !== 1 || !TIMESTAMP.test(timestamp)) return { ok: false, reason: 'malformed_timestamp' };

  const given = parseSignatures(signatureHeader);
  if (given === null) return { ok: false, reason: 'malformed_signature' };

  let matched = false;
  for (const secret of secrets) {
    const expected = hmac(secret, timestamp, rawBody);
    // Every pair is compared (no early exit) so timing says nothing about which entry matched.
    for (const candidate of given) {
      if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: 'timestamp_outside_window' };

  const event = parseEvent(rawBody);
  return event === null ? { ok: false, reason: 'invalid_body' } : { ok: true, event };
}
