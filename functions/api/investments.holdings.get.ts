// POST /v1/investments/holdings/get: holdings of investment and crypto accounts.
import { holdingsOf } from '../app/products';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('investments.holdings.get', ({ deps, item }) => holdingsOf(deps, item));
