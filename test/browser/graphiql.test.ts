// GraphiQL at GET /v1/graphql in a real browser: Debian's Chromium driven by playwright-core (as
// test/browser/link.test.ts), against the real local stack. Every request that would leave loopback
// is aborted and recorded, so the page works only if everything it needs comes from our origin; CSP
// violations are collected from the page's own securitypolicyviolation events.
import { type BrowserContext, type Page } from 'playwright-core';
import { keepToLoopback, launchChromium, type LaunchedChromium } from './chromium';
import { GRAPHIQL_HEADERS_PLACEHOLDER } from '../../functions/surfaces/graphiql/page';
import { startTestStack, type TestStack } from '../support/stack';


let stack: TestStack;
let context: BrowserContext;
let browser: LaunchedChromium | undefined;
/** Requests the browser tried to send beyond loopback (aborted). */
let leftLoopback: string[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchChromium('fc-graphiql-chromium-');
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
  /**
   * CSP violations the page reported, and console errors (a refused script or style logs one too),
   * except the 401s GraphiQL's own requests get while the headers hold the placeholder.
   */
  problems(): Promise<string[]>;
}

/** A fresh page that records CSP violations (from the first script on) and console errors. */
async function watchedPage(): Promise<Watched> {
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    const expected401 = /^Failed to load resource: the server responded with a status of 401/.test(message.text()) && message.location().url.endsWith('/v1/graphql');
    if (message.type() === 'error' && !expected401) consoleErrors.push(`console: ${message.text()}`);
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
    problems: async () => [...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)), ...consoleErrors],
  };
}

/** The text of one of GraphiQL's CodeMirror editors (its DOM holds only the lines in view). */
function editorValue(page: Page, selector: string): Promise<string> {
  return page.locator(`${selector} .CodeMirror`).first().evaluate((node) => (node as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
}

/** Waits until the editor holds exactly this text (CodeMirror applies input and results on its own schedule). */
async function editorShows(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([editor, expected]) => (document.querySelector(`${editor} .CodeMirror`) as unknown as { CodeMirror: { getValue(): string } } | null)?.CodeMirror.getValue() === expected,
    [selector, text] as const,
  );
}

const QUERY_EDITOR = '.graphiql-query-editor';
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden)';
const RESULT = '.result-window';

async function openGraphiql(page: Page): Promise<void> {
  const response = await page.goto(`${stack.baseUrl}/v1/graphql`);
  expect(response?.status()).toBe(200);
  await page.locator(`${QUERY_EDITOR} .CodeMirror`).waitFor();
  await page.locator(`${HEADERS_EDITOR} .CodeMirror`).waitFor();
}

/** Replaces the headers editor's text the way a paste does (no per-key auto-closing of brackets). */
async function setHeaders(page: Page, text: string): Promise<void> {
  await page.locator(`${HEADERS_EDITOR} .CodeMirror`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
  await editorShows(page, HEADERS_EDITOR, text);
}

/** Runs the query editor's operation and waits for its POST's response, then for the result pane to show it. */
async function runQuery(page: Page): Promise<{ authorization: string | null; result: Record<string, unknown> }> {
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/graphql' && (r.request().postData() ?? '').includes('Categories'));
  await page.getByRole('button', { name: /Execute query/ }).click();
  const response = await posted;
  // The result pane shows the response once GraphiQL has read it: wait for that, not for a time.
  const answered = JSON.stringify(JSON.parse(await response.text()), null, 2);
  await editorShows(page, RESULT, answered);
  return { authorization: (await response.request().headerValue('authorization')) ?? null, result: JSON.parse(answered) as Record<string, unknown> };
}

describe('GET /v1/graphql over HTTP', () => {
  it('answers a no-store shell under a nonce CSP, and its assets at their content-addressed URLs, cached as immutable', async () => {
    const shell = await fetch(`${stack.baseUrl}/v1/graphql`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(shell.headers.get('cache-control')).toBe('no-store');
    expect(shell.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'nonce-[^']+'; style-src 'nonce-[^']+';/);
    expect(shell.headers.get('x-frame-options')).toBe('DENY');
    const html = await shell.text();
    const urls = [...html.matchAll(/(?:src|href)="(\?asset=[^"]+)"/g)].map(([, url]) => new URL(url!.replace(/&amp;/g, '&'), `${stack.baseUrl}/v1/graphql`));
    expect(urls.map((u) => u.searchParams.get('asset'))).toEqual(['graphiql.css', 'react.js', 'react-dom.js', 'graphiql.js']);
    for (const url of urls) {
      const asset = await fetch(url);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/^text\/(css|javascript); charset=utf-8$/);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await asset.text()).length).toBeGreaterThan(10_000);
    }
    const otherVersion = new URL(urls[3]!);
    otherVersion.searchParams.set('v', '0'.repeat(64));
    const missing = await fetch(otherVersion);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('route_not_found');
  });
});

