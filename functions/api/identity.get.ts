// POST /v1/identity/get: Names, emails, phones and addresses of the account owners.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('identity.get');
