// POST /link/api/institutions: as-you-type institution search for the hosted page.
import { LIMITS } from '../contracts/limits';
import { linkCallerOf, openSession } from '../app/link-session';
import { linkInstitutions } from '../contracts/routes';
import { searchInstitutions } from '../core/institutions';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(linkInstitutions, async ({ deps, body, event }) => {
  const session = await openSession(deps, body.link_token, linkCallerOf(event));
  // Only institutions that can serve every product the app asked for.
  return { institutions: searchInstitutions({ ...body, products: session.products }, LIMITS.institutionSearchMaxResults) };
});
