// One webhook delivery attempt, invoked by the WebhookDelivery state machine (10 s task timeout).
// Placeholder: the webhooks issue fills it in (sign with the app's secret, POST, report the outcome).
import type { DeliveryOutcome } from './webhook-schedule';

export const handler = async (_input: unknown): Promise<DeliveryOutcome> => ({
  delivered: false,
  status: 0,
  error: 'not implemented',
});
