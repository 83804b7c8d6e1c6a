// The MCP server behind POST /mcp (and /api/mcp): the official SDK's protocol layer (./tool-server.ts:
// its low-level Server, less a validator this server never uses) over its web-standard Streamable
// HTTP transport, stateless (no session id) with JSON responses, so one Lambda invocation serves one
// HTTP request: the API Gateway event becomes a web Request, a fresh server and transport answer it,
// and the web Response becomes the rendered answer. The key was authenticated and metered by the
// middlewares before this runs.
//
// Tools: the fifteen of MCP_TOOLS. tools/list publishes each with its route's request schema as JSON
// Schema; tools/call runs the route's own handler code through invokeRoute, which checks the
// arguments against the same zod schema with the same error codes as REST, resolves the access token
// and checks consent. Where it runs (./tool-runner.ts): deployed, in the route's own function (a
// Lambda invoke, so this function carries none of the tools' code); locally and in tests, in process. Not the SDK's McpServer: it would validate the arguments itself (other messages
// than ours) and answers an unknown tool with a tool result, where the spec makes it a protocol error.
//
// Errors (docs/mcp.md):
// - the route answers an error (any ApiError: bad argument, invalid_access_token, consent, ...): a
//   tool result with `isError: true`, whose structuredContent is the REST error envelope plus the
//   HTTP status it would have had, so a model can read it and correct its call;
// - an unknown tool: JSON-RPC error -32602 (invalid params), our fields in `data`;
// - anything unexpected: JSON-RPC error -32603 (internal error), logged, nothing of it leaked;
// - malformed JSON-RPC, a wrong Accept or Content-Type, an unknown method: the SDK's own JSON-RPC
//   errors and HTTP statuses, with our fields put in `data` (ourErrorData) in place of whatever the
//   SDK put there (its parse error's `data` is the exception's text).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ErrorCode, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, envelope, type ErrorCode as OurErrorCode } from '../../contracts/errors';
import { MCP_SERVER_INFO, MCP_TOOLS, MCP_TOOLS_BY_NAME, type McpToolName } from '../../contracts/mcp-tools';
import { mcpCall } from '../../contracts/routes';
import { recordServerError } from '../../platform/middleware';
import { logger } from '../../platform/observability';
import type { InlineCall, RenderedResponse } from '../../platform/operation';
import { canonicalHeaderName, errorFields, jsonRpcCodeOf, parseMcpBody, protocolErrorResponse } from '../../platform/protocols';
import { renderToolResult } from './render';
import { mcpToolDefinitions } from './tool-definitions';
import { runTool } from './tool-runner';
import { McpToolServer } from './tool-server';

/** One HTTP request to the MCP endpoint: the authenticated caller and the raw body. */
export interface McpHttpCall extends InlineCall {
  body: string;
}

const INSTRUCTIONS =
  'Fincore financial data. Connect an account with create_link_url (open the link, then exchange_public_token with the ' +
  'public token Link returns), then pass the access_token to the item tools. Sandbox items (test keys) have generated data.';

/** A JSON-RPC error the SDK sends as is: its `code`, `message` and `data` (McpError would prefix the message). */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/** Characters of an unknown tool's name echoed in the error. */
const ECHOED_NAME_LENGTH = 100;

