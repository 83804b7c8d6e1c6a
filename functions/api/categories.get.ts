// POST /v1/categories/get: the static 14/89 taxonomy with its Plaid crosswalk.
import { categoriesGet } from '../contracts/routes';
import { CATEGORIES } from '../core/taxonomy';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(categoriesGet, () => ({ categories: CATEGORIES }));
