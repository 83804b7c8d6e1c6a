// POST /console/api/webhooks/endpoints/delete: delete a webhook endpoint.
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { deleteWebhookEndpoint } from '../app/console/webhooks';
import { consoleWebhooksEndpointsDelete } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksEndpointsDelete,
  async ({ deps, body, caller, requestId }) => deleteWebhookEndpoint(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.endpoints.delete', body, { endpoint_id: body.endpoint_id }), body),
  { sessions: consoleSessions },
);
