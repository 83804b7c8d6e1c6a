// GraphiQL at GET /v1/graphql: a small HTML shell, and the assets it loads from the same URL
// (`?asset=<name>&v=<sha-256>`): GraphiQL's UMD build and stylesheet and React's UMD builds, packed
// into ./generated/assets.ts by bin/build-graphiql.ts. Nothing comes from a CDN or any other origin.
// Pure functions: the handler (functions/api/graphql.ide.ts) picks one from the query.
//
// Why a shell plus assets rather than one page with everything inline:
// - GraphiQL's dialogs (settings, shortcuts) lock scrolling with a <style> element they create at
//   run time, whose content depends on the scrollbar's width, so no hash can allow it in advance.
//   It carries the nonce found in the `__webpack_nonce__` global, so the page needs a per-response
//   nonce, and a nonce'd page must not be cached (no-store): every view is fetched again.
// - So the shell, which carries the nonce, is about 3 KB, and the 1.5 MB of assets are fetched by
//   content-addressed URLs, cached by the browser for a year (immutable): a new build changes the
//   hash in the URL. Each is also pinned by Subresource Integrity.
//
// Security (as the hosted Link page, functions/platform/link-ui/page.ts):
// - CSP: scripts and styles by nonce only (no 'unsafe-inline', no 'unsafe-eval': GraphiQL 3 needs
//   neither), fonts and images from data: URLs only (GraphiQL inlines its fonts), requests to this
//   origin only, no <base>, no form posts, never framed (a framing page could trick a user into
//   running queries with the key they typed); plus X-Frame-Options, nosniff and Referrer-Policy
//   no-referrer, as the Link page;
// - the page holds no secret: the headers editor starts with a placeholder, and a key typed there
//   is never stored: shouldPersistHeaders is off, and the storage the page gives GraphiQL drops the
//   headers its history keeps regardless (see the bootstrap script);
// - the assets may only be loaded by this origin (Cross-Origin-Resource-Policy same-origin).
import { escapeHtml, jsonForScript } from '../../platform/link-ui/page';
import type { RenderedResponse } from '../../platform/operation';
import { PACKED_ASSET_CACHE_CONTROL, newPageNonce, packedAssetNamed, packedAssetUrl as assetUrl, servePackedAsset, shellHeaders } from '../../platform/packed-assets';
import { GRAPHIQL_ASSETS } from './generated/assets';

/** What the headers editor starts with: where the key goes, never a real key. */
export const GRAPHIQL_HEADERS_PLACEHOLDER = `{
  "Authorization": "Bearer <your test key>"
}`;

/** The query editor's first contents: how to authenticate, and a query that needs no item. */
export const GRAPHIQL_DEFAULT_QUERY = `# Welcome to the Fincore GraphQL API (read-only).
#
# 1. In "Headers" below, replace <your test key> with your API key
#    (a test key, fc_sk_test_..., sees the sandbox).
# 2. Run the query with the play button or Ctrl-Enter (Cmd-Enter on a Mac).
# 3. For the Docs panel (book icon, top left) and autocompletion, re-fetch the
#    schema with your key: the circling-arrows button at the bottom left.
#
# item(access_token: "...") reads an item with its accounts, transactions and
# data products; the access token comes from Link (POST /v1/link/token/exchange).

query Categories {
  categories {
    category
    label
    detailed {
      category_detailed
      label
    }
  }
}
`;

/**
 * What GraphiQL keeps in localStorage as lists of runs or tabs, each with its headers: history,
 * favourites, open tabs. The page stores them without headers.
 */
export const GRAPHIQL_STORED_LISTS = ['queries', 'favorites', 'tabState'] as const;

/** The page's own CSS: GraphiQL fills the viewport. */
const SHELL_CSS = 'html,body,#graphiql{height:100%;margin:0}body{font-family:system-ui,sans-serif}';

/**
 * Starts GraphiQL against this same URL (the page and the endpoint share the path, whatever prefix
 * a stage or custom domain puts in front of it). Runs after the UMD scripts, which it reads as
 * globals. Kept as plain ES2019 for every browser GraphiQL itself supports.
 */
