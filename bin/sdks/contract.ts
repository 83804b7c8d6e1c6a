// The client libraries' view of the contract: read from openapi.json (never from the TypeScript
// route table, so a library is generated from exactly the document integrators see), reduced to
// what a generator needs: operations in method groups, and named models with plain field types.
// Every language's generator (bin/sdks/languages/<language>.ts) reads this and nothing else.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const OPENAPI_PATH = join(ROOT, 'openapi.json');

/** The method groups every library exposes, in this order (client.items.get, client.ai.categorize, ...). */
export const GROUPS = ['institutions', 'link', 'items', 'accounts', 'transactions', 'products', 'ai', 'webhooks', 'sandbox'] as const;
export type GroupName = (typeof GROUPS)[number];

/** openapi.json tag -> method group. Tags not listed (documents, hosted Link, GraphQL, MCP) have no SDK methods. */
const GROUP_OF_TAG: Record<string, GroupName> = {
  Institutions: 'institutions',
  Link: 'link',
  Items: 'items',
  Accounts: 'accounts',
  Transactions: 'transactions',
  Identity: 'products',
  Income: 'products',
  Liabilities: 'products',
  Recurring: 'products',
  Categories: 'products',
  Assets: 'products',
  Investments: 'products',
  AI: 'ai',
  Webhooks: 'webhooks',
  Sandbox: 'sandbox',
};

