// POST /v1/ai/health-score: an explainable 0-100 financial health score with subscores.
import { healthScore } from '../app/ai';
import { aiHealthScore } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiHealthScore, ({ deps, item }) => healthScore(deps, item));
