// Webhooks: endpoints and their per-environment signing secret, dispatch of recorded events to
// endpoints, delivery attempts and dead letters, replay and rotation. Events themselves are
// recorded and published by the outbox in data/events.ts.
//
// Dispatch creates one delivery row per endpoint with a conditional put, so a duplicate queue
// message makes no second delivery.
import { fail } from '../contracts/errors';
import { DELIVERY_ATTEMPT_HEADER, EVENT_ID_HEADER } from '../contracts/events';
import type { DeliveryAttemptInput, DeliveryExecutionInput, DeliveryOutcome } from '../contracts/worker-messages';
import { randomToken } from '../core/api-keys';
import { checkWebhookUrl, disallowedUrlCharacter, normalizeWebhookUrl, type WebhookUrlFailureReason } from '../core/webhook-url';
import { webhookHeaders } from '../core/webhook-signature';
import { publishEvent, type EventTenant } from '../data/events';
import { API_VERSION, type Environment } from '../contracts/schemas';
import {
  createDelivery,
  createSecretRecord,
  deleteEndpoint,
  endpointOfUrl,
  deliveriesOfEvent,
  deliveryIdOf,
  finishDelivery,
  getDelivery,
  getEndpoint,
  getEvent,
  getSecretRecord,
  insertEndpoint,
  listEndpoints,
  parseDeliveryId,
  recordAttempt,
  rotateSecretRecord,
  unpublishedEvents,
  type EventRecord,
  type RetiringSecret,
  type WebhookEndpoint,
} from '../data/webhooks-repo';
import { decryptSecret, encryptSecret } from '../platform/crypto/envelope';
import { postWebhook } from './webhook-http';
import type { Deps } from '../platform/runtime';

const MAX_ENDPOINTS_PER_ENVIRONMENT = 10;
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** The current secret and at most four replaced ones still in their grace period sign a delivery. */
export const MAX_SIGNING_SECRETS = 5;
/** Unpublished events older than this are published by the sweep. */
const OUTBOX_SWEEP_AGE_MS = 30_000;
const ATTEMPT_TIMEOUT_MS = 9_000;

/** Whose webhooks: endpoints, secrets and events belong to one application and environment. */
type Tenant = EventTenant;

// ---------- secrets ----------

/** Encryption-context purpose of webhook secrets (the same KMS key also seals provider tokens). */
const WEBHOOK_SECRET_PURPOSE = 'webhook_secret';

const secretContext = (t: Tenant) => ({ application_id: t.applicationId, environment: t.environment, purpose: WEBHOOK_SECRET_PURPOSE });

const newSecret = () => `whsec_${randomToken(40)}`;

/** The environment's signing secret, created on first use; `created` tells whether it is new. */
async function ensureSecret(deps: Deps, t: Tenant): Promise<{ secret: string; created: boolean }> {
  const existing = await getSecretRecord(deps, t.applicationId, t.environment);
  if (existing) return { secret: await decryptSecret(deps.keyProvider, existing.current, secretContext(t)), created: false };
  const secret = newSecret();
  if (await createSecretRecord(deps, t.applicationId, t.environment, await encryptSecret(deps.keyProvider, secret, secretContext(t)))) {
    return { secret, created: true };
  }
  return ensureSecret(deps, t);
}

/** The replaced secrets of a record that still sign at `now`, latest expiry first, within the bound. */
function stillSigning(retiring: readonly RetiringSecret[], now: number): RetiringSecret[] {
  return retiring
    .filter((r) => r.expiresAt > now)
    .sort((a, b) => b.expiresAt - a.expiresAt)
    .slice(0, MAX_SIGNING_SECRETS - 1);
}

/**
 * Every secret that signs right now: the current one, and each replaced one during its grace period.
 * Delivery only opens secrets (registering an endpoint always creates one), so a missing secret is
 * an error here rather than a reason to create one.
 */
export async function signingSecrets(deps: Deps, t: Tenant): Promise<string[]> {
  const record = await getSecretRecord(deps, t.applicationId, t.environment);
  if (!record) throw new Error('this environment has no webhook signing secret');
  const sealed = [record.current, ...stillSigning(record.retiring, deps.clock.now()).map((r) => r.sealed)];
  return Promise.all(sealed.map((s) => decryptSecret(deps.keyProvider, s, secretContext(t))));
}

const ROTATION_TRIES = 5;

/**
 * A new current secret. The replaced one keeps signing for the grace period, beside any replaced
 * earlier whose grace has not ended (at most MAX_SIGNING_SECRETS in all; beyond that the ones that
 * would stop soonest stop now). The answer lists every secret that signs after the rotation.
 */
