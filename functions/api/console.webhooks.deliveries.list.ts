// POST /console/api/webhooks/deliveries/list: the delivery log with every attempt.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { listWebhookDeliveries } from '../app/console/webhooks';
import { consoleWebhooksDeliveriesList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksDeliveriesList,
  async ({ deps, body, caller, requestId }) => listWebhookDeliveries(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.deliveries.list', body), body),
  { sessions: consoleSessions },
);
