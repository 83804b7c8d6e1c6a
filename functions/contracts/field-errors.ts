// A request body's schema violations in words an integrator can act on: each sentence names the
// field (a dotted path with indexes, `options.count`, `account_ids[2]`) and says what it accepts
// (the type, the values, the bounds, the format by name or by the schema's own description, never
// a regular expression), and an unknown field names the closest field the request does have.
//
// Pure: the zod issues and the schema that raised them in, the error code and message out. The
// middleware (functions/platform/middleware.ts schemaError) turns the result into the ApiError.
import * as z from 'zod';
import type { ErrorCode } from './errors';
import { tokenFieldSentence } from './token-kinds';

/** The zod issues one parse reports, as `safeParse(...).error.issues` has them. */
type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/** The most issues one message describes: enough to fix a body in one go, short enough to read. */
const MAX_ISSUES_DESCRIBED = 3;
/** The most allowed values or field names a message lists. */
const MAX_LISTED = 12;
/** Longer names or values are never compared for a suggestion. */
const MAX_COMPARED_LENGTH = 100;

/** `options.count`, `account_ids[2]`, `user.client_user_id`; the body itself when the path is empty. */
export function fieldPath(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

const quoted = (path: readonly PathKey[]) => (path.length === 0 ? 'The request body' : `\`${fieldPath(path)}\``);

function valueAt(body: unknown, path: readonly PathKey[]): unknown {
  let node = body;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined;
  return node;
}

// ---------- the schema at a path (for its description, integer-ness, bounds and fields) ----------

/**
 * A schema's wrappers (optional, nullable, default, pipe, lazy, readonly, catch) taken off, with any
 * description met on the way, and whether one of them accepts null (a missing field then says so).
 */
function unwrap(schema: z.ZodType): { schema: z.ZodType; description?: string; nullable?: boolean } {
  let description = schema.description;
  let current = schema;
  let nullable = false;
  for (let depth = 0; depth < 20; depth++) {
    let inner: z.ZodType | undefined;
    if (current instanceof z.ZodNullable) nullable = true;
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault || current instanceof z.ZodReadonly || current instanceof z.ZodCatch) {
      inner = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodPipe) inner = current.in as z.ZodType;
    else if (current instanceof z.ZodLazy) inner = current.unwrap() as z.ZodType;
    if (!inner) break;
    current = inner;
    description ??= current.description;
  }
  return { schema: current, description, ...(nullable ? { nullable } : {}) };
}

/** The schema a path leads to in `root`, where it can be followed (a union: the first option that has the key). */
export function schemaAt(root: z.ZodType, path: readonly PathKey[]): { schema: z.ZodType; description?: string; nullable?: boolean } | undefined {
  let node = unwrap(root);
  for (const key of path) {
    const next = childOf(node.schema, key);
    if (!next) return undefined;
    node = unwrap(next);
  }
  return node;
}

function childOf(schema: z.ZodType, key: PathKey): z.ZodType | undefined {
  if (schema instanceof z.ZodObject) return Object.hasOwn(schema.shape, key) ? (schema.shape as Record<PropertyKey, z.ZodType>)[key] : undefined;
  if (schema instanceof z.ZodArray) return typeof key === 'number' ? (schema.element as z.ZodType) : undefined;
  if (schema instanceof z.ZodRecord) return schema.valueType as z.ZodType;
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as readonly z.ZodType[]) {
      const child = childOf(unwrap(option).schema, key);
      if (child) return child;
    }
  }
  return undefined;
}

/** The field names an object schema at `path` accepts (empty where it is not an object). */
function fieldsAt(root: z.ZodType, path: readonly PathKey[]): string[] {
  const at = schemaAt(root, path)?.schema;
  if (at instanceof z.ZodObject) return Object.keys(at.shape);
  if (at instanceof z.ZodUnion) return [...new Set((at.options as readonly z.ZodType[]).flatMap((o) => fieldsAt(o, [])))];
  return [];
}

// ---------- words ----------

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
  date: 'a date',
  literal: 'a fixed value',
};

