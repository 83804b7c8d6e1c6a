// POST /v1/transactions/get: Transactions in a date range, paged by count and offset; removed rows excluded.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('transactions.get');
