// Reading Plaid's request bodies: the shapes come from Plaid's own Node client, as `Wire<T>`
// (functions/core/plaid/wire.ts, shared with the Plaid-shaped webhooks the delivery sends).
import * as z from 'zod';
import { AccessToken } from '../../contracts/schemas';

export type { Wire } from '../../core/plaid/wire';

/** What every Plaid request may carry besides its own fields: the credentials (read by ./credentials). */
const CREDENTIAL_FIELDS = { client_id: z.string().optional(), secret: z.string().optional() };

/**
 * A Plaid request body: the fields the surface reads, the fields Plaid declares that the surface
 * accepts and ignores (listed so that a field Plaid does not know is still refused as unknown, as
 * Plaid refuses it), and the credentials.
 */
export function plaidRequest<Shape extends z.ZodRawShape, const Ignored extends readonly string[] = []>(shape: Shape, ignored?: Ignored) {
  const accepted = Object.fromEntries((ignored ?? []).map((name) => [name, z.unknown().optional()])) as {
    [K in Ignored[number]]: z.ZodOptional<z.ZodUnknown>;
  };
  return z.strictObject({ ...CREDENTIAL_FIELDS, ...accepted, ...shape });
}

/**
 * An `access_token` field. A malformed one is Plaid's INVALID_ACCESS_TOKEN, as on Plaid (our routes
 * would call it an invalid field): the refinement names our code, which the error table maps.
 */
export const PlaidAccessToken = /* @__PURE__ */ z.string().refine((token) => AccessToken.safeParse(token).success, {
  message: 'the access_token is not an access token of this API (fc_at_...)',
  params: { code: 'invalid_access_token' },
});
