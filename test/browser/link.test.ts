// Hosted Link and the Link SDK in a real browser: Debian's Chromium (/usr/bin/chromium, see
// bin/ensure-test-deps.sh) driven by playwright-core, which never downloads a browser. One browser
// per file with an empty temporary profile; the service is the real local stack. Integrator pages
// (an SDK host page, a redirect_uri landing page) are served from another loopback origin.
import type { Server } from 'node:http';
import { type BrowserContext, type Frame, type FrameLocator, type Page, type Response } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './chromium';
import { mintToken, tokenHash } from '../../functions/core/tokens';
import { putLinkSession, updateItemState } from '../../functions/data/items-repo';
import type { LinkExitMetadata, LinkSuccessMetadataView, PublicLinkError } from '../../functions/platform/link-ui/protocol';
import { startTestStack, type TestStack } from '../support/stack';
import { LANDING_PAGE, serveIntegratorSite } from './integrator-site';

const BANK = 'Sandbox First Bank';
const BANK_ID = 'ins_sandbox_first_bank';
const CLIENT = 'Acme Budget';

let stack: TestStack;
let context: BrowserContext;
let browser: LaunchedChromium | undefined;
let integrator: { server: Server; origin: string };

/** Pages of the integrator's own site, on a different origin (127.0.0.1 vs localhost, other port). */
function integratorSite(linkBaseUrl: string): Promise<{ server: Server; origin: string }> {
  const hostPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Budget</title></head>
<body>
<h1>Acme Budget</h1>
<button type="button" id="open">Connect a bank</button>
<pre id="success"></pre>
<pre id="exit"></pre>
<script src="${linkBaseUrl}/link/sdk.js"></script>
<script>
  var token = new URLSearchParams(location.search).get('token');
  var link = FincoreLink.create({
    token: token,
    onSuccess: function (publicToken, metadata) {
      document.getElementById('success').textContent = JSON.stringify({ public_token: publicToken, metadata: metadata });
    },
    onExit: function (error, metadata) {
      var node = document.getElementById('exit');
      node.textContent = JSON.stringify({ error: error, metadata: metadata });
      node.setAttribute('data-count', String(Number(node.getAttribute('data-count') || '0') + 1));
    }
  });
  document.getElementById('open').addEventListener('click', function () { link.open(); });
</script>
</body></html>`;
  return serveIntegratorSite({ '/host': hostPage, '/landing': LANDING_PAGE });
}

beforeAll(async () => {
  stack = await startTestStack();
  integrator = await integratorSite(stack.baseUrl);
  browser = await launchChromium('fc-link-chromium-');
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (integrator ? integrator.server.close(resolve) : resolve(undefined)));
  await stack?.stop();
});

// Playwright waits time out after 20 s (below); the test timeout is higher so that a stuck step
// fails with Playwright's own message rather than Jest's generic timeout.
jest.setTimeout(120_000);

let page: Page;
beforeEach(async () => {
  page = await context.newPage();
});
afterEach(async () => {
  await page?.close();
});

// ---------- helpers ----------

async function createLinkToken(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await stack.call('/v1/link/token/create', {
    body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], ...extra },
  });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

async function exchange(publicToken: string) {
  return stack.call('/v1/link/token/exchange', { body: { public_token: publicToken } });
}

function linkUrl(token: string): string {
  return `${stack.baseUrl}/link?token=${token}`;
}

type Scope = Page | Frame | FrameLocator;
type Evaluator = Page | Frame;

/**
 * Accessibility rules every screen keeps: each input/select has a label with text; every clickable
 * is a <button> with visible text; one h1, which has focus right after the screen appears.
 */
async function a11yProblems(target: Evaluator, expectHeadingFocus: boolean): Promise<string[]> {
  return target.evaluate((checkFocus) => {
    const problems: string[] = [];
    for (const node of Array.from(document.querySelectorAll('input, select, textarea'))) {
      const control = node as HTMLInputElement;
      if (control.type === 'hidden') continue;
      const labels = Array.from(control.labels ?? []);
      if (!labels.some((l) => (l.textContent ?? '').trim() !== '')) problems.push(`<${control.tagName.toLowerCase()} id=${control.id}> has no label`);
    }
    const clickables = document.querySelectorAll('a, button, [role="button"], [role="link"], [onclick], [tabindex]:not([tabindex="-1"])');
    for (const node of Array.from(clickables)) {
      if (node instanceof HTMLInputElement || node instanceof HTMLSelectElement) continue;
      if (!(node instanceof HTMLButtonElement)) problems.push(`clickable <${node.tagName.toLowerCase()}> is not a button`);
      else if ((node.textContent ?? '').trim() === '') problems.push('a button has no visible text');
    }
    const headings = document.querySelectorAll('h1');
    if (headings.length !== 1) problems.push(`${headings.length} h1 elements`);
    else if (checkFocus && document.activeElement !== headings[0]) problems.push(`focus is on <${document.activeElement?.tagName.toLowerCase()}>, not the heading`);
    return problems;
  }, expectHeadingFocus);
}

/** Waits for the screen whose h1 matches, then checks the accessibility rules on it. */
async function onScreen(scope: Scope, name: RegExp, evaluator: Evaluator | null = scope as Evaluator, expectHeadingFocus = true) {
  await scope.getByRole('heading', { level: 1, name }).waitFor();
  if (evaluator) expect(await a11yProblems(evaluator, expectHeadingFocus)).toEqual([]);
}

async function pickInstitution(scope: Scope, name: string, evaluator: Evaluator | null) {
  await onScreen(scope, /Select your institution/, evaluator);
  await scope.getByLabel('Search institutions').fill(name);
  await scope.getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

async function signIn(scope: Scope, username: string, password: string) {
  await scope.getByLabel('Username', { exact: true }).fill(username);
  await scope.getByLabel('Password', { exact: true }).fill(password);
  await scope.getByRole('button', { name: 'Submit' }).click();
}

function linkApiResponse(p: Page, path: 'connect' | 'mfa' | 'method'): Promise<Response> {
  return p.waitForResponse((r) => r.url().endsWith(`/link/api/${path}`));
}

/**
 * The public token of a connection, from the step that connected: Link then asks which accounts to
 * share (test/browser/link-flow.test.ts covers that pane), so the token is exchangeable once
 * shareAllAccounts has kept them all.
 */
async function connectedPublicToken(res: Response, status: 'select_accounts' | 'connected' = 'select_accounts'): Promise<string> {
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.status).toBe(status);
  return body.public_token as string;
}

/** The account-selection pane after every connection: Continue keeps every account (all preselected). */
async function shareAllAccounts(scope: Scope): Promise<void> {
  await scope.getByRole('heading', { level: 1, name: 'Choose the accounts to share' }).waitFor();
  await scope.getByRole('button', { name: 'Continue' }).click();
}

// ---------- the page without a browser: headers, error pages, the SDK file ----------

describe('GET /link and /link/sdk.js', () => {
  it('serves the flow with a strict CSP, no referrer, no caching, and the token only in the escaped config', async () => {
    const token = await createLinkToken({ client_name: 'Acme </script><script>alert(1)</script>' });
    const res = await fetch(linkUrl(token));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html.split(token).length - 1).toBe(1);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('\\u003c/script\\u003e');
  });

  it('lets only the declared parent origin frame an embedded page, and refuses a non-http(s) origin', async () => {
    const token = await createLinkToken();
    const ok = await fetch(`${linkUrl(token)}&embed=1&origin=${encodeURIComponent(integrator.origin)}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-security-policy')).toContain(`frame-ancestors ${integrator.origin}`);
    expect(ok.headers.get('x-frame-options')).toBeNull();
    for (const origin of ['javascript:alert(1)', 'null', `${integrator.origin}/path`, '*', '']) {
      const bad = await fetch(`${linkUrl(token)}&embed=1&origin=${encodeURIComponent(origin)}`);
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(html).toContain('can’t be shown here');
      expect(html).not.toContain(token);
    }
  });

  it('answers an error page, not the flow, for a missing or unknown token', async () => {
    for (const url of [`${stack.baseUrl}/link`, `${stack.baseUrl}/link?token=fc_link_doesnotexist`, `${stack.baseUrl}/link?token=%3Cb%3E`]) {
      const res = await fetch(url);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('This link isn’t valid');
      expect(html).toContain('ask the app for a new link');
      expect(html).not.toContain('fc-link-config');
      expect(html).not.toContain('<b>');
    }
  });

  it('serves the SDK as JavaScript', async () => {
    const res = await fetch(`${stack.baseUrl}/link/sdk.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain('FincoreLink');
    expect(() => new Function(js)).not.toThrow();
  });
});

// ---------- the hosted flow ----------

describe('hosted Link', () => {
  it('connects user_good / pass_good, and the public token exchanges for an access token', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onScreen(page, new RegExp(`${CLIENT} uses Fincore to connect your accounts`));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    await onScreen(page, new RegExp(`Sign in to ${BANK}`));
    expect(await page.getByText('Sandbox: user_good / pass_good').isVisible()).toBe(true);
    const connected = linkApiResponse(page, 'connect');
    await signIn(page, 'user_good', 'pass_good');
    const publicToken = await connectedPublicToken(await connected);
    await shareAllAccounts(page);
    await onScreen(page, /Account connected/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, /all set/i);

    const res = await exchange(publicToken);
    expect(res.status).toBe(200);
    expect(res.json.access_token).toMatch(/^fc_at_/);
    expect(res.json.rotated).toBe(false);
  });

  it('can be driven by keyboard alone', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onScreen(page, /uses Fincore/);
    const focused = () => page.evaluate(() => `${document.activeElement?.tagName.toLowerCase()}:${(document.activeElement?.textContent ?? '').trim() || (document.activeElement as HTMLInputElement | null)?.id}`);

    await page.keyboard.press('Tab');
    expect(await focused()).toBe('button:Continue');
    await page.keyboard.press('Enter');
    await onScreen(page, /Select your institution/);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('input:fc-search');
    await page.keyboard.type('sandbox first');
    await page.getByRole('button', { name: new RegExp(`^${BANK}`) }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#fc-results button').length === 1);
    await page.keyboard.press('Tab'); // type filter
    expect(await focused()).toMatch(/^select:/);
    await page.keyboard.press('Tab'); // country filter
    await page.keyboard.press('Tab'); // the one result
    expect(await focused()).toMatch(new RegExp(`^button:.?${BANK}`));
    await page.keyboard.press('Enter');
    await onScreen(page, new RegExp(`Sign in to ${BANK}`));
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('input:fc-username');
    await page.keyboard.type('user_good');
    await page.keyboard.press('Tab');
    await page.keyboard.type('pass_good');
    const connected = linkApiResponse(page, 'connect');
    await page.keyboard.press('Enter');
    const publicToken = await connectedPublicToken(await connected);
    await onScreen(page, /Choose the accounts to share/);
    // Select all, Select none, each account's checkbox, then Continue.
    for (let tabs = 0; tabs < 20 && (await focused()) !== 'button:Continue'; tabs += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await onScreen(page, /Account connected/);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('button:Continue');
    await page.keyboard.press('Enter');
    await onScreen(page, /all set/i);
    expect((await exchange(publicToken)).status).toBe(200);
  });

  it('filters institutions by name as you type, by type and by country, in popularity order', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, /Select your institution/);
    const names = () => page.locator('#fc-results .inst-name').allTextContents();
    await page.waitForFunction(() => document.querySelectorAll('#fc-results button').length > 0);
    const browse = await names();
    expect(browse.length).toBeGreaterThan(1);
    expect(browse[0]).toBe(BANK); // the most popular institution comes first

    await page.getByLabel('Search institutions').pressSequentially('sandbox', { delay: 20 });
    await page.waitForFunction(() => Array.from(document.querySelectorAll('#fc-results .inst-name')).every((n) => n.textContent!.startsWith('Sandbox')));
    await page.getByLabel('Country').selectOption('GB');
    await page.getByRole('button', { name: /^Sandbox Thames Bank/ }).waitFor();
    await page.waitForFunction(() => !Array.from(document.querySelectorAll('#fc-results .inst-name')).some((n) => n.textContent === 'Sandbox First Bank'));
    await page.getByLabel('Country').selectOption('');
    await page.getByLabel('Type').selectOption('credit_union');
    await page.getByRole('button', { name: /^Sandbox Credit Union/ }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('#fc-results button').length === 1);
    await page.getByLabel('Search institutions').fill('no such institution zzz');
    await page.getByText(/No institutions match/).waitFor();
    expect(await a11yProblems(page, false)).toEqual([]);
  });

  it('asks user_mfa for a code: a wrong code is a retryable error, then 1234 connects', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    await signIn(page, 'user_mfa', 'pass_good');
    await onScreen(page, /Enter your verification code/);
    await page.getByLabel('Verification code', { exact: true }).fill('0000');
    await page.getByRole('button', { name: 'Submit' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /incorrect/ });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/attempts? left/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('fc-code');
    expect(await a11yProblems(page, false)).toEqual([]);

    const connected = linkApiResponse(page, 'mfa');
    await page.getByLabel('Verification code', { exact: true }).fill('1234');
    await page.getByRole('button', { name: 'Submit' }).click();
    const publicToken = await connectedPublicToken(await connected);
    await shareAllAccounts(page);
    await onScreen(page, /Account connected/);
    expect((await exchange(publicToken)).status).toBe(200);
  });

  it('ends user_locked on the error screen (item_locked) with no public token', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    const answered = linkApiResponse(page, 'connect');
    await signIn(page, 'user_locked', 'pass_good');
    const res = await answered;
    expect(res.status()).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('item_locked');
    expect(JSON.stringify(body)).not.toContain('fc_pub_');
    await onScreen(page, /Your login is locked/);
    expect(await page.getByText('Error code: item_locked').isVisible()).toBe(true);
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Exit' }).click();
    await onScreen(page, /close this window/);
  });

  it('shows a wrong password inline as invalid credentials, and a retry with the right one connects', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    await signIn(page, 'user_good', 'wrong_password');
    const alert = page.getByRole('alert').filter({ hasText: /username or password is incorrect/ });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/4 attempts left/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Sign in to ${BANK}`);
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await a11yProblems(page, false)).toEqual([]);

    const connected = linkApiResponse(page, 'connect');
    await page.getByLabel('Password', { exact: true }).fill('pass_good');
    await page.getByRole('button', { name: 'Submit' }).click();
    const publicToken = await connectedPublicToken(await connected);
    await shareAllAccounts(page);
    await onScreen(page, /Account connected/);
    expect((await exchange(publicToken)).status).toBe(200);
  });

  it('locks the session after 5 wrong attempts: the error screen says too_many_attempts', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    for (let left = 4; left >= 1; left -= 1) {
      await signIn(page, 'user_good', `wrong_${left}`);
      await page.getByRole('alert').filter({ hasText: `${left} attempt${left === 1 ? '' : 's'} left` }).waitFor();
    }
    await signIn(page, 'user_good', 'wrong_again');
    await onScreen(page, /Too many attempts/);
    expect(await page.getByText('Error code: too_many_attempts').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Exit' }).isVisible()).toBe(true);
  });

  it('ends on the error screen with provider_error for a live key whose institution no configured connector serves, without the sandbox hint', async () => {
    const live = stack.keys.find((k) => k.environment === 'live')!.key;
    // Barclays' chain (open banking, then two aggregators) has no file import, and nothing is configured here.
    const created = await stack.call('/v1/link/token/create', {
      key: live,
      body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], institution_id: 'ins_barclays' },
    });
    expect(created.status).toBe(200);
    await page.goto(linkUrl(created.json.link_token));
    await onScreen(page, /uses Fincore/);
    expect(await page.getByText('Sandbox', { exact: true }).count()).toBe(0);
    const asked = linkApiResponse(page, 'method');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect((await (await asked).json()).method).toBeNull();
    await onScreen(page, /We couldn’t reach your institution/);
    expect(await page.getByText('Error code: provider_error').isVisible()).toBe(true);
    expect(await page.getByText(/user_good/).count()).toBe(0);
  });

  it('offers a live key the statement upload where the institution\u2019s chain ends in the file importer', async () => {
    const live = stack.keys.find((k) => k.environment === 'live')!.key;
    const created = await stack.call('/v1/link/token/create', {
      key: live,
      body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], institution_id: 'ins_chase' },
    });
    await page.goto(linkUrl(created.json.link_token));
    await onScreen(page, /uses Fincore/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, /statement/i);
    expect(await page.getByLabel(/statement/i).count()).toBeGreaterThan(0);
  });

  it('shows the error page for an expired link token', async () => {
    const token = mintToken('link');
    await putLinkSession(stack.deps, {
      linkTokenHash: tokenHash(token),
      linkSessionId: 'lnk_expiredsession',
      applicationId: stack.keys[0].applicationId,
      environment: 'test',
      clientName: CLIENT,
      clientUserId: 'user-1',
      products: ['transactions'],
      institutionId: null,
      updateItemId: null,
      webhook: null,
      redirectUri: null,
      language: 'en',
      expiresAt: Date.now() - 1000,
    });
    const res = await page.goto(linkUrl(token));
    expect(res?.status()).toBe(400);
    await onScreen(page, /This link has expired/, page, false);
    expect(await page.getByText(/ask the app for a new link/).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.locator('input').count()).toBe(0);
  });

  it('shows the error page when the link was already used (reloading after connecting)', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    await signIn(page, 'user_good', 'pass_good');
    await shareAllAccounts(page);
    await onScreen(page, /Account connected/);
    const res = await page.goto(linkUrl(token));
    expect(res?.status()).toBe(400);
    await onScreen(page, /This link was already used/, page, false);
    expect(await page.getByText(/ask the app for a new link/).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
  });

  it('reconnects an item in update mode: institution fixed, the exchange rotates the access token', async () => {
    const created = await stack.call('/v1/sandbox/public_token/create', { body: { institution_id: BANK_ID, products: ['transactions'] } });
    expect(created.status).toBe(200);
    const first = await exchange(created.json.public_token);
    expect(first.status).toBe(200);
    const { access_token: oldToken, item_id: itemId } = first.json;
    await stack.historyLoaded(itemId);
    await updateItemState(stack.deps, itemId, {
      status: 'login_required',
      error: { type: 'item_error', code: 'item_login_required', message: 'The login details of this item have changed.' },
    });

    const token = await createLinkToken({ update_item_id: itemId });
    await page.goto(linkUrl(token));
    await onScreen(page, new RegExp(`Reconnect your ${BANK} account`));
    expect(await page.getByText(`${CLIENT} uses Fincore to connect your accounts`, { exact: false }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, new RegExp(`Sign in to ${BANK}`));
    expect(await page.getByLabel('Search institutions').count()).toBe(0);
    // The institution is fixed: Back leads to the reconnect pane, never to the institution list.
    await page.getByRole('button', { name: 'Back' }).click();
    await onScreen(page, new RegExp(`Reconnect your ${BANK} account`));
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, new RegExp(`Sign in to ${BANK}`));
    const connected = linkApiResponse(page, 'connect');
    await signIn(page, 'user_good', 'pass_good');
    // Update mode keeps the item's choice of accounts unless the token enables the selection.
    const publicToken = await connectedPublicToken(await connected, 'connected');
    await onScreen(page, /Account connected/);

    const rotated = await exchange(publicToken);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({ item_id: itemId, rotated: true });
    const newToken = rotated.json.access_token as string;
    expect(newToken).not.toBe(oldToken);
    const old = await stack.call('/v1/items/get', { body: { access_token: oldToken } });
    expect(old.status).toBe(400);
    expect(old.json.error.code).toBe('invalid_access_token');
    const fresh = await stack.call('/v1/items/get', { body: { access_token: newToken } });
    expect(fresh.status).toBe(200);
    expect(fresh.json.item).toMatchObject({ item_id: itemId, status: 'healthy', error: null });
  });

  it('skips the institution screen when the link token preselects one', async () => {
    const token = await createLinkToken({ institution_id: BANK_ID });
    await page.goto(linkUrl(token));
    await onScreen(page, /uses Fincore/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, new RegExp(`Sign in to ${BANK}`));
    expect(await page.getByLabel('Search institutions').count()).toBe(0);
  });

  it('sends the browser to redirect_uri with the public token and item id after success', async () => {
    const token = await createLinkToken({ redirect_uri: `${integrator.origin}/landing?from=link` });
    await page.goto(linkUrl(token));
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK, page);
    await signIn(page, 'user_good', 'pass_good');
    await shareAllAccounts(page);
    await onScreen(page, /Account connected/);
    const landingRequest = page.waitForRequest((r) => r.url().startsWith(`${integrator.origin}/landing`));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === integrator.origin && url.pathname === '/landing');
    await page.getByRole('heading', { name: 'Back at Acme' }).waitFor();
    const url = new URL(page.url());
    expect(url.searchParams.get('from')).toBe('link');
    const publicToken = url.searchParams.get('public_token')!;
    expect(publicToken).toMatch(/^fc_pub_/);
    expect(url.searchParams.get('item_id')).toMatch(/^item_/);
    // The link token (in Link's own URL) is not leaked to the integrator's site through Referer.
    expect((await landingRequest).headers()['referer']).toBeUndefined();
    const res = await exchange(publicToken);
    expect(res.status).toBe(200);
    expect(res.json.item_id).toBe(url.searchParams.get('item_id'));
  });
});

