// One webhook retry attempt, invoked by the WebhookDelivery state machine (30 s task timeout, 10 s
// worker timeout): reads the delivery, its endpoint and the secret record in one batch, signs the
// body the execution carries with a fresh timestamp, POSTs, and appends the attempt. (The first
// attempt of a delivery is made by the dispatch worker.) A malformed input throws, which the state
// machine counts as a failed attempt.
import { deliverAttempt } from '../app/webhooks';
import { DeliveryAttemptInput, parseWorkerMessage, type DeliveryOutcome } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('webhook-delivery', async (input: unknown): Promise<DeliveryOutcome> =>
  deliverAttempt(runtime(), parseWorkerMessage(DeliveryAttemptInput, 'delivery attempt input', input)),
);
