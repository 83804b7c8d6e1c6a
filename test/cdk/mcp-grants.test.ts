// The MCP server's function runs its fifteen tools' REST handlers, so its grants are computed from
// theirs (lib/api-grants.ts): every table statement a tool's route gets, and every background
// capability a tool's route is listed for. test/cdk/route-capabilities.test.ts holds the result to
// the code the scan reaches; this holds the derivation itself, tool by tool.
import { MCP_TOOLS } from '../../functions/contracts/mcp-tools';
import { routeById } from '../../functions/contracts/routes';
import { ROUTE_CAPABILITIES, routeAccessFor, tableGrantsFor, type RouteCapability } from '../../lib/api-grants';

const mcpCall = routeById('mcp.call');
/** Each (resource, action, partition) a set of statements allows. */
const allowed = (route: Parameters<typeof tableGrantsFor>[0]) =>
  new Set(tableGrantsFor(route).flatMap((g) => g.actions.flatMap((action) => g.partitions.map((p) => `${g.index ?? 'table'} ${action} ${p}`))));

describe('mcp.call', () => {
  it('is allowed every table action on every partition each tool\'s route is allowed', () => {
    const server = allowed(mcpCall);
    for (const tool of MCP_TOOLS) {
      const missing = [...allowed(routeById(tool.route))].filter((grant) => !server.has(grant));
      expect({ tool: tool.name, missing }).toEqual({ tool: tool.name, missing: [] });
    }
  });

  it('is allowed nothing no tool\'s route is allowed', () => {
    const union = new Set(MCP_TOOLS.flatMap((tool) => [...allowed(routeById(tool.route))]));
    expect([...allowed(mcpCall)].filter((grant) => !union.has(grant))).toEqual([]);
  });

  it.each(Object.keys(ROUTE_CAPABILITIES) as RouteCapability[])('has %s exactly when one of its tools\' routes has it', (capability) => {
    const listed = ROUTE_CAPABILITIES[capability] as readonly string[];
    expect(listed.includes('mcp.call')).toBe(MCP_TOOLS.some((tool) => listed.includes(tool.route)));
  });

  it('calls the model and opens webhook secrets (ai_* tools; create_link_url with a webhook)', () => {
    expect(routeAccessFor(mcpCall)).toMatchObject({ table: 'partitions', model: true, secretsKey: true, refreshQueue: false, deliveryWorkflow: false });
  });
});
