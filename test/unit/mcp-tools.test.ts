// The MCP tool table and what is derived from it without a server: each tool's route can be run
// inline (invokeRoute's conditions), its input schema is its route's request schema with the root
// inlined, the handler module bound to it is its route's, and docs/mcp.md lists it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { MCP_TOOLS, MCP_TOOLS_BY_NAME, type McpTool } from '../../functions/contracts/mcp-tools';
import { routeById } from '../../functions/contracts/routes';
import { mcpToolDefinitions, toolInputSchema } from '../../functions/surfaces/mcp/tool-definitions';
import { MCP_TOOL_HANDLERS } from '../../functions/surfaces/mcp/tool-handlers';

describe('the tool table', () => {
  it('has the spec\'s fifteen names, each once', () => {
    expect(MCP_TOOLS.map((t) => t.name).sort()).toEqual(
      [
        'search_institutions', 'create_link_url', 'exchange_public_token', 'get_item', 'list_accounts', 'get_transactions', 'sync_transactions',
        'get_recurring', 'get_investments', 'get_liabilities', 'ai_categorize', 'ai_cashflow_forecast', 'ai_purchase_analysis',
        'ai_financial_summary', 'ai_health_score',
      ].sort(),
    );
    expect(MCP_TOOLS_BY_NAME.size).toBe(15);
  });

  it.each(MCP_TOOLS.map((t) => [t.name, t] as const))('%s: a key-authenticated JSON route that runs inline, metered as its name says', (name, tool) => {
    const route = routeById(tool.route);
    expect({ auth: route.auth, responseKind: route.responseKind, protocol: route.protocol, hasRequest: route.request !== null }).toEqual({
      auth: 'key',
      responseKind: 'json',
      protocol: undefined,
      hasRequest: true,
    });
    expect(route.metering === 'ai').toBe(name.startsWith('ai_'));
    expect(MCP_TOOL_HANDLERS[tool.name].routeId).toBe(tool.route);
  });
});

describe('input schemas', () => {
  it.each(MCP_TOOLS.map((t) => [t.name, t] as const))('%s: its route\'s request schema, an object at the root', (_name, tool: McpTool) => {
    const schema = toolInputSchema(tool);
    expect(schema.type).toBe('object');
    expect(schema).not.toHaveProperty('$ref');
    expect(schema).not.toHaveProperty('$schema');
    const direct = z.toJSONSchema(routeById(tool.route).request!, { target: 'draft-2020-12', io: 'input' }) as { $ref?: string; $defs?: Record<string, object>; properties?: object };
    // Either zod emitted the object at the root, or a reference to a named shape that is now inlined.
    const expected = direct.$ref ? direct.$defs![direct.$ref.replace('#/$defs/', '')] : direct;
    expect(schema.properties).toEqual((expected as { properties: object }).properties);
  });

  it('inlines the shared access-token shape for the item tools that take nothing else', () => {
    expect(toolInputSchema(MCP_TOOLS_BY_NAME.get('get_item')!)).toEqual({
      type: 'object',
      properties: { access_token: expect.objectContaining({ type: 'string', pattern: expect.any(String) }) },
      required: ['access_token'],
      additionalProperties: false,
    });
  });

  it('marks only the tools that write as not read-only', () => {
    const writing = mcpToolDefinitions().filter((t) => !t.annotations.readOnlyHint).map((t) => t.name);
    expect(writing.sort()).toEqual(['create_link_url', 'exchange_public_token']);
  });
});

describe('docs/mcp.md', () => {
  it('lists every tool with its REST route', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/mcp.md'), 'utf8');
    for (const tool of MCP_TOOLS) {
      const route = routeById(tool.route);
      expect(doc).toContain(`| \`${tool.name}\` | \`${route.method} ${route.path}\` |`);
    }
  });
});
