// Items in Plaid's shape, and /item/get and /item/remove over our items.get and items.remove, and
// /item/webhook/update: the item's own webhook URL, Plaid-shaped from then on (Plaid's bodies with
// Plaid-Verification), with ITEM WEBHOOK_UPDATE_ACKNOWLEDGED sent to the new URL.
//
// Field by field: item_id, institution_id, institution_name and created_at are ours. `error` is the
// item's error as Plaid's error object (functions/core/plaid/errors.ts plaidItemError). Products: what the item
// consented to is `products`, `billed_products` and `consented_products` alike (we bill requests, not
// products); `available_products` is empty, since we do not track products an institution offers
// that the item has not added. `webhook` is the URL given at Link (filled by /item/get; the other
// endpoints that embed the item leave it null rather than read the item twice). `update_type` is
// `background`: our refreshes never need the user present. `consent_expiration_time` and
// `auth_method` are null (not tracked). /item/get's `status.transactions` carries our last successful
// sync and, while the last pull failed, when it failed; `last_webhook` is null (not tracked per item).
import type { Item as PlaidItem, ItemGetResponse, ItemWebhookUpdateResponse, ItemWithConsentFields } from 'plaid';
import * as z from 'zod';
import { updatePlaidItemWebhook } from '../../app/webhooks';
import type { ResponseOf } from '../../contracts/routes';
import { handler as itemsGetHandler } from '../../api/items.get';
import { handler as itemsRemoveHandler } from '../../api/items.remove';
import { fail } from '../../contracts/errors';
import { itemForAccessToken } from '../../data/items-repo';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { plaidItemError } from '../../core/plaid/errors';
import { plaidProductsOf } from './products';
import { parsePlaidRequest } from './requests';
import { PlaidAccessToken, plaidRequest, type Wire } from './wire';

export type OurItem = ResponseOf<'items.get'>['item'];

export function plaidItemOf(item: OurItem, webhook: string | null): Wire<PlaidItem> {
  const products = plaidProductsOf(item.consented_products);
  return {
    item_id: item.item_id,
    institution_id: item.institution_id,
    institution_name: item.institution_name,
    webhook,
    auth_method: null,
    error: item.error ? plaidItemError(item.error) : null,
    available_products: [],
    billed_products: products,
    products,
    consented_products: products,
    consent_expiration_time: null,
    update_type: 'background',
  };
}

export function plaidItemWithConsentOf(item: OurItem, webhook: string | null): Wire<ItemWithConsentFields> {
  return { ...plaidItemOf(item, webhook), created_at: item.created_at };
}

const TokenRequest = plaidRequest({ access_token: PlaidAccessToken });
const RemoveRequest = plaidRequest({ access_token: PlaidAccessToken }, ['reason_code', 'reason_note']);
// Plaid's webhook is optional and nullable; either way, left out it clears the URL as null does.
const WebhookUpdateRequest = plaidRequest({ access_token: PlaidAccessToken, webhook: z.string().nullable().optional() });

/** Our item of an access token, through items.get (token, consent and errors exactly as over REST). */
export async function ourItem(call: InlineCall, accessToken: string): Promise<OurItem> {
  return ((await invokeRoute(itemsGetHandler, call, { access_token: accessToken })) as ResponseOf<'items.get'>).item;
}

/** POST /item/get */
export async function itemGet(call: InlineCall, body: unknown): Promise<Omit<Wire<ItemGetResponse>, 'request_id'>> {
  const { access_token } = parsePlaidRequest(TokenRequest, body);
  const item = await ourItem(call, access_token);
  // The webhook URL is stored with the item but not part of our item answer.
  const record = await itemForAccessToken(call.deps, access_token, call.auth.applicationId, call.auth.environment);
  return {
    item: plaidItemWithConsentOf(item, record?.webhook ?? null),
    status: {
      transactions: { last_successful_update: item.last_successful_sync, last_failed_update: item.last_sync_error?.occurred_at ?? null },
      last_webhook: null,
    },
  };
}

/** POST /item/remove (`reason_code` and `reason_note` are accepted and not kept). */
export async function itemRemove(call: InlineCall, body: unknown): Promise<Record<string, never>> {
  const { access_token } = parsePlaidRequest(RemoveRequest, body);
  await invokeRoute(itemsRemoveHandler, call, { access_token });
  return {};
}

/**
 * POST /item/webhook/update. The access token is resolved through items.get (the same refusals as
 * every item endpoint); the URL is checked as our route checks it, then kept as the item's with
 * Plaid's format.
 */
export async function itemWebhookUpdate(call: InlineCall, body: unknown): Promise<Omit<Wire<ItemWebhookUpdateResponse>, 'request_id'>> {
  const { access_token, webhook } = parsePlaidRequest(WebhookUpdateRequest, body);
  const item = await ourItem(call, access_token);
  const record = (await itemForAccessToken(call.deps, access_token, call.auth.applicationId, call.auth.environment)) ?? fail('invalid_access_token');
  const updated = await updatePlaidItemWebhook(call.deps, record, webhook ?? null);
  return { item: plaidItemOf(item, updated.item.webhook) };
}
