// GET /openapi.json: generated from the route table (the committed openapi.json is the same document).
import { discoveryOpenapi } from '../contracts/routes';
import { buildOpenApi } from '../platform/openapi';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';

let document: object | undefined;

export const handler = defineOperation(
  discoveryOpenapi,
  ({ baseUrl }) => {
    document ??= buildOpenApi();
    return { ...document, servers: [{ url: baseUrl, description: 'This deployment' }] };
  },
  { cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL },
);
