// Server-side rendering of the hosted Link page: the app shell (the flow runs in the page script,
// ./browser/app.ts, bundled into ./generated/bundles.ts by bin/build-link-ui.ts)
// and the error page shown instead when the link token cannot be used. Pure functions: the
// handler (functions/api/link.page.ts) resolves the session and picks one.
//
// Security:
// - every value from the request or the session is HTML-escaped, and the page configuration
//   (which holds the link token) is a JSON data block with <, >, & and line separators escaped;
// - a per-response nonce CSP allows only this page's own script and style, fetches to its own
//   origin, and framing only by the origin the SDK declared (embed=1&origin=...), or nobody; the
//   handler renders the flow for a declared origin only once the token's application allows it
//   (app/link.ts describePage), so the origin here is always an allowed one;
// - Referrer-Policy no-referrer keeps the token (it is in the page URL) out of Referer headers,
//   including the one the redirect_uri host would otherwise see; no-store keeps it out of caches.
import { randomBytes } from 'node:crypto';
import { displayMessageOf, documentationUrlOf } from '../../contracts/errors';
import { LINK_UPLOAD_MAX_FILE_BYTES } from '../../contracts/limits';
import { INSTITUTION_TYPES } from '../../contracts/schemas';
import { CATALOG } from '../../core/institutions-catalog';
import { httpUrlOf } from '../../core/link-rules';
import { LINK_APP_SCRIPT, LINK_ERROR_PAGE_SCRIPT } from './generated/bundles';
import { linkLanguageOf, translator, type LinkLanguage, type Translate } from './i18n';
import { ICONS } from './icons';
import {
  LINK_CONFIG_ELEMENT_ID,
  LINK_ERROR_ELEMENT_ID,
  type LinkErrorPageConfig,
  type LinkOauthReturn,
  type LinkOauthReturnConfig,
  type LinkPageConfig,
  type LinkPageProblem,
  type LinkPageSession,
  type LinkSelectAccountsStep,
} from './protocol';
import { LINK_CSS } from './styles';
import type { RenderedResponse } from '../operation';

export type { LinkPageProblem, LinkPageSession } from './protocol';

/** What the page renderers answer: status, security and caching headers, and the HTML. */
export type RenderedPage = RenderedResponse;

/** `embed=1&origin=<parent origin>` as the SDK sends it. */
export type EmbedMode = { embed: false } | { embed: true; parentOrigin: string };

const LINK_TOKEN_PATTERN = /^fc_link_[A-Za-z0-9]{1,240}$/;

export function isLinkTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && LINK_TOKEN_PATTERN.test(value);
}

/**
 * The parent origin an SDK-embedded page posts its result to: must be exactly an http(s) origin
 * (scheme, host, optional port; no path, credentials, query or fragment). Null when not usable.
 */
export function parseParentOrigin(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 300) return null;
  const url = httpUrlOf(value);
  return url && url.origin === value ? url.origin : null;
}

