// POST /v1/ai/purchase-analysis: Buy, wait or skip analysis of a planned purchase, with opportunity cost.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.purchase-analysis');
