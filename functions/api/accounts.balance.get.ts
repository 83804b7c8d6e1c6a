// POST /v1/accounts/balance/get: Accounts with balances refreshed from the institution when older than 15 minutes.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('accounts.balance.get');
