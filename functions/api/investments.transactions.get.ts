// POST /v1/investments/transactions/get: omitted date bounds mean the full history.
import { investmentTransactionsOf, type InvestmentTransactionsRequest } from '../app/products';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation<InvestmentTransactionsRequest>('investments.transactions.get', ({ deps, item, body }) =>
  investmentTransactionsOf(deps, item!, body),
);
