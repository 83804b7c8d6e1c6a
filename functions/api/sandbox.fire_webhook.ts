// POST /v1/sandbox/fire_webhook: Fire a chosen webhook event for an item.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('sandbox.fire_webhook');
