// The TypeScript library (sdks/typescript, npm package @fincore/sdk): generated models and method
// groups; the transport, errors, webhook helper, Link loader and React hook are hand-written.
import type { Model, Operation, SdkContract, TypeRef } from '../contract';
import { GROUPS } from '../contract';
import type { SdkLanguage } from '../language';

const HEADER = '// Generated from openapi.json by bin/sdks/generate.ts (npm run sdks). Do not edit.\n';

const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
const pascal = (word: string) => word[0].toUpperCase() + word.slice(1);

/** A doc comment, safe for any text (no comment terminator inside). */
function doc(text: string | undefined, indent = ''): string {
  if (!text) return '';
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function typeOf(type: TypeRef): string {
  switch (type.kind) {
    case 'string':
      return type.enum ? type.enum.map((v) => JSON.stringify(v)).join(' | ') : 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'any':
      return 'unknown';
    case 'array': {
      const items = typeOf(type.items);
      return /[ |]/.test(items) ? `Array<${items}>` : `${items}[]`;
    }
    case 'map':
      return `Record<string, ${typeOf(type.values)}>`;
    case 'model':
      return type.name;
    case 'nullable':
      return `${typeOf(type.inner)} | null`;
  }
}

const propertyName = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

function emitModel(model: Model): string {
  const fields = model.fields.map((field) => `${doc(field.description, '  ')}  ${propertyName(field.name)}${field.required ? '' : '?'}: ${typeOf(field.type)};\n`);
  // Open objects may gain keys in later API versions: they type-check and are kept as received.
  const rest = model.open ? '  [key: string]: unknown;\n' : '';
  return `${doc(model.description)}export interface ${model.name} {\n${fields.join('')}${rest}}\n`;
}

function emitModels(contract: SdkContract): string {
  return `${HEADER}\n${contract.models.map(emitModel).join('\n')}`;
}

function emitMethod(operation: Operation): string {
  const name = camel(operation.methodWords);
  const spec = `{ method: '${operation.httpMethod}', path: '${operation.path}', retrySafe: ${operation.retrySafe} }`;
  const params =
    operation.request === null
      ? 'options?: RequestOptions'
      : `request: ${operation.request}${operation.requestOptional ? ' = {}' : ''}, options?: RequestOptions`;
  const body = operation.request === null ? 'undefined' : 'request';
  const notes = [operation.summary, operation.testKeysOnly ? 'Sandbox only: test keys.' : '', operation.retrySafe ? '' : 'Not retried after a 5xx or a network error (not safe to repeat).']
    .filter(Boolean)
    .join('\n');
  return `${doc(notes, '  ')}  ${name}(${params}): Promise<${operation.response}> {\n    return this.transport.call<${operation.response}>(${spec}, ${body}, options);\n  }\n`;
}

function emitGroups(contract: SdkContract): string {
  const used = new Set<string>();
  for (const op of contract.operations) {
    if (op.request) used.add(op.request);
    used.add(op.response);
  }
  const imports = [...used].sort();
  const classes = GROUPS.map((group) => {
    const methods = contract.operations.filter((o) => o.group === group).map(emitMethod);
    return `/** The ${group} method group (\`client.${group}\`). */\nexport class ${pascal(group)}Api {\n  constructor(private readonly transport: Transport) {}\n\n${methods.join('\n')}}\n`;
  });
  const members = GROUPS.map((g) => `  readonly ${g}: ${pascal(g)}Api;\n`).join('');
  const init = GROUPS.map((g) => `    this.${g} = new ${pascal(g)}Api(transport);\n`).join('');
  return `${HEADER}import type { RequestOptions, Transport } from '../transport.js';
import type {
${imports.map((n) => `  ${n},\n`).join('')}} from './models.js';

/** API version this library was generated from (openapi.json info.version). */
export const API_VERSION = '${contract.apiVersion}';

${classes.join('\n')}
/** Every method group, as the client exposes them. */
export class MethodGroups {
${members}
  constructor(transport: Transport) {
${init}  }
}
`;
}

function emitErrorCodes(contract: SdkContract): string {
  const codes = contract.errorCodes.map((e) => `  ${JSON.stringify(e.code)}: { type: ${JSON.stringify(e.type)}, status: ${e.status} },\n`).join('');
  const types = [...new Set(contract.errorCodes.map((e) => e.type))].map((t) => JSON.stringify(t)).join(' | ');
  return `${HEADER}
/** The error types of the API (FincoreError.type). */
export type ErrorType = ${types};

/** Every documented error code with its type and HTTP status. */
export const ERROR_CODES = {
${codes}} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
`;
}

export const language: SdkLanguage = {
  name: 'typescript',
  aptPackages: [],
  // Node comes with the repository (node_modules/.bin/node); esbuild and tsc are its devDependencies.
  toolchainProbe: ['node', '--version'],
  emit: (contract) => ({
    'src/generated/models.ts': emitModels(contract),
    'src/generated/groups.ts': emitGroups(contract),
    'src/generated/error-codes.ts': emitErrorCodes(contract),
  }),
  test: [
    ['node', 'scripts/build.mjs'],
    ['node', '--test', 'test/*.test.mjs'],
  ],
  smoke: ['node', 'test/smoke.mjs'],
};
