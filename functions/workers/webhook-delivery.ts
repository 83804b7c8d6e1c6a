// One webhook delivery attempt, invoked by the WebhookDelivery state machine (10 s task timeout):
// signs with the environment's secrets and a fresh timestamp, POSTs, records the attempt. A
// malformed input throws, which the state machine counts as a failed attempt.
import { deliverAttempt } from '../app/webhooks';
import { DeliveryAttemptInput, parseWorkerMessage, type DeliveryOutcome } from '../contracts/worker-messages';
import { runtime } from '../platform/runtime';
import { defineWorker } from './define-worker';

export const handler = defineWorker('webhook-delivery', async (input: unknown): Promise<DeliveryOutcome> =>
  deliverAttempt(runtime(), parseWorkerMessage(DeliveryAttemptInput, 'delivery attempt input', input)),
);
