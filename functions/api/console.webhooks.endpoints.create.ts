// POST /console/api/webhooks/endpoints/create: register a webhook endpoint (a new signing secret is shown once).
// The use case acts on one application environment; authorizeScope checks (and audits) the
// action on it first: the audit row keeps the URL without its query (which may hold a secret token)
// and gets the endpoint's id once it is registered.
import { consoleActor } from '../app/console/actor';
import { authorizeScope } from '../app/console/authorize';
import { consoleSessions } from '../app/console/session';
import { auditedWebhookUrl, createWebhookEndpoint } from '../app/console/webhooks';
import { consoleWebhooksEndpointsCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(
  consoleWebhooksEndpointsCreate,
  async ({ deps, body, caller, requestId }) => createWebhookEndpoint(deps, await authorizeScope(deps, consoleActor(caller, requestId), 'console.webhooks.endpoints.create', body, { url: auditedWebhookUrl(body.url) }), body),
  { sessions: consoleSessions },
);
