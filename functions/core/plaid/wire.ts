// The JSON shapes of Plaid's own Node client (the `plaid` package, a devDependency) are the source of
// truth for the fields the Plaid-compatible API reads and writes (functions/surfaces/plaid, and the
// Plaid-shaped webhooks here). They are imported as types only, so nothing of the client ships in a
// Lambda bundle.
//
// The client declares its string enums as TypeScript enums, which a plain string literal does not
// satisfy. `Wire<T>` is the same shape as it travels as JSON: every string enum becomes the union of
// its values, so `{ payment_channel: 'in store' } satisfies Wire<Transaction>` checks the spelling
// against Plaid's own declaration.
import type { Environment } from '../../contracts/schemas';

export type Wire<T> = T extends string
  ? `${T}`
  : T extends number | boolean | null | undefined
    ? T
    : T extends ReadonlyArray<infer Element>
      ? Wire<Element>[]
      : { [K in keyof T]: Wire<T[K]> };

/** Plaid's `environment` field of webhooks: test keys are Plaid's sandbox, live keys production. */
export const plaidEnvironmentOf = (environment: Environment) => (environment === 'test' ? 'sandbox' : 'production');
