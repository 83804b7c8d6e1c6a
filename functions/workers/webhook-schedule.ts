// When webhook deliveries are attempted, in seconds after the previous failure (spec §webhooks 5:
// "retry at delays of 0s, 1m, 5m, 30m, 2h"). Dispatch makes the first attempt itself; the
// WebhookDelivery state machine, generated from this list, makes the others, and the delivery
// worker reports the attempt number against it.
export const WEBHOOK_RETRY_DELAYS_SECONDS = [0, 60, 300, 1800, 7200] as const;
