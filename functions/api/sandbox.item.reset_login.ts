// POST /v1/sandbox/item/reset_login: Put an item into login_required (fires item.error).
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('sandbox.item.reset_login');