/** What a value is, as a message says what was sent instead. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(value) ? String(value) : 'a number';
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, MAX_LISTED).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return values.length > MAX_LISTED ? `${shown.join(', ')}, ... (${values.length} in all)` : shown.join(', ');
}

/** Edit distance of two short strings, a swap of two neighbouring letters counting as one edit (the commonest typo). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidate closest to `given` when it is close enough to be a slip (case, a letter or two, `_` for `-`). */
export function closestName(given: string, candidates: readonly string[]): string | undefined {
  // No name is this long: a slip it is not, and the comparison's cost grows with it.
  if (given.length > MAX_COMPARED_LENGTH) return undefined;
  const normalise = (s: string) => s.toLowerCase().replace(/[-\s]/g, '_');
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const d = editDistance(normalise(given), normalise(name));
    if (!best || d < best.distance) best = { name, distance: d };
  }
  return best && best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** A zod default message (rather than one a schema wrote): it is about zod's internals, so it is never shown. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)\b/;

/** "expected a date as YYYY-MM-DD" -> "must be a date as YYYY-MM-DD"; any other custom message as it is. */
function fromSchemaMessage(path: readonly PathKey[], message: string): string {
  const expected = /^expected (.*)$/i.exec(message.trim());
  if (expected) return `${quoted(path)} must be ${expected[1].replace(/\.$/, '')}.`;
  const trimmed = message.trim().replace(/\.$/, '');
  const last = path.at(-1);
  if (typeof last === 'string') {
    // "products must not repeat": the field it starts with becomes its full path.
    if (trimmed.startsWith(`${last} `)) return `${quoted(path)}${trimmed.slice(last.length)}.`;
    // "send access_token or a non-empty transactions array" names its field already.
    if (new RegExp(`(^|[^a-z0-9_])${last}($|[^a-z0-9_])`).test(trimmed)) return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
  }
  return `${quoted(path)}: ${trimmed}.`;
}

const FORMAT_WORDS: Readonly<Record<string, string>> = {
  email: 'an e-mail address',
  url: 'an absolute URL such as https://example.com/webhook',
  datetime: 'an ISO 8601 date and time such as 2026-07-01T12:00:00Z',
  date: 'a date as YYYY-MM-DD',
  time: 'a time as HH:MM:SS',
  uuid: 'a UUID',
  base64: 'base64 text',
  base64url: 'base64url text',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

function formatSentence(issue: Extract<Issue, { code: 'invalid_format' }>, description: string | undefined): string {
  const field = quoted(issue.path);
  // A schema that says what it accepts (a URL field's schemes and hosts) is more exact than the format's name.
  if (!ZOD_DEFAULT_MESSAGE.test(issue.message) && issue.format in FORMAT_WORDS) return fromSchemaMessage(issue.path, issue.message);
  if (issue.format === 'regex' || !(issue.format in FORMAT_WORDS)) {
    if (!ZOD_DEFAULT_MESSAGE.test(issue.message)) return fromSchemaMessage(issue.path, issue.message);
    if (description) return `${field} must be in this format: ${description.replace(/\.$/, '')}.`;
  }
  const withBounds = issue as { prefix?: string; suffix?: string; includes?: string };
  if (issue.format === 'starts_with' && withBounds.prefix !== undefined) return `${field} must start with "${withBounds.prefix}".`;
  if (issue.format === 'ends_with' && withBounds.suffix !== undefined) return `${field} must end with "${withBounds.suffix}".`;
  if (issue.format === 'includes' && withBounds.includes !== undefined) return `${field} must contain "${withBounds.includes}".`;
  const words = FORMAT_WORDS[issue.format];
  return words ? `${field} must be ${words}.` : `${field} is not in the format this field accepts (${issue.format}).`;
}

/** The option of a union (or the schema itself) of the given kind, for its bounds and integer-ness. */
function ofKind<T extends z.ZodType>(schema: z.ZodType | undefined, kind: abstract new (...args: never[]) => T): T | undefined {
  if (schema instanceof kind) return schema;
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as readonly z.ZodType[]) {
      const inner = unwrap(option).schema;
      if (inner instanceof kind) return inner;
    }
  }
  return undefined;
}

