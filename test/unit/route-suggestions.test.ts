// "Did you mean ...?" for unknown paths: the closest routes of the real route table, and the usual
// mistakes (no /v1, Plaid's paths at our base, typos, dashes, case) named as what they are.
import { PLAID_ENDPOINT_EQUIVALENT, PLAID_ENDPOINT_ROUTES } from '../../functions/contracts/plaid-endpoints';
import { closestPaths, pathDistance, routeNotFoundMessage, suggestRoutes, type KnownRoute } from '../../functions/contracts/route-suggestions';
import { ROUTES } from '../../functions/contracts/routes';
import { closestPlaidPath, closestPlaidPaths } from '../../functions/surfaces/plaid/server';

const known: KnownRoute[] = ROUTES.filter((r) => !r.console).map((r) => ({ method: r.method, path: r.path, id: r.id }));
const plaid = { prefix: '/plaid', endpoints: PLAID_ENDPOINT_EQUIVALENT };
const suggest = (method: string, path: string) => suggestRoutes({ method, path }, known, plaid).map((s) => `${s.method} ${s.path}`);

describe('PLAID_ENDPOINT_EQUIVALENT', () => {
  it('names, for every Plaid endpoint served, one of the routes it runs as its own equivalent (none only where no route runs)', () => {
    expect(Object.keys(PLAID_ENDPOINT_EQUIVALENT).sort()).toEqual(Object.keys(PLAID_ENDPOINT_ROUTES).sort());
    const ids = new Set(ROUTES.map((r) => r.id));
    for (const [endpoint, equivalent] of Object.entries(PLAID_ENDPOINT_EQUIVALENT)) {
      const runs: readonly string[] = PLAID_ENDPOINT_ROUTES[endpoint as keyof typeof PLAID_ENDPOINT_ROUTES];
      if (equivalent === null) {
        expect([endpoint, runs]).toEqual([endpoint, []]);
      } else {
        expect([endpoint, ids.has(equivalent), runs.includes(equivalent)]).toEqual([endpoint, true, true]);
      }
    }
  });
});

describe('suggestRoutes over the route table', () => {
  it.each<[string, string, string[]]>([
    // a typo in one segment
    ['POST', '/v1/link/token/exchnge', ['POST /v1/link/token/exchange']],
    ['POST', '/v1/transactions/synk', ['POST /v1/transactions/sync']],
    ['POST', '/v1/transaction/sync', ['POST /v1/transactions/sync']],
    ['POST', '/v1/institutions/getbyid', ['POST /v1/institutions/get_by_id']],
    // a dash for an underscore, the wrong case, a trailing slash, the /api alias
    ['POST', '/v1/institutions/get-by-id', ['POST /v1/institutions/get_by_id']],
    ['POST', '/V1/Accounts/Get/', ['POST /v1/accounts/get']],
    ['POST', '/api/v1/transactions/synk', ['POST /v1/transactions/sync']],
    // /v1 left out
    ['POST', '/items/refresh', ['POST /v1/items/refresh']],
    ['POST', '/ai/categorize', ['POST /v1/ai/categorize']],
    // /v1 left out of a path Plaid has too: both homes
    ['POST', '/transactions/sync', ['POST /v1/transactions/sync', 'POST /plaid/transactions/sync']],
    ['POST', '/link/token/create', ['POST /v1/link/token/create', 'POST /plaid/link/token/create']],
    // a segment too many or too few
    ['POST', '/v1/link/exchange', ['POST /v1/link/token/exchange']],
    ['POST', '/v1/accounts/balances/get', ['POST /v1/accounts/balance/get']],
    // Plaid's paths at our base: our equivalent, then the Plaid-compatible API's
    ['POST', '/item/public_token/exchange', ['POST /v1/link/token/exchange', 'POST /plaid/item/public_token/exchange']],
    ['POST', '/v1/item/public_token/exchange', ['POST /v1/link/token/exchange', 'POST /plaid/item/public_token/exchange']],
    ['POST', '/accounts/get', ['POST /v1/accounts/get', 'POST /plaid/accounts/get']],
    ['POST', '/item/get', ['POST /v1/items/get', 'POST /plaid/item/get']],
    ['POST', '/sandbox/item/fire_webhook', ['POST /v1/sandbox/fire_webhook', 'POST /plaid/sandbox/item/fire_webhook']],
    ['POST', '/webhook_verification_key/get', ['POST /plaid/webhook_verification_key/get']],
    // the route that really corresponds, not the first one the endpoint runs (items.get, to read the item)
    ['POST', '/item/webhook/update', ['POST /v1/item/webhook/update', 'POST /plaid/item/webhook/update']],
    ['POST', '/transactions/refresh', ['POST /v1/items/refresh', 'POST /plaid/transactions/refresh']],
    // the Plaid-compatible API's path under /v1: that path first
    ['POST', '/v1/plaid/accounts/get', ['POST /plaid/accounts/get', 'POST /v1/accounts/get']],
    // another version than /v1
    ['POST', '/v2/transactions/sync', ['POST /v1/transactions/sync']],
    // a resource without its action: the routes just below it, when few
    ['POST', '/v1/identity', ['POST /v1/identity/get']],
    ['POST', '/identity', ['POST /v1/identity/get']],
    ['POST', '/v1/transactions', ['POST /v1/transactions/sync', 'POST /v1/transactions/get']],
    // nothing close: no guess
    ['POST', '/v1/transfers/create', []],
    ['GET', '/wp-admin/login.php', []],
    ['POST', '/v1/foo', []],
  ])('%s %s', (method, path, expected) => {
    expect(suggest(method, path)).toEqual(expected);
  });

  it('prefers the method that was sent, and names the method of what it suggests', () => {
    expect(suggest('GET', '/v1/graphq')).toEqual(['GET /v1/graphql']);
    expect(suggest('POST', '/v1/graphq')).toEqual(['POST /v1/graphql']);
    expect(suggest('GET', '/v1/transactions/synk')).toEqual(['POST /v1/transactions/sync']);
  });

  it('names several routes when several are as close', () => {
    const close = suggest('POST', '/v1/items/gte');
    expect(close[0]).toBe('POST /v1/items/get');
    expect(close.length).toBeLessThanOrEqual(3);
  });

  it('does not compare paths or names far longer than any route or field', () => {
    expect(suggest('POST', `/v1/transactions/sync${'/x'.repeat(200)}`)).toEqual([]);
    expect(closestPlaidPaths(`/transactions/sync${'a'.repeat(300)}`)).toEqual([]);
  });

  it('never suggests a greedy path', () => {
    expect(suggest('POST', '/plaid/{proxy+}').some((s) => s.includes('{'))).toBe(false);
  });
});

