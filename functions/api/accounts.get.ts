// POST /v1/accounts/get: Consented accounts with cached balances.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('accounts.get');
