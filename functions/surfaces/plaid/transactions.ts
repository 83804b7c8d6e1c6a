// Transactions in Plaid's shape, and /transactions/sync, /transactions/get and /transactions/refresh
// over our transactions.sync, transactions.get and items.refresh.
//
// Pending and posted. We keep one transaction_id from authorization to posting: a pending row that
// posts is the same row, changed (our sync sends it in `modified`). Plaid models the two as two
// transactions: the posted one is new, names the pending one in `pending_transaction_id`, and the
// pending one is removed. This surface presents an authorization (a row with `authorized_datetime`)
// the Plaid way, with ids derived from ours alone, so that every page and both endpoints agree:
//
// - its pending phase has the id `<our id>_pending` (pendingPhaseIdOf), its posted phase our id,
//   with `pending_transaction_id` = the pending phase's id;
// - sync: a posted authorization in our `modified` is its posting: it goes out as `removed`
//   (the pending phase, with its account) plus `added` (the posted phase), in the same page;
//   a pending one in our `modified` stays `modified` under its pending id;
// - sync: our `removed` names neither the phase nor the account, so both phase ids are removed
//   (a removal of an id the caller never held is a no-op for it) with `account_id` null;
// - a row without `authorized_datetime` has one id throughout, ours, and posts in `modified` with
//   `pending_transaction_id` null (Plaid's own answer when it cannot match a pending transaction);
//   every posted row in our `modified` also removes its pending-phase id, so that a source whose
//   authorization time comes and goes between its pending and posted reports leaves no pending
//   phase behind (for any other row the removal is a no-op).
//
// What that cannot tell: our sync says a row was changed, not what the caller held before. A posted
// authorization corrected again after it posted (by the institution, or by re-enrichment) goes out
// as `added` once more under the id the caller holds, so it must be applied as an upsert; Plaid's
// recommended handling (upsert `added` and `modified`, delete `removed`) is exactly that. An
// authorization whose source never reported it pending still names a pending phase. Both are in
// docs/plaid-migration.md.
import type { Location, PaymentMeta, Transaction as PlaidTransaction, TransactionsGetResponse, TransactionsSyncResponse } from 'plaid';
import * as z from 'zod';
import { LIMITS } from '../../contracts/limits';
import type { ResponseOf } from '../../contracts/routes';
import type { TransactionRecord, TransactionsUpdateStatus } from '../../contracts/schemas';
import { handler as accountsGetHandler } from '../../api/accounts.get';
import { handler as itemsRefreshHandler } from '../../api/items.refresh';
import { handler as transactionsGetHandler } from '../../api/transactions.get';
import { handler as transactionsSyncHandler } from '../../api/transactions.sync';
import { invokeRoute, type InlineCall } from '../../platform/operation';
import { currencyFields, plaidAccountOf } from './accounts';
import { unsupportedField } from '../../core/plaid/errors';
import { ourItem, plaidItemOf } from './items';
import { personalFinanceCategoryOf } from './pfc';
import { parsePlaidRequest } from './requests';
import { PlaidAccessToken, plaidRequest, type Wire } from './wire';

export type PlaidTransactionWire = Wire<PlaidTransaction>;

/**
 * A removal as this surface sends it: Plaid's RemovedTransaction, except that `account_id` is null
 * when our feed does not say which account the row was in (the one field typed wider than Plaid's).
 */
export interface PlaidRemovedTransaction {
  transaction_id: string;
  account_id: string | null;
}

export type PlaidSyncResponse = Omit<Wire<TransactionsSyncResponse>, 'request_id' | 'removed'> & { removed: PlaidRemovedTransaction[] };

const PENDING_PHASE_SUFFIX = '_pending';

/** The id of an authorization's pending phase. */
export const pendingPhaseIdOf = (transactionId: string) => `${transactionId}${PENDING_PHASE_SUFFIX}`;

/** A card authorization: pending first, posted later (the rows Plaid presents as two transactions). */
const isAuthorization = (t: TransactionRecord) => t.authorized_datetime !== null;

/** The id a row has on this surface: an authorization's pending phase has its own. */
export const plaidTransactionIdOf = (t: TransactionRecord) => (isAuthorization(t) && t.pending ? pendingPhaseIdOf(t.transaction_id) : t.transaction_id);

/** A posted authorization names its pending phase; nothing else does. */
export const pendingTransactionIdOf = (t: TransactionRecord) => (isAuthorization(t) && !t.pending ? pendingPhaseIdOf(t.transaction_id) : null);

