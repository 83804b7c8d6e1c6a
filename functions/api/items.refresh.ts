// POST /v1/items/refresh: Start an on-demand refresh; new transactions are announced by webhook.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('items.refresh');
