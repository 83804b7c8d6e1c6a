// The console web app in a real browser: Debian's Chromium driven by playwright-core (as
// test/browser/link.test.ts), against the real local stack with its first console owner. Every
// request that would leave loopback is aborted and recorded; CSP violations and console errors are
// collected; axe-core (from node_modules) checks every page for serious or critical findings.
//
// The steps run in order and build on each other, as a user would: sign in, create an application
// and a key, register a webhook and watch a delivery and its replay, find a request by the id in an
// error answer, read usage and an item, invite a developer and a viewer, and try representative
// actions with each role (the buttons say why they are off; the server refuses when the page is
// out of date). One step does sign-in and key creation with the keyboard only.
import { type BrowserContext, type Locator, type Page } from 'playwright-core';
import { keepToLoopback, launchChromium, type LaunchedChromium } from './chromium';
import { startReceiver, type Receiver } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { AXE_PATH, seriousAxeFindings } from './axe';

let stack: TestStack;
let context: BrowserContext;
let browser: LaunchedChromium | undefined;
let receiver: Receiver;
/** Requests the browser tried to send beyond loopback (aborted). */
let leftLoopback: string[] = [];


/** What the steps pass on to the ones after them. */
const state: {
  owner: { email: string; password: string };
  org: string;
  appId: string;
  appName: string;
  key: string;
  itemId: string;
  accessToken: string;
  developerInvitation: string;
  viewerInvitation: string;
} = {
  owner: { email: '', password: '' },
  org: '',
  appId: '',
  appName: `Browser app ${Date.now().toString(36)}`,
  key: '',
  itemId: '',
  accessToken: '',
  developerInvitation: '',
  viewerInvitation: '',
};

const DEVELOPER = { email: 'dev@example.test', name: 'Dee Veloper', password: 'developer-password-1' };
const VIEWER = { email: 'viewer@example.test', name: 'Vi Ewer', password: 'viewer-password-12' };

/**
 * The first console owner the local stack created at start (functions/platform/local/console-owner.ts):
 * its e-mail and the password shown once in the start banner, which the test stack passes on.
 */
function consoleOwnerOf(s: TestStack): { email: string; password: string } {
  if (!s.consoleOwner) throw new Error('the test stack was started without its console owner (startTestStack(..., { consoleOwner: true }))');
  return s.consoleOwner;
}

beforeAll(async () => {
  stack = await startTestStack(undefined, { consoleOwner: true });
  state.owner = consoleOwnerOf(stack);
  receiver = await startReceiver();
  browser = await launchChromium('fc-console-chromium-');
  context = browser.context;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  leftLoopback = await keepToLoopback(context);
  // axe-core from node_modules, before the page's own scripts. An init script is not subject to the
  // page's CSP (a <script> tag added later would be: the page allows only its nonce'd scripts).
  await context.addInitScript({ path: AXE_PATH });
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

// Playwright waits time out after 45 s (test/browser/chromium.ts); the test timeout is higher so a stuck step fails with
// Playwright's own message.
jest.setTimeout(180_000);

// ---------- the page under watch ----------

let page: Page;
const problems: string[] = [];

async function freshPage(): Promise<Page> {
  if (page && !page.isClosed()) await page.close();
  page = await context.newPage();
  page.on('console', (message) => {
    // A 4xx answer the app handles (401 before sign-in, a 403 the test provokes) logs a resource error: not a problem.
    const handledStatus = /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text());
    if (message.type() === 'error' && !handledStatus) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`csp: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`);
    });
  });
  return page;
}

const consoleUrl = (fragment = '') => `${stack.baseUrl}/console/${fragment}`;

/** Waits for the page whose h1 matches; the h1 has focus (a screen reader announces the new page). */
async function onPage(name: string | RegExp): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, name });
  await heading.waitFor();
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1' || document.activeElement?.closest('dialog') !== null);
  expect(await page.locator('h1').count()).toBe(1);
}