/** "between 1 and 500", "at least 1", "at most 500", from the schema's own bounds where it has both. */
function boundsSentence(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, at: z.ZodType | undefined): string {
  const field = quoted(issue.path);
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  const exact = (issue as { exact?: boolean }).exact === true;
  const unit = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  switch (issue.origin) {
    case 'string': {
      const schema = ofKind(at, z.ZodString);
      const both = schema && schema.minLength !== null && schema.maxLength !== null ? [schema.minLength, schema.maxLength] : null;
      if (exact) return `${field} must be exactly ${unit(bound, 'character', 'characters')} long.`;
      if (both && both[0] > 0 && both[0] !== both[1]) return `${field} must be ${both[0]} to ${unit(both[1], 'character', 'characters')} long.`;
      if (small && bound === 1) return `${field} must not be empty.`;
      return `${field} must be at ${small ? 'least' : 'most'} ${unit(bound, 'character', 'characters')} long.`;
    }
    case 'array':
    case 'set': {
      if (exact) return `${field} must have exactly ${unit(bound, 'item', 'items')}.`;
      if (small && bound === 1) return `${field} must have at least one item.`;
      return `${field} must have at ${small ? 'least' : 'most'} ${unit(bound, 'item', 'items')}.`;
    }
    case 'number':
    case 'int':
    case 'bigint': {
      const schema = ofKind(at, z.ZodNumber);
      const kind = schema?.isInt ? 'an integer' : 'a number';
      const lo = schema ? schema.minValue : null;
      const hi = schema ? schema.maxValue : null;
      const finite = (n: number | null): n is number => n !== null && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;
      if (issue.inclusive && finite(lo) && finite(hi)) return `${field} must be ${kind} from ${lo} to ${hi}.`;
      if (!issue.inclusive) return `${field} must be ${kind} ${small ? 'greater' : 'less'} than ${bound}.`;
      return `${field} must be ${kind} of at ${small ? 'least' : 'most'} ${bound}.`;
    }
    default:
      return `${field} must be at ${small ? 'least' : 'most'} ${bound}.`;
  }
}

/** What a union's branch expects, for "must be X or Y"; undefined when the branch cannot say in a few words. */
function branchExpectation(branch: readonly Issue[], option: z.ZodType | undefined): string | undefined {
  const own = branch.filter((i) => i.path.length === 0);
  const first = own[0];
  if (!first) return undefined;
  if (first.code === 'invalid_type') return option instanceof z.ZodNumber && option.isInt ? 'an integer' : (TYPE_WORDS[first.expected] ?? first.expected);
  if (first.code === 'invalid_value') return first.values.length === 1 ? JSON.stringify(first.values[0]) : `one of ${listOf(first.values)}`;
  if (first.code === 'too_small' || first.code === 'too_big') return `${first.origin === 'string' ? 'a string' : 'a number'} within its bounds`;
  return undefined;
}

interface Described {
  code: ErrorCode;
  sentence: string;
}

