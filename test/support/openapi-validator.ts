// Validates real responses against the committed openapi.json (JSON Schema 2020-12 via ajv).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Json } from './json';
import type { CallResult } from './stack';

const spec = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'openapi.json');

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function resolveRef(node: Json): Json {
  while (node && node.$ref) {
    const path = node.$ref.replace(/^#\//, '').split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = path.reduce((acc: Json, key: string) => acc?.[key], spec);
  }
  return node;
}

/** Throws with a readable message when the response is not what openapi.json promises. */
export function assertMatchesOpenApi(method: string, path: string, res: CallResult): void {
  const canonical = path.split('?')[0].replace(/^\/api\/v1\//, '/v1/');
  const operation = spec.paths?.[canonical]?.[method.toLowerCase()];
  if (!operation) {
    // Unrouted requests (unknown path, wrong method) answer a documented error response.
    if (res.status !== 404 && res.status !== 405) throw new Error(`openapi.json has no ${method} ${canonical}`);
    return assertDocumentedError(res);
  }
  const response = resolveRef(operation.responses?.[String(res.status)]);
  if (!response) throw new Error(`openapi.json declares no ${res.status} for ${method} ${canonical}: ${res.text.slice(0, 300)}`);
  for (const name of Object.keys(response.headers ?? {})) {
    if (name === 'Retry-After' && res.status !== 429) continue;
    if (res.headers.get(name) === null) throw new Error(`${method} ${canonical} ${res.status}: missing header ${name}`);
  }
  // The declared media type the answer was sent in (a page's 400 may be HTML or the JSON envelope).
  const declared = Object.keys(response.content ?? {});
  const sent = res.headers.get('content-type') ?? '';
  const mediaType = declared.find((type) => sent.startsWith(type));
  if (declared.length > 0 && mediaType === undefined) {
    throw new Error(`${method} ${canonical} ${res.status}: content-type ${sent} is none of ${declared.join(', ')}`);
  }
  if (mediaType === 'application/json') {
    const ref = `openapi.json#/${pointer('paths', canonical, method.toLowerCase(), 'responses', String(res.status))}`;
    const schemaRef = operation.responses[String(res.status)].$ref
      ? `openapi.json#/${pointer(...operation.responses[String(res.status)].$ref.replace(/^#\//, '').split('/'), 'content', 'application/json', 'schema')}`
      : `${ref}/content/application~1json/schema`;
    const validate = ajv.getSchema(schemaRef) ?? ajv.compile({ $ref: schemaRef });
    if (!validate(res.json)) {
      throw new Error(`${method} ${canonical} ${res.status} does not match openapi.json: ${ajv.errorsText(validate.errors)}\n${res.text.slice(0, 500)}`);
    }
  }
}

/** Checks an error response against components.responses.Error<status>. */
export function assertDocumentedError(res: CallResult): void {
  const ref = `openapi.json#/components/responses/Error${res.status}/content/application~1json/schema`;
  if (!spec.components.responses[`Error${res.status}`]) throw new Error(`openapi.json documents no Error${res.status}`);
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(res.json)) throw new Error(`error response does not match Error${res.status}: ${ajv.errorsText(validate.errors)}\n${res.text}`);
}
