// openapi.json, generated from the route table, the error catalogue and the webhook event
// catalogue. `npm run openapi` writes the committed copy; GET /openapi.json serves the same
// document; a test fails when they differ.
import * as z from 'zod';
import { DOCS_PATH, ERRORS_DOCS_PATH } from '../contracts/docs-links';
import { ERRORS, allErrorStatuses, codesForStatus, publicErrorCodes, statusOf } from '../contracts/errors';
import { DELIVERY_ATTEMPT_HEADER, EVENT_CATALOGUE, EVENT_ENVELOPES, EVENT_ID_HEADER, EVENT_TYPES } from '../contracts/events';
import { LIMITS, PLANS, PLAN_NAMES } from '../contracts/limits';
import { ALIAS_PREFIX, CONTENT_TYPES, ROUTES, aliasPaths, inPublicContract, type Route } from '../contracts/routes';
import { API_VERSION } from '../contracts/schemas';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../core/webhook-signature';
import { GRAPHQL_RESPONSE_MEDIA_TYPE, type OwnProtocol } from './protocols';

type Json = Record<string, unknown>;

/**
 * The routes openapi.json describes: every route but the console's own (Route.console), which only
 * the console's web app calls, and the unlisted (Route.unlisted: the Plaid-compatible API, which is
 * Plaid's contract). The SDKs are generated from this document, so they leave them out too.
 */
