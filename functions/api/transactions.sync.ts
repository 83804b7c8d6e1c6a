// POST /v1/transactions/sync: changes since the cursor (full history as `added` without one).
import { LIMITS } from '../contracts/limits';
import { syncTransactions } from '../app/sync';
import { transactionsSync } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(transactionsSync, ({ deps, item, body }) =>
  syncTransactions(deps, item, body.cursor, body.count ?? LIMITS.pageDefault),
);
