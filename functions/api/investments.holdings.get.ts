// POST /v1/investments/holdings/get: Holdings and securities of investment and crypto accounts.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('investments.holdings.get');
