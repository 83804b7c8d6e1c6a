// Webhooks: endpoints and their per-environment signing secret, dispatch of recorded events to
// endpoints, delivery attempts and dead letters, replay and rotation. Events themselves are
// recorded and published by the outbox in data/events.ts.
//
// Destinations: every event goes to the environment's registered endpoints and, when it is about an
// item that has a webhook URL of its own (link.token.create's `webhook`, item.webhook.update), to
// that URL too, once per distinct normalized URL. The item's URL travels on the event row (written
// with the change), so dispatch reads nothing more for it; a retry reads the item row instead of an
// endpoint row, and goes to the URL the item has then.
//
// An endpoint receives our `{id, type, created, data}` envelope signed with FC-Signature, or, when
// the Plaid-compatible API registered it (`format: 'plaid'`), Plaid's webhook body for the event
// (functions/core/plaid/webhooks.ts) with a Plaid-Verification JWT made afresh for every attempt
// (./plaid-webhook-keys.ts). Everything else (the retries, the attempt log, dead letters, replay) is
// the same for both.
//
// Dispatch makes the first attempt of every delivery itself and writes the delivery row with it
// (a conditional put, so a duplicate queue message makes no second delivery). Only a delivery
// whose first attempt failed gets a WebhookDelivery execution, for the retries: a webhook that
// arrives at once costs no state machine execution. What each path costs is counted in
// docs/architecture.md ("Background work and events").
import { fail } from '../contracts/errors';
import { DELIVERY_ATTEMPT_HEADER, EVENT_ID_HEADER } from '../contracts/events';
import { WEBHOOK_ATTEMPT_TIMEOUT_MS, type DeliveryAttemptInput, type DeliveryOutcome, type DeliveryRef } from '../contracts/worker-messages';
import { randomToken } from '../core/api-keys';
import { PLAID_VERIFICATION_HEADER } from '../core/plaid/webhook-jwt';
import { plaidWebhookOf, renderPlaidWebhook, type AnyEvent } from '../core/plaid/webhooks';
import { checkWebhookUrl, disallowedUrlCharacter, normalizeWebhookUrl, type WebhookUrlFailureReason } from '../core/webhook-url';
import { webhookHeaders } from '../core/webhook-signature';
import { newEvent, publishEvent, type EventTenant } from '../data/events';
import type { ItemRecord } from '../data/items-repo';
import { tokenHash } from '../core/tokens';
import { API_VERSION, type Environment } from '../contracts/schemas';
import {
  attemptState,
  createDelivery,
  createSecretRecord,
  deleteEndpoint,
  destinationOfEndpoint,
  destinationOfItem,
  endpointOfUrl,
  deliveryIdOf,
  eventWithDeliveries,
  finishDelivery,
  getDelivery,
  getEvent,
  getSecretRecord,
  insertEndpoint,
  isExpired,
  isItemDestination,
  markLinkSessionWebhookPlaid,
  listEndpoints,
  parseDeliveryId,
  recordAttempt,
  rotateSecretRecord,
  setItemWebhook,
  unpublishedEvents,
  webhookTargets,
  type DeliveryAttempt,
  type DeliveryRecord,
  type EventRecord,
  type RetiringSecret,
  type SecretRecord,
  type WebhookDestination,
  type WebhookEndpoint,
  type WebhookFormat,
} from '../data/webhooks-repo';
import { decryptSecret, encryptSecret, type KeyProvider, type SealedSecret } from '../platform/crypto/envelope';
import { currentPlaidKey, signPlaidWebhook } from './plaid-webhook-keys';
import { postWebhook } from './webhook-http';
import type { Deps } from '../platform/runtime';

