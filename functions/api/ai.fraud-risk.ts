// POST /v1/ai/fraud-risk: fraud risk signals with an overall grade, for an item or a raw payload.
import { fraudRisk } from '../app/ai';
import { aiFraudRisk } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiFraudRisk, ({ deps, auth, body }) => fraudRisk(deps, auth, body));
