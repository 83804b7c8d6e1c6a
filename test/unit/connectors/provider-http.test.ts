// The provider HTTP client every adapter uses: which requests it repeats, how it honours retry
// hints without sleeping long, and that a response body is bounded while it streams in.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectorError } from '../../../functions/core/connector-port';
import { createProviderHttp, retryAfterMs } from '../../../functions/connectors/provider-http';
import { startFakeServer, type FakeServer } from '../../support/provider-fakes/fake-server';

let fake: FakeServer;
const waits: number[] = [];
const http = createProviderHttp({ sleep: async (ms) => void waits.push(ms), maxAttempts: 3, maxInlineWaitMs: 2_000 });

beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 200, body: { ok: true } }));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  waits.length = 0;
});

describe('which requests are sent again', () => {
  it('retries a GET after a 5xx and answers the retry', async () => {
    fake.fail({ response: { status: 503 } });
    const res = await http.sendOk({ method: 'GET', url: `${fake.url}/accounts` });
    expect([res.status, fake.requests.length]).toEqual([200, 2]);
    expect(waits).toEqual([250]);
  });

  it('never sends a state-changing POST twice: a lost answer must not spend a refresh token again', async () => {
    fake.fail({ response: { status: 502 } });
    const attempt = http.sendOk({ method: 'POST', url: `${fake.url}/oauth2/token`, form: { grant_type: 'refresh_token', refresh_token: 'R1' } });
    await expect(attempt).rejects.toMatchObject({ kind: 'provider_error' });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a POST the adapter marks idempotent (a read exposed as POST)', async () => {
    fake.fail({ response: { status: 500 } });
    const res = await http.sendOk({ method: 'POST', url: `${fake.url}/accounts/get`, json: {}, idempotent: true });
    expect([res.status, fake.requests.length]).toEqual([200, 2]);
  });
});

describe('rate limits', () => {
  it('sleeps a short Retry-After hint, then retries', async () => {
    fake.fail({ response: { status: 429, headers: { 'retry-after': '1' } } });
    expect((await http.sendOk({ method: 'GET', url: `${fake.url}/x` })).status).toBe(200);
    expect(waits).toEqual([1000]);
  });

  it('hands a long hint up as rate_limited with the wait, without sleeping it', async () => {
    fake.fail({ response: { status: 429, headers: { 'retry-after': '120' } } });
    const err = await http.sendOk({ method: 'GET', url: `${fake.url}/x` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ kind: 'rate_limited', details: { retryAfterSeconds: 120 } });
    expect(waits).toEqual([]);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('response size', () => {
  let server: Server;
  let url: string;
  let sentBytes = 0;

  beforeAll(async () => {
    // Streams chunks without a content-length until the client goes away (or 64 MiB).
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      const push = () => {
        while (sentBytes < 64 * 1024 * 1024) {
          sentBytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      push();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('stops reading a chunked body past the limit instead of buffering it whole', async () => {
    const err = await http.send({ method: 'GET', url }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'provider_error', message: expect.stringContaining('larger than') });
    // The stream was cancelled long before the server's 64 MiB were all sent.
    expect(sentBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
