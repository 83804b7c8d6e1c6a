// The Link page's consent steps beyond credentials in a real browser (Debian's Chromium through
// playwright-core, as link.test.ts): the statement upload against the real local stack and a corpus
// file read in place, and the API-key and address forms (their method answer and refusals are
// stubbed with page.route, since test keys reach the sandbox, whose logins use credentials).
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './chromium';
import { startTestStack, type TestStack } from '../support/stack';

const STATEMENTS = join(__dirname, '../../../shared/statements');
const CLIENT = 'Acme Budget';

let stack: TestStack;
let context: BrowserContext;
let browser: LaunchedChromium | undefined;

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchChromium('fc-link-consent-chromium-');
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

jest.setTimeout(120_000);

let page: Page;
beforeEach(async () => {
  page = await context.newPage();
});
afterEach(async () => {
  await page?.close();
});

async function openLink(institutionId: string): Promise<void> {
  const res = await stack.call('/v1/link/token/create', {
    body: { client_name: CLIENT, user: { client_user_id: 'user-1' }, products: ['transactions'], institution_id: institutionId },
  });
  expect(res.status).toBe(200);
  await page.goto(`${stack.baseUrl}/link?token=${res.json.link_token as string}`);
  await page.getByRole('heading', { level: 1, name: /uses Fincore/ }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Every input has a labelled control; the h1 has focus when the screen appears. */
async function a11yProblems(): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const node of Array.from(document.querySelectorAll('input'))) {
      if (!Array.from(node.labels ?? []).some((l) => (l.textContent ?? '').trim() !== '')) problems.push(`input ${node.id} has no label`);
      const described = node.getAttribute('aria-describedby');
      if (described && !document.getElementById(described.split(' ')[0]!)) problems.push(`input ${node.id} is described by a missing element`);
    }
    if (document.activeElement?.tagName !== 'H1') problems.push(`focus is on ${document.activeElement?.tagName}`);
    return problems;
  });
}

/** Waits until the screen's alert (role="alert", announced) says exactly `text`. */
async function alertSays(text: string): Promise<void> {
  await page.getByRole('alert').filter({ hasText: text }).waitFor();
  expect(await page.getByRole('alert').textContent()).toBe(text);
}

describe('Upload a statement', () => {
  it('offers the upload beside the sign-in, names the importer\u2019s problem, then connects with a real statement', async () => {
    await openLink('ins_chase');
    await page.getByRole('heading', { level: 1, name: 'Sign in to Chase' }).waitFor();
    await page.getByRole('button', { name: 'Upload a statement instead' }).click();
    await page.getByRole('heading', { level: 1, name: 'Upload a statement' }).waitFor();
    expect(await a11yProblems()).toEqual([]);
    const input = page.getByLabel('Statement file', { exact: true });
    expect(await input.getAttribute('accept')).toBe('.csv,.ofx,.qfx,.qbo');

    // Nothing chosen: said inline, and the file input is marked and focused.
    await page.getByRole('button', { name: 'Upload' }).click();
    await alertSays('Choose a statement file to upload.');
    expect(await input.getAttribute('aria-invalid')).toBe('true');

    // A file that is not a statement: the importer's own message, announced in the alert.
    await input.setInputFiles(join(STATEMENTS, 'OFXSharp__not-an-ofx-file.ofx'));
    const refused = page.waitForResponse((r) => r.url().endsWith('/link/api/upload'));
    await page.getByRole('button', { name: 'Upload' }).press('Enter');
    const refusedBody = await (await refused).json();
    expect(refusedBody.error.code).toBe('statement_unrecognized');
    await alertSays(refusedBody.error.message);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('fc-file');

    await input.setInputFiles(join(STATEMENTS, 'ofx-js__example1.ofx'));
    await page.getByRole('button', { name: 'Upload' }).click();
    // Link asks which accounts to share after every connection; Continue keeps them all.
    await page.getByRole('heading', { level: 1, name: 'Choose the accounts to share' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account connected' }).waitFor();
    expect(await page.getByRole('list', { name: 'Connected accounts' }).getByRole('listitem').count()).toBe(1);
  });
});

describe('API key and address forms', () => {
  async function stubMethod(method: 'api_key' | 'address', refusal: string) {
    await page.route('**/link/api/method', (route) => route.fulfill({ json: { institution_id: 'ins_coinbase', method, file_upload: false } }));
    const sent: Record<string, unknown>[] = [];
    await page.route('**/link/api/consent', (route) => {
      sent.push(route.request().postDataJSON() as Record<string, unknown>);
      return route.fulfill({ status: 400, json: { error: { type: 'item_error', code: 'invalid_credentials', message: refusal, request_id: 'req_1' } } });
    });
    return sent;
  }

  it('asks for a read-only key and secret with labelled fields, and shows the refusal inline', async () => {
    const sent = await stubMethod('api_key', 'The key cannot read balances. 4 attempts left.');
    await openLink('ins_coinbase');
    await page.getByRole('heading', { level: 1, name: 'Connect Coinbase with an API key' }).waitFor();
    expect(await a11yProblems()).toEqual([]);
    expect(await page.locator('#fc-api-key-help').textContent()).toContain('read-only');
    await page.getByRole('button', { name: 'Connect' }).click();
    await alertSays('Enter the API key and its secret.');
    await page.getByLabel('API key', { exact: true }).fill('  key-123 ');
    await page.getByLabel('API secret', { exact: true }).fill('secret-456');
    await page.getByLabel('API secret', { exact: true }).press('Enter');
    await alertSays('The key cannot read balances. 4 attempts left.');
    expect(sent).toEqual([expect.objectContaining({ institution_id: 'ins_coinbase', api_key: 'key-123', api_secret: 'secret-456' })]);
    // The secret is not left in the form after a refusal.
    expect(await page.getByLabel('API secret', { exact: true }).inputValue()).toBe('');
  });

  it('asks for a public address, warning never to enter a private key', async () => {
    const sent = await stubMethod('address', 'That is not a Bitcoin or Ethereum address.');
    await openLink('ins_coinbase');
    await page.getByRole('heading', { level: 1, name: 'Add your wallet address' }).waitFor();
    expect(await a11yProblems()).toEqual([]);
    expect(await page.locator('#fc-address-help').textContent()).toContain('Never enter a private key');
    await page.getByLabel('Wallet address', { exact: true }).fill('0xnot-an-address');
    await page.getByRole('button', { name: 'Connect' }).click();
    await alertSays('That is not a Bitcoin or Ethereum address.');
    expect(await page.getByLabel('Wallet address', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([expect.objectContaining({ address: '0xnot-an-address' })]);
  });
});
