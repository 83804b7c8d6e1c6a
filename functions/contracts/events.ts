// The webhook event catalogue: every event type Fincore delivers, the schema of its payload
// (`data`), and the sample the sandbox fires on demand. Everything else derives from this table:
// the list of types, the payload type emitters must supply, the sandbox's fire_webhook enum and the
// `webhooks` section of openapi.json. A new event type is one entry here (plus its tests).
//
// Every delivery's body is the envelope `{"id","type","created","data"}` with exactly those keys
// in that order (app/webhooks.ts `eventBody` writes it; receivers verify the signature over those
// bytes, so the order never changes).
import * as z from 'zod';
import { monthlyQuotaResetAt, PLANS } from './limits';
import { ItemError, Timestamp } from './schemas';

/** Delivery headers besides the signature pair of core/webhook-signature.ts. */
export const EVENT_ID_HEADER = 'FC-Event-Id';
export const DELIVERY_ATTEMPT_HEADER = 'FC-Delivery-Attempt';

/** What the sandbox knows when it fires an event on demand (POST /v1/sandbox/fire_webhook). */
export interface SampleContext {
  itemId: string;
  /** The item's own error, or the one a login reset would set when the item is healthy. */
  itemError: z.output<typeof ItemError>;
  /** Unix milliseconds. */
  now: number;
}

interface EventDefinition<Data extends z.ZodObject> {
  /** One line for openapi.json. */
  summary: string;
  /** When the event fires and what the receiver does with it. */
  description: string;
  data: Data;
  /** The payload the sandbox sends for this type: the shape a real emitter produces. */
  sample(context: SampleContext): z.output<Data>;
}

const defineEvent = <Data extends z.ZodObject>(definition: EventDefinition<Data>) => definition;

const ItemId = /* @__PURE__ */ z.string().meta({ description: 'The item the event is about.' });


// Key order is the order of EVENT_TYPES (and of the fire_webhook enum in openapi.json).
export const EVENT_CATALOGUE = /* @__PURE__ */ (() =>
  ({
    'transactions.sync_updates_available': defineEvent({
      summary: 'New transaction changes can be fetched with /v1/transactions/sync',
      description:
        "The item's transaction feed advanced (first pull, a refresh or ongoing syncing). Call `/v1/transactions/sync` with your stored cursor; it returns whatever changed, however many of these arrived.",
      data: z.object({
        item_id: ItemId,
        initial_update_complete: z.boolean(),
        historical_update_complete: z.boolean(),
      }),
      sample: ({ itemId }) => ({ item_id: itemId, initial_update_complete: true, historical_update_complete: true }),
    }),
    'item.error': defineEvent({
      summary: 'An item entered login_required or error',
      description:
        'The institution login broke (stale credentials or a connector failure). Calls that need the institution answer an item error until the user repairs the item in Link update mode; cached data keeps serving.',
      data: z.object({ item_id: ItemId, error: ItemError }),
      sample: ({ itemId, itemError }) => ({ item_id: itemId, error: itemError }),
    }),
    'item.login_repaired': defineEvent({
      summary: 'An item that was not healthy was repaired in Link update mode',
      description: 'The item is healthy again; institution calls work again with the access token the update-mode exchange returned.',
      data: z.object({ item_id: ItemId }),
      sample: ({ itemId }) => ({ item_id: itemId }),
    }),
    'item.webhook_updated': defineEvent({
      summary: "An item's webhook URL was set, changed or cleared",
      description:
        "`/v1/item/webhook/update` changed the item's own webhook URL. Delivered to the environment's endpoints and to the new URL (none when it was cleared), so the new receiver learns at once that it is wired up; events about the item go to the new URL from now on.",
      data: z.object({
        item_id: ItemId,
        new_webhook_url: z.string().nullable().meta({ description: "The item's webhook URL from now on; null when it was cleared." }),
      }),
      sample: ({ itemId }) => ({ item_id: itemId, new_webhook_url: 'https://hooks.example.com/fincore' }),
    }),
    'usage.limit_approaching': defineEvent({
      summary: 'A monthly plan quota is about to be exhausted',
      description: 'Fires once per month per quota when its use reaches 80 %, and again at 95 %.',
      data: z.object({
        quota: z.enum(['api', 'ai']).meta({ description: 'Which monthly quota: API requests or AI requests.' }),
        threshold_percent: z.int().min(1).max(100),
        used: z.int().min(0).meta({ description: 'Units used this month, including the request that crossed the threshold.' }),
        limit: z.int().min(1).meta({ description: "The plan's monthly quota." }),
        resets_at: Timestamp,
      }),
      sample: ({ now }) => {
        const limit = PLANS.free.apiPerMonth;
        return { quota: 'api' as const, threshold_percent: 80, used: Math.ceil(limit * 0.8), limit, resets_at: new Date(monthlyQuotaResetAt(now)).toISOString() };
      },
    }),
  }) as const)();

type Catalogue = typeof EVENT_CATALOGUE;
export type EventType = keyof Catalogue;
/** The payload (`data`) of one event type. */
export type EventData<T extends EventType> = z.output<Catalogue[T]['data']>;

export const EVENT_TYPES = /* @__PURE__ */ Object.keys(EVENT_CATALOGUE) as [EventType, ...EventType[]];

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The delivered body of one event type, as openapi.json publishes it (`<PascalType>Event`). */
function envelopeOf<T extends EventType>(type: T) {
  const { data, summary } = EVENT_CATALOGUE[type];
  return z
    .object({
      id: z.string().meta({ description: 'Event id (`evt_...`): the same on every attempt and replay; de-duplicate on it.' }),
      type: z.literal(type),
      created: z.int().min(0).meta({ description: 'When the event happened, Unix seconds.' }),
      data: data.meta({ id: `${pascal(type)}EventData` }),
    })
    .meta({ id: `${pascal(type)}Event`, description: `${summary}.` });
}

export const EVENT_ENVELOPES = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ EVENT_TYPES.map((type) => [type, envelopeOf(type)])) as {
  [T in EventType]: ReturnType<typeof envelopeOf<T>>;
};

/**
 * Checks a payload against its type's schema, unknown keys included (they would reach receivers
 * undeclared); throws a ZodError naming the offending field.
 */
export function assertEventData<T extends EventType>(type: T, data: EventData<T>): void {
  z.strictObject(EVENT_CATALOGUE[type].data.shape).parse(data);
}

/** The payload the sandbox fires for a type. */
export function sampleEventData<T extends EventType>(type: T, context: SampleContext): EventData<T> {
  return EVENT_CATALOGUE[type].sample(context) as EventData<T>;
}
