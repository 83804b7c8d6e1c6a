// The sample app (examples/quickstart) in Chromium, started by the same launcher as `npm run example`
// (examples/quickstart/run-local.ts): the local runtime in process, the sample app as its own
// `node server.mjs` process pointed at it, both on ephemeral loopback ports. A person's journey
// through the page, then the app's webhook endpoint against forged, stale and replayed deliveries.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, FrameLocator, Page, Response } from 'playwright-core';
import { launchChromium, type LaunchedChromium } from './chromium';
import { startExample, startSampleApp, stopChild, type RunningExample } from '../../examples/quickstart/run-local';
import { signingSecrets } from '../../functions/app/webhooks';
import { CATEGORIES } from '../../functions/core/taxonomy';
import { TOKEN_PREFIX } from '../../functions/core/tokens';
import { webhookHeaders } from '../../functions/core/webhook-signature';
import { AXE_PATH, seriousAxeFindings } from './axe';

const BANK = 'Sandbox First Bank';

let example: RunningExample;
let browser: LaunchedChromium | undefined;
let context: BrowserContext;
/** What the sample app printed after its start line (its own errors), shown when a test fails. */
const appOutput: string[] = [];

beforeAll(async () => {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest (npm run test:browser)');
  example = await startExample({
    appPort: 0,
    // The run's shared DynamoDB Local, a fresh table; webhook retries ~5,000x faster than real time.
    stack: { dynamodbEndpoint: endpoint, tableName: `t_${randomUUID().slice(0, 8)}`, validateResponses: true, webhookTimeScale: 0.0002 },
    onAppOutput: (line) => appOutput.push(line),
  });
  browser = await launchChromium('fc-sample-app-');
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await example?.stop();
  if (appOutput.length) console.log(`the sample app printed:\n${appOutput.join('\n')}`);
});

// Playwright waits time out after 20 s; the test timeout is higher so that a stuck step fails with
// Playwright's own message rather than Jest's generic timeout.
jest.setTimeout(120_000);

interface SampleEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

async function sampleEvents(): Promise<SampleEvent[]> {
  const res = await fetch(`${example.appUrl}/api/events`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: SampleEvent[] }).events;
}

/** Goes through sandbox Link in the SDK's modal: consent, institution, credentials, then success. */
async function connectThroughLink(page: Page): Promise<void> {
  await page.waitForFunction(() => !(document.getElementById('connect') as HTMLButtonElement).disabled);
  await page.getByRole('button', { name: 'Connect a bank' }).click();
  const link: FrameLocator = page.frameLocator('iframe[title="Fincore Link"]');
  await link.getByRole('button', { name: 'Continue' }).click();
  await link.getByLabel('Search institutions').fill(BANK);
  await link.getByRole('button', { name: new RegExp(`^${BANK}`) }).click();
  await link.getByLabel('Username', { exact: true }).fill('user_good');
  await link.getByLabel('Password', { exact: true }).fill('pass_good');
  await link.getByRole('button', { name: 'Submit' }).click();
  // Link may ask which accounts to share (a list of checkboxes) before the success screen: keep
  // its default selection and go on.
  const connected = link.getByRole('heading', { level: 1, name: /connected/i });
  const accountChoice = link.getByRole('checkbox').first();
  await connected.or(accountChoice).waitFor();
  if (await accountChoice.isVisible()) {
    await link.getByRole('button', { name: /^(Continue|Share|Confirm|Connect)/ }).first().click();
    await connected.waitFor();
  }
  // Continue closes the modal (and removes its frame) while the click is delivered: a protocol
  // click can then wait out its timeout, so the button gets a DOM click (as in link.test.ts).
  await link.getByRole('button', { name: 'Continue' }).dispatchEvent('click');
  await page.locator('iframe[title="Fincore Link"]').waitFor({ state: 'detached' });
}

/** axe-core (injected before the page's scripts) on the page as it is now: no serious or critical finding. */
async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await seriousAxeFindings(page);
  expect({ page: label, violations }).toEqual({ page: label, violations: [] });
}

