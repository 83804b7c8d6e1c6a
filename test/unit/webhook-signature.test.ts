import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_ENVELOPES, type EventType } from '../../functions/contracts/events';
import { signWebhook, verifyWebhook, webhookHeaders } from '../../functions/core/webhook-signature';

const secret = 'whsec_test_0123456789abcdef';
const ts = 1_700_000_000;
const now = ts * 1000;
const event = { id: 'evt_123', type: 'transactions.sync_updates_available', created: ts, data: { item_id: 'item_1' } };
const body = JSON.stringify(event);

function verify(overrides: Partial<Parameters<typeof verifyWebhook>[0]> = {}) {
  return verifyWebhook({
    rawBody: body,
    signature: signWebhook(secret, ts, body),
    timestamp: String(ts),
    secret,
    now,
    ...overrides,
  } as Parameters<typeof verifyWebhook>[0]);
}

describe('webhook signatures', () => {
  it('are v1= followed by the hex HMAC-SHA256 of timestamp, a dot and the raw body', () => {
    const expected = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    expect(signWebhook(secret, ts, body)).toBe(`v1=${expected}`);
    expect(signWebhook(secret, ts, Buffer.from(body))).toBe(`v1=${expected}`);
  });

  it('match the test vector published in docs/webhooks-verify.md, whose body is a valid event', () => {
    // Read from the doc itself, so the published vector can never drift from the code.
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'webhooks-verify.md'), 'utf8');
    const block = /```http\n([\s\S]*?)\n```/.exec(doc)![1];
    const timestamp = Number(/^FC-Timestamp: (\d+)$/m.exec(block)![1]);
    const signature = /^FC-Signature: (\S+)$/m.exec(block)![1];
    const raw = block.slice(block.indexOf('\n\n') + 2);
    expect(signWebhook('whsec_example', timestamp, raw)).toBe(signature);
    const event = JSON.parse(raw) as { type: EventType };
    expect(EVENT_ENVELOPES[event.type].safeParse(event).success).toBe(true);
  });

  it('verify a delivery round trip and expose the parsed event', () => {
    expect(verify()).toEqual({ ok: true, event });
  });

  it('verify a raw Buffer body and the headers webhookHeaders produces', () => {
    const headers = webhookHeaders([secret], ts, body);
    expect(headers).toEqual({ 'FC-Signature': signWebhook(secret, ts, body), 'FC-Timestamp': String(ts) });
    expect(verify({ rawBody: Buffer.from(body), signature: headers['FC-Signature'], timestamp: headers['FC-Timestamp'] }).ok).toBe(true);
  });

  it('fail when the body was altered, even by one byte or by re-serialising', () => {
    expect(verify({ rawBody: body.replace('item_1', 'item_2') })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verify({ rawBody: JSON.stringify(event, null, 2) })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('fail when the timestamp header was changed after signing', () => {
    expect(verify({ timestamp: String(ts + 1), now: (ts + 1) * 1000 })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('fail under a different secret', () => {
    expect(verify({ secret: 'whsec_other' })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('are accepted up to five minutes either side of the receiver clock and rejected beyond', () => {
    expect(verify({ now: now + 300_000 }).ok).toBe(true);
    expect(verify({ now: now - 300_000 }).ok).toBe(true);
    expect(verify({ now: now + 301_000 })).toEqual({ ok: false, reason: 'timestamp_outside_window' });
    expect(verify({ now: now - 301_000 })).toEqual({ ok: false, reason: 'timestamp_outside_window' });
  });

  it('honour a custom tolerance', () => {
    expect(verify({ now: now + 61_000, toleranceSeconds: 60 })).toEqual({ ok: false, reason: 'timestamp_outside_window' });
    expect(verify({ now: now + 59_000, toleranceSeconds: 60 }).ok).toBe(true);
  });

  it('carry one v1 entry per secret during a rotation, and either secret verifies', () => {
    const headers = webhookHeaders(['whsec_old', 'whsec_new'], ts, body);
    expect(headers['FC-Signature']).toBe(`${signWebhook('whsec_old', ts, body)},${signWebhook('whsec_new', ts, body)}`);
    for (const s of ['whsec_old', 'whsec_new']) {
      expect(verify({ secret: s, signature: headers['FC-Signature'] }).ok).toBe(true);
    }
    expect(verify({ secret: 'whsec_neither', signature: headers['FC-Signature'] })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('verify against any of several receiver secrets', () => {
    expect(verify({ secret: undefined, secrets: ['whsec_unrelated', secret] }).ok).toBe(true);
    expect(verify({ secret: undefined, secrets: ['whsec_a', 'whsec_b'] })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('sign once per distinct secret and refuse to sign without one', () => {
    expect(webhookHeaders([secret, secret], ts, body)['FC-Signature']).toBe(signWebhook(secret, ts, body));
    expect(() => webhookHeaders([], ts, body)).toThrow(TypeError);
    expect(() => signWebhook('', ts, body)).toThrow(TypeError);
    expect(() => signWebhook(secret, 1.5, body)).toThrow(TypeError);
  });

  it('ignore entries of other schemes and tolerate spaces after commas', () => {
    const sig = `v0=deadbeef, ${signWebhook(secret, ts, body)}`;
    expect(verify({ signature: sig }).ok).toBe(true);
  });

  it('report missing headers', () => {
    expect(verify({ signature: undefined })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify({ signature: '' })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify({ signature: [] })).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify({ timestamp: undefined })).toEqual({ ok: false, reason: 'missing_timestamp' });
    expect(verify({ timestamp: ' ' })).toEqual({ ok: false, reason: 'missing_timestamp' });
  });

  it('report malformed signature headers', () => {
    const hex = signWebhook(secret, ts, body).slice(3);
    for (const bad of [hex, 'v1=', 'v1=xyz', `v1=${hex.slice(2)}`, `v1=${hex}00`, 'v0=abc', `=${hex}`, `v1=${hex},garbage`]) {
      expect(verify({ signature: bad })).toEqual({ ok: false, reason: 'malformed_signature' });
    }
  });

  it('report malformed timestamps', () => {
    for (const bad of ['abc', '-1', '1.5', '1e9', `${ts} `.repeat(2), '12345678901234567']) {
      expect(verify({ timestamp: bad })).toEqual({ ok: false, reason: 'malformed_timestamp' });
    }
    expect(verify({ timestamp: [String(ts), String(ts + 1)] })).toEqual({ ok: false, reason: 'malformed_timestamp' });
  });

  it('accept headers that Node presents as arrays', () => {
    const [old, current] = ['whsec_old', secret].map((s) => signWebhook(s, ts, body));
    expect(verify({ signature: [old, current], timestamp: [String(ts)] }).ok).toBe(true);
    expect(verify({ signature: [current], timestamp: [String(ts), String(ts)] }).ok).toBe(true);
  });

  it('report a signed body that is not an event', () => {
    for (const raw of ['not json', '[]', 'null', JSON.stringify({ type: 'x', data: {} }), JSON.stringify({ ...event, data: null })]) {
      expect(verify({ rawBody: raw, signature: signWebhook(secret, ts, raw) })).toEqual({ ok: false, reason: 'invalid_body' });
    }
  });

  it('check the signature before the body, so an unsigned body is a mismatch, not invalid_body', () => {
    expect(verify({ rawBody: 'not json' })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('need a secret to verify with', () => {
    expect(() => verify({ secret: undefined, secrets: [] })).toThrow(TypeError);
    expect(() => verify({ secret: '' })).toThrow(TypeError);
  });

  it('refuse a tolerance or clock that is not a finite number instead of switching the window off', () => {
    // A delivery signed a year ago: only the window stops it.
    const stale = { now: now + 365 * 24 * 3600_000 };
    expect(verify(stale)).toEqual({ ok: false, reason: 'timestamp_outside_window' });
    for (const toleranceSeconds of [NaN, Infinity, -Infinity, -1]) {
      expect(() => verify({ ...stale, toleranceSeconds })).toThrow(/toleranceSeconds must be a finite number/);
    }
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(() => verify({ now: bad })).toThrow(/now must be a finite number/);
    }
    expect(() => verify({ now: '1700000000000' as unknown as number })).toThrow(TypeError);
    expect(verify({ toleranceSeconds: 0 }).ok).toBe(true);
  });
});
