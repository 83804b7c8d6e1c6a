// Runs on the stage's schedule (an EventBridge scheduled event, every 5 minutes): publishes any event
// a crash left in the outbox, removes what Link connections that never committed left behind and
// what removed items whose queued purge was lost still own, and
// queues a refresh of every item whose scheduled refresh is due (the refresh-due index, never a scan
// of the table: functions/app/lifecycle.ts sweepDueRefreshes).
import { reapAbandonedConnections } from '../app/link';
import { purgeAbandonedRemovals, sweepDueRefreshes } from '../app/lifecycle';
import { sweepOutbox } from '../app/webhooks';
import { parseWorkerMessage, RefreshScheduleEvent } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('scheduled-refresh', async (event: unknown): Promise<{ enqueued: number; republished: number; reaped: number; purged: number }> => {
  parseWorkerMessage(RefreshScheduleEvent, 'refresh schedule event', event);
  const deps = runtime();
  const republished = await sweepOutbox(deps);
  const reaped = await reapAbandonedConnections(deps);
  const purged = await purgeAbandonedRemovals(deps);
  const { enqueued } = await sweepDueRefreshes(deps);
  return { enqueued, republished, reaped, purged };
});
