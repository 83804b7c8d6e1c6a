// Generators of hostile request bodies, derived from a route's zod request schema (as JSON Schema,
// through z.toJSONSchema) and its minimal valid body. Nothing here names a route: a new route or
// field is covered as soon as it is in the table and has a valid body in test/support/valid-bodies.ts.
//
// Two families:
// - `invalidBody`: every body it makes breaks the schema (wrong type, missing required field,
//   unknown field, out of bounds, not an object, not JSON), so the only right answer is a 4xx
//   refusal that writes nothing;
// - `hostileButMaybeValidBody`: schema-valid shapes whose strings are hostile (lone surrogates, NUL,
//   bidi overrides, invalid UTF-8 bytes): any answer but a 5xx or a hang is acceptable.
import fc from 'fast-check';
import { z } from 'zod';
import type { Route } from '../../functions/contracts/routes';

/** The JSON Schema subset zod emits for request bodies. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  $defs?: Record<string, Schema>;
}

/** A request as sent: exact bytes, content type, and a readable account of what was done to it. */
export interface HostileRequest {
  what: string;
  body: Uint8Array;
  contentType: string;
}

export function requestJsonSchema(route: Route): Schema {
  if (!route.request) throw new Error(`${route.id} has no request schema`);
  const root = z.toJSONSchema(route.request, { io: 'input', unrepresentable: 'any' }) as Schema;
  // A named schema (`.meta({ id })`) comes out as a $ref to its definition: start from the definition.
  return { ...deref(root, root), $defs: root.$defs };
}

/** Follows $ref into the root's $defs. */
function deref(root: Schema, schema: Schema): Schema {
  let node = schema;
  while (node.$ref) {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    const target = root.$defs?.[name];
    if (!target) throw new Error(`unresolved $ref ${node.$ref}`);
    node = target;
  }
  return node;
}

type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

/** The JSON types a schema admits, or null when it admits anything / is too loose to say. */
function admittedTypes(root: Schema, raw: Schema): Set<JsonType> | null {
  const schema = deref(root, raw);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const all = new Set<JsonType>();
    for (const branch of branches) {
      const types = admittedTypes(root, branch);
      if (!types) return null;
      types.forEach((t) => all.add(t));
    }
    return all;
  }
  if (schema.type === undefined) {
    if (schema.enum) return new Set(schema.enum.map(jsonTypeOf));
    if (schema.const !== undefined) return new Set([jsonTypeOf(schema.const)]);
    return null;
  }
  const types = new Set([schema.type].flat() as JsonType[]);
  if (types.has('integer')) types.add('number');
  return types;
}

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** One place in a valid body where a schema says what may go. */
interface Site {
  path: (string | number)[];
  schema: Schema;
  required: boolean;
}

/** Every property (nested objects and array elements included) the schema describes under `path`. */
function sitesOf(root: Schema, raw: Schema, value: unknown, path: (string | number)[], out: Site[], objects: Site[]): void {
  const schema = deref(root, raw);
  if (schema.properties || schema.additionalProperties === false) {
    objects.push({ path, schema, required: true });
    const required = new Set(schema.required ?? []);
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      const childValue = value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
      out.push({ path: [...path, name], schema: deref(root, child), required: required.has(name) });
      if (childValue !== undefined) sitesOf(root, child, childValue, [...path, name], out, objects);
    }
  } else if (schema.items && Array.isArray(value) && value.length > 0) {
    out.push({ path: [...path, 0], schema: deref(root, schema.items), required: true });
    sitesOf(root, schema.items, value[0], [...path, 0], out, objects);
  }
}

function setAt(body: unknown, path: (string | number)[], apply: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(body);
  let node = copy as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = typeof path[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  apply(node, path[path.length - 1]);
  return copy;
}

/**
 * JSON text of `value` where objects may carry keys (`__proto__`) that a JavaScript object literal
 * cannot hold as plain data: each `[key, value]` pair list becomes an object in the text.
 */
class RawObject {
  constructor(readonly entries: [string, unknown][]) {}
}

/** JSON text spliced in as is: nesting thousands deep, which no recursive serialiser survives. */
class RawText {
  constructor(
    readonly text: string,
    readonly jsonType: JsonType,
  ) {}
}

function toJsonText(value: unknown): string {
  if (value instanceof RawText) return value.text;
  if (value instanceof RawObject) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') return toJsonText(new RawObject(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

const encoder = new TextEncoder();
const jsonRequest = (what: string, value: unknown): HostileRequest => ({ what, body: encoder.encode(toJsonText(value)), contentType: 'application/json' });

// ---------- value generators ----------

/** Strings that have broken parsers, renderers and storage before. */
export const HOSTILE_STRINGS = [
  '\ud800', // lone high surrogate
  '\udfff', // lone low surrogate
  'a\u0000b', // NUL
  '\u202e\u0066\u0063\u005f', // right-to-left override
  '\u2066x\u2069', // bidi isolate
  '\ufeff', // byte-order mark
  '\u2028\u2029', // JS line separators
  'e\u0301\u0301\u0301', // stacked combining marks
  '\u{1F4A9}', // astral plane
  '<script>alert(1)</script>',
  "'; DROP TABLE items; --",
  '${7*7}{{7*7}}',
  '%00%ff',
  '../../etc/passwd',
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '\u0000', '\u202e', 'a'), maxLength: 40 }),
);

