// POST /v1/webhooks/deliveries/list: newest first, with every attempt; dead letters included.
import { LIMITS } from '../contracts/limits';
import { listDeliveries } from '../data/webhooks-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('webhooks.deliveries.list', async ({ deps, auth, body }) => {
  const page = await listDeliveries(deps, auth.applicationId, auth.environment, { count: body.count ?? LIMITS.pageDefault, before: body.cursor });
  return {
    deliveries: page.deliveries.map((d) => ({
      delivery_id: d.deliveryId,
      event_id: d.eventId,
      event_type: d.eventType,
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
