// POST /v1/assets/get: one currency, balances as truth, max(balance, holdings) for investments.
import { assetsOf } from '../app/products';
import { assetsGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(assetsGet, ({ deps, item }) => assetsOf(deps, item));