const MAX_ENDPOINTS_PER_ENVIRONMENT = 10;
export const DEFAULT_ROTATION_GRACE_HOURS = 24;
/** The current secret and at most four replaced ones still in their grace period sign a delivery. */
export const MAX_SIGNING_SECRETS = 5;
/** Unpublished events older than this are published by the sweep. */
const OUTBOX_SWEEP_AGE_MS = 30_000;

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
 * How long an opened signing secret stays in a container's memory. Deliveries read the sealed
 * record every time (with the endpoints, or in the attempt's one batch read), so a rotation signs
 * the very next delivery, a grace period of 0 included; what this saves is the KMS Decrypt of a
 * secret version already opened. Entries are keyed by application, environment (the encryption
 * context) and the sealed value itself, which is unique to each version of a secret; the TTL
 * bounds how long a plaintext outlives its use.
 */
export const OPENED_SECRET_TTL_MS = 60_000;
const OPENED_SECRETS_MAX = 1_000;
/** Per key provider, so that runtimes sharing a process (tests) never share plaintexts. */
const openedSecrets = new WeakMap<KeyProvider, Map<string, { secret: string; until: number }>>();

async function openSecret(deps: Deps, t: Tenant, sealed: SealedSecret): Promise<string> {
  let cache = openedSecrets.get(deps.keyProvider);
  if (!cache) openedSecrets.set(deps.keyProvider, (cache = new Map()));
  const key = JSON.stringify([t.applicationId, t.environment, sealed.kid, sealed.wk, sealed.iv, sealed.ct, sealed.tag]);
  const now = deps.clock.now();
  // A Map iterates in insertion order, and an entry is only ever inserted when opened, so the
  // oldest entries expire first: drop them until the first one still valid.
  for (const [k, entry] of cache) {
    if (entry.until > now) break;
    cache.delete(k);
  }
  const hit = cache.get(key);
  if (hit) return hit.secret;
  const secret = await decryptSecret(deps.keyProvider, sealed, secretContext(t));
  while (cache.size >= OPENED_SECRETS_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, { secret, until: now + OPENED_SECRET_TTL_MS });
  return secret;
}

/**
 * Every secret of a record that signs right now: the current one, and each replaced one during its
 * grace period. Delivery only opens secrets (registering an endpoint always creates one), so a
 * missing secret is an error here rather than a reason to create one.
 */
async function signingSecretsOf(deps: Deps, t: Tenant, record: SecretRecord | undefined): Promise<string[]> {
  if (!record) throw new Error('this environment has no webhook signing secret');
  const sealed = [record.current, ...stillSigning(record.retiring, deps.clock.now()).map((r) => r.sealed)];
  return Promise.all(sealed.map((s) => openSecret(deps, t, s)));
}

/** Every secret that signs right now (see signingSecretsOf). */
export async function signingSecrets(deps: Deps, t: Tenant): Promise<string[]> {
  return signingSecretsOf(deps, t, await getSecretRecord(deps, t.applicationId, t.environment));
}

/**
 * Rotations of one environment that race run one after another: each loser reads the winner's record
 * and rotates on top of it (a short random wait spreads them). Enough tries for a burst of dozens.
 */
const ROTATION_TRIES = 40;

/**
 * A new current secret. The replaced one keeps signing for the grace period, beside any replaced
 * earlier whose grace has not ended (at most MAX_SIGNING_SECRETS in all; beyond that the ones that
 * would stop soonest stop now). The answer lists every secret that signs after the rotation.
 */
export async function rotateSecret(deps: Deps, t: Tenant, graceHours: number) {
  const { created } = await ensureSecret(deps, t);
  // Sealed once: a retry after losing a race writes the same new secret on top of the winner's.
  const secret = newSecret();
  const sealed = await encryptSecret(deps.keyProvider, secret, secretContext(t));
  for (let attempt = 1; ; attempt++) {
    // ensureSecret above wrote it if it was missing; secrets are never deleted.
    const record = await getSecretRecord(deps, t.applicationId, t.environment);
    if (!record) throw new Error(`the signing secret of ${t.applicationId}/${t.environment} vanished during rotation`);
    const now = deps.clock.now();
    // A secret created by this very call was never shown to anyone: it need not keep signing.
    const previousExpiresAt = now + (created ? 0 : graceHours * 3600_000);
    const retiring = stillSigning([{ sealed: record.current, expiresAt: previousExpiresAt }, ...record.retiring], now);
    if (await rotateSecretRecord(deps, t.applicationId, t.environment, record, sealed, retiring)) {
      return {
        secret,
        previous_secret_expires_at: new Date(previousExpiresAt).toISOString(),
        signing_secrets: [{ last4: secret.slice(-4), expires_at: null }, ...(await describeRetiring(deps, t, retiring))],
      };
    }
    // Another rotation committed in between: rotate on top of it rather than drop its secret.
    if (attempt >= ROTATION_TRIES) throw new Error('webhook secret rotation kept racing other rotations');
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 10)));
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
 * A Plaid registration that finds the URL registered for our own webhooks: those are not Plaid's
 * bodies and carry no Plaid-Verification header, so the integrator's Plaid code would reject every
 * one of them. Refused rather than silently kept.
 */
