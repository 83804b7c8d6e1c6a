// POST /mcp (and /api/mcp): the MCP server (functions/surfaces/mcp/server.ts), one HTTP request per
// invocation. The middlewares have authenticated and metered the key and size-checked the raw body;
// a request that calls an ai_* tool counts against the AI quota (mcpMeterKind).
import { mcpCall } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { mcpMeterKind } from '../platform/protocols';
import { serveMcpRequest } from '../surfaces/mcp/server';

export const handler = defineOperation(
  mcpCall,
  ({ deps, auth, requestId, baseUrl, event, body, deadline }) => serveMcpRequest({ deps, auth, requestId, baseUrl, event, body, ...(deadline === undefined ? {} : { deadline }) }),
  { meterKind: mcpMeterKind },
);