function bootstrapScript(): string {
  const config = { query: GRAPHIQL_DEFAULT_QUERY, headers: GRAPHIQL_HEADERS_PLACEHOLDER, listsWithHeaders: GRAPHIQL_STORED_LISTS };
  return `(function () {
  'use strict';
  // GraphiQL's dialogs inject a scroll-lock style element nonce'd with this global (the webpack convention).
  window.__webpack_nonce__ = document.currentScript.nonce;
  var config = ${jsonForScript(config)};
  var NAMESPACE = 'graphiql:';
  // GraphiQL stores its history and favourites with each run's headers whatever
  // shouldPersistHeaders says, and the headers hold the API key: what it stores keeps none.
  function withoutHeaders(key, value) {
    if (key.indexOf(NAMESPACE) !== 0 || config.listsWithHeaders.indexOf(key.slice(NAMESPACE.length)) === -1) return value;
    var stored;
    try {
      stored = JSON.parse(value);
    } catch (notJson) {
      return value;
    }
    if (stored === null || typeof stored !== 'object') return value;
    Object.keys(stored).forEach(function (name) {
      if (!Array.isArray(stored[name])) return;
      stored[name].forEach(function (entry) {
        if (entry !== null && typeof entry === 'object') delete entry.headers;
      });
    });
    return JSON.stringify(stored);
  }
  function graphiqlKeys() {
    return Object.keys(localStorage).filter(function (key) { return key.indexOf(NAMESPACE) === 0; });
  }
  var storage = {
    getItem: function (key) { return localStorage.getItem(key); },
    setItem: function (key, value) { localStorage.setItem(key, withoutHeaders(key, value)); },
    removeItem: function (key) { localStorage.removeItem(key); },
    clear: function () { graphiqlKeys().forEach(function (key) { localStorage.removeItem(key); }); },
    get length() { return graphiqlKeys().length; }
  };
  var fetcher = GraphiQL.createFetcher({ url: location.origin + location.pathname });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      storage: storage,
      defaultQuery: config.query,
      headers: config.headers,
      defaultHeaders: config.headers,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers'
    })
  );
})();`;
}

const BOOTSTRAP_SCRIPT = bootstrapScript();

function assetNamed(name: string) {
  return packedAssetNamed(GRAPHIQL_ASSETS, name, 'npx tsx bin/build-graphiql.ts');
}

/** Checked once per process: a module without these would serve a page that cannot start. */
const STYLESHEET = assetNamed('graphiql.css');
const SCRIPTS = ['react.js', 'react-dom.js', 'graphiql.js'].map(assetNamed);

function shellContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'font-src data:',
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The GraphiQL page. Its nonce makes every response unique, hence no-store (see the top of the file). */
export function renderGraphiqlShell(): RenderedResponse {
  const nonce = newPageNonce();
  const n = escapeHtml(nonce);
  const scripts = SCRIPTS.map(
    (s) => `<script src="${escapeHtml(assetUrl(s))}" integrity="${s.integrity}" nonce="${n}"></script>`,
  ).join('\n');
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>Fincore GraphQL · GraphiQL</title>
<link rel="stylesheet" href="${escapeHtml(assetUrl(STYLESHEET))}" integrity="${STYLESHEET.integrity}" nonce="${n}">
<style nonce="${n}">${SHELL_CSS}</style>
</head>
<body>
<div id="graphiql"><noscript><h1>Fincore GraphQL</h1><p>GraphiQL needs JavaScript. Without it, POST your queries to this URL as JSON: {"query": "..."} with your key in an Authorization: Bearer header.</p></noscript></div>
${scripts}
<script nonce="${n}">${BOOTSTRAP_SCRIPT}</script>
</body>
</html>
`;
  return {
    statusCode: 200,
    headers: shellHeaders(shellContentSecurityPolicy(nonce)),
    body,
  };
}

/** Content-addressed, so a response never changes: cached for a year, never revalidated. */
export const GRAPHIQL_ASSET_CACHE_CONTROL = PACKED_ASSET_CACHE_CONTROL;

/**
 * One asset, when both its name and its version (the SHA-256 in the page's URL) match. Another
 * version is a 404, not this one's bytes: it would be cached for a year under the other hash.
 */
export function serveGraphiqlAsset(name: string, version: string | undefined): RenderedResponse {
  return servePackedAsset(GRAPHIQL_ASSETS, name, version, 'No GraphiQL asset has this name and version: reload GET /v1/graphql for the current ones.');
}
