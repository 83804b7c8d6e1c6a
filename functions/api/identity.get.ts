// POST /v1/identity/get: owners per account; a degraded item answers the empty shape.
import { identityOf } from '../app/products';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('identity.get', ({ deps, item }) => identityOf(deps, item));
