// POST /v1/ai/health-score: Explainable 0-100 financial health score with subscores.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.health-score');