export async function rotateSecret(deps: Deps, t: Tenant, graceHours: number) {
  const { created } = await ensureSecret(deps, t);
  for (let attempt = 1; ; attempt++) {
    // ensureSecret above wrote it if it was missing; secrets are never deleted.
    const record = await getSecretRecord(deps, t.applicationId, t.environment);
    if (!record) throw new Error(`the signing secret of ${t.applicationId}/${t.environment} vanished during rotation`);
    const now = deps.clock.now();
    // A secret created by this very call was never shown to anyone: it need not keep signing.
    const previousExpiresAt = now + (created ? 0 : graceHours * 3600_000);
    const retiring = stillSigning([{ sealed: record.current, expiresAt: previousExpiresAt }, ...record.retiring], now);
    const secret = newSecret();
    const sealed = await encryptSecret(deps.keyProvider, secret, secretContext(t));
    if (await rotateSecretRecord(deps, t.applicationId, t.environment, record, sealed, retiring)) {
      return {
        secret,
        previous_secret_expires_at: new Date(previousExpiresAt).toISOString(),
        signing_secrets: [{ last4: secret.slice(-4), expires_at: null }, ...(await describeRetiring(deps, t, retiring))],
      };
    }
    // Another rotation committed in between: rotate on top of it rather than drop its secret.
    if (attempt >= ROTATION_TRIES) throw new Error('webhook secret rotation kept racing other rotations');
  }
}

async function describeRetiring(deps: Deps, t: Tenant, retiring: RetiringSecret[]) {
  return Promise.all(
    retiring.map(async (r) => ({
      last4: (await decryptSecret(deps.keyProvider, r.sealed, secretContext(t))).slice(-4),
      expires_at: new Date(r.expiresAt).toISOString(),
    })),
  );
}

// ---------- endpoints ----------

export function publicEndpoint(e: WebhookEndpoint) {
  return { endpoint_id: e.endpointId, url: e.url, created_at: e.createdAt };
}

/** What an application is told about a URL it may not register (or that may no longer be called). */
function urlRejection(url: string, reason: WebhookUrlFailureReason, environment: Environment): string {
  const found = disallowedUrlCharacter(url);
  if (reason === 'control_characters' && found) {
    return `The webhook URL contains the control, bidirectional-formatting or invisible character ${found.codePoint} at position ${found.index}; send the URL without it.`;
  }
  return `The webhook URL is not allowed (${reason.replace(/_/g, ' ')}).${environment === 'live' ? ' Live endpoints must be public https URLs.' : ''}`;
}

const urlCheckOptions = (deps: Deps, t: Tenant) => ({ environment: t.environment, allowLoopback: deps.config.allowLoopbackWebhooks === true });

async function validateUrl(deps: Deps, t: Tenant, url: string): Promise<void> {
  const check = await checkWebhookUrl(url, urlCheckOptions(deps, t));
  if (!check.ok) fail('invalid_webhook_url', urlRejection(url, check.reason, t.environment));
}

const ENDPOINT_INSERT_TRIES = 3;

/**
 * Registers an endpoint (idempotent per normalized URL) and makes sure the environment has a
 * secret. The URL's uniqueness and the cap are conditions of the insert itself, so concurrent
 * registrations can neither exceed the cap nor store one URL twice.
 */
export async function registerEndpoint(deps: Deps, t: Tenant, url: string) {
  await validateUrl(deps, t, url);
  const normalized = normalizeWebhookUrl(url);
  // Endpoints stored before URL rows existed are found by listing.
  const same = (await listEndpoints(deps, t.applicationId, t.environment)).find((e) => normalizeWebhookUrl(e.url) === normalized);
  const { secret, created: secretCreated } = await ensureSecret(deps, t);
  const shownSecret = secretCreated ? secret : null;
  if (same) return { endpoint: same, created: false, secret: shownSecret };
  for (let attempt = 1; ; attempt++) {
    const endpoint: WebhookEndpoint = {
      endpointId: `whep_${randomToken(20)}`,
      applicationId: t.applicationId,
      environment: t.environment,
      url,
      createdAt: new Date(deps.clock.now()).toISOString(),
    };
    const result = await insertEndpoint(deps, endpoint, MAX_ENDPOINTS_PER_ENVIRONMENT);
    if (result.inserted) return { endpoint, created: true, secret: shownSecret };
    if (result.reason === 'too_many') fail('too_many_webhook_endpoints');
    if (result.reason === 'duplicate_url') {
      const existing = await endpointOfUrl(deps, t.applicationId, t.environment, url);
      if (existing) return { endpoint: existing, created: false, secret: shownSecret };
      // That endpoint was deleted in between: the URL is free again.
    }
    if (attempt >= ENDPOINT_INSERT_TRIES) throw new Error('registering a webhook endpoint kept racing other writes');
  }
}

export async function removeEndpoint(deps: Deps, t: Tenant, endpointId: string): Promise<void> {
  if (!(await deleteEndpoint(deps, t.applicationId, t.environment, endpointId))) fail('webhook_endpoint_not_found');
}

// ---------- events ----------

/** Publishes what a crash between commit and publish left behind. */
export async function sweepOutbox(deps: Deps): Promise<number> {
  const ids = await unpublishedEvents(deps, deps.clock.now() - OUTBOX_SWEEP_AGE_MS);
  let published = 0;
  for (const id of ids) if (await publishEvent(deps, id)) published += 1;
  return published;
}

