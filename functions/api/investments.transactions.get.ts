// POST /v1/investments/transactions/get: omitted date bounds mean the full history.
import { investmentTransactionsOf } from '../app/products';
import { investmentsTransactionsGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(investmentsTransactionsGet, ({ deps, item, body }) =>
  investmentTransactionsOf(deps, item, body),
);
