// POST /v1/ai/financial-summary: Plain-language summary with highlights.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.financial-summary');
