// The Link loader against a stand-in DOM: one script tag per page, the global it installs, errors.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';

function fakeDom() {
  const appended = [];
  globalThis.window = globalThis;
  globalThis.document = {
    head: { appendChild: (node) => appended.push(node) },
    createElement: (tag) => ({ tag }),
  };
  return appended;
}

afterEach(() => {
  delete globalThis.document;
  delete globalThis.window;
  delete globalThis.FincoreLink;
});

test('loads {base_url}/link/sdk.js once and opens a handler', async () => {
  const { openLink, loadLinkSdk } = await import('@fincore/sdk/link');
  const scripts = fakeDom();
  const opened = [];
  const created = [];
  const first = openLink('https://api.example.com/', { token: 'fc_link_abc', onSuccess() {} });
  const second = loadLinkSdk('https://api.example.com');
  assert.equal(scripts.length, 1);
  assert.equal(scripts[0].src, 'https://api.example.com/link/sdk.js');
  globalThis.FincoreLink = { version: '1', create: (options) => (created.push(options), { open: () => opened.push(options.token), exit() {}, destroy() {} }) };
  scripts[0].onload();
  await first;
  assert.equal(await second, globalThis.FincoreLink);
  assert.deepEqual(opened, ['fc_link_abc']);
  assert.equal(created[0].token, 'fc_link_abc');
  // Already loaded: no second tag.
  await openLink('https://api.example.com', { token: 'fc_link_def', onSuccess() {} });
  assert.equal(scripts.length, 1);
});

test('a failed load rejects and may be retried', async () => {
  const { loadLinkSdk } = await import('@fincore/sdk/link');
  const scripts = fakeDom();
  const failing = loadLinkSdk('https://down.example.com');
  scripts[0].onerror();
  await assert.rejects(failing, /could not load https:\/\/down\.example\.com\/link\/sdk\.js/);
  const again = loadLinkSdk('https://down.example.com');
  assert.equal(scripts.length, 2);
  globalThis.FincoreLink = { version: '1', create() {} };
  scripts[1].onload();
  await again;
});

test('outside a browser it rejects with an explanation instead of throwing at import', async () => {
  const { loadLinkSdk } = await import('@fincore/sdk/link');
  await assert.rejects(loadLinkSdk('https://api.example.com'), /runs in the browser/);
});
