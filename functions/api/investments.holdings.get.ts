// POST /v1/investments/holdings/get: holdings of investment and crypto accounts.
import { holdingsOf } from '../app/products';
import { investmentsHoldingsGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(investmentsHoldingsGet, ({ deps, item }) => holdingsOf(deps, item));