// ---------- the SDK modal on an integrator's page ----------

describe('Link SDK', () => {
  async function openModal(token: string): Promise<{ link: FrameLocator; frame: Frame }> {
    if (!page.url().startsWith(`${integrator.origin}/host`)) await page.goto(`${integrator.origin}/host?token=${token}`);
    await page.getByRole('button', { name: 'Connect a bank' }).click();
    const link = page.frameLocator('iframe[title="Fincore Link"]');
    await link.getByRole('heading', { level: 1, name: /uses Fincore/ }).waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${stack.baseUrl}/link?`));
    if (!frame) throw new Error('the Link iframe is not loaded');
    expect(await page.getByRole('dialog').count()).toBe(1);
    return { link, frame };
  }
  /**
   * Escape with focus inside the Link iframe, which closes (removes) the iframe. Chromium sometimes
   * never acknowledges a key event whose target frame is removed while the key is down (seen here:
   * keyboard.press hung until the test timed out), so the key is released once the modal is gone.
   */
  async function escapeInsideModal<T>(closed: () => Promise<T>): Promise<T> {
    await page.keyboard.down('Escape');
    const result = await closed();
    await page.keyboard.up('Escape');
    return result;
  }
  /** What the host page recorded from onSuccess / onExit. */
  interface HostResults {
    success: { public_token: string; metadata: LinkSuccessMetadataView };
    exit: { error: PublicLinkError | null; metadata: LinkExitMetadata };
  }
  const hostResult = async <Id extends keyof HostResults>(id: Id): Promise<HostResults[Id]> => {
    await page.waitForFunction((which) => (document.getElementById(which)?.textContent ?? '') !== '', id);
    return JSON.parse((await page.locator(`#${id}`).textContent())!) as HostResults[Id];
  };

  it('runs the flow in a modal iframe and hands onSuccess the public token and metadata', async () => {
    const token = await createLinkToken();
    const { link, frame } = await openModal(token);
    expect(frame.url()).toContain(`&embed=1&origin=${encodeURIComponent(integrator.origin)}`);
    // The SDK focuses the iframe when it has loaded, and the page hands focus to its heading.
    await frame.waitForFunction(() => document.activeElement?.tagName === 'H1');
    expect(await a11yProblems(frame, true)).toEqual([]);

    // A message that does not come from the Link iframe is ignored. Messages are dispatched in the
    // order they were posted, so once a second message has arrived the SDK has handled the forged one.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const marker = 'after-the-forged-message';
          window.addEventListener('message', function afterForged(event) {
            if (event.data !== marker) return;
            window.removeEventListener('message', afterForged);
            resolve();
          });
          window.postMessage({ source: 'fincore-link', type: 'success', public_token: 'fc_pub_forged', metadata: {} }, '*');
          window.postMessage(marker, '*');
        }),
    );
    expect(await page.locator('#success').textContent()).toBe('');
    expect(await page.getByRole('dialog').count()).toBe(1);

    await link.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(link, BANK, frame);
    await onScreen(link, new RegExp(`Sign in to ${BANK}`), frame);
    await signIn(link, 'user_good', 'pass_good');
    await shareAllAccounts(link);
    await onScreen(link, /Account connected/, frame);
    await link.getByRole('button', { name: 'Continue' }).click();

    const result = await hostResult('success');
    expect(result.public_token).toMatch(/^fc_pub_/);
    expect(result.metadata).toMatchObject({ institution: { institution_id: BANK_ID, name: BANK } });
    expect(result.metadata.link_session_id).toMatch(/^lnk_/);
    expect(result.metadata.accounts.length).toBeGreaterThan(0);
    expect(await page.locator('iframe[title="Fincore Link"]').count()).toBe(0);
    expect(await page.locator('#exit').textContent()).toBe('');
    const res = await exchange(result.public_token);
    expect(res.status).toBe(200);
    expect(res.json.item_id).toBe(result.metadata.item_id);
  });

  it('calls onExit(null) on Escape and on the Close button', async () => {
    const token = await createLinkToken();
    const { frame } = await openModal(token);
    await frame.waitForFunction(() => document.hasFocus() && document.activeElement?.tagName === 'H1');
    const exit = await escapeInsideModal(() => hostResult('exit'));
    expect(exit.error).toBeNull();
    expect(exit.metadata.link_session_id).toMatch(/^lnk_/);
    expect(await page.locator('[data-fincore-link]').count()).toBe(0);

    // Escape with focus in the host page too. Focus stays in the modal: moving it to the page behind
    // lands on the modal's Close button.
    await openModal(token);
    await page.locator('#open').focus();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.getElementById('exit')?.getAttribute('data-count') === '2');
    expect((await hostResult('exit')).error).toBeNull();

    await openModal(token);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => document.getElementById('exit')?.getAttribute('data-count') === '3');
    expect((await hostResult('exit')).error).toBeNull();
    expect(await page.locator('[data-fincore-link]').count()).toBe(0);
    expect(await page.locator('#success').textContent()).toBe('');
  });

  it('still hands over the public token when the user closes the modal after connecting', async () => {
    const token = await createLinkToken({ institution_id: BANK_ID });
    const { link, frame } = await openModal(token);
    await link.getByRole('button', { name: 'Continue' }).click();
    await signIn(link, 'user_good', 'pass_good');
    await shareAllAccounts(link);
    await onScreen(link, /Account connected/, frame);
    const result = await escapeInsideModal(() => hostResult('success'));
    expect(result.public_token).toMatch(/^fc_pub_/);
    expect(await page.locator('#exit').textContent()).toBe('');
    expect((await exchange(result.public_token)).status).toBe(200);
  });

  it('reports a locked login to onExit with the item_locked error', async () => {
    const token = await createLinkToken();
    const { link, frame } = await openModal(token);
    await link.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(link, BANK, frame);
    await signIn(link, 'user_locked', 'pass_good');
    await onScreen(link, /Your login is locked/, frame);
    // Exit removes the modal and its frame while the click is being delivered: a mouse click through
    // the protocol can then wait out its timeout (seen once in CI), so the button gets a DOM click.
    await link.getByRole('button', { name: 'Exit' }).dispatchEvent('click');
    const exit = await hostResult('exit');
    expect(exit.error).toMatchObject({ type: 'item_error', code: 'item_locked' });
    expect(exit.metadata).toMatchObject({ status: 'ERROR', institution: { institution_id: BANK_ID } });
    expect(await page.locator('#success').textContent()).toBe('');
  });

  it('reports an unusable link to onExit from the error page in the modal, on Exit and on Close', async () => {
    await page.goto(`${integrator.origin}/host?token=fc_link_doesnotexist`);
    const link = page.frameLocator('iframe[title="Fincore Link"]');
    const expectInvalidLinkExit = async (count: string) => {
      await page.waitForFunction((n) => document.getElementById('exit')?.getAttribute('data-count') === n, count);
      const exit = await hostResult('exit');
      expect(exit.error).toMatchObject({ type: 'invalid_request', code: 'invalid_link_token', request_id: expect.any(String), documentation_url: expect.stringMatching(/\/docs\/errors#invalid_link_token$/) });
      expect(exit.metadata).toEqual({ link_session_id: null, status: 'ERROR', institution: null });
      expect(await page.locator('[data-fincore-link]').count()).toBe(0);
    };

    await page.getByRole('button', { name: 'Connect a bank' }).click();
    await link.getByRole('heading', { level: 1, name: /This link isn’t valid/ }).waitFor();
    // Exit removes the modal and its frame while the click is being delivered: a mouse click through
    // the protocol can then wait out its timeout (seen once in CI), so the button gets a DOM click.
    await link.getByRole('button', { name: 'Exit' }).dispatchEvent('click');
    await expectInvalidLinkExit('1');

    // The SDK's Close asks the page, which answers with the error rather than a plain exit.
    await page.getByRole('button', { name: 'Connect a bank' }).click();
    await link.getByRole('heading', { level: 1, name: /This link isn’t valid/ }).waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await expectInvalidLinkExit('2');
    expect(await page.locator('#success').textContent()).toBe('');
  });
});
