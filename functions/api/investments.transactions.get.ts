// POST /v1/investments/transactions/get: Investment transactions; omitted date bounds mean the full history.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('investments.transactions.get');