function refuseOurFormatForPlaid(endpoint: WebhookEndpoint, format: WebhookFormat | undefined): WebhookEndpoint {
  if (format === 'plaid' && endpoint.format !== 'plaid') {
    fail(
      'invalid_webhook_url',
      'This URL is registered already for Fincore-shaped webhooks (FC-Signature), which Plaid\u2019s webhook verification rejects. Use another URL for Plaid-shaped webhooks, or delete that endpoint first.',
    );
  }
  return endpoint;
}

/**
 * Registers an endpoint (idempotent per normalized URL) and makes sure the environment has a
 * secret. The URL's uniqueness and the cap are conditions of the insert itself, so concurrent
 * registrations can neither exceed the cap nor store one URL twice.
 *
 * `format` is what a new endpoint receives: `plaid` through registerPlaidEndpoint; ours otherwise
 * (the /v1 and console routes, and link.token.create, which find a URL registered in either format
 * as it is). A Plaid registration of a URL registered for our webhooks is refused
 * (refuseOurFormatForPlaid).
 */
export async function registerEndpoint(deps: Deps, t: Tenant, url: string, format?: WebhookFormat) {
  await validateUrl(deps, t, url);
  const normalized = normalizeWebhookUrl(url);
  // Endpoints stored before URL rows existed are found by listing.
  const same = (await listEndpoints(deps, t.applicationId, t.environment)).find((e) => normalizeWebhookUrl(e.url) === normalized);
  if (same) refuseOurFormatForPlaid(same, format);
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
      format: format ?? 'fincore',
    };
    const result = await insertEndpoint(deps, endpoint, MAX_ENDPOINTS_PER_ENVIRONMENT);
    if (result.inserted) return { endpoint, created: true, secret: shownSecret };
    if (result.reason === 'too_many') fail('too_many_webhook_endpoints');
    if (result.reason === 'duplicate_url') {
      const existing = await endpointOfUrl(deps, t.applicationId, t.environment, url);
      if (existing) return { endpoint: refuseOurFormatForPlaid(existing, format), created: false, secret: shownSecret };
      // That endpoint was deleted in between: the URL is free again.
    }
    if (attempt >= ENDPOINT_INSERT_TRIES) throw new Error('registering a webhook endpoint kept racing other writes');
  }
}

/**
 * Registers a Plaid-shaped endpoint (the Plaid-compatible API's `webhook` and `options.webhook`),
 * creating the environment's Plaid webhook key first, so that its deliveries only ever open the key
 * (as they only ever open the webhook secret): no delivery can find the endpoint without it.
 */
export async function registerPlaidEndpoint(deps: Deps, t: Tenant, url: string) {
  await currentPlaidKey(deps, t);
  return registerEndpoint(deps, t, url, 'plaid');
}

export async function removeEndpoint(deps: Deps, t: Tenant, endpointId: string): Promise<void> {
  if (!(await deleteEndpoint(deps, t.applicationId, t.environment, endpointId))) fail('webhook_endpoint_not_found');
}

// ---------- item webhook URLs ----------

