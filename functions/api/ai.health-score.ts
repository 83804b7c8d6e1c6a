// POST /v1/ai/health-score: an explainable 0-100 financial health score with subscores.
import { healthScore } from '../app/ai';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('ai.health-score', ({ deps, item }) => healthScore(deps, item));
