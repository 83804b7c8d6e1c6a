// POST /v1/ai/categorize: taxonomy categories for an item's transactions or a raw payload.
import { categorize } from '../app/ai';
import { aiCategorize } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiCategorize, ({ deps, auth, body }) => categorize(deps, auth, body));
