// What the queues, the workflows and the schedule hand to the workers. Shared by the senders (the
// AWS and local adapters of platform/ports.ts), the state machine definitions and the worker
// handlers, which parse every message with these schemas: a malformed one fails loudly instead of
// being treated as valid.
import * as z from 'zod';
import { ENVIRONMENTS } from './schemas';

const KeyEnvironment = /* @__PURE__ */ z.enum(ENVIRONMENTS);

/** A message on the webhook-events queue: one committed event to dispatch. */
export const EventMessage = /* @__PURE__ */ (() => z.object({ event_id: z.string().min(1) }))();
export type EventMessage = z.infer<typeof EventMessage>;

/**
 * How long one webhook POST may take (DNS, connect, send, response headers). The dispatcher makes
 * the first attempt and the delivery worker the retries; both bound each POST with this, and their
 * Lambda timeouts are derived from it (functions/workers/state-machines.ts).
 */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 9_000;

/** Which delivery: one event to one destination (an endpoint, or an item's own webhook URL). */
export const DeliveryRef = /* @__PURE__ */ (() =>
  z.object({
    /** `<event_id>:<endpoint_id>:<replay>`; also the execution name, so a duplicate start is refused. */
    delivery_id: z.string().min(1),
    event_id: z.string().min(1),
    /** The endpoint's id (`whep_...`), or the item's (`item_...`) for a delivery to its own webhook URL. */
    endpoint_id: z.string().min(1),
    application_id: z.string().min(1),
    environment: KeyEnvironment,
  }))();
export type DeliveryRef = z.infer<typeof DeliveryRef>;

/**
 * Input of one WebhookDelivery execution: the delivery, what every attempt sends, and how many
 * attempts were made before the execution started (the state machine starts at the next one).
 */
export const DeliveryExecutionInput = /* @__PURE__ */ (() =>
  DeliveryRef.extend({
    /**
     * The exact body every attempt sends, carried so that no attempt reads the event again. Null
     * only in an execution recorded before bodies were carried: its attempts read the event.
     */
    body: z.string().nullable().default(null),
    /**
     * Attempts already made: 1 when dispatch made the first attempt itself and it failed (the
     * execution then begins with the wait before attempt 2), 0 for a replay (it begins with attempt 1).
     */
    attempts_made: z.int().min(0).default(0),
  }))();
export type DeliveryExecutionInput = z.infer<typeof DeliveryExecutionInput>;
/** An execution input as stored before its defaults were filled in (rows and inputs of older executions). */
export type DeliveryExecutionStart = z.input<typeof DeliveryExecutionInput>;

/**
 * The delivery worker's input for one attempt (1-based). The body is optional here: executions
 * started before bodies were carried pass none, and their attempts read the event.
 */
export const DeliveryAttemptInput = /* @__PURE__ */ (() => DeliveryRef.extend({ body: z.string().nullable().optional(), attempt: z.int().min(1) }))();
export type DeliveryAttemptInput = z.infer<typeof DeliveryAttemptInput>;

/** What the delivery worker returns to the state machine for one attempt (its Choice reads `delivered`). */
export interface DeliveryOutcome {
  delivered: boolean;
  /** HTTP status of the customer's endpoint; 0 when no response arrived. */
  status: number;
  error?: string;
}

/** The dead-letter worker's input: which delivery, and how many attempts were made. */
export const DeadLetterInput = /* @__PURE__ */ (() => DeliveryRef.extend({ attempts: z.int().min(1) }))();
export type DeadLetterInput = z.infer<typeof DeadLetterInput>;

/** Input of one ItemRefresh execution, and the body of an item-refresh queue message. */
export const RefreshExecutionInput = /* @__PURE__ */ (() =>
  z.object({
    item_id: z.string().min(1),
    /**
     * Why: on demand (/v1/items/refresh), the periodic schedule, the history load Link queues when
     * it connects an item, or the sync Link's update mode queues when it repairs one. Whatever the
     * reason, an item whose history is not loaded yet gets it loaded first (functions/app/lifecycle.ts refreshItem).
     */
    reason: z.enum(['on_demand', 'scheduled', 'initial_history', 'login_repaired', 'item_removed']),
  }))();
export type RefreshExecutionInput = z.infer<typeof RefreshExecutionInput>;

/**
 * The EventBridge scheduled event that starts the scheduled-refresh worker. Only its kind matters
 * (nothing in it is read); checking it keeps the worker from running on an arbitrary invocation.
 */
export const RefreshScheduleEvent = /* @__PURE__ */ (() =>
  z.object({
    source: z.literal('aws.events'),
    'detail-type': z.literal('Scheduled Event'),
    time: z.string(),
  }))();
export type RefreshScheduleEvent = z.infer<typeof RefreshScheduleEvent>;

/**
 * Parses one worker message; the error names the message kind and the offending fields, so a
 * poisoned message is recognisable in the logs and the dead-letter queue.
 */
export function parseWorkerMessage<S extends z.ZodType>(schema: S, kind: string, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new MalformedWorkerMessage(kind, result.error);
  return result.data;
}

/** Parses a queue message body (JSON text) with its schema. */
export function parseQueueBody<S extends z.ZodType>(schema: S, kind: string, body: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new MalformedWorkerMessage(kind, null);
  }
  return parseWorkerMessage(schema, kind, value);
}

export class MalformedWorkerMessage extends Error {
  constructor(kind: string, issues: z.ZodError | null) {
    super(issues ? `malformed ${kind}: ${z.prettifyError(issues).replace(/\n/g, '; ')}` : `malformed ${kind}: the body is not JSON`);
    this.name = 'MalformedWorkerMessage';
  }
}
