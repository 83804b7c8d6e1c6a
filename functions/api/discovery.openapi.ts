// GET /openapi.json: generated from the route table (the committed openapi.json is the same document).
import { buildOpenApi } from '../platform/openapi';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';

let document: object | undefined;

export const handler = defineOperation(
  'discovery.openapi',
  ({ baseUrl }) => {
    document ??= buildOpenApi();
    return { ...document, servers: [{ url: baseUrl, description: 'This deployment' }] };
  },
  { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL },
);