function executionInput(event: EventRecord, endpointId: string, replay: number): DeliveryExecutionInput {
  return {
    delivery_id: deliveryIdOf(event.eventId, endpointId, replay),
    event_id: event.eventId,
    endpoint_id: endpointId,
    application_id: event.applicationId,
    environment: event.environment,
  };
}

/**
 * One event to every endpoint of its application and environment, each delivery created once.
 * Idempotent: a repeated dispatch (a redelivered message, the sweep after a crash) starts the
 * workflow of a delivery that is still pending, since the crash may have come between creating
 * the delivery and starting it; the workflow's name (the delivery id) refuses a second execution.
 */
export async function dispatchEvent(deps: Deps, eventId: string): Promise<number> {
  const event = await getEvent(deps, eventId);
  if (!event) return 0;
  let started = 0;
  for (const endpoint of await listEndpoints(deps, event.applicationId, event.environment)) {
    const created = await createDelivery(deps, event, endpoint, 0);
    const pending = created ?? (await getDelivery(deps, event.eventId, endpoint.endpointId, 0));
    if (pending?.status === 'pending' && (await deps.ports.deliveries.start(executionInput(event, endpoint.endpointId, 0)))) started += 1;
  }
  return started;
}

export async function replayEvent(deps: Deps, t: Tenant, eventId: string, endpointId?: string) {
  const event = await getEvent(deps, eventId);
  if (!event || event.applicationId !== t.applicationId || event.environment !== t.environment) fail('event_not_found');
  const endpoints = (await listEndpoints(deps, t.applicationId, t.environment)).filter((e) => !endpointId || e.endpointId === endpointId);
  if (endpointId && endpoints.length === 0) fail('webhook_endpoint_not_found');
  const existing = await deliveriesOfEvent(deps, eventId);
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    const replay = Math.max(-1, ...existing.filter((d) => d.endpointId === endpoint.endpointId).map((d) => d.replay)) + 1;
    if (await createDelivery(deps, event, endpoint, replay)) {
      const input = executionInput(event, endpoint.endpointId, replay);
      await deps.ports.deliveries.start(input);
      ids.push(input.delivery_id);
    }
  }
  return ids;
}

/** The body every attempt of an event sends (identical bytes each time; receivers dedupe on id). */
export function eventBody(event: EventRecord): string {
  return JSON.stringify({ id: event.eventId, type: event.type, created: event.created, data: event.data });
}

// ---------- delivery (the workers) ----------

export async function deliverAttempt(deps: Deps, input: DeliveryAttemptInput): Promise<DeliveryOutcome> {
  const ids = parseDeliveryId(input.delivery_id);
  const event = await getEvent(deps, input.event_id);
  const delivery = ids ? await getDelivery(deps, ids.eventId, ids.endpointId, ids.replay) : undefined;
  if (!ids || !event || !delivery) return { delivered: true, status: 0, error: 'unknown_delivery' };
  if (delivery.status !== 'pending') return { delivered: delivery.status === 'delivered', status: 0, error: `already_${delivery.status}` };
  const endpoint = await getEndpoint(deps, input.application_id, input.environment, input.endpoint_id);
  if (!endpoint) {
    await finishDelivery(deps, ids, 'cancelled');
    return { delivered: true, status: 0, error: 'endpoint_deleted' };
  }
  const tenant = { applicationId: input.application_id, environment: input.environment };
  const body = eventBody(event);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const headers = webhookHeaders(await signingSecrets(deps, tenant), Math.floor(deps.clock.now() / 1000), body);
    // Checked again at send time (DNS may now point somewhere it did not at registration), and the
    // connection goes to the very addresses that were checked.
    const sent = await postWebhook(
      {
        url: endpoint.url,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'User-Agent': `Fincore-Webhooks/${API_VERSION}`,
          [EVENT_ID_HEADER]: event.eventId,
          [DELIVERY_ATTEMPT_HEADER]: String(input.attempt),
        },
        body,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
      },
      urlCheckOptions(deps, tenant),
    );
    if (sent.sent) {
      status = sent.status;
      if (status < 200 || status >= 300) error = `endpoint answered HTTP ${status}`;
    } else {
      error = urlRejection(endpoint.url, sent.reason, tenant.environment);
    }
  } catch (err) {
    error = (err as Error).name === 'TimeoutError' ? `timed out after ${ATTEMPT_TIMEOUT_MS / 1000} s` : `could not connect: ${(err as Error).message}`;
  }
  const delivered = status !== null && status >= 200 && status < 300;
  await recordAttempt(
    deps,
    ids,
    { attempt: input.attempt, at: new Date(started).toISOString(), status_code: status, latency_ms: Date.now() - started, error },
    delivered ? 'delivered' : 'pending',
  );
  return { delivered, status: status ?? 0, ...(error ? { error } : {}) };
}

export async function deadLetter(deps: Deps, input: DeliveryExecutionInput): Promise<void> {
  const ids = parseDeliveryId(input.delivery_id);
  if (ids) await finishDelivery(deps, ids, 'dead_lettered');
}