/** Reads embed/origin from the query; `invalid` when embed=1 comes without a usable origin. */
export function embedModeOf(query: Record<string, string | undefined>): EmbedMode | 'invalid' {
  if (query.embed === undefined || query.embed === '0' || query.embed === '') return { embed: false };
  if (query.embed !== '1') return 'invalid';
  const parentOrigin = parseParentOrigin(query.origin);
  return parentOrigin ? { embed: true, parentOrigin } : 'invalid';
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside <script type="application/json">: it can never close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function newNonce(): string {
  return randomBytes(18).toString('base64');
}

function pageHeaders(nonce: string, embed: EmbedMode | null): Record<string, string> {
  const frameAncestors = embed?.embed ? embed.parentOrigin : "'none'";
  const headers: Record<string, string> = {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      `frame-ancestors ${frameAncestors}`,
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (!embed?.embed) headers['X-Frame-Options'] = 'DENY';
  return headers;
}

/**
 * The card's header: Back (filled in by the page script on panes that have one), the brand, and
 * Close. Close is `hidden` until a script takes charge of it ('script'), shown for the embedded error
 * page (whose script reports the exit), and left out where nothing could act on it ('none').
 */
type CloseButton = 'script' | 'shown' | 'none';

function layout(args: { language: LinkLanguage; title: string; nonce: string; embed: boolean; sandbox: boolean; close: CloseButton; main: string; tail?: string }): string {
  const t = translator(args.language);
  const close =
    args.close === 'none'
      ? ''
      : `<button type="button" class="nav-close" id="fc-close"${args.close === 'script' ? ' hidden' : ''}><span class="nav-icon" aria-hidden="true">${ICONS.close}</span><span class="sr-only">${escapeHtml(t('nav.close'))}</span></button>`;
  return `<!doctype html>
<html lang="${args.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(args.title)}</title>
<style nonce="${args.nonce}">${LINK_CSS}</style>
</head>
<body${args.embed ? ' class="embed"' : ''}>
<div class="card">
<header class="topbar">
<div class="topbar-start" id="fc-nav-start"></div>
<div class="brand"><span class="logo" aria-hidden="true">F</span><span class="brand-name">Fincore</span>${args.sandbox ? `<span class="pill">${escapeHtml(t('shell.sandbox'))}</span>` : ''}</div>
<div class="topbar-end">${close}</div>
</header>
${args.main}
</div>
${args.tail ?? ''}
</body>
</html>
`;
}

/** Every country any institution serves, for the country filter. */
const COUNTRIES: readonly string[] = [...new Set(CATALOG.flatMap((i) => i.country_codes.map((c) => c.toUpperCase())))].sort();

/** The app shell with the flow; the token lives only in the page's configuration block. */
export function renderFlowPage(args: { token: string; session: LinkPageSession; embed: EmbedMode; receivedRedirectUri?: string | null; selectionStep?: LinkSelectAccountsStep | null }): RenderedPage {
  const nonce = newNonce();
  const config: LinkPageConfig = {
    mode: 'flow',
    token: args.token,
    embed: args.embed.embed,
    parentOrigin: args.embed.embed ? args.embed.parentOrigin : null,
    session: args.session,
    types: INSTITUTION_TYPES,
    countries: COUNTRIES,
    apiBase: 'link/api/',
    uploadMaxBytes: LINK_UPLOAD_MAX_FILE_BYTES,
    receivedRedirectUri: args.receivedRedirectUri ?? null,
    selectionStep: args.selectionStep ?? null,
  };
  const tail = `<script type="application/json" id="${LINK_CONFIG_ELEMENT_ID}">${jsonForScript(config)}</script>
<script nonce="${nonce}">${LINK_APP_SCRIPT}</script>`;
  const language = linkLanguageOf(args.session.language);
  return {
    statusCode: 200,
    headers: pageHeaders(nonce, args.embed),
    body: layout({
      language,
      title: translator(language)('shell.title', { client: args.session.client_name }),
      nonce,
      embed: args.embed.embed,
      sandbox: args.session.environment === 'test',
      close: 'script',
      main: flowMain(translator(language)),
      tail,
    }),
  };
}

function flowMain(t: Translate): string {
  return `<main id="app"><noscript><h1>${escapeHtml(t('shell.noscriptHeading'))}</h1><p>${escapeHtml(t('shell.noscript'))}</p></noscript></main>`;
}

/**
 * GET /link's `received_redirect_uri` (the integrator's redirect page re-opening Link after an OAuth
 * consent): an http(s) URL the resume route accepts, else nothing (the flow starts over).
 */
export function receivedRedirectUriOf(value: string | undefined): string | null {
  return value !== undefined && value.length <= 1000 && /^https?:\/\//i.test(value) ? value : null;
}

/** The longest redirect parameter the callback page passes on (the complete route refuses longer ones). */
const OAUTH_PARAM_MAX_CHARS = 2048;

/** Where providers put our state on the way back: OAuth's `state`, or a reference we gave them (`ref`). */
const OAUTH_STATE_PARAMS = ['state', 'ref'] as const;
/**
 * Where providers put what the consent produced: OAuth's `code`, or the hosted widgets' own names
 * for the new connection (`loginId`, `connection_id`, `member_guid`). The adapter reads it as `code`.
 */
const OAUTH_CODE_PARAMS = ['code', 'loginId', 'connection_id', 'member_guid'] as const;

function oauthParam(value: string | undefined): string | null {
  return value !== undefined && value.length > 0 && value.length <= OAUTH_PARAM_MAX_CHARS ? value : null;
}

/**
 * GET /link/oauth/callback: the provider's redirect back after consent. The page carries what the
 * redirect brought (never a token: the flow kept the link token in the tab's sessionStorage) and
 * completes the consent through the page's API, which checks the state against the session. It is
 * never framed: providers' consent pages run top-level, and so does their way back.
 */
export function renderOauthCallbackPage(query: Record<string, string | undefined>, language: LinkLanguage = 'en'): RenderedPage {
  const nonce = newNonce();
  const firstOf = (names: readonly string[]) => names.map((n) => oauthParam(query[n])).find((v) => v !== null) ?? null;
  const oauth: LinkOauthReturn = {
    state: firstOf(OAUTH_STATE_PARAMS),
    code: firstOf(OAUTH_CODE_PARAMS),
    error: oauthParam(query.error),
  };
  const config: LinkOauthReturnConfig = {
    mode: 'oauth_return',
    oauth,
    types: INSTITUTION_TYPES,
    countries: COUNTRIES,
    // The callback is {base}/link/oauth/callback: the API is one level up, at {base}/link/api/.
    apiBase: '../api/',
    uploadMaxBytes: LINK_UPLOAD_MAX_FILE_BYTES,
  };
  const tail = `<script type="application/json" id="${LINK_CONFIG_ELEMENT_ID}">${jsonForScript(config)}</script>
<script nonce="${nonce}">${LINK_APP_SCRIPT}</script>`;
  return {
    statusCode: 200,
    headers: pageHeaders(nonce, { embed: false }),
    body: layout({ language, title: translator(language)('shell.oauthTitle'), nonce, embed: false, sandbox: false, close: 'script', main: flowMain(translator(language)), tail }),
  };
}

/** The HTTP status of each problem; the words are the catalogue's `problem.<problem>.*`. */
const PROBLEM_STATUS: Record<LinkPageProblem, number> = {
  invalid_link_token: 400,
  link_token_expired: 400,
  link_token_used: 400,
  invalid_embed: 400,
  internal_error: 500,
};

/**
 * The page shown instead of the flow. No flow and no token; inside the SDK modal it also gets an
 * Exit button that reports the error to the parent (onExit).
 */
export function renderErrorPage(args: { problem: LinkPageProblem; message?: string; requestId: string; baseUrl: string; embed: EmbedMode | null; language?: LinkLanguage }): RenderedPage {
  const nonce = newNonce();
  const language = args.language ?? 'en';
  const t = translator(language);
  const p = {
    status: PROBLEM_STATUS[args.problem],
    title: t(`problem.${args.problem}.title`),
    explanation: t(`problem.${args.problem}.explanation`),
    next: t(`problem.${args.problem}.next`),
  };
  const embedded = args.embed?.embed ? args.embed : null;
  const exitButton = embedded ? `<div class="actions"><button type="button" class="primary" id="fc-exit">${escapeHtml(t('nav.exit'))}</button></div>` : '';
  const main = `<main id="app"><section class="screen" aria-labelledby="fc-heading">
<div class="icon warn" aria-hidden="true">${ICONS.warn}</div>
<h1 id="fc-heading" tabindex="-1">${escapeHtml(p.title)}</h1>
<p class="lead">${escapeHtml(p.explanation)}</p>
<p><strong>${escapeHtml(t('error.whatToDo'))}</strong> ${escapeHtml(p.next)}</p>
<p class="code">${escapeHtml(t('error.code', { code: args.problem }))} &middot; ${escapeHtml(t('error.reference', { reference: args.requestId }))}</p>
<div class="spacer"></div>
${exitButton}
</section></main>`;
  let tail = '';
  if (embedded) {
    const config: LinkErrorPageConfig = {
      parentOrigin: embedded.parentOrigin,
      error: {
        type: args.problem === 'internal_error' ? 'api_error' : 'invalid_request',
        code: args.problem,
        // onExit gets the API's English wording, as every other error the integrator sees.
        message: args.message ?? translator('en')(`problem.${args.problem}.explanation`),
        request_id: args.requestId,
        // As in the API's error envelope; invalid_embed is the page's own problem, not an API code.
        documentation_url: args.problem === 'invalid_embed' ? null : documentationUrlOf(args.problem, args.baseUrl),
        display_message: args.problem === 'invalid_embed' ? null : displayMessageOf(args.problem),
      },
    };
    tail = `<script type="application/json" id="${LINK_ERROR_ELEMENT_ID}">${jsonForScript(config)}</script>
<script nonce="${nonce}">${LINK_ERROR_PAGE_SCRIPT}</script>`;
  }
  return {
    statusCode: p.status,
    headers: pageHeaders(nonce, embedded ?? { embed: false }),
    body: layout({ language, title: t('shell.screenTitle', { heading: p.title }), nonce, embed: Boolean(embedded), sandbox: false, close: embedded ? 'shown' : 'none', main, tail }),
  };
}
