// POST /v1/webhooks/endpoints/delete: its pending deliveries are cancelled at their next attempt.
import { removeEndpoint } from '../app/webhooks';
import { webhooksEndpointsDelete } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksEndpointsDelete, async ({ deps, auth, body }) => {
  await removeEndpoint(deps, auth, body.endpoint_id);
  return { deleted: true };
});
