// The error catalogue at GET /docs/errors: one entry per error code (functions/contracts/errors.ts),
// anchored by the code (`#invalid_api_key`), with its HTTP status, type, default message, what the
// end user may be shown and what to do. Every error envelope's `documentation_url` points here, the
// console's too: its own codes (`#csrf_failed`) follow in a separate "Console API" part.
//
// Rendered on the server, with no script at all: the same for every request, so it is cached like
// the other public documents, and its one inline stylesheet is allowed by its hash (no nonce, so no
// per-response uniqueness). Images from data: URLs only (the empty favicon), nothing else loads.
import { createHash } from 'node:crypto';
import { DOCS_PATH, errorDocumentationPath } from '../../contracts/docs-links';
import { ERRORS, ERROR_TYPES, displayMessageOf, isPublicErrorCode, publicErrorCodes, statusOf, type ErrorCode, type ErrorType } from '../../contracts/errors';
import { escapeHtml } from '../../platform/link-ui/page';
import type { RenderedResponse } from '../../platform/operation';

/** What to do about an error of each type, before the code's own advice. */
const TYPE_ADVICE: Record<ErrorType, string> = {
  invalid_request:
    'Fix the request before sending it again: the message says what is wrong. The same request gets the same answer.',
  authentication_error:
    'Send a secret key of this deployment in the header `Authorization: Bearer fc_sk_test_...` (sandbox) or `fc_sk_live_...` (live). A key is shown once, when it is created; create a new one in the console if it is lost.',
  permission_denied:
    'The key is valid but may not do this: the message names the plan, environment or consent that is missing.',
  not_found: 'Check the id or the path: the message says which one names nothing this application and environment can see.',
  rate_limit_error: 'Wait, then retry the same request: nothing was consumed.',
  provider_error: 'The institution is unavailable through every enabled connector. Retry later with exponential backoff.',
  api_error: 'Retry with exponential backoff. Quote the `request_id` of the answer if you contact support.',
  item_error:
    'The end user\'s login at the institution did not succeed. Hosted Link shows it and lets them try again; your app receives it in `onExit`, on the item (`items/get` `error`) and in the `item.error` webhook.',
};

/** A code's own advice where its message does not already say what to do. */
const CODE_ADVICE: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'Send a JSON object as the body, with `Content-Type: application/json`.',
  missing_field: 'Add the field the message names; the operation\'s request schema in the API reference lists the required fields.',
  invalid_field: 'The message names the field (a dotted path such as `options.count`) and what it accepts.',
  unknown_field: 'Remove the field, or check its spelling: request bodies accept only the fields the reference lists.',
  request_rejected: 'Check the method, path and body against the API reference.',
  method_not_allowed: 'Use the method the `Allow` header of the answer names (every data operation is a POST).',
  invalid_account_id: 'Use account ids from `accounts/get` of the same item.',
  invalid_access_token:
    'Use the `access_token` that `link/token/exchange` returned, with a key of the same application and environment (a test key reads only sandbox items).',
  invalid_public_token: 'Exchange the `public_token` that Link\'s `onSuccess` returned, with a key of the same application and environment.',
  public_token_used: 'Keep the `access_token` of the first exchange; to connect again, open Link again.',
  invalid_link_token: 'Create a link token with `link/token/create` and open Link with it.',
  invalid_item_id: 'Use the `item_id` of an item of this application and environment (`items/get`).',
  products_not_supported: 'Ask for fewer products, or let the user choose another institution.',
  statement_empty: 'Check that the file is the statement export, not a summary or an empty date range.',
  institution_mismatch: 'In update mode the user must sign in to the institution the item belongs to.',
  invalid_date_range: 'Send a `start_date` on or before `end_date` (`YYYY-MM-DD`).',
  invalid_api_key: 'Check for a truncated or mistyped key, and that it belongs to this deployment.',
  invalid_credentials: 'Let the user retype their credentials in Link.',
  invalid_mfa_code: 'Let the user enter the code again in Link.',
  route_not_found: 'Check the method and the path against the API reference: data operations are POSTs under `/v1`.',
  institution_not_found: 'Find institution ids with `institutions/search`.',
  webhook_endpoint_not_found: 'List the endpoints with `webhooks/endpoints/list`.',
  event_not_found: 'List recent deliveries with `webhooks/deliveries/list` for their event ids.',
  provider_error: 'Check `items/get` for the item\'s status; the next scheduled refresh retries on its own.',
  graphql_syntax_error: 'Try the query in GraphiQL (`GET /v1/graphql`), which marks syntax errors as you type.',
  graphql_validation_failed: 'Check field names and variable types against the schema (GraphiQL\'s Docs panel).',
  graphql_query_too_deep: 'Nest fewer levels, or split the query in two.',
  graphql_too_many_items: 'Query fewer items per request.',
};

/** The statuses a client may retry the same request on (after Retry-After when the answer has one). */
const RETRYABLE_STATUSES = new Set([409, 429, 500, 502, 503]);

function retryAdvice(code: ErrorCode): string {
  const status = statusOf(code);
  if (!RETRYABLE_STATUSES.has(status)) return 'Do not retry unchanged.';
  return status === 429 || status === 409 || status === 503 ? 'Retryable: after the `Retry-After` header\'s seconds.' : 'Retryable, with exponential backoff.';
}

