import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERRORS, isPublicErrorCode, type ErrorCode } from '../../functions/contracts/errors';
import { EVENT_TYPES } from '../../functions/contracts/events';
import { ROUTES, inPublicContract } from '../../functions/contracts/routes';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../functions/core/webhook-signature';
import { buildOpenApi } from '../../functions/platform/openapi';

const committed = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));

/**
 * The console's own routes and errors (Route.console, ErrorDef.console) are not part of the public
 * document, nor are the unlisted routes (Route.unlisted: the Plaid-compatible API, Plaid's contract).
 */
const PUBLIC_ROUTES = ROUTES.filter(inPublicContract);
const CONSOLE_ROUTES = ROUTES.filter((r) => r.console);

/** The part of an error response the catalogue test reads. */
interface ErrorResponseDoc {
  content: { 'application/json': { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } } };
}

describe('openapi.json', () => {
  it('is exactly what the route table generates (run `npm run openapi` when this fails)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi())));
  });

  it('describes every route with its method', () => {
    for (const r of PUBLIC_ROUTES) expect(committed.paths[r.path]?.[r.method.toLowerCase()]?.operationId).toBeDefined();
  });

  it('leaves out the Plaid-compatible API, which speaks Plaid\'s contract (docs/plaid-migration.md), not ours', () => {
    const unlisted = ROUTES.filter((r) => r.unlisted);
    expect(unlisted.map((r) => r.id)).toEqual(['plaid.call']);
    expect(Object.keys(committed.paths).filter((path) => path.startsWith('/plaid'))).toEqual([]);
    expect(JSON.stringify(committed)).not.toContain('plaid.call');
  });

  it("leaves out the console's own routes and error codes, which no API key can reach", () => {
    expect(CONSOLE_ROUTES.length).toBeGreaterThan(30);
    expect(CONSOLE_ROUTES.filter((r) => committed.paths[r.path] !== undefined).map((r) => r.id)).toEqual([]);
    expect(Object.keys(committed.paths).filter((path) => path.startsWith('/console'))).toEqual([]);
    const text = JSON.stringify(committed);
    const consoleCodes = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => !isPublicErrorCode(code));
    expect(consoleCodes).toEqual(expect.arrayContaining(['session_required', 'csrf_failed', 'role_forbidden', 'invitation_expired']));
    expect(consoleCodes.filter((code) => text.includes(`"${code}"`) || text.includes(`\`${code}\``))).toEqual([]);
  });

  it('lists every error code of the catalogue in a response', () => {
    const listed = new Set<string>();
    for (const response of Object.values(committed.components.responses as Record<string, ErrorResponseDoc>)) {
      for (const code of response.content['application/json'].schema.properties.error.properties.code.enum) listed.add(code);
    }
    // The GraphQL and MCP endpoints' errors are in their own formats, their codes listed per status.
    for (const methods of Object.values(committed.paths as Record<string, Record<string, { responses: Record<string, { 'x-fc-error-codes'?: string[] }> }>>)) {
      for (const op of Object.values(methods)) for (const response of Object.values(op.responses)) for (const code of response['x-fc-error-codes'] ?? []) listed.add(code);
    }
    expect([...listed].sort()).toEqual((Object.keys(ERRORS) as ErrorCode[]).filter(isPublicErrorCode).sort());
  });

  it('marks key routes as bearer-authenticated and public documents and the Link page API as keyless', () => {
    for (const r of PUBLIC_ROUTES) {
      const op = committed.paths[r.path][r.method.toLowerCase()];
      expect(op.security).toEqual(r.auth === 'key' ? [{ bearerAuth: [] }] : []);
    }
  });

  it('publishes every event type of the catalogue as a signed webhook whose body is that type\'s envelope', () => {
    expect(committed.openapi).toBe('3.1.0');
    expect(Object.keys(committed.webhooks)).toEqual(EVENT_TYPES);
    interface SchemaNode { $ref?: string; type?: string; const?: string; required?: string[]; properties?: Record<string, SchemaNode> }
    interface ParameterNode { $ref?: string; name?: string; in?: string; required?: boolean }
    const resolve = <T extends { $ref?: string }>(node: T): T => (node.$ref ? node.$ref.replace(/^#\//, '').split('/').reduce((at, key) => at[key], committed) : node);
    for (const type of EVENT_TYPES) {
      const hook = committed.webhooks[type].post;
      expect(hook.security).toEqual([]);
      const parameters = (hook.parameters as ParameterNode[]).map(resolve);
      const headers = parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name);
      expect(headers).toEqual(expect.arrayContaining([SIGNATURE_HEADER, TIMESTAMP_HEADER]));
      const body = resolve(hook.requestBody.content['application/json'].schema as SchemaNode);
      expect(body.required).toEqual(['id', 'type', 'created', 'data']);
      expect(body.properties?.type).toEqual({ type: 'string', const: type });
      expect(resolve(body.properties?.data ?? {}).type).toBe('object');
    }
  });
});
