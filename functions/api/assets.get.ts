// POST /v1/assets/get: Assets, liabilities and net worth in one currency.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('assets.get');
