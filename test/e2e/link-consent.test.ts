// Link's consent paths beyond credentials, over HTTP: which method an institution uses, the statement
// upload (a corpus file read in place -> connected -> exchange -> the file's accounts and
// transactions), a refused file, the upload's size limit, and the OAuth state checks (mismatch,
// replay, expiry, the user declining) and the callback page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_UPLOAD_BODY_MAX_BYTES } from '../../functions/contracts/limits';
import { tokenHash } from '../../functions/core/tokens';
import { sealProviderSecrets } from '../../functions/app/provider-secrets';
import { getLinkSession, listAbandonedConnections, setPendingOauth } from '../../functions/data/items-repo';
import { manualClock } from '../support/embedded';
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

const STATEMENTS = join(__dirname, '../../../shared/statements');
const statementBase64 = (file: string) => readFileSync(join(STATEMENTS, file)).toString('base64');
/** A bank whose chain lists the file importer (and whose logins the sandbox serves for test keys). */
const CHASE = 'ins_chase';
const testKey = makeKey('test');
const clock = manualClock(Date.UTC(2026, 6, 1, 12, 0, 0));

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Acme', plan: 'enterprise', keys: [testKey] }], { clock });
});
afterAll(() => stack.stop());
// Every test starts in a fresh rate-limit window of the page's API.
beforeEach(() => clock.advance(60_000));

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key: testKey, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}