function describeIssue(issue: Issue, body: unknown, root: z.ZodType | undefined): Described {
  const value = valueAt(body, issue.path);
  const field = quoted(issue.path);
  const at = root ? schemaAt(root, issue.path) : undefined;
  if (issue.code === 'unrecognized_keys') {
    const known = root ? fieldsAt(root, issue.path) : [];
    const where = issue.path.length === 0 ? 'this request' : `\`${fieldPath(issue.path)}\``;
    const sentences = issue.keys.map((key) => {
      // The caller chose the name: echoed, but never at any length.
      const name = fieldPath([...issue.path, key.length > MAX_COMPARED_LENGTH ? `${key.slice(0, MAX_COMPARED_LENGTH)}...` : key]);
      const suggestion = closestName(key, known);
      if (suggestion) return `\`${name}\` is not a field of ${where}; did you mean \`${fieldPath([...issue.path, suggestion])}\`?`;
      return `\`${name}\` is not a field of ${where}.`;
    });
    const closing = issue.keys.some((key) => closestName(key, known)) || known.length === 0 || known.length > MAX_LISTED ? '' : ` Its fields are: ${known.join(', ')}.`;
    return { code: 'unknown_field', sentence: sentences.join(' ') + closing };
  }
  // A token of another kind in a token field (a public token as access_token): say which kind it is.
  const last = issue.path.at(-1);
  const tokenSentence = typeof last === 'string' && typeof value === 'string' && (issue.code === 'invalid_format' || issue.code === 'custom') ? tokenFieldSentence(last, value) : undefined;
  if (issue.code === 'custom') {
    const code = typeof issue.params?.code === 'string' ? (issue.params.code as ErrorCode) : 'invalid_field';
    return { code, sentence: tokenSentence ?? fromSchemaMessage(issue.path, issue.message) };
  }
  if (tokenSentence) return { code: 'invalid_field', sentence: tokenSentence };
  if (value === undefined) {
    const expectation =
      issue.code === 'invalid_type'
        ? (TYPE_WORDS[issue.expected] ?? issue.expected)
        : issue.code === 'invalid_value'
          ? `one of: ${listOf(issue.values)}`
          : issue.code === 'invalid_union' && 'options' in issue && Array.isArray(issue.options)
            ? `one of: ${listOf(issue.options)}`
            : undefined;
    const integer = at?.schema instanceof z.ZodNumber && at.schema.isInt;
    const typed = integer && expectation === 'a number' ? 'an integer' : expectation;
    // A field that takes null too (`webhook: null` clears it) says so: null is an answer, not a mistake.
    const words = typed && at?.nullable && issue.code === 'invalid_type' && issue.expected !== 'null' ? `${typed} or null` : typed;
    return { code: 'missing_field', sentence: `${field} is required${words ? `: send ${words}` : ''}.` };
  }
  switch (issue.code) {
    case 'invalid_type': {
      const integer = issue.expected === 'int' || (issue.expected === 'number' && ofKind(at?.schema, z.ZodNumber)?.isInt === true);
      const expected = integer ? 'an integer' : (TYPE_WORDS[issue.expected] ?? issue.expected);
      return { code: 'invalid_field', sentence: `${field} must be ${expected}, not ${describeValue(value)}.` };
    }
    case 'invalid_value': {
      if (issue.values.length === 1) return { code: 'invalid_field', sentence: `${field} must be ${JSON.stringify(issue.values[0])}.` };
      const suggestion = typeof value === 'string' ? closestName(value, issue.values.filter((v): v is string => typeof v === 'string')) : undefined;
      return { code: 'invalid_field', sentence: `${field} must be one of: ${listOf(issue.values)}.${suggestion ? ` Did you mean ${suggestion}?` : ''}` };
    }
    case 'too_small':
    case 'too_big':
      return { code: 'invalid_field', sentence: boundsSentence(issue, at?.schema) };
    case 'invalid_format':
      return { code: 'invalid_field', sentence: formatSentence(issue, at?.description) };
    case 'not_multiple_of':
      return { code: 'invalid_field', sentence: `${field} must be a multiple of ${String(issue.divisor)}.` };
    case 'invalid_union': {
      if ('options' in issue && Array.isArray(issue.options)) return { code: 'invalid_field', sentence: `${field} must be one of: ${listOf(issue.options)}.` };
      const options = at?.schema instanceof z.ZodUnion ? (at.schema.options as readonly z.ZodType[]).map((o) => unwrap(o).schema) : [];
      const alternatives = [...new Set(issue.errors.map((branch, i) => branchExpectation(branch, options[i])))];
      if (alternatives.length > 0 && alternatives.every((a) => a !== undefined)) {
        return { code: 'invalid_field', sentence: `${field} must be ${alternatives.join(' or ')}, not ${describeValue(value)}.` };
      }
      return { code: 'invalid_field', sentence: `${field} does not match any of the forms this field accepts.` };
    }
    case 'invalid_key':
      return { code: 'invalid_field', sentence: `${field} has a key this field does not accept.` };
    case 'invalid_element':
      return { code: 'invalid_field', sentence: `${field} has an element this field does not accept.` };
    default:
      return { code: 'invalid_field', sentence: `${field} is not a value this field accepts.` };
  }
}

/**
 * The error code and message for a body's schema violations: the first issue decides the code
 * (missing_field, invalid_field, unknown_field, or a refinement's own `params.code`); the message
 * describes the first issue of up to three fields, one sentence each.
 */
export function describeSchemaIssues(issues: readonly Issue[], body: unknown, schema?: z.ZodType): { code: ErrorCode; message: string } {
  // One sentence per field: a date that fails its pattern fails its calendar check too, and says so once.
  const seen = new Set<string>();
  const firstPerField = issues.filter((issue) => {
    const key = JSON.stringify(issue.path.map(String));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const described = firstPerField.slice(0, MAX_ISSUES_DESCRIBED).map((issue) => describeIssue(issue, body, schema));
  const more = firstPerField.length - described.length;
  const tail = more === 0 ? '' : more === 1 ? ' There is 1 more problem.' : ` There are ${more} more problems.`;
  return { code: described[0].code, message: described.map((d) => d.sentence).join(' ') + tail };
}
