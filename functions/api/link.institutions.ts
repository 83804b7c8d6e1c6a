// POST /link/api/institutions: as-you-type institution search for the hosted page.
import { LIMITS } from '../contracts/limits';
import { openSession } from '../app/link';
import { searchInstitutions, type InstitutionQuery } from '../core/institutions';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation<InstitutionQuery & { link_token: string }>('link.institutions', async ({ deps, body }) => {
  await openSession(deps, body.link_token);
  return { institutions: searchInstitutions(body, LIMITS.institutionSearchMaxResults) };
});
