// Link's account selection and the sandbox's OAuth redirect in a real browser (Debian's Chromium
// through playwright-core, see ./chromium.ts), against the real local stack. The integrator's pages
// (an SDK host page that is also the link token's redirect_uri) are served from another loopback
// origin. axe-core (from node_modules) checks the selection pane and the bank page: no serious or
// critical finding.
import type { Server } from 'node:http';
import type { BrowserContext, Frame, FrameLocator, Page } from 'playwright-core';
import type { LinkSuccessMetadataView } from '../../functions/platform/link-ui/protocol';
import { startTestStack, type TestStack } from '../support/stack';
import { launchChromium, type LaunchedChromium } from './chromium';
import { AXE_PATH, seriousAxeFindings } from './axe';
import { LANDING_PAGE, serveIntegratorSite } from './integrator-site';

const BANK = 'Sandbox First Bank';
const OAUTH_BANK = 'Sandbox Thames Bank';
const CLIENT = 'Acme Budget';

let stack: TestStack;
let browser: LaunchedChromium | undefined;
let context: BrowserContext;
let integrator: { server: Server; origin: string };

/**
 * The integrator's page, as Plaid's OAuth guide has it: it keeps the link token, opens Link with the
 * SDK, and is also the link token's redirect_uri: opened with `oauth_state_id`, it re-creates the
 * handler with the same token and `receivedRedirectUri: location.href` and opens it at once.
 */
