// Schemas of the hosted Link page's own API (/link/api/...). The page and the SDK are the only
// intended callers; integrators see the outcome through onSuccess/onExit and the exchange.
import * as z from 'zod';
import { LIMITS } from './limits';
import { ACCOUNT_TYPES, ENVIRONMENTS, Institution, Product } from './schemas';

/** The languages hosted Link speaks, chosen by `language` on link.token.create (default English). */
export const LINK_LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type LinkLanguage = (typeof LINK_LANGUAGES)[number];
export const LinkLanguageField = /* @__PURE__ */ z
  .enum(LINK_LANGUAGES, { error: () => `language must be one of: ${LINK_LANGUAGES.join(', ')}` })
  .meta({ id: 'LinkLanguage', description: 'The language hosted Link is shown in: en, es, fr or de.' });

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
    /** The language the page is shown in (link.token.create's `language`). */
    language: LinkLanguageField,
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

/** An account offered in Link's account selection. */
export const LinkAccountChoice = /* @__PURE__ */ z
  .object({
    account_id: z.string(),
    name: z.string(),
    mask: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    subtype: z.string(),
    balances: z.object({ current: z.number(), iso_currency_code: z.string() }),
  })
  .meta({ id: 'LinkAccountChoice' });

/**
 * On every Link step that can end in a connection: the page lets the user choose the accounts to
 * share (the step answers `select_accounts`). Without it every account is shared, as before.
 */
export const LinkAccountSelectionFlag = /* @__PURE__ */ z
  .boolean()
  .meta({ description: 'Ask the user which accounts to share: the step answers select_accounts instead of connected.' });

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
    /**
     * The step asked for account selection (`account_selection: true`): the item is connected, and
     * its public token can be exchanged once /link/api/accounts/select has recorded the user's choice.
     */
    z.object({
      status: z.literal('select_accounts'),
      public_token: z.string(),
      link_session_id: z.string(),
      item_id: z.string(),
      institution: z.object({ institution_id: z.string(), name: z.string() }),
      accounts: z.array(LinkAccountChoice),
      /** Preselected: every account of a new item; in update mode, the item's current choice. */
      selected_account_ids: z.array(z.string()),
    }),
  ])
  .meta({ id: 'LinkStep' });