/**
 * Makes a URL usable as an item's own webhook: the same checks as an endpoint's URL (validateUrl),
 * then, for ours, the environment's signing secret its deliveries are signed with (created on first
 * use: `webhookSecret` is it when this call created it, shown once, else null). Plaid's bodies are
 * signed with the environment's Plaid webhook key instead, which the Plaid-compatible API's own
 * entry points make exist first (updatePlaidItemWebhook, usePlaidWebhooksForLinkSession), so that
 * no /v1 route reaches those keys. Not an endpoint: it does not count against the environment's cap
 * and is not listed.
 */
export async function prepareItemWebhook(deps: Deps, t: Tenant, url: string, format: WebhookFormat = 'fincore'): Promise<{ webhookSecret: string | null }> {
  await validateUrl(deps, t, url);
  if (format === 'plaid') return { webhookSecret: null };
  const { secret, created } = await ensureSecret(deps, t);
  return { webhookSecret: created ? secret : null };
}

/**
 * Sets (a URL) or clears (null) an item's own webhook URL, as the API calling it receives webhooks
 * (`format`). The change and its item.webhook_updated event are one transaction; the event goes to
 * the environment's endpoints and to the new URL.
 */
export async function updateItemWebhook(deps: Deps, item: ItemRecord, url: string | null, format: WebhookFormat = 'fincore') {
  const { webhookSecret } = url === null ? { webhookSecret: null } : await prepareItemWebhook(deps, item, url, format);
  const updated: ItemRecord = { ...item, webhook: url, webhookFormat: url === null ? null : format };
  const announcement = newEvent(deps, updated, 'item.webhook_updated', { item_id: item.itemId, new_webhook_url: url });
  if (!(await setItemWebhook(deps, item, url === null ? null : { url, format }, announcement))) fail('invalid_access_token');
  await publishEvent(deps, announcement.eventId);
  return { item: updated, webhookSecret };
}

/** The Plaid-compatible API's /item/webhook/update: the item's URL receives Plaid's bodies from now on. */
export async function updatePlaidItemWebhook(deps: Deps, item: ItemRecord, url: string | null) {
  if (url !== null) {
    await validateUrl(deps, item, url);
    await currentPlaidKey(deps, item);
  }
  return updateItemWebhook(deps, item, url, 'plaid');
}

/**
 * The Plaid-compatible API's /link/token/create: the item the session connects gets Plaid's bodies
 * at its webhook URL. The URL was checked by link.token.create; this makes the environment's Plaid
 * webhook key exist before any delivery needs it.
 */
export async function usePlaidWebhooksForLinkSession(deps: Deps, t: Tenant, linkToken: string): Promise<void> {
  await currentPlaidKey(deps, t);
  await markLinkSessionWebhookPlaid(deps, tokenHash(linkToken));
}

// ---------- events ----------

/** Publishes what a crash between commit and publish left behind. */
export async function sweepOutbox(deps: Deps): Promise<number> {
  const ids = await unpublishedEvents(deps, deps.clock.now() - OUTBOX_SWEEP_AGE_MS);
  let published = 0;
  for (const id of ids) if (await publishEvent(deps, id)) published += 1;
  return published;
}

/** Which delivery an execution, an attempt or a dead letter is about (`endpointId`: the destination's id). */
function deliveryRef(event: EventRecord, endpointId: string, replay: number): DeliveryRef {
  return {
    delivery_id: deliveryIdOf(event.eventId, endpointId, replay),
    event_id: event.eventId,
    endpoint_id: endpointId,
    application_id: event.applicationId,
    environment: event.environment,
  };
}

/** The body every attempt of an event sends (identical bytes each time; receivers dedupe on id). */
export function eventBody(event: Pick<EventRecord, 'eventId' | 'type' | 'created' | 'data'>): string {
  return JSON.stringify({ id: event.eventId, type: event.type, created: event.created, data: event.data });
}

/**
 * The body an endpoint of this format is sent for an event (identical bytes on every attempt): ours,
 * or Plaid's webhook for it. Null when Plaid has no webhook for the event (usage.limit_approaching):
 * a Plaid-shaped endpoint gets no delivery of it.
 */