function integratorSite(linkBaseUrl: string): Promise<{ server: Server; origin: string }> {
  const hostPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Budget</title></head>
<body>
<main>
<h1>Acme Budget</h1>
<button type="button" id="open">Connect a bank</button>
<pre id="success"></pre>
<pre id="exit"></pre>
</main>
<script src="${linkBaseUrl}/link/sdk.js"></script>
<script>
  var params = new URLSearchParams(location.search);
  var resuming = params.has('oauth_state_id');
  var token = resuming ? sessionStorage.getItem('acme_link_token') : params.get('token');
  sessionStorage.setItem('acme_link_token', token);
  var link = FincoreLink.create({
    token: token,
    receivedRedirectUri: resuming ? location.href : undefined,
    onSuccess: function (publicToken, metadata) {
      document.getElementById('success').textContent = JSON.stringify({ public_token: publicToken, metadata: metadata });
    },
    onExit: function (error, metadata) {
      document.getElementById('exit').textContent = JSON.stringify({ error: error, metadata: metadata });
    }
  });
  document.getElementById('open').addEventListener('click', function () { link.open(); });
  if (resuming) link.open();
</script>
</body></html>`;
  return serveIntegratorSite({ '/oauth-host': hostPage, '/landing': LANDING_PAGE });
}

beforeAll(async () => {
  stack = await startTestStack();
  integrator = await integratorSite(stack.baseUrl);
  browser = await launchChromium('fc-link-flow-chromium-');
  context = browser.context;
  // axe-core before the pages' own scripts, in every frame (an init script is not subject to CSP).
  await context.addInitScript({ path: AXE_PATH });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (integrator ? integrator.server.close(resolve) : resolve(undefined)));
  await stack?.stop();
});

jest.setTimeout(180_000);

let page: Page;
const problems: string[] = [];
beforeEach(async () => {
  problems.length = 0;
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
});
afterEach(async () => {
  await page?.close();
  expect(problems).toEqual([]);
});

// ---------- helpers ----------

async function createLinkToken(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await stack.call('/v1/link/token/create', { body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], ...extra } });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

async function accountIdsOf(publicToken: string): Promise<string[]> {
  const exchanged = await stack.call('/v1/link/token/exchange', { body: { public_token: publicToken } });
  expect(exchanged.status).toBe(200);
  const accounts = await stack.call('/v1/accounts/get', { body: { access_token: exchanged.json.access_token } });
  expect(accounts.status).toBe(200);
  return (accounts.json.accounts as Array<{ account_id: string }>).map((a) => a.account_id);
}

/** axe-core on the document of `target` as it is now: no serious or critical finding. */
async function expectAccessible(target: Page | Frame, label: string): Promise<void> {
  const violations = await seriousAxeFindings(target);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

async function onScreen(scope: Page | FrameLocator, name: RegExp | string): Promise<void> {
  await scope.getByRole('heading', { level: 1, name }).waitFor();
}

async function pickInstitution(scope: Page | FrameLocator, name: string): Promise<void> {
  await onScreen(scope, /Select your institution/);
  await scope.getByLabel('Search institutions').fill(name);
  await scope.getByRole('button', { name: new RegExp(`^${name}`) }).click();
}

/** The Link frame's document (for axe and focus checks). */
function linkFrame(p: Page): Frame {
  const frame = p.frames().find((f) => f.url().startsWith(`${stack.baseUrl}/link?`));
  if (!frame) throw new Error('the Link iframe is not loaded');
  return frame;
}

// ---------- account selection ----------

describe('the account-selection pane', () => {
  it('offers every account preselected, works with the keyboard alone, needs one account, and limits what is shared', async () => {
    const token = await createLinkToken();
    await page.goto(`${stack.baseUrl}/link?token=${token}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, BANK);
    await page.getByLabel('Username', { exact: true }).fill('user_good');
    await page.getByLabel('Password', { exact: true }).fill('pass_good');
    await page.getByRole('button', { name: 'Submit' }).click();

    await onScreen(page, 'Choose the accounts to share');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    const boxes = page.getByRole('checkbox');
    const total = await boxes.count();
    expect(total).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < total; i += 1) expect(await boxes.nth(i).isChecked()).toBe(true);
    const group = page.getByRole('group', { name: `Your ${BANK} accounts` });
    expect(await group.getByRole('checkbox').count()).toBe(total);
    const count = page.getByRole('status');
    expect(await count.textContent()).toBe(`${total} of ${total} accounts selected`);
    // Each checkbox is named by its account and described by its type, mask and balance.
    const firstName = await boxes.first().getAttribute('aria-describedby');
    expect(await page.locator(`[id="${firstName}"]`).textContent()).toMatch(/ending in \d{4} · balance /);
    await expectAccessible(page, 'account selection');

    // Keyboard only: Tab to "Select none", Enter; then Continue refuses with an alert and focus on the first box.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Select all');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Select none');
    await page.keyboard.press('Enter');
    expect(await count.textContent()).toBe(`0 of ${total} accounts selected`);
    await page.getByRole('button', { name: 'Continue' }).press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Select at least one account to continue.' }).waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    await expectAccessible(page, 'account selection, refused');
    // Space ticks the focused (first) box; Tab then Space ticks the second.
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await count.textContent()).toBe(`2 of ${total} accounts selected`);
    const chosen = [await boxes.nth(0).getAttribute('value'), await boxes.nth(1).getAttribute('value')];

    const selected = page.waitForResponse((r) => r.url().endsWith('/link/api/accounts/select'));
    await page.getByRole('button', { name: 'Continue' }).click();
    const body = await (await selected).json();
    expect(body.status).toBe('connected');
    await onScreen(page, 'Account connected');
    expect(await page.getByRole('list', { name: 'Connected accounts' }).getByRole('listitem').count()).toBe(2);
    expect((await accountIdsOf(body.public_token)).sort()).toEqual([...chosen].sort());
  });

  it('reloaded at the choice, the page opens at the choice again and finishes the connection', async () => {
    const token = await createLinkToken({ institution_id: 'ins_sandbox_first_bank' });
    await page.goto(`${stack.baseUrl}/link?token=${token}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Username', { exact: true }).fill('user_good');
    await page.getByLabel('Password', { exact: true }).fill('pass_good');
    await page.getByRole('button', { name: 'Submit' }).click();
    await onScreen(page, 'Choose the accounts to share');

    await page.reload();
    await onScreen(page, 'Choose the accounts to share');
    const boxes = page.getByRole('checkbox');
    expect(await boxes.count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'Select none' }).click();
    await boxes.first().check();
    const chosen = await boxes.first().getAttribute('value');
    const selected = page.waitForResponse((r) => r.url().endsWith('/link/api/accounts/select'));
    await page.getByRole('button', { name: 'Continue' }).click();
    const body = await (await selected).json();
    expect(body.status).toBe('connected');
    await onScreen(page, 'Account connected');
    expect(await accountIdsOf(body.public_token)).toEqual([chosen]);
  });

  it('speaks the link token\u2019s language', async () => {
    const token = await createLinkToken({ language: 'fr', institution_id: 'ins_sandbox_first_bank' });
    await page.goto(`${stack.baseUrl}/link?token=${token}`);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.getByLabel('Identifiant', { exact: true }).fill('user_good');
    await page.getByLabel('Mot de passe', { exact: true }).fill('pass_good');
    await page.getByRole('button', { name: 'Valider' }).click();
    await onScreen(page, 'Choisissez les comptes à partager');
    expect(await page.getByRole('button', { name: 'Tout désélectionner' }).count()).toBe(1);
    expect(await page.getByRole('status').textContent()).toMatch(/^\d+ comptes sur \d+ sélectionnés$/);
    await expectAccessible(page, 'account selection (fr)');
  });
});

// ---------- the sandbox's OAuth redirect ----------

describe('the sandbox OAuth redirect', () => {
  it('SDK: Link -> the simulated bank -> Allow -> the integrator\u2019s redirect_uri -> Link resumes -> account selection -> onSuccess', async () => {
    const token = await createLinkToken({ redirect_uri: `${integrator.origin}/oauth-host` });
    await page.goto(`${integrator.origin}/oauth-host?token=${token}`);
    await page.getByRole('button', { name: 'Connect a bank' }).click();
    const link = page.frameLocator('iframe[title="Fincore Link"]');
    await onScreen(link, /uses Fincore/);
    await link.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(link, OAUTH_BANK);
    await onScreen(link, `Connect with ${OAUTH_BANK}`);

    // Link asks the SDK to send the integrator's page to the bank, top-level.
    await link.getByRole('button', { name: `Continue to ${OAUTH_BANK}` }).click();
    await page.waitForURL((url) => url.href.startsWith(`${stack.baseUrl}/link/sandbox/oauth/authorize?`));
    await onScreen(page, `${OAUTH_BANK} (sandbox)`);
    expect(await page.getByRole('note').textContent()).toMatch(/Sandbox bank/);
    await expectAccessible(page, 'sandbox bank consent page');

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.origin === integrator.origin && url.pathname === '/oauth-host' && url.searchParams.has('oauth_state_id'));
    // The integrator's page re-opened Link with receivedRedirectUri: the consent resumes, then the selection.
    await onScreen(link, 'Choose the accounts to share');
    await expectAccessible(linkFrame(page), 'account selection (resumed in the SDK modal)');
    const boxes = link.getByRole('checkbox');
    expect(await boxes.count()).toBeGreaterThanOrEqual(2);
    await link.getByRole('button', { name: 'Select none' }).click();
    await boxes.first().check();
    const kept = await boxes.first().getAttribute('value');
    await link.getByRole('button', { name: 'Continue' }).click();
    await onScreen(link, 'Account connected');
    await link.getByRole('button', { name: 'Continue' }).click();

    await page.locator('#success').filter({ hasText: 'public_token' }).waitFor();
    const result = JSON.parse((await page.locator('#success').textContent()) ?? '{}') as { public_token: string; metadata: LinkSuccessMetadataView };
    expect(result.metadata.institution.name).toBe(OAUTH_BANK);
    expect(result.metadata.accounts.map((a) => a.account_id)).toEqual([kept]);
    expect(await page.locator('#exit').textContent()).toBe('');
    expect(await accountIdsOf(result.public_token)).toEqual([kept]);
  });

  it('hosted: Deny comes back as a declined consent the user can retry; Allow then connects and redirects with the public token', async () => {
    const token = await createLinkToken({ redirect_uri: `${integrator.origin}/landing` });
    await page.goto(`${stack.baseUrl}/link?token=${token}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await pickInstitution(page, OAUTH_BANK);
    await page.getByRole('button', { name: `Continue to ${OAUTH_BANK}` }).click();
    await onScreen(page, `${OAUTH_BANK} (sandbox)`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.origin === integrator.origin && url.searchParams.get('error') === 'access_denied');
    // The integrator's page re-opens hosted Link with the URL it was opened at.
    const reopen = (received: string) => page.goto(`${stack.baseUrl}/link?token=${token}&received_redirect_uri=${encodeURIComponent(received)}`);
    await reopen(page.url());
    await onScreen(page, `Connect with ${OAUTH_BANK}`);
    await page.getByRole('alert').filter({ hasText: /declined|denied|did not grant/i }).waitFor();

    await page.getByRole('button', { name: `Continue to ${OAUTH_BANK}` }).click();
    await onScreen(page, `${OAUTH_BANK} (sandbox)`);
    await page.getByRole('button', { name: 'Allow' }).press('Enter');
    await page.waitForURL((url) => url.origin === integrator.origin && url.searchParams.has('oauth_state_id') && !url.searchParams.has('error'));
    await reopen(page.url());
    await onScreen(page, 'Choose the accounts to share');
    await page.getByRole('button', { name: 'Continue' }).click();
    await onScreen(page, 'Account connected');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.origin === integrator.origin && url.searchParams.has('public_token'));
    const publicToken = new URL(page.url()).searchParams.get('public_token') as string;
    expect((await accountIdsOf(publicToken)).length).toBeGreaterThanOrEqual(2);
  });
});