/** Inline code spans (`x`) as <code>; everything else escaped. */
function prose(text: string): string {
  return text
    .split('`')
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

const PAGE_CSS = [
  ':root{color-scheme:light}',
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1b2733;background:#fff}',
  'header{background:#0f2e4a;color:#fff;padding:.75rem 1rem;display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}',
  'header a{color:#fff}header strong{margin-right:auto}',
  'main{max-width:60rem;margin:0 auto;padding:1rem}',
  'code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;background:#eef2f6;padding:0 .2em;border-radius:3px}',
  'pre{background:#eef2f6;padding:.75rem;overflow:auto;border-radius:4px}pre code{background:none;padding:0}',
  'table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #d5dde5;vertical-align:top}',
  'section{border-top:1px solid #d5dde5;padding:.5rem 0 1rem}section:target{background:#fff8e1}',
  'h2{font-size:1.15rem;margin:.75rem 0 .25rem}h2 a{color:inherit;text-decoration:none}h2 a:hover{text-decoration:underline}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:.25rem 0}dt{font-weight:600}dd{margin:0}',
  'a{color:#0b5cad}',
].join('');

const PAGE_CSS_HASH = createHash('sha256').update(PAGE_CSS, 'utf8').digest('base64');

export function errorsContentSecurityPolicy(): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${PAGE_CSS_HASH}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The console's codes: the session, not an API key, is what an authentication error is about. */
const CONSOLE_TYPE_ADVICE: Partial<Record<ErrorType, string>> = {
  authentication_error: 'Sign in to the console again (its session cookie is missing, expired or was refused).',
};

function entry(code: ErrorCode): string {
  const def = ERRORS[code];
  const display = displayMessageOf(code);
  const typeAdvice = isPublicErrorCode(code) ? TYPE_ADVICE[def.type] : (CONSOLE_TYPE_ADVICE[def.type] ?? TYPE_ADVICE[def.type]);
  const advice = [typeAdvice, CODE_ADVICE[code], retryAdvice(code)].filter((a): a is string => Boolean(a)).join(' ');
  const anchor = errorDocumentationPath(code).split('#')[1]!;
  return `<section id="${escapeHtml(anchor)}">
<h2><a href="#${escapeHtml(anchor)}"><code>${escapeHtml(code)}</code></a></h2>
<dl>
<dt>HTTP status</dt><dd>${statusOf(code)}</dd>
<dt>Type</dt><dd><code>${escapeHtml(def.type)}</code></dd>
<dt>Message</dt><dd>${prose(def.message)}</dd>
<dt>What to do</dt><dd>${prose(advice)}</dd>
<dt>Shown to end users</dt><dd>${display === null ? 'Nothing: <code>display_message</code> is null, the error is the integration\'s to fix.' : escapeHtml(display)}</dd>
</dl>
</section>`;
}

/** The codes only the console's own API answers (not in openapi.json): their entries follow the public ones. */
export function consoleOnlyErrorCodes(): ErrorCode[] {
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => !isPublicErrorCode(code));
}

function renderBody(): string {
  const codes = publicErrorCodes();
  const consoleCodes = consoleOnlyErrorCodes();
  const consoleIndex = consoleCodes.map((c) => `<a href="#${escapeHtml(c)}"><code>${escapeHtml(c)}</code></a>`).join(', ');
  const types = Object.keys(ERROR_TYPES) as ErrorType[];
  const index = types
    .map((type) => {
      const ofType = codes.filter((c) => ERRORS[c].type === type);
      if (ofType.length === 0) return '';
      const list = ofType.map((c) => `<a href="#${escapeHtml(c)}"><code>${escapeHtml(c)}</code></a>`).join(', ');
      return `<tr><td><code>${escapeHtml(type)}</code></td><td>${list}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Fincore API error codes</title>
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
</head>
<body>
<header><strong>Fincore API error codes</strong>
<nav aria-label="Documentation"><a href="..${escapeHtml(DOCS_PATH)}">API reference</a> <a href="../openapi.json">openapi.json</a> <a href="../llms-full.txt">llms-full.txt</a></nav></header>
<main>
<p>Every error the API answers has this body, with a non-2xx status:</p>
<pre><code>{"error": {"type": "invalid_request", "code": "missing_field", "message": "...", "request_id": "...",
           "documentation_url": "{base_url}/docs/errors#missing_field", "display_message": null}}</code></pre>
<p>Branch on <code>code</code> (stable), not on <code>message</code> (it may name the field or the value at fault).
<code>documentation_url</code> links to the code's entry below; <code>display_message</code> is a sentence you may show your end user, or null when the error is the integration's to fix.
GraphQL carries the same fields in <code>errors[].extensions</code>, MCP in the JSON-RPC error's <code>data</code>.</p>
<table><thead><tr><th>type</th><th>codes</th></tr></thead><tbody>
${index}
</tbody></table>
${codes.map(entry).join('\n')}
<h2 id="console-api">Console API</h2>
<p>Codes only the console's own API (<code>/console/api/...</code>, called by the console's web app with its session cookie) answers; no API key reaches them: ${consoleIndex}.</p>
${consoleCodes.map(entry).join('\n')}
</main>
</body>
</html>
`;
}

let rendered: string | undefined;

/** The page; the same for every request (built once per process). */
export function renderErrorsPage(): RenderedResponse {
  rendered ??= renderBody();
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': errorsContentSecurityPolicy(),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: rendered,
  };
}
