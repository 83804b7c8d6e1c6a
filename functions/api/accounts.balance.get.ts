// POST /v1/accounts/balance/get: balances refreshed from the source when older than 15 minutes.
import { freshAccounts } from '../app/balances';
import { accountsBalanceGet } from '../contracts/routes';
import { publicItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(accountsBalanceGet, async ({ deps, item, body }) => ({
  accounts: await freshAccounts(deps, item, body.options?.account_ids),
  item: publicItem(item),
}));
