// A webhook POST connects only to the addresses its URL check accepted: DNS answering something
// else a moment later (rebinding) changes nothing. Real loopback servers; no outside network.
import { Agent, createServer, type ClientRequestArgs, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pinnedLookup, postWebhook, WebhookTimeoutError } from '../../functions/app/webhook-http';
import type { WebhookUrlOptions } from '../../functions/core/webhook-url';

interface Seen {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function listen(host: string, port = 0, status = 200): Promise<{ server: Server; port: number; seen: Seen[]; connections: () => number }> {
  const seen: Seen[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status).end('ok');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, seen, connections: () => connections };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A resolver that answers `first` once, then `later` (a rebinding DNS server with a zero TTL). */
function rebinding(first: string[], later: string[]) {
  let calls = 0;
  return jest.fn(async () => (calls++ === 0 ? first : later));
}

/** Records the address every connection's lookup answers, and refuses to open any connection. */
class RecordingAgent extends Agent {
  readonly connectAddresses: string[] = [];
  createConnection(options: ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
    const lookup = options.lookup!;
    lookup(options.host ?? '', { all: true }, (err, answer) => {
      if (!err && Array.isArray(answer)) this.connectAddresses.push(...answer.map((a) => a.address));
    });
    // Stop here: the test only needs to know where the socket would go.
    return super.createConnection({ ...options, lookup: (_h, _o, cb) => cb(new Error('test agent: no connection'), '') }, callback);
  }
}

const body = '{"id":"evt_1","type":"item.error","created":1,"data":{"item_id":"item_1"}}';
const post = (url: string, extra: object = {}) => ({ url, headers: { 'Content-Type': 'application/json', 'FC-Signature': 'v1=abc' }, body, timeoutMs: 5_000, ...extra });

describe('webhook POSTs pinned to the checked addresses', () => {
  it('never connect to loopback when DNS answers a public address at the check and 127.0.0.1 after it', async () => {
    const loopback = await listen('127.0.0.1');
    try {
      const resolve = rebinding(['93.184.216.34'], ['127.0.0.1']);
      const agent = new RecordingAgent();
      const check: WebhookUrlOptions = { environment: 'test', allowLoopback: false, resolve };
      await expect(postWebhook(post(`http://rebind.example:${loopback.port}/hook`, { agent }), check)).rejects.toThrow('test agent: no connection');
      expect(agent.connectAddresses).toEqual(['93.184.216.34']);
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(loopback.connections()).toBe(0);
    } finally {
      await close(loopback.server);
    }
  });

  it('deliver to the checked address, with the hostname as Host and the exact body bytes, whatever DNS says next', async () => {
    // Local mode permits loopback: 127.0.0.1 passes the check, then DNS switches to 127.0.0.2.
    const checked = await listen('127.0.0.1');
    const other = await listen('127.0.0.2', checked.port);
    try {
      const resolve = rebinding(['127.0.0.1'], ['127.0.0.2']);
      const check: WebhookUrlOptions = { environment: 'test', allowLoopback: true, resolve };
      const result = await postWebhook(post(`http://rebind.example:${checked.port}/hook`), check);
      expect(result).toEqual({ sent: true, status: 200 });
      expect(other.connections()).toBe(0);
      expect(checked.seen).toHaveLength(1);
      expect(checked.seen[0].headers.host).toBe(`rebind.example:${checked.port}`);
      expect(checked.seen[0].headers['fc-signature']).toBe('v1=abc');
      expect(checked.seen[0].headers['content-length']).toBe(String(Buffer.byteLength(body)));
      expect(checked.seen[0].body.equals(Buffer.from(body))).toBe(true);
      expect(resolve).toHaveBeenCalledTimes(1);
    } finally {
      await close(checked.server);
      await close(other.server);
    }
  });

  it('send nothing when the check fails, and say why', async () => {
    const resolve = jest.fn(async () => ['10.0.0.7']);
    const agent = new RecordingAgent();
    const result = await postWebhook(post('https://internal.example/hook', { agent }), { environment: 'live', allowLoopback: false, resolve });
    expect(result).toEqual({ sent: false, reason: 'private_address' });
    expect(agent.connectAddresses).toEqual([]);
  });

  it('record the status without following redirects, and time out a receiver that never answers', async () => {
    const redirecting = await listen('127.0.0.1', 0, 302);
    const silent = createServer(() => undefined); // accepts, reads, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const check: WebhookUrlOptions = { environment: 'test', allowLoopback: true };
      expect(await postWebhook(post(`http://127.0.0.1:${redirecting.port}/`), check)).toEqual({ sent: true, status: 302 });
      expect(redirecting.seen).toHaveLength(1);
      const port = (silent.address() as AddressInfo).port;
      const timedOut = postWebhook(post(`http://127.0.0.1:${port}/`, { timeoutMs: 50 }), check);
      await expect(timedOut).rejects.toBeInstanceOf(WebhookTimeoutError);
      await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      silent.closeAllConnections();
      await close(redirecting.server);
      await close(silent);
    }
  });

  it('count the DNS lookup inside the time limit: a resolver that never answers times the POST out, connecting nowhere', async () => {
    const resolve = jest.fn(() => new Promise<string[]>(() => {}));
    const agent = new RecordingAgent();
    const timedOut = postWebhook(post('https://hooks.example/h', { agent, timeoutMs: 50 }), { environment: 'live', allowLoopback: false, resolve });
    await expect(timedOut).rejects.toBeInstanceOf(WebhookTimeoutError);
    await expect(timedOut).rejects.toThrow('timed out after 50 ms');
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(agent.connectAddresses).toEqual([]);
  });
});

describe('the pinned lookup', () => {
  it('answers only the checked addresses, per family, one or all', () => {
    const lookup = pinnedLookup(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    const answers: unknown[] = [];
    lookup('any.example', { all: true }, (_e, a) => answers.push(a));
    lookup('any.example', {}, (_e, a, f) => answers.push([a, f]));
    lookup('any.example', { family: 6 }, (_e, a, f) => answers.push([a, f]));
    lookup('any.example', { family: 4, all: true }, (_e, a) => answers.push(a));
    expect(answers).toEqual([
      [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
      ['93.184.216.34', 4],
      ['2606:2800:220:1:248:1893:25c8:1946', 6],
      [{ address: '93.184.216.34', family: 4 }],
    ]);
    const errors: Array<NodeJS.ErrnoException | null> = [];
    pinnedLookup(['93.184.216.34'])('any.example', { family: 6 }, (e) => errors.push(e));
    expect(errors[0]?.code).toBe('ENOTFOUND');
  });
});