export function bodyFor(event: Pick<EventRecord, 'eventId' | 'type' | 'created' | 'data' | 'environment'>, format: WebhookFormat): string | null {
  if (format === 'fincore') return eventBody(event);
  // Stored events are the catalogue's (functions/contracts/events.ts): their data is that type's.
  const plaid = plaidWebhookOf({ type: event.type, data: event.data } as AnyEvent, event.environment);
  return plaid ? renderPlaidWebhook(plaid) : null;
}

/**
 * Where an event goes: every endpoint of its environment that has a body for it, then the item's own
 * webhook URL the event recorded, unless an endpoint has that URL already (one delivery per URL).
 */
function destinationsOf(event: EventRecord, endpoints: readonly WebhookEndpoint[]): WebhookDestination[] {
  const all = endpoints.map(destinationOfEndpoint);
  const item = event.itemWebhook;
  if (item) {
    const url = normalizeWebhookUrl(item.url);
    if (!endpoints.some((e) => normalizeWebhookUrl(e.url) === url)) all.push(destinationOfItem(item));
  }
  return all;
}

/**
 * One event to every endpoint of its application and environment (and to the item's own webhook
 * URL, destinationsOf), each delivery created once.
 *
 * Reads: the event's partition (the event and any deliveries an earlier dispatch made) and the
 * environment's endpoints with its secret record, one Query each. Then, for every endpoint at
 * once (the Lambda timeout covers one POST, not one per endpoint), the first attempt, and one
 * conditional put of the delivery row carrying that attempt: `delivered`, or `pending` and handed
 * to a WebhookDelivery execution that makes the retries.
 *
 * Resolves only once every endpoint's delivery is recorded delivered or handed to a started
 * execution; otherwise it throws, so the queue message stays and comes back. A crash after a POST
 * and before its row is written means the event is POSTed again when the message returns: at
 * least once, never lost (receivers dedupe on the event id). A repeated dispatch (a redelivered
 * message, the sweep) POSTs nothing for an endpoint that has a row already; it only starts the
 * execution of a failed first attempt, which a crash may have kept from starting (the execution's
 * name, the delivery id, refuses a second one).
 */
export async function dispatchEvent(deps: Deps, eventId: string): Promise<number> {
  const { event, deliveries } = await eventWithDeliveries(deps, eventId);
  if (!event) return 0;
  const tenant = { applicationId: event.applicationId, environment: event.environment };
  const { endpoints, secret } = await webhookTargets(deps, tenant.applicationId, tenant.environment);
  // Opened once per dispatch, and only when some endpoint of ours gets an attempt.
  let opened: Promise<string[]> | undefined;
  const secrets = () => (opened ??= signingSecretsOf(deps, tenant, secret));
  const targets = destinationsOf(event, endpoints).flatMap((destination) => {
    const body = bodyFor(event, destination.format);
    return body === null ? [] : [{ destination, body }];
  });
  const outcomes = await Promise.allSettled(
    targets.map(({ destination, body }) => {
      const earlier = deliveries.find((d) => d.endpointId === destination.id && d.replay === 0);
      return earlier ? startRetries(deps, event, body, earlier) : firstAttempt(deps, event, body, destination, secrets);
    }),
  );
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error] : []));
  if (failed.length > 0) {
    throw new Error(`dispatch of ${eventId} did not finish for ${failed.length} of ${targets.length} endpoints: ${failed[0].message}`, { cause: failed[0] });
  }
  return targets.length;
}

/** Attempt 1 of a new delivery, then its row; the retries go to an execution if it failed. */
async function firstAttempt(deps: Deps, event: EventRecord, body: string, destination: WebhookDestination, secrets: () => Promise<string[]>): Promise<void> {
  const tenant = { applicationId: event.applicationId, environment: event.environment };
  const outcome = await attemptDelivery(deps, { tenant, url: destination.url, eventId: event.eventId, body, signature: signerOf(deps, tenant, destination.format, body, secrets) }, 1);
  const status = outcome.delivered ? 'delivered' : 'pending';
  const created = await createDelivery(deps, event, destination, 0, { attempt: outcome.attempt, status });
  if (created) {
    if (!outcome.delivered) await startRetries(deps, event, body, created);
    return;
  }
  // Another dispatch of this event wrote the row meanwhile (a duplicate message): this POST was a
  // duplicate the receiver dedupes. Log it on the delivery, and make sure a failed one is retried.
  const ref = { eventId: event.eventId, endpointId: destination.id, replay: 0 };
  await recordAttempt(deps, ref, outcome.attempt, status);
  const now = await getDelivery(deps, ref.eventId, ref.endpointId, ref.replay);
  if (now) await startRetries(deps, event, body, now);
}

