// POST /v1/transactions/get: a date range, paged by count and offset; removed rows excluded.
import { getTransactions } from '../app/reads';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('transactions.get', ({ deps, item, body }) => getTransactions(deps, item, body));
