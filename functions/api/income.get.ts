// POST /v1/income/get: Income streams detected from payroll and other inflows.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('income.get');
