// POST /v1/ai/purchase-analysis: buy, wait or skip for a planned purchase, with its opportunity cost.
import { purchaseAnalysis } from '../app/ai';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('ai.purchase-analysis', ({ deps, item, body }) => purchaseAnalysis(deps, item, body));
