// What the workflows pass to the workers. Shared by the state machine definitions (CDK and the
// local runner) and the worker handlers, so both runtimes agree on every field.
import type { Environment } from '../data/keys';

/** Input of one WebhookDelivery execution: one event to one endpoint. */
export interface DeliveryExecutionInput {
  /** `<event_id>:<endpoint_id>`; also the execution name, so a duplicate start is refused. */
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  application_id: string;
  environment: Environment;
}

/** The delivery worker's input for one attempt (1-based). */
export interface DeliveryAttemptInput extends DeliveryExecutionInput {
  attempt: number;
}

/** Input of one ItemRefresh execution. */
export interface RefreshExecutionInput {
  item_id: string;
  /** Why: on demand (/v1/items/refresh) or the periodic schedule. */
  reason: 'on_demand' | 'scheduled';
}
