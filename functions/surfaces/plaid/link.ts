// The token flow in Plaid's shape: /link/token/create and /item/public_token/exchange over our
// link.token.create and link.token.exchange.
//
// /link/token/create reads client_name, user.client_user_id, products (Plaid's names, ./products.ts),
// webhook, redirect_uri, institution_id, language (en, es, fr, de; Plaid's other languages open
// Link in English) and, for update mode, access_token (the item it names becomes
// our update_item_id; its consented products are the session's when `products` is left out, as Plaid
// leaves them out in update mode). `hosted_link` asks for the Link URL: ours is the hosted Link page,
// so `hosted_link_url` is {base_url}/link?token=<link_token>. Every other field Plaid declares is
// accepted and not used (country_codes, optional and additional products, account filters,
// customizations, product-specific options). The link token opens our hosted Link (or our Link SDK),
// not Plaid Link's client libraries. `webhook` is the webhook URL of the item the session connects,
// as Plaid's is: it receives Plaid's webhook bodies about that item, signed with Plaid-Verification
// (no environment endpoint is registered).
import type { ItemPublicTokenExchangeResponse, LinkTokenCreateResponse } from 'plaid';
import * as z from 'zod';
import { LINK_LANGUAGES, type LinkLanguage } from '../../contracts/link-schemas';
import type { ResponseOf } from '../../contracts/routes';
import { handler as linkTokenCreateHandler } from '../../api/link.token.create';
import { handler as linkTokenExchangeHandler } from '../../api/link.token.exchange';
import { usePlaidWebhooksForLinkSession } from '../../app/webhooks';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { ourItem } from './items';
import { ourProductsOf } from './products';
import { parsePlaidRequest } from './requests';
import { PlaidAccessToken, plaidRequest, type Wire } from './wire';

/** LinkTokenCreateRequest fields that change nothing here (Plaid Link features we do not have). */
const IGNORED_LINK_FIELDS = [
  'country_codes',
  'user_id',
  'required_if_supported_products',
  'optional_products',
  'additional_consented_products',
  'access_tokens',
  'link_customization_name',
  'appearance_mode',
  'android_package_name',
  'institution_data',
  'card_switch',
  'account_filters',
  'eu_config',
  'payment_configuration',
  'payment_initiation',
  'employment',
  'income_verification',
  'base_report',
  'credit_partner_insights',
  'cra_options',
  'consumer_report_permissible_purpose',
  'auth',
  'transfer',
  'identity_verification',
  'statements',
  'third_party_user_token',
  'investments',
  'investments_auth',
  'transactions',
  'cashflow_report',
  'cra_enabled',
  'identity',
  'financekit_supported',
  'enable_multi_item_link',
  'user_token',
] as const;

/** LinkTokenCreateRequestUser: only client_user_id is ours. */
const LinkUser = z.looseObject({ client_user_id: z.string() });

const LinkTokenCreateRequest = plaidRequest(
  {
    client_name: z.string().optional(),
    user: LinkUser.optional(),
    products: z.array(z.string()).nullable().optional(),
    webhook: z.string().optional(),
    access_token: PlaidAccessToken.nullable().optional(),
    redirect_uri: z.string().optional(),
    institution_id: z.string().optional(),
    language: z.string().optional(),
    hosted_link: z.looseObject({}).optional(),
    /** Only account_selection_enabled is ours: update mode shows Link's account selection again. */
    update: z.looseObject({ account_selection_enabled: z.boolean().optional() }).optional(),
  },
  IGNORED_LINK_FIELDS,
);

const ExchangeRequest = plaidRequest({ public_token: z.string() });

/** Plaid's languages Link speaks too; Plaid's others (nl, ja, ...) are valid there, so they open Link in English rather than fail. */
function isLinkLanguage(value: string | undefined): value is LinkLanguage {
  return (LINK_LANGUAGES as readonly (string | undefined)[]).includes(value);
}

/** POST /link/token/create */
export async function linkTokenCreate(call: InlineCall, body: unknown): Promise<Omit<Wire<LinkTokenCreateResponse>, 'request_id'>> {
  const request = parsePlaidRequest(LinkTokenCreateRequest, body);
  const updating = request.access_token ? await ourItem(call, request.access_token) : undefined;
  const products = request.products?.length ? ourProductsOf(request.products) : updating?.consented_products;
  const answer = (await invokeRoute(linkTokenCreateHandler, call, {
    ...(request.client_name !== undefined ? { client_name: request.client_name } : {}),
    // Our schema names what is missing or wrong in these, as Plaid's would.
    user: request.user ? { client_user_id: request.user.client_user_id } : undefined,
    products,
    ...(updating ? { update_item_id: updating.item_id } : {}),
    ...(request.institution_id !== undefined ? { institution_id: request.institution_id } : {}),
    ...(request.webhook !== undefined ? { webhook: request.webhook } : {}),
    ...(request.redirect_uri !== undefined ? { redirect_uri: request.redirect_uri } : {}),
    ...(isLinkLanguage(request.language) ? { language: request.language } : {}),
    ...(request.update?.account_selection_enabled !== undefined ? { update: { account_selection_enabled: request.update.account_selection_enabled } } : {}),
  })) as ResponseOf<'link.token.create'>;
  // The route checked the URL and kept it for the session's item; the item gets Plaid's bodies there.
  if (request.webhook !== undefined) await usePlaidWebhooksForLinkSession(call.deps, call.auth, answer.link_token);
  return {
    link_token: answer.link_token,
    expiration: answer.expiration,
    ...(request.hosted_link ? { hosted_link_url: `${call.baseUrl}/link?token=${encodeURIComponent(answer.link_token)}` } : {}),
  };
}

/** POST /item/public_token/exchange */
export async function itemPublicTokenExchange(call: InlineCall, body: unknown): Promise<Omit<Wire<ItemPublicTokenExchangeResponse>, 'request_id'>> {
  const { public_token } = parsePlaidRequest(ExchangeRequest, body);
  const answer = (await invokeRoute(linkTokenExchangeHandler, call, { public_token })) as ResponseOf<'link.token.exchange'>;
  return { access_token: answer.access_token, item_id: answer.item_id };
}
