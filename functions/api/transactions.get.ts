// POST /v1/transactions/get: a date range, paged by count and offset; removed rows excluded.
import { getTransactions } from '../app/reads';
import { transactionsGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(transactionsGet, ({ deps, item, body }) => getTransactions(deps, item, body));