describe('GET /v1/graphql in Chromium', () => {
  it('starts GraphiQL from its own origin only, with the key placeholder and an example query, without a CSP violation', async () => {
    const { page, problems } = await watchedPage();
    await openGraphiql(page);
    expect(await editorValue(page, HEADERS_EDITOR)).toBe(GRAPHIQL_HEADERS_PLACEHOLDER);
    expect(await editorValue(page, QUERY_EDITOR)).toMatch(/query Categories \{\s+categories \{/);

    // GraphiQL's dialogs inject a style element: it must carry the page's nonce to be allowed.
    await page.getByRole('button', { name: /settings/i }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    expect(await problems()).toEqual([]);
    expect(leftLoopback).toEqual([]);
    await page.close();
  });

  it('runs a query with the key put in the headers editor, shows the data and the schema docs, and never stores the key', async () => {
    const { page, problems } = await watchedPage();
    await openGraphiql(page);

    // The placeholder as it is: a clear 401 in GraphQL's error format, in the result pane.
    const unauthenticated = await runQuery(page);
    expect(unauthenticated.authorization).toBe('Bearer <your test key>');
    expect(unauthenticated.result).toMatchObject({ errors: [{ extensions: { code: 'malformed_api_key', status: 401 } }] });

    const key = stack.keys.find((k) => k.environment === 'test')!.key;
    await setHeaders(page, JSON.stringify({ Authorization: `Bearer ${key}` }, null, 2));
    const { authorization, result } = await runQuery(page);
    expect(authorization).toBe(`Bearer ${key}`);
    expect(result.errors).toBeUndefined();
    const categories = (result.data as { categories: Array<Record<string, unknown>> }).categories;
    expect(categories).toHaveLength(14);

    // With the key in, the schema re-fetched by the button the example query names feeds the Docs panel.
    const introspected = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/graphql' && (r.request().postData() ?? '').includes('IntrospectionQuery'));
    await page.getByRole('button', { name: 'Re-fetch GraphQL schema' }).click();
    const introspection = await introspected;
    expect(await introspection.request().headerValue('authorization')).toBe(`Bearer ${key}`);
    expect(((await introspection.json()) as { data: { __schema: { queryType: { name: string } } } }).data.__schema.queryType.name).toBe('Query');
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    const docs = page.getByRole('region', { name: 'Documentation Explorer' });
    await docs.getByText('Query', { exact: true }).first().click();
    await docs.getByText('categories', { exact: true }).first().waitFor();

    // GraphiQL's history keeps the runs (without their headers); a reload starts from the placeholder again.
    const storedText = () => page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));
    expect(await storedText()).toContain('graphiql:queries=');
    expect(await storedText()).not.toContain(key);
    await openGraphiql(page);
    expect(await editorValue(page, HEADERS_EDITOR)).toBe(GRAPHIQL_HEADERS_PLACEHOLDER);
    expect(await editorValue(page, QUERY_EDITOR)).toMatch(/query Categories \{/);
    expect(await storedText()).not.toContain(key);
    expect(await problems()).toEqual([]);
    expect(leftLoopback).toEqual([]);
    await page.close();
  });
});
