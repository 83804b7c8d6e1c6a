// POST /mcp (and /api/mcp): the MCP server (functions/surfaces/mcp/server.ts), one HTTP request per
// invocation. The middlewares have authenticated and metered the key and size-checked the raw body.
import { defineOperation } from '../platform/operation';
import { serveMcpRequest } from '../surfaces/mcp/server';

export const handler = defineOperation('mcp.call', ({ deps, auth, requestId, baseUrl, event, body }) =>
  serveMcpRequest({ deps, auth, requestId, baseUrl, event, body }),
);
