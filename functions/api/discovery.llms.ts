// GET /llms.txt: a short plain-text index generated from the route table.
import { discoveryLlms } from '../contracts/routes';
import { buildLlmsTxt } from '../platform/llms';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';

export const handler = defineOperation(discoveryLlms, ({ baseUrl }) => buildLlmsTxt(baseUrl, 'index'), {
  cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL,
});