const PUBLIC_ROUTES = /* @__PURE__ */ ROUTES.filter(inPublicContract);

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function pascal(id: string): string {
  return id
    .split(/[._-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function camel(id: string): string {
  const p = pascal(id);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

function operationId(route: Route): string {
  return camel(route.id);
}

/** Converts route schemas (plus every schema that carries a meta id) into components. */
function componentSchemas(kind: 'request' | 'response'): { schemas: Record<string, Json>; ids: Map<Route, string> } {
  const registry = z.registry<{ id: string }>();
  const ids = new Map<Route, string>();
  const globalIds = (z.globalRegistry as unknown as { _idmap: Map<string, z.ZodType> })._idmap;
  for (const [id, schema] of globalIds) registry.add(schema, { id });
  for (const route of PUBLIC_ROUTES) {
    const schema = kind === 'request' ? route.request : route.response;
    if (!schema || route.responseKind !== 'json' && kind === 'response') continue;
    const existing = registry.get(schema)?.id;
    const id = existing ?? `${pascal(route.id)}${kind === 'request' ? 'Request' : 'Response'}`;
    if (!existing) registry.add(schema, { id });
    ids.set(route, id);
  }
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: kind === 'request' ? 'input' : 'output',
    unrepresentable: 'any',
    uri: (id: string) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const schemas: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(out.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    schemas[id] = rest;
  }
  return { schemas, ids };
}

/**
 * Requests are converted in zod's input mode and responses in output mode; a shared schema can come
 * out differently (defaults, optionality). Responses keep the plain id; a differing request-side
 * version is renamed `<id>Input` and the request schemas' references follow it.
 */
function mergeSchemas(requests: Record<string, Json>, responses: Record<string, Json>): Record<string, Json> {
  const renames = new Map<string, string>();
  for (const [id, schema] of Object.entries(requests)) {
    if (responses[id] && JSON.stringify(responses[id]) !== JSON.stringify(schema)) renames.set(id, `${id}Input`);
  }
  let requestText = JSON.stringify(requests);
  for (const [from, to] of renames) requestText = requestText.split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`);
  const renamed: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(JSON.parse(requestText) as Record<string, Json>)) renamed[renames.get(id) ?? id] = schema;
  return { ...renamed, ...responses };
}

/** Drops schemas nothing points at (shared schemas that only one mode uses). */
function pruneUnreferenced(doc: Json, schemas: Record<string, Json>): Record<string, Json> {
  const reachable = new Set<string>();
  const pending = [JSON.stringify(doc)];
  while (pending.length) {
    for (const match of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!reachable.has(match[1])) {
        reachable.add(match[1]);
        pending.push(JSON.stringify(schemas[match[1]] ?? {}));
      }
    }
  }
  return Object.fromEntries(Object.entries(schemas).filter(([id]) => reachable.has(id)).sort(([x], [y]) => x.localeCompare(y)));
}

const HEADER_DOCS: Record<string, { description: string; schema: Json }> = {
  'X-Request-Id': { description: 'Unique id of this request; also in error bodies as request_id.', schema: { type: 'string' } },
  'FC-Version': { description: `API version that answered (${API_VERSION}).`, schema: { type: 'string', const: API_VERSION } },
  'X-RateLimit-Limit': { description: "The key's plan rate, requests per second.", schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: "Whole requests left in the key's bucket.", schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the bucket is full again.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying (429 and 503 only).', schema: { type: 'integer' } },
};

function headerRefs(names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid API key',
  403: 'Permission denied (plan, environment or consent)',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  409: 'Another call is working on the same item; retry after Retry-After',
  413: 'Request body too large',
  415: 'Unsupported content type',
  429: 'Rate limit or monthly quota exceeded',
  431: 'Request headers too large',
  500: 'Internal error',
  502: 'Upstream provider error',
  503: 'Storage temporarily unavailable; retry after Retry-After',
};

/** The error statuses some REST route can answer (a component nobody refers to is noise). */
function restErrorStatuses(): Set<number> {
  return new Set(PUBLIC_ROUTES.filter((r) => !r.protocol).flatMap(errorStatusesOf));
}

/** What every error carries to help: where its code is explained, and what an end user may be shown. */
const ERROR_HELP_FIELDS: Json = {
  documentation_url: { type: 'string', format: 'uri', description: "The error code's entry in the error catalogue: `{base_url}/docs/errors#<code>`." },
  display_message: {
    type: ['string', 'null'],
    description: "A sentence safe to show your end user (no field names or jargon); null when the error is the integration's to fix, so show your own wording.",
  },
};

function errorResponses(): Json {
  const out: Json = {};
  const used = restErrorStatuses();
  for (const status of allErrorStatuses().filter((s) => used.has(s))) {
    const codes = codesForStatus(status);
    const retryHeaders = status === 429 ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] : status === 503 || status === 409 ? ['Retry-After'] : [];
    const headers = ['X-Request-Id', 'FC-Version', ...retryHeaders];
    out[`Error${status}`] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}. Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      headers: headerRefs(headers),
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['error'],
            additionalProperties: false,
            properties: {
              error: {
                type: 'object',
                required: ['type', 'code', 'message', 'request_id', 'documentation_url', 'display_message'],
                additionalProperties: false,
                properties: {
                  type: { type: 'string', enum: [...new Set(codes.map((c) => ERRORS[c].type))] },
                  code: { type: 'string', enum: codes },
                  message: { type: 'string' },
                  request_id: { type: 'string' },
                  ...ERROR_HELP_FIELDS,
                },
              },
            },
          },
        },
      },
    };
  }
  return out;
}

function errorStatusesOf(route: Route): number[] {
  // 431: the local server's answer to headers over its limit (API Gateway answers those itself).
  const statuses = new Set<number>([400, 405, 431, 500]);
  if (route.auth === 'key') [401, 403, 404, 429, 502].forEach((s) => statuses.add(s));
  if (route.auth === 'link') [404, 429, 502].forEach((s) => statuses.add(s));
  if (route.request) [413, 415].forEach((s) => statuses.add(s));
  if (route.oneAtATime) statuses.add(409);
  // The Streamable HTTP transport refuses a client that does not accept both JSON and an event stream.
  if (route.protocol === 'mcp') statuses.add(406);
  // Every route that reads or writes the table (a key is checked there too) can find it unavailable.
  if (route.auth !== 'none' || route.dataAccess) statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}


/** Our error fields as a protocol error carries them (functions/platform/protocols.ts errorFields). */
const PROTOCOL_ERROR_FIELDS: Json = {
  type: 'object',
  required: ['type', 'code', 'request_id', 'status', 'documentation_url', 'display_message'],
  properties: {
    type: { type: 'string', enum: [...new Set(publicErrorCodes().map((c) => ERRORS[c].type))] },
    code: { type: 'string', description: 'One of the error codes listed in the API description.' },
    request_id: { type: 'string' },
    status: { type: 'integer', description: 'The HTTP status the REST API gives the same error.' },
    ...ERROR_HELP_FIELDS,
  },
};

