// The console's items view (console.items.get, console.items.refresh): support finds an item by
// its id within one application's environment, sees its state, and may ask for a refresh through
// the same use case as POST /v1/items/refresh. The caller has authorised the application and
// environment.
import type * as z from 'zod';
import type { ItemFields } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { getItem, type ItemRecord } from '../../data/items-repo';
import type { ApplicationScope } from '../../data/request-log-repo';
import type { Deps } from '../../platform/runtime';
import { requestRefresh } from '../item-state';

export type ItemInput = z.output<typeof ItemFields>;

async function itemOfScope(deps: Deps, scope: ApplicationScope, itemId: string): Promise<ItemRecord> {
  const item = await getItem(deps, itemId);
  // Another application's or environment's item answers exactly as an unknown id: nothing leaks.
  if (!item || item.applicationId !== scope.applicationId || item.environment !== scope.environment) throw new ApiError('item_not_found');
  return item;
}

/**
 * What support sees of an item, field by field: never its access token (or hash), cursor secret,
 * provider secrets, connector cursor or the reference to the user's login.
 */
function consoleItem(item: ItemRecord) {
  return {
    item_id: item.itemId,
    status: item.status,
    error: item.error,
    connector: item.connector,
    institution_id: item.institutionId,
    institution_name: item.institutionName,
    products: item.consentedProducts,
    last_successful_sync: item.lastSuccessfulSync,
    last_sync_error: item.lastSyncError ? { code: item.lastSyncError.code, message: item.lastSyncError.message, occurred_at: item.lastSyncError.occurredAt } : null,
    transactions_update_status: item.transactionsUpdateStatus,
    created_at: item.createdAt,
  };
}

/** console.items.get: the item's state (no connector records a consent expiry today, so none is shown). */
export async function findItem(deps: Deps, scope: ApplicationScope, input: ItemInput) {
  return { item: consoleItem(await itemOfScope(deps, scope, input.item_id)) };
}

/**
 * console.items.refresh: the on-demand refresh of POST /v1/items/refresh, with its rules (a healthy
 * item only, not an item made from statement files; refreshes of one item run one at a time).
 */
export async function refreshItemFromConsole(deps: Deps, scope: ApplicationScope, input: ItemInput) {
  return requestRefresh(deps, await itemOfScope(deps, scope, input.item_id));
}