/** axe-core on the page as it is now: no serious or critical finding. */
async function expectAccessible(label: string): Promise<void> {
  const violations = await seriousAxeFindings(page);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

/** A role-gated button the member cannot use: focusable, aria-disabled, and the reason tied to it. */
async function expectRefusedWithReason(button: Locator, reason: RegExp): Promise<void> {
  await expect(button.getAttribute('aria-disabled')).resolves.toBe('true');
  const describedBy = await button.getAttribute('aria-describedby');
  expect(describedBy).toBeTruthy();
  await expect(page.locator(`[id="${describedBy}"]`).innerText()).resolves.toMatch(reason);
}

async function expectUsable(button: Locator): Promise<void> {
  await button.waitFor();
  expect(await button.getAttribute('aria-disabled')).toBeNull();
}

async function signInWithPassword(email: string, password: string): Promise<void> {
  await onPage('Sign in');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(): Promise<void> {
  await page.getByRole('button', { name: /^Account:/ }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await onPage('Sign in');
}

/** The value shown once in the open dialog, then the dialog closed with its button. */
async function takeShownOnce(closeButton: string): Promise<string> {
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('shown-once-value') });
  await dialog.waitFor();
  await expect(dialog.getByText(/will not be shown again/).count()).resolves.toBeGreaterThan(0);
  const value = await dialog.getByTestId('shown-once-value').inputValue();
  await dialog.getByRole('button', { name: closeButton }).click();
  await dialog.waitFor({ state: 'hidden' });
  return value;
}

function appPage(section: string, env: 'test' | 'live' = 'test', query = ''): string {
  return consoleUrl(`#/orgs/${state.org}/apps/${state.appId}/${env}/${section}${query}`);
}

// ---------- a session of the console API outside the browser (the owner acting meanwhile) ----------

async function apiSession(email: string, password: string) {
  const login = await fetch(`${stack.baseUrl}/console/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: stack.baseUrl },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { csrf_token: csrf } = (await login.json()) as { csrf_token: string };
  return async (route: string, body: object): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${stack.baseUrl}/console/api/${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: stack.baseUrl, Cookie: cookie, 'X-CSRF-Token': csrf },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

// ---------- the steps ----------

describe('the console page over HTTP', () => {
  it('answers a no-store shell under a nonce CSP, and its two assets at content-addressed URLs', async () => {
    const shell = await fetch(consoleUrl());
    expect(shell.status).toBe(200);
    expect(shell.headers.get('cache-control')).toBe('no-store');
    const csp = shell.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await shell.text();
    const urls = [...html.matchAll(/(?:src|href)="(\?asset=[^"]+)"/g)].map(([, url]) => new URL(url!.replace(/&amp;/g, '&'), consoleUrl()));
    expect(urls.map((u) => u.searchParams.get('asset'))).toEqual(['console.css', 'console.js']);
    for (const url of urls) {
      const asset = await fetch(url);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    const redirect = await fetch(`${stack.baseUrl}/console`, { redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(new URL(redirect.headers.get('location')!, `${stack.baseUrl}/console`).pathname).toBe('/console/');
  });
});

describe('the console in Chromium', () => {
  it('signs in with the keyboard only and creates a test key with it, focus always visible', async () => {
    await freshPage();
    await page.goto(consoleUrl());
    await onPage('Sign in');
    await expectAccessible('sign-in');

    /** Presses Tab until the focused element matches; fails if it never does (unreachable by keyboard). */
    const tabTo = async (matches: (el: { tag: string; name: string; label: string }) => boolean, what: string) => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          const input = el as HTMLInputElement | null;
          return {
            tag: el?.tagName.toLowerCase() ?? '',
            name: (el?.textContent ?? '').trim(),
            label: input?.labels?.[0]?.textContent?.trim() ?? '',
            outline: el ? getComputedStyle(el).outlineStyle : 'none',
          };
        });
        if (matches(focused)) {
          expect({ what, outline: focused.outline }).not.toEqual({ what, outline: 'none' });
          return;
        }
      }
      throw new Error(`${what} is not reachable with Tab`);
    };

    // The page put focus on its h1; the skip link is just before it, and leads into the main landmark.
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
    await tabTo((el) => el.label === 'E-mail', 'the e-mail field');
    await page.keyboard.type(state.owner.email);
    await tabTo((el) => el.label === 'Password', 'the password field');
    await page.keyboard.type(state.owner.password);
    await page.keyboard.press('Enter');
    await onPage('Applications');
    await expectAccessible('applications');

    // The organisation the owner was created in, from the URL the app went to.
    state.org = /#\/orgs\/([^/]+)\/applications/.exec(page.url())![1]!;

    // Create an application with the keyboard too (a plan with live access, for the live steps below).
    await tabTo((el) => el.label === 'Application name', 'the application name field');
    await page.keyboard.type(state.appName);
    await tabTo((el) => el.label === 'Plan', 'the plan select');
    await page.keyboard.press('ArrowDown');
    await tabTo((el) => el.tag === 'button' && el.name === 'Create application', 'the create button');
    await page.keyboard.press('Enter');
    const row = page.getByRole('row', { name: new RegExp(state.appName) });
    await row.waitFor();
    state.appId = (await row.locator('code').first().innerText()).trim();
    expect(state.appId).toMatch(/^app_/);
    await expect(row.getByRole('combobox', { name: `Plan of ${state.appName}` }).inputValue()).resolves.toBe('startup');

    await tabTo((el) => el.tag === 'a' && el.name === `Keys of ${state.appName}`, 'the keys link of the new application');
    await page.keyboard.press('Enter');
    await onPage('API keys');
    await tabTo((el) => el.tag === 'button' && el.name === 'Create test key', 'the create key button');
    await page.keyboard.press('Enter');
    // No active key yet: the key is created at once and shown in a dialog, focus inside it.
    const dialog = page.getByRole('dialog', { name: 'Your new test key' });
    await dialog.waitFor();
    await expectAccessible('keys: the new key dialog');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    state.key = await dialog.getByTestId('shown-once-value').inputValue();
    expect(state.key).toMatch(/^fc_sk_test_/);
    await tabTo((el) => el.tag === 'button' && el.name === 'Copy', 'the copy button');
    await page.keyboard.press('Enter');
    await dialog.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(state.key);
    await tabTo((el) => el.tag === 'button' && el.name === 'I have stored the key', 'the close button');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    // Focus is back on the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Create test key');

    // The list shows the key by prefix and last four only, never the key.
    const keyRow = page.getByRole('row', { name: /fc_sk_test_/ });
    await keyRow.waitFor();
    const listed = await keyRow.innerText();
    expect(listed).toContain(`…${state.key.slice(-4)}`);
    expect(listed).toMatch(/active/i);
    expect(listed).toContain('Never');
    expect(await page.content()).not.toContain(state.key);
    await expectAccessible('keys');

    // The key works against the API.
    const categories = await stack.call('/v1/categories/get', { key: state.key, body: {} });
    expect(categories.status).toBe(200);
  });

  it('creates a second key after confirming that it revokes the first, and a live key on a plan with live access', async () => {
    await page.getByRole('button', { name: 'Create test key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Create a new test key?' });
    await confirm.waitFor();
    await expect(confirm.innerText()).resolves.toContain(`…${state.key.slice(-4)}`);
    await expectAccessible('keys: confirm a new key');
    await confirm.getByRole('button', { name: 'Create and revoke the current key' }).click();
    const second = await takeShownOnce('I have stored the key');
    expect(second).not.toBe(state.key);
    await page.getByRole('row', { name: new RegExp(`…${second.slice(-4)}`) }).waitFor();
    await expect(page.getByRole('row', { name: new RegExp(`…${state.key.slice(-4)}`) }).innerText()).resolves.toMatch(/revoked/i);
    expect((await stack.call('/v1/categories/get', { key: state.key, body: {} })).status).toBe(401);
    state.key = second;

    await page.getByRole('navigation', { name: 'Environment' }).getByRole('link', { name: 'Live' }).click();
    await page.getByText('Live environment: real institutions and real data.').waitFor();
    await page.getByRole('button', { name: 'Create live key' }).click();
    const live = await takeShownOnce('I have stored the key');
    expect(live).toMatch(/^fc_sk_live_/);
    await page.getByRole('row', { name: new RegExp(`fc_sk_live_…${live.slice(-4)}`) }).waitFor();
    expect((await stack.call('/v1/categories/get', { key: live, body: {} })).status).toBe(200);
    await expectAccessible('keys (live)');
  });

  it('registers a webhook endpoint (secret shown once), shows a delivery with every attempt, a dead letter, and replays an event', async () => {
    // An item of the new application, for events.
    const publicToken = await stack.call('/v1/sandbox/public_token/create', { key: state.key, body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] } });
    expect(publicToken.status).toBe(200);
    const exchanged = await stack.call('/v1/link/token/exchange', { key: state.key, body: { public_token: publicToken.json.public_token } });
    expect(exchanged.status).toBe(200);
    state.accessToken = exchanged.json.access_token as string;
    state.itemId = exchanged.json.item_id as string;
    await stack.historyLoaded(state.itemId);
    await stack.background.idle();

    await page.goto(appPage('webhooks'));
    await onPage('Webhooks');
    await expectAccessible('webhooks (no endpoint)');
    await page.getByLabel('Endpoint URL').fill(receiver.url());
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await takeShownOnce('I have stored the secret');
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('row', { name: new RegExp(receiver.url().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')) }).waitFor();

    // First attempt refused, second delivered.
    receiver.script([500], 200);
    const fired = await stack.call('/v1/sandbox/fire_webhook', { key: state.key, body: { access_token: state.accessToken, webhook_type: 'item.error' } });
    expect(fired.status).toBe(200);
    const eventId = fired.json.event_id as string;
    await stack.background.idle();

    await page.getByRole('button', { name: 'Refresh' }).click();
    const delivery = page.locator('tr', { has: page.getByText(eventId, { exact: true }) }).first();
    await delivery.waitFor();
    const attempts = await delivery.innerText();
    expect(attempts).toMatch(/#1[\s\S]*HTTP 500[\s\S]*ms/);
    expect(attempts).toMatch(/#2[\s\S]*HTTP 200/);
    expect(attempts).toMatch(/delivered/i);
    await expectAccessible('webhooks (deliveries)');

    // Replay: a new delivery of the same event.
    await delivery.getByRole('button', { name: new RegExp(`^Replay event ${eventId}`) }).click();
    // The visible notice; the live region announces the same words 50 ms later (not a second wait target).
    await page.locator('p.notice').getByText(`Event ${eventId} replayed`).waitFor();
    await stack.background.idle();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForFunction((id) => Array.from(document.querySelectorAll('table.deliveries tbody tr')).filter((r) => r.textContent?.includes(id)).length === 2, eventId);

    // A dead letter: every attempt refused.
    receiver.script([], 500);
    const doomed = await stack.call('/v1/sandbox/fire_webhook', { key: state.key, body: { access_token: state.accessToken, webhook_type: 'item.error' } });
    await stack.background.idle();
    receiver.script([], 200);
    await page.getByLabel('Show').selectOption('dead_lettered');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    // The filtered list: the doomed event's delivery, and dead letters only.
    await page.waitForFunction((doomedId) => {
      const rows = Array.from(document.querySelectorAll('table.deliveries tbody tr'));
      return rows.some((r) => r.textContent?.includes(doomedId)) && rows.every((r) => /dead letter/i.test(r.textContent ?? ''));
    }, doomed.json.event_id as string);
    const dead = page.locator('table.deliveries tr', { has: page.getByText(doomed.json.event_id as string, { exact: true }) });
    expect((await dead.innerText()).match(/HTTP 500/g)?.length).toBeGreaterThan(1);
  });

  it('finds a request by the id in an error answer pasted whole, and by status', async () => {
    const failed = await stack.call('/v1/accounts/get', { key: state.key, body: { access_token: 'access-sandbox-nonexistent' } });
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const requestId = (failed.json.error as { request_id: string }).request_id;
    await page.goto(appPage('requests'));
    await onPage('Request log');
    await expectAccessible('request log');
    await page.getByLabel('Request ID').fill(failed.text);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator(`tr[data-request-id="${requestId}"]`);
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('accounts.get');
    expect(text).toContain(String(failed.status));
    expect(text).toContain((failed.json.error as { code: string }).code);
    expect(text).toContain(`…${state.key.slice(-4)}`);
    expect(await page.getByLabel('Request ID').inputValue()).toBe(requestId);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Status').fill('4xx');
    await page.getByRole('button', { name: 'Search' }).click();
    // The filtered results: the failed request among them, and 4xx answers only.
    await page.waitForFunction((id) => {
      const rows = Array.from(document.querySelectorAll('tr[data-request-id]'));
      return rows.some((r) => r.getAttribute('data-request-id') === id) && rows.every((r) => /^4\d\d$/.test(r.getAttribute('data-status') ?? ''));
    }, requestId);
    await expectAccessible('request log (results)');
  });

  it('shows the month\'s usage against the plan with a daily chart drawn by chart.js', async () => {
    await page.goto(appPage('usage'));
    await onPage('Usage');
    const api = page.getByTestId('quota-api');
    await api.waitFor();
    await expect(api.innerText()).resolves.toMatch(/API requests\s+[1-9][\d,.\s]* of /);
    await page.getByTestId('connected-users').waitFor();
    await expect(page.getByTestId('connected-users').innerText()).resolves.toMatch(/Connected users\s+1 of/);
    const chart = page.getByTestId('daily-usage-chart');
    await chart.waitFor();
    // chart.js drew on the canvas: some pixel is not transparent.
    expect(
      await chart.evaluate((canvas) => {
        const node = canvas as HTMLCanvasElement;
        const pixels = node.getContext('2d')!.getImageData(0, 0, node.width, node.height).data;
        return pixels.some((value, index) => index % 4 === 3 && value > 0);
      }),
    ).toBe(true);
    await page.getByText('Requests per day as a table').click();
    await expect(page.getByRole('table', { name: 'Requests per day' }).locator('tbody tr').count()).resolves.toBeGreaterThan(0);
    await expectAccessible('usage');
  });

  it('finds an item by id and asks for its refresh', async () => {
    await page.goto(appPage('items'));
    await onPage('Items');
    await page.getByLabel('Item ID').fill(state.itemId);
    await page.getByRole('button', { name: 'Find item' }).click();
    await page.getByRole('heading', { name: `Item ${state.itemId}` }).waitFor();
    const details = await page.locator('dl.details').innerText();
    expect(details).toMatch(/Status\s+\S+/);
    expect(details).toMatch(/Connector\s+\S+/);
    expect(details).toMatch(/Last successful sync/);
    expect(details).toMatch(/Last sync error/);
    await expectAccessible('items');
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByText('Refresh requested: the item syncs in the background.').waitFor();
  });

  it('fits a phone screen (375 px): a wide table scrolls in its own keyboard-reachable region, never the page', async () => {
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      for (const [section, heading, table] of [
        ['keys', 'API keys', 'Keys'],
        ['webhooks', 'Webhooks', 'Webhook deliveries'],
        ['usage', 'Usage', null],
      ] as const) {
        await page.goto(appPage(section));
        await onPage(heading);
        if (table) {
          // The table's region is named and focusable once it scrolls (measured after layout).
          const region = page.getByRole('region', { name: table, exact: true });
          await region.waitFor();
          expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
          expect(await region.getAttribute('tabindex')).toBe('0');
        } else {
          await page.getByTestId('daily-usage-chart').waitFor();
        }
        // Nothing widens the page itself, not even a visually hidden label in a scrolled-away cell.
        expect({ section, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ section, width: 375 });
        await expectAccessible(`${section} at 375 px`);
      }
    } finally {
      if (desktop) await page.setViewportSize(desktop);
    }
  });

  it('invites a developer and a viewer, each invitation link shown once', async () => {
    await page.goto(consoleUrl(`#/orgs/${state.org}/members`));
    await onPage('Members');
    await expect(page.getByRole('row', { name: new RegExp(state.owner.email) }).innerText()).resolves.toContain('(you)');
    await expectAccessible('members');
    for (const [invitee, role] of [
      [DEVELOPER, 'developer'],
      [VIEWER, 'viewer'],
    ] as const) {
      await page.getByLabel('E-mail address').fill(invitee.email);
      await page.getByLabel('Role', { exact: true }).selectOption(role);
      await page.getByRole('button', { name: 'Create invitation' }).click();
      const url = await takeShownOnce('Done');
      // A link the invitee can open as it is: on the console's own origin.
      expect(url.startsWith(`${stack.baseUrl}/console/#/invitations/fc_inv_`)).toBe(true);
      if (role === 'developer') state.developerInvitation = url;
      else state.viewerInvitation = url;
      await page.getByRole('row', { name: new RegExp(invitee.email) }).waitFor();
    }
    expect(await page.content()).not.toContain(state.developerInvitation.split('#/invitations/')[1]);
  });

  it('lets each invitee create an account from the link, which joins them with the invited role', async () => {
    for (const [invitee, url, role] of [
      [DEVELOPER, state.developerInvitation, 'developer'],
      [VIEWER, state.viewerInvitation, 'viewer'],
    ] as const) {
      await signOut();
      await page.goto(url);
      await onPage('Join an organisation');
      await expectAccessible('invitation (signed out)');
      const newAccount = page.getByRole('region', { name: 'I am new here' });
      await newAccount.getByLabel('Your name').fill(invitee.name);
      await newAccount.getByLabel('E-mail (the invited address)').fill(invitee.email);
      await newAccount.getByLabel('New password').fill(invitee.password);
      // Signing up with the invitation accepts it (console.auth.signup).
      await newAccount.getByRole('button', { name: 'Create account' }).click();
      await onPage('Invitation accepted');
      await expect(page.locator('main').innerText()).resolves.toContain(`as ${role}.`);
      await expectAccessible('invitation (accepted)');
      // A spent invitation link answers clearly (reloaded: the same link opened again).
      await page.reload();
      await onPage('Join an organisation');
      await expectAccessible('invitation (signed in)');
      await page.getByRole('button', { name: 'Accept invitation' }).click();
      await page.locator('[data-error-code="invitation_expired"]').waitFor();
      await page.goto(consoleUrl());
      await onPage('Applications');
    }
  });

  it('shows the role matrix in the UI: a developer manages test keys but not live ones, a viewer reads only', async () => {
    await signOut();
    await signInWithPassword(DEVELOPER.email, DEVELOPER.password);
    await onPage('Applications');
    // Developers do not see the audit log, nor may they create applications or invite.
    expect(await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await expectRefusedWithReason(page.getByRole('button', { name: 'Create application' }), /Needs the admin role or higher; you are a developer/);
    await page.goto(appPage('keys'));
    await onPage('API keys');
    await expectUsable(page.getByRole('button', { name: 'Create test key' }));
    await page.goto(appPage('keys', 'live'));
    await onPage('API keys');
    await expectRefusedWithReason(page.getByRole('button', { name: 'Create live key' }), /Needs the admin role or higher; you are a developer/);
    await expectAccessible('keys (developer, live)');
    await page.goto(appPage('webhooks'));
    await onPage('Webhooks');
    await expectUsable(page.getByRole('button', { name: 'Add endpoint' }));
    await page.goto(consoleUrl(`#/orgs/${state.org}/members`));
    await onPage('Members');
    await expectRefusedWithReason(page.getByRole('button', { name: 'Create invitation' }), /Needs the admin role or higher; you are a developer/);
    await page.goto(consoleUrl(`#/orgs/${state.org}/settings`));
    await onPage('Settings');
    await expectRefusedWithReason(page.getByRole('button', { name: 'Delete organisation' }), /Only an owner can do this; you are a developer/);
    await expectAccessible('settings (developer)');

    await signOut();
    await signInWithPassword(VIEWER.email, VIEWER.password);
    await onPage('Applications');
    await page.goto(appPage('keys'));
    await onPage('API keys');
    await expectRefusedWithReason(page.getByRole('button', { name: 'Create test key' }), /Needs the developer role or higher; you are a viewer/);
    await expectRefusedWithReason(page.getByRole('button', { name: /^Revoke key/ }), /Needs the developer role or higher; you are a viewer/);
    await page.goto(appPage('requests'));
    await onPage('Request log');
    await expect(page.getByText('Needs the developer role or higher; you are a viewer.').count()).resolves.toBe(1);
    await page.goto(appPage('items', 'test', `?item_id=${state.itemId}`));
    await onPage('Items');
    await page.getByRole('heading', { name: `Item ${state.itemId}` }).waitFor();
    await expectRefusedWithReason(page.getByRole('button', { name: 'Refresh', exact: true }), /Needs the developer role or higher; you are a viewer/);
    await expectAccessible('items (viewer)');
    await signOut();
  });

  it('shows the server\'s role_forbidden when the role changed under an open page, and the buttons follow', async () => {
    await signInWithPassword(DEVELOPER.email, DEVELOPER.password);
    await onPage('Applications');
    await page.goto(appPage('keys'));
    await onPage('API keys');
    const create = page.getByRole('button', { name: 'Create test key' });
    await expectUsable(create);

    // Meanwhile the owner makes the developer a viewer.
    const asOwner = await apiSession(state.owner.email, state.owner.password);
    const members = await asOwner('members/list', { organization_id: state.org });
    expect(members.status).toBe(200);
    const developer = (members.json.members as Array<{ user_id: string; email: string }>).find((m) => m.email === DEVELOPER.email)!;
    expect((await asOwner('members/update', { organization_id: state.org, user_id: developer.user_id, role: 'viewer' })).status).toBe(200);

    const keysBefore = await page.locator('tbody tr').count();
    await create.click();
    await page.getByRole('dialog', { name: 'Create a new test key?' }).getByRole('button', { name: 'Create and revoke the current key' }).click();
    const refusal = page.locator('[role="alert"][data-error-code="role_forbidden"]');
    await refusal.waitFor();
    await expect(refusal.innerText()).resolves.toMatch(/Your role does not allow this[\s\S]*The server refused this action for your role/);
    await expect(refusal.getByTestId('error-request-id').innerText()).resolves.toMatch(/\S+/);
    // The page read the session again: the button now says why it is off.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('button')).some((b) => b.textContent === 'Create test key' && b.getAttribute('aria-disabled') === 'true'),
    );
    await expectRefusedWithReason(create, /Needs the developer role or higher; you are a viewer/);
    expect(await page.locator('tbody tr').count()).toBe(keysBefore);
    await expectAccessible('keys (role_forbidden shown)');
    await signOut();
  });

  it('shows owners the audit log with allowed and denied actions, and signs out', async () => {
    await signInWithPassword(state.owner.email, state.owner.password);
    await onPage('Applications');
    await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'Audit log' }).click();
    await onPage('Audit log');
    const denied = page.locator('tr', { hasText: 'console.keys.create' }).filter({ hasText: DEVELOPER.email }).filter({ hasText: 'denied' });
    await denied.first().waitFor();
    await page.locator('tr', { hasText: 'console.members.update' }).filter({ hasText: 'allowed' }).first().waitFor();
    await page.locator('tr', { hasText: 'console.invitations.accept' }).first().waitFor();
    await expectAccessible('audit log');

    await page.goto(consoleUrl('#/organizations/new'));
    await onPage('Create an organisation');
    await expectAccessible('new organisation');
    await page.goto(consoleUrl('#/no/such/page'));
    await onPage('Not found');
    await expectAccessible('not found');

    await signOut();
    await expectAccessible('signed out');
    // Signed out, a console page sends the user to sign-in, and back there afterwards.
    await page.goto(appPage('usage'));
    await onPage('Sign in');
    await signInWithPassword(state.owner.email, state.owner.password);
    await onPage('Usage');
  });

  it('kept every request on loopback, with no CSP violation or script error', () => {
    expect(problems).toEqual([]);
    expect(leftLoopback).toEqual([]);
  });
});
