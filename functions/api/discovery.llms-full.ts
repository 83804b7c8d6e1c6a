// GET /llms-full.txt: every operation with its request and response fields, in plain text.
import { buildLlmsTxt } from '../platform/llms';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';

export const handler = defineOperation('discovery.llms-full', ({ baseUrl }) => buildLlmsTxt(baseUrl, 'full'), {
  cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL,
});
