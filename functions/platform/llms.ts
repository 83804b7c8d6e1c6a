// /llms.txt (an index: one link per section) and /llms-full.txt (every operation with its fields,
// every enum with its values, the webhooks, the errors), generated from the route table, the event
// catalogue and the error catalogue so they can never disagree with openapi.json.
import * as z from 'zod';
import { DOCS_PATH, ERRORS_DOCS_PATH, errorDocumentationPath } from '../contracts/docs-links';
import { ERRORS, publicErrorCodes, statusOf } from '../contracts/errors';
import { DELIVERY_ATTEMPT_HEADER, EVENT_CATALOGUE, EVENT_ID_HEADER, EVENT_TYPES, type EventType } from '../contracts/events';
import { LIMITS } from '../contracts/limits';
import { MCP_TOOLS } from '../contracts/mcp-tools';
import { ROUTES, inPublicContract, routeById, type Route } from '../contracts/routes';
import { API_VERSION, PaymentChannel } from '../contracts/schemas';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../core/webhook-signature';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../workers/webhook-schedule';
import { SAMPLE_API_KEY_VARIABLE, SAMPLE_BASE_URL_VARIABLE, curlSample } from './openapi';

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

/**
 * A schema converted with its named parts (a `.meta({ id })` schema: Transaction, the enums) as
 * `$ref`s into `$defs`: what `resolve` looks them up in.
 */
interface Converted {
  root: JsonSchema;
  definitions: Record<string, JsonSchema>;
}

function resolve(schema: JsonSchema, definitions: Record<string, JsonSchema>, seen: ReadonlySet<string> = new Set()): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const id = schema.$ref.replace(/^#\/\$defs\//, '');
  const target = definitions[id];
  // A schema that contains itself stays a reference the second time (no such schema today).
  if (!target || seen.has(id)) return { type: id };
  const { $ref: _ref, ...rest } = schema;
  return { ...resolve(target, definitions, new Set([...seen, id])), ...rest };
}