/** A field or body type, reduced to what every target language can say. */
export type TypeRef =
  | { kind: 'string'; format?: 'date' | 'date-time'; enum?: string[] }
  | { kind: 'integer' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  /** Any JSON value (a union the generator does not model, or an open value). */
  | { kind: 'any' }
  | { kind: 'array'; items: TypeRef }
  /** A JSON object with arbitrary keys and values of one type. */
  | { kind: 'map'; values: TypeRef }
  | { kind: 'model'; name: string }
  | { kind: 'nullable'; inner: TypeRef };

export interface Field {
  /** The wire name (snake_case), exactly as in JSON. */
  name: string;
  type: TypeRef;
  /** Must be present in JSON (it may still be null when its type is nullable). */
  required: boolean;
  description?: string;
}

export interface Model {
  /** PascalCase, unique: a component schema's name, or `<Parent><Field>` for an inline object. */
  name: string;
  description?: string;
  fields: Field[];
  /** Accepts keys beyond `fields` (response objects that may grow; keep unknown keys when decoding). */
  open: boolean;
}

export interface Operation {
  /** The route id (`transactions.sync`), unique. */
  routeId: string;
  group: GroupName;
  /**
   * The method's name inside its group, as lower-case words (`['sync']`, `['token', 'create']`,
   * `['holdings', 'get']`): each language joins them its own way (syncTransactions? no: `sync`,
   * `tokenCreate` / `token_create` / `TokenCreate`). Unique within the group.
   */
  methodWords: string[];
  httpMethod: 'GET' | 'POST';
  /** The path under the base URL (`/v1/transactions/sync`). */
  path: string;
  summary: string;
  /** The request body model; null for routes without a body. */
  request: string | null;
  /** The body may be omitted entirely (send `{}`). */
  requestOptional: boolean;
  /** The response model. */
  response: string;
  /**
   * Whether a retry after a failure with an unknown outcome (a 5xx, a timeout, a dropped connection)
   * is safe: reads and idempotent writes. 429 is always safe to retry (a refused request did nothing).
   */
  retrySafe: boolean;
  /** Sandbox helpers: test keys only. */
  testKeysOnly: boolean;
}

export interface ErrorCodeInfo {
  code: string;
  type: string;
  status: number;
  message: string;
}

export interface SdkContract {
  /** API version (info.version), sent as FC-Version by the libraries that pin it. */
  apiVersion: string;
  title: string;
  operations: Operation[];
  /** Every model the operations reach, by name, in a stable order (dependencies first). */
  models: Model[];
  errorCodes: ErrorCodeInfo[];
  webhook: { signatureHeader: string; timestampHeader: string; toleranceSeconds: number };
}

/**
 * Writes that are safe to repeat: creating a link token (a new token each time, nothing else
 * changes), registering an endpoint (idempotent per URL), replay (a new delivery, harmless), refresh
 * (coalesced), removal (a second remove answers the same). Exchanging a public token is NOT safe to
 * retry blindly (the token is single-use: a lost answer would burn it) and neither is rotating the
 * secret (a second rotation would push the first new secret out of its grace period sooner).
 */
const RETRY_UNSAFE = new Set(['link.token.exchange', 'webhooks.secret.rotate', 'webhooks.endpoints.delete', 'sandbox.fire_webhook', 'sandbox.item.reset_login', 'sandbox.public_token.create']);

type Json = Record<string, unknown>;

function pascal(words: string): string {
  return words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

/** Method words from the path below the group's own segment: /v1/link/token/create -> [token, create]. */
function methodWordsOf(path: string, group: GroupName, tag: string): string[] {
  const segments = path.replace(/^\/v1\//, '').split('/');
  // The first segment names the group (or the product, in `products`): drop it when it is the group itself.
  const rest = group === 'products' || segments[0] !== group ? segments : segments.slice(1);
  const words = rest.flatMap((s) => s.split(/[_-]/)).filter(Boolean).map((w) => w.toLowerCase());
  if (words.length === 0) throw new Error(`no method name for ${path} (${tag})`);
  return words;
}

class ModelBuilder {
  readonly models = new Map<string, Model>();
  private readonly inProgress = new Set<string>();

  constructor(private readonly schemas: Record<string, Json>) {}

  /** A component schema as a model; returns its name. */
  component(name: string): string {
    if (this.models.has(name) || this.inProgress.has(name)) return name;
    const schema = this.schemas[name];
    if (!schema) throw new Error(`openapi.json has no component schema ${name}`);
    return this.objectModel(name, schema);
  }

  private objectModel(name: string, schema: Json): string {
    if (this.models.has(name) || this.inProgress.has(name)) return name;
    this.inProgress.add(name);
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const fields: Field[] = Object.entries(properties).map(([field, propertySchema]) => ({
      name: field,
      type: this.typeOf(propertySchema, `${name}${pascal(field)}`),
      required: required.has(field),
      ...(typeof propertySchema.description === 'string' ? { description: propertySchema.description } : {}),
    }));
    this.inProgress.delete(name);
    this.models.set(name, {
      name,
      fields,
      open: schema.additionalProperties !== false,
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    });
    return name;
  }

  typeOf(schema: Json, nameIfObject: string): TypeRef {
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop()!;
      const target = this.schemas[name];
      // A named enum (Product, ItemStatus, ...) is a plain string type in every language, not an object model.
      if (target && target.type !== 'object') return this.typeOf(target, name);
      return { kind: 'model', name: this.component(name) };
    }
    const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (variants) {
      const nonNull = variants.filter((v) => v.type !== 'null');
      const nullable = nonNull.length < variants.length;
      // One real variant (plus null) is that type; several are any JSON value the caller inspects.
      const inner: TypeRef = nonNull.length === 1 ? this.typeOf(nonNull[0], nameIfObject) : { kind: 'any' };
      return nullable ? { kind: 'nullable', inner } : inner;
    }
    if (Array.isArray(schema.type)) {
      const types = schema.type as string[];
      const nonNull = types.filter((t) => t !== 'null');
      const inner: TypeRef = nonNull.length === 1 ? this.typeOf({ ...schema, type: nonNull[0] }, nameIfObject) : { kind: 'any' };
      return types.includes('null') ? { kind: 'nullable', inner } : inner;
    }
    if ('const' in schema) return typeof schema.const === 'string' ? { kind: 'string', enum: [schema.const] } : { kind: 'any' };
    switch (schema.type) {
      case 'string': {
        const format = schema.format === 'date' || schema.format === 'date-time' ? schema.format : undefined;
        return { kind: 'string', ...(format ? { format } : {}), ...(Array.isArray(schema.enum) ? { enum: schema.enum as string[] } : {}) };
      }
      case 'integer':
        return { kind: 'integer' };
      case 'number':
        return { kind: 'number' };
      case 'boolean':
        return { kind: 'boolean' };
      case 'array':
        return { kind: 'array', items: schema.items ? this.typeOf(schema.items as Json, `${nameIfObject}Item`) : { kind: 'any' } };
      case 'object': {
        const hasProperties = schema.properties && Object.keys(schema.properties as Json).length > 0;
        if (!hasProperties) {
          const values = schema.additionalProperties;
          return { kind: 'map', values: values && typeof values === 'object' ? this.typeOf(values as Json, `${nameIfObject}Value`) : { kind: 'any' } };
        }
        return { kind: 'model', name: this.objectModel(nameIfObject, schema) };
      }
      default:
        return { kind: 'any' };
    }
  }
}

export function loadContract(path = OPENAPI_PATH): SdkContract {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
  const schemas = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;
  const builder = new ModelBuilder(schemas);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags as string[])[0];
      const group = GROUP_OF_TAG[tag];
      const keyed = Array.isArray(op.security) && op.security.length > 0;
      if (!group || !keyed) continue;
      const routeId = op['x-fc-route-id'] as string;
      const body = (op.requestBody as Json | undefined)?.content as Record<string, { schema: Json }> | undefined;
      const requestRef = body?.['application/json']?.schema.$ref as string | undefined;
      const ok = ((op.responses as Json)['200'] as Json).content as Record<string, { schema: Json }>;
      const responseRef = ok['application/json']?.schema.$ref as string | undefined;
      if (!responseRef) throw new Error(`${routeId}: a JSON route without a named response schema`);
      operations.push({
        routeId,
        group,
        methodWords: methodWordsOf(path, group, tag),
        httpMethod: method.toUpperCase() as 'GET' | 'POST',
        path,
        summary: String(op.summary ?? ''),
        request: requestRef ? builder.component(requestRef.split('/').pop()!) : null,
        requestOptional: (op.requestBody as Json | undefined)?.required === false,
        response: builder.component(responseRef.split('/').pop()!),
        retrySafe: !RETRY_UNSAFE.has(routeId),
        testKeysOnly: String(op.description ?? '').includes('test_key_required'),
      });
    }
  }
  for (const group of GROUPS) {
    const names = operations.filter((o) => o.group === group).map((o) => o.methodWords.join('_'));
    const repeated = names.filter((n, i) => names.indexOf(n) !== i);
    if (repeated.length) throw new Error(`group ${group} has two methods named ${repeated.join(', ')}`);
  }
  const info = doc.info as Json;
  return {
    apiVersion: String(info.version),
    title: String(info.title),
    operations,
    models: orderModels([...builder.models.values()]),
    errorCodes: errorCodesOf(String(info.description ?? '')),
    webhook: { signatureHeader: 'FC-Signature', timestampHeader: 'FC-Timestamp', toleranceSeconds: 300 },
  };
}

