// POST /v1/income/get: income streams detected from payroll and other inflows.
import { incomeOf } from '../app/derived-products';
import { incomeGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(incomeGet, ({ deps, item }) => incomeOf(deps, item));
