// The MCP endpoint's server (functions/surfaces/mcp/tool-server.ts) answers every message as the
// SDK's low-level Server, configured as the endpoint configures it, answers it: both are driven
// with the same JSON-RPC messages over the SDK's in-memory transport and their answers compared
// whole. The SDK's Server stays the reference here (tests may bundle ajv; the function does not).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { McpToolServer } from '../../functions/surfaces/mcp/tool-server';

const INFO = { name: 'fincore', title: 'Fincore financial data', version: '1.0.0' };
const OPTIONS = { capabilities: { tools: { listChanged: false } }, instructions: 'Use the tools.' };
const TOOLS = [{ name: 'echo', description: 'Echoes its arguments.', inputSchema: { type: 'object' as const } }];

/** The tool behind both servers: echoes, fails as a tool result, or returns what is not a CallToolResult. */
async function runTool({ name, arguments: args }: CallToolRequest['params']): Promise<CallToolResult> {
  if (name === 'malformed') return { content: 'not a list' } as unknown as CallToolResult;
  if (name === 'failing') return { isError: true, content: [{ type: 'text', text: 'it failed' }] };
  return { content: [{ type: 'text', text: JSON.stringify(args ?? {}) }], structuredContent: { echoed: args ?? {} } };
}

/** The SDK's Server as functions/surfaces/mcp/server.ts configured it before it had its own. */
function sdkServer(): Server {
  const server = new Server(INFO, OPTIONS);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(z.looseObject({ method: z.literal('tools/call') }), (request) => runTool(CallToolRequestSchema.parse(request).params));
  return server;
}

function toolServer(): McpToolServer {
  const server = new McpToolServer(INFO, OPTIONS);
  server.onToolsList(() => ({ tools: TOOLS }));
  server.onToolCall(runTool);
  return server;
}

/** Sends each message to a fresh connection of the server and collects what it answers, in order. */
async function answersOf(server: Protocol<never, never, never>, messages: JSONRPCMessage[]): Promise<unknown[]> {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers: unknown[] = [];
  const expected = messages.filter((m) => 'id' in m).length;
  const allAnswered = new Promise<void>((resolve) => {
    client.onmessage = (message) => {
      answers.push(message);
      if (answers.length === expected) resolve();
    };
  });
  await server.connect(serverSide);
  await client.start();
  for (const message of messages) await client.send(message);
  await allAnswered;
  await server.close();
  // Answers to concurrent requests may come in any order: compared by id.
  return answers.sort((a, b) => String((a as { id: unknown }).id).localeCompare(String((b as { id: unknown }).id)));
}

const request = (id: number, method: string, params?: Record<string, unknown>): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const initialize = (id: number, protocolVersion: string) => request(id, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'test', version: '1' } });

const CASES: Array<[string, JSONRPCMessage[]]> = [
  ['initialize at the latest version', [initialize(1, LATEST_PROTOCOL_VERSION)]],
  ['initialize at the oldest supported version', [initialize(1, SUPPORTED_PROTOCOL_VERSIONS.at(-1)!)]],
  ['initialize at an unknown version (answered with the latest)', [initialize(1, '1999-01-01')]],
  [
    'the initialized notification, ping and tools/list',
    [initialize(1, LATEST_PROTOCOL_VERSION), { jsonrpc: '2.0', method: 'notifications/initialized' }, request(2, 'ping'), request(3, 'tools/list')],
  ],
  ['a tool call', [request(1, 'tools/call', { name: 'echo', arguments: { a: 1 } })]],
  ['a tool call without arguments', [request(1, 'tools/call', { name: 'echo' })]],
  ['a tool result that is an error', [request(1, 'tools/call', { name: 'failing', arguments: {} })]],
  ['a tool whose result is not a CallToolResult', [request(1, 'tools/call', { name: 'malformed', arguments: {} })]],
  ['a task-augmented tool call (no tasks capability)', [request(1, 'tools/call', { name: 'echo', arguments: {}, task: { ttl: 1000 } })]],
  ['methods of capabilities not declared', [request(1, 'resources/list'), request(2, 'prompts/list'), request(3, 'logging/setLevel', { level: 'info' }), request(4, 'completion/complete')]],
  ['task methods (no task store)', [request(1, 'tasks/list'), request(2, 'tasks/get', { taskId: 't' })]],
  ['an unknown method', [request(1, 'no/such/method')]],
];

describe('the MCP tool server answers as the SDK\'s Server', () => {
  it.each(CASES)('%s', async (_name, messages) => {
    const ours = await answersOf(toolServer() as unknown as Protocol<never, never, never>, messages);
    const reference = await answersOf(sdkServer() as unknown as Protocol<never, never, never>, messages);
    expect(ours).toEqual(reference);
    expect(ours).toHaveLength(messages.filter((m) => 'id' in m).length);
  });

  // Where it answers better on purpose: the SDK's Server answers bad initialize params with an
  // internal error (-32603) whose message is a JSON dump of the issues, and bad tools/call params
  // with that dump in the message; ours answers invalid params (-32602) naming the problems in a line.
  it.each([
    ['initialize without params', request(1, 'initialize'), /^MCP error -32602: Invalid initialize request: params: /],
    ['initialize without clientInfo', request(1, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {} }), /Invalid initialize request: params\.clientInfo: /],
    ['a tool call without a name', request(1, 'tools/call', { arguments: {} }), /^MCP error -32602: Invalid tools\/call request: params\.name: /],
    ['a tool call whose arguments are not an object', request(1, 'tools/call', { name: 'echo', arguments: [1, 2] }), /Invalid tools\/call request: params\.arguments: /],
    ['a tool call without params', request(1, 'tools/call'), /Invalid tools\/call request: params: /],
    ['tools/list with a cursor that is not a string', request(1, 'tools/list', { cursor: 5 }), /Invalid tools\/list request: params\.cursor: /],
  ] as const)('%s: invalid params naming the problem in one line', async (_name, message, expected) => {
    const [answer] = (await answersOf(toolServer() as unknown as Protocol<never, never, never>, [message])) as Array<{ error: { code: number; message: string } }>;
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(expected);
    expect(answer.error.message).not.toContain('\n');
  });

  it('registers no handler for a capability it does not declare', () => {
    expect(() => toolServer().setRequestHandler(z.looseObject({ method: z.literal('resources/list') }), () => ({ resources: [] }))).toThrow(/does not support resources\/list/);
  });

  it('never sends a request to its client (what the SDK\'s JSON Schema validator would check the answer of)', async () => {
    const server = toolServer();
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await expect(server.request({ method: 'ping' }, z.object({}))).rejects.toThrow(/sends no requests/);
    await server.close();
  });
});
