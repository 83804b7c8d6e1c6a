// POST /v1/accounts/get: consented accounts with cached balances.
import { cachedAccounts } from '../app/reads';
import { accountsGet } from '../contracts/routes';
import { publicItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(accountsGet, async ({ deps, item, body }) => ({
  accounts: await cachedAccounts(deps, item, body.options?.account_ids),
  item: publicItem(item),
}));
