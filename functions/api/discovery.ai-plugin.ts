// GET /.well-known/ai-plugin.json: the plugin manifest, pointing at openapi.json and the MCP server.
import { discoveryAiPlugin } from '../contracts/routes';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';
import { aiPluginManifest } from '../surfaces/mcp/descriptor';

export const handler = defineOperation(discoveryAiPlugin, ({ baseUrl }) => aiPluginManifest(baseUrl), { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL });
