// POST /v1/liabilities/get: Credit cards, mortgages, student and auto loans.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('liabilities.get');
