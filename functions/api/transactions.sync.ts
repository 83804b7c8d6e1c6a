// POST /v1/transactions/sync: Page through transaction changes since a cursor (full history without one).
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('transactions.sync');
