// Runs on the stage's refresh schedule (an EventBridge scheduled event): enqueues one refresh per
// healthy item, publishes any event a crash left in the outbox, and removes what Link connections
// that never committed left behind.
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { reapAbandonedConnections } from '../app/link';
import { sweepOutbox } from '../app/webhooks';
import { parseWorkerMessage, RefreshScheduleEvent } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';

export const handler = async (event: unknown): Promise<{ enqueued: number; republished: number; reaped: number }> => {
  parseWorkerMessage(RefreshScheduleEvent, 'refresh schedule event', event);
  const deps = runtime();
  const republished = await sweepOutbox(deps);
  const reaped = await reapAbandonedConnections(deps);
  let enqueued = 0;
  let start: Record<string, unknown> | undefined;
  // A full scan is fine at today's item counts; a sharded "healthy items" index replaces it later.
  do {
    const page: ScanCommandOutput = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.config.tableName,
        FilterExpression: 'sk = :item AND #status = :healthy',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':item': 'ITEM', ':healthy': 'healthy' },
        ProjectionExpression: 'item_id',
        ExclusiveStartKey: start,
      }),
    );
    for (const row of page.Items ?? []) {
      await deps.ports.refreshQueue.enqueue({ item_id: row.item_id as string, reason: 'scheduled' });
      enqueued += 1;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { enqueued, republished, reaped };
};