describe('the sample app in Chromium', () => {
  let page: Page;
  afterEach(async () => {
    await page?.close();
  });

  it('connects through Link, shows categorised transactions and verified webhooks, and never hands the browser the access token', async () => {
    page = await context.newPage();
    // The narrowest phone the sample is written for.
    await page.setViewportSize({ width: 375, height: 800 });
    const responses: Response[] = [];
    page.on('response', (response) => responses.push(response));
    // An init script is not subject to the page's CSP, which allows only the app's and Fincore's scripts.
    await page.addInitScript({ path: AXE_PATH });
    await page.goto(example.appUrl);
    await page.getByRole('heading', { level: 1, name: 'Quickstart Budget' }).waitFor();
    await page.getByText('Ready.').waitFor();
    await expectAccessible(page, 'before connecting');

    await connectThroughLink(page);

    // Link answers before the history loads; the webhook announcing it makes the app sync, and
    // the page shows the rows it synced.
    await page.locator('#transactions tr').first().waitFor();
    await page.getByText(/Showing the \d+ newest of \d+ synced transactions/).waitFor();
    const rows = await page.locator('#transactions tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.childNodes[0]?.textContent?.trim() ?? '')),
    );
    expect(rows.length).toBeGreaterThan(10);
    const categoryLabels = new Set(CATEGORIES.map((c) => c.label));
    for (const [date, name, , amount, category] of rows) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(name).not.toBe('');
      expect(amount).toMatch(/\d/);
      // The taxonomy's label, or "Uncategorised" where the enrichment found none.
      expect(categoryLabels.has(category) || category === 'Uncategorised').toBe(true);
    }
    const categorised = rows.filter(([, , , , category]) => categoryLabels.has(category));
    expect(categorised.length).toBeGreaterThan(rows.length / 2);

    // The webhook panel lists the verified announcement of the history.
    await page.locator('#webhooks li', { hasText: 'transactions.sync_updates_available' }).first().waitFor();
    const events = await sampleEvents();
    expect(events.some((e) => e.type === 'transactions.sync_updates_available' && typeof e.data.item_id === 'string')).toBe(true);

    // Nothing the page received, nor anything it stores, holds an access token.
    expect(responses.length).toBeGreaterThan(5);
    for (const response of responses) {
      const body = await response.text().catch(() => '');
      expect({ url: response.url(), leaks: body.includes(TOKEN_PREFIX.access) }).toEqual({ url: response.url(), leaks: false });
    }
    const stored = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]));
    expect(stored).not.toContain(TOKEN_PREFIX.access);
    expect(JSON.stringify(await context.cookies())).not.toContain(TOKEN_PREFIX.access);
    // ...while the app's server does hold the item it connected.
    const synced = (await (await fetch(`${example.appUrl}/api/transactions`)).json()) as { items: unknown[]; total: number };
    expect(synced.items).toHaveLength(1);
    expect(synced.total).toBeGreaterThanOrEqual(rows.length);

    await expectAccessible(page, 'with transactions and webhooks');
    // At 375 px nothing but the table's own scroll box is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe("the sample app's webhook endpoint", () => {
  const body = (id: string) => JSON.stringify({ id, type: 'item.login_repaired', created: Math.floor(Date.now() / 1000), data: { item_id: 'item_sample_test' } });
  const deliver = (rawBody: string, headers: Record<string, string>) =>
    fetch(`${example.appUrl}/webhooks`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: rawBody });
  /** The environment's signing secrets, as Fincore signs its deliveries with them. */
  const secrets = async () => {
    const key = example.stack.keys.find((k) => k.key === example.apiKey)!;
    return signingSecrets(example.stack.deps, { applicationId: key.applicationId, environment: key.environment });
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const recordedIds = async () => (await sampleEvents()).map((e) => e.id);

  it('accepts a genuine delivery once, and refuses a wrong signature, a stale timestamp and a replay with 400 without recording them', async () => {
    const signing = await secrets();

    const forged = body('evt_forged');
    const wrongSecret = await deliver(forged, webhookHeaders(['whsec_not_the_environments_secret'], nowSeconds(), forged));
    expect(wrongSecret.status).toBe(400);
    expect(await wrongSecret.json()).toEqual({ error: 'signature_mismatch' });
    const unsigned = await deliver(forged, { 'FC-Timestamp': String(nowSeconds()) });
    expect(unsigned.status).toBe(400);

    // Genuinely signed, but six minutes ago: outside the five-minute window.
    const stale = body('evt_stale');
    const staleRes = await deliver(stale, webhookHeaders(signing, nowSeconds() - 360, stale));
    expect(staleRes.status).toBe(400);
    expect(await staleRes.json()).toEqual({ error: 'timestamp_outside_window' });

    // Genuine and fresh: recorded. The same signed request again is a replay.
    const genuine = body('evt_genuine');
    const headers = webhookHeaders(signing, nowSeconds(), genuine);
    expect((await deliver(genuine, headers)).status).toBe(200);
    const replay = await deliver(genuine, headers);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: 'replayed' });

    // A body altered after signing no longer matches its signature.
    const tampered = await deliver(genuine.replace('item_sample_test', 'item_someone_else'), headers);
    expect(tampered.status).toBe(400);

    const ids = await recordedIds();
    expect(ids.filter((id) => id === 'evt_genuine')).toHaveLength(1);
    expect(ids).not.toContain('evt_forged');
    expect(ids).not.toContain('evt_stale');
  });

  it('refuses a replay whose FC-Signature is spelled differently: upper-case hex, an extra entry, entries reordered', async () => {
    const signing = await secrets();
    const event = body('evt_respelled');
    const headers = webhookHeaders(signing, nowSeconds(), event);
    expect((await deliver(event, headers)).status).toBe(200);
    const signature = headers['FC-Signature'];
    const upperHex = signature.replace(/v1=([0-9a-f]+)/g, (_, hex: string) => `v1=${hex.toUpperCase()}`);
    const extraEntry = `${signature},v1=${'0'.repeat(64)}`;
    const reordered = `v0=not_a_scheme_we_know,${signature}`;
    for (const respelled of [upperHex, extraEntry, reordered]) {
      expect(respelled).not.toBe(signature);
      const replay = await deliver(event, { ...headers, 'FC-Signature': respelled });
      expect({ respelled, status: replay.status, body: await replay.json() }).toEqual({ respelled, status: 400, body: { error: 'replayed' } });
    }
    expect((await recordedIds()).filter((id) => id === 'evt_respelled')).toHaveLength(1);
  });

  it('acknowledges a retry of an event it already has (signed afresh) without recording it twice', async () => {
    const signing = await secrets();
    const event = body('evt_retried');
    expect((await deliver(event, webhookHeaders(signing, nowSeconds(), event))).status).toBe(200);
    // Fincore signs each attempt afresh; a different timestamp makes a different signature.
    const retry = await deliver(event, webhookHeaders(signing, nowSeconds() - 1, event));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: true, duplicate: true });
    expect((await recordedIds()).filter((id) => id === 'evt_retried')).toHaveLength(1);
  });
});