/** The type of a field in words, enum and literal values spelled out (`one of "a", "b"`). */
function typeOf(raw: JsonSchema, definitions: Record<string, JsonSchema>): string {
  const s = resolve(raw, definitions);
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return `always ${JSON.stringify(s.const)}`;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    const resolved = variants.map((v) => resolve(v, definitions));
    // A union of literals (and enums) reads as one list of values.
    if (resolved.every((v) => v.const !== undefined || v.enum || v.type === 'null')) {
      const values = resolved.flatMap((v) => (v.type === 'null' ? [null] : v.enum ?? [v.const]));
      return `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return [...new Set(resolved.map((v) => typeOf(v, definitions)))].join(' or ');
  }
  if (s.type === 'array') return `array of ${s.items ? typeOf(s.items, definitions) : 'any'}`;
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  return s.format ? `${type} (${s.format})` : type;
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

/** The object a field holds, when it holds one (directly, in an array, or as the non-null side of a nullable). */
function objectIn(schema: JsonSchema, definitions: Record<string, JsonSchema>): { object: JsonSchema; array: boolean } | null {
  const s = resolve(schema, definitions);
  if (s.properties || objectVariants(s, definitions).length > 1) return { object: s, array: false };
  if (s.type === 'array' && s.items) {
    const inner = objectIn(s.items, definitions);
    return inner && !inner.array ? { object: inner.object, array: true } : null;
  }
  const variants = (s.anyOf ?? s.oneOf)?.map((v) => resolve(v, definitions)).filter((v) => v.type !== 'null');
  return variants?.length === 1 ? objectIn(variants[0]!, definitions) : null;
}

/** The object shapes of a union (a discriminated answer such as Link's connect step), resolved. */
function objectVariants(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema[] {
  return (schema.anyOf ?? schema.oneOf ?? []).map((v) => resolve(v, definitions)).filter((v) => v.properties !== undefined);
}

/** How a variant names itself: its fields that hold one constant (`status = "connected"`). */
function variantLabel(variant: JsonSchema, definitions: Record<string, JsonSchema>): string {
  const constants = Object.entries(variant.properties ?? {})
    .map(([name, raw]) => [name, resolve(raw, definitions)] as const)
    .filter(([, prop]) => prop.const !== undefined || prop.enum?.length === 1)
    .map(([name, prop]) => `${name} = ${JSON.stringify(prop.const ?? prop.enum![0])}`);
  return constants.length > 0 ? ` (${constants.join(', ')})` : '';
}

/** How deep nested objects are listed field by field (Transaction inside a sync page inside the answer). */
const NESTED_DEPTH = 3;

function fieldLines(schema: JsonSchema, definitions: Record<string, JsonSchema>, prefix = '', depth = 0): string[] {
  const lines: string[] = [];
  const object = resolve(schema, definitions);
  const variants = object.properties ? [] : objectVariants(object, definitions);
  if (variants.length > 0) {
    // A union of shapes: each listed on its own, named by its constant fields.
    variants.forEach((variant, i) => {
      lines.push(`  - ${prefix ? `${prefix}: ` : ''}shape ${i + 1} of ${variants.length}${variantLabel(variant, definitions)}:`);
      lines.push(...fieldLines(variant, definitions, prefix, depth).map((line) => `  ${line}`));
    });
    return lines;
  }
  const required = new Set(object.required ?? []);
  for (const [name, raw] of Object.entries(object.properties ?? {})) {
    const prop = resolve(raw, definitions);
    const path = prefix ? `${prefix}.${name}` : name;
    const flag = required.has(name) ? 'required' : 'optional';
    const desc = prop.description ? `: ${prop.description}` : '';
    lines.push(`  - ${path} (${typeOf(prop, definitions)}, ${flag})${bounds(prop)}${desc}`);
    const nested = objectIn(prop, definitions);
    if (nested && depth < NESTED_DEPTH) lines.push(...fieldLines(nested.object, definitions, nested.array ? `${path}[]` : path, depth + 1));
  }
  return lines;
}

function toJson(schema: z.ZodType, io: 'input' | 'output'): Converted {
  const root = z.toJSONSchema(schema, { io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
  return { root, definitions: root.$defs ?? {} };
}

/** The fields of a schema, one line each, nested objects and enum values included. */
function schemaLines(schema: z.ZodType, io: 'input' | 'output'): string[] {
  const { root, definitions } = toJson(schema, io);
  return fieldLines(root, definitions);
}

function operationBlock(route: Route): string {
  const lines = [`### ${route.method} ${route.path}`, '', route.summary];
  if (route.description) lines.push(route.description);
  const facts = [
    route.auth === 'key' ? 'auth: bearer secret key' : route.auth === 'link' ? 'auth: the link_token in the body' : 'auth: none',
    route.consent ? `consent: ${route.consent}` : null,
    route.metering !== 'none' ? `metered: ${route.metering}` : null,
    route.testKeysOnly ? 'test keys only' : null,
  ].filter(Boolean);
  lines.push(`(${facts.join('; ')})`, '');
  if (route.request) {
    lines.push('Request body:', ...schemaLines(route.request, 'input'));
  }
  if (route.responseKind === 'json') {
    lines.push('Response:', ...schemaLines(route.response, 'output'));
  }
  lines.push('', 'Example:', curlSample(route), '');
  return lines.join('\n');
}

function eventBlock(type: EventType): string {
  const { summary, description, data } = EVENT_CATALOGUE[type];
  return [`### ${type}`, '', `${summary}. ${description}`, '', 'Payload (data):', ...schemaLines(data, 'output'), ''].join('\n');
}

/** Seconds as a reader says them: 60 -> 1 min, 7200 -> 2 h. */
function duration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The retry schedule in words: the first attempt at once, then each retry's delay after the previous failure. */
export function retryScheduleText(delays: readonly number[] = WEBHOOK_RETRY_DELAYS_SECONDS): string {
  const [first, ...retries] = delays;
  const start = first === 0 ? 'the first attempt at once' : `the first attempt after ${duration(first!)}`;
  const later = retries.map(duration);
  const listed = later.length > 1 ? `${later.slice(0, -1).join(', ')} and ${later[later.length - 1]}` : later.join('');
  return `${start}, then retries ${listed} after the previous attempt failed (${delays.length} attempts in all)`;
}

/** How deliveries are made, signed and retried, for a receiver. */
function webhookDeliveryLines(): string[] {
  return [
    'Signed POSTs to every webhook endpoint of the application and environment (POST /v1/webhooks/endpoints/create), and to an item\'s own webhook URL where one is set. Body: {"id", "type", "created", "data"}, exactly those keys in that order; `data` is the event type\'s payload below.',
    '',
    'Headers:',
    `- ${SIGNATURE_HEADER}: one or more comma-separated \`v1=<hex>\` entries, each HMAC-SHA256 keyed with the environment's signing secret over \`<${TIMESTAMP_HEADER}>.<raw body>\`; during a secret rotation there is one entry per active secret, and the delivery is authentic if any matches (compare in constant time).`,
    `- ${TIMESTAMP_HEADER}: Unix seconds when this attempt was signed. Reject a delivery more than ${DEFAULT_TOLERANCE_SECONDS} s from your clock (replay protection).`,
    `- ${EVENT_ID_HEADER}: the event id (the body's \`id\`), the same on every attempt and replay: deduplicate on it.`,
    `- ${DELIVERY_ATTEMPT_HEADER}: which attempt this is, from 1.`,
    '',
    `Verify the signature over the raw bytes before parsing. Answer 2xx within a few seconds and do the work asynchronously; any other answer, or none in time, fails the attempt. Retry schedule: ${retryScheduleText()}; after the last failure the delivery is dead-lettered. Every attempt is in POST /v1/webhooks/deliveries/list; POST /v1/webhooks/events/replay sends an event again. In the sandbox, POST /v1/sandbox/fire_webhook fires any type below for an item (its \`webhook_type\` field takes the event type, e.g. "transactions.sync_updates_available").`,
    '',
  ];
}

/** GraphQL and MCP: how to reach them, and the MCP tools with the route each one runs. */
function surfacesBlock(baseUrl: string, depth: 'index' | 'full'): string[] {
  const tools = MCP_TOOLS.map((tool) => {
    const route = routeById(tool.route);
    const line = `- ${tool.name} (runs ${route.method} ${route.path}${route.metering === 'ai' ? '; AI quota' : ''}): ${tool.description}`;
    if (depth === 'index' || !route.request) return line;
    return [line, ...schemaLines(route.request, 'input').map((l) => `  ${l}`)].join('\n');
  });
  return [
    '## GraphQL and MCP',
    '',
    `- GraphQL (read-only): POST ${baseUrl}/v1/graphql with {"query", "variables"}; the same bearer key; GraphiQL at GET ${baseUrl}/v1/graphql. Field names are the REST ones. Example: curl ${baseUrl}/v1/graphql -H "Authorization: Bearer $${SAMPLE_API_KEY_VARIABLE}" -H 'Content-Type: application/json' -d '{"query":"query($t:String!){ item(access_token:$t){ item_id accounts{ name balances{ current } } } }","variables":{"t":"fc_at_..."}}'`,
    `- MCP: Streamable HTTP at ${baseUrl}/mcp (also ${baseUrl}/api/mcp), stateless, JSON responses, header Authorization: Bearer $${SAMPLE_API_KEY_VARIABLE}. Descriptor: GET ${baseUrl}/mcp; discovery: ${baseUrl}/.well-known/mcp.json. Each tool takes its REST route's JSON body as arguments and returns the REST answer as structured content.`,
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

/** Redoc's anchor of a tag's section in the API reference (`#tag/Hosted-Link`). */
export function referenceTagAnchor(tag: string): string {
  return `tag/${tag.replace(/\s+/g, '-')}`;
}

/** The anchor of a heading of llms-full.txt, as Markdown renderers make it (`## Webhook events` -> `webhook-events`). */
export function fullTextAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/\s+/g, '-');
}

/** The guides of llms-full.txt that are not one tag's operations, in the order it has them. */
const GUIDES = {
  quickstart: 'Quickstart',
  migration: 'Migrating from Plaid',
  webhooks: 'Webhook events',
  errors: 'Error codes',
} as const;

/** From a sandbox key to a page of synced transactions: the calls of docs/quickstart.md, with the route table's own samples. */
function quickstartLines(): string[] {
  const step = (text: string, routeId: string) => [text, '', curlSample(routeById(routeId)), ''];
  return [
    `## ${GUIDES.quickstart}`,
    '',
    `Locally: \`npm install && npm start\` prints the base URL and a sandbox test key; \`export ${SAMPLE_BASE_URL_VARIABLE}=<base URL>\` and \`export ${SAMPLE_API_KEY_VARIABLE}=<test key>\`. Then (docs/quickstart.md in the repository runs these end to end):`,
    '',
    ...step('1. Create a sandbox public token (in production, hosted Link returns it to your page):', 'sandbox.public_token.create'),
    ...step('2. Exchange it, on your server, for the item\'s access_token (put the public_token of step 1 in the body):', 'link.token.exchange'),
    ...step(
      '3. The history loads in the background: wait for the transactions.sync_updates_available webhook, or until items/get shows item.transactions_update_status "historical_update_complete":',
      'items.get',
    ),
    ...step('4. Sync: loop while has_more, passing the last next_cursor as cursor; keep the last cursor for the next sync:', 'transactions.sync'),
  ];
}

/** What changes for code written against Plaid's API (docs/plaid-migration.md has every field). */
function migrationLines(baseUrl: string): string[] {
  return [
    `## ${GUIDES.migration}`,
    '',
    `Two ways: keep Plaid's client and point it at the Plaid-compatible base path ${baseUrl}/plaid (client_id = your application id, secret = your Fincore key), or move to this API. Moving, field by field:`,
    '',
    '- Auth: Plaid\'s client_id and secret in the body or PLAID-* headers become one header, Authorization: Bearer <key>. Paths gain /v1 (e.g. Plaid /item/public_token/exchange is POST /v1/link/token/exchange; /item/get is /v1/items/get; /transactions/sync is /v1/transactions/sync).',
    '- Transaction.category: Plaid\'s legacy `category` is an array of strings (["Food and Drink", "Restaurants"]) and its `personal_finance_category` an object {primary, detailed}; ours is a string, the primary category id ("food_and_drink"), with the detailed id in `category_detailed` ("food_and_drink_coffee"); null when uncategorized. POST /v1/categories/get lists the taxonomy with each category\'s Plaid PFC crosswalk.',
    `- Transaction.payment_channel: one of ${PaymentChannel.options.map((v) => JSON.stringify(v)).join(', ')}. Plaid writes "in store" with a space where we write "in_store", and has no "transfer" (Plaid: "other").`,
    '- Pending to posted: one transaction_id from authorization to posting. When a pending row posts, the same row changes (pending false, the posted date, perhaps the amount) and sync sends it in `modified`; Plaid instead adds a new posted transaction naming the old one in pending_transaction_id and removes the pending one. A pending row that never posts comes in `removed`.',
    '- Amount sign: the same as Plaid (positive = money out). Transaction has exactly twelve fields; Plaid\'s location, payment_meta, logo_url, website, counterparties and the like have no counterpart.',
    `- Errors: Plaid's {error_type, error_code, error_message, display_message, request_id} with HTTP 400 for most becomes {"error": {type, code, message, request_id, documentation_url, display_message}} with the HTTP status of the error (401 keys, 403 consent or plan, 404, 429, 5xx). Codes are lower snake case (INVALID_ACCESS_TOKEN is invalid_access_token, ITEM_LOGIN_REQUIRED is item_login_required, PRODUCT_NOT_READY is product_not_ready, RATE_LIMIT is rate_limit_exceeded). Every code: ${baseUrl}${ERRORS_DOCS_PATH}.`,
    `- Webhooks: Plaid's {webhook_type, webhook_code, item_id, ...} signed with a Plaid-Verification JWT becomes {"id", "type", "created", "data"} signed with ${SIGNATURE_HEADER} (HMAC-SHA256, below). TRANSACTIONS SYNC_UPDATES_AVAILABLE is "transactions.sync_updates_available"; ITEM ERROR is "item.error"; ITEM LOGIN_REPAIRED is "item.login_repaired". Webhook endpoints belong to the environment (POST /v1/webhooks/endpoints/create), and an item may have its own URL too.`,
    '- Sandbox fire_webhook: Plaid\'s /sandbox/item/fire_webhook takes webhook_code ("SYNC_UPDATES_AVAILABLE", with webhook_type "TRANSACTIONS"); POST /v1/sandbox/fire_webhook takes one field, `webhook_type`, whose value is our full event type ("transactions.sync_updates_available").',
    '',
  ];
}

/**
 * The index (llms.txt): what the API is, then one link per section: the docs and guides, and each
 * tag's operations in the API reference. The full text (llms-full.txt): every operation with its
 * fields, grouped by tag, then the guides.
 */
export function buildLlmsTxt(baseUrl: string, depth: 'index' | 'full'): string {
  const head = [
    '# Fincore financial data API',
    '',
    `> Connect bank, card, brokerage and crypto logins through hosted Link (${baseUrl}/link?token=...), then read normalized accounts, balances, transactions, identity, income, assets, investments, liabilities and recurring streams with one access token per item. API version ${API_VERSION}.`,
    '',
    '- Auth: `Authorization: Bearer fc_sk_test_...` (sandbox) or `fc_sk_live_...` (live).',
    '- Every data call is POST with a JSON body; money in major units with iso_currency_code; positive amount = money out.',
    `- Errors: {"error": {"type", "code", "message", "request_id", "documentation_url", "display_message"}}; documentation_url is ${baseUrl}${errorDocumentationPath('<code>')} (GraphQL: in errors[].extensions; MCP: in the JSON-RPC error's data). Limits: token bucket per key (burst 3x the plan rate), monthly quotas; 429 carries Retry-After.`,
    `- Machine-readable description: ${baseUrl}/openapi.json. Full text: ${baseUrl}/llms-full.txt.`,
    '- Sandbox logins in Link: user_good/pass_good connects; user_mfa/pass_good asks for code 1234; user_locked ends in an item error.',
    '',
  ];
  const tags = [...new Set(PUBLIC_ROUTES.map((r) => r.tag))];
  const full = `${baseUrl}/llms-full.txt`;
  if (depth === 'index') {
    const operations = tags.map((tag) => {
      const routes = PUBLIC_ROUTES.filter((r) => r.tag === tag);
      return `- [${tag}](${baseUrl}${DOCS_PATH}#${referenceTagAnchor(tag)}): ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`;
    });
    return [
      ...head,
      '## Docs',
      '',
      `- [API reference](${baseUrl}${DOCS_PATH}): every operation with its fields and a curl sample (rendered from openapi.json)`,
      `- [Error codes](${baseUrl}${ERRORS_DOCS_PATH}): every error code with its HTTP status, type, message and what to do`,
      `- [${GUIDES.quickstart}](${full}#${fullTextAnchor(GUIDES.quickstart)}): from a sandbox key to synced transactions with curl`,
      `- [${GUIDES.migration}](${full}#${fullTextAnchor(GUIDES.migration)}): the Plaid-compatible base path, or this API field by field`,
      `- [${GUIDES.webhooks}](${full}#${fullTextAnchor(GUIDES.webhooks)}): every event type, its payload, the signature and the retry schedule`,
      `- [Full text](${full}): all of the above and every operation's fields in one file`,
      '',
      '## Operations',
      '',
      ...operations,
      '',
      ...surfacesBlock(baseUrl, depth),
    ].join('\n');
  }
  const errors = publicErrorCodes().map((c) => `- ${c} (${ERRORS[c].type}, HTTP ${statusOf(c)}): ${ERRORS[c].message} See ${baseUrl}${errorDocumentationPath(c)}.`);
  const limits = Object.entries(LIMITS).map(([k, v]) => `- ${k}: ${v}`);
  return [
    ...head,
    `The curl examples read two shell variables: ${SAMPLE_BASE_URL_VARIABLE} (this deployment: ${baseUrl}) and ${SAMPLE_API_KEY_VARIABLE} (your secret key). The same reference, browsable: ${baseUrl}${DOCS_PATH}.`,
    '',
    ...tags.flatMap((tag) => [`## ${tag}`, '', ...PUBLIC_ROUTES.filter((r) => r.tag === tag).map(operationBlock)]),
    ...surfacesBlock(baseUrl, depth),
    ...quickstartLines(),
    ...migrationLines(baseUrl),
    `## ${GUIDES.webhooks}`,
    '',
    ...webhookDeliveryLines(),
    ...EVENT_TYPES.map(eventBlock),
    `## ${GUIDES.errors}`,
    '',
    ...errors,
    '',
    '## Limits',
    '',
    ...limits,
    '',
  ].join('\n');
}
