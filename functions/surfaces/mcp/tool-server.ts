// A tools-only MCP server on the SDK's Protocol class (JSON-RPC dispatch, ping, cancellation, the
// SDK's error codes and messages), answering the handshake and tools/call exactly as the SDK's
// low-level Server does for a server that declares only `tools`.
//
// Why not the SDK's Server itself: its constructor builds an Ajv JSON Schema validator (ajv,
// ajv-formats, fast-uri: about 130 KB of the function's bundle) whenever none is passed in, and the
// module imports it either way. The validator's one use is checking a client's answer to an
// elicitation request, which only a server that sends requests to its client needs; this server
// answers one HTTP request statelessly and never sends a request (assertCapabilityForMethod refuses
// any), so that code could never run here.
import { safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  type CallToolResult,
  type Implementation,
  type InitializeRequest,
  type InitializeResult,
  type ListToolsResult,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** The requests this server registers handlers for (Protocol registers `ping` itself). */
const HANDLED_REQUESTS: ReadonlySet<string> = new Set(['initialize', 'ping', 'tools/list', 'tools/call']);

/**
 * A request as Protocol parses it before the handler runs: only the method, so that bad params reach
 * the handler's own check (invalid params, -32602, naming the problem) rather than failing Protocol's
 * parse (internal error, -32603, its message a JSON dump of the issues).
 */
const methodOnly = <M extends string>(method: M) => z.looseObject({ method: z.literal(method) });

/** The request checked against its method's schema; a mismatch is invalid params naming the first problems. */
function checkedRequest<S extends Parameters<typeof safeParse>[0]>(schema: S, method: string, request: unknown) {
  const checked = safeParse(schema, request);
  if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: ${problemsOf(checked.error)}`);
  return checked.data;
}

/** The first problems of a request that does not match its schema, readable in one line. */
function problemsOf(error: unknown): string {
  const issues = (error as { issues?: { path?: PropertyKey[]; message?: string }[] }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return messageOf(error);
  const shown = issues.slice(0, 3).map((issue) => `${(issue.path ?? []).map(String).join('.') || 'request'}: ${issue.message ?? 'invalid'}`);
  return `${shown.join('; ')}${issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''}`;
}

/** Notifications the SDK's Server may send for a tools server (it never sends any unprompted). */
const SENDABLE_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/cancelled', 'notifications/progress', 'notifications/tools/list_changed']);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface McpToolServerOptions {
  capabilities: ServerCapabilities & { tools: NonNullable<ServerCapabilities['tools']> };
  instructions?: string;
}

export class McpToolServer extends Protocol<ServerRequest, ServerNotification, ServerResult> {
  constructor(
    private readonly serverInfo: Implementation,
    private readonly options: McpToolServerOptions,
  ) {
    // Strict: a request to the client is checked by assertCapabilityForMethod, which refuses all.
    super({ enforceStrictCapabilities: true });
    this.setRequestHandler(methodOnly('initialize'), (request) => this.initialize(checkedRequest(InitializeRequestSchema, 'initialize', request)));
    this.setNotificationHandler(InitializedNotificationSchema, () => undefined);
  }

  /** tools/list: the request checked as the other methods are (a bad cursor is invalid params). */
  onToolsList(list: () => ListToolsResult): void {
    this.setRequestHandler(methodOnly('tools/list'), (request) => {
      checkedRequest(ListToolsRequestSchema, 'tools/list', request);
      return list();
    });
  }

  /**
   * tools/call: the params are checked first (a bad one is invalid params, -32602, as the SDK's Server
   * answers it), then the tool runs and its result is checked against CallToolResult.
   */
  onToolCall(run: (params: CallToolRequest['params']) => Promise<CallToolResult>): void {
    this.setRequestHandler(methodOnly('tools/call'), async (request) => {
      const { params } = checkedRequest(CallToolRequestSchema, 'tools/call', request);
      const result = safeParse(CallToolResultSchema, await run(params));
      if (!result.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${messageOf(result.error)}`);
      return result.data;
    });
  }

  private initialize(request: InitializeRequest): InitializeResult {
    const requested = request.params.protocolVersion;
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
      capabilities: this.options.capabilities,
      serverInfo: this.serverInfo,
      ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
    };
  }

  protected assertCapabilityForMethod(method: string): void {
    throw new Error(`This server sends no requests to its client (${method})`);
  }

  protected assertNotificationCapability(method: string): void {
    if (!SENDABLE_NOTIFICATIONS.has(method)) throw new Error(`Server does not support ${method}`);
  }

  protected assertRequestHandlerCapability(method: string): void {
    // Runs from Protocol's constructor too (for ping), before this class's fields are set: module constants only.
    if (!HANDLED_REQUESTS.has(method)) throw new Error(`Server does not support ${method}`);
  }

  protected assertTaskCapability(method: string): void {
    throw new Error(`This server sends no requests to its client (${method})`);
  }

  /** A task-augmented request: this server declares no tasks capability, so the SDK's Server's answer. */
  protected assertTaskHandlerCapability(method: string): void {
    throw new Error(`Server does not support task creation (required for ${method})`);
  }
}
