// The API reference at GET /docs and the error catalogue at GET /docs/errors in a real browser:
// Debian's Chromium driven by playwright-core, against the real local stack. Every request the page
// makes is recorded (and any beyond loopback aborted), so the page passes only if everything it
// needs (script, spec, search worker, fonts, images) comes from our own origin; CSP violations are
// collected from the page's own securitypolicyviolation events.
import { type BrowserContext, type Page } from 'playwright-core';
import { keepToLoopback, launchChromium, type LaunchedChromium } from './chromium';
import { ERRORS, isPublicErrorCode, publicErrorCodes, type ErrorCode } from '../../functions/contracts/errors';
import { ROUTES, inPublicContract } from '../../functions/contracts/routes';
import { referenceTagAnchor } from '../../functions/platform/llms';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let context: BrowserContext;
let browser: LaunchedChromium | undefined;
/** Requests the browser tried to send beyond loopback (aborted). */
let leftLoopback: string[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchChromium('fc-docs-chromium-');
  context = browser.context;
  leftLoopback = await keepToLoopback(context);
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

// Playwright waits time out after 20 s; the test timeout is higher so a stuck step fails with
// Playwright's own message.
jest.setTimeout(120_000);

interface Watched {
  page: Page;
  /** Every URL the page requested (documents, scripts, fetches, workers), in order. */
  requested: string[];
  /** CSP violations the page reported, console errors and uncaught errors. */
  problems(): Promise<string[]>;
}

/** A fresh page that records its requests, CSP violations (from the first script on) and console errors. */
async function watchedPage(): Promise<Watched> {
  const page = await context.newPage();
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  // Requests of the search worker Redoc starts (none expected; recorded to prove it).
  page.on('worker', (worker) => requested.push(worker.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
  // Init scripts run before the page's own scripts and are not subject to its CSP.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`csp: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`);
    });
  });
  return {
    page,
    requested,
    problems: async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...consoleErrors],
  };
}

/** The requests that went anywhere but this stack's origin (blob: and data: URLs are the page's own). */
function foreign(requested: readonly string[]): string[] {
  const origin = new URL(stack.baseUrl).origin;
  return requested.filter((url) => {
    const parsed = new URL(url);
    if (parsed.protocol === 'data:') return false;
    if (parsed.protocol === 'blob:') return new URL(url.slice('blob:'.length)).origin !== origin;
    return parsed.origin !== origin;
  });
}

const SYNC_SUMMARY = 'Page through transaction changes since a cursor';

async function openReference(page: Page, fragment = ''): Promise<void> {
  const response = await page.goto(`${stack.baseUrl}/docs${fragment}`);
  expect(response?.status()).toBe(200);
  // Redoc has rendered once the operations' headings are in the document.
  await page.locator('h2', { hasText: SYNC_SUMMARY }).first().waitFor({ state: 'attached' });
}

describe('GET /docs over HTTP', () => {
  it('answers a no-store shell under a nonce CSP that allows only this origin, a blob: worker and data: images', async () => {
    const shell = await fetch(`${stack.baseUrl}/docs`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shell.headers.get('cache-control')).toBe('no-store');
    const csp = shell.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; worker-src blob:; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    expect(shell.headers.get('x-frame-options')).toBe('DENY');
    const html = await shell.text();
    // Every script carries the nonce; the one external script is ours, pinned by integrity.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map(([, attributes]) => attributes!);
    expect(scripts.length).toBe(2);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
    const src = /src="([^"]+)" integrity="(sha384-[^"]+)"/.exec(scripts[0]!)!;
    const assetUrl = new URL(src[1]!.replace(/&amp;/g, '&'), `${stack.baseUrl}/docs`);
    expect(assetUrl.origin + assetUrl.pathname).toBe(`${stack.baseUrl}/docs`);
    const asset = await fetch(assetUrl);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect((await asset.text()).length).toBeGreaterThan(500_000);

    const otherVersion = new URL(assetUrl);
    otherVersion.searchParams.set('v', '0'.repeat(64));
    const missing = await fetch(otherVersion);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
  });

  it('redirects the paths with a trailing slash to the pages, keeping any prefix (relative Location)', async () => {
    for (const [path, location] of [
      ['/docs/', '../docs'],
      ['/docs/errors/', '../errors'],
    ] as const) {
      const res = await fetch(`${stack.baseUrl}${path}`, { redirect: 'manual' });
      expect(res.status).toBe(308);
      expect(res.headers.get('location')).toBe(location);
      expect(new URL(location, `${stack.baseUrl}${path}`).pathname).toBe(path.slice(0, -1));
    }
  });
});

