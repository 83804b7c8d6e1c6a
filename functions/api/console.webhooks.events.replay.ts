// POST /console/api/webhooks/events/replay: deliver an event again.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { replayWebhookEvent } from '../app/console/webhooks';
import { consoleWebhooksEventsReplay } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksEventsReplay,
  async ({ deps, body, caller, requestId }) => replayWebhookEvent(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.events.replay', body, { event_id: body.event_id, endpoint_id: body.endpoint_id }), body),
  { sessions: consoleSessions },
);
