// The Plaid-compatible surface speaks the JSON shapes of Plaid's own Node client (the `plaid`
// package, a devDependency): its request and response interfaces are the source of truth for the
// fields this surface reads and writes. They are imported as types only, so nothing of the client
// ships in a Lambda bundle.
//
// The client declares its string enums as TypeScript enums, which a plain string literal does not
// satisfy. `Wire<T>` is the same shape as it travels as JSON: every string enum becomes the union of
// its values, so `{ payment_channel: 'in store' } satisfies Wire<Transaction>` checks the spelling
// against Plaid's own declaration.
import * as z from 'zod';
import { AccessToken } from '../../contracts/schemas';

export type Wire<T> = T extends string
  ? `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer Element>
      ? Wire<Element>[]
      : { [K in keyof T]: Wire<T[K]> };

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

/** Plaid's `environment` field of webhooks: test keys are Plaid's sandbox, live keys production. */
export const plaidEnvironmentOf = (environment: 'test' | 'live') => (environment === 'test' ? 'sandbox' : 'production');
