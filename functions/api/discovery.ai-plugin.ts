// GET /.well-known/ai-plugin.json: the plugin manifest, pointing at openapi.json and the MCP server.
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';
import { aiPluginManifest } from '../surfaces/mcp/descriptor';

export const handler = defineOperation('discovery.ai-plugin', ({ baseUrl }) => aiPluginManifest(baseUrl), { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL });
