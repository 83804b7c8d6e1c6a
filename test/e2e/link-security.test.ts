// Link under adversarial use, over HTTP: update mode while a refresh holds the item, concurrent
// wrong answers, redirect_uri and embedding allowlists, and the rate limit of the page's own API.
// The service clock is manual and moves a minute before each test, so every test starts in a fresh
// rate-limit window.
import { UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { getLinkSession } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import { parseSeed } from '../../functions/platform/local/seed';
import { sandboxConnector } from '../../functions/connectors/sandbox';
import { LIMITS } from '../../functions/contracts/limits';
import { manualClock } from '../support/embedded';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

const BANK = 'ins_sandbox_first_bank';
const ALLOWED_REDIRECT = 'https://app.acme.example/link/done';
const ALLOWED_ORIGIN = 'https://shop.acme.example';
const testKey = makeKey('test');
const liveKey = makeKey('live');
const unlistedLiveKey = makeKey('live');
const clock = manualClock(Date.UTC(2026, 6, 1, 12, 0, 0));

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack(
    [
      { application: 'Acme', plan: 'enterprise', keys: [testKey, liveKey], redirect_uris: [ALLOWED_REDIRECT], link_origins: [ALLOWED_ORIGIN] },
      { application: 'No lists', plan: 'enterprise', keys: [unlistedLiveKey] },
    ],
    { clock },
  );
});
afterAll(() => stack.stop());
beforeEach(() => clock.advance(60_000));

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key: testKey, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

function createLinkToken(extra: Record<string, unknown> = {}, key = testKey) {
  return post('/v1/link/token/create', { user: { client_user_id: 'user-1' }, products: ['transactions'], ...extra }, { key });
}

async function linkToken(extra: Record<string, unknown> = {}, key = testKey): Promise<string> {
  const res = await createLinkToken(extra, key);
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

const linkApi = (route: string, body: Record<string, unknown>) => post(`/link/api/${route}`, body, { key: null });

async function exchange(publicToken: string) {
  const res = await post('/v1/link/token/exchange', { public_token: publicToken });
  expect(res.status).toBe(200);
  return res.json as { access_token: string; item_id: string; rotated: boolean };
}

async function brokenItem() {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: BANK, products: ['transactions'] });
  const item = await exchange(pt.json.public_token as string);
  await stack.historyLoaded(item.item_id);
  expect((await post('/v1/sandbox/item/reset_login', { access_token: item.access_token })).status).toBe(200);
  return item;
}

/** What a refresh in progress looks like to everyone else: the item's ingestion lease is taken. */
async function holdIngestionLease(itemId: string) {
  await stack.deps.ddb.send(
    new UpdateCommand({
      TableName: stack.deps.config.tableName,
      Key: keys.item(itemId),
      UpdateExpression: 'SET ingest_lease_until = :until',
      ExpressionAttributeValues: { ':until': clock.now() + 60_000 },
    }),
  );
}

describe('update mode while a refresh holds the item', () => {
  it.each([
    ['credentials', 'user_good'],
    ['MFA', 'user_mfa'],
  ])('completes Link through the %s path, issues a usable public token and leaves the sync to the refresh worker', async (_path, username) => {
    const item = await brokenItem();
    await holdIngestionLease(item.item_id);
    const enqueue = jest.spyOn(stack.deps.ports.refreshQueue, 'enqueue').mockResolvedValue(undefined);
    try {
      const token = await linkToken({ update_item_id: item.item_id });
      let step = await linkApi('connect', { link_token: token, institution_id: BANK, username, password: 'pass_good' });
      if (username === 'user_mfa') {
        expect(step.json.status).toBe('mfa_required');
        step = await linkApi('mfa', { link_token: token, code: '1234' });
      }
      expect(step.status).toBe(200);
      expect(step.json).toMatchObject({ status: 'connected', metadata: { item_id: item.item_id } });
      expect(enqueue).toHaveBeenCalledWith({ item_id: item.item_id, reason: 'login_repaired' });

      const rotated = await exchange(step.json.public_token as string);
      expect(rotated).toMatchObject({ item_id: item.item_id, rotated: true });
      const got = await post('/v1/items/get', { access_token: rotated.access_token });
      expect(got.json.item).toMatchObject({ status: 'healthy', error: null });
      expect((await getLinkSession(stack.deps, token))?.status).toBe('completed');
    } finally {
      enqueue.mockRestore();
    }
  });
});

