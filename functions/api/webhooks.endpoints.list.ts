// POST /v1/webhooks/endpoints/list: the key's environment's endpoints.
import { publicEndpoint } from '../app/webhooks';
import { webhooksEndpointsList } from '../contracts/routes';
import { listEndpoints } from '../data/webhooks-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(webhooksEndpointsList, async ({ deps, auth }) => ({
  endpoints: (await listEndpoints(deps, auth.applicationId, auth.environment)).map(publicEndpoint),
}));
