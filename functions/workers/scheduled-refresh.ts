// Runs on the stage's schedule (an EventBridge scheduled event, every 5 minutes): publishes any event
// a crash left in the outbox, removes what Link connections that never committed left behind, queues
// the purge of removed items that is due again (their second purge, or a lost first one), and
// queues a refresh of every item whose scheduled refresh is due (the refresh-due index, never a scan
// of the table: functions/app/lifecycle.ts sweepDueRefreshes).
import { reapAbandonedConnections } from '../app/link';
import { requeueDueRemovals, sweepDueRefreshes } from '../app/lifecycle';
import { sweepOutbox } from '../app/webhooks';
import { parseWorkerMessage, RefreshScheduleEvent } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('scheduled-refresh', async (event: unknown): Promise<{ enqueued: number; republished: number; reaped: number; purges: number }> => {
  parseWorkerMessage(RefreshScheduleEvent, 'refresh schedule event', event);
  const deps = runtime();
  const republished = await sweepOutbox(deps);
  const reaped = await reapAbandonedConnections(deps);
  const { enqueued } = await sweepDueRefreshes(deps);
  const purges = await requeueDueRemovals(deps);
  return { enqueued, republished, reaped, purges };
});
