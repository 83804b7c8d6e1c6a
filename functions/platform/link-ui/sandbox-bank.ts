// The simulated bank consent page of the sandbox's OAuth institutions (GET
// /link/sandbox/oauth/authorize): what a user sees at a real bank's OAuth consent, reduced to Allow
// and Deny, and labelled as a sandbox everywhere. Server-rendered, no script: the two buttons POST a
// form to the same path, which records the answer and redirects back (to the link token's
// redirect_uri or Link's own callback); a GET only ever shows the page. It refuses to be framed, like
// every bank's consent page.
import { randomBytes } from 'node:crypto';
import type { ApiEvent } from '../middleware';
import type { RenderedResponse } from '../operation';
import { escapeHtml } from './page';

/** The largest form the page submits (three short fields), with room to spare. */
const FORM_MAX_BYTES = 4096;

/**
 * The fields of the page's submitted form (application/x-www-form-urlencoded, as browsers send it);
 * null for any other body, so only the form, not a JSON or text request, can answer a consent.
 */
export function sandboxBankForm(event: Pick<ApiEvent, 'body' | 'isBase64Encoded' | 'headers'>): Record<string, string> | null {
  const contentType = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (contentType.split(';')[0].trim().toLowerCase() !== 'application/x-www-form-urlencoded') return null;
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  if (Buffer.byteLength(raw, 'utf8') > FORM_MAX_BYTES) return null;
  const form: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    // A repeated field is ambiguous: refuse rather than pick one.
    if (name in form) return null;
    form[name] = value;
  }
  return form;
}

/** What the consent page shows and where its form goes. */
export interface SandboxBankConsent {
  institutionName: string;
  clientName: string;
  /** The form's fields (session, state, institution_id), sent back with the decision. */
  fields: Record<string, string>;
  /** The origin the decision redirects to, allowed as a form target (the redirect is part of the submission). */
  returnOrigin: string | null;
}

function headers(nonce: string, formTargets: string): Record<string, string> {
  return {
    'Content-Security-Policy': [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      "base-uri 'none'",
      `form-action ${formTargets}`,
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f1f5f9; color: #0f172a; }
  .banner { background: #92400e; color: #fff; padding: 8px 16px; font-size: 14px; text-align: center; }
  main { max-width: 440px; margin: 40px auto; background: #fff; border: 1px solid #cbd5e1; border-radius: 12px; padding: 28px; }
  h1 { font-size: 22px; margin: 0 0 12px; }
  p, li { line-height: 1.5; }
  .actions { display: flex; gap: 12px; margin-top: 24px; }
  button { font: inherit; font-size: 16px; padding: 10px 18px; border-radius: 8px; cursor: pointer; border: 2px solid #1e3a8a; }
  button[value="allow"] { background: #1e3a8a; color: #fff; }
  button[value="deny"] { background: #fff; color: #1e3a8a; }
  button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .fine { color: #475569; font-size: 14px; }
`;

function page(nonce: string, title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<div class="banner" role="note">Sandbox bank: a simulated consent page for testing. No real bank or data is involved.</div>
<main>
${main}
</main>
</body>
</html>`;
}

export function renderSandboxBankConsent(consent: SandboxBankConsent): RenderedResponse {
  const nonce = randomBytes(16).toString('base64');
  const hidden = Object.entries(consent.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n  ');
  const bank = escapeHtml(consent.institutionName);
  const main = `<h1>${bank} (sandbox)</h1>
<p><strong>${escapeHtml(consent.clientName)}</strong> asks, through Fincore, to read your ${bank} accounts:</p>
<ul>
  <li>account names, numbers (last four digits) and balances</li>
  <li>transactions</li>
</ul>
<p class="fine">In the sandbox nothing is signed in: Allow connects the simulated accounts of <code>user_good</code>; Deny sends you back as if you had declined.</p>
<form method="post" action="authorize">
  ${hidden}
  <div class="actions">
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny">Deny</button>
  </div>
</form>`;
  const targets = ["'self'", ...(consent.returnOrigin ? [consent.returnOrigin] : [])].join(' ');
  return { statusCode: 200, headers: headers(nonce, targets), body: page(nonce, `${consent.institutionName} (sandbox) · Consent`, main) };
}

/** The request does not name a consent under way (a stale, replayed or made-up URL). */
export function renderSandboxBankInvalid(): RenderedResponse {
  const nonce = randomBytes(16).toString('base64');
  const main = `<h1>This sign-in request isn\u2019t valid</h1>
<p>It has expired, was already answered, or was not started by Fincore Link.</p>
<p>Go back to the app and start connecting your account again.</p>`;
  return { statusCode: 400, headers: headers(nonce, "'none'"), body: page(nonce, 'Sandbox bank · Invalid request', main) };
}

/** The user answered: back to the link token's redirect_uri or to Link's own callback. */
export function sandboxBankRedirect(location: string): RenderedResponse {
  return { statusCode: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }, body: '' };
}
