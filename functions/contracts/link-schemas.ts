// Schemas of the hosted Link page's own API (/link/api/...). The page and the SDK are the only
// intended callers; integrators see the outcome through onSuccess/onExit and the exchange.
import * as z from 'zod';
import { LIMITS } from './limits';
import { ACCOUNT_TYPES, ENVIRONMENTS, Institution, Product } from './schemas';

export const LinkTokenField = /* @__PURE__ */ z
  .string()
  .max(LIMITS.tokenMaxLength)
  .regex(/^fc_link_[A-Za-z0-9]+$/, 'expected a link token starting with fc_link_');

export const LinkSession = /* @__PURE__ */ z
  .object({
    link_session_id: z.string(),
    client_name: z.string(),
    products: z.array(Product),
    mode: z.enum(['create', 'update']),
    environment: z.enum(ENVIRONMENTS),
    /** Preselected (institution_id at creation) or, in update mode, the item's institution. */
    institution: Institution.nullable(),
    redirect_uri: z.string().nullable(),
    expiration: z.string(),
  })
  .meta({ id: 'LinkSession' });

export const LinkSuccessMetadata = /* @__PURE__ */ z
  .object({
    link_session_id: z.string(),
    item_id: z.string(),
    institution: z.object({ institution_id: z.string(), name: z.string() }),
    accounts: z.array(z.object({ account_id: z.string(), name: z.string(), mask: z.string(), type: z.enum(ACCOUNT_TYPES), subtype: z.string() })),
  })
  .meta({ id: 'LinkSuccessMetadata' });

export const LinkStep = /* @__PURE__ */ z
  .discriminatedUnion('status', [
    z.object({
      status: z.literal('connected'),
      public_token: z.string(),
      metadata: LinkSuccessMetadata,
      /** Where the page sends the browser next (redirect_uri with the result in the query), if set. */
      redirect_url: z.string().nullable(),
    }),
    z.object({ status: z.literal('mfa_required'), mfa: z.object({ type: z.literal('code'), prompt: z.string() }) }),
  ])
  .meta({ id: 'LinkStep' });
