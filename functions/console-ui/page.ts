// The console web app at GET /console/: a small HTML shell, and the two assets it loads from the
// same URL (`?asset=<name>&v=<sha-256>`): the app's script (React 18 + chart.js + the console,
// bundled by bin/build-console-ui.ts from ./browser/) and its stylesheet, packed into
// ./generated/assets.ts. Nothing comes from a CDN or any other origin. Pure functions: the route's
// handler passes the request's path and query and gets the response.
//
// Why a shell plus assets (as GraphiQL, functions/surfaces/graphiql/page.ts):
// - the shell carries a fresh CSP nonce per response, so it is never cached (no-store), and stays
//   about 1 KB; the ~380 KB of assets are fetched by content-addressed URLs, cached for a year
//   (immutable): a new build changes the hash in the URL. Each is also pinned by Subresource
//   Integrity;
// - the app is one document for every page (hash routing), so the shell is the same for all.
//
// Security:
// - CSP: script and stylesheet by nonce only (no 'unsafe-inline', no 'unsafe-eval': React and
//   chart.js need neither; chart.js sizes its canvas through element.style, which CSP allows),
//   requests to this origin only (the console API under /console/api/), no <base>, no form posts
//   (the app posts JSON with fetch), never framed (clickjacking a signed-in console); plus
//   X-Frame-Options, nosniff, Referrer-Policy no-referrer (an invitation token lives in the
//   fragment, which is never sent anyway) and a same-origin opener policy;
// - the page holds no secret: the session cookie is HttpOnly and scoped to /console; the app keeps
//   the CSRF token in memory only;
// - the assets may only be loaded by this origin (Cross-Origin-Resource-Policy same-origin).
import { PACKED_ASSET_CACHE_CONTROL, newPageNonce, packedAssetNamed, packedAssetUrl, servePackedAsset, shellHeaders } from '../platform/packed-assets';
import { CONSOLE_ASSETS } from './generated/assets';

/** How users sign in here; the app shows a password form (local) or a Cognito button. */
export type ConsoleIdentityKind = 'local' | 'cognito';

/** A Lambda proxy response: text bodies only (the assets are served decompressed, as UTF-8 text). */
export interface ConsolePageResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded: false;
}

export interface ConsolePageRequest {
  /** The request path as the gateway saw it (without any stage prefix), e.g. /console/ or /console. */
  path: string;
  query?: Record<string, string | undefined> | null;
  identity?: ConsoleIdentityKind;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function assetNamed(name: string) {
  return packedAssetNamed(CONSOLE_ASSETS, name, 'npm run build:console-ui');
}

/** Checked once per process: a module without these would serve a page that cannot start. */
const STYLESHEET = assetNamed('console.css');
const SCRIPT = assetNamed('console.js');

export function consoleContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    // The shell's empty data: favicon, so the browser asks for no /favicon.ico.
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The console page. Its nonce makes every response unique, hence no-store. */
export function renderConsoleShell(options: { identity?: ConsoleIdentityKind } = {}): ConsolePageResponse {
  // Base64: nothing in it needs escaping in an attribute or the CSP header.
  const nonce = newPageNonce();
  const identity: ConsoleIdentityKind = options.identity === 'cognito' ? 'cognito' : 'local';
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<meta name="fc-console-identity" content="${identity}">
<title>Fincore console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeAttribute(packedAssetUrl(STYLESHEET))}" integrity="${STYLESHEET.integrity}" nonce="${nonce}">
</head>
<body>
<div id="console-root"><noscript><main><h1>Fincore console</h1><p>The console is a web app: it needs JavaScript. Turn JavaScript on for this site and reload the page.</p></main></noscript></div>
<script src="${escapeAttribute(packedAssetUrl(SCRIPT))}" integrity="${SCRIPT.integrity}" nonce="${nonce}" defer></script>
</body>
</html>
`;
  return {
    statusCode: 200,
    headers: shellHeaders(consoleContentSecurityPolicy(nonce)),
    body,
    isBase64Encoded: false,
  };
}

/** Content-addressed, so a response never changes: cached for a year, never revalidated. */
export const CONSOLE_ASSET_CACHE_CONTROL = PACKED_ASSET_CACHE_CONTROL;

/**
 * One asset, when both its name and its version (the SHA-256 in the shell's URL) match. Another
 * version is a 404, not this one's bytes: it would be cached for a year under the other hash.
 */
export function serveConsoleAsset(name: string, version: string | undefined): ConsolePageResponse {
  const served = servePackedAsset(CONSOLE_ASSETS, name, version, 'No console asset has this name and version: reload the console page for the current ones.');
  return { ...served, isBase64Encoded: false };
}

/**
 * The console route: the shell at a path ending in `/` (its relative URLs, `?asset=` and `api/`,
 * resolve under it), an asset when the query names one, and from the path without the slash a
 * redirect to the path with it. The redirect's Location is relative (`console/`), so it keeps
 * whatever stage prefix the gateway put in front of the path.
 */
export function consolePage(request: ConsolePageRequest): ConsolePageResponse {
  const query = request.query ?? {};
  if (query.asset !== undefined) return serveConsoleAsset(query.asset, query.v);
  if (!request.path.endsWith('/')) {
    const last = request.path.split('/').pop() || 'console';
    return {
      statusCode: 308,
      headers: { Location: `${encodeURIComponent(last)}/`, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' },
      body: 'The console is at this path with a trailing slash.\n',
      isBase64Encoded: false,
    };
  }
  return renderConsoleShell({ identity: request.identity });
}
