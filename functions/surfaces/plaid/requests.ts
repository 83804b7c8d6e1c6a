// Reading a Plaid request body against the endpoint's schema (./wire.ts plaidRequest): a failure is
// our schema error (missing, unknown or invalid field, naming it), which
// functions/core/plaid/errors.ts renders as Plaid's MISSING_FIELDS, UNKNOWN_FIELDS or INVALID_FIELD.
import type * as z from 'zod';
import { ApiError } from '../../contracts/errors';
import { schemaError } from '../../platform/middleware';

export function parsePlaidRequest<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_json', 'The request body must be a JSON object.');
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw schemaError(parsed.error, body);
  return parsed.data;
}
