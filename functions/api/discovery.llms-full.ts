// GET /llms-full.txt: every operation with its request and response fields, in plain text.
import { buildLlmsTxt } from '../platform/llms';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('discovery.llms-full', ({ baseUrl }) => buildLlmsTxt(baseUrl, 'full'));
