// The Postman collection and the `.http` file: one request per SDK operation, generated from the same
// contract as the libraries (bin/sdks/contract.ts for the operations, openapi.json for the request
// schemas the example bodies are built from). Both use the same variables ({{base_url}}, {{api_key}},
// {{access_token}}, ...), so a request copied from one works in the other.
import { readFileSync } from 'node:fs';
import { OPENAPI_PATH, GROUPS, type Operation, type SdkContract } from './contract';

type Json = Record<string, unknown>;

/** Variables the requests use, with the value each starts with. */
export const COLLECTION_VARIABLES: Record<string, string> = {
  base_url: 'http://localhost:4010',
  api_key: 'fc_sk_test_replace_with_your_key',
  public_token: 'replace-with-a-public-token',
  access_token: 'fc_at_replace0with0your0token',
  endpoint_id: 'replace-with-an-endpoint-id',
  event_id: 'replace-with-an-event-id',
};

/**
 * Fields whose value comes from an earlier call (a variable) or must be a particular sandbox value.
 * Everything else is derived from the schema (example, enum, format, bounds).
 */
const FIELD_VALUES: Record<string, unknown> = {
  access_token: '{{access_token}}',
  public_token: '{{public_token}}',
  endpoint_id: '{{endpoint_id}}',
  event_id: '{{event_id}}',
  institution_id: 'ins_sandbox_first_bank',
  client_user_id: 'user-1234',
  products: ['transactions'],
  url: 'https://example.com/webhooks/fincore',
  query: 'first',
  description: 'SQ *BLUE BOTTLE COFFEE',
};

/** After these calls, the collection keeps what the answer returned for the calls that follow. */
const CAPTURES: Record<string, Record<string, string>> = {
  'sandbox.public_token.create': { public_token: 'public_token' },
  'link.token.exchange': { access_token: 'access_token' },
  'webhooks.endpoints.create': { endpoint_id: 'endpoint.endpoint_id' },
  'sandbox.fire_webhook': { event_id: 'event_id' },
};

function loadSchemas(): Record<string, Json> {
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
  return ((doc.components as Json).schemas ?? {}) as Record<string, Json>;
}

/** A value valid for the schema: its example, else the first enum value, else a value within its bounds. */
function exampleOf(schema: Json, schemas: Record<string, Json>, fieldName?: string): unknown {
  if (typeof schema.$ref === 'string') return exampleOf(schemas[schema.$ref.split('/').pop()!], schemas, fieldName);
  if (fieldName !== undefined && fieldName in FIELD_VALUES) return FIELD_VALUES[fieldName];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants) return exampleOf(variants.find((v) => v.type !== 'null') ?? variants[0], schemas, fieldName);
  switch (schema.type) {
    case 'object':
      return exampleObject(schema, schemas);
    case 'array':
      return Number(schema.minItems ?? 0) > 0 && schema.items ? [exampleOf(schema.items as Json, schemas)] : [];
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number' && schema.minimum > 0) return schema.minimum;
      return typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
    }
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date') return '2026-07-01';
      if (schema.format === 'date-time') return '2026-07-01T12:00:00Z';
      return 'example';
    default:
      return null;
  }
}

/**
 * The required fields. A body whose fields are all optional but which names an item (the AI
 * endpoints take an access token or rows) gets the access token: `{}` would be refused.
 */
function exampleObject(schema: Json, schemas: Record<string, Json>): Json {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  if (required.size === 0 && 'access_token' in properties) required.add('access_token');
  const out: Json = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (required.has(name)) out[name] = exampleOf(propertySchema, schemas, name);
  }
  return out;
}

export interface ExampleRequest {
  operation: Operation;
  /** The JSON body text; null for bodyless GETs. */
  body: string | null;
}

/**
 * The order a person runs the collection in, top to bottom: each call after the ones whose answers it
 * needs (the exchange after the sandbox token, replay after an event was fired) and the calls that
 * end the item last. Operations not named here go to "Read the item", in method-group order.
 */
const JOURNEY: ReadonlyArray<{ name: string; routes: readonly string[] }> = [
  { name: 'Connect a sandbox item', routes: ['sandbox.public_token.create', 'link.token.exchange', 'link.token.create', 'institutions.search', 'institutions.get_by_id'] },
  { name: 'Read the item', routes: [] },
  {
    name: 'Webhooks',
    routes: ['webhooks.endpoints.create', 'webhooks.endpoints.list', 'webhooks.secret.rotate', 'sandbox.fire_webhook', 'webhooks.deliveries.list', 'webhooks.events.replay', 'webhooks.endpoints.delete'],
  },
  { name: 'Finish: reset the login, remove the item', routes: ['sandbox.item.reset_login', 'items.remove'] },
];
const READ_STEP = 'Read the item';