/**
 * Hands a delivery whose attempts so far failed to its WebhookDelivery execution, which begins
 * after them (the wait before the next attempt). Starting is idempotent: the execution's name is
 * the delivery id, so a start for a delivery whose execution exists starts nothing.
 */
async function startRetries(deps: Deps, event: EventRecord, body: string, delivery: DeliveryRecord): Promise<void> {
  if (delivery.status !== 'pending') return;
  const attemptsMade = Math.max(0, ...delivery.attempts.map((a) => a.attempt));
  await deps.ports.deliveries.start({ ...deliveryRef(event, delivery.endpointId, delivery.replay), body, attempts_made: attemptsMade });
}

/**
 * A replay: a new delivery per destination (every endpoint, and the item's own webhook URL as
 * dispatch chose it), with the same event id, its attempts made by an execution; `endpointId`
 * narrows it to one (an endpoint's id, or for the item's URL the item's id, as the delivery shows
 * it). An event past its retention answers as one that never existed (the TTL deletes it lazily,
 * and it answers the same once deleted). Replay numbers count every delivery row still stored,
 * expired ones too, since a new delivery's row must not land on an existing one. A replay to the
 * item's URL goes where a retry would: the URL the item has now (its execution's attempts read it).
 */
export async function replayEvent(deps: Deps, t: Tenant, eventId: string, endpointId?: string) {
  const { event, deliveries: existing } = await eventWithDeliveries(deps, eventId);
  if (!event || isExpired(event, deps.clock.now()) || event.applicationId !== t.applicationId || event.environment !== t.environment) fail('event_not_found');
  const destinations = destinationsOf(event, await listEndpoints(deps, t.applicationId, t.environment)).filter((d) => !endpointId || d.id === endpointId);
  if (endpointId && destinations.length === 0) fail('webhook_endpoint_not_found');
  const ids: string[] = [];
  for (const destination of destinations) {
    // An event Plaid has no webhook for is not replayed to a Plaid-shaped endpoint, as it was never sent there.
    const body = bodyFor(event, destination.format);
    if (body === null) continue;
    const replay = Math.max(-1, ...existing.filter((d) => d.endpointId === destination.id).map((d) => d.replay)) + 1;
    if (await createDelivery(deps, event, destination, replay)) {
      const ref = deliveryRef(event, destination.id, replay);
      await deps.ports.deliveries.start({ ...ref, body, attempts_made: 0 });
      ids.push(ref.delivery_id);
    }
  }
  return ids;
}

// ---------- delivery attempts ----------

interface AttemptTarget {
  tenant: Tenant;
  url: string;
  eventId: string;
  body: string;
  /** The signature headers of one attempt, made when it is sent; a failure to make them is a failed attempt. */
  signature: () => Promise<Record<string, string>>;
}

/**
 * How each attempt of a delivery to an endpoint of this format is signed, afresh (a receiver rejects
 * an old timestamp or `iat`): FC-Signature with every secret that signs now, or a Plaid-Verification
 * JWT with the environment's current Plaid webhook key.
 */
function signerOf(deps: Deps, tenant: Tenant, format: WebhookFormat, body: string, secrets: () => Promise<string[]>): () => Promise<Record<string, string>> {
  if (format === 'plaid') return async () => ({ [PLAID_VERIFICATION_HEADER]: await signPlaidWebhook(deps, tenant, body) });
  return async () => webhookHeaders(await secrets(), Math.floor(deps.clock.now() / 1000), body);
}

interface AttemptOutcome {
  attempt: DeliveryAttempt;
  delivered: boolean;
  /** HTTP status; 0 when no response arrived. */
  status: number;
}

