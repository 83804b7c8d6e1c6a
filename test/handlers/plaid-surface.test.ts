// The Plaid-compatible surface's translation (servePlaidRequest) driven by Plaid's own Node client
// (plaid@47), unchanged but for its base URL and keys, against DynamoDB Local. A small loopback front
// stands in for the route (plaid.call, whose middlewares and webhook deliveries
// test/e2e/plaid-client.test.ts runs over the local server): it reads the credentials with the
// surface's own reader, authenticates and meters the key as the middleware does, and hands the
// request to servePlaidRequest. The journey: sandbox public token, exchange, accounts, a full transactionsSync
// loop, refresh, sync again (the refresh posts the pending card purchases: Plaid's removed + added
// with pending_transaction_id), transactions/get agreeing with the synced replica, and a webhook
// signed by the surface verified the way Plaid's guide tells integrators to, with the key fetched
// through webhookVerificationKeyGet.
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { CountryCode, type PlaidApi, Products, SandboxItemFireWebhookRequestWebhookCodeEnum, type Transaction } from 'plaid';
import { ApiError } from '../../functions/contracts/errors';
import { authorizeAndMeter } from '../../functions/data/api-keys-repo';
import { listEndpoints } from '../../functions/data/webhooks-repo';
import { plaidBearerKey } from '../../functions/surfaces/plaid/credentials';
import { currentPlaidKey, signPlaidWebhook } from '../../functions/app/plaid-webhook-keys';
import { plaidErrorResponse } from '../../functions/core/plaid/errors';
import { servePlaidRequest } from '../../functions/surfaces/plaid/server';
import { plaidWebhookOf, renderPlaidWebhook } from '../../functions/core/plaid/webhooks';
import { manualClock } from '../support/embedded';
import { plaidClient, plaidErrorOf, syncToEnd } from '../support/plaid-client';
import { startTestStack, type TestStack } from '../support/stack';

const BASE_PATH = '/plaid';
const HOOKS_PATH = '/hooks/';
const clock = manualClock();
let stack: TestStack;
let front: Server;
let frontUrl: string;
let requests = 0;

/** What the route's middlewares do: credentials from the Plaid request, the key metered, then the surface. */
function startFront(): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const requestId = `req_plaid_${++requests}`;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name.toLowerCase()] = value;
        const url = req.url ?? '/';
        // Webhook deliveries to the endpoint a test registers: accepted.
        if (url.startsWith(HOOKS_PATH)) {
          res.writeHead(204).end();
          return;
        }
        const event = { httpMethod: req.method ?? 'POST', path: url, headers, body, requestContext: { requestId } } as unknown as APIGatewayProxyEvent;
        let rendered: { statusCode: number; headers: Record<string, string>; body: string };
        try {
          const auth = await authorizeAndMeter(stack.deps, plaidBearerKey({ headers, rawBody: body }), 'api');
          rendered = await servePlaidRequest({ deps: stack.deps, auth, requestId, baseUrl: frontUrl, event, body, path: url.slice(BASE_PATH.length) });
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          rendered = plaidErrorResponse(err, requestId, frontUrl);
        }
        res.writeHead(rendered.statusCode, rendered.headers).end(rendered.body);
      })().catch((err: unknown) => res.writeHead(599).end(String(err)));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const clientAt = (clientId: string, secret: string): PlaidApi => plaidClient(`${frontUrl}${BASE_PATH}`, clientId, secret);

beforeAll(async () => {
  stack = await startTestStack(undefined, { clock });
  front = await startFront();
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stack.stop();
  // The clients keep their connections alive: close them with the server.
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
});