describe('wrong answers sent concurrently', () => {
  const wrongAnswers = 20;

  function tally(statuses: { json: { error?: { code: string } } }[]) {
    const counts: Record<string, number> = {};
    for (const res of statuses) counts[res.json.error?.code ?? 'ok'] = (counts[res.json.error?.code ?? 'ok'] ?? 0) + 1;
    return counts;
  }

  it('count exactly five wrong MFA codes; the rest are too_many_attempts', async () => {
    const token = await linkToken();
    expect((await linkApi('connect', { link_token: token, institution_id: BANK, username: 'user_mfa', password: 'pass_good' })).json.status).toBe('mfa_required');
    const answers = await Promise.all(Array.from({ length: wrongAnswers }, () => linkApi('mfa', { link_token: token, code: '0000' })));
    expect(tally(answers)).toEqual({ invalid_mfa_code: LIMITS.linkAttemptsMax - 1, too_many_attempts: wrongAnswers - LIMITS.linkAttemptsMax + 1 });
    expect((await getLinkSession(stack.deps, token))?.failedAttempts).toBe(LIMITS.linkAttemptsMax);
    // Locked: even the right code no longer connects.
    expect((await linkApi('mfa', { link_token: token, code: '1234' })).json.error.code).toBe('too_many_attempts');
  });

  it('count exactly five wrong passwords; the rest are too_many_attempts, and never reach the institution', async () => {
    const token = await linkToken();
    // Each guess must take an attempt before the connector sees it: the institution gets five, not twenty.
    const login = jest.spyOn(sandboxConnector, 'login');
    try {
      const answers = await Promise.all(
        Array.from({ length: wrongAnswers }, () => linkApi('connect', { link_token: token, institution_id: BANK, username: 'nobody', password: 'wrong' })),
      );
      expect(tally(answers)).toEqual({ invalid_credentials: LIMITS.linkAttemptsMax - 1, too_many_attempts: wrongAnswers - LIMITS.linkAttemptsMax + 1 });
      expect(login).toHaveBeenCalledTimes(LIMITS.linkAttemptsMax);
    } finally {
      login.mockRestore();
    }
    expect((await getLinkSession(stack.deps, token))?.failedAttempts).toBe(LIMITS.linkAttemptsMax);
  });

  it('gives an accepted attempt back: four wrong passwords and then the right one connect', async () => {
    const token = await linkToken();
    for (let i = 0; i < LIMITS.linkAttemptsMax - 1; i++) {
      expect((await linkApi('connect', { link_token: token, institution_id: BANK, username: 'nobody', password: 'wrong' })).json.error.code).toBe('invalid_credentials');
    }
    const connected = await linkApi('connect', { link_token: token, institution_id: BANK, username: 'user_good', password: 'pass_good' });
    expect([connected.status, connected.json.status]).toEqual([200, 'connected']);
  });
});

describe('redirect_uri', () => {
  it('lets a live key use only an https redirect URI on its application’s list (exact match after normalisation)', async () => {
    for (const uri of [ALLOWED_REDIRECT, 'HTTPS://App.Acme.Example:443/link/done']) {
      expect((await createLinkToken({ redirect_uri: uri }, liveKey)).status).toBe(200);
    }
    for (const uri of ['http://app.acme.example/link/done', 'https://app.acme.example/link/done/', 'https://app.acme.example/link/done?next=1', 'https://evil.example/link/done', 'http://127.0.0.1:8080/cb']) {
      const res = await createLinkToken({ redirect_uri: uri }, liveKey);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('redirect_uri_not_allowed');
    }
  });

  it('refuses every redirect URI for a live key whose application lists none', async () => {
    const res = await createLinkToken({ redirect_uri: 'https://app.example.com/done' }, unlistedLiveKey);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('redirect_uri_not_allowed');
    expect((await createLinkToken({}, unlistedLiveKey)).status).toBe(200);
  });

  it('lets a test key use any https URI or loopback http, and nothing else', async () => {
    for (const uri of ['https://anything.example/cb', 'http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb']) {
      expect((await createLinkToken({ redirect_uri: uri })).status).toBe(200);
    }
    for (const uri of ['http://app.example.com/cb', 'http://10.0.0.8/cb', 'https://user:pw@app.example.com/cb']) {
      const res = await createLinkToken({ redirect_uri: uri });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('redirect_uri_not_allowed');
    }
  });

  it('is configured per application in FC_LOCAL_SEED, which refuses entries that are not https or loopback http', () => {
    const app = { application: 'A', plan: 'free', keys: [makeKey('test')] };
    expect(parseSeed(JSON.stringify([{ ...app, redirect_uris: ['HTTPS://A.example/cb'], link_origins: ['https://a.example'] }]))?.[0]).toMatchObject({
      redirect_uris: ['https://a.example/cb'],
      link_origins: ['https://a.example'],
    });
    expect(() => parseSeed(JSON.stringify([{ ...app, redirect_uris: ['http://a.example/cb'] }]))).toThrow(/redirect_uris\.0.*https/);
    expect(() => parseSeed(JSON.stringify([{ ...app, link_origins: ['https://a.example/path'] }]))).toThrow(/link_origins\.0/);
  });
});

