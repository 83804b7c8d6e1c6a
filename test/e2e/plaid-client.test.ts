// The acceptance test of the Plaid-compatible API: Plaid's own Node client (plaid@47), unchanged but
// for its base path (`{base_url}/plaid`) and its keys (the application id and a Fincore test key),
// against the local stack over real HTTP. The journey: a sandbox public token with a webhook,
// exchange, accounts, a full transactionsSync loop, a refresh, the SYNC_UPDATES_AVAILABLE webhook it
// causes at a loopback receiver, sync again from the cursor, and that webhook verified exactly as
// Plaid's guide tells integrators to (the key fetched with webhookVerificationKeyGet by the JWT's
// kid, ES256 over the JWT, `iat` within five minutes, the SHA-256 of the raw body against
// `request_body_sha256`), with node:crypto only. Then item/get, transactions/get paging, the
// institutions, Plaid's errors for a bad secret and a bad access token, reset_login and the
// ITEM_LOGIN_REQUIRED that follows (with its ITEM ERROR webhook), and item/remove. Every request is
// one API unit and one request-log entry of the route plaid.call. Per-item webhook URLs: Link's
// `webhook` and itemWebhookUpdate make a URL the item's own (Plaid's bodies, verified the same way,
// WEBHOOK_UPDATE_ACKNOWLEDGED at the new URL), registering no endpoint.
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CountryCode, type PlaidApi, Products, SandboxItemFireWebhookRequestWebhookCodeEnum, type Transaction } from 'plaid';
import { monthlyUsage } from '../../functions/data/api-keys-repo';
import { requestEntryById } from '../../functions/data/request-log-repo';
import { plaidClient, plaidErrorOf, syncToEnd } from '../support/plaid-client';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let testKey: TestStack['keys'][number];

// ---------- a webhook receiver that keeps each delivery's raw bytes ----------

interface Delivery {
  /** The request's path: which URL (the endpoint, or an item's own) it was sent to. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received: what Plaid's guide says to hash. */
  raw: Buffer;
  json: { webhook_type?: string; webhook_code?: string; item_id?: string; [field: string]: unknown };
}

const deliveries: Delivery[] = [];
const waiting: Array<{ match: (d: Delivery) => boolean; resolve: (d: Delivery) => void }> = [];
let receiver: Server;
let hookUrl: string;

function startReceiver(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const delivery: Delivery = { path: req.url ?? '/', headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')) as Delivery['json'] };
      deliveries.push(delivery);
      for (const waiter of waiting.filter((w) => w.match(delivery))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(delivery);
      }
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The first delivery from index `from` on that matches: one already received, or the next to arrive (no polling, no sleep). */
function delivered(match: (d: Delivery) => boolean, from = 0): Promise<Delivery> {
  const already = deliveries.slice(from).find(match);
  return already ? Promise.resolve(already) : new Promise((resolve) => waiting.push({ match, resolve }));
}

const webhookOf = (itemId: string, type: string, code: string) => (d: Delivery) => d.json.item_id === itemId && d.json.webhook_type === type && d.json.webhook_code === code;

// ---------- Plaid's client, and verification as Plaid's guide describes it ----------

const clientAt = (clientId: string, secret: string): PlaidApi => plaidClient(`${stack.baseUrl}/plaid`, clientId, secret);

const decodeJson = <T>(segment: string): T => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as T;

/**
 * Plaid's webhook verification, step by step: the JWT's header (ES256 only) names the key; the key
 * comes from /webhook_verification_key/get; the signature is checked over `header.payload`; `iat` is
 * at most five minutes old; the raw body's SHA-256 equals `request_body_sha256`, compared in constant
 * time. Throws on the first failed step.
 */
async function verifyAsPlaidDocumentsIt(client: PlaidApi, delivery: Delivery): Promise<{ kid: string }> {
  const token = delivery.headers['plaid-verification'];
  if (typeof token !== 'string') throw new Error('no Plaid-Verification header');
  const [encodedHeader, encodedPayload, signature] = token.split('.');
  const header = decodeJson<{ alg: string; kid: string; typ: string }>(encodedHeader);
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const { data } = await client.webhookVerificationKeyGet({ key_id: header.kid });
  const key = data.key;
  if (key.expired_at !== null) throw new Error('the key has expired');
  const publicKey = createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x, y: key.y }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) {
    throw new Error('the signature does not verify');
  }
  const claims = decodeJson<{ iat: number; request_body_sha256: string }>(encodedPayload);
  if (Math.floor(Date.now() / 1000) - claims.iat > 5 * 60) throw new Error('iat is more than five minutes old');
  const bodyHash = createHash('sha256').update(delivery.raw).digest('hex');
  if (claims.request_body_sha256.length !== bodyHash.length || !timingSafeEqual(Buffer.from(claims.request_body_sha256), Buffer.from(bodyHash))) {
    throw new Error('the body does not match request_body_sha256');
  }
  return { kid: header.kid };
}

