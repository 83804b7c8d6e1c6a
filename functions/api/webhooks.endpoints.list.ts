// POST /v1/webhooks/endpoints/list: the key's environment's endpoints.
import { publicEndpoint } from '../app/webhooks';
import { listEndpoints } from '../data/webhooks-repo';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('webhooks.endpoints.list', async ({ deps, auth }) => ({
  endpoints: (await listEndpoints(deps, auth.applicationId, auth.environment)).map(publicEndpoint),
}));
