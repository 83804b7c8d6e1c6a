// POST /v1/ai/weekly-report: the week in numbers and a narrative.
import { weeklyReport } from '../app/ai';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('ai.weekly-report', ({ deps, item, body }) => weeklyReport(deps, item, body));
