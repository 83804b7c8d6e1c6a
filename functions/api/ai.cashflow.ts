// POST /v1/ai/cashflow: Cash-flow balance forecast over a configurable horizon.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.cashflow');
