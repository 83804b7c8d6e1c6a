// The sandbox's OAuth institutions over HTTP: their method is `oauth` for test keys, oauth/start
// sends the user to the simulated bank consent page this deployment serves, Allow or Deny (the
// page's POST form, recorded against the state) redirects to the link token's redirect_uri with
// `oauth_state_id` (Plaid's OAuth redirect) or to Link's own callback, and Link resumes from the
// received_redirect_uri. Also: the state is single use, bound to its session, expires (injected
// clock) and completes only once answered on the page; a GET never answers; the bank returns only
// to a loopback or allowlisted redirect_uri; a received_redirect_uri that is not the token's
// redirect_uri is refused; the bank page refuses to be framed and never redirects anywhere its
// session does not name.
import { manualClock } from '../support/embedded';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

const OAUTH_BANK = 'ins_sandbox_thames_bank';
const REDIRECT = 'https://app.acme.example/oauth-return';
const testKey = makeKey('test');
const clock = manualClock(Date.UTC(2026, 6, 1, 12, 0, 0));

let stack: TestStack;

beforeAll(async () => {
  // Like Plaid's sandbox, the bank returns only to an allowlisted (or loopback) redirect URI.
  stack = await startTestStack([{ application: 'OAuth', plan: 'enterprise', keys: [testKey], redirect_uris: [REDIRECT] }], { clock });
});
afterAll(() => stack.stop());
// Every test starts in a fresh rate-limit window of the page's API.
beforeEach(() => clock.advance(60_000));

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key: testKey, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}
const linkApi = (route: string, body: Record<string, unknown>) => post(`/link/api/${route}`, body, { key: null });