describe("the sample app's state-changing /api routes", () => {
  const connectedItems = async () => ((await (await fetch(`${example.appUrl}/api/transactions`)).json()) as { items: Array<{ item_id: string }> }).items.map((i) => i.item_id);
  const exchange = (headers: Record<string, string>, publicToken: string) =>
    fetch(`${example.appUrl}/api/exchange`, { method: 'POST', headers, body: JSON.stringify({ public_token: publicToken }) });

  it('refuses cross-site requests (a text/plain form POST, a foreign Origin, Sec-Fetch-Site cross-site) with 403 and attaches nothing', async () => {
    // A genuine public token, as an attacker would get for an item of their own.
    const created = await fetch(`${example.fincoreBaseUrl}/v1/sandbox/public_token/create`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${example.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ institution_id: 'ins_sandbox_first_bank', products: ['transactions'] }),
    });
    expect(created.status).toBe(200);
    const { public_token } = (await created.json()) as { public_token: string };
    const before = await connectedItems();

    const attempts: Array<Record<string, string>> = [
      // What an auto-submitted form or a no-cors fetch on another site sends: no preflight needed.
      { 'Content-Type': 'text/plain;charset=UTF-8', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { 'Content-Type': 'text/plain;charset=UTF-8', Origin: 'https://evil.example' },
      { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' },
      // The page's own origin, but not JSON.
      { 'Content-Type': 'text/plain', Origin: new URL(example.appUrl).origin },
      // Neither header: nothing vouches that the page sent it.
      { 'Content-Type': 'application/json' },
    ];
    for (const headers of attempts) {
      const res = await exchange(headers, public_token);
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
    }
    const linkToken = await fetch(`${example.appUrl}/api/link-token`, { method: 'POST', headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' }, body: '{}' });
    expect(linkToken.status).toBe(403);
    expect(await connectedItems()).toEqual(before);

    // The same token from the page's origin goes through: the refusals were the origin check's.
    const sameOrigin = await exchange({ 'Content-Type': 'application/json', Origin: new URL(example.appUrl).origin }, public_token);
    expect(sameOrigin.status).toBe(200);
    const { item_id } = (await sameOrigin.json()) as { item_id: string };
    expect(await connectedItems()).toEqual([...before, item_id]);
  });
});

describe('the sample app against a Fincore where one item fails and amounts come in currencies Intl does not know', () => {
  /** Synced rows of the healthy item: a dollar amount, a four-letter crypto code, and no code at all. */
  const goodRows = [
    { transaction_id: 'tx_usd', amount: 12.5, iso_currency_code: 'USD', name: 'Coffee' },
    { transaction_id: 'tx_usdt', amount: 0.125, iso_currency_code: 'USDT', name: 'Stablecoin transfer' },
    { transaction_id: 'tx_none', amount: 7, iso_currency_code: null, name: 'Reward points' },
  ].map((row, index) => ({ ...row, date: `2025-01-0${index + 1}`, merchant_name: null, pending: false, category: null, category_detailed: null }));

  let page: Page | undefined;

  /** A stand-in for Fincore: the item exchanged from `public-broken` answers every sync with an error. */
  function fakeFincore(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>) : {};
      const json = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      switch (req.url) {
        case '/link/sdk.js':
          res.writeHead(200, { 'Content-Type': 'text/javascript' });
          return void res.end('window.FincoreLink = { create: () => ({ open() {} }) };');
        case '/v1/webhooks/endpoints/create':
          return json(200, { id: 'we_fake', url: body.url });
        case '/v1/link/token/exchange':
          return json(200, { access_token: `access-${body.public_token}`, item_id: `item_${body.public_token.replace('public-', '')}` });
        case '/v1/categories/get':
          return json(200, { categories: [] });
        case '/v1/transactions/sync':
          if (body.access_token === 'access-public-broken') return json(400, { error: { code: 'ITEM_LOGIN_REQUIRED', message: 'the login changed' } });
          return json(200, { added: goodRows, modified: [], removed: [], next_cursor: 'cursor-1', has_more: false, transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE' });
        default:
          return json(404, { error: { code: 'NOT_FOUND', message: req.url } });
      }
    });
  }

  it('syncs the other items when one fails (and logs it), and shows every amount, in whatever currency', async () => {
    const fake = createServer(fakeFincore);
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const output: string[] = [];
    const app = await startSampleApp({ FINCORE_BASE_URL: fakeUrl, FINCORE_API_KEY: 'fc_sk_test_fake', PORT: '0', HOST: '127.0.0.1' }, (line) => output.push(line));
    try {
      // The broken item first: syncing stops at it unless each item's failure is contained.
      for (const publicToken of ['public-broken', 'public-good']) {
        const res = await fetch(`${app.url}/api/exchange`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: new URL(app.url).origin },
          body: JSON.stringify({ public_token: publicToken }),
        });
        expect(res.status).toBe(200);
      }
      const synced = await fetch(`${app.url}/api/transactions`);
      expect(synced.status).toBe(200);
      const result = (await synced.json()) as { items: Array<{ item_id: string; transactions_update_status: string }>; total: number; transactions: Array<{ transaction_id: string }> };
      expect(result.items).toEqual([
        { item_id: 'item_broken', transactions_update_status: 'not_ready' },
        { item_id: 'item_good', transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE' },
      ]);
      expect(result.transactions.map((t) => t.transaction_id).sort()).toEqual(['tx_none', 'tx_usd', 'tx_usdt']);
      expect(output.some((line) => line.includes('sync of item_broken failed') && line.includes('ITEM_LOGIN_REQUIRED'))).toBe(true);

      // The page renders every row: a code Intl refuses shows as number and code instead of breaking the table.
      page = await context.newPage();
      await page.goto(app.url);
      await page.locator('#transactions tr').nth(2).waitFor();
      const amounts = Object.fromEntries(
        await page.locator('#transactions tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('td')?.textContent ?? '', tr.querySelector('td.amount')?.textContent ?? ''])),
      ) as Record<string, string>;
      expect(amounts['2025-01-01']).toMatch(/12[.,]50/);
      expect(amounts['2025-01-02']).toMatch(/^0[.,]125 USDT$/);
      expect(amounts['2025-01-03']).toBe('7');
      // The page's formatter itself, on the codes a live connector may send.
      // A string, so that the compiled test does not turn the browser's import() into a require().
      const formatted = await page.evaluate(
        `import('/format.js').then(({ formatAmount }) => [-4, 'EUR', 1.5, 'DOGE', 2, null, 3, 'usd', 1, ''].reduce((out, value, i, all) => (i % 2 ? out : [...out, formatAmount(value, all[i + 1], 'en-US')]), []))`,
      );
      expect(formatted).toEqual(['-€4.00', '1.5 DOGE', '2', '$3.00', '1']);
    } finally {
      await page?.close();
      await stopChild(app.child);
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });
});
