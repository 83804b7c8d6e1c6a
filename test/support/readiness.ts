// Waiting for a new item's history, which Link leaves to the refresh worker: on the condition itself,
// never for a guessed while.
import { refreshItem } from '../../functions/app/lifecycle';
import { getItem } from '../../functions/data/items-repo';
import type { LocalStack } from '../../functions/platform/local/local-stack';
import type { Deps } from '../../functions/platform/runtime';

async function expectHistoryComplete(deps: Deps, itemId: string): Promise<void> {
  const item = await getItem(deps, itemId);
  if (item?.transactionsUpdateStatus !== 'historical_update_complete') {
    throw new Error(`the history of ${itemId} is not loaded: ${item ? item.transactionsUpdateStatus : 'no such item'}`);
  }
}

/**
 * The local stack runs the refresh queue in process: once everything handed to it has run (the
 * history load Link queued among it), the item's history is loaded, or the load failed.
 */
export async function historyLoadedLocally(stack: Pick<LocalStack, 'background' | 'deps'>, itemId: string): Promise<void> {
  await stack.background.idle();
  await expectHistoryComplete(stack.deps, itemId);
}

/**
 * Tests on bare deps have no queue running (their ports refuse or record jobs): the job Link queued
 * is run here, as the refresh worker would run it.
 */
export async function runQueuedHistoryLoad(deps: Deps, itemId: string): Promise<void> {
  await refreshItem(deps, { item_id: itemId, reason: 'initial_history' });
  await expectHistoryComplete(deps, itemId);
}
