// /llms.txt (index) and /llms-full.txt (every operation with its fields), generated from the route
// table so they can never disagree with openapi.json.
import * as z from 'zod';
import { ERRORS, publicErrorCodes, statusOf } from '../contracts/errors';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../contracts/events';
import { LIMITS } from '../contracts/limits';
import { MCP_TOOLS } from '../contracts/mcp-tools';
import { ROUTES, inPublicContract, routeById, type Route } from '../contracts/routes';
import { API_VERSION } from '../contracts/schemas';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
};

function typeOf(s: JsonSchema): string {
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items) : 'any'}`;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

function bounds(s: JsonSchema): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`min ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`max ${s.maximum}`);
  if (s.minLength !== undefined) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.minItems !== undefined) parts.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) parts.push(`at most ${s.maxItems} items`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function fieldLines(schema: JsonSchema, prefix = '', depth = 0): string[] {
  const lines: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const flag = required.has(name) ? 'required' : 'optional';
    const desc = prop.description ? `: ${prop.description}` : '';
    lines.push(`  - ${path} (${typeOf(prop)}, ${flag})${bounds(prop)}${desc}`);
    const nested = prop.type === 'array' ? prop.items : prop;
    if (nested?.properties && depth < 2) lines.push(...fieldLines(nested, prop.type === 'array' ? `${path}[]` : path, depth + 1));
  }
  return lines;
}

function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
}

function operationBlock(route: Route, baseUrl: string): string {
  const lines = [`### ${route.method} ${route.path}`, '', route.summary];
  if (route.description) lines.push(route.description);
  const facts = [
    route.auth === 'key' ? 'auth: bearer secret key' : 'auth: none',
    route.consent ? `consent: ${route.consent}` : null,
    route.metering !== 'none' ? `metered: ${route.metering}` : null,
    route.testKeysOnly ? 'test keys only' : null,
  ].filter(Boolean);
  lines.push(`(${facts.join('; ')})`, '');
  if (route.request) {
    lines.push('Request body:', ...fieldLines(toJson(route.request, 'input')));
  }
  if (route.responseKind === 'json') {
    lines.push('Response:', ...fieldLines(toJson(route.response, 'output')));
  }
  lines.push('', `Example: curl -X ${route.method} ${baseUrl}${route.path}${route.auth === 'key' ? ' -H "Authorization: Bearer $FC_KEY"' : ''}${route.request ? " -H 'Content-Type: application/json' -d '{...}'" : ''}`, '');
  return lines.join('\n');
}

function eventBlock(type: EventType): string {
  const { summary, description, data } = EVENT_CATALOGUE[type];
  return [`### ${type}`, '', `${summary}. ${description}`, '', 'Payload (data):', ...fieldLines(toJson(data, 'output')), ''].join('\n');
}

/** GraphQL and MCP: how to reach them, and the MCP tools with the route each one runs. */
function surfacesBlock(baseUrl: string, depth: 'index' | 'full'): string[] {
  const tools = MCP_TOOLS.map((tool) => {
    const route = routeById(tool.route);
    const line = `- ${tool.name} (runs ${route.method} ${route.path}${route.metering === 'ai' ? '; AI quota' : ''}): ${tool.description}`;
    if (depth === 'index' || !route.request) return line;
    return [line, ...fieldLines(toJson(route.request, 'input')).map((l) => `  ${l}`)].join('\n');
  });
  return [
    '## GraphQL and MCP',
    '',
    `- GraphQL (read-only): POST ${baseUrl}/v1/graphql with {"query", "variables"}; the same bearer key; GraphiQL at GET ${baseUrl}/v1/graphql. Field names are the REST ones. Example: curl ${baseUrl}/v1/graphql -H "Authorization: Bearer $FC_KEY" -H 'Content-Type: application/json' -d '{"query":"query($t:String!){ item(access_token:$t){ item_id accounts{ name balances{ current } } } }","variables":{"t":"fc_at_..."}}'`,
    `- MCP: Streamable HTTP at ${baseUrl}/mcp (also ${baseUrl}/api/mcp), stateless, JSON responses, header Authorization: Bearer $FC_KEY. Descriptor: GET ${baseUrl}/mcp; discovery: ${baseUrl}/.well-known/mcp.json. Each tool takes its REST route's JSON body as arguments and returns the REST answer as structured content.`,
    '',
    'MCP tools:',
    ...tools,
    '',
  ];
}

/**
 * What llms.txt describes: every route but the console's own (Route.console), which only its web app
 * calls, and the unlisted (Route.unlisted: the Plaid-compatible API, Plaid's contract).
 */
const PUBLIC_ROUTES = /* @__PURE__ */ ROUTES.filter(inPublicContract);

export function buildLlmsTxt(baseUrl: string, depth: 'index' | 'full'): string {
  const head = [
    '# Fincore financial data API',
    '',
    `> Connect bank, card, brokerage and crypto logins through hosted Link (${baseUrl}/link?token=...), then read normalized accounts, balances, transactions, identity, income, assets, investments, liabilities and recurring streams with one access token per item. API version ${API_VERSION}.`,
    '',
    '- Auth: `Authorization: Bearer fc_sk_test_...` (sandbox) or `fc_sk_live_...` (live).',
    '- Every data call is POST with a JSON body; money in major units with iso_currency_code; positive amount = money out.',
    `- Errors: {"error": {"type", "code", "message", "request_id"}} (GraphQL: in errors[].extensions; MCP: in the JSON-RPC error's data). Limits: token bucket per key (burst 3x the plan rate), monthly quotas; 429 carries Retry-After.`,
    `- Machine-readable description: ${baseUrl}/openapi.json. Full text: ${baseUrl}/llms-full.txt.`,
    '- Sandbox logins in Link: user_good/pass_good connects; user_mfa/pass_good asks for code 1234; user_locked ends in an item error.',
    '',
  ];
  if (depth === 'index') {
    const list = PUBLIC_ROUTES.map((r) => `- [${r.method} ${r.path}](${baseUrl}/llms-full.txt): ${r.summary}`);
    return [...head, '## Operations', '', ...list, '', ...surfacesBlock(baseUrl, depth)].join('\n');
  }
  const errors = publicErrorCodes().map((c) => `- ${c} (${ERRORS[c].type}, HTTP ${statusOf(c)}): ${ERRORS[c].message}`);
  const limits = Object.entries(LIMITS).map(([k, v]) => `- ${k}: ${v}`);
  return [
    ...head,
    '## Operations',
    '',
    ...PUBLIC_ROUTES.map((r) => operationBlock(r, baseUrl)),
    ...surfacesBlock(baseUrl, depth),
    '## Webhook events',
    '',
    'Signed POSTs to your webhook endpoints: body {"id", "type", "created", "data"}; headers FC-Signature (v1=HMAC-SHA256 of "<FC-Timestamp>.<raw body>") and FC-Timestamp.',
    '',
    ...EVENT_TYPES.map(eventBlock),
    '## Error codes',
    '',
    ...errors,
    '',
    '## Limits',
    '',
    ...limits,
    '',
  ].join('\n');
}
