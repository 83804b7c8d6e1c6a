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
    destination: z.enum(['endpoint', 'item']).meta({
      description: 'Where the delivery went: a registered endpoint, or the webhook URL of the item the event is about (set at link token creation or with /v1/item/webhook/update).',
    }),
    endpoint_id: z.string().meta({ description: 'The endpoint’s id (`whep_...`); for `destination: item`, the item’s id (`item_...`). Replay takes either as `endpoint_id`.' }),
    url: z.string(),
    status: z.enum(['pending', 'delivered', 'dead_lettered', 'cancelled']),
    attempts: z.array(WebhookAttempt),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

/**
 * The environment's webhook signing secret, in the answer of the call that created it (its first
 * use): shown once, null otherwise. A lost secret is replaced by a rotation (/v1/webhooks/secret/rotate).
 */
export const ShownWebhookSecret = /* @__PURE__ */ z
  .string()
  .nullable()
  .meta({
    description:
      'The environment\u2019s webhook signing secret (`whsec_...`) when this call created it, on the environment\u2019s first webhook: shown this once, null otherwise. Every delivery is signed with it (FC-Signature, docs/webhooks-verify.md); a lost one is replaced with /v1/webhooks/secret/rotate.',
  });
