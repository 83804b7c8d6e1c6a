// The MCP server's function hands each tool call to the tool's own route function (Lambda Invoke,
// functions/surfaces/mcp/tool-runner.ts), so its grants are its own (authenticate and meter the key)
// plus the invoke, never its tools': each tool's function keeps its own table rows, secrets and model.
// test/cdk/route-capabilities.test.ts holds ROUTE_INVOCATIONS to the code; this holds the derivation.
import { MCP_TOOLS } from '../../functions/contracts/mcp-tools';
import { routeById } from '../../functions/contracts/routes';
import { AUTH_AND_METER_GRANTS, ROUTE_CAPABILITIES, ROUTE_INVOCATIONS, routeAccessFor, tableGrantsFor } from '../../lib/api-grants';

const mcpCall = routeById('mcp.call');

describe('mcp.call', () => {
  it("invokes exactly its tools' route functions", () => {
    expect([...(ROUTE_INVOCATIONS['mcp.call'] ?? [])].sort()).toEqual([...new Set(MCP_TOOLS.map((tool) => tool.route))].sort());
    expect(routeAccessFor(mcpCall).invokesRoutes).toEqual(ROUTE_INVOCATIONS['mcp.call']);
  });

  it('touches only the rows that authenticate and meter its key', () => {
    expect(routeAccessFor(mcpCall).table).toBe('auth-and-meter');
    expect(tableGrantsFor(mcpCall)).toEqual(AUTH_AND_METER_GRANTS);
  });

  it('holds no capability of its tools: no secrets key, model, refresh queue, delivery workflow or connector secret', () => {
    for (const listed of Object.values(ROUTE_CAPABILITIES)) expect(listed as readonly string[]).not.toContain('mcp.call');
    expect(routeAccessFor(mcpCall)).toMatchObject({ secretsKey: false, model: false, refreshQueue: false, deliveryWorkflow: false, connectorConfig: false, eventsQueue: true });
  });

  it('is the only route that invokes other routes', () => {
    expect(Object.keys(ROUTE_INVOCATIONS)).toEqual(['mcp.call']);
  });
});
