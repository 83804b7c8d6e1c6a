// POST /v1/ai/merchant: a raw descriptor resolved to a merchant and category.
import { resolveMerchant } from '../app/ai';
import { aiMerchant } from '../contracts/routes';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(aiMerchant, ({ deps, body }) => resolveMerchant(deps, body));
