// The shared webhook verification vectors (sdks/webhook-vectors.json) that every client library's
// tests run. Each vector is signed with the reference implementation (functions/core/webhook-signature.ts)
// and its expected outcome is whatever that implementation's verifyWebhook answers, so the libraries
// agree with the service's own code rather than with a second reading of the spec. Each case also
// states the outcome it was written to show; building fails when the reference disagrees, so a
// change in the reference cannot silently turn a "tampered body" vector into a passing one.
//
//   npx tsx bin/sdks/vectors.ts          writes the file (the generator driver also writes/checks it)
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signWebhook, verifyWebhook, webhookHeaders, DEFAULT_TOLERANCE_SECONDS, type WebhookFailureReason } from '../../functions/core/webhook-signature';
import { ROOT } from './contract';

export const VECTORS_PATH = join(ROOT, 'sdks', 'webhook-vectors.json');

/** A number, or the name of a non-finite one (JSON has no NaN or Infinity). */
export type VectorNumber = number | 'NaN' | 'Infinity' | '-Infinity';

export type VectorExpectation = { ok: true; event_type: string } | { ok: false; reason: WebhookFailureReason } | { error: 'invalid_argument' };

export interface WebhookVector {
  name: string;
  secrets: string[];
  /** The raw body as text; the bytes verified are its UTF-8 encoding. */
  body: string;
  /** The FC-Signature header, null when the delivery has none. */
  signature: string | null;
  /** The FC-Timestamp header, null when the delivery has none. */
  timestamp: string | null;
  /** The receiver's clock in Unix seconds. */
  now: VectorNumber;
  tolerance_seconds: VectorNumber;
  expected: VectorExpectation;
}

export interface WebhookVectorFile {
  tolerance_seconds: number;
  vectors: WebhookVector[];
}

// Fixed inputs: the file is committed and checked for staleness, so nothing here may be random.
const SECRET = 'whsec_VectorPrimarySecret0000000000000000000001';
const ROTATED_OUT_SECRET = 'whsec_VectorPreviousSecret000000000000000000002';
const NEW_SECRET = 'whsec_VectorNewSecret00000000000000000000000003';
const STRANGER_SECRET = 'whsec_VectorSomeoneElsesSecret0000000000000004';
const SENT_AT = 1_700_000_000;
const RECEIVED_AT = SENT_AT + 2;
const TOLERANCE = DEFAULT_TOLERANCE_SECONDS;
const EVENT_TYPE = 'transactions.sync_updates_available';

/** The envelope the service sends: `{"id","type","created","data"}` in that order, compact JSON. */
function eventBody(overrides: Record<string, unknown> = {}, type = EVENT_TYPE): string {
  return JSON.stringify({
    id: 'evt_0a1b2c3d4e5f60718293a4b5',
    type,
    created: SENT_AT,
    data: { item_id: 'item_sandbox_7f3e9d2c1b0a', initial_update_complete: true, historical_update_complete: true },
    ...overrides,
  });
}

const BODY = eventBody();
/** Multi-byte UTF-8 in the body (2-, 3- and 4-byte sequences): libraries must sign the bytes, not the characters. */
const UNICODE_BODY = JSON.stringify({
  id: 'evt_unicode_0001',
  type: 'item.error',
  created: SENT_AT,
  data: { item_id: 'item_sandbox_unicode', error: { error_message: 'Café Zürich — 東京銀行 💳 rejected the login', error_code: 'ITEM_LOGIN_REQUIRED' } },
});
/** The same text with "é" decomposed (NFD): another byte sequence, so another signature. */
const UNICODE_BODY_NFD = UNICODE_BODY.normalize('NFD');
/** Whitespace and key order as sent must be kept: verify the bytes, never re-serialised JSON. */
const PRETTY_BODY = JSON.stringify(JSON.parse(BODY), null, 2) + '\n';

const sign = (secret: string, body: string, timestamp = SENT_AT) => signWebhook(secret, timestamp, body);
const hexOf = (signature: string) => signature.slice('v1='.length);

interface Case {
  name: string;
  secrets?: string[];
  body?: string;
  signature?: string | null;
  timestamp?: string | null;
  now?: VectorNumber;
  tolerance_seconds?: VectorNumber;
  /** The outcome the case is meant to show: checked against the reference implementation. */
  want: VectorExpectation;
}

const OK: VectorExpectation = { ok: true, event_type: EVENT_TYPE };
const fail = (reason: WebhookFailureReason): VectorExpectation => ({ ok: false, reason });
const INVALID_ARGUMENT: VectorExpectation = { error: 'invalid_argument' };