/** One signed POST, signed when it is sent. Never throws: whatever went wrong is in the attempt. */
async function attemptDelivery(deps: Deps, target: AttemptTarget, attempt: number): Promise<AttemptOutcome> {
  const { tenant, body } = target;
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    const headers = await target.signature();
    // Checked again at send time (DNS may now point somewhere it did not at registration), and the
    // connection goes to the very addresses that were checked.
    const sent = await postWebhook(
      {
        url: target.url,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'User-Agent': `Fincore-Webhooks/${API_VERSION}`,
          [EVENT_ID_HEADER]: target.eventId,
          [DELIVERY_ATTEMPT_HEADER]: String(attempt),
        },
        body,
        timeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
      },
      urlCheckOptions(deps, tenant),
    );
    if (sent.sent) {
      status = sent.status;
      if (status < 200 || status >= 300) error = `endpoint answered HTTP ${status}`;
    } else {
      error = urlRejection(target.url, sent.reason, tenant.environment);
    }
  } catch (err) {
    error = (err as Error).name === 'TimeoutError' ? `timed out after ${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s` : `could not connect: ${(err as Error).message}`;
  }
  const delivered = status !== null && status >= 200 && status < 300;
  return {
    attempt: { attempt, at: new Date(started).toISOString(), status_code: status, latency_ms: Date.now() - started, error },
    delivered,
    status: status ?? 0,
  };
}

/**
 * One retry attempt (the delivery worker, invoked by the WebhookDelivery execution). The body
 * comes with the input; the delivery, its endpoint and the secret record come in one batch read;
 * the attempt is appended to the delivery in one write.
 */
export async function deliverAttempt(deps: Deps, input: DeliveryAttemptInput): Promise<DeliveryOutcome> {
  const ids = parseDeliveryId(input.delivery_id);
  if (!ids) return { delivered: true, status: 0, error: 'unknown_delivery' };
  const tenant = { applicationId: input.application_id, environment: input.environment };
  const { delivery, destination, secret } = await attemptState(deps, { ...ids, endpointId: input.endpoint_id, ...tenant });
  if (!delivery) return { delivered: true, status: 0, error: 'unknown_delivery' };
  if (delivery.status !== 'pending') return { delivered: delivery.status === 'delivered', status: 0, error: `already_${delivery.status}` };
  if (!destination) {
    // The endpoint was deleted, or the item removed or its webhook URL cleared: nobody to deliver to.
    await finishDelivery(deps, ids, 'cancelled');
    return { delivered: true, status: 0, error: isItemDestination(input.endpoint_id) ? 'item_webhook_removed' : 'endpoint_deleted' };
  }
  // Executions started before bodies were carried read the event (they predate Plaid-shaped endpoints).
  const body = input.body ?? (await bodyOfEvent(deps, input.event_id, destination.format));
  if (body === undefined) return { delivered: true, status: 0, error: 'unknown_delivery' };
  const secrets = () => signingSecretsOf(deps, tenant, secret);
  const outcome = await attemptDelivery(
    deps,
    { tenant, url: destination.url, eventId: input.event_id, body, signature: signerOf(deps, tenant, destination.format, body, secrets) },
    input.attempt,
  );
  // An item's webhook URL may have changed since the delivery began: its retries follow the item.
  const movedTo = destination.url !== delivery.url ? destination.url : undefined;
  await recordAttempt(deps, ids, outcome.attempt, outcome.delivered ? 'delivered' : 'pending', movedTo);
  return { delivered: outcome.delivered, status: outcome.status, ...(outcome.attempt.error ? { error: outcome.attempt.error } : {}) };
}

async function bodyOfEvent(deps: Deps, eventId: string, format: WebhookFormat): Promise<string | undefined> {
  const event = await getEvent(deps, eventId);
  return (event && bodyFor(event, format)) ?? undefined;
}

export async function deadLetter(deps: Deps, input: DeliveryRef): Promise<void> {
  const ids = parseDeliveryId(input.delivery_id);
  if (ids) await finishDelivery(deps, ids, 'dead_lettered');
}
