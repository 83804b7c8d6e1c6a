// What the shared middlewares need to know about the non-REST protocols (route `protocol`): how an
// error they raise (missing or bad key, rate limit, quota, oversized body, storage down) is rendered
// in the protocol's own format; which quota an MCP request counts against, which the MCP route's
// handler hands to them; and, for the Plaid-compatible API, where the key travels and how its errors
// look (ProtocolHooks, which its handler hands to them). The protocols themselves live in
// functions/surfaces/graphql, functions/surfaces/mcp and functions/surfaces/plaid.
import type { APIGatewayProxyResult as ApiResult } from 'aws-lambda';
import { displayMessageOf, documentationUrlOf, type ApiError } from '../contracts/errors';
import { MCP_TOOLS_BY_NAME } from '../contracts/mcp-tools';
import { AI_METERED_ROUTE_IDS, type Protocol } from '../contracts/routes';

/** Our error fields, as GraphQL `extensions` and JSON-RPC `error.data` carry them (the REST envelope's, plus the status). */
// A type alias, not an interface, so that it fits GraphQL's `extensions` (an index-signature record).
export type ProtocolErrorFields = {
  type: string;
  code: string;
  request_id: string;
  status: number;
  documentation_url: string;
  display_message: string | null;
};

/** Our error fields for `err`; `baseUrl` is the API's base URL for the request (where documentation_url points). */
export function errorFields(err: ApiError, requestId: string, baseUrl: string): ProtocolErrorFields {
  return {
    type: err.type,
    code: err.code,
    request_id: requestId,
    status: err.status,
    documentation_url: documentationUrlOf(err.code, baseUrl),
    display_message: displayMessageOf(err.code),
  };
}

export const GRAPHQL_RESPONSE_MEDIA_TYPE = 'application/graphql-response+json';

/** Canonical header names (`content-type` -> `Content-Type`), as the REST routes send them, for what a protocol library answers. */
export const canonicalHeaderName = (name: string) => name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());

/**
 * JSON-RPC error codes for our errors: the reserved ones where they fit (a body that is not JSON is a
 * parse error, a bad request an invalid request, a server failure an internal error), and codes from
 * the implementation-defined range -32000..-32099 for authentication (-32001), permission (-32003),
 * rate limit and quota (-32029) and unavailability (-32002). The HTTP status stays the REST one.
 */
export function jsonRpcCodeOf(err: ApiError): number {
  if (err.code === 'invalid_json') return -32700;
  switch (err.type) {
    case 'authentication_error':
      return -32001;
    case 'permission_denied':
      return -32003;
    case 'rate_limit_error':
      return -32029;
    case 'api_error':
      return err.status === 503 ? -32002 : -32603;
    case 'provider_error':
      return -32002;
    default:
      return -32600;
  }
}

/**
 * What the middlewares cannot know of a protocol that is another API's own (`plaid`: Plaid's
 * credentials and error objects): its route's handler passes them (defineOperation's
 * `protocolHooks`), so that no other function's bundle carries that API's tables.
 */
export interface ProtocolHooks {
  /**
   * The API key the request carries, from the request's lower-case headers (and the names sent more
   * than once) and its raw body; throws ApiError as a missing or malformed bearer key does
   * (missing_api_key, malformed_api_key, duplicate_header).
   */
  apiKeyOf(request: { headers: Readonly<Record<string, string>>; repeatedHeaders: ReadonlySet<string>; rawBody: string }): string;
  /**
   * An error the middlewares raised (or the wrapper caught), in the API's format with the status it
   * gives that error; `baseUrl` is the API's base URL for the request (for its documentation link).
   */
  errorResponse(err: ApiError, requestId: string, baseUrl: string): ApiResult;
}

/** The protocols whose error format is rendered here; `plaid` renders its own (ProtocolHooks). */
export type OwnProtocol = Exclude<Protocol, 'plaid'>;

/** An error the middlewares raised, in the route's protocol format, keeping its HTTP status and headers. */
export function protocolErrorResponse(protocol: OwnProtocol, err: ApiError, requestId: string, accept: string | undefined, baseUrl: string): ApiResult {
  if (protocol === 'graphql') {
    const mediaType = accept?.toLowerCase().includes(GRAPHQL_RESPONSE_MEDIA_TYPE) ? GRAPHQL_RESPONSE_MEDIA_TYPE : 'application/json';
    return {
      statusCode: err.status,
      headers: { 'Content-Type': `${mediaType}; charset=utf-8`, ...err.headers },
      body: JSON.stringify({ errors: [{ message: err.message, extensions: errorFields(err, requestId, baseUrl) }] }),
    };
  }
  return {
    statusCode: err.status,
    headers: { 'Content-Type': 'application/json', ...err.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: jsonRpcCodeOf(err), message: err.message, data: errorFields(err, requestId, baseUrl) } }),
  };
}

/**
 * An MCP request body as the server reads it: JSON after an optional UTF-8 byte-order mark (the
 * SDK's `Request.json()` skips one, so metering must read the same message the server runs); undefined
 * when it is not JSON. The server refuses what this cannot parse and every batch (functions/surfaces/mcp),
 * so the message metered is the message served.
 */
export function parseMcpBody(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody.startsWith('\uFEFF') ? rawBody.slice(1) : rawBody);
  } catch {
    return undefined;
  }
}

/**
 * The quota an MCP request counts against: AI when it calls an ai_* tool (a tool's route decides),
 * API otherwise (initialize, tools/list, ping, notifications, bodies the server will refuse). The MCP
 * route's handler passes it to defineOperation (`meterKind`). It reads the AI routes' ids, not the
 * route table, so the MCP bundle carries no route but its tools'.
 */
export function mcpMeterKind(rawBody: string): 'api' | 'ai' {
  const message = parseMcpBody(rawBody);
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return 'api';
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } | null };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return 'api';
  const tool = MCP_TOOLS_BY_NAME.get(params.name);
  return tool && (AI_METERED_ROUTE_IDS as readonly string[]).includes(tool.route) ? 'ai' : 'api';
}
