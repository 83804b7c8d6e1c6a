import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AI_METERED_ROUTE_IDS, ROUTES, aliasPaths, greedyPrefixOf, inPublicContract } from '../../functions/contracts/routes';

const API_DIR = join(__dirname, '..', '..', 'functions', 'api');

// Every operation path the contract names (tables, AI paths, sandbox helpers, GraphQL).
const SPEC_PATHS = [
  '/v1/link/token/create', '/v1/link/token/exchange',
  '/v1/items/get', '/v1/items/remove', '/v1/items/refresh',
  '/v1/institutions/search', '/v1/institutions/get_by_id',
  '/v1/accounts/get', '/v1/accounts/balance/get',
  '/v1/transactions/sync', '/v1/transactions/get',
  '/v1/identity/get', '/v1/income/get', '/v1/liabilities/get', '/v1/recurring/get', '/v1/categories/get',
  '/v1/assets/get', '/v1/investments/holdings/get', '/v1/investments/transactions/get',
  '/v1/ai/categorize', '/v1/ai/subscriptions', '/v1/ai/cashflow', '/v1/ai/merchant', '/v1/ai/health-score',
  '/v1/ai/financial-summary', '/v1/ai/fraud-risk', '/v1/ai/purchase-analysis', '/v1/ai/weekly-report',
  '/v1/sandbox/fire_webhook', '/v1/sandbox/item/reset_login', '/v1/graphql',
  '/mcp', '/.well-known/mcp.json', '/.well-known/ai-plugin.json',
];

describe('the route table', () => {
  it('declares every operation path the spec names', () => {
    const declared = new Set(ROUTES.map((r) => r.path));
    expect(SPEC_PATHS.filter((p) => !declared.has(p))).toEqual([]);
  });

  it('has a handler module for every route and none for a route not in the table', () => {
    const files = readdirSync(API_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
    expect(files).toEqual(ROUTES.map((r) => r.id).sort());
  });

  it('exports a handler function from every route\'s module', () => {
    for (const route of ROUTES) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the modules are found by route id at run time
      const mod = require(join(API_DIR, route.id));
      // The module is named after its route, and defines that route's handler (not another's).
      expect({ id: route.id, handler: typeof mod.handler, boundTo: mod.handler.routeId }).toEqual({ id: route.id, handler: 'function', boundTo: route.id });
    }
  });

  it('never declares the same method and path twice, nor the same id', () => {
    const pairs = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
  });

  it('serves every /v1 path and the MCP server under the /api alias too, and nothing else', () => {
    for (const r of ROUTES) {
      const aliased = r.path.startsWith('/v1/') || r.path === '/mcp';
      expect({ id: r.id, paths: aliasPaths(r) }).toEqual({ id: r.id, paths: aliased ? [r.path, `/api${r.path}`] : [r.path] });
    }
  });

  it('makes every item-scoped route require an access_token field', () => {
    for (const r of ROUTES.filter((x) => x.item)) {
      const result = r.request!.safeParse({});
      const missing = result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
      expect({ id: r.id, requiresToken: missing.includes('access_token') }).toEqual({ id: r.id, requiresToken: true });
    }
  });

  it('meters every authenticated route and no public one', () => {
    for (const r of ROUTES) {
      expect({ id: r.id, metered: r.metering !== 'none' }).toEqual({ id: r.id, metered: r.auth === 'key' });
    }
  });

  it('meters the AI paths against the AI quota', () => {
    for (const r of ROUTES.filter((x) => x.path.startsWith('/v1/ai/'))) expect(r.metering).toBe('ai');
  });

  it('lists exactly the AI-metered routes in AI_METERED_ROUTE_IDS (the console counts AI requests by it)', () => {
    expect([...AI_METERED_ROUTE_IDS].sort()).toEqual(ROUTES.filter((r) => r.metering === 'ai').map((r) => r.id).sort());
  });

  it('serves the Plaid-compatible API as one greedy, unlisted, metered route of its own protocol', () => {
    const greedy = ROUTES.filter((r) => greedyPrefixOf(r.path) !== null);
    expect(greedy.map((r) => [r.id, r.method, r.path, greedyPrefixOf(r.path)])).toEqual([['plaid.call', 'POST', '/plaid/{proxy+}', '/plaid/']]);
    expect(greedy[0]).toMatchObject({ protocol: 'plaid', auth: 'key', metering: 'api', dataAccess: true, unlisted: true });
    expect(inPublicContract(greedy[0])).toBe(false);
    expect(greedyPrefixOf('/v1/items/get')).toBeNull();
  });

  it('takes a JSON body on every POST route but the sandbox bank page\'s form, which a browser submits urlencoded', () => {
    const withoutJson = ROUTES.filter((x) => x.method === 'POST' && x.request === null);
    expect(withoutJson.map((r) => [r.id, r.responseKind, r.auth])).toEqual([['link.sandbox.oauth.decide', 'html', 'none']]);
  });
});
