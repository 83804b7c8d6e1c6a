// What the MCP server says about its tools (tools/list, GET /mcp, /.well-known/mcp.json), derived
// from the contract alone: each tool's input schema is its REST route's zod request schema as JSON
// Schema, so the two cannot drift. No handler code is reachable from here, so the public documents
// that describe the tools carry none of it (and get no table access).
import * as z from 'zod';
import { MCP_TOOLS, type McpTool } from '../../contracts/mcp-tools';
import { routeOfTool } from './tool-routes';

/** A JSON Schema object (the subset of shapes this module reads or writes). */
export type JsonSchema = { [key: string]: unknown };

/** Hints for the client choosing a tool (MCP `ToolAnnotations`). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
}

/**
 * Tools that change state: minting a link token and spending a public token. Every other tool
 * reads (the AI tools compute over an item's data and store nothing).
 */
const WRITING_TOOLS: ReadonlySet<string> = new Set(['create_link_url', 'exchange_public_token']);

/**
 * The JSON Schema of a tool's arguments: its route's request schema in zod's input mode (defaults
 * optional, as a caller writes them), in the MCP spec's default dialect (2020-12, so no `$schema`).
 * MCP requires `type: "object"` at the root, so a schema zod emits as a root `$ref` to a named
 * definition (a shared request shape such as AccessTokenRequest) is inlined there.
 */
export function toolInputSchema(tool: McpTool): JsonSchema & { type: 'object' } {
  const request = routeOfTool(tool).request;
  if (!request) return { type: 'object', properties: {}, additionalProperties: false };
  const { $schema: _dialect, ...schema } = z.toJSONSchema(request, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  const inlined = inlineRootReference(schema);
  if (inlined.type !== 'object') throw new Error(`${tool.name}: the request schema of ${tool.route} is not an object schema`);
  return inlined as JsonSchema & { type: 'object' };
}

function inlineRootReference(schema: JsonSchema): JsonSchema {
  const { $ref, $defs, ...rest } = schema as { $ref?: unknown; $defs?: Record<string, JsonSchema> };
  const prefix = '#/$defs/';
  if (typeof $ref !== 'string' || !$ref.startsWith(prefix) || !$defs || Object.keys(rest).length > 0) return schema;
  const name = $ref.slice(prefix.length);
  const { [name]: root, ...others } = $defs;
  if (!root) return schema;
  // A definition referenced again below the root (a recursive shape) stays where its references point.
  const stillReferenced = JSON.stringify([root, others]).includes(JSON.stringify($ref));
  const definitions = stillReferenced ? $defs : others;
  return { ...root, ...(Object.keys(definitions).length > 0 ? { $defs: definitions } : {}) };
}

let definitions: readonly McpToolDefinition[] | undefined;

/** The fifteen tools as tools/list returns them, in MCP_TOOLS order (computed once per process). */
export function mcpToolDefinitions(): readonly McpToolDefinition[] {
  definitions ??= MCP_TOOLS.map((tool) => {
    const writes = WRITING_TOOLS.has(tool.name);
    return {
      name: tool.name,
      description: tool.description,
      inputSchema: toolInputSchema(tool),
      annotations: { readOnlyHint: !writes, destructiveHint: false, idempotentHint: !writes, openWorldHint: false },
    };
  });
  return definitions;
}
