// POST /v1/transactions/sync: changes since the cursor (full history as `added` without one).
import { LIMITS } from '../contracts/limits';
import { syncTransactions } from '../app/sync';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('transactions.sync', ({ deps, item, body }) =>
  syncTransactions(deps, item, body.cursor, body.count ?? LIMITS.pageDefault),
);