async function linkToken(redirectUri: string | null = REDIRECT): Promise<string> {
  const res = await post('/v1/link/token/create', { user: { client_user_id: 'user-1' }, products: ['transactions'], ...(redirectUri ? { redirect_uri: redirectUri } : {}) });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

/** GET without following redirects (the bank's answer is a 303 to another site). */
async function get(url: string) {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function startAt(token: string): Promise<URL> {
  const res = await linkApi('oauth/start', { link_token: token, institution_id: OAUTH_BANK });
  expect(res.status).toBe(200);
  return new URL(res.json.authorize_url as string);
}

/** Submits the bank page's form (as the browser does: urlencoded POST to the same path), without following the redirect. */
async function submit(authorize: URL, fields: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  const res = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': contentType },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The page's form fields for a consent (the hidden session and state) with a decision. */
function formOf(authorize: URL, decision: string): Record<string, string> {
  return { session: authorize.searchParams.get('session') ?? '', state: authorize.searchParams.get('state') ?? '', decision };
}

/** The bank's answer to a decision submitted on its page: where it sends the user. */
async function decide(authorize: URL, decision: 'allow' | 'deny'): Promise<string> {
  const res = await submit(authorize, formOf(authorize, decision));
  expect(res.status).toBe(303);
  return res.headers.get('location') as string;
}

describe('sandbox OAuth institutions', () => {
  it('are connected with the oauth method for test keys, through the simulated bank page', async () => {
    const token = await linkToken();
    const method = await linkApi('method', { link_token: token, institution_id: OAUTH_BANK });
    expect(method.json).toEqual({ institution_id: OAUTH_BANK, method: 'oauth', file_upload: false });
    const credentials = await linkApi('connect', { link_token: token, institution_id: OAUTH_BANK, username: 'user_good', password: 'pass_good' });
    expect(credentials.status).toBe(502);

    const authorize = await startAt(token);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${stack.baseUrl}/link/sandbox/oauth/authorize`);
    const page = await get(authorize.toString());
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sandbox Thames Bank (sandbox)');
    expect(page.text).toMatch(/Sandbox bank: a simulated consent page/);
    expect(page.text).toMatch(/<button type="submit" name="decision" value="allow">Allow<\/button>/);
    expect(page.text).toContain('<form method="post" action="authorize">');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action 'self' https://app.acme.example`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });

  it('Allow: back to the redirect_uri with oauth_state_id; Link resumes from it, then account selection and the exchange', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const location = await decide(authorize, 'allow');
    const received = new URL(location);
    expect(`${received.origin}${received.pathname}`).toBe(REDIRECT);
    expect(received.searchParams.get('oauth_state_id')).toBe(authorize.searchParams.get('state'));
    expect(received.searchParams.get('error')).toBeNull();

    const step = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location, account_selection: true });
    expect([step.status, step.json.status]).toEqual([200, 'select_accounts']);
    const chosen = [step.json.accounts[0].account_id as string];
    const done = await linkApi('accounts/select', { link_token: token, public_token: step.json.public_token, account_ids: chosen });
    expect([done.status, done.json.status]).toEqual([200, 'connected']);
    expect(done.json.metadata.institution.institution_id).toBe(OAUTH_BANK);
    expect(done.json.redirect_url).toContain('public_token=');
    const exchanged = await post('/v1/link/token/exchange', { public_token: step.json.public_token });
    const accounts = await post('/v1/accounts/get', { access_token: exchanged.json.access_token });
    expect(accounts.json.accounts.map((a: { account_id: string }) => a.account_id)).toEqual(chosen);

    // The state was redeemed: the same return cannot connect again (the session is spent too).
    const replay = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location });
    expect([replay.status, replay.json.error.code]).toEqual([400, 'link_token_used']);
  });

  it('refuses a received_redirect_uri that is not the token\u2019s redirect_uri, and keeps the consent for the right one', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const location = new URL(await decide(authorize, 'allow'));
    for (const wrong of [
      location.toString().replace('https://app.acme.example', 'https://evil.example'),
      location.toString().replace('/oauth-return', '/elsewhere'),
      'not a url',
    ]) {
      const res = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: wrong });
      expect([wrong, res.status, res.json.error.code]).toEqual([wrong, 400, 'invalid_field']);
    }
    const noState = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: REDIRECT });
    expect([noState.status, noState.json.error.code]).toEqual([400, 'oauth_state_invalid']);
    const right = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location.toString() });
    expect([right.status, right.json.status]).toEqual([200, 'connected']);
  });

  it('Deny: oauth_access_denied, the state is spent, and the user can start again', async () => {
    const token = await linkToken();
    const denied = await decide(await startAt(token), 'deny');
    expect(new URL(denied).searchParams.get('error')).toBe('access_denied');
    const res = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: denied });
    expect([res.status, res.json.error.code]).toEqual([400, 'oauth_access_denied']);
    const again = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: denied });
    expect([again.status, again.json.error.code]).toEqual([400, 'oauth_state_invalid']);
    const retried = await decide(await startAt(token), 'allow');
    const ok = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: retried });
    expect([ok.status, ok.json.status]).toEqual([200, 'connected']);
  });

  it('a consent left more than 15 minutes expires: the bank page and the resume both refuse it', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const location = await decide(authorize, 'allow');
    clock.advance(15 * 60_000 + 1);
    expect((await get(authorize.toString())).status).toBe(400);
    const res = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location });
    expect([res.status, res.json.error.code]).toEqual([400, 'oauth_state_invalid']);
  });

  it('a state belongs to its session: another session\u2019s return is refused', async () => {
    const first = await linkToken();
    const second = await linkToken();
    await startAt(second);
    const location = await decide(await startAt(first), 'allow');
    const res = await linkApi('oauth/resume', { link_token: second, received_redirect_uri: location });
    expect([res.status, res.json.error.code]).toEqual([400, 'oauth_state_invalid']);
  });

  it('without a redirect_uri the bank sends the user back to Link\u2019s own callback, completed by oauth/complete', async () => {
    const token = await linkToken(null);
    const authorize = await startAt(token);
    const location = new URL(await decide(authorize, 'allow'));
    expect(`${location.origin}${location.pathname}`).toBe(`${stack.baseUrl}/link/oauth/callback`);
    const state = location.searchParams.get('state') as string;
    expect(state).toBe(authorize.searchParams.get('state'));
    const resume = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location.toString() });
    expect([resume.status, resume.json.error.code]).toEqual([400, 'invalid_field']);
    const res = await linkApi('oauth/complete', { link_token: token, state, code: location.searchParams.get('code') });
    expect([res.status, res.json.status]).toEqual([200, 'connected']);
  });

  it('the bank page answers only a consent under way: a wrong state or session, or a made-up decision, is refused', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const tampered = (name: string, value: string) => {
      const url = new URL(authorize);
      url.searchParams.set(name, value);
      return url.toString();
    };
    for (const url of [tampered('state', 'x'.repeat(43)), tampered('session', '0'.repeat(64)), tampered('session', '../etc')]) {
      const res = await get(url);
      expect([url, res.status, res.headers.get('location')]).toEqual([url, 400, null]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    const refusedForms: Array<[string, Record<string, string>]> = [
      ['made-up decision', formOf(authorize, 'maybe')],
      ['wrong state', { ...formOf(authorize, 'allow'), state: 'x'.repeat(43) }],
      ['wrong session', { ...formOf(authorize, 'allow'), session: '0'.repeat(64) }],
      ['no decision', { session: authorize.searchParams.get('session') ?? '', state: authorize.searchParams.get('state') ?? '' }],
    ];
    for (const [what, fields] of refusedForms) {
      const res = await submit(authorize, fields);
      expect([what, res.status, res.headers.get('location')]).toEqual([what, 400, null]);
    }
    // Only the page's form answers: the same fields as JSON or plain text do not.
    for (const contentType of ['application/json', 'text/plain']) {
      const res = await submit(authorize, formOf(authorize, 'allow'), contentType);
      expect([contentType, res.status, res.headers.get('location')]).toEqual([contentType, 400, null]);
    }
    // None of those answered the consent: the page still takes the user's decision.
    expect((await submit(authorize, formOf(authorize, 'allow'))).status).toBe(303);
  });
});

