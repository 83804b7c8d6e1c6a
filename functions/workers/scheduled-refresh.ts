// Runs on the stage's refresh schedule (an EventBridge scheduled event): enqueues one refresh per
// healthy item, publishes any event a crash left in the outbox, and removes what Link connections
// that never committed left behind.
import { reapAbandonedConnections } from '../app/link';
import { sweepOutbox } from '../app/webhooks';
import { parseWorkerMessage, RefreshScheduleEvent } from '../contracts/worker-messages';
import { healthyItemIds } from '../data/items-repo';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('scheduled-refresh', async (event: unknown): Promise<{ enqueued: number; republished: number; reaped: number }> => {
  parseWorkerMessage(RefreshScheduleEvent, 'refresh schedule event', event);
  const deps = runtime();
  const republished = await sweepOutbox(deps);
  const reaped = await reapAbandonedConnections(deps);
  let enqueued = 0;
  for await (const itemId of healthyItemIds(deps)) {
    await deps.ports.refreshQueue.enqueue({ item_id: itemId, reason: 'scheduled' });
    enqueued += 1;
  }
  return { enqueued, republished, reaped };
});
