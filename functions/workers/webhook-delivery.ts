// One webhook delivery attempt, invoked by the WebhookDelivery state machine (10 s task timeout):
// signs with the environment's secrets and a fresh timestamp, POSTs, records the attempt.
import { deliverAttempt } from '../app/webhooks';
import { runtime } from '../platform/runtime';
import type { DeliveryAttemptInput } from './contracts';
import type { DeliveryOutcome } from './webhook-schedule';

export const handler = async (input: DeliveryAttemptInput): Promise<DeliveryOutcome> => deliverAttempt(runtime(), input);