describe("Plaid's Node client against the Plaid-compatible surface", () => {
  it('runs the sandbox journey: token, exchange, accounts, sync, refresh, sync, get, and a verified webhook', async () => {
    const testKey = stack.keys.find((k) => k.environment === 'test')!;
    const client = clientAt(testKey.applicationId, testKey.key);

    const { data: created } = await client.sandboxPublicTokenCreate({ institution_id: 'ins_sandbox_first_bank', initial_products: [Products.Transactions] });
    expect(created.public_token).toEqual(expect.any(String));
    expect(created.request_id).toMatch(/^req_plaid_/);
    const { data: exchanged } = await client.itemPublicTokenExchange({ public_token: created.public_token });
    const accessToken = exchanged.access_token;
    await stack.historyLoaded(exchanged.item_id);

    const { data: accounts } = await client.accountsGet({ access_token: accessToken });
    expect(accounts.item.item_id).toBe(exchanged.item_id);
    expect(accounts.item.billed_products).toEqual(['transactions']);
    expect(accounts.accounts.length).toBeGreaterThan(0);
    for (const account of accounts.accounts) expect(['depository', 'credit', 'loan', 'investment', 'other']).toContain(account.type);

    // The first full sync: every page's ids are new, pending card purchases carry their pending-phase id.
    const replica = new Map<string, Transaction>();
    const first = await syncToEnd(client, accessToken, '', replica, 250);
    expect(first.pages.every((p) => p.transactions_update_status === 'HISTORICAL_UPDATE_COMPLETE')).toBe(true);
    expect(first.pages.flatMap((p) => [...p.modified, ...p.removed])).toEqual([]);
    const firstAdded = first.pages.flatMap((p) => p.added);
    expect(new Set(firstAdded.map((t) => t.transaction_id)).size).toBe(firstAdded.length);
    const pendingBefore = [...replica.values()].filter((t) => t.pending);
    expect(pendingBefore.length).toBeGreaterThan(0);
    for (const t of pendingBefore) {
      expect(t.transaction_id).toMatch(/_pending$/);
      expect(t.pending_transaction_id).toBeNull();
      expect(t.authorized_date).toBe(t.date);
    }
    for (const t of replica.values()) {
      expect(['online', 'in store', 'other']).toContain(t.payment_channel);
      expect(t.personal_finance_category === null || t.personal_finance_category?.version === 'v2').toBe(true);
    }

    // A refresh posts every pending purchase (docs/sandbox-data.md): Plaid's posting is a removal of the
    // pending transaction and a new posted one that names it.
    await client.transactionsRefresh({ access_token: accessToken });
    await stack.background.idle();
    const second = await syncToEnd(client, accessToken, first.cursor, replica, 250);
    const removedIds = new Set(second.pages.flatMap((p) => p.removed.map((r) => r.transaction_id)));
    const addedAgain = second.pages.flatMap((p) => p.added);
    const postings = addedAgain.filter((t) => t.pending_transaction_id !== null && !t.pending);
    expect(postings.length).toBeGreaterThan(0);
    for (const posted of postings) expect(removedIds.has(posted.pending_transaction_id!)).toBe(true);
    for (const t of pendingBefore) expect(replica.has(t.transaction_id)).toBe(false);
    expect(replica.size).toBeGreaterThan(0);

    // transactions/get serves the same transactions, under the same ids, as the synced replica.
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const fromGet = new Map<string, Transaction>();
    for (let offset = 0; ; offset += 500) {
      const { data } = await client.transactionsGet({ access_token: accessToken, start_date: '2000-01-01', end_date: today, options: { count: 500, offset } });
      for (const t of data.transactions) fromGet.set(t.transaction_id, t);
      expect(data.item.item_id).toBe(exchanged.item_id);
      if (offset + data.transactions.length >= data.total_transactions) break;
    }
    expect(new Set(fromGet.keys())).toEqual(new Set(replica.keys()));
    for (const [id, t] of replica) expect(fromGet.get(id)).toEqual(t);

    const { data: item } = await client.itemGet({ access_token: accessToken });
    expect(item.item).toMatchObject({ item_id: exchanged.item_id, institution_id: 'ins_sandbox_first_bank', error: null, update_type: 'background' });

    // A webhook as the surface signs it, verified the way Plaid's guide says, the key fetched through the client.
    const body = renderPlaidWebhook(
      plaidWebhookOf({ type: 'transactions.sync_updates_available', data: { item_id: exchanged.item_id, initial_update_complete: true, historical_update_complete: true } }, 'test')!,
    );
    // The environment's key exists once a Plaid-shaped endpoint is registered; none is here.
    await currentPlaidKey(stack.deps, { applicationId: testKey.applicationId, environment: 'test' });
    const jwt = await signPlaidWebhook(stack.deps, { applicationId: testKey.applicationId, environment: 'test' }, body);
    const [encodedHeader, encodedPayload, signature] = jwt.split('.');
    const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as { alg: string; kid: string; typ: string };
    expect(header).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
    const { data: verification } = await client.webhookVerificationKeyGet({ key_id: header.kid });
    expect(verification.key).toMatchObject({ alg: 'ES256', crv: 'P-256', kty: 'EC', use: 'sig', kid: header.kid, expired_at: null });
    const publicKey = createPublicKey({ key: { kty: verification.key.kty, crv: verification.key.crv, x: verification.key.x, y: verification.key.y }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(encodedPayload, 'base64url').toString('utf8')) as { iat: number; request_body_sha256: string };
    expect(Math.floor(clock.now() / 1000) - claims.iat).toBeLessThanOrEqual(5 * 60);
    expect(timingSafeEqual(Buffer.from(claims.request_body_sha256), Buffer.from(createHash('sha256').update(body).digest('hex')))).toBe(true);
    expect(JSON.parse(body)).toEqual({
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: exchanged.item_id,
      initial_update_complete: true,
      historical_update_complete: true,
      environment: 'sandbox',
    });

    // Balances, institutions, update mode, the sandbox's webhook and login helpers.
    const { data: balances } = await client.accountsBalanceGet({ access_token: accessToken });
    expect(balances.accounts.map((a) => a.account_id).sort()).toEqual(accounts.accounts.map((a) => a.account_id).sort());
    const { data: institution } = await client.institutionsGetById({ institution_id: 'ins_sandbox_first_bank', country_codes: [CountryCode.Us], options: { include_optional_metadata: true } });
    expect(institution.institution).toMatchObject({ institution_id: 'ins_sandbox_first_bank', primary_color: expect.stringMatching(/^#/) });
    const { data: link } = await client.linkTokenCreate({
      client_name: 'Acme',
      language: 'en',
      country_codes: [CountryCode.Us],
      user: { client_user_id: 'user-1' },
      access_token: accessToken,
      hosted_link: {},
    });
    expect(link.hosted_link_url).toBe(`${frontUrl}/link?token=${encodeURIComponent(link.link_token)}`);
    expect(Date.parse(link.expiration)).toBeGreaterThan(clock.now());
    const { data: fired } = await client.sandboxItemFireWebhook({ access_token: accessToken, webhook_code: SandboxItemFireWebhookRequestWebhookCodeEnum.SyncUpdatesAvailable });
    expect(fired.webhook_fired).toBe(true);
    const { data: reset } = await client.sandboxItemResetLogin({ access_token: accessToken });
    expect(reset.reset_login).toBe(true);
    const loginRequired = await plaidErrorOf(client.accountsBalanceGet({ access_token: accessToken }));
    expect(loginRequired).toMatchObject({ status: 400, data: { error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED', display_message: expect.any(String) } });
    const { data: broken } = await client.itemGet({ access_token: accessToken });
    expect(broken.item.error).toMatchObject({ error_type: 'ITEM_ERROR', error_code: 'ITEM_LOGIN_REQUIRED' });

    await client.itemRemove({ access_token: accessToken });
    const gone = await plaidErrorOf(client.accountsGet({ access_token: accessToken }));
    expect(gone.status).toBe(400);
    expect(gone.data).toMatchObject({ error_type: 'INVALID_INPUT', error_code: 'INVALID_ACCESS_TOKEN', display_message: null, request_id: expect.stringMatching(/^req_plaid_/) });
  }, 120_000);

  it("answers in Plaid's error shape: a client_id of another application, a sandbox helper with a live key, an unknown endpoint", async () => {
    const testKey = stack.keys.find((k) => k.environment === 'test')!;
    const liveKey = stack.keys.find((k) => k.environment === 'live')!;

    const mismatch = await plaidErrorOf(clientAt('app_someone_else', testKey.key).institutionsSearch({ query: 'sandbox', country_codes: [] }));
    expect(mismatch).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_API_KEYS' } });

    const live = await plaidErrorOf(clientAt(liveKey.applicationId, liveKey.key).sandboxPublicTokenCreate({ institution_id: 'ins_sandbox_first_bank', initial_products: [Products.Transactions] }));
    expect(live).toMatchObject({ status: 400, data: { error_type: 'INVALID_REQUEST', error_code: 'SANDBOX_ONLY' } });

    const badProduct = await plaidErrorOf(clientAt(testKey.applicationId, testKey.key).sandboxPublicTokenCreate({ institution_id: 'ins_sandbox_first_bank', initial_products: [Products.Auth] }));
    expect(badProduct).toMatchObject({ status: 400, data: { error_type: 'INVALID_INPUT', error_code: 'INVALID_PRODUCT' } });

    const res = await fetch(`${frontUrl}${BASE_PATH}/transactions/synk`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'PLAID-CLIENT-ID': testKey.applicationId, 'PLAID-SECRET': testKey.key },
      body: JSON.stringify({ access_token: 'fc_at_x' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error_type: 'INVALID_REQUEST', error_code: 'NOT_FOUND', error_message: expect.stringContaining('/transactions/sync') });

    const { data: institutions } = await clientAt(testKey.applicationId, testKey.key).institutionsSearch({ query: 'sandbox first', country_codes: [] });
    expect(institutions.institutions[0]).toMatchObject({ institution_id: 'ins_sandbox_first_bank', routing_numbers: [], logo: null });
  });

  it("registers the sandbox helper's options.webhook as an endpoint of the environment, as link/token/create's webhook does", async () => {
    const testKey = stack.keys.find((k) => k.environment === 'test')!;
    const hook = `${frontUrl}${HOOKS_PATH}plaid`;
    await clientAt(testKey.applicationId, testKey.key).sandboxPublicTokenCreate({
      institution_id: 'ins_sandbox_first_bank',
      initial_products: [Products.Transactions],
      options: { webhook: hook },
    });
    expect((await listEndpoints(stack.deps, testKey.applicationId, 'test')).map((e) => e.url)).toContain(hook);
    // The sandbox connects the item at once and loads its history: let that work, and its deliveries, finish.
    await stack.background.idle();
  });
});
