// Our webhook events as Plaid's webhook bodies (`webhook_type` / `webhook_code`), pure functions for
// the delivery to call. The body is sent with the `Plaid-Verification` header of ./webhook-jwt.ts,
// whose `request_body_sha256` covers the exact bytes renderPlaidWebhook returns.
//
// | our event                              | Plaid webhook                                          |
// |----------------------------------------|--------------------------------------------------------|
// | transactions.sync_updates_available    | TRANSACTIONS SYNC_UPDATES_AVAILABLE (initial/historical_update_complete) |
// | item.error                             | ITEM ERROR (`error` as Plaid's error object)           |
// | item.login_repaired                    | ITEM LOGIN_REPAIRED                                    |
// | item.webhook_updated (to a new URL)    | ITEM WEBHOOK_UPDATE_ACKNOWLEDGED (`new_webhook_url`)   |
// | usage.limit_approaching                | none: Plaid has no such webhook                        |
//
// Not sent: the legacy TRANSACTIONS INITIAL_UPDATE / HISTORICAL_UPDATE / DEFAULT_UPDATE (they carry
// a count of new transactions that our event does not), TRANSACTIONS_REMOVED, and the ITEM webhooks
// for events we do not have (PENDING_EXPIRATION, USER_PERMISSION_REVOKED, NEW_ACCOUNTS_AVAILABLE, ...).
import type { ItemErrorWebhook, ItemLoginRepairedWebhook, SyncUpdatesAvailableWebhook, WebhookUpdateAcknowledgedWebhook } from 'plaid';
import type { EventData, EventType } from '../../contracts/events';
import type { Environment } from '../../contracts/schemas';
import { plaidItemError } from './errors';
import { plaidEnvironmentOf, type Wire } from './wire';

export type PlaidWebhookBody = Wire<SyncUpdatesAvailableWebhook> | Wire<ItemErrorWebhook> | Wire<ItemLoginRepairedWebhook> | Wire<WebhookUpdateAcknowledgedWebhook>;

/** The Plaid webhook codes /sandbox/item/fire_webhook can fire, and the event of ours each one is. */
export const FIRE_WEBHOOK_EVENTS: Readonly<Record<string, { webhookType: 'TRANSACTIONS' | 'ITEM'; event: EventType }>> = {
  SYNC_UPDATES_AVAILABLE: { webhookType: 'TRANSACTIONS', event: 'transactions.sync_updates_available' },
  ERROR: { webhookType: 'ITEM', event: 'item.error' },
  LOGIN_REPAIRED: { webhookType: 'ITEM', event: 'item.login_repaired' },
};

type EventOf<T extends EventType> = { type: T; data: EventData<T> };
export type AnyEvent = { [T in EventType]: EventOf<T> }[EventType];

/** The Plaid webhook an event of ours is delivered as; null for an event Plaid has no webhook for. */
export function plaidWebhookOf(event: AnyEvent, environment: Environment): PlaidWebhookBody | null {
  const plaidEnvironment = plaidEnvironmentOf(environment);
  switch (event.type) {
    case 'transactions.sync_updates_available':
      return {
        webhook_type: 'TRANSACTIONS',
        webhook_code: 'SYNC_UPDATES_AVAILABLE',
        item_id: event.data.item_id,
        initial_update_complete: event.data.initial_update_complete,
        historical_update_complete: event.data.historical_update_complete,
        environment: plaidEnvironment,
      };
    case 'item.error':
      return { webhook_type: 'ITEM', webhook_code: 'ERROR', item_id: event.data.item_id, error: plaidItemError(event.data.error), environment: plaidEnvironment };
    case 'item.login_repaired':
      return { webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: event.data.item_id, environment: plaidEnvironment };
    case 'item.webhook_updated':
      // Plaid acknowledges a new URL only; a cleared one has nothing to send it to.
      return event.data.new_webhook_url === null
        ? null
        : { webhook_type: 'ITEM', webhook_code: 'WEBHOOK_UPDATE_ACKNOWLEDGED', item_id: event.data.item_id, new_webhook_url: event.data.new_webhook_url, error: null, environment: plaidEnvironment };
    case 'usage.limit_approaching':
      return null;
  }
}

/**
 * The body's bytes as sent: JSON indented by two spaces, as Plaid's own webhooks are. Receivers hash
 * the bytes they received, never a re-serialisation, so the layout only has to be stable.
 */
export function renderPlaidWebhook(body: PlaidWebhookBody): string {
  return JSON.stringify(body, null, 2);
}
