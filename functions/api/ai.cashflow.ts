// POST /v1/ai/cashflow: a daily balance forecast over horizon_days, with the recurring streams that drive it.
import { cashflow } from '../app/ai';
import { aiCashflow } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiCashflow, ({ deps, auth, body }) => cashflow(deps, auth, body));