describe('GET /docs in Chromium', () => {
  it('renders the operations of our openapi.json with curl samples, requesting nothing from another origin', async () => {
    const { page, requested, problems } = await watchedPage();
    await openReference(page);

    // The operations come from this deployment's openapi.json, fetched from this origin.
    expect(requested).toContain(`${stack.baseUrl}/openapi.json`);
    await page.getByText('/v1/transactions/sync', { exact: true }).first().waitFor({ state: 'attached' });

    // The operation's right panel shows its curl sample (x-codeSamples) with the body Redoc was given.
    const sync = page.locator('[data-section-id$="operation/transactionsSync"]').first();
    await sync.scrollIntoViewIfNeeded();
    await sync.getByRole('tab', { name: 'curl' }).first().click();
    const sample = sync.locator('pre', { hasText: 'curl -X POST "$FINCORE_BASE_URL/v1/transactions/sync"' }).first();
    await sample.waitFor();
    expect(await sample.textContent()).toContain('Authorization: Bearer $FINCORE_API_KEY');

    // llms.txt links each tag to its section here: every one exists.
    const sections = await page.locator('[data-section-id]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-section-id')));
    const tags = [...new Set(ROUTES.filter(inPublicContract).map((r) => r.tag))];
    expect(tags.map(referenceTagAnchor).filter((anchor) => !sections.includes(anchor))).toEqual([]);

    // The header links the error catalogue, which opens from here.
    await page.getByRole('link', { name: 'Error codes' }).click();
    await page.waitForURL(`${stack.baseUrl}/docs/errors`);
    await page.locator('#invalid_api_key').waitFor();

    expect(await problems()).toEqual([]);
    expect(foreign(requested)).toEqual([]);
    expect(leftLoopback).toEqual([]);
    await page.close();
  });

  it('finds an operation with the search box (Redoc indexes in a blob: worker the CSP allows)', async () => {
    const { page, requested, problems } = await watchedPage();
    await openReference(page);
    await page.getByRole('textbox', { name: 'Search' }).fill('changes since a cursor');
    const results = page.locator('[data-role="search:results"]');
    const result = results.getByText(SYNC_SUMMARY).first();
    await result.waitFor();
    await result.click();
    await page.waitForFunction(() => location.hash.endsWith('operation/transactionsSync'));
    expect(await problems()).toEqual([]);
    expect(requested.filter((url) => url.startsWith('blob:')).length).toBeGreaterThan(0);
    expect(foreign(requested)).toEqual([]);
    await page.close();
  });

  it('opens a deep link #operation/<operationId> at that operation', async () => {
    const { page, problems } = await watchedPage();
    await openReference(page, '#operation/transactionsSync');
    const heading = page.locator('[data-section-id$="operation/transactionsSync"] h2').first();
    await expect(heading.textContent()).resolves.toContain(SYNC_SUMMARY);
    // Redoc scrolls the linked section to the top of the viewport, under the header bar.
    await page.waitForFunction(() => {
      const section = document.querySelector('[data-section-id$="operation/transactionsSync"]');
      if (!section) return false;
      const top = section.getBoundingClientRect().top;
      return top >= 0 && top < 200;
    });
    expect(await problems()).toEqual([]);
    await page.close();
  });
});

describe('GET /docs/errors in Chromium', () => {
  it('lists every error code at its own anchor (the console\u2019s after the public ones), with no script and no CSP violation', async () => {
    const { page, requested, problems } = await watchedPage();
    const response = await page.goto(`${stack.baseUrl}/docs/errors#rate_limit_exceeded`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('public, max-age=300');
    const ids = await page.locator('main section[id]').evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual([...publicErrorCodes(), ...(Object.keys(ERRORS) as ErrorCode[]).filter((code) => !isPublicErrorCode(code))]);
    // A console error's documentation_url anchor exists too.
    await expect(page.locator('#csrf_failed').textContent()).resolves.toMatch(/HTTP status\s*403/);
    const entry = page.locator('#rate_limit_exceeded');
    await expect(entry.textContent()).resolves.toMatch(/HTTP status\s*429/);
    expect(await page.locator('script').count()).toBe(0);
    // The page's stylesheet applied (its hash is in the CSP): the targeted entry is highlighted.
    expect(await entry.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe('rgb(255, 248, 225)');
    expect(await problems()).toEqual([]);
    expect(foreign(requested)).toEqual([]);
    await page.close();
  });
});
