// POST /v1/institutions/search: name search over the catalog, popularity order, at most 20.
import { LIMITS } from '../contracts/limits';
import { institutionsSearch } from '../contracts/routes';
import { searchInstitutions } from '../core/institutions';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(institutionsSearch, ({ body }) => ({
  institutions: searchInstitutions(body, LIMITS.institutionSearchMaxResults),
}));
