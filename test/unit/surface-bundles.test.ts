// The GraphQL and MCP endpoints' bundles carry what those endpoints can run and no more: the
// declarations of the REST routes they expose (each by its const, not the whole route table), for
// GraphQL graphql-js's ES module build (tree-shaken: the graphql alias of lib/bundle-aliases.ts), and for MCP none
// of the JSON Schema validator the SDK's Server builds for elicitation, which a stateless tools
// server never sends (functions/surfaces/mcp/tool-server.ts), nor any of its tools' code (each call
// runs in the tool's route function, functions/surfaces/mcp/tool-runner.ts). Built as the stack builds them
// (bench/cold-start.ts BUNDLE_OPTIONS), in memory.
import { MCP_TOOLS } from '../../functions/contracts/mcp-tools';
import { ROUTES, type Route } from '../../functions/contracts/routes';
import { REST_EXPOSURE } from '../../functions/surfaces/graphql/schema';
import { routeBundle, type RouteBundle as Built } from '../support/route-bundle';

/** The longest run of a route's summary that esbuild writes out unescaped (as test/unit/route-bundles.test.ts marks a declaration). */
const markerOf = (route: Route) => ([...(route.summary.match(/[A-Za-z0-9 ,.:;()/=+?&<>_-]+/g) ?? [])].sort((a, b) => b.length - a.length)[0] ?? '').trim();

const declaredIn = (built: Built) => ROUTES.filter((route) => built.code.includes(markerOf(route))).map((route) => route.id).sort();

describe('surface bundles', () => {
  it('graphql.query carries the declarations of the routes GraphQL exposes and of no other route', async () => {
    const built = await routeBundle('graphql.query');
    expect(declaredIn(built)).toEqual([...new Set(['graphql.query', ...REST_EXPOSURE.map((e) => e.route)])].sort());
  }, 120_000);

  it('graphql.query carries one copy of graphql, its ES module build, tree-shaken', async () => {
    const built = await routeBundle('graphql.query');
    const graphqlFiles = built.inputs.filter((input) => input.includes('node_modules/graphql/'));
    // A CommonJS file beside the ES modules would be a second graphql, whose type checks fail on the
    // schema's types (a deep import such as 'graphql/execution/values' resolves to one).
    expect(graphqlFiles.filter((input) => !input.endsWith('.mjs'))).toEqual([]);
    // What the gateway never calls is left out (schema diffing, building a schema from introspection).
    expect(graphqlFiles.filter((input) => /findBreakingChanges|buildClientSchema/.test(input))).toEqual([]);
  }, 120_000);

  it("mcp.call carries its tools' routes and no other route, and no JSON Schema validator", async () => {
    const built = await routeBundle('mcp.call');
    expect(declaredIn(built)).toEqual([...new Set(['mcp.call', ...MCP_TOOLS.map((t) => t.route)])].sort());
    expect(built.inputs.filter((input) => /node_modules\/(ajv|ajv-formats|fast-uri)\//.test(input))).toEqual([]);
    // The SDK's protocol layer and transport are what serves the messages.
    expect(built.inputs.some((input) => input.includes('@modelcontextprotocol/sdk/dist/esm/shared/protocol.js'))).toBe(true);
  }, 120_000);

  it("only the tools' route functions answer handed-over calls: the branch is compiled out of every other function", async () => {
    // The marker an InlineInvocation carries (functions/platform/route-functions.ts).
    const answers = async (routeId: string) => (await routeBundle(routeId)).code.includes('fincoreInlineCall');
    expect(await answers('accounts.get')).toBe(true);
    expect(await answers('ai.categorize')).toBe(true);
    // Key-authenticated JSON routes that are no tool's: they would otherwise believe a forged AuthContext.
    expect(await answers('webhooks.endpoints.create')).toBe(false);
    expect(await answers('items.remove')).toBe(false);
  }, 120_000);

  it("mcp.call carries none of its tools' code: each call runs in the tool's own route function", async () => {
    const built = await routeBundle('mcp.call');
    const toolCode = built.inputs.filter((input) => /^functions\/(app|connectors|workers)\/|^functions\/core\/(enrichment|sandbox|ai)\/|^functions\/api\/(?!mcp\.call\.ts)|surfaces\/mcp\/tool-handlers\.ts/.test(input));
    expect(toolCode).toEqual([]);
    expect(built.inputs).toContain('functions/platform/aws/lambda.ts');
  }, 120_000);
});