/** Ours has `transfer` besides Plaid's three; Plaid files bank-side movements (transfers too) under `other`. */
const PAYMENT_CHANNEL: Readonly<Record<TransactionRecord['payment_channel'], PlaidTransactionWire['payment_channel']>> = {
  online: 'online',
  in_store: 'in store',
  transfer: 'other',
  other: 'other',
};

const NO_LOCATION: Wire<Location> = { address: null, city: null, region: null, postal_code: null, country: null, lat: null, lon: null, store_number: null };
const NO_PAYMENT_META: Wire<PaymentMeta> = {
  reference_number: null,
  ppd_id: null,
  payee: null,
  by_order_of: null,
  payer: null,
  payment_method: null,
  payment_processor: null,
  reason: null,
};

export interface TransactionOptions {
  /** `options.include_original_description`: the raw descriptor (our `name`) in `original_description`. */
  includeOriginalDescription: boolean;
}

/**
 * One of our transactions as Plaid's. Ours has twelve fields; the rest of Plaid's are null (or left
 * out where Plaid declares them optional and not nullable) because we do not have them: location,
 * payment_meta, check_number, account_owner, logo_url, website, datetime (posting time),
 * transaction_code, merchant_entity_id, merchant_category_code, running_balance, the legacy
 * `category` and `category_id` (Plaid's pre-2023 taxonomy, which we do not derive).
 */
export function plaidTransactionOf(t: TransactionRecord, options: TransactionOptions): PlaidTransactionWire {
  return {
    account_id: t.account_id,
    amount: t.amount,
    ...currencyFields(t.iso_currency_code),
    category: null,
    category_id: null,
    check_number: null,
    date: t.date,
    location: NO_LOCATION,
    name: t.name,
    merchant_name: t.merchant_name,
    original_description: options.includeOriginalDescription ? t.name : null,
    payment_meta: NO_PAYMENT_META,
    pending: t.pending,
    pending_transaction_id: pendingTransactionIdOf(t),
    account_owner: null,
    transaction_id: plaidTransactionIdOf(t),
    logo_url: null,
    website: null,
    // While pending our `date` is the authorization date itself.
    authorized_date: t.authorized_datetime?.slice(0, 10) ?? (t.pending ? t.date : null),
    authorized_datetime: t.authorized_datetime,
    datetime: null,
    payment_channel: PAYMENT_CHANNEL[t.payment_channel],
    personal_finance_category: personalFinanceCategoryOf(t.category, t.category_detailed),
    business_finance_category: null,
    transaction_code: null,
    merchant_entity_id: null,
    merchant_category_code: null,
    running_balance: null,
    client_customization: null,
  };
}

/** One page of our sync as Plaid's added, modified and removed (see the header for the pending rules). */
export function plaidSyncChanges(
  page: { added: readonly TransactionRecord[]; modified: readonly TransactionRecord[]; removed: readonly { transaction_id: string }[] },
  options: TransactionOptions,
): Pick<PlaidSyncResponse, 'added' | 'modified' | 'removed'> {
  const added = page.added.map((t) => plaidTransactionOf(t, options));
  const modified: PlaidTransactionWire[] = [];
  const removed: PlaidRemovedTransaction[] = [];
  for (const t of page.modified) {
    // Any posted row may have been held as a pending phase (its authorization time can differ between
    // the source's pending and posted reports): removing that id is the posting, or a no-op.
    if (!t.pending) removed.push({ transaction_id: pendingPhaseIdOf(t.transaction_id), account_id: t.account_id });
    (isAuthorization(t) && !t.pending ? added : modified).push(plaidTransactionOf(t, options));
  }
  for (const { transaction_id } of page.removed) {
    removed.push({ transaction_id: pendingPhaseIdOf(transaction_id), account_id: null }, { transaction_id, account_id: null });
  }
  return { added, modified, removed };
}

const UPDATE_STATUS: Readonly<Record<TransactionsUpdateStatus, PlaidSyncResponse['transactions_update_status']>> = {
  not_ready: 'NOT_READY',
  initial_update_complete: 'INITIAL_UPDATE_COMPLETE',
  historical_update_complete: 'HISTORICAL_UPDATE_COMPLETE',
};

/** The PFC version and enrichment switches Plaid accepts; every one is accepted, none changes the answer but the original description. */
const TransactionOptionsShape = {
  include_original_description: z.boolean().nullable().optional(),
  include_personal_finance_category: z.boolean().optional(),
  include_personal_finance_category_beta: z.boolean().optional(),
  include_logo_and_counterparty_beta: z.boolean().optional(),
  personal_finance_category_version: z.enum(['v1', 'v2']).optional(),
  days_requested: z.number().optional(),
};

