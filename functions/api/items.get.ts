// POST /v1/items/get: status, institution, consented products and last sync time.
import { itemsGet } from '../contracts/routes';
import { publicItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(itemsGet, ({ item }) => ({ item: publicItem(item) }));
