// POST /v1/webhooks/events/replay: deliver an event again as a new delivery (same event id).
import { replayEvent } from '../app/webhooks';
import { webhooksEventsReplay } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksEventsReplay, async ({ deps, auth, body }) => ({
  delivery_ids: await replayEvent(deps, auth, body.event_id, body.endpoint_id),
}));
