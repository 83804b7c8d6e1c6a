// POST /v1/items/remove: deletes the item's cached data; its access token stops working at once.
import { removeItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('items.remove', async ({ deps, item }) => {
  await removeItem(deps, item);
  return { removed: true };
});