describe('embedding the Link page', () => {
  const page = (token: string, origin: string) => fetch(`${stack.baseUrl}/link?token=${token}&embed=1&origin=${encodeURIComponent(origin)}`);

  async function expectAllowed(token: string, origin: string) {
    const res = await page(token, origin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')?.split('; ')).toContain(`frame-ancestors ${origin}`);
    expect(await res.text()).toContain(`"parentOrigin":"${origin}"`);
  }

  async function expectRefused(token: string, origin: string) {
    const res = await page(token, origin);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain('invalid_embed');
    expect(html).not.toContain(token);
    expect(html).not.toContain(origin);
  }

  it('lets a live token be framed only by an origin on the application’s list', async () => {
    const token = await linkToken({}, liveKey);
    await expectAllowed(token, ALLOWED_ORIGIN);
    for (const origin of ['https://evil.example', 'http://shop.acme.example', 'http://127.0.0.1:4000']) await expectRefused(token, origin);
  });

  it('lets a test token be framed by the listed origins and loopback origins only', async () => {
    const token = await linkToken();
    for (const origin of [ALLOWED_ORIGIN, 'http://127.0.0.1:4000', 'http://localhost:5173']) await expectAllowed(token, origin);
    await expectRefused(token, 'https://evil.example');
  });

  it('refuses every parent origin for an application that lists none (live)', async () => {
    const token = await linkToken({}, unlistedLiveKey);
    await expectRefused(token, 'https://app.example.com');
    expect((await fetch(`${stack.baseUrl}/link?token=${token}`)).status).toBe(200);
  });
});

describe('the rate limit of the Link page’s API', () => {
  it(`answers 429 with Retry-After after ${LIMITS.linkCallsPerTokenPerMinute} calls a minute with one token; other tokens are unaffected`, async () => {
    const [token, other] = [await linkToken(), await linkToken()];
    for (let i = 0; i < LIMITS.linkCallsPerTokenPerMinute; i += 1) {
      expect((await linkApi('session', { link_token: token })).status).toBe(200);
    }
    const refused = await linkApi('institutions', { link_token: token, query: 'bank' });
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await linkApi('session', { link_token: other })).status).toBe(200);

    clock.advance(60_000);
    expect((await linkApi('session', { link_token: token })).status).toBe(200);
  });

  it(`limits one client address to ${LIMITS.linkCallsPerAddressPerMinute} calls a minute across tokens`, async () => {
    const perToken = LIMITS.linkCallsPerTokenPerMinute;
    const tokens = await Promise.all(Array.from({ length: Math.ceil(LIMITS.linkCallsPerAddressPerMinute / perToken) + 1 }, () => linkToken()));
    let accepted = 0;
    for (const token of tokens.slice(0, -1)) {
      for (let i = 0; i < perToken && accepted < LIMITS.linkCallsPerAddressPerMinute; i += 1) {
        expect((await linkApi('session', { link_token: token })).status).toBe(200);
        accepted += 1;
      }
    }
    const refused = await linkApi('session', { link_token: tokens[tokens.length - 1] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });

  it('counts a call before any other work, so a locked-out token cannot be used to probe', async () => {
    const token = await linkToken();
    for (let i = 0; i < LIMITS.linkCallsPerTokenPerMinute; i += 1) await linkApi('session', { link_token: token });
    const res = await linkApi('connect', { link_token: token, institution_id: BANK, username: 'user_good', password: 'pass_good' });
    expect(res.status).toBe(429);
    expect((await getLinkSession(stack.deps, token))?.status).toBe('open');
  });
});
