// Ports for background work. Each has an AWS adapter (functions/platform/aws-ports.ts: SQS and
// Step Functions) and a local one (functions/platform/local/local-ports.ts: in process, same
// workers, same schedule).
import type { DeliveryExecutionInput, RefreshExecutionInput } from '../contracts/worker-messages';

/** Hands a committed event (already in the outbox) to delivery. */
export interface EventBus {
  /** Resolves once the event's dispatch is durable (the outbox lets go of the event after that). */
  publish(eventId: string): Promise<void>;
}

/** Queues an item refresh; refreshes of one item run one at a time. */
export interface RefreshQueue {
  enqueue(input: RefreshExecutionInput): Promise<void>;
  /**
   * Queues many refreshes with as few calls as the queue allows (SQS: SendMessageBatch, 10 a call),
   * retrying entries the queue refused. Resolves with the inputs still refused after the retries
   * (empty when all were queued); the caller leaves those for its next pass.
   */
  enqueueMany(inputs: readonly RefreshExecutionInput[]): Promise<RefreshExecutionInput[]>;
}

/**
 * Starts one delivery workflow (the retries of a delivery whose first attempt failed, or a
 * replay); false when one with the same delivery_id already exists.
 */
export interface DeliveryStarter {
  start(input: DeliveryExecutionInput): Promise<boolean>;
}

export interface BackgroundPorts {
  eventBus: EventBus;
  refreshQueue: RefreshQueue;
  deliveries: DeliveryStarter;
}

/**
 * The deployment's connector configuration (functions/core/connectors.ts: each connector's
 * credential variables and optional base URLs), variable name -> value. On AWS it is the stage's
 * Secrets Manager secret, read once per container and cached (aws-ports.ts); locally, the
 * environment. Only live traffic consults it: test keys reach the simulator.
 */
export interface ConnectorConfigSource {
  load(): Promise<Readonly<Record<string, string | undefined>>>;
}
