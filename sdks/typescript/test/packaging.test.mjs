// The artefact as consumers get it: both builds load through the package's exports map (ESM import
// and CommonJS require, every subpath), and a consumer's TypeScript compiles against the published
// declarations (optional request fields omitted; a missing required one is an error).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

test('ESM import: every entry point', async () => {
  const main = await import('@fincore/sdk');
  assert.equal(typeof main.Fincore, 'function');
  assert.equal(typeof main.FincoreError, 'function');
  assert.equal(typeof main.verifyWebhook, 'function');
  assert.equal(typeof main.ERROR_CODES, 'object');
  assert.equal(typeof (await import('@fincore/sdk/webhooks')).verifyWebhook, 'function');
  assert.equal(typeof (await import('@fincore/sdk/link')).openLink, 'function');
  assert.equal(typeof (await import('@fincore/sdk/react')).useFincoreLink, 'function');
});

test('CommonJS require: every entry point', () => {
  const main = require('@fincore/sdk');
  assert.equal(typeof main.Fincore, 'function');
  assert.equal(typeof main.verifyWebhook, 'function');
  assert.match(require.resolve('@fincore/sdk'), /dist[\\/]cjs[\\/]index\.js$/);
  assert.equal(typeof require('@fincore/sdk/webhooks').verifyWebhook, 'function');
  assert.equal(typeof require('@fincore/sdk/link').loadLinkSdk, 'function');
  assert.equal(typeof require('@fincore/sdk/react').useFincoreLink, 'function');
  const client = new main.Fincore({ apiKey: 'fc_sk_test_abcdefghijklmnop', baseUrl: 'http://localhost:4010' });
  assert.equal(typeof client.transactions.sync, 'function');
});

test('the ESM and CommonJS builds are distinct files of one package', async () => {
  const esmUrl = import.meta.resolve('@fincore/sdk');
  assert.match(esmUrl, /dist\/esm\/index\.js$/);
});

test('a consumer type-checks against the declarations (ESM and CommonJS resolution)', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));
  const result = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
});
