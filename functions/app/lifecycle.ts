// Items breaking and healing, refreshes, and the sandbox helpers that drive them.
//
// While an item is not healthy, the calls that need the institution (balance refresh, on-demand
// refresh) answer an item error; everything that serves cached data keeps working: items.get,
// items.remove, accounts.get, transactions.sync and transactions.get (and the other data products).
import { ApiError, fail } from '../contracts/errors';
import { sandboxSourceAt } from '../core/sandbox/refresh-sim';
import { bumpRefreshCount, getItem, updateItemState, type ItemRecord } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import type { RefreshExecutionInput } from '../workers/contracts';
import { enrich, SANDBOX_CONNECTOR, syncFromSource, todayOf } from './item-source';
import { emitEvent, EVENT_TYPES, type EventType } from './webhooks';

export function requireHealthy(item: ItemRecord): void {
  if (item.status === 'login_required') fail('item_login_required');
  if (item.status !== 'healthy') fail('item_not_healthy');
}

export async function requestRefresh(deps: Deps, item: ItemRecord) {
  requireHealthy(item);
  await deps.ports.refreshQueue.enqueue({ item_id: item.itemId, reason: 'on_demand' });
  return { refreshing: true };
}

/**
 * The refresh worker: pulls what is new from the item's connector and commits it; the sync webhook
 * fires only if something changed. The sandbox simulator advances one step per refresh: new
 * transactions, pendings that post, and (every other refresh) a pending that is dropped.
 */
export async function refreshItem(deps: Deps, input: RefreshExecutionInput) {
  const item = await getItem(deps, input.item_id);
  if (!item || item.status !== 'healthy') return { refreshed: false, reason: item ? item.status : 'removed' };
  if (item.connector !== SANDBOX_CONNECTOR || item.sandboxUsername === null) throw new ApiError('provider_error');
  const step = await bumpRefreshCount(deps, item.itemId);
  const source = sandboxSourceAt({ institutionId: item.institutionId, username: item.sandboxUsername }, todayOf(deps), step);
  const result = await syncFromSource(deps, item, { accounts: source.accounts, transactions: source.transactions.map(enrich) });
  return { refreshed: true, changed: result?.committedSeq != null, added: result?.added ?? 0, modified: result?.modified ?? 0, removed: result?.removed ?? 0 };
}

const loginRequiredError = { type: 'item_error', code: 'item_login_required', message: "The institution needs the user to log in again." };

/** POST /v1/sandbox/item/reset_login: the item needs the user again; `item.error` fires. */
export async function resetLogin(deps: Deps, item: ItemRecord) {
  await updateItemState(deps, item.itemId, { status: 'login_required', error: loginRequiredError });
  await emitEvent(deps, item, 'item.error', { item_id: item.itemId, error: loginRequiredError });
  return { reset_login: true };
}

/** The item entered an error at its institution (e.g. user_locked in update mode). */
export async function markItemError(deps: Deps, item: ItemRecord, error: { type: string; code: string; message: string }) {
  await updateItemState(deps, item.itemId, { status: 'error', error });
  await emitEvent(deps, item, 'item.error', { item_id: item.itemId, error });
}

/** Update mode healed an item that was not healthy. */
export async function announceRepair(deps: Deps, item: ItemRecord) {
  await emitEvent(deps, item, 'item.login_repaired', { item_id: item.itemId });
}

/** POST /v1/sandbox/fire_webhook: any event type, with the payload it would really carry. */
export async function fireWebhook(deps: Deps, item: ItemRecord, type: EventType) {
  if (!EVENT_TYPES.includes(type)) fail('invalid_field');
  const data: Record<string, unknown> =
    type === 'transactions.sync_updates_available'
      ? { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }
      : type === 'item.error'
        ? { item_id: item.itemId, error: item.error ?? loginRequiredError }
        : type === 'item.login_repaired'
          ? { item_id: item.itemId }
          : { item_id: item.itemId, quota: 'api', threshold_percent: 80, sandbox: true };
  return { fired: true, event_id: await emitEvent(deps, item, type, data) };
}
