// A loopback HTTP server for provider fakes: each fake answers its provider's documented shapes
// from a route function, and a test can queue the provider's documented failure modes (401 for an
// expired token, 429 with Retry-After, 5xx) in front of the next matching requests.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON, or as a form when it is one; undefined otherwise. */
  parsed: unknown;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is a string. */
  body?: unknown;
}

export type FakeRoute = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface QueuedFailure {
  /** Which requests it applies to: a path prefix, or any request when omitted. */
  pathPrefix?: string;
  response: FakeResponse;
  /** How many matching requests get it (1 when omitted). */
  times?: number;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Answers the next matching request(s) with `response` instead of the route. */
  fail(failure: QueuedFailure): void;
  close(): Promise<void>;
}

function parse(body: string, contentType: string | undefined): unknown {
  if (body === '') return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export async function startFakeServer(route: FakeRoute): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const failures: Required<QueuedFailure>[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = Buffer.concat(chunks).toString('utf8');
      const request: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, parsed: parse(body, req.headers['content-type']) };
      requests.push(request);
      const queued = failures.findIndex((f) => request.path.startsWith(f.pathPrefix));
      const answer = async (): Promise<FakeResponse> => {
        if (queued >= 0) {
          const failure = failures[queued];
          failure.times -= 1;
          if (failure.times <= 0) failures.splice(queued, 1);
          return failure.response;
        }
        return route(request);
      };
      answer()
        .then((response) => {
          const isText = typeof response.body === 'string';
          const payload = response.body === undefined ? '' : isText ? (response.body as string) : JSON.stringify(response.body);
          res.writeHead(response.status, { 'content-type': isText ? 'text/plain' : 'application/json', ...response.headers });
          res.end(payload);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`fake failed: ${(err as Error).message}`);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (f) => failures.push({ pathPrefix: f.pathPrefix ?? '', response: f.response, times: f.times ?? 1 }),
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
