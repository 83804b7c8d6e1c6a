// POST /v1/sandbox/public_token/create: connect a sandbox login without the browser (test keys only).
import { createSandboxPublicToken } from '../app/link-credentials';
import { sandboxPublicTokenCreate } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(sandboxPublicTokenCreate, ({ deps, auth, body }) => createSandboxPublicToken(deps, auth, body));
