// POST /console/api/webhooks/endpoints/list: the webhook endpoints of an application environment.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { listWebhookEndpoints } from '../app/console/webhooks';
import { consoleWebhooksEndpointsList } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksEndpointsList,
  async ({ deps, body, caller, requestId }) => listWebhookEndpoints(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.endpoints.list', body)),
  { sessions: consoleSessions },
);
