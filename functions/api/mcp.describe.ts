// GET /mcp (and /api/mcp): a JSON descriptor of the MCP server and its tools. The server has no SSE
// stream, so a GET that accepts only text/event-stream (an MCP client opening the optional standalone
// stream) is told 405, which the Streamable HTTP transport defines as "no stream here".
import { ApiError } from '../contracts/errors';
import { aliasPaths, mcpCall, mcpDescribe, ROUTES } from '../contracts/routes';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';
import { mcpDescriptor } from '../surfaces/mcp/descriptor';

const EVENT_STREAM = 'text/event-stream';
const MCP_PATHS = new Set(aliasPaths(mcpCall));
/** Every method the MCP path answers (GET here, POST for the server). */
const ALLOWED = ROUTES.filter((r) => MCP_PATHS.has(r.path)).map((r) => r.method).join(', ');

/** Whether the Accept header admits a JSON answer: absent, JSON, or a wildcard that covers it. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0].trim().toLowerCase();
    return type === 'application/json' || type === 'application/*' || type === '*/*' || type.endsWith('+json');
  });
}

export const handler = defineOperation(
  mcpDescribe,
  ({ baseUrl, event }) => {
    const accept = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'accept')?.[1];
    if (accept?.toLowerCase().includes(EVENT_STREAM) && !acceptsJson(accept)) {
      throw new ApiError('method_not_allowed', `This MCP server has no SSE stream: GET ${event.path} answers a JSON descriptor only.`, { Allow: ALLOWED });
    }
    return mcpDescriptor(baseUrl);
  },
  { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL },
);
