// POST /v1/items/remove: Remove an item: its cached data is deleted and its access token stops working.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('items.remove');
