// POST /v1/ai/purchase-analysis: buy, wait or skip for a planned purchase, with its opportunity cost.
import { purchaseAnalysis } from '../app/ai';
import { aiPurchaseAnalysis } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiPurchaseAnalysis, ({ deps, item, body }) => purchaseAnalysis(deps, item, body));