function cases(): Case[] {
  const good = sign(SECRET, BODY);
  const goodHex = hexOf(good);
  return [
    // Valid deliveries.
    { name: 'valid', want: OK },
    { name: 'valid, signature hex in upper case', signature: `v1=${goodHex.toUpperCase()}`, want: OK },
    { name: 'valid, spaces around the signature entries', signature: `  v0=abc ,  ${good}  `, want: OK },
    { name: 'valid, timestamp with surrounding spaces', timestamp: `  ${SENT_AT}  `, want: OK },
    { name: 'valid, body kept as sent (pretty-printed, trailing newline)', body: PRETTY_BODY, signature: sign(SECRET, PRETTY_BODY), want: OK },
    { name: 'valid, unicode body bytes', body: UNICODE_BODY, signature: sign(SECRET, UNICODE_BODY), want: { ok: true, event_type: 'item.error' } },
    { name: 'valid, other event type', body: eventBody({}, 'item.login_repaired'), signature: sign(SECRET, eventBody({}, 'item.login_repaired')), want: { ok: true, event_type: 'item.login_repaired' } },
    {
      name: 'valid, timestamp repeated with the same value (header sent twice)',
      timestamp: `${SENT_AT}, ${SENT_AT}`,
      want: OK,
    },
    {
      name: 'valid, timestamp with leading zeros (signed over the header text as sent)',
      timestamp: `00${SENT_AT}`,
      signature: hmacOverText(`00${SENT_AT}`, BODY),
      want: OK,
    },
    {
      name: 'leading zeros in the timestamp, signature over the number without them',
      timestamp: `00${SENT_AT}`,
      signature: good,
      want: fail('signature_mismatch'),
    },

    // Tampering and keys.
    { name: 'tampered body', body: BODY.replace('"initial_update_complete":true', '"initial_update_complete":false'), want: fail('signature_mismatch') },
    { name: 'body with one extra trailing newline', body: `${BODY}\n`, want: fail('signature_mismatch') },
    { name: 'unicode body normalised differently (NFD) after signing', body: UNICODE_BODY_NFD, signature: sign(SECRET, UNICODE_BODY), want: fail('signature_mismatch') },
    { name: 'wrong secret', secrets: [STRANGER_SECRET], want: fail('signature_mismatch') },
    { name: 'timestamp changed after signing', timestamp: String(SENT_AT + 1), now: SENT_AT + 1, want: fail('signature_mismatch') },
    { name: 'signature truncated by one byte and padded', signature: `v1=${goodHex.slice(0, 62)}00`, want: fail('signature_mismatch') },

    // Rotation: several v1 entries, several secrets.
    {
      name: 'rotation: several v1 entries, the receiver holds the second secret',
      signature: webhookHeaders([NEW_SECRET, SECRET], SENT_AT, BODY)['FC-Signature'],
      want: OK,
    },
    {
      name: 'rotation: three v1 entries, match on the last',
      signature: webhookHeaders([NEW_SECRET, ROTATED_OUT_SECRET, SECRET], SENT_AT, BODY)['FC-Signature'],
      want: OK,
    },
    { name: 'several secrets given, the second matches', secrets: [STRANGER_SECRET, SECRET], want: OK },
    {
      name: 'several secrets and several entries, one pair matches',
      secrets: [STRANGER_SECRET, ROTATED_OUT_SECRET],
      signature: webhookHeaders([NEW_SECRET, ROTATED_OUT_SECRET], SENT_AT, BODY)['FC-Signature'],
      want: OK,
    },
    {
      name: 'several secrets and several entries, none match',
      secrets: [STRANGER_SECRET, SECRET],
      signature: webhookHeaders([NEW_SECRET, ROTATED_OUT_SECRET], SENT_AT, BODY)['FC-Signature'],
      want: fail('signature_mismatch'),
    },
    { name: 'empty strings among the secrets are ignored', secrets: ['', SECRET], want: OK },
    { name: 'unknown scheme entries beside v1 are ignored', signature: `v0=deadbeef,v2=${'ab'.repeat(32)},${good}`, want: OK },
    { name: 'only unknown scheme entries', signature: `v0=${goodHex}`, want: fail('malformed_signature') },
    { name: 'v1 entry signed with another secret beside an unknown scheme', signature: `v2=${goodHex},${sign(STRANGER_SECRET, BODY)}`, want: fail('signature_mismatch') },

    // Timestamp window, both directions.
    { name: 'expired: one second past the window', now: SENT_AT + TOLERANCE + 1, want: fail('timestamp_outside_window') },
    { name: 'expired: half a second past the window', now: SENT_AT + TOLERANCE + 0.5, want: fail('timestamp_outside_window') },
    { name: 'future: one second ahead of the window', now: SENT_AT - TOLERANCE - 1, want: fail('timestamp_outside_window') },
    { name: 'expired: an hour old', now: SENT_AT + 3600, want: fail('timestamp_outside_window') },
    { name: 'at the edge: exactly tolerance seconds old', now: SENT_AT + TOLERANCE, want: OK },
    { name: 'at the edge: exactly tolerance seconds in the future', now: SENT_AT - TOLERANCE, want: OK },
    { name: 'zero tolerance, same second', now: SENT_AT, tolerance_seconds: 0, want: OK },
    { name: 'zero tolerance, one second late', now: SENT_AT + 1, tolerance_seconds: 0, want: fail('timestamp_outside_window') },
    { name: 'custom tolerance of 600 seconds, 500 seconds old', now: SENT_AT + 500, tolerance_seconds: 600, want: OK },
    { name: 'custom tolerance of 10 seconds, 11 seconds old', now: SENT_AT + 11, tolerance_seconds: 10, want: fail('timestamp_outside_window') },
    { name: 'expired and wrong secret: the signature is checked first', secrets: [STRANGER_SECRET], now: SENT_AT + 3600, want: fail('signature_mismatch') },
    {
      name: 'largest well-formed timestamp (15 digits), far in the future',
      timestamp: '999999999999999',
      signature: hmacOverText('999999999999999', BODY),
      want: fail('timestamp_outside_window'),
    },

    // Missing headers.
    { name: 'missing signature header', signature: null, want: fail('missing_signature') },
    { name: 'empty signature header', signature: '', want: fail('missing_signature') },
    { name: 'blank signature header', signature: '   ', want: fail('missing_signature') },
    { name: 'missing timestamp header', timestamp: null, want: fail('missing_timestamp') },
    { name: 'empty timestamp header', timestamp: '', want: fail('missing_timestamp') },
    { name: 'both headers missing: signature reported first', signature: null, timestamp: null, want: fail('missing_signature') },

    // Malformed signature header.
    { name: 'malformed signature: not hex', signature: `v1=${'zz'.repeat(32)}`, want: fail('malformed_signature') },
    { name: 'malformed signature: too short', signature: `v1=${goodHex.slice(0, 62)}`, want: fail('malformed_signature') },
    { name: 'malformed signature: too long', signature: `v1=${goodHex}00`, want: fail('malformed_signature') },
    { name: 'malformed signature: no equals sign', signature: `v1${goodHex}`, want: fail('malformed_signature') },
    { name: 'malformed signature: bare hex without a scheme', signature: goodHex, want: fail('malformed_signature') },
    { name: 'malformed signature: empty scheme', signature: `=${goodHex}`, want: fail('malformed_signature') },
    { name: 'malformed signature: empty value', signature: 'v1=', want: fail('malformed_signature') },
    { name: 'malformed signature: a valid entry and a trailing comma', signature: `${good},`, want: fail('malformed_signature') },
    { name: 'malformed signature: a valid entry and a bad v1 entry', signature: `${good},v1=nothex`, want: fail('malformed_signature') },

    // Malformed timestamp header (checked before the signature header's form).
    { name: 'malformed timestamp: letters', timestamp: '17000abc00', want: fail('malformed_timestamp') },
    { name: 'malformed timestamp: negative', timestamp: `-${SENT_AT}`, want: fail('malformed_timestamp') },
    { name: 'malformed timestamp: 16 digits', timestamp: '1700000000000000', want: fail('malformed_timestamp') },
    { name: 'malformed timestamp: fractional seconds', timestamp: `${SENT_AT}.5`, want: fail('malformed_timestamp') },
    { name: 'malformed timestamp: two different values comma-joined', timestamp: `${SENT_AT},${SENT_AT + 1}`, want: fail('malformed_timestamp') },
    { name: 'malformed timestamp: plus sign', timestamp: `+${SENT_AT}`, want: fail('malformed_timestamp') },
    { name: 'malformed timestamp and malformed signature: timestamp reported first', timestamp: 'soon', signature: 'garbage', want: fail('malformed_timestamp') },

    // Bodies that are signed correctly but are not an event.
    ...invalidBodies(),

    // Programming errors: the caller's arguments, not the delivery.
    { name: 'NaN now', now: 'NaN', want: INVALID_ARGUMENT },
    { name: 'Infinity now', now: 'Infinity', want: INVALID_ARGUMENT },
    { name: 'negative Infinity now', now: '-Infinity', want: INVALID_ARGUMENT },
    { name: 'NaN tolerance', tolerance_seconds: 'NaN', want: INVALID_ARGUMENT },
    { name: 'Infinity tolerance', tolerance_seconds: 'Infinity', want: INVALID_ARGUMENT },
    { name: 'negative tolerance', tolerance_seconds: -1, want: INVALID_ARGUMENT },
    { name: 'empty secret list', secrets: [], want: INVALID_ARGUMENT },
    { name: 'only an empty secret', secrets: [''], want: INVALID_ARGUMENT },
    { name: 'empty secret list with missing headers: arguments are checked first', secrets: [], signature: null, timestamp: null, want: INVALID_ARGUMENT },
  ];
}

