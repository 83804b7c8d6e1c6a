// POST /v1/categories/get: the static 14/89 taxonomy with its Plaid crosswalk.
import { CATEGORIES } from '../core/taxonomy';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation('categories.get', () => ({ categories: CATEGORIES }));
