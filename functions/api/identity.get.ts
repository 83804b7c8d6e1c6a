// POST /v1/identity/get: owners per account; a degraded item answers the empty shape.
import { identityOf } from '../app/products';
import { identityGet } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(identityGet, ({ deps, item }) => identityOf(deps, item));