function invalidBodies(): Case[] {
  const bodies: [string, string][] = [
    ['not JSON', 'this is not json'],
    ['empty', ''],
    ['JSON array', `[${BODY}]`],
    ['JSON null', 'null'],
    ['JSON string', JSON.stringify(BODY)],
    ['missing id', JSON.stringify({ type: EVENT_TYPE, created: SENT_AT, data: {} })],
    ['empty id', eventBody({ id: '' })],
    ['missing type', JSON.stringify({ id: 'evt_1', created: SENT_AT, data: {} })],
    ['type not a string', eventBody({ type: 7 })],
    ['missing created', JSON.stringify({ id: 'evt_1', type: EVENT_TYPE, data: {} })],
    ['created not a number', eventBody({ created: String(SENT_AT) })],
    ['data missing', JSON.stringify({ id: 'evt_1', type: EVENT_TYPE, created: SENT_AT })],
    ['data an array', eventBody({ data: [] })],
    ['data null', eventBody({ data: null })],
    ['truncated JSON', BODY.slice(0, -1)],
  ];
  return bodies.map(([what, body]) => ({ name: `invalid body: ${what}`, body, signature: sign(SECRET, body), want: fail('invalid_body') }));
}

/** A v1 HMAC over an arbitrary timestamp text (signWebhook only takes a number). */
function hmacOverText(timestampText: string, body: string): string {
  // signWebhook formats the number itself, so for header texts it would not produce (leading
  // zeros) the HMAC input is built here from the same primitive the reference uses.
  return `v1=${createHmac('sha256', SECRET).update(`${timestampText}.`).update(body).digest('hex')}`;
}