describe('the sandbox bank decides only on the user\u2019s submitted answer', () => {
  it('a GET with decision=allow only shows the page: nothing is recorded and the state cannot be resumed', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const withDecision = new URL(authorize);
    withDecision.searchParams.set('decision', 'allow');
    const res = await get(withDecision.toString());
    expect([res.status, res.headers.get('location')]).toEqual([200, null]);
    expect(res.text).toContain('Sandbox Thames Bank (sandbox)');

    // The URL the bank would have redirected to, forged: refused, and not spent.
    const forged = `${REDIRECT}?oauth_state_id=${encodeURIComponent(authorize.searchParams.get('state') ?? '')}`;
    const early = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: forged });
    expect([early.status, early.json.error.code]).toEqual([400, 'oauth_state_invalid']);
    expect(early.json.error.message).toMatch(/not answered on the sandbox bank page/);

    // Once the user submits Allow on the page, the same state completes.
    const location = await decide(authorize, 'allow');
    expect(location).toBe(forged);
    const done = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: location });
    expect([done.status, done.json.status]).toEqual([200, 'connected']);
  });

  it('oauth/complete refuses a state nobody answered on the page', async () => {
    const token = await linkToken(null);
    const authorize = await startAt(token);
    const state = authorize.searchParams.get('state') as string;
    const early = await linkApi('oauth/complete', { link_token: token, state, code: 'sandbox_authorized' });
    expect([early.status, early.json.error.code]).toEqual([400, 'oauth_state_invalid']);
    const location = new URL(await decide(authorize, 'allow'));
    const done = await linkApi('oauth/complete', { link_token: token, state, code: location.searchParams.get('code') });
    expect([done.status, done.json.status]).toEqual([200, 'connected']);
  });

  it('the recorded answer wins: a Deny cannot be turned into Allow by dropping error from the URL, nor answered twice', async () => {
    const token = await linkToken();
    const authorize = await startAt(token);
    const denied = new URL(await decide(authorize, 'deny'));
    const again = await submit(authorize, formOf(authorize, 'allow'));
    expect([again.status, again.headers.get('location')]).toEqual([400, null]);
    denied.searchParams.delete('error');
    const res = await linkApi('oauth/resume', { link_token: token, received_redirect_uri: denied.toString() });
    expect([res.status, res.json.error.code]).toEqual([400, 'oauth_access_denied']);
  });
});

describe('where the sandbox bank may send the user', () => {
  it('not to a redirect_uri outside the application\u2019s allowlist: oauth/start refuses it', async () => {
    const token = await linkToken('https://evil.example/phish');
    const res = await linkApi('oauth/start', { link_token: token, institution_id: OAUTH_BANK });
    expect([res.status, res.json.error.code]).toEqual([400, 'redirect_uri_not_allowed']);
    expect(res.json.error.message).toMatch(/allowed redirect URIs/);
  });

  it('to a loopback redirect_uri (local development) without listing it', async () => {
    const loopback = 'http://127.0.0.1:9/oauth-return';
    const token = await linkToken(loopback);
    const location = new URL(await decide(await startAt(token), 'allow'));
    expect(`${location.origin}${location.pathname}`).toBe(loopback);
    expect(location.searchParams.get('oauth_state_id')).not.toBeNull();
  });
});
