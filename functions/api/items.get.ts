// POST /v1/items/get: Status, institution, consented products and last sync time of an item.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('items.get');
