// POST /v1/ai/categorize: Categorize transactions into the platform taxonomy.
// In the contract and the stack; its behaviour lands with a later issue (answers 501 until then).
import { plannedOperation } from '../platform/operation';

export const handler = plannedOperation('ai.categorize');
