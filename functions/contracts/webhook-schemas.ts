// Schemas of the webhook management operations (/v1/webhooks/...).
import * as z from 'zod';

export const WebhookEndpoint = /* @__PURE__ */ z
  .object({ endpoint_id: z.string(), url: z.string(), created_at: z.string() })
  .meta({ id: 'WebhookEndpoint' });

export const WebhookAttempt = /* @__PURE__ */ z
  .object({
    attempt: z.int().min(1),
    at: z.string(),
    status_code: z.int().nullable(),
    latency_ms: z.int().min(0),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDelivery = /* @__PURE__ */ z
  .object({
    delivery_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    endpoint_id: z.string(),
    url: z.string(),
    status: z.enum(['pending', 'delivered', 'dead_lettered', 'cancelled']),
    attempts: z.array(WebhookAttempt),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
