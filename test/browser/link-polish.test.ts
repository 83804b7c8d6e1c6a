// Hosted Link's look, feel and languages in a real browser (Debian's Chromium through
// playwright-core, as test/browser/link.test.ts): the catalogue of each language the link token
// names, dark mode, the header's Back and Close and every pane's Exit, the loading pane while a
// connection is in flight, the phone-sized institution list, institution logos and their fallback,
// and axe-core on every pane in both themes.
//
// With LINK_SHOTS_DIR set, the axe walk also saves each pane at 375 and 1280 px in both themes
// there (for a person to look at; nothing asserts on the images).
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './chromium';
import { translator, type LinkLanguage } from '../../functions/platform/link-ui/i18n';
import { startTestStack, type TestStack } from '../support/stack';
import { AXE_PATH, seriousAxeFindings } from './axe';
import { serveIntegratorSite } from './integrator-site';

const SHOTS_DIR = process.env.LINK_SHOTS_DIR || null;

const BANK = 'Sandbox First Bank';
const CLIENT = 'Acme Budget';
const en = translator('en');

let stack: TestStack;
let browser: LaunchedChromium | undefined;
let context: BrowserContext;
let page: Page;
let integrator: { server: Server; origin: string };

/** The integrator's page with the SDK (another loopback origin), reporting onExit into #exit. */
function integratorSite(linkBaseUrl: string): Promise<{ server: Server; origin: string }> {
  const hostPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Acme Budget</title></head>
<body>
<h1>Acme Budget</h1>
<button type="button" id="open">Connect a bank</button>
<pre id="exit"></pre>
<script src="${linkBaseUrl}/link/sdk.js"></script>
<script>
  var link = FincoreLink.create({
    token: new URLSearchParams(location.search).get('token'),
    onSuccess: function () {},
    onExit: function (error, metadata) { document.getElementById('exit').textContent = JSON.stringify({ error: error, metadata: metadata }); }
  });
  document.getElementById('open').addEventListener('click', function () { link.open(); });
</script>
</body></html>`;
  return serveIntegratorSite({ '/host': hostPage });
}

beforeAll(async () => {
  stack = await startTestStack();
  integrator = await integratorSite(stack.baseUrl);
  browser = await launchChromium('fc-link-polish-');
  context = browser.context;
  // axe-core before the page's own scripts: an init script is not subject to the page's CSP.
  await context.addInitScript({ path: AXE_PATH });
  if (SHOTS_DIR) mkdirSync(SHOTS_DIR, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (integrator ? integrator.server.close(resolve) : resolve(undefined)));
  await stack?.stop();
});

jest.setTimeout(180_000);

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

function linkUrl(token: string): string {
  return `${stack.baseUrl}/link?token=${token}`;
}

async function onPane(name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function toCredentials(institution = BANK): Promise<void> {
  await onPane(en('consent.heading', { client: CLIENT }));
  await page.getByRole('button', { name: 'Continue' }).click();
  await onPane('Select your institution');
  await page.getByLabel('Search institutions').fill(institution);
  await page.getByRole('button', { name: new RegExp(`^${institution}`) }).click();
  await onPane(`Sign in to ${institution}`);
}

async function signIn(username: string, password = 'pass_good'): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Submit' }).click();
}

/**
 * After a connection: the pane that shows its accounts. When the flow first asks which accounts to
 * share (account selection), that pane's own Continue keeps its default choice.
 */
async function toConnected(): Promise<void> {
  await page.waitForFunction(() => !['LOADING', 'CREDENTIALS', 'MFA'].includes(document.body.getAttribute('data-view') ?? ''));
  if ((await page.getAttribute('body', 'data-view')) !== 'CONNECTED') await page.locator('main .actions .primary').click();
  await onPane('Account connected');
}

/** Holds the next call of a page API route until release() (a route interception, no sleeps). */
async function holdApi(path: string): Promise<{ held: Promise<Route>; release(): Promise<void> }> {
  let resolveHeld: (route: Route) => void = () => undefined;
  const held = new Promise<Route>((resolve) => (resolveHeld = resolve));
  const pattern = `**/link/api/${path}`;
  await page.route(pattern, (route) => resolveHeld(route));
  return {
    held,
    release: async () => {
      await (await held).continue();
      await page.unroute(pattern);
    },
  };
}

/** axe-core on the page as it is now: no serious or critical finding. */
async function expectAccessible(label: string): Promise<void> {
  const violations = await seriousAxeFindings(page);
  expect({ pane: label, violations }).toEqual({ pane: label, violations: [] });
}

/** The navigation a pane shows: the header's Back and Close, and the pane's Exit. */
async function navigationOf(): Promise<{ back: boolean; close: boolean; exit: boolean }> {
  return {
    back: await page.locator('#fc-nav-start').getByRole('button', { name: 'Back' }).isVisible(),
    close: await page.locator('header').getByRole('button', { name: 'Close' }).isVisible(),
    exit: await page.locator('main').getByRole('button', { name: 'Exit', exact: true }).isVisible(),
  };
}

// ---------- languages ----------

describe('languages', () => {
  it.each<LinkLanguage>(['es', 'fr', 'de'])('renders the page in the link token\u2019s language (%s)', async (language) => {
    const t = translator(language);
    await page.setViewportSize({ width: 375, height: 740 });
    const token = await createLinkToken({ language, products: ['transactions', 'identity'] });
    await page.goto(linkUrl(token));
    await onPane(t('consent.heading', { client: CLIENT }));
    if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `consent-375-${language}.png`) });
    expect(await page.getAttribute('html', 'lang')).toBe(language);
    expect(await page.title()).toBe(t('shell.screenTitle', { heading: t('consent.heading', { client: CLIENT }) }));
    expect(await page.getByText(t('consent.secure'), { exact: true }).isVisible()).toBe(true);
    expect(await page.locator('header').getByRole('button', { name: t('nav.close') }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: t('nav.exit'), exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(t('shell.sandbox'), { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: t('nav.continue') }).click();
    await onPane(t('search.heading'));
    await page.getByLabel(t('search.label')).fill(BANK);
    await page.getByRole('button', { name: new RegExp(`^${BANK}`) }).click();
    await onPane(t('credentials.heading', { institution: BANK }));
    expect(await page.getByLabel(t('credentials.password'), { exact: true }).count()).toBe(1);
    expect(await page.locator('#fc-nav-start').getByRole('button', { name: t('nav.back') }).isVisible()).toBe(true);
    if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `credentials-375-${language}.png`) });
  });

  it('writes French with a no-break space before the colon, and English when the token names no language', async () => {
    const french = await createLinkToken({ language: 'fr' });
    await page.goto(linkUrl(french));
    await onPane(/utilise Fincore/);
    const privateText = await page.getByText(/ne reçoit que les données/).textContent();
    expect(privateText).toContain('partager\u00a0: opérations');

    const english = await createLinkToken();
    await page.goto(linkUrl(english));
    await onPane(en('consent.heading', { client: CLIENT }));
    expect(await page.getAttribute('html', 'lang')).toBe('en');
  });

  it('refuses a language Link does not speak, naming the accepted ones', async () => {
    const res = await stack.call('/v1/link/token/create', {
      body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], language: 'it' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_field');
    expect(res.json.error.message).toMatch(/language.*must be one of: en, es, fr, de/);
  });

  it('takes the language from Plaid\u2019s /link/token/create, and opens Plaid\u2019s other languages in English', async () => {
    const key = stack.keys.find((k) => k.environment === 'test')!;
    const plaidToken = async (language: string) => {
      const res = await stack.call('/plaid/link/token/create', {
        key: null,
        headers: { 'PLAID-CLIENT-ID': key.applicationId, 'PLAID-SECRET': key.key },
        body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], language, country_codes: ['US'] },
      });
      expect(res.status).toBe(200);
      return res.json.link_token as string;
    };
    await page.goto(linkUrl(await plaidToken('de')));
    await onPane(translator('de')('consent.heading', { client: CLIENT }));
    await page.goto(linkUrl(await plaidToken('nl')));
    await onPane(en('consent.heading', { client: CLIENT }));
  });

  it('shows the error page of an unusable link in the browser\u2019s language', async () => {
    await page.setExtraHTTPHeaders({ 'Accept-Language': 'fr-CH, fr;q=0.9, en;q=0.5' });
    await page.goto(`${stack.baseUrl}/link?token=fc_link_doesnotexist`);
    const t = translator('fr');
    await onPane(t('problem.invalid_link_token.title'));
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
  });
});

// ---------- themes ----------

describe('dark mode', () => {
  it('follows prefers-color-scheme: the page and the card turn dark, the text light', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onPane(/uses Fincore/);
    const colors = () =>
      page.evaluate(() => ({
        body: getComputedStyle(document.body).backgroundColor,
        card: getComputedStyle(document.querySelector('.card')!).backgroundColor,
        text: getComputedStyle(document.querySelector('h1')!).color,
      }));
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await colors();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await colors();
    expect(light).toEqual({ body: 'rgb(238, 242, 247)', card: 'rgb(255, 255, 255)', text: 'rgb(15, 23, 42)' });
    expect(dark).toEqual({ body: 'rgb(11, 17, 32)', card: 'rgb(19, 27, 46)', text: 'rgb(232, 237, 245)' });
  });
});

// ---------- navigation and the loading pane ----------

describe('Back, Close and Exit', () => {
  it('shows Close and Exit on every pane, and Back wherever there is a pane to go back to', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onPane(/uses Fincore/);
    expect(await navigationOf()).toEqual({ back: false, close: true, exit: true });

    await page.getByRole('button', { name: 'Continue' }).click();
    await onPane('Select your institution');
    expect(await navigationOf()).toEqual({ back: true, close: true, exit: true });
    // Back from the list is the consent pane.
    await page.getByRole('button', { name: 'Back' }).click();
    await onPane(/uses Fincore/);

    await toCredentials();
    expect(await navigationOf()).toEqual({ back: true, close: true, exit: true });
    await signIn('user_mfa');
    await onPane('Enter your verification code');
    expect(await navigationOf()).toEqual({ back: true, close: true, exit: true });
    // Back from the code is the sign-in again.
    await page.getByRole('button', { name: 'Back' }).click();
    await onPane(`Sign in to ${BANK}`);

    const connect = await holdApi('connect');
    await signIn('user_good');
    await connect.held;
    await onPane('Connecting your account');
    expect(await navigationOf()).toEqual({ back: false, close: true, exit: true });
    await connect.release();
    await toConnected();
    expect(await navigationOf()).toEqual({ back: false, close: true, exit: true });
  });

  it('keeps Close on the error pane beside its Exit', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await toCredentials();
    await signIn('user_locked');
    await onPane('Your login is locked');
    expect(await navigationOf()).toEqual({ back: false, close: true, exit: true });
  });

  it('exits hosted Link from the header\u2019s Close, to redirect_uri with the session id', async () => {
    const token = await createLinkToken({ redirect_uri: `${integrator.origin}/landing` });
    await page.goto(linkUrl(token));
    await toCredentials();
    const landing = page.waitForRequest((r) => r.url().startsWith(`${integrator.origin}/landing`));
    await page.locator('header').getByRole('button', { name: 'Close' }).click();
    const url = new URL((await landing).url());
    expect(url.searchParams.get('link_session_id')).toMatch(/^lnk_/);
    expect(url.searchParams.get('error_code')).toBeNull();
  });

  it('reports Exit to onExit with the pane the user left, without asking', async () => {
    const token = await createLinkToken();
    await page.goto(`${integrator.origin}/host?token=${token}`);
    await page.getByRole('button', { name: 'Connect a bank' }).click();
    const link = page.frameLocator('iframe[title="Fincore Link"]');
    await link.getByRole('heading', { level: 1, name: /uses Fincore/ }).waitFor();
    await link.getByRole('button', { name: 'Continue' }).click();
    await link.getByRole('heading', { level: 1, name: 'Select your institution' }).waitFor();
    await link.getByRole('button', { name: 'Exit', exact: true }).click();
    await page.waitForFunction(() => (document.getElementById('exit')?.textContent ?? '') !== '');
    const reported = JSON.parse((await page.locator('#exit').textContent())!) as { error: unknown; metadata: { status: string } };
    expect(reported.error).toBeNull();
    expect(reported.metadata.status).toBe('SELECT_INSTITUTION');
  });

  it('closes from the header inside the modal too, reporting the pane', async () => {
    const token = await createLinkToken();
    await page.goto(`${integrator.origin}/host?token=${token}`);
    await page.getByRole('button', { name: 'Connect a bank' }).click();
    const link = page.frameLocator('iframe[title="Fincore Link"]');
    await link.getByRole('heading', { level: 1, name: /uses Fincore/ }).waitFor();
    await link.locator('header').getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => (document.getElementById('exit')?.textContent ?? '') !== '');
    expect((JSON.parse((await page.locator('#exit').textContent())!) as { metadata: { status: string } }).metadata.status).toBe('CONSENT');
  });
});

describe('the loading pane', () => {
  it('shows progress while the sign-in is in flight, announced politely, then the connection', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await toCredentials();
    const connect = await holdApi('connect');
    await signIn('user_good');
    await connect.held;
    await onPane('Connecting your account');
    const status = page.locator('[role="status"][aria-live="polite"]');
    expect(await status.textContent()).toBe(`Step 1 of 3: Connecting to ${BANK}`);
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');
    expect(await page.locator('.step').allTextContents()).toEqual([`Connecting to ${BANK}, In progress`, 'Verifying, Not started', 'Fetching accounts, Not started']);
    await connect.release();
    await toConnected();
  });

  it('starts at Verifying for a code, and goes back to the form with the refusal when the code is wrong', async () => {
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await toCredentials();
    await signIn('user_mfa');
    await onPane('Enter your verification code');
    const mfa = await holdApi('mfa');
    await page.getByLabel('Verification code', { exact: true }).fill('0000');
    await page.getByRole('button', { name: 'Submit' }).click();
    await mfa.held;
    await onPane('Connecting your account');
    expect(await page.locator('[role="status"][aria-live="polite"]').textContent()).toBe('Step 2 of 3: Verifying');
    await mfa.release();
    await page.getByRole('alert').filter({ hasText: /incorrect/ }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Enter your verification code');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('fc-code');
  });

  it('keeps the spinner still when the user asks for reduced motion', async () => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await toCredentials();
    const connect = await holdApi('connect');
    await signIn('user_good');
    await connect.held;
    await onPane('Connecting your account');
    expect(await page.locator('.step.current .step-mark').evaluate((n) => getComputedStyle(n).animationName)).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await page.locator('.step.current .step-mark').evaluate((n) => getComputedStyle(n).animationName)).toBe('fc-spin');
    await connect.release();
    await toConnected();
  });
});

// ---------- phones ----------

describe('the institution list on a phone', () => {
  it('fills the screen below the search at 375 px and scrolls inside, the search staying in view', async () => {
    await page.setViewportSize({ width: 375, height: 700 });
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onPane(/uses Fincore/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onPane('Select your institution');
    await page.waitForFunction(() => document.querySelectorAll('#fc-results button').length > 8);
    const layout = await page.evaluate(() => {
      const list = document.getElementById('fc-results')!;
      list.scrollTop = list.scrollHeight;
      const exit = document.querySelector('.pane-exit')!.getBoundingClientRect();
      return {
        viewport: window.innerHeight,
        pageScrolls: document.documentElement.scrollHeight > window.innerHeight,
        listBottom: list.getBoundingClientRect().bottom,
        listScrolls: list.scrollHeight > list.clientHeight,
        listScrolled: list.scrollTop > 0,
        exitBottom: exit.bottom,
        searchTop: document.getElementById('fc-search')!.getBoundingClientRect().top,
      };
    });
    expect(layout.pageScrolls).toBe(false);
    expect(layout.listScrolls).toBe(true);
    expect(layout.listScrolled).toBe(true);
    expect(layout.searchTop).toBeGreaterThan(0);
    // The list runs down to the Exit at the bottom of the screen: no empty band below it.
    expect(layout.exitBottom).toBeLessThanOrEqual(layout.viewport);
    expect(layout.viewport - layout.exitBottom).toBeLessThan(40);
    expect(layout.listBottom).toBeGreaterThan(layout.viewport - 120);
  });
});

// ---------- logos ----------

describe('institution logos', () => {
  it('shows the bundled mark of a sandbox institution from the answer itself, and a monogram for one without', async () => {
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onPane(/uses Fincore/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await onPane('Select your institution');
    await page.getByLabel('Search institutions').fill(BANK);
    const bank = page.getByRole('button', { name: new RegExp(`^${BANK}`) });
    await bank.waitFor();
    const logo = bank.locator('img.logo-img');
    expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    await page.waitForFunction(() => (document.querySelector('#fc-results img.logo-img') as HTMLImageElement | null)?.naturalWidth ?? 0 > 0);
    expect(await bank.locator('.monogram').evaluate((n) => getComputedStyle(n).visibility)).toBe('hidden');

    await page.getByLabel('Search institutions').fill('Chase');
    const chase = page.getByRole('button', { name: /^Chase/ });
    await chase.waitFor();
    expect(await chase.locator('img').count()).toBe(0);
    expect(await chase.locator('.monogram').textContent()).toBe('C');
    expect(await chase.locator('.monogram').evaluate((n) => getComputedStyle(n).visibility)).toBe('visible');
    // Every request went to Fincore's own origin: no logo is fetched from anywhere else.
    expect(requested.filter((url) => !url.startsWith(stack.baseUrl) && !url.startsWith('data:'))).toEqual([]);
  });

  it('falls back to the monogram, in the same box, when a logo cannot be shown', async () => {
    // The institutions answer as the page gets it, with a logo no browser can decode.
    await page.route('**/link/api/institutions', async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as { institutions: Array<{ logo: string | null }> };
      for (const inst of body.institutions) if (inst.logo) inst.logo = 'data:image/svg+xml,not-an-image';
      await route.fulfill({ response: answer, json: body });
    });
    const token = await createLinkToken();
    await page.goto(linkUrl(token));
    await onPane(/uses Fincore/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Search institutions').fill(BANK);
    // The search settles on the one institution, whose broken logo is then taken away.
    await page.waitForFunction(() => document.querySelectorAll('#fc-results button').length === 1);
    const avatar = page.locator('#fc-results .avatar');
    await avatar.locator('img').waitFor({ state: 'detached' });
    expect(await avatar.evaluate((n) => ({ width: (n as HTMLElement).offsetWidth, height: (n as HTMLElement).offsetHeight, logo: n.classList.contains('has-logo') }))).toEqual({
      width: 34,
      height: 34,
      logo: false,
    });
    expect(await avatar.locator('.monogram').evaluate((n) => getComputedStyle(n).visibility)).toBe('visible');
    expect(await avatar.locator('.monogram').textContent()).toBe('S');
  });

  it('serves the logo with the institution in the public API: the mark for sandbox institutions, null for the others', async () => {
    const sandbox = await stack.call('/v1/institutions/get_by_id', { body: { institution_id: 'ins_sandbox_first_bank' } });
    expect(sandbox.status).toBe(200);
    expect(JSON.stringify(sandbox.json)).toContain('"logo":"data:image/svg+xml,');
    const real = await stack.call('/v1/institutions/get_by_id', { body: { institution_id: 'ins_chase' } });
    expect(real.status).toBe(200);
    expect(JSON.stringify(real.json)).toContain('"logo":null');
  });
});

// ---------- axe-core on every pane, both themes (and the screenshots) ----------

describe('accessibility on every pane', () => {
  const themes = ['light', 'dark'] as const;
  const widths = [375, 1280] as const;

  async function pane(theme: (typeof themes)[number], width: number, name: string): Promise<void> {
    await expectAccessible(`${name} (${theme}, ${width} px)`);
    if (SHOTS_DIR) await page.screenshot({ path: join(SHOTS_DIR, `${name}-${width}-${theme}.png`), fullPage: true });
  }

  for (const theme of themes) {
    for (const width of widths) {
      it(`has no serious axe finding from consent to connected (${theme}, ${width} px)`, async () => {
        await page.setViewportSize({ width, height: width < 480 ? 740 : 860 });
        await page.emulateMedia({ colorScheme: theme });
        const token = await createLinkToken({ products: ['transactions', 'identity'] });
        await page.goto(linkUrl(token));
        await onPane(/uses Fincore/);
        await pane(theme, width, 'consent');
        await page.getByRole('button', { name: 'Continue' }).click();
        await onPane('Select your institution');
        await page.waitForFunction(() => document.querySelectorAll('#fc-results img.logo-img').length > 3);
        await pane(theme, width, 'institutions');
        await page.getByLabel('Search institutions').fill(BANK);
        await page.getByRole('button', { name: new RegExp(`^${BANK}`) }).click();
        await onPane(`Sign in to ${BANK}`);
        await signIn('user_good', 'wrong');
        await page.getByRole('alert').filter({ hasText: /incorrect/ }).waitFor();
        await pane(theme, width, 'credentials');
        const connect = await holdApi('connect');
        await signIn('user_good');
        await connect.held;
        await onPane('Connecting your account');
        await pane(theme, width, 'loading');
        await connect.release();
        await toConnected();
        await pane(theme, width, 'connected');
      });

      it(`has no serious axe finding on the code and error panes (${theme}, ${width} px)`, async () => {
        await page.setViewportSize({ width, height: width < 480 ? 740 : 860 });
        await page.emulateMedia({ colorScheme: theme });
        const token = await createLinkToken();
        await page.goto(linkUrl(token));
        await toCredentials();
        await signIn('user_mfa');
        await onPane('Enter your verification code');
        await pane(theme, width, 'mfa');
        await page.getByRole('button', { name: 'Back' }).click();
        await onPane(`Sign in to ${BANK}`);
        await signIn('user_locked');
        await onPane('Your login is locked');
        await pane(theme, width, 'error');
        await page.getByRole('button', { name: 'Exit', exact: true }).click();
        await onPane(/close this window/);
        await pane(theme, width, 'done');
      });
    }
  }

  it('has no serious axe finding on the error page of an unusable link (dark)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${stack.baseUrl}/link?token=fc_link_doesnotexist`);
    await onPane(/isn’t valid/);
    await expectAccessible('error page (dark)');
  });
});