const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e999', '-0', '0x10', '1_000', ' 1', '', 'null', 'true'];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'hasOwnProperty', 'toString', 'valueOf'];

function nested(depth: number, asArray: boolean): RawText {
  return asArray ? new RawText(`${'['.repeat(depth)}"x"${']'.repeat(depth)}`, 'array') : new RawText(`${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`, 'object');
}

/** Any JSON value, including deep nesting, huge containers and prototype keys. */
const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileString,
  fc.constantFrom(...NAN_LIKE),
  fc.record({ depth: fc.integer({ min: 100, max: 2000 }), asArray: fc.boolean() }).map(({ depth, asArray }) => nested(depth, asArray)),
  fc.integer({ min: 1_000, max: 10_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.integer({ min: 10_000, max: 100_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(...PROTOTYPE_KEYS).map((key) => new RawObject([[key, { polluted: true }]])),
);

/** A value whose JSON type the site does not admit. */
function wrongTypeValue(root: Schema, site: Site): fc.Arbitrary<unknown> | null {
  const types = admittedTypes(root, site.schema);
  if (!types) return null;
  return garbage.filter((value) => {
    const type = value instanceof RawObject ? 'object' : value instanceof RawText ? value.jsonType : jsonTypeOf(value);
    return !types.has(type) && !(type === 'integer' && types.has('number'));
  });
}

/** Values of the right JSON type that break the site's bounds (length, items, range, enum, pattern). */
function outOfBoundsValues(site: Site): fc.Arbitrary<unknown> | null {
  const s = site.schema;
  const options: fc.Arbitrary<unknown>[] = [];
  if (s.maxLength !== undefined) options.push(fc.integer({ min: s.maxLength + 1, max: s.maxLength + 2000 }).map((n) => '\u202e'.repeat(n)));
  if (s.minLength !== undefined && s.minLength > 0) options.push(fc.constant('x'.repeat(s.minLength - 1)));
  if (s.enum) options.push(hostileString.filter((v) => !s.enum!.includes(v)));
  if (s.pattern) {
    const pattern = new RegExp(s.pattern);
    options.push(hostileString.filter((v) => !pattern.test(v)));
  }
  if (s.maxItems !== undefined) options.push(fc.integer({ min: s.maxItems + 1, max: s.maxItems + 200 }).map((n) => Array.from({ length: n }, () => 'x')));
  if (s.minItems !== undefined && s.minItems > 0) options.push(fc.constant([]));
  if (s.maximum !== undefined) options.push(fc.constantFrom(s.maximum + 1, s.maximum * 1000 + 1, 1e308));
  if (s.exclusiveMaximum !== undefined) options.push(fc.constant(s.exclusiveMaximum));
  if (s.minimum !== undefined) options.push(fc.constantFrom(s.minimum - 1, -1e308));
  if (s.exclusiveMinimum !== undefined) options.push(fc.constant(s.exclusiveMinimum));
  if ([s.type].flat().includes('integer') && ![s.type].flat().includes('number')) options.push(fc.constant((s.minimum ?? 0) + 0.5));
  return options.length ? fc.oneof(...options) : null;
}

/** Bytes that are not valid UTF-8, in an order that also breaks JSON wherever they land. */
const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]];

/** Bodies that break the route's schema or are no JSON object at all: each must be refused. */
export function invalidBody(route: Route, valid: Record<string, unknown>): fc.Arbitrary<HostileRequest> {
  const root = requestJsonSchema(route);
  const sites: Site[] = [];
  const objects: Site[] = [];
  sitesOf(root, root, valid, [], sites, objects);
  const strictObjects = objects.filter((o) => o.schema.additionalProperties === false);
  const label = (path: (string | number)[]) => path.join('.') || '(body)';
  const mutations: fc.Arbitrary<HostileRequest>[] = [];

  const wrongTypes = sites.flatMap((site) => {
    const values = wrongTypeValue(root, site);
    return values ? [values.map((value) => jsonRequest(`wrong type at ${label(site.path)}`, setAt(valid, site.path, (p, k) => (p[k] = value))))] : [];
  });
  if (wrongTypes.length) mutations.push(fc.oneof(...wrongTypes));

  const bounds = sites.flatMap((site) => {
    const values = outOfBoundsValues(site);
    return values ? [values.map((value) => jsonRequest(`out of bounds at ${label(site.path)}`, setAt(valid, site.path, (p, k) => (p[k] = value))))] : [];
  });
  if (bounds.length) mutations.push(fc.oneof(...bounds));

  const missing = sites.filter((s) => s.required && typeof s.path[s.path.length - 1] === 'string');
  if (missing.length) {
    mutations.push(fc.constantFrom(...missing).map((site) => jsonRequest(`missing ${label(site.path)}`, setAt(valid, site.path, (p, k) => delete p[k]))));
  }

  if (strictObjects.length) {
    const unknownKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString.filter((k) => k.length > 0));
    mutations.push(
      fc.record({ where: fc.constantFrom(...strictObjects), key: unknownKey, value: garbage }).filter(({ where, key }) => !Object.hasOwn(where.schema.properties ?? {}, key)).map(({ where, key, value }) => {
        // The unknown key goes in as raw JSON text so `__proto__` arrives as an own key, as an attacker sends it.
        const withMarker = setAt(valid, [...where.path, '\u0000marker'], (p, k) => (p[k] = null));
        const text = toJsonText(withMarker).replace(`${JSON.stringify('\u0000marker')}:null`, `${JSON.stringify(key)}:${toJsonText(value)}`);
        return { what: `unknown key ${JSON.stringify(key)} at ${label(where.path)}`, body: encoder.encode(text), contentType: 'application/json' };
      }),
    );
  }

  // Not a JSON object at all.
  mutations.push(
    fc.oneof(
      fc.oneof(fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), fc.constantFrom(...NAN_LIKE.map((v) => [v]))).map((value) => jsonRequest('a JSON body that is not an object', value)),
      fc.integer({ min: 1000, max: 20_000 }).map((depth) => ({ what: `array nested ${depth} deep`, body: encoder.encode('['.repeat(depth) + ']'.repeat(depth)), contentType: 'application/json' })),
      fc.constantFrom('{', '{"a":', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":Infinity}', '{"a":undefined}', '{"a":01}', '\u0000{}', '{"a":"\u0000"', '/* */{}').map((text) => ({
        what: `malformed JSON ${JSON.stringify(text)}`,
        body: encoder.encode(text),
        contentType: 'application/json',
      })),
      fc.record({ bytes: fc.constantFrom(...INVALID_UTF8), atEnd: fc.boolean() }).map(({ bytes, atEnd }) => {
        // Right after `{` or right before the final `}` the bytes are outside every string, so the
        // text is invalid JSON however a server decodes them.
        const text = encoder.encode(JSON.stringify(valid));
        const at = atEnd ? text.length - 1 : 1;
        return {
          what: `invalid UTF-8 bytes ${bytes.map((b) => b.toString(16)).join(' ')} ${atEnd ? 'before the closing brace' : 'after the opening brace'}`,
          body: new Uint8Array([...text.slice(0, at), ...bytes, ...text.slice(at)]),
          contentType: 'application/json',
        };
      }),
    ),
  );

  // The valid body under a content type that is not JSON (when the body is not empty: an empty
  // body on a bodyOptional route has no content to type).
  if (Object.keys(valid).length > 0 || !route.bodyOptional) {
    mutations.push(
      fc
        .constantFrom('text/plain', 'text/html', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/octet-stream', 'application/x-json', 'json', 'application')
        .map((contentType) => ({ what: `content type ${contentType}`, body: encoder.encode(JSON.stringify(valid)), contentType })),
    );
  }
  return fc.oneof(...mutations);
}