async function linkToken(): Promise<string> {
  const res = await post('/v1/link/token/create', { user: { client_user_id: 'user-1' }, products: ['transactions'] });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

const linkApi = (route: string, body: Record<string, unknown>) => post(`/link/api/${route}`, body, { key: null });

describe('link.method', () => {
  it('names the serving connector\u2019s method and offers an upload only where the chain lists the file importer', async () => {
    const token = await linkToken();
    const chase = await linkApi('method', { link_token: token, institution_id: CHASE });
    expect([chase.status, chase.json]).toEqual([200, { institution_id: CHASE, method: 'credentials', file_upload: true }]);
    const sandbox = await linkApi('method', { link_token: token, institution_id: 'ins_sandbox_first_bank' });
    expect(sandbox.json).toEqual({ institution_id: 'ins_sandbox_first_bank', method: 'credentials', file_upload: false });
  });
});

describe('link.upload', () => {
  it('connects an item holding the statement\u2019s account and transactions, with nothing left to load', async () => {
    const token = await linkToken();
    const res = await linkApi('upload', { link_token: token, institution_id: CHASE, file_name: 'example1.ofx', file_base64: statementBase64('ofx-js__example1.ofx') });
    expect([res.status, res.json.status]).toEqual([200, 'connected']);
    expect(res.json.metadata.accounts).toHaveLength(1);

    const exchanged = await post('/v1/link/token/exchange', { public_token: res.json.public_token });
    expect(exchanged.status).toBe(200);
    const accessToken = exchanged.json.access_token as string;
    const item = await post('/v1/items/get', { access_token: accessToken });
    expect([item.json.item.connector, item.json.item.transactions_update_status]).toEqual(['file_import', 'historical_update_complete']);
    const accounts = await post('/v1/accounts/get', { access_token: accessToken });
    // The statement's one account, 1234567-00 (the mask is its last four characters).
    expect(accounts.json.accounts.map((a: { mask: string }) => a.mask)).toEqual(['7-00']);
    const sync = await post('/v1/transactions/sync', { access_token: accessToken, count: 500 });
    expect(sync.status).toBe(200);
    const added = sync.json.added as { amount: number; iso_currency_code: string }[];
    // The manifest's figures for this file: 5 transactions in NZD, TRNAMT summing to -173.11
    // (money out negative); the API's sign is the other way round (Plaid's).
    expect(added).toHaveLength(5);
    expect(added.every((t) => t.iso_currency_code === 'NZD')).toBe(true);
    expect(added.reduce((sum, t) => sum + t.amount, 0)).toBeCloseTo(173.11, 2);
  });

  it('refuses a file that is not a statement with an error naming the problem, counts no attempt and leaves no item', async () => {
    const token = await linkToken();
    const res = await linkApi('upload', { link_token: token, institution_id: CHASE, file_name: 'not-an-ofx-file.ofx', file_base64: statementBase64('OFXSharp__not-an-ofx-file.ofx') });
    expect([res.status, res.json.error.type, res.json.error.code]).toEqual([400, 'invalid_request', 'statement_unrecognized']);
    expect(res.json.error.message).toMatch(/\S/);
    expect(res.json.error.message).not.toBe('The file is not a statement the import reads: upload a CSV, OFX, QFX or QBO export from your bank.');
    expect((await getLinkSession(stack.deps, token))?.failedAttempts).toBe(0);
    expect(await listAbandonedConnections(stack.deps, Number.MAX_SAFE_INTEGER)).toEqual([]);
    // The session is still open: the user can pick another file.
    const retry = await linkApi('upload', { link_token: token, institution_id: CHASE, file_name: 'example1.ofx', file_base64: statementBase64('ofx-js__example1.ofx') });
    expect(retry.json.status).toBe('connected');
  });

  it('names the line of a damaged CSV', async () => {
    const token = await linkToken();
    const csv = 'Date,Description,Amount\n2026-01-02,Coffee,-3.50\n2026-01-03,"Groceries,-20.00\n';
    const res = await linkApi('upload', { link_token: token, institution_id: CHASE, file_name: 'broken.csv', file_base64: Buffer.from(csv).toString('base64') });
    expect([res.status, res.json.error.code]).toEqual([400, 'statement_malformed']);
    expect(res.json.error.message).toMatch(/line \d+/);
  });

  it('accepts a body up to its own limit, above the API\u2019s 1 MiB, and refuses a larger one with 413', async () => {
    const token = await linkToken();
    const padding = 'A'.repeat(LINK_UPLOAD_BODY_MAX_BYTES);
    const tooLarge = await stack.call('/link/api/upload', { key: null, body: { link_token: token, institution_id: CHASE, file_name: 'big.csv', file_base64: padding } });
    expect([tooLarge.status, tooLarge.json.error.code]).toEqual([413, 'request_too_large']);
    // 2 MiB of base64 passes the body limit and reaches the importer (which finds no statement in it).
    const twoMiB = await linkApi('upload', { link_token: token, institution_id: CHASE, file_name: 'big.csv', file_base64: 'A'.repeat(2 * 1024 * 1024) });
    expect(twoMiB.status).toBe(400);
    expect(twoMiB.json.error.code).toMatch(/^statement_/);
  });
});

describe('link.consent and link.oauth.start', () => {
  it('refuses a method the institution\u2019s connector does not use', async () => {
    const token = await linkToken();
    const address = await linkApi('consent', { link_token: token, institution_id: 'ins_sandbox_first_bank', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect([address.status, address.json.error.code]).toEqual([400, 'invalid_field']);
    const oauth = await linkApi('oauth/start', { link_token: token, institution_id: 'ins_sandbox_first_bank' });
    expect([oauth.status, oauth.json.error.code]).toEqual([400, 'invalid_field']);
  });
});

describe('link.oauth.complete', () => {
  /** A consent started on the session as oauth.start records it (the sandbox has no OAuth provider to start one). */
  async function startedConsent(token: string, state: string, expiresInMs = 10 * 60_000) {
    const session = (await getLinkSession(stack.deps, token))!;
    const pending = await sealProviderSecrets(stack.deps, { itemId: session.linkSessionId, applicationId: session.applicationId, environment: session.environment }, { code_verifier: 'kept-secret-verifier' });
    await setPendingOauth(stack.deps, session, { stateHash: tokenHash(state), institutionId: 'ins_sandbox_first_bank', pending, expiresAt: clock.now() + expiresInMs });
  }

  it('refuses a state the session did not start, and redeems a state at most once', async () => {
    const token = await linkToken();
    const none = await linkApi('oauth/complete', { link_token: token, state: 'never-started', code: 'abc' });
    expect([none.status, none.json.error.code]).toEqual([400, 'oauth_state_invalid']);

    await startedConsent(token, 'state-one');
    const wrong = await linkApi('oauth/complete', { link_token: token, state: 'state-two', code: 'abc' });
    expect(wrong.json.error.code).toBe('oauth_state_invalid');
    // The right state passes the check (and reaches the connector, here the sandbox, which takes no OAuth).
    const first = await linkApi('oauth/complete', { link_token: token, state: 'state-one', code: 'abc' });
    expect(first.json.error.code).toBe('invalid_field');
    const replay = await linkApi('oauth/complete', { link_token: token, state: 'state-one', code: 'abc' });
    expect([replay.status, replay.json.error.code]).toEqual([400, 'oauth_state_invalid']);
    // The stored consent never held the state itself, and nothing kept leaks into an answer.
    for (const res of [none, wrong, first, replay]) expect(res.text).not.toContain('kept-secret-verifier');
  });

  it('refuses an expired consent, and answers a declined one with oauth_access_denied', async () => {
    const token = await linkToken();
    await startedConsent(token, 'slow-state', 1000);
    clock.advance(2000);
    const expired = await linkApi('oauth/complete', { link_token: token, state: 'slow-state', code: 'abc' });
    expect([expired.status, expired.json.error.code]).toEqual([400, 'oauth_state_invalid']);

    await startedConsent(token, 'declined-state');
    const declined = await linkApi('oauth/complete', { link_token: token, state: 'declined-state', error: 'access_denied' });
    expect([declined.status, declined.json.error.type, declined.json.error.code]).toEqual([400, 'item_error', 'oauth_access_denied']);
    expect(declined.json.error.message).toMatch(/declined/);
  });

  it('serves the Link page at the callback, carrying the redirect\u2019s parameters but never a token', async () => {
    const res = await stack.call('/link/oauth/callback?state=abc&code=xyz', { method: 'GET', key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.text).toContain('"mode":"oauth_return"');
    expect(res.text).toContain('"state":"abc"');
    expect(res.text).not.toMatch(/fc_link_/);
  });

  it('reads the hosted widgets\u2019 own names for the new connection as the code', async () => {
    for (const [param, value] of [['loginId', 'LGN-1'], ['connection_id', '1234'], ['member_guid', 'MBR-9']]) {
      const res = await stack.call(`/link/oauth/callback?state=abc&${param}=${value}`, { method: 'GET', key: null });
      expect(res.text).toContain(`"code":"${value}"`);
    }
    const referenced = await stack.call('/link/oauth/callback?ref=r-7', { method: 'GET', key: null });
    expect(referenced.text).toContain('"state":"r-7"');
  });
});
