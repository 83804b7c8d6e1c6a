import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS } from '../../functions/contracts/errors';
import { ROUTES } from '../../functions/contracts/routes';
import { buildOpenApi } from '../../functions/platform/openapi';

const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));

describe('openapi.json', () => {
  it('is exactly what the route table generates (run `npm run openapi` when this fails)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('describes every route with its method', () => {
    for (const r of ROUTES) expect(committed.paths[r.path]?.[r.method.toLowerCase()]?.operationId).toBeDefined();
  });

  it('lists every error code of the catalogue in a response', () => {
    const listed = new Set<string>();
    for (const response of Object.values<any>(committed.components.responses)) {
      for (const code of response.content['application/json'].schema.properties.error.properties.code.enum) listed.add(code);
    }
    expect([...listed].sort()).toEqual(Object.keys(ERRORS).sort());
  });

  it('marks key routes as bearer-authenticated and public documents and the Link page API as keyless', () => {
    for (const r of ROUTES) {
      const op = committed.paths[r.path][r.method.toLowerCase()];
      expect(op.security).toEqual(r.auth === 'key' ? [{ bearerAuth: [] }] : []);
    }
  });
});
