// The floor: a bare node:http server answering the same payloads with no middleware, no auth,
// no validation and no database.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LIMITS } from '../functions/contracts/limits';
import { searchInstitutions } from '../functions/core/institutions';
import { CATEGORIES } from '../functions/core/taxonomy';

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString() || '{}';
    const payload =
      req.url === '/v1/institutions/search'
        ? { institutions: searchInstitutions(JSON.parse(body), LIMITS.institutionSearchMaxResults) }
        : { categories: CATEGORIES };
    const text = JSON.stringify(payload);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGINT', () => server.close(() => process.exit(0)));
