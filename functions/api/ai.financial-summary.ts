// POST /v1/ai/financial-summary: period totals, top categories and merchants, changes, and a plain-language summary.
import { financialSummary } from '../app/ai';
import { aiFinancialSummary } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiFinancialSummary, ({ deps, item }) => financialSummary(deps, item));
