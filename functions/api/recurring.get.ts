// POST /v1/recurring/get: Recurring streams: subscriptions, bills and payroll.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('recurring.get');
