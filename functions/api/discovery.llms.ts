// GET /llms.txt: a short plain-text index generated from the route table.
import { buildLlmsTxt } from '../platform/llms';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('discovery.llms', ({ baseUrl }) => buildLlmsTxt(baseUrl, 'index'));
