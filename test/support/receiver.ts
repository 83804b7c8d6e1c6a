// A real HTTP webhook receiver on loopback whose answers a test scripts (status per request).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Receiver {
  url: (path?: string) => string;
  received: Received[];
  /** Status for the next requests, in order; after the list runs out, `fallback`. */
  script(statuses: number[], fallback?: number): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let plan: number[] = [];
  let fallback = 200;
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = plan.length ? plan.shift()! : fallback;
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    script(statuses, fb = 200) {
      plan = [...statuses];
      fallback = fb;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