export interface JourneyStep {
  name: string;
  requests: ExampleRequest[];
}

export function exampleRequests(contract: SdkContract): ExampleRequest[] {
  return journeySteps(contract).flatMap((step) => step.requests);
}

export function journeySteps(contract: SdkContract): JourneyStep[] {
  const schemas = loadSchemas();
  const example = (operation: Operation): ExampleRequest => ({
    operation,
    body: operation.request === null ? null : JSON.stringify(exampleOf(schemas[operation.request], schemas), null, 2),
  });
  const named = new Set(JOURNEY.flatMap((step) => step.routes));
  const byRoute = new Map(contract.operations.map((o) => [o.routeId, o]));
  return JOURNEY.map((step) => ({
    name: step.name,
    requests:
      step.name === READ_STEP
        ? GROUPS.flatMap((group) => contract.operations.filter((o) => o.group === group && !named.has(o.routeId))).map(example)
        : step.routes.flatMap((routeId) => (byRoute.has(routeId) ? [example(byRoute.get(routeId)!)] : [])),
  }));
}

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

function captureScript(routeId: string): Json[] {
  const captures = CAPTURES[routeId];
  if (!captures) return [];
  const lines = [
    'const body = pm.response.json();',
    ...Object.entries(captures).map(([variable, path]) => `if (pm.response.code === 200) pm.collectionVariables.set('${variable}', body.${path});`),
  ];
  return [{ listen: 'test', script: { type: 'text/javascript', exec: lines } }];
}

function notes(operation: Operation): string {
  const facts = [
    operation.testKeysOnly ? 'Test keys only.' : '',
    operation.retrySafe ? 'Safe to retry after a 5xx or timeout.' : 'Not safe to retry blindly after a 5xx or timeout.',
  ].filter(Boolean);
  return `${operation.summary}\n\n${facts.join(' ')}`;
}

export function renderPostman(contract: SdkContract): string {
  const collection = {
    info: {
      name: contract.title,
      description: `Every operation of the ${contract.title} (version ${contract.apiVersion}), generated from openapi.json by bin/sdks/generate.ts. Set base_url and api_key; the sandbox token, exchange, endpoint and fire_webhook calls store public_token, access_token, endpoint_id and event_id for the calls after them.`,
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{api_key}}', type: 'string' }] },
    variable: Object.entries(COLLECTION_VARIABLES).map(([key, value]) => ({ key, value, type: 'string' })),
    item: journeySteps(contract).map((step) => ({
      name: step.name,
      item: step.requests.map(({ operation, body }) => ({
          name: operation.summary || operation.routeId,
          ...(captureScript(operation.routeId).length ? { event: captureScript(operation.routeId) } : {}),
          request: {
            method: operation.httpMethod,
            header: body === null ? [] : [{ key: 'Content-Type', value: 'application/json' }],
            url: {
              raw: `{{base_url}}${operation.path}`,
              host: ['{{base_url}}'],
              path: operation.path.split('/').filter(Boolean),
            },
            ...(body === null ? {} : { body: { mode: 'raw', raw: body, options: { raw: { language: 'json' } } } }),
            description: notes(operation),
          },
        })),
    })),
  };
  return `${JSON.stringify(collection, null, 2)}\n`;
}

export function renderHttpFile(contract: SdkContract): string {
  const header = [
    `# ${contract.title} ${contract.apiVersion}: one request per operation.`,
    '# Generated from openapi.json by bin/sdks/generate.ts (npm run sdks); do not edit.',
    '# Works with the VS Code REST Client and JetBrains HTTP Client. Set the variables below first, and',
    '# copy public_token, access_token, endpoint_id and event_id from the answers as you go (top to bottom).',
    '',
    ...Object.entries(COLLECTION_VARIABLES).map(([key, value]) => `@${key} = ${value}`),
    '',
  ];
  const blocks = exampleRequests(contract).map(({ operation, body }) => {
    const lines = [
      `### ${operation.group}: ${operation.summary || operation.routeId}`,
      `# @name ${operation.routeId.replace(/[^A-Za-z0-9]+/g, '_')}`,
      `# ${operation.testKeysOnly ? 'Test keys only. ' : ''}${operation.retrySafe ? 'Safe to retry.' : 'Not safe to retry blindly.'}`,
      `${operation.httpMethod} {{base_url}}${operation.path}`,
      'Authorization: Bearer {{api_key}}',
    ];
    if (body !== null) lines.push('Content-Type: application/json', '', body);
    return `${lines.join('\n')}\n`;
  });
  return `${header.join('\n')}\n${blocks.join('\n')}`;
}