beforeAll(async () => {
  stack = await startTestStack();
  testKey = stack.keys.find((k) => k.environment === 'test')!;
  receiver = await startReceiver();
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/plaid-hooks`;
});

afterAll(async () => {
  await stack.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("Plaid's Node client, changed only in its base URL and keys", () => {
  it('runs the sandbox journey: public token, exchange, accounts, a full sync, refresh, its webhook, sync again, and verifies the webhook', async () => {
    const client = clientAt(testKey.applicationId, testKey.key);

    const { data: created } = await client.sandboxPublicTokenCreate({
      institution_id: 'ins_sandbox_first_bank',
      initial_products: [Products.Transactions],
      options: { webhook: hookUrl },
    });
    const { data: exchanged } = await client.itemPublicTokenExchange({ public_token: created.public_token });
    const accessToken = exchanged.access_token;
    expect(exchanged.item_id).toMatch(/^item_/);
    // The history loads in the background, and its deliveries go out: the sandbox's first sync is complete after it.
    await stack.historyLoaded(exchanged.item_id);
    await stack.background.idle();

    const { data: accounts } = await client.accountsGet({ access_token: accessToken });
    expect(accounts.item.item_id).toBe(exchanged.item_id);
    expect(accounts.accounts.length).toBeGreaterThan(0);
    expect(accounts.request_id).toEqual(expect.any(String));

    const replica = new Map<string, Transaction>();
    const first = await syncToEnd(client, accessToken, '', replica);
    expect(first.pages.length).toBeGreaterThan(1);
    expect(first.pages.every((p) => p.transactions_update_status === 'HISTORICAL_UPDATE_COMPLETE')).toBe(true);
    const accountIds = new Set(accounts.accounts.map((a) => a.account_id));
    for (const t of replica.values()) expect(accountIds.has(t.account_id)).toBe(true);
    const pendingBefore = [...replica.values()].filter((t) => t.pending);
    expect(pendingBefore.length).toBeGreaterThan(0);

    // The refresh posts the pending purchases; the change is announced to the endpoint the sandbox token registered.
    const before = deliveries.length;
    await client.transactionsRefresh({ access_token: accessToken });
    const hook = await delivered(webhookOf(exchanged.item_id, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE'), before);
    expect(hook.json).toEqual({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: exchanged.item_id,
      initial_update_complete: true,
      historical_update_complete: true,
      environment: 'sandbox',
    });
    expect(hook.headers['fc-signature']).toBeUndefined();

    const second = await syncToEnd(client, accessToken, first.cursor, replica);
    const postings = second.pages.flatMap((p) => p.added).filter((t) => !t.pending && t.pending_transaction_id !== null);
    expect(postings.length).toBeGreaterThan(0);
    const removed = new Set(second.pages.flatMap((p) => p.removed.map((r) => r.transaction_id)));
    for (const posted of postings) expect(removed.has(posted.pending_transaction_id!)).toBe(true);
    for (const t of pendingBefore) expect(replica.has(t.transaction_id)).toBe(false);

    const { kid } = await verifyAsPlaidDocumentsIt(client, hook);
    // The body is Plaid's layout, indented by two spaces, and a changed byte no longer verifies.
    expect(hook.raw.toString('utf8')).toBe(JSON.stringify(hook.json, null, 2));
    const tampered = { ...hook, raw: Buffer.from(hook.raw.toString('utf8').replace('"sandbox"', '"production"')) };
    await expect(verifyAsPlaidDocumentsIt(client, tampered)).rejects.toThrow('request_body_sha256');
    // Another application's key id is not this application's: Plaid's INVALID_WEBHOOK_VERIFICATION_KEY_ID.
    const unknownKey = await plaidErrorOf(client.webhookVerificationKeyGet({ key_id: '00000000-0000-4000-8000-000000000000' }));
    expect(unknownKey).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_WEBHOOK_VERIFICATION_KEY_ID' } });

    // item/get, and transactions/get paged through: the same transactions as the synced replica, each once.
    const { data: item } = await client.itemGet({ access_token: accessToken });
    expect(item.item).toMatchObject({ item_id: exchanged.item_id, institution_id: 'ins_sandbox_first_bank', webhook: null, error: null });
    const today = new Date().toISOString().slice(0, 10);
    const paged: Transaction[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += 50) {
      const { data } = await client.transactionsGet({ access_token: accessToken, start_date: '2000-01-01', end_date: today, options: { count: 50, offset } });
      total = data.total_transactions;
      expect(data.transactions.length).toBe(Math.min(50, total - offset));
      paged.push(...data.transactions);
    }
    expect(total).toBeGreaterThan(50);
    expect(paged.map((t) => t.transaction_id).sort()).toEqual([...replica.keys()].sort());

    // The signing key stays the application environment's one key.
    const again = await verifyAsPlaidDocumentsIt(client, await delivered(webhookOf(exchanged.item_id, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE')));
    expect(again.kid).toBe(kid);

    // reset_login: the item needs its user (ITEM_LOGIN_REQUIRED, and Plaid's ITEM ERROR webhook), then removal.
    const beforeReset = deliveries.length;
    const { data: reset } = await client.sandboxItemResetLogin({ access_token: accessToken });
    expect(reset.reset_login).toBe(true);
    const loginRequired = await plaidErrorOf(client.accountsBalanceGet({ access_token: accessToken }));
    expect(loginRequired).toMatchObject({ status: 400, data: { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', display_message: expect.any(String) } });
    const errorHook = await delivered(webhookOf(exchanged.item_id, 'ITEM', 'ERROR'), beforeReset);
    expect(errorHook.json.error).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', status: 400 });
    await verifyAsPlaidDocumentsIt(client, errorHook);

    const { data: removedItem } = await client.itemRemove({ access_token: accessToken });
    expect(removedItem.request_id).toEqual(expect.any(String));
    const gone = await plaidErrorOf(client.itemGet({ access_token: accessToken }));
    expect(gone).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN' } });
  }, 180_000);

  it("keeps Link's webhook and itemWebhookUpdate's URL as the item's own: Plaid's bodies there, WEBHOOK_UPDATE_ACKNOWLEDGED at the new URL, no endpoint", async () => {
    const client = clientAt(testKey.applicationId, testKey.key);
    const endpoints = async () => (await stack.call('/v1/webhooks/endpoints/list', { key: testKey.key, body: {} })).json.endpoints;
    const endpointsBefore = await endpoints();
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const itemHook = `${base}/plaid-item`;

    const { data: link } = await client.linkTokenCreate({
      client_name: 'Item hooks',
      language: 'en',
      country_codes: [CountryCode.Us],
      products: [Products.Transactions],
      user: { client_user_id: 'item-hooks' },
      webhook: itemHook,
    });
    // The user goes through hosted Link (its API, as the page calls it).
    const connected = await stack.call('/link/api/connect', {
      key: null,
      body: { link_token: link.link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good_itemhooks', password: 'pass_good' },
    });
    const { data: exchanged } = await client.itemPublicTokenExchange({ public_token: connected.json.public_token });
    const itemId = exchanged.item_id;
    await stack.historyLoaded(itemId);
    const complete = await delivered((d) => d.path === '/plaid-item' && webhookOf(itemId, 'TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE')(d) && d.json.historical_update_complete === true);
    await verifyAsPlaidDocumentsIt(client, complete);
    expect(await endpoints()).toEqual(endpointsBefore);
    expect((await client.itemGet({ access_token: exchanged.access_token })).data.item.webhook).toBe(itemHook);

    const movedHook = `${base}/plaid-item-moved`;
    const { data: updated } = await client.itemWebhookUpdate({ access_token: exchanged.access_token, webhook: movedHook });
    expect(updated).toMatchObject({ item: { item_id: itemId, webhook: movedHook }, request_id: expect.any(String) });
    const ack = await delivered((d) => d.path === '/plaid-item-moved' && webhookOf(itemId, 'ITEM', 'WEBHOOK_UPDATE_ACKNOWLEDGED')(d));
    expect(ack.json).toEqual({ webhook_type: 'ITEM', webhook_code: 'WEBHOOK_UPDATE_ACKNOWLEDGED', item_id: itemId, new_webhook_url: movedHook, error: null, environment: 'sandbox' });
    await verifyAsPlaidDocumentsIt(client, ack);
    const before = deliveries.length;
    await client.sandboxItemFireWebhook({ access_token: exchanged.access_token, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.LoginRepaired });
    await delivered((d) => d.path === '/plaid-item-moved' && webhookOf(itemId, 'ITEM', 'LOGIN_REPAIRED')(d), before);
    await stack.background.idle();
    expect(deliveries.slice(before).filter((d) => d.path === '/plaid-item')).toEqual([]);
    expect((await client.itemGet({ access_token: exchanged.access_token })).data.item.webhook).toBe(movedHook);

    const refused = await plaidErrorOf(client.itemWebhookUpdate({ access_token: exchanged.access_token, webhook: 'https://10.0.0.1/hook' }));
    expect(refused).toMatchObject({ status: 400, data: { error_type: 'INVALID_REQUEST' } });
    const foreign = await plaidErrorOf(client.itemWebhookUpdate({ access_token: 'fc_at_' + 'c'.repeat(40), webhook: movedHook }));
    expect(foreign).toMatchObject({ status: 400, data: { error_code: 'INVALID_ACCESS_TOKEN' } });
  }, 120_000);

  it('finds institutions by name and by id', async () => {
    const client = clientAt(testKey.applicationId, testKey.key);
    const { data: found } = await client.institutionsSearch({ query: 'sandbox first', country_codes: [CountryCode.Us], products: [Products.Transactions] });
    expect(found.institutions[0]).toMatchObject({ institution_id: 'ins_sandbox_first_bank', country_codes: expect.arrayContaining(['US']) });
    const { data: byId } = await client.institutionsGetById({ institution_id: 'ins_sandbox_first_bank', country_codes: [CountryCode.Us] });
    expect(byId.institution).toMatchObject({ institution_id: 'ins_sandbox_first_bank', name: found.institutions[0].name });
    const missing = await plaidErrorOf(client.institutionsGetById({ institution_id: 'ins_nowhere', country_codes: [CountryCode.Us] }));
    expect(missing).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_INSTITUTION' } });
  });

  it("answers a bad secret, a missing one and a bad access token with Plaid's errors, before and after the key is known", async () => {
    // Refused by the middlewares (the key is looked up before any endpoint runs), in Plaid's format.
    const unknownSecret = await plaidErrorOf(clientAt(testKey.applicationId, 'fc_sk_test_' + 'x'.repeat(32)).institutionsSearch({ query: 'bank', country_codes: [] }));
    expect(unknownSecret).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS', request_id: expect.any(String) } });
    const notAKey = await plaidErrorOf(clientAt(testKey.applicationId, 'secret-sandbox-123').institutionsSearch({ query: 'bank', country_codes: [] }));
    expect(notAKey).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' } });
    const noSecret = await plaidErrorOf(clientAt(testKey.applicationId, '').institutionsSearch({ query: 'bank', country_codes: [] }));
    expect(noSecret).toMatchObject({ status: 400, data: { error_type: 'INVALID_REQUEST', error_code: 'MISSING_FIELDS' } });
    // The right secret with another application's client_id.
    const wrongClient = await plaidErrorOf(clientAt('app_someone_else', testKey.key).institutionsSearch({ query: 'bank', country_codes: [] }));
    expect(wrongClient).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' } });

    const client = clientAt(testKey.applicationId, testKey.key);
    for (const accessToken of ['access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6', 'fc_at_' + 'a'.repeat(40)]) {
      const refused = await plaidErrorOf(client.accountsGet({ access_token: accessToken }));
      expect(refused).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN', display_message: null } });
    }
  });

  it('counts each request as one API unit and files it in the request log as plaid.call', async () => {
    const client = clientAt(testKey.applicationId, testKey.key);
    const usageBefore = await monthlyUsage(stack.deps, testKey.key, new Date());
    const { data } = await client.institutionsSearch({ query: 'bank', country_codes: [] });
    const refused = await plaidErrorOf(client.itemGet({ access_token: 'fc_at_' + 'b'.repeat(40) }));
    const usageAfter = await monthlyUsage(stack.deps, testKey.key, new Date());
    expect(usageAfter).toEqual({ api: usageBefore.api + 2, ai: usageBefore.ai });

    const scope = { applicationId: testKey.applicationId, environment: 'test' as const };
    expect(await requestEntryById(stack.deps, scope, data.request_id)).toMatchObject({ route: 'plaid.call', method: 'POST', path: '/plaid/{proxy+}', status: 200 });
    // Our code of the refusal is in the log, as for any route (Plaid's answer carries Plaid's).
    expect(await requestEntryById(stack.deps, scope, String(refused.data.request_id))).toMatchObject({ route: 'plaid.call', status: 400, error_code: 'invalid_access_token' });
  });

  it('serves Plaid paths only under /plaid/, and Plaid\'s NOT_FOUND for a path it does not serve', async () => {
    const headers = { 'Content-Type': 'application/json', 'PLAID-CLIENT-ID': testKey.applicationId, 'PLAID-SECRET': testKey.key };
    const slip = await fetch(`${stack.baseUrl}/plaid/transactions/synk`, { method: 'POST', headers, body: '{}' });
    expect(slip.status).toBe(404);
    expect(await slip.json()).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'NOT_FOUND', error_message: expect.stringContaining('/transactions/sync') });
    // Another method below /plaid/ is the API's 405, the bare prefix nothing at all.
    const wrongMethod = await fetch(`${stack.baseUrl}/plaid/item/get`, { method: 'GET', headers });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await fetch(`${stack.baseUrl}/plaid`, { method: 'POST', headers, body: '{}' })).status).toBe(404);
    // A body over the size limit is refused before the endpoint, in Plaid's format.
    const tooLarge = await fetch(`${stack.baseUrl}/plaid/item/get`, { method: 'POST', headers, body: JSON.stringify({ access_token: 'x'.repeat(2_000_000) }) });
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'INVALID_BODY' });
  });
});