describe('routeNotFoundMessage', () => {
  it('asks about the closest routes', () => {
    const request = { method: 'POST', path: '/v1/link/token/exchnge' };
    expect(routeNotFoundMessage(request, suggestRoutes(request, known, plaid))).toBe(
      'No operation exists at POST /v1/link/token/exchnge. Did you mean POST /v1/link/token/exchange?',
    );
  });

  it("says a Plaid path is Plaid's, with both of its homes", () => {
    const request = { method: 'POST', path: '/item/public_token/exchange' };
    expect(routeNotFoundMessage(request, suggestRoutes(request, known, plaid))).toBe(
      "No operation exists at POST /item/public_token/exchange. That is a Plaid path: Fincore's own equivalent is POST /v1/link/token/exchange; the Plaid-compatible API serves it at POST /plaid/item/public_token/exchange.",
    );
  });

  it('lists several and echoes a bounded path', () => {
    expect(routeNotFoundMessage({ method: 'GET', path: '/x' }, [])).toBe('No operation exists at GET /x.');
    expect(routeNotFoundMessage({ method: 'GET', path: `/${'a'.repeat(500)}` }, []).length).toBeLessThan(140);
    expect(
      routeNotFoundMessage({ method: 'POST', path: '/v1/a' }, [
        { method: 'POST', path: '/v1/b', reason: 'close' },
        { method: 'POST', path: '/v1/c', reason: 'close' },
        { method: 'GET', path: '/v1/d', reason: 'close' },
      ]),
    ).toBe('No operation exists at POST /v1/a. Did you mean POST /v1/b, POST /v1/c or GET /v1/d?');
  });
});

describe('the distance', () => {
  it('weighs a typo less than a missing segment, and a missing segment as a different word', () => {
    expect(pathDistance('/v1/link/token/exchnge', '/v1/link/token/exchange')).toBeCloseTo(1 / 8);
    expect(pathDistance('/v1/link/exchange', '/v1/link/token/exchange')).toBe(1);
    expect(pathDistance('/v1/items/get', '/v1/items/get')).toBe(0);
    expect(closestPaths('/auth/get', Object.keys(PLAID_ENDPOINT_ROUTES))).toEqual([]);
  });
});

describe('the Plaid-compatible API names the closest Plaid endpoint it serves', () => {
  it.each<[string, string[]]>([
    ['/transactions/synk', ['/transactions/sync']],
    ['/ITEM/GET', ['/item/get']],
    ['/v1/transactions/sync', ['/transactions/sync']],
    // our own path sent to the Plaid surface: its Plaid twin
    ['/link/token/exchange', ['/item/public_token/exchange']],
    ['/items/refresh', ['/transactions/refresh']],
    ['/auth/get', []],
  ])('%s', (path, expected) => {
    expect(closestPlaidPaths(path)).toEqual(expected);
  });

  it('keeps its single-suggestion form', () => {
    expect(closestPlaidPath('/item/public_token/exchnge')).toBe('/item/public_token/exchange');
    expect(closestPlaidPath('/auth/get')).toBeUndefined();
  });
});
