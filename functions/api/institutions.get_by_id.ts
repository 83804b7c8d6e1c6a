// POST /v1/institutions/get_by_id: one institution, or 404 institution_not_found.
import { fail } from '../contracts/errors';
import { institutionsGetById } from '../contracts/routes';
import { findInstitution, toPublicInstitution } from '../core/institutions';
import { defineOperation } from '../platform/operation';

export const handler = defineOperation(institutionsGetById, ({ body }) => {
  const found = findInstitution(body.institution_id) ?? fail('institution_not_found');
  return { institution: toPublicInstitution(found) };
});