/** How a protocol route answers errors: in its own format, with our fields inside. */
const PROTOCOL_ERROR_SCHEMAS: Record<OwnProtocol, { name: string; schema: Json; description: string }> = {
  graphql: {
    name: 'GraphQLErrorResponse',
    description: 'A GraphQL response with `errors` (each with our `type`, `code`, `request_id` and `status` in `extensions`) and no `data`.',
    schema: {
      type: 'object',
      required: ['errors'],
      properties: {
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['message', 'extensions'],
            properties: { message: { type: 'string' }, extensions: PROTOCOL_ERROR_FIELDS },
          },
        },
      },
    },
  },
  mcp: {
    name: 'JsonRpcErrorResponse',
    description:
      'A JSON-RPC 2.0 error: `code` -32700 (not JSON), -32600 (invalid request), -32001 (authentication), -32003 (permission), -32029 (rate limit or quota), -32002 (unavailable), -32603 (internal); our fields in `data`.',
    schema: {
      type: 'object',
      required: ['jsonrpc', 'id', 'error'],
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer', 'null'] },
        error: {
          type: 'object',
          required: ['code', 'message', 'data'],
          properties: { code: { type: 'integer' }, message: { type: 'string' }, data: PROTOCOL_ERROR_FIELDS },
        },
      },
    },
  },
};

/** A described route's protocol: `plaid` is another API's, on an unlisted route this document leaves out. */
function ownProtocolOf(route: Route): OwnProtocol | undefined {
  if (route.protocol === 'plaid') throw new Error(`${route.id} speaks Plaid's API: openapi.json does not describe it`);
  return route.protocol;
}