const toNumber = (value: VectorNumber): number => (typeof value === 'number' ? value : Number(value));

/** The reference implementation's answer for one vector. */
export function referenceOutcome(vector: Omit<WebhookVector, 'expected' | 'name'>): VectorExpectation {
  try {
    const result = verifyWebhook({
      rawBody: Buffer.from(vector.body, 'utf8'),
      signature: vector.signature ?? undefined,
      timestamp: vector.timestamp ?? undefined,
      secrets: vector.secrets,
      now: toNumber(vector.now) * 1000,
      toleranceSeconds: toNumber(vector.tolerance_seconds),
    });
    return result.ok ? { ok: true, event_type: result.event.type } : { ok: false, reason: result.reason };
  } catch (error) {
    if (error instanceof TypeError) return { error: 'invalid_argument' };
    throw error;
  }
}

export function buildWebhookVectors(): WebhookVectorFile {
  const seen = new Set<string>();
  const vectors = cases().map((c): WebhookVector => {
    if (seen.has(c.name)) throw new Error(`two webhook vectors are named "${c.name}"`);
    seen.add(c.name);
    const body = c.body ?? BODY;
    const input = {
      secrets: c.secrets ?? [SECRET],
      body,
      signature: c.signature === undefined ? sign(SECRET, BODY) : c.signature,
      timestamp: c.timestamp === undefined ? String(SENT_AT) : c.timestamp,
      now: c.now ?? RECEIVED_AT,
      tolerance_seconds: c.tolerance_seconds ?? TOLERANCE,
    };
    const expected = referenceOutcome(input);
    if (JSON.stringify(expected) !== JSON.stringify(c.want)) {
      throw new Error(`webhook vector "${c.name}": the reference answers ${JSON.stringify(expected)}, the case expects ${JSON.stringify(c.want)}`);
    }
    return { name: c.name, ...input, expected };
  });
  return { tolerance_seconds: TOLERANCE, vectors };
}

export function renderWebhookVectors(): string {
  return `${JSON.stringify(buildWebhookVectors(), null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(VECTORS_PATH, renderWebhookVectors());
  console.log(`wrote ${VECTORS_PATH}`);
}
