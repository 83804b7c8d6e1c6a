// POST /v1/ai/fraud-risk: fraud risk signals with an overall grade, for an item or a raw payload.
import { fraudRisk } from '../app/ai';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('ai.fraud-risk', ({ deps, auth, body }) => fraudRisk(deps, auth, body));