const SyncRequest = plaidRequest({
  access_token: PlaidAccessToken,
  cursor: z.string().optional(),
  count: z.number().optional(),
  options: z.strictObject({ ...TransactionOptionsShape, account_id: z.string().optional() }).optional(),
});

const GetRequest = plaidRequest({
  access_token: PlaidAccessToken,
  start_date: z.string(),
  end_date: z.string(),
  options: z.strictObject({ ...TransactionOptionsShape, account_ids: z.array(z.string()).optional(), count: z.number().optional(), offset: z.number().optional() }).optional(),
});

const TokenRequest = plaidRequest({ access_token: PlaidAccessToken });

type SyncAnswer = ResponseOf<'transactions.sync'>;

/** Plaid's special cursor for moving a /transactions/get integration to sync: start from now. */
const NOW_CURSOR = 'now';

/**
 * The cursor at the end of the item's feed, for `cursor: "now"`: our sync read to its end from the
 * beginning, nothing of it returned (Plaid documents the value only for that migration).
 */
async function cursorAtNow(call: InlineCall, accessToken: string): Promise<SyncAnswer> {
  let cursor: string | undefined;
  for (;;) {
    const page = (await invokeRoute(transactionsSyncHandler, call, { access_token: accessToken, count: LIMITS.pageMax, ...(cursor ? { cursor } : {}) })) as SyncAnswer;
    if (!page.has_more) return { ...page, added: [], modified: [], removed: [] };
    cursor = page.next_cursor;
  }
}

/** POST /transactions/sync */
export async function transactionsSync(call: InlineCall, body: unknown): Promise<PlaidSyncResponse> {
  const request = parsePlaidRequest(SyncRequest, body);
  if (request.options?.account_id !== undefined) {
    throw unsupportedField('options.account_id is not supported: cursors here cover the whole item. Sync without it and filter by account_id.');
  }
  const options: TransactionOptions = { includeOriginalDescription: request.options?.include_original_description === true };
  const page =
    request.cursor === NOW_CURSOR
      ? await cursorAtNow(call, request.access_token)
      : ((await invokeRoute(transactionsSyncHandler, call, {
          access_token: request.access_token,
          // Plaid's first call sends an empty cursor; ours is then absent.
          ...(request.cursor ? { cursor: request.cursor } : {}),
          ...(request.count !== undefined ? { count: request.count } : {}),
        })) as SyncAnswer);
  const accounts = ((await invokeRoute(accountsGetHandler, call, { access_token: request.access_token })) as ResponseOf<'accounts.get'>).accounts;
  const changes = plaidSyncChanges(page, options);
  const nothing = changes.added.length === 0 && changes.modified.length === 0 && changes.removed.length === 0;
  return {
    transactions_update_status: UPDATE_STATUS[page.transactions_update_status],
    accounts: accounts.map(plaidAccountOf),
    ...changes,
    // Plaid answers an empty cursor while nothing is loaded yet; starting again from it is the same as
    // from ours, since nothing was delivered.
    next_cursor: page.transactions_update_status === 'not_ready' && nothing && !page.has_more ? '' : page.next_cursor,
    has_more: page.has_more,
  };
}

/** POST /transactions/get */
export async function transactionsGet(call: InlineCall, body: unknown): Promise<Omit<Wire<TransactionsGetResponse>, 'request_id'>> {
  const request = parsePlaidRequest(GetRequest, body);
  const { account_ids: accountIds, count, offset } = request.options ?? {};
  const pageOptions = {
    ...(accountIds?.length ? { account_ids: accountIds } : {}),
    ...(count !== undefined ? { count } : {}),
    ...(offset !== undefined ? { offset } : {}),
  };
  const answer = (await invokeRoute(transactionsGetHandler, call, {
    access_token: request.access_token,
    start_date: request.start_date,
    end_date: request.end_date,
    ...(Object.keys(pageOptions).length > 0 ? { options: pageOptions } : {}),
  })) as ResponseOf<'transactions.get'>;
  const item = await ourItem(call, request.access_token);
  const options: TransactionOptions = { includeOriginalDescription: request.options?.include_original_description === true };
  return {
    accounts: answer.accounts.map(plaidAccountOf),
    transactions: answer.transactions.map((t) => plaidTransactionOf(t, options)),
    total_transactions: answer.total_transactions,
    item: plaidItemOf(item, null),
  };
}

/** POST /transactions/refresh: starts a refresh; new data is announced by SYNC_UPDATES_AVAILABLE. */
export async function transactionsRefresh(call: InlineCall, body: unknown): Promise<Record<string, never>> {
  const { access_token } = parsePlaidRequest(TokenRequest, body);
  await invokeRoute(itemsRefreshHandler, call, { access_token });
  return {};
}
