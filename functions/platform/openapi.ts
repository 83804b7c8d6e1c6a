// openapi.json, generated from the route table, the error catalogue and the webhook event
// catalogue. `npm run openapi` writes the committed copy; GET /openapi.json serves the same
// document; a test fails when they differ.
import * as z from 'zod';
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
                required: ['type', 'code', 'message', 'request_id'],
                additionalProperties: false,
                properties: {
                  type: { type: 'string', enum: [...new Set(codes.map((c) => ERRORS[c].type))] },
                  code: { type: 'string', enum: codes },
                  message: { type: 'string' },
                  request_id: { type: 'string' },
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
  required: ['type', 'code', 'request_id', 'status'],
  properties: {
    type: { type: 'string', enum: [...new Set(publicErrorCodes().map((c) => ERRORS[c].type))] },
    code: { type: 'string', description: 'One of the error codes listed in the API description.' },
    request_id: { type: 'string' },
    status: { type: 'integer', description: 'The HTTP status the REST API gives the same error.' },
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
