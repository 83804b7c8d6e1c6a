// POST /v1/items/get: status, institution, consented products and last sync time.
import { publicItem } from '../data/items-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('items.get', ({ item }) => ({ item: publicItem(item) }));
