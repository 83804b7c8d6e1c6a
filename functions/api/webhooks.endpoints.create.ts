// POST /v1/webhooks/endpoints/create: register an endpoint (idempotent per URL).
import { publicEndpoint, registerEndpoint } from '../app/webhooks';
import { webhooksEndpointsCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksEndpointsCreate, async ({ deps, auth, body }) => {
  const result = await registerEndpoint(deps, auth, body.url);
  return { endpoint: publicEndpoint(result.endpoint), created: result.created, secret: result.secret };
});