/** A fresh server for one request, its tools running within that request's authenticated call. */
export function createMcpServer(call: InlineCall): McpToolServer {
  const server = new McpToolServer({ ...MCP_SERVER_INFO }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.onToolsList(() => ({ tools: mcpToolDefinitions() as Tool[] }));
  server.onToolCall(({ name, arguments: args }) => callTool(call, name, args));
  return server;
}

async function callTool(call: InlineCall, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const tool = MCP_TOOLS_BY_NAME.get(name);
  if (!tool) {
    const unknown = new ApiError('invalid_field', `Unknown tool "${name.slice(0, ECHOED_NAME_LENGTH)}". The tools are: ${MCP_TOOLS.map((t) => t.name).join(', ')}.`);
    throw new JsonRpcError(ErrorCode.InvalidParams, unknown.message, errorFields(unknown, call.requestId, call.baseUrl));
  }
  const toolName = tool.name as McpToolName;
  try {
    const result = await runTool(toolName, call, args ?? {});
    // Exactly the JSON the REST route sends (serialisation drops what JSON cannot carry).
    const structured = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
    logger.info('mcp tool call', { tool: toolName, route: tool.route });
    return { content: [{ type: 'text', text: renderToolResult(toolName, structured, call.baseUrl) }], structuredContent: structured };
  } catch (err) {
    if (err instanceof ApiError) {
      logger.info('mcp tool call', { tool: toolName, route: tool.route, error_code: err.code });
      return toolError(err, call.requestId, call.baseUrl);
    }
    logger.error('mcp tool call failed', { tool: toolName, route: tool.route, error: err instanceof Error ? err.stack ?? err.message : String(err) });
    // Answered as a JSON-RPC error with HTTP 200: counted here, or an operator's ServerError alarm would never see it.
    recordServerError(mcpCall.id);
    const internal = new ApiError('internal_error');
    throw new JsonRpcError(jsonRpcCodeOf(internal), internal.message, errorFields(internal, call.requestId, call.baseUrl));
  }
}

/** What the route answered, as a tool execution error: the REST envelope plus the status it had. */
function toolError(err: ApiError, requestId: string, baseUrl: string): CallToolResult {
  const { error } = envelope(err, requestId, baseUrl);
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${err.status} ${error.type}/${error.code}: ${error.message} (request_id ${requestId})` }],
    structuredContent: { error: { ...error, status: err.status } },
  };
}

/** Serves one HTTP request to the MCP endpoint. */
export async function serveMcpRequest(call: McpHttpCall): Promise<RenderedResponse> {
  // The message the middleware metered (mcpMeterKind) is the one served: a body that reader cannot
  // parse is refused here, and so is every batch (MCP 2025-06-18 removed JSON-RPC batching; served,
  // one HTTP request would run many tools, AI ones included, for the price of one).
  const message = parseMcpBody(call.body);
  if (message === undefined) return refusal(new ApiError('invalid_json', 'The body is not a JSON-RPC message (not JSON).'), call);
  if (Array.isArray(message)) {
    return refusal(new ApiError('mcp_invalid_message', 'JSON-RPC batches are not served: send one message per request.'), call);
  }
  const server = createMcpServer(call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return withOurErrorData(await renderedResponse(await transport.handleRequest(webRequestOf(call))), call);
  } finally {
    await server.close();
  }
}

function refusal(err: ApiError, call: Pick<InlineCall, 'requestId' | 'baseUrl'>): RenderedResponse {
  const { statusCode, headers, body } = protocolErrorResponse('mcp', err, call.requestId, undefined, call.baseUrl);
  return { statusCode, headers: headers as Record<string, string>, body };
}

/** Headers that describe the original connection or encoding, not the request the transport reads. */
const CONNECTION_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);

function webRequestOf(call: McpHttpCall): Request {
  const { event } = call;
  const headers = new Headers();
  for (const [name, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (CONNECTION_HEADERS.has(name.toLowerCase())) continue;
    for (const value of values ?? []) headers.append(name, value);
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (CONNECTION_HEADERS.has(name.toLowerCase()) || value === undefined || headers.has(name)) continue;
    headers.set(name, value);
  }
  const method = event.httpMethod.toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(event.path, `${call.baseUrl}/`), { method, headers, body: hasBody ? call.body : undefined });
}


async function renderedResponse(response: Response): Promise<RenderedResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[canonicalHeaderName(name)] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}

/** Our error for a JSON-RPC error the SDK answered itself, by its HTTP status, then its JSON-RPC code. */
function sdkErrorCode(httpStatus: number, jsonRpcCode: unknown): OurErrorCode {
  switch (httpStatus) {
    case 406:
      return 'mcp_not_acceptable';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'request_too_large';
    case 415:
      return 'invalid_content_type';
  }
  if (httpStatus >= 500) return 'internal_error';
  if (jsonRpcCode === ErrorCode.ParseError) return 'invalid_json';
  if (jsonRpcCode === ErrorCode.InvalidParams) return 'invalid_field';
  return 'mcp_invalid_message';
}

/**
 * The SDK's message without what follows its headline: it appends validation issues as JSON (and
 * prefixes "MCP error <code>: "), which is the library's internals, not ours to publish.
 */
function sdkMessageHeadline(message: unknown): string | undefined {
  if (typeof message !== 'string') return undefined;
  const headline = message.replace(/^MCP error -?\d+: /, '').split('\n')[0].replace(/:\s*[[{].*$/, '').trim();
  return headline === '' ? undefined : headline.slice(0, 200);
}

type JsonRpcErrorMessage = { error: { code?: unknown; message?: unknown; data?: unknown } };

const isErrorMessage = (value: unknown): value is JsonRpcErrorMessage =>
  typeof value === 'object' && value !== null && typeof (value as JsonRpcErrorMessage).error === 'object' && (value as JsonRpcErrorMessage).error !== null;

const hasOurFields = (data: unknown) => typeof data === 'object' && data !== null && typeof (data as { request_id?: unknown }).request_id === 'string';

/**
 * Every JSON-RPC error in the answer carries our fields (type, code, request_id, status) in `data`,
 * as the errors our own code raises do: the SDK's own (a bad message, a wrong Accept or Content-Type,
 * an unknown method) get them here, replacing what the SDK put in `data`.
 */
function withOurErrorData(response: RenderedResponse, call: Pick<InlineCall, 'requestId' | 'baseUrl'>): RenderedResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return response;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  let changed = false;
  for (const message of messages) {
    if (!isErrorMessage(message) || hasOurFields(message.error.data)) continue;
    const ours = new ApiError(sdkErrorCode(response.statusCode, message.error.code), sdkMessageHeadline(message.error.message));
    message.error.message = ours.message;
    message.error.data = errorFields(ours, call.requestId, call.baseUrl);
    changed = true;
  }
  return changed ? { ...response, body: JSON.stringify(parsed) } : response;
}
