// POST /v1/items/remove: revokes the consent at the provider (best effort) and deletes the item's
// data and secrets; its access token stops working at once.
import { removeItemEverywhere } from '../app/lifecycle';
import { itemsRemove } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(itemsRemove, async ({ deps, item }) => {
  await removeItemEverywhere(deps, item);
  return { removed: true };
});
