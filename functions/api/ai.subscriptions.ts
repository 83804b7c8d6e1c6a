// POST /v1/ai/subscriptions: Paid subscriptions with cadence, annual cost, likely-unused flags and savings notes.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.subscriptions');
