// Items breaking and healing without a word to the connector: an on-demand refresh request (the
// worker does the pulling), errors, and the sandbox helpers that drive them.
//
// While an item is not healthy, the calls that need the institution (balance refresh, on-demand
// refresh) answer an item error; everything that serves cached data keeps working: items.get,
// items.remove, accounts.get, transactions.sync and transactions.get (and the other data products).
import { fail, itemErrorOf } from '../contracts/errors';
import { EVENT_TYPES, sampleEventData, type EventType } from '../contracts/events';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { emitEvent } from '../data/events';
import { updateItemState, type ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';

export function requireHealthy(item: ItemRecord): void {
  if (item.status === 'login_required') fail('item_login_required');
  if (item.status !== 'healthy') fail('item_not_healthy');
}

export async function requestRefresh(deps: Deps, item: ItemRecord) {
  requireHealthy(item);
  if (item.connector === FILE_IMPORT_CONNECTOR_ID) {
    fail('statement_import_not_supported', 'An item created from a statement file has no source to refresh: upload a newer statement with POST /v1/items/statements/upload.');
  }
  await deps.ports.refreshQueue.enqueue({ item_id: item.itemId, reason: 'on_demand' });
  return { refreshing: true };
}

const loginRequiredError = itemErrorOf('item_login_required');

/** POST /v1/sandbox/item/reset_login: the item needs the user again; `item.error` fires. */
export async function resetLogin(deps: Deps, item: ItemRecord) {
  await updateItemState(deps, item.itemId, { status: 'login_required', error: loginRequiredError });
  await emitEvent(deps, item, 'item.error', { item_id: item.itemId, error: loginRequiredError });
  return { reset_login: true };
}

/** The item entered an error at its institution (e.g. user_locked in update mode). */
export async function markItemError(deps: Deps, item: ItemRecord, error: NonNullable<ItemRecord['error']>) {
  await updateItemState(deps, item.itemId, { status: 'error', error });
  await emitEvent(deps, item, 'item.error', { item_id: item.itemId, error });
}

/** POST /v1/sandbox/fire_webhook: any event type, with the payload it would really carry. */
export async function fireWebhook(deps: Deps, item: ItemRecord, type: EventType) {
  if (!EVENT_TYPES.includes(type)) fail('invalid_field');
  const data = sampleEventData(type, { itemId: item.itemId, itemError: item.error ?? loginRequiredError, now: deps.clock.now() });
  return { fired: true, event_id: await emitEvent(deps, item, type, data) };
}
