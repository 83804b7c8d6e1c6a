// The public documents that describe the MCP server: GET /mcp (the server and its tools with their
// input schemas), /.well-known/mcp.json (a server card for discovery) and /.well-known/ai-plugin.json
// (a plugin manifest pointing at openapi.json and the MCP server). All are built from the contract
// (route table, MCP_TOOLS) and the deployment's base URL; none needs a key. Each takes the routes it
// points at by their consts (GET /mcp the tools' routes, ./tool-routes.ts), so no bundle carries the
// whole table.
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MCP_SERVER_INFO, MCP_TOOLS } from '../../contracts/mcp-tools';
import { aliasPaths, discoveryLlms, discoveryMcp, discoveryOpenapi, mcpCall } from '../../contracts/routes';
import { mcpToolDefinitions } from './tool-definitions';
import { routeOfTool } from './tool-routes';

const SERVER_DESCRIPTION =
  'Financial data (institutions, Link, items, accounts, transactions, recurring streams, investments, liabilities) ' +
  'and AI analyses (categorization, cash-flow forecast, purchase analysis, financial summary, health score) as MCP tools.';

const AUTHENTICATION_NOTE = 'Send your API key as a bearer token: `Authorization: Bearer fc_sk_test_...` (test keys reach sandbox items only).';

const METERING_NOTE = 'Each HTTP request counts as one request against the API quota, or the AI quota when it calls an ai_* tool.';

/** The MCP endpoint and its alias (`/mcp`, `/api/mcp`) as absolute URLs. */
function endpoints(baseUrl: string): string[] {
  return aliasPaths(mcpCall).map((path) => baseUrl + path);
}

/** GET /mcp: the server, how to reach it and its tools with their JSON input schemas. */
export function mcpDescriptor(baseUrl: string) {
  const [endpoint, ...alternates] = endpoints(baseUrl);
  const definitions = mcpToolDefinitions();
  return {
    name: MCP_SERVER_INFO.name,
    title: MCP_SERVER_INFO.title,
    version: MCP_SERVER_INFO.version,
    description: SERVER_DESCRIPTION,
    endpoint,
    alternate_endpoints: alternates,
    transport: {
      type: 'streamable-http',
      // Each POST carries its own JSON-RPC messages and gets a JSON answer: no session, no SSE stream.
      stateless: true,
      response_content_type: 'application/json',
      protocol_version: LATEST_PROTOCOL_VERSION,
      supported_protocol_versions: [...SUPPORTED_PROTOCOL_VERSIONS],
    },
    authentication: { type: 'bearer', header: 'Authorization', required: true, description: AUTHENTICATION_NOTE },
    metering: METERING_NOTE,
    capabilities: { tools: { listChanged: false } },
    tools: MCP_TOOLS.map((tool, index) => {
      const { method, path } = routeOfTool(tool);
      return { ...definitions[index], rest_route: { method, path } };
    }),
    documentation: { openapi: baseUrl + discoveryOpenapi.path, llms: baseUrl + discoveryLlms.path },
  };
}

/**
 * /.well-known/mcp.json: where the server is, how to connect and authenticate, and what it offers
 * (tool names and descriptions; the input schemas are in the descriptor at the endpoint).
 */
export function mcpDiscoveryDocument(baseUrl: string) {
  const [endpoint, ...alternates] = endpoints(baseUrl);
  return {
    serverInfo: { ...MCP_SERVER_INFO },
    description: SERVER_DESCRIPTION,
    protocolVersion: LATEST_PROTOCOL_VERSION,
    transport: { type: 'streamable-http', endpoint, alternate_endpoints: alternates, stateless: true },
    authentication: { required: true, schemes: ['bearer'], description: AUTHENTICATION_NOTE },
    capabilities: { tools: { listChanged: false } },
    tools: MCP_TOOLS.map(({ name, description }) => ({ name, description })),
    descriptor: endpoint,
    openapi: baseUrl + discoveryOpenapi.path,
    documentation: baseUrl + discoveryLlms.path,
  };
}

/**
 * /.well-known/ai-plugin.json: the plugin manifest (schema v1) pointing at openapi.json, with the MCP
 * server beside it. There is no logo, contact address or legal page to point at, so those optional
 * fields are left out rather than invented.
 */
export function aiPluginManifest(baseUrl: string) {
  const [endpoint] = endpoints(baseUrl);
  return {
    schema_version: 'v1',
    name_for_human: 'Fincore',
    name_for_model: MCP_SERVER_INFO.name,
    description_for_human: 'Connect bank accounts and read balances, transactions and AI analyses of them.',
    description_for_model:
      `${SERVER_DESCRIPTION} Use the REST API described by the OpenAPI document, or the MCP server at ${endpoint} ` +
      `(tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}). Item tools take the access_token that exchange_public_token returns.`,
    auth: { type: 'user_http', authorization_type: 'bearer' },
    api: { type: 'openapi', url: baseUrl + discoveryOpenapi.path },
    mcp: { url: endpoint, transport: 'streamable-http', discovery: baseUrl + discoveryMcp.path },
  };
}
