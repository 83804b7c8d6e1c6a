// GET /llms-full.txt: every operation with its request and response fields, in plain text.
import { discoveryLlmsFull } from '../contracts/routes';
import { buildLlmsTxt } from '../platform/llms';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';

export const handler = defineOperation(discoveryLlmsFull, ({ baseUrl }) => buildLlmsTxt(baseUrl, 'full'), {
  cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL,
});
