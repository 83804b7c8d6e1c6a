// Errors that teach, over the real local server: every error carries documentation_url (under the
// base URL the request reached) and display_message; schema violations name the field and what it
// accepts; unknown paths name the closest route (Plaid's paths included); a token of the wrong kind is
// named as what it is. Codes stay what they always were.
import { connect } from 'node:net';
import { generateApiKey } from '../../functions/core/api-keys';
import { startTestStack, type CallResult, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const testKey = () => stack.keys.find((k) => k.environment === 'test')!;

function expectEnvelope(res: CallResult, status: number, code: string) {
  expect({ status: res.status, code: res.json?.error?.code }).toEqual({ status, code });
  expect(res.json.error.documentation_url).toBe(`${stack.baseUrl}/docs/errors#${code}`);
  expect(res.json.error).toHaveProperty('display_message');
}

async function linkToken(): Promise<string> {
  const res = await stack.call('/v1/link/token/create', { body: { user: { client_user_id: 'u-errors' }, products: ['transactions'] } });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

async function publicToken(): Promise<string> {
  const res = await stack.call('/v1/sandbox/public_token/create', { body: { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] } });
  expect(res.status).toBe(200);
  return res.json.public_token as string;
}

const plaidHeaders = () => ({ 'PLAID-CLIENT-ID': testKey().applicationId, 'PLAID-SECRET': testKey().key });

describe('documentation_url and display_message', () => {
  it('are on a handler refusal, an item error and the fallback, under the base URL the request reached', async () => {
    const noKey = await stack.call('/v1/categories/get', { key: null, body: {} });
    expectEnvelope(noKey, 401, 'missing_api_key');
    expect(noKey.json.error.display_message).toBeNull();
    const unknown = await stack.call('/v1/nothing/here', { body: {} });
    expectEnvelope(unknown, 404, 'route_not_found');
    expect(unknown.json.error.display_message).toBeNull();
  });

  it("are on the local server's own answer to a request it cannot parse", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(stack.port, '127.0.0.1', () => socket.write('GET /v1/health HTTP/1.1\r\nHost: localhost\r\nBad\u0000Header: y\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: string; documentation_url: string; display_message: unknown } };
    expect(body.error.code).toBe('request_rejected');
    expect(body.error.documentation_url).toMatch(/^http:\/\/localhost(:\d+)?\/docs\/errors#request_rejected$/);
    expect(body.error.display_message).toBeNull();
  });

  it("fill Plaid's own fields on the Plaid-compatible API", async () => {
    const res = await stack.call('/plaid/item/get', { key: null, headers: plaidHeaders(), body: { access_token: 'fc_at_unknown0' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error_code: 'INVALID_ACCESS_TOKEN', documentation_url: `${stack.baseUrl}/docs/errors#invalid_access_token`, display_message: null });
  });
});

describe('validator wording on real routes', () => {
  it('transactions/sync: a count out of range names the field and its range', async () => {
    const res = await stack.call('/v1/transactions/sync', { body: { access_token: 'fc_at_x', count: 501 } });
    expectEnvelope(res, 400, 'invalid_field');
    expect(res.json.error.message).toBe('`count` must be an integer from 1 to 500.');
  });

  it('link/token/create: a product that does not exist, nested, with the closest one', async () => {
    const res = await stack.call('/v1/link/token/create', { body: { user: { client_user_id: 'u' }, products: ['transaction'] } });
    expectEnvelope(res, 400, 'invalid_field');
    expect(res.json.error.message).toMatch(/^`products\[0\]` must be one of: .*transactions.*\. Did you mean transactions\?$/);
  });

  it('transactions/get: a date in another format, and a misspelt field', async () => {
    const date = await stack.call('/v1/transactions/get', { body: { access_token: 'fc_at_x', start_date: '01/02/2026', end_date: '2026-02-01' } });
    expectEnvelope(date, 400, 'invalid_field');
    expect(date.json.error.message).toBe('`start_date` must be a date as YYYY-MM-DD.');
    const misspelt = await stack.call('/v1/transactions/get', { body: { access_token: 'fc_at_x', start_date: '2026-01-01', end_date: '2026-02-01', optons: {} } });
    expectEnvelope(misspelt, 400, 'unknown_field');
    expect(misspelt.json.error.message).toBe('`optons` is not a field of this request; did you mean `options`?');
  });
});

describe('did you mean, for unknown paths', () => {
  it('a typo and a missing /v1', async () => {
    const typo = await stack.call('/v1/link/token/exchnge', { body: {} });
    expectEnvelope(typo, 404, 'route_not_found');
    expect(typo.json.error.message).toBe('No operation exists at POST /v1/link/token/exchnge. Did you mean POST /v1/link/token/exchange?');
    const unversioned = await stack.call('/items/refresh', { body: {} });
    expect(unversioned.json.error.message).toBe('No operation exists at POST /items/refresh. Did you mean POST /v1/items/refresh?');
  });

  it("Plaid's path sent to our base: our equivalent and the Plaid-compatible API's", async () => {
    const res = await stack.call('/item/public_token/exchange', { body: {} });
    expectEnvelope(res, 404, 'route_not_found');
    expect(res.json.error.message).toContain('Fincore\'s own equivalent is POST /v1/link/token/exchange; the Plaid-compatible API serves it at POST /plaid/item/public_token/exchange.');
    // The route that does what the endpoint does, not the first one it runs (items.get, to read the item).
    const webhook = await stack.call('/item/webhook/update', { body: {} });
    expect(webhook.json.error.message).toContain('Fincore\'s own equivalent is POST /v1/item/webhook/update;');
  });

  it('a resource without its action, another version, or the Plaid-compatible API under /v1: the route meant', async () => {
    const expectations: Array<[string, string]> = [
      ['/v1/identity', 'Did you mean POST /v1/identity/get?'],
      ['/v2/transactions/sync', 'Did you mean POST /v1/transactions/sync?'],
      ['/v1/plaid/accounts/get', 'the Plaid-compatible API serves it at POST /plaid/accounts/get.'],
    ];
    for (const [path, hint] of expectations) {
      const res = await stack.call(path, { body: {} });
      expectEnvelope(res, 404, 'route_not_found');
      expect([path, res.json.error.message]).toEqual([path, expect.stringContaining(hint)]);
    }
  });

  it('an unknown Plaid endpoint under /plaid names the closest one served', async () => {
    const res = await stack.call('/plaid/item/public_token/exchnge', { key: null, headers: plaidHeaders(), body: {} });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error_code: 'NOT_FOUND', error_message: expect.stringContaining('Did you mean /item/public_token/exchange?') });
  });
});

describe('a token of the wrong kind', () => {
  it('a link token at /v1/link/token/exchange, and at /plaid/item/public_token/exchange', async () => {
    const token = await linkToken();
    const rest = await stack.call('/v1/link/token/exchange', { body: { public_token: token } });
    expectEnvelope(rest, 400, 'invalid_public_token');
    expect(rest.json.error.message).toBe("`public_token` is not a public token. This is a link token (it opens Link). Exchange the public_token that Link's onSuccess gives you.");
    const plaid = await stack.call('/plaid/item/public_token/exchange', { key: null, headers: plaidHeaders(), body: { public_token: token } });
    expect(plaid.status).toBe(400);
    expect(plaid.json).toMatchObject({ error_code: 'INVALID_PUBLIC_TOKEN', error_message: expect.stringContaining('This is a link token (it opens Link).') });
  });

  it('an access token where a public token goes', async () => {
    const exchanged = await stack.call('/v1/link/token/exchange', { body: { public_token: await publicToken() } });
    expect(exchanged.status).toBe(200);
    const res = await stack.call('/v1/link/token/exchange', { body: { public_token: exchanged.json.access_token } });
    expectEnvelope(res, 400, 'invalid_public_token');
    expect(res.json.error.message).toContain('This is an access token (fc_at_...): the exchange already happened');
  });

  it('a public token, a Plaid access token and an API key where an access token goes', async () => {
    const pub = await stack.call('/v1/accounts/get', { body: { access_token: await publicToken() } });
    expectEnvelope(pub, 400, 'invalid_field');
    expect(pub.json.error.message).toContain("`access_token` is not an access token. This is a public token (fc_pub_...) from Link's onSuccess");
    const plaid = await stack.call('/v1/items/get', { body: { access_token: 'access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6' } });
    expectEnvelope(plaid, 400, 'invalid_field');
    expect(plaid.json.error.message).toContain('This is a Plaid access token');
    const key = generateApiKey('test');
    const apiKey = await stack.call('/v1/items/get', { body: { access_token: key } });
    expectEnvelope(apiKey, 400, 'invalid_field');
    expect(apiKey.json.error.message).toContain('This is a secret API key');
    expect(apiKey.text).not.toContain(key);
    const onPlaid = await stack.call('/plaid/accounts/get', { key: null, headers: plaidHeaders(), body: { access_token: 'access-sandbox-de3ce8ef-33f8-452c-a685-8671031fc0f6' } });
    expect(onPlaid.json).toMatchObject({ error_code: 'INVALID_ACCESS_TOKEN', error_message: expect.stringContaining('This is a Plaid access token') });
  });
});
