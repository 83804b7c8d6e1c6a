// GET /.well-known/mcp.json: where the MCP server is and how to connect to it (a server card).
import { discoveryMcp } from '../contracts/routes';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';
import { mcpDiscoveryDocument } from '../surfaces/mcp/descriptor';

export const handler = defineOperation(discoveryMcp, ({ baseUrl }) => mcpDiscoveryDocument(baseUrl), { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL });
