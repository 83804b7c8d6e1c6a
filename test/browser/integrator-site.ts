// The integrator's own site for the Link browser suites: fixed pages served on 127.0.0.1, a
// different origin from the stack's `localhost`, as the SDK modal and redirects meet them in real use.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IntegratorSite {
  server: Server;
  origin: string;
}

/** Where a redirect_uri in the tests lands: a plain page of the integrator's. */
export const LANDING_PAGE = '<!doctype html><html lang="en"><head><title>Back at Acme</title></head><body><h1>Back at Acme</h1></body></html>';

/** Serves `pages` (path -> HTML) on an ephemeral loopback port; any other path is 404. */
export function serveIntegratorSite(pages: Record<string, string>): Promise<IntegratorSite> {
  const server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', 'http://x').pathname];
    if (page === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}