function protocolErrorResponse(protocol: OwnProtocol, status: number): Json {
  const { name, description } = PROTOCOL_ERROR_SCHEMAS[protocol];
  const codes = codesForStatus(status);
  const mediaTypes = protocol === 'graphql' ? ['application/json', GRAPHQL_RESPONSE_MEDIA_TYPE] : ['application/json'];
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}. ${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: headerRefs(['X-Request-Id', 'FC-Version', ...(status === 429 ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'] : status === 503 ? ['Retry-After'] : [])]),
    content: Object.fromEntries(mediaTypes.map((m) => [m, { schema: ref(name) }])),
    // The codes the error's `code` field may carry at this status, machine-readable.
    'x-fc-error-codes': codes,
  };
}

function meteringNote(route: Route): string | null {
  if (route.metering === 'none') return null;
  if (route.protocol === 'mcp') return 'Metered: one unit per HTTP request, of the monthly AI quota when it calls an `ai_*` tool, else of the API quota.';
  if (route.protocol === 'graphql') return 'Metered: one unit of the monthly API quota per HTTP request, whatever the query asks (its cost is capped instead).';
  return `Metered: one unit of the monthly ${route.metering.toUpperCase()} quota.`;
}

// ---------- curl samples (x-codeSamples, which Redoc shows beside each operation) ----------

/** The shell variables every sample reads, as docs/quickstart.md has the reader export them. */
export const SAMPLE_BASE_URL_VARIABLE = 'FINCORE_BASE_URL';
export const SAMPLE_API_KEY_VARIABLE = 'FINCORE_API_KEY';

/**
 * Sample values by field name, where a value made from the field's type alone would say nothing
 * (or break a pattern): what a reader recognises from the rest of the docs.
 */
const SAMPLE_FIELD_VALUES: Readonly<Record<string, unknown>> = {
  access_token: 'fc_at_yourAccessToken',
  link_token: 'fc_link_yourLinkToken',
  public_token: 'fc_pub_yourPublicToken',
  institution_id: 'ins_sandbox_first_bank',
  client_user_id: 'user-1234',
  client_name: 'My App',
  products: ['transactions'],
  account_ids: ['yourAccountId'],
  query: 'first',
  state: 'yourOauthState',
  // The URL the redirect page was opened at, as the bank sent the user there (Plaid's oauth_state_id).
  received_redirect_uri: 'https://example.com/oauth-return?oauth_state_id=yourOauthState',
  start_date: '2026-01-01',
  end_date: '2026-01-31',
  url: 'https://example.com/webhooks/fincore',
  webhook: 'https://example.com/webhooks/fincore',
  redirect_uri: 'https://example.com/oauth-return',
  username: 'user_good',
  password: 'pass_good',
  code: '1234',
  file_name: 'statement.csv',
  endpoint_id: 'whep_yourEndpointId',
  event_id: 'evt_yourEventId',
  description: 'SQ *BLUE BOTTLE COFFEE',
  amount: 4.5,
};

/**
 * Whole bodies for the routes whose required fields alone do not make a useful or valid request:
 * a choice between fields (the AI routes take an item or raw rows), or a protocol's own message.
 */
const SAMPLE_BODIES: Readonly<Record<string, unknown>> = {
  'institutions.search': { query: 'first', country_codes: ['US'] },
  'ai.categorize': { transactions: [{ id: 't1', description: 'SQ *BLUE BOTTLE COFFEE', amount: 4.5, date: '2026-01-15' }] },
  'ai.subscriptions': { access_token: 'fc_at_yourAccessToken' },
  'ai.cashflow': { access_token: 'fc_at_yourAccessToken', horizon_days: 30 },
  'ai.fraud-risk': { access_token: 'fc_at_yourAccessToken' },
  'sandbox.fire_webhook': { access_token: 'fc_at_yourAccessToken', webhook_type: 'transactions.sync_updates_available' },
  'graphql.query': { query: '{ categories { category label } }' },
  'mcp.call': { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  // An institution connected the way the route does: a sandbox OAuth bank (test keys), a public-address wallet (live keys).
  'link.oauth.start': { link_token: 'fc_link_yourLinkToken', institution_id: 'ins_sandbox_thames_bank' },
  'link.consent': { link_token: 'fc_link_yourLinkToken', institution_id: 'ins_bitcoin_wallet', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
};

/**
 * Routes that take a browser form rather than JSON (the sandbox bank page's Allow / Deny): the
 * urlencoded body of their sample.
 */
const SAMPLE_FORMS: Readonly<Record<string, string>> = {
  'link.sandbox.oauth.decide': 'session=yourSessionKey&state=yourOauthState&decision=allow',
};

type SampleSchema = Json & {
  $ref?: string;
  $defs?: Record<string, SampleSchema>;
  type?: string | string[];
  properties?: Record<string, SampleSchema>;
  required?: string[];
  items?: SampleSchema;
  anyOf?: SampleSchema[];
  oneOf?: SampleSchema[];
  enum?: unknown[];
};

/**
 * A value that satisfies `schema`, from its documented example, default, constant or type;
 * `definitions` resolves the `$ref`s of a schema with ids (`#/$defs/<id>`).
 */
function sampleValue(schema: SampleSchema, name: string | null, definitions: Record<string, SampleSchema>): unknown {
  if (schema.$ref !== undefined) {
    const target = definitions[schema.$ref.replace(/^#\/\$defs\//, '')];
    if (!target) throw new Error(`cannot resolve ${schema.$ref} for a sample`);
    return sampleValue(target, name, definitions);
  }
  if (schema.examples !== undefined && Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (name !== null && name in SAMPLE_FIELD_VALUES) return SAMPLE_FIELD_VALUES[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return sampleValue(variants.find((v) => v.type !== 'null') ?? variants[0]!, name, definitions);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([field]) => required.has(field))
          .map(([field, property]) => [field, sampleValue(property, field, definitions)]),
      );
    }
    case 'array':
      return [sampleValue(schema.items ?? {}, name, definitions)];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date' || schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return '2026-01-31';
      if (schema.format === 'date-time') return '2026-01-31T12:00:00Z';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.pattern === '^[A-Z]{2}$') return 'US';
      if (schema.pattern === '^[A-Z]{3}$') return 'USD';
      return name ?? 'string';
    default:
      return null;
  }
}

/**
 * The JSON body of a route's samples: its entry in SAMPLE_BODIES, or its required fields with sample
 * values. Checked against the route's own schema here, so a sample that no longer matches fails
 * `npm run openapi` (and the unit test) rather than misleading a reader.
 */
export function sampleRequestBody(route: Route): unknown {
  if (!route.request) return undefined;
  let body: unknown;
  if (route.id in SAMPLE_BODIES) body = SAMPLE_BODIES[route.id];
  else {
    const schema = z.toJSONSchema(route.request, { io: 'input', unrepresentable: 'any', reused: 'inline' }) as SampleSchema;
    body = sampleValue(schema, null, schema.$defs ?? {});
  }
  const checked = route.request.safeParse(body);
  if (!checked.success) throw new Error(`the sample body of ${route.id} does not match its request schema: ${checked.error.message}`);
  return body;
}

/** A body up to this long stays on the command's last line; a longer one is indented JSON. */
const SAMPLE_ONE_LINE_MAX = 80;

/** Single-quoted for a POSIX shell: nothing inside is expanded. */
function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** A curl command for the route: its method, URL, key (when it needs one), headers and sample body. */
export function curlSample(route: Route): string {
  const url = `"$${SAMPLE_BASE_URL_VARIABLE}${route.path}"`;
  const lines = [route.method === 'GET' ? `curl ${url}` : `curl -X ${route.method} ${url}`];
  if (route.auth === 'key') lines.push(`-H "Authorization: Bearer $${SAMPLE_API_KEY_VARIABLE}"`);
  // The Streamable HTTP transport refuses a client that does not accept both.
  if (route.protocol === 'mcp') lines.push(`-H 'Accept: application/json, text/event-stream'`);
  const form = SAMPLE_FORMS[route.id];
  if (form !== undefined) {
    lines.push(`-H 'Content-Type: application/x-www-form-urlencoded'`, `-d ${shellQuoted(form)}`);
  }
  const body = sampleRequestBody(route);
  if (body !== undefined) {
    lines.push(`-H 'Content-Type: application/json'`);
    const oneLine = JSON.stringify(body);
    lines.push(`-d ${shellQuoted(oneLine.length <= SAMPLE_ONE_LINE_MAX ? oneLine : JSON.stringify(body, null, 2))}`);
  }
  return lines.join(' \\\n  ');
}

function operation(route: Route, requestIds: Map<Route, string>, responseIds: Map<Route, string>): Json {
  const notes: string[] = [];
  if (route.description) notes.push(route.description);
  if (aliasPaths(route).length > 1) notes.push(`Also served at \`${ALIAS_PREFIX}${route.path}\`.`);
  if (route.item) notes.push('Tied to one item through `access_token`.');
  if (route.auth === 'link') notes.push('Authenticated by the `link_token` in the body (no API key); called by the hosted Link page.');
  if (route.consent) notes.push(`Requires the \`${route.consent}\` product consent (403 \`${route.consent}_not_consented\` otherwise).`);
  const metering = meteringNote(route);
  if (metering) notes.push(metering);
  if (route.testKeysOnly) notes.push('Test keys only (403 `test_key_required` for live keys).');

  const successHeaders = ['X-Request-Id', 'FC-Version', ...(route.auth === 'key' ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] : [])];
  const responseSchema = route.responseKind === 'json' ? ref(responseIds.get(route)!) : { type: 'string' };
  const successTypes = route.protocol === 'graphql' ? ['application/json', GRAPHQL_RESPONSE_MEDIA_TYPE] : [CONTENT_TYPES[route.responseKind].split(';')[0]];
  const responses: Json = {
    200: {
      description: 'Success.',
      headers: headerRefs(successHeaders),
      content: Object.fromEntries(successTypes.map((m) => [m, { schema: responseSchema }])),
    },
  };
  const protocol = ownProtocolOf(route);
  for (const status of errorStatusesOf(route)) {
    responses[status] = protocol ? protocolErrorResponse(protocol, status) : { $ref: `#/components/responses/Error${status}` };
  }
  // A page answers a request it cannot serve (a bad token in its URL, a form missing a field) with a
  // page explaining it, for the person in front of it; what the platform refuses before the page
  // runs is still the JSON envelope.
  if (route.responseKind === 'html' && responses[400]) {
    const envelope = errorResponses().Error400 as Json;
    responses[400] = {
      ...envelope,
      description: `${envelope.description as string} A page answers with an HTML page explaining the problem instead (text/html); what is refused before the page runs is the JSON envelope.`,
      content: { 'text/html': { schema: { type: 'string' } }, ...(envelope.content as Json) },
    };
  }

  const op: Json = {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    description: notes.join('\n\n'),
    security: route.auth === 'key' ? [{ bearerAuth: [] }] : [],
    parameters: [{ $ref: '#/components/parameters/FCVersion' }],
    responses,
    'x-fc-route-id': route.id,
    'x-fc-metering': route.metering,
  };
  if (route.consent) op['x-fc-consent'] = route.consent;
  op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: curlSample(route) }];
  if (route.request) {
    op.requestBody = {
      required: !route.bodyOptional,
      content: { 'application/json': { schema: ref(requestIds.get(route)!) } },
    };
  }
  return op;
}