/** Dependencies first (a model after every model its fields name), then by name: stable output for every language. */
function orderModels(models: Model[]): Model[] {
  const byName = new Map(models.map((m) => [m.name, m]));
  const out: Model[] = [];
  const seen = new Set<string>();
  const refs = (t: TypeRef): string[] =>
    t.kind === 'model' ? [t.name] : t.kind === 'array' ? refs(t.items) : t.kind === 'map' ? refs(t.values) : t.kind === 'nullable' ? refs(t.inner) : [];
  const visit = (model: Model) => {
    if (seen.has(model.name)) return;
    seen.add(model.name);
    for (const field of model.fields) for (const name of refs(field.type)) visit(byName.get(name)!);
    out.push(model);
  };
  for (const model of [...models].sort((a, b) => a.name.localeCompare(b.name))) visit(model);
  return out;
}

/** The error table of the API description (`| type | code | status | meaning |`). */
function errorCodesOf(description: string): ErrorCodeInfo[] {
  const rows: ErrorCodeInfo[] = [];
  for (const line of description.split('\n')) {
    const match = /^\| `([a-z_]+)` \| `([a-z0-9_]+)` \| (\d{3}) \| (.*) \|$/.exec(line);
    if (match) rows.push({ type: match[1], code: match[2], status: Number(match[3]), message: match[4] });
  }
  if (rows.length === 0) throw new Error('openapi.json info.description has no error table');
  return rows;
}