/** Schema-valid bodies with hostile strings (or invalid UTF-8) wherever the schema takes free text. */
export function hostileButMaybeValidBody(route: Route, valid: Record<string, unknown>): fc.Arbitrary<HostileRequest> | null {
  const root = requestJsonSchema(route);
  const sites: Site[] = [];
  sitesOf(root, root, valid, [], sites, []);
  const freeText = sites.filter((s) => [s.schema.type].flat().includes('string') && !s.schema.enum && !s.schema.pattern && s.schema.const === undefined);
  if (!freeText.length) return null;
  return fc.record({ site: fc.constantFrom(...freeText), value: hostileString, rawBytes: fc.option(fc.constantFrom(...INVALID_UTF8)) }).map(({ site, value, rawBytes }) => {
    const marker = 'MARKER\u2603';
    const body = setAt(valid, site.path, (p, k) => (p[k] = rawBytes ? marker : value));
    const text = encoder.encode(JSON.stringify(body));
    if (!rawBytes) return { what: `${JSON.stringify(value)} at ${site.path.join('.')}`, body: text, contentType: 'application/json' };
    // Raw invalid UTF-8 inside the string value: only the bytes of the marker are replaced.
    const markerBytes = encoder.encode(marker);
    const at = Buffer.from(text).indexOf(Buffer.from(markerBytes));
    return {
      what: `invalid UTF-8 bytes inside ${site.path.join('.')}`,
      body: new Uint8Array([...text.slice(0, at), 0x61, ...rawBytes, ...text.slice(at + markerBytes.length)]),
      contentType: 'application/json',
    };
  });
}