const WEBHOOKS_TAG = 'Webhook events';

/** The headers of every delivery, as components.parameters (each webhook refers to them). */
const WEBHOOK_PARAMETERS: Record<string, Json> = {
  WebhookSignature: {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description:
      'One or more comma-separated `v1=<hex>` entries: HMAC-SHA256, keyed with the environment\'s signing secret, over `<FC-Timestamp>.<raw body>`. During a secret rotation there is one entry per active secret; the delivery is authentic if any entry matches.',
    schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}(,v1=[0-9a-f]{64})*$' },
  },
  WebhookTimestamp: {
    name: TIMESTAMP_HEADER,
    in: 'header',
    required: true,
    description: `When this attempt was signed, Unix seconds. Reject deliveries more than ${DEFAULT_TOLERANCE_SECONDS} s from your clock.`,
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  WebhookEventId: {
    name: EVENT_ID_HEADER,
    in: 'header',
    required: true,
    description: 'The event id (the body\'s `id`); the same on every attempt and replay.',
    schema: { type: 'string' },
  },
  WebhookDeliveryAttempt: {
    name: DELIVERY_ATTEMPT_HEADER,
    in: 'header',
    required: true,
    description: 'Which attempt of this delivery this is, from 1.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

/**
 * OpenAPI 3.1 `webhooks`: one signed POST per event type, its body the event envelope with that
 * type's payload, so integrators can generate receiver types.
 */
function webhooks(): Json {
  const registry = z.globalRegistry;
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const { summary, description } = EVENT_CATALOGUE[type];
      const schemaId = registry.get(EVENT_ENVELOPES[type])?.id;
      if (!schemaId) throw new Error(`the envelope of ${type} has no schema id`);
      const post = {
        operationId: `${camel(type)}Webhook`,
        tags: [WEBHOOKS_TAG],
        summary,
        description: [
          description,
          'Sent to every webhook endpoint of the application and environment. Verify the signature over the raw body before parsing it (see `functions/core/webhook-signature.ts`).',
        ].join('\n\n'),
        security: [],
        parameters: Object.keys(WEBHOOK_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` })),
        requestBody: { required: true, content: { 'application/json': { schema: ref(schemaId) } } },
        responses: {
          '2XX': { description: 'Received. Answer within a few seconds and do the work asynchronously.' },
          default: {
            description: 'Any other answer, or none in time, fails the attempt: it is retried on the delivery schedule, then dead-lettered.',
          },
        },
      };
      return [type, { post }];
    }),
  );
}

function apiDescription(): string {
  const codes = publicErrorCodes()
    .map((c) => `| \`${ERRORS[c].type}\` | \`${c}\` | ${statusOf(c)} | ${ERRORS[c].message} |`)
    .join('\n');
  const plans = PLAN_NAMES.map((p) => {
    const l = PLANS[p];
    return `| ${p} | ${l.apiPerMonth ?? 'unlimited'} | ${l.aiPerMonth ?? 'unlimited'} | ${l.ratePerSecond} (burst ${l.ratePerSecond * LIMITS.burstMultiplier}) | ${l.liveAccess ? 'yes' : 'sandbox only'} |`;
  }).join('\n');
  return [
    'Connect bank, card, brokerage and crypto logins through hosted Link, then read normalized data with one access token per item.',
    '',
    '**Authentication**: `Authorization: Bearer fc_sk_test_...` (sandbox) or `fc_sk_live_...`. Every `/v1` path is also served under `/api/v1`, and `/mcp` under `/api/mcp`. GraphQL and MCP use the same keys, limits and quotas.',
    '',
    `**Versioning**: every response carries \`FC-Version: ${API_VERSION}\`. A request may send \`FC-Version\`; any other value is a 400 \`unsupported_version\`.`,
    '',
    '**Limits**: a token bucket per key at the plan rate with bursts up to 3x; monthly quotas per key reset on the first of the month (UTC). Every authenticated response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`; a 429 adds `Retry-After`. A refused request consumes nothing.',
    '',
    '| plan | API requests / month | AI requests / month | rate / s | live access |',
    '|---|---|---|---|---|',
    plans,
    '',
    `**Docs**: this reference is browsable at \`${DOCS_PATH}\` with a curl sample per operation (set \`${SAMPLE_BASE_URL_VARIABLE}\` and \`${SAMPLE_API_KEY_VARIABLE}\` in your shell). Every error code is explained in the [error catalogue](${ERRORS_DOCS_PATH.slice(1)}) (\`${ERRORS_DOCS_PATH}#<code>\`); the same reference as plain text is \`/llms-full.txt\`.`,
    '',
    '**Errors**: every non-2xx REST body is `{"error": {"type", "code", "message", "request_id"}}`. The GraphQL gateway (`/v1/graphql`) answers errors in the GraphQL response format and the MCP server (`/mcp`) as JSON-RPC errors, both carrying the same `type`, `code` and `request_id`. All codes:',
    '',
    '| type | code | status | meaning |',
    '|---|---|---|---|',
    codes,
  ].join('\n');
}

export function buildOpenApi(): Json {
  const requests = componentSchemas('request');
  const responses = componentSchemas('response');
  const tags = [...new Set(PUBLIC_ROUTES.map((r) => r.tag))];
  const paths: Record<string, Json> = {};
  for (const route of PUBLIC_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route, requests.ids, responses.ids);
  }
  const schemas = mergeSchemas(requests.schemas, responses.schemas);
  for (const { name, schema } of Object.values(PROTOCOL_ERROR_SCHEMAS)) schemas[name] = schema;
  const hooks = webhooks();
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Fincore financial data API',
      version: API_VERSION,
      description: apiDescription(),
      contact: { name: 'Fincore API support', url: 'https://fincore.invalid/support' },
    },
    servers: [
      {
        url: '{base_url}',
        description: 'Your deployment (local: http://localhost:4010).',
        variables: { base_url: { default: 'http://localhost:4010' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      ...tags.map((name) => ({ name, description: `${name} operations.` })),
      { name: WEBHOOKS_TAG, description: 'Events Fincore POSTs to your webhook endpoints, each signed.' },
    ],
    paths,
    webhooks: hooks,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Secret key: fc_sk_test_... (sandbox) or fc_sk_live_... (live). Stored by us only as a SHA-256 hash.',
        },
      },
      parameters: {
        FCVersion: {
          name: 'FC-Version',
          in: 'header',
          required: false,
          description: `Pin the API version; only ${API_VERSION} is served.`,
          schema: { type: 'string', enum: [API_VERSION] },
        },
        ...WEBHOOK_PARAMETERS,
      },
      headers: HEADER_DOCS,
      responses: errorResponses(),
    },
  };
  (doc.components as Json).schemas = pruneUnreferenced({ paths, webhooks: hooks, responses: (doc.components as Json).responses }, schemas);
  return doc;
}
