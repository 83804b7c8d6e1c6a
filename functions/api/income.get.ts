// POST /v1/income/get: income streams detected from payroll and other inflows.
import { incomeOf } from '../app/derived-products';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('income.get', ({ deps, item }) => incomeOf(deps, item));
