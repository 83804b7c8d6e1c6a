// POST /v1/webhooks/deliveries/list: newest first, with every attempt; dead letters included.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import { webhooksDeliveriesList } from '../contracts/routes';
import { isDeliveryCursor, listDeliveries } from '../data/webhooks-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksDeliveriesList, async ({ deps, auth, body }) => {
  // A cursor that is not one this operation returned would otherwise read as "from the start".
  // An empty one means no cursor, as in transactions/sync.
  const cursor = body.cursor === '' ? undefined : body.cursor;
  if (cursor !== undefined && !isDeliveryCursor(cursor)) {
    fail('invalid_cursor', 'The cursor is not a next_cursor returned by webhooks/deliveries/list. Call without a cursor for the first page.');
  }
  const page = await listDeliveries(deps, auth.applicationId, auth.environment, { count: body.count ?? LIMITS.pageDefault, before: cursor });
  return {
    deliveries: page.deliveries.map((d) => ({
      delivery_id: d.deliveryId,
      event_id: d.eventId,
      event_type: d.eventType,
      destination: d.destination,
      endpoint_id: d.endpointId,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      created_at: d.createdAt,
      finished_at: d.finishedAt,
    })),
    next_cursor: page.next,
  };
});
