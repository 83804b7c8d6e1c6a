// useFincoreLink renders on the server without touching the DOM (Next.js, Remix) and reports not ready.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { useFincoreLink } from '@fincore/sdk/react';

test('server rendering: not ready, no error, nothing loaded', () => {
  let seen;
  function Connect() {
    seen = useFincoreLink({ baseUrl: 'https://api.example.com', token: 'fc_link_abc', onSuccess() {} });
    return createElement('button', { disabled: !seen.ready, onClick: seen.open }, 'Connect');
  }
  const html = renderToString(createElement(Connect));
  assert.match(html, /<button disabled="">Connect<\/button>/);
  assert.equal(seen.ready, false);
  assert.equal(seen.error, null);
  assert.equal(typeof seen.open, 'function');
  assert.doesNotThrow(() => seen.open());
});
