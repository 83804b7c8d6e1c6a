// Every shared webhook vector (sdks/webhook-vectors.json) against both builds: the ESM one through
// Web Crypto as an edge runtime runs it, and the CommonJS one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as esm from '@fincore/sdk/webhooks';

const require = createRequire(import.meta.url);
const cjs = require('@fincore/sdk');
const vectorsPath = process.env.FC_WEBHOOK_VECTORS ?? fileURLToPath(new URL('../../webhook-vectors.json', import.meta.url));
const { vectors } = JSON.parse(readFileSync(vectorsPath, 'utf8'));
const number = (value) => (typeof value === 'number' ? value : Number(value));

async function outcome(verifyWebhook, vector) {
  try {
    const result = await verifyWebhook({
      rawBody: new TextEncoder().encode(vector.body),
      signature: vector.signature,
      timestamp: vector.timestamp,
      secrets: vector.secrets,
      now: number(vector.now) * 1000,
      toleranceSeconds: number(vector.tolerance_seconds),
    });
    return result.ok ? { ok: true, event_type: result.event.type } : { ok: false, reason: result.reason };
  } catch (error) {
    if (error instanceof TypeError) return { error: 'invalid_argument' };
    throw error;
  }
}

test('the vectors file has every kind of outcome', () => {
  assert.ok(vectors.length >= 50);
  const kinds = new Set(vectors.map((v) => v.expected.reason ?? v.expected.error ?? 'ok'));
  for (const kind of ['ok', 'missing_signature', 'missing_timestamp', 'malformed_signature', 'malformed_timestamp', 'timestamp_outside_window', 'signature_mismatch', 'invalid_body', 'invalid_argument']) {
    assert.ok(kinds.has(kind), kind);
  }
});

for (const [build, verify] of [['esm', esm.verifyWebhook], ['cjs', cjs.verifyWebhook]]) {
  test(`${build}: every vector`, async (t) => {
    for (const vector of vectors) {
      await t.test(vector.name, async () => assert.deepEqual(await outcome(verify, vector), vector.expected));
    }
  });
}

test('a string body verifies like its UTF-8 bytes', async () => {
  const vector = vectors.find((v) => v.name === 'valid, unicode body bytes');
  const result = await esm.verifyWebhook({ rawBody: vector.body, signature: vector.signature, timestamp: vector.timestamp, secrets: vector.secrets, now: vector.now * 1000 });
  assert.equal(result.ok, true);
});

test('signWebhook signs as the service does', async () => {
  const vector = vectors.find((v) => v.name === 'valid');
  assert.equal(await esm.signWebhook(vector.secrets[0], Number(vector.timestamp), vector.body), vector.signature);
});

test('verifyWebhookRequest reads a fetch Request', async () => {
  const vector = vectors.find((v) => v.name === 'valid');
  const request = new Request('http://localhost/hook', {
    method: 'POST',
    body: vector.body,
    headers: { 'FC-Signature': vector.signature, 'FC-Timestamp': vector.timestamp },
  });
  const result = await esm.verifyWebhookRequest(request, { secrets: vector.secrets, now: vector.now * 1000 });
  assert.deepEqual(result.ok && result.event.type, vector.expected.event_type);
});

test('the webhook module imports nothing from node: (edge runtimes)', () => {
  const source = readFileSync(fileURLToPath(new URL('../src/webhooks.ts', import.meta.url)), 'utf8');
  assert.doesNotMatch(source, /from ['"]node:|require\(/);
  const built = readFileSync(require.resolve('@fincore/sdk/webhooks'), 'utf8');
  assert.doesNotMatch(built, /require\(["']node:|from ["']node:/);
});
