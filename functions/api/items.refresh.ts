// POST /v1/items/refresh: queues an on-demand refresh and answers at once.
import { requestRefresh } from '../app/item-state';
import { itemsRefresh } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(itemsRefresh, ({ deps, item }) => requestRefresh(deps, item));
