// POST /v1/ai/fraud-risk: Fraud risk signals with an overall grade.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.fraud-risk');
