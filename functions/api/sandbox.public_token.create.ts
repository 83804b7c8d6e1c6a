// POST /v1/sandbox/public_token/create: connect a sandbox login without the browser (test keys only).
import type { Product } from '../contracts/schemas';
import { createSandboxPublicToken } from '../app/link';
import { defineOperation } from '../platform/operation';

type Body = { institution_id: string; products: Product[]; username?: string };

export const handler = defineOperation<Body>('sandbox.public_token.create', ({ deps, auth, body }) => createSandboxPublicToken(deps, auth!, body));
