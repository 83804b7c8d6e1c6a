// The outbox: an event row is written before or atomically with the change it announces, flagged
// unpublished; publishing hands it to the event bus and clears the flag only once the bus holds it
// durably (on AWS: SQS accepted the message; locally: dispatch has made the first attempts and
// written their delivery rows, and the execution rows of the failed ones). A crash in between leaves the event in the outbox for the sweep
// (app/webhooks.ts `sweepOutbox`), and dispatch is idempotent. Clearing the flag also starts the
// event's retention (its TTL): an event in the outbox never expires, however long it waits there. Here, in the data layer, so that app
// code and the HTTP middleware (usage notices) emit events the same way.
import { assertEventData, type EventData, type EventType } from '../contracts/events';
import { randomToken } from '../core/api-keys';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import type { Environment } from '../contracts/schemas';
import { markPublished, putEvent, type ItemWebhook, type NewEventRecord, type WebhookFormat } from './webhooks-repo';

/** Whose event it is: an event goes to the endpoints of one application and environment. */
export interface EventTenant {
  applicationId: string;
  environment: Environment;
}

/** An item as emitters hold it (an ItemRecord): an event about it goes to its own webhook URL too. */
export interface EventItem extends EventTenant {
  itemId: string;
  webhook: string | null;
  /** Null: a URL stored before items had their own (an endpoint receives the item's events). */
  webhookFormat: WebhookFormat | null;
}

/**
 * The item's own webhook URL, recorded on the event when the event is about that item (its
 * `item_id`): dispatch delivers there without reading the item.
 */
function itemWebhookOf(t: EventTenant | EventItem, data: object): ItemWebhook | null {
  if (!('itemId' in t) || typeof t.webhook !== 'string' || !t.webhookFormat || (data as { item_id?: unknown }).item_id !== t.itemId) return null;
  return { itemId: t.itemId, url: t.webhook, format: t.webhookFormat };
}

/**
 * The event row, not yet written (callers that commit it with their change use `eventPut`). Where
 * responses are validated (tests), the payload is checked against the event catalogue too. Given
 * the item the event is about (rather than only its tenant), the event also goes to the item's own
 * webhook URL, as the item has it now.
 */
export function newEvent<T extends EventType>(deps: Deps, t: EventTenant | EventItem, type: T, data: EventData<T>): NewEventRecord {
  if (deps.config.validateResponses) assertEventData(type, data);
  return {
    eventId: `evt_${randomToken(24)}`,
    type,
    created: Math.floor(deps.clock.now() / 1000),
    applicationId: t.applicationId,
    environment: t.environment,
    data,
    itemWebhook: itemWebhookOf(t, data),
  };
}

/**
 * Hands an already-recorded event to the bus and, once the bus has it durably, takes it out of the
 * outbox; a failure (or a crash before) leaves it in the outbox for the sweep.
 */
export async function publishEvent(deps: Deps, eventId: string): Promise<boolean> {
  try {
    await deps.ports.eventBus.publish(eventId);
    await markPublished(deps, eventId);
    return true;
  } catch (err) {
    logger.warn('event left in the outbox for the sweep', { event_id: eventId, error: (err as Error).message });
    return false;
  }
}

/** Records an event in the outbox and publishes it. */
export async function emitEvent<T extends EventType>(deps: Deps, t: EventTenant | EventItem, type: T, data: EventData<T>): Promise<string> {
  const event = newEvent(deps, t, type, data);
  await putEvent(deps, event);
  await publishEvent(deps, event.eventId);
  return event.eventId;
}
