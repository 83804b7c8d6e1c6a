// The API reference at GET /docs: a small HTML shell that renders this deployment's openapi.json
// with Redoc (its standalone bundle, packed into ./generated/assets.ts by bin/build-docs-ui.ts and
// served from the same URL, `?asset=<name>&v=<sha-256>`). Nothing comes from a CDN or any other
// origin: no script, font, stylesheet or image. Pure functions: the handler (functions/api/docs.page.ts)
// picks one from the query.
//
// As GraphiQL (functions/surfaces/graphiql/page.ts): the shell carries a fresh CSP nonce per
// response, so it is never cached (no-store) and stays about 2 KB; the ~940 KB script is fetched by
// its content-addressed URL, cached for a year (immutable), pinned by Subresource Integrity.
//
// Security: exactly what Redoc needs and nothing from elsewhere.
// - scripts by nonce only (no 'unsafe-inline', no 'unsafe-eval': Redoc evaluates no strings);
// - styles by nonce: Redoc's styled-components put the nonce Redoc.init is given on every <style>
//   element they create; the element styles React sets through the CSSOM need no allowance, and
//   'unsafe-inline' stays out;
// - a worker from a blob: URL (Redoc builds its search index in a worker it creates from a Blob);
// - the document itself: `connect-src 'self'` (openapi.json from this origin), images from data:
//   URLs only (Redoc's icons are inline SVG), no fonts (Redoc falls back to the system's), no <base>,
//   no form posts, never framed; plus X-Frame-Options, nosniff and Referrer-Policy no-referrer.
import { ERRORS_DOCS_PATH } from '../../contracts/docs-links';
import { escapeHtml, jsonForScript } from '../../platform/link-ui/page';
import type { RenderedResponse } from '../../platform/operation';
import { PACKED_ASSET_CACHE_CONTROL, newPageNonce, packedAssetNamed, packedAssetUrl, servePackedAsset, shellHeaders } from '../../platform/packed-assets';
import { DOCS_ASSETS } from './generated/assets';

/** Checked once per process: a module without it would serve a page that cannot start. */
const REDOC_SCRIPT = packedAssetNamed(DOCS_ASSETS, 'redoc.js', 'npm run build:docs-ui');

/** The header bar above Redoc; Redoc's sticky menu starts below it (scrollYOffset). */
const HEADER_ID = 'fc-docs-header';

/** Redoc's font stack without web fonts: the page loads none. */
const FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

const SHELL_CSS = [
  'html,body{margin:0;padding:0}',
  `body{font-family:${FONT_STACK}}`,
  `#${HEADER_ID}{position:sticky;top:0;z-index:10;display:flex;gap:1.25rem;align-items:center;height:48px;padding:0 1rem;background:#0f2e4a;color:#fff;font-size:14px}`,
  `#${HEADER_ID} strong{font-size:15px;margin-right:auto}`,
  `#${HEADER_ID} a{color:#fff}`,
  `#${HEADER_ID} a:focus-visible{outline:2px solid #ffd166;outline-offset:2px}`,
].join('');

/**
 * The page's links, relative to the page at `/docs` (so they keep any stage or domain prefix): the
 * error catalogue, the machine-readable documents and GraphiQL.
 */
const HEADER_LINKS: readonly { href: string; label: string }[] = [
  { href: ERRORS_DOCS_PATH.slice(1), label: 'Error codes' },
  { href: 'openapi.json', label: 'openapi.json' },
  { href: 'llms.txt', label: 'llms.txt' },
  { href: 'v1/graphql', label: 'GraphiQL' },
];

/** Redoc's options (https://redocly.com/docs/redoc/config): the nonce is added per response. */
const REDOC_OPTIONS = {
  scrollYOffset: `#${HEADER_ID}`,
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  pathInMiddlePanel: true,
  requiredPropsFirst: true,
  sortRequiredPropsFirst: true,
  theme: {
    typography: { fontFamily: FONT_STACK, headings: { fontFamily: FONT_STACK }, code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } },
  },
};

/**
 * Starts Redoc over openapi.json of this deployment: the sibling of this page's path (`/docs` ->
 * `/openapi.json`, `/prod/docs` -> `/prod/openapi.json`), fetched from this origin.
 */
function bootstrapScript(): string {
  return `(function () {
  'use strict';
  var options = ${jsonForScript(REDOC_OPTIONS)};
  options.nonce = document.currentScript.nonce;
  var specUrl = location.pathname.replace(/\\/docs\\/?$/, '/openapi.json');
  Redoc.init(specUrl, options, document.getElementById('redoc'));
})();`;
}

const BOOTSTRAP_SCRIPT = bootstrapScript();

export function docsContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'worker-src blob:',
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The reference page. Its nonce makes every response unique, hence no-store. */
export function renderDocsShell(): RenderedResponse {
  // Base64: nothing in it needs escaping in an attribute or the CSP header.
  const nonce = newPageNonce();
  const links = HEADER_LINKS.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`).join('\n');
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Fincore API reference</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${SHELL_CSS}</style>
</head>
<body>
<header id="${HEADER_ID}"><strong>Fincore API reference</strong>
<nav aria-label="Documentation">
${links}
</nav></header>
<main id="redoc"><noscript><h1>Fincore API reference</h1><p>This page renders <a href="openapi.json">openapi.json</a> and needs JavaScript. The same reference as plain text: <a href="llms-full.txt">llms-full.txt</a>.</p></noscript></main>
<script src="${escapeHtml(packedAssetUrl(REDOC_SCRIPT))}" integrity="${REDOC_SCRIPT.integrity}" nonce="${nonce}"></script>
<script nonce="${nonce}">${BOOTSTRAP_SCRIPT}</script>
</body>
</html>
`;
  return {
    statusCode: 200,
    headers: shellHeaders(docsContentSecurityPolicy(nonce)),
    body,
  };
}

export const DOCS_ASSET_CACHE_CONTROL = PACKED_ASSET_CACHE_CONTROL;

/** Redoc's script at the version the shell names (another version is a 404: see servePackedAsset). */
export function serveDocsAsset(name: string, version: string | undefined): RenderedResponse {
  return servePackedAsset(DOCS_ASSETS, name, version, 'No docs asset has this name and version: reload GET /docs for the current ones.');
}
