// The console's webhooks (console.webhooks.*): endpoints, the signing secret and its rotation, the
// delivery log with every attempt, dead letters, and replay, for one application's environment.
// Thin wrappers over the use cases the API's own webhook routes run (functions/app/webhooks.ts), so
// the rules (URL checks, the endpoint cap, one endpoint per URL, grace periods) are the same.
//
// Secrets: the signing secret appears in exactly two answers, each time only when that very call
// created it (an endpoint creation that created the environment's secret, and a rotation). Nothing
// else here returns a secret or anything a secret could be recovered from.
//
// A webhook URL's query string often carries a token of the receiver's (`?token=...`): the console
// shows every URL with its query masked (`?…`) and without user info or fragment, to every role,
// and the audit log keeps the URL without them (and the endpoint's id).
import type * as z from 'zod';
import { CONSOLE_PAGES, type DeliveriesListFields, type EndpointCreateFields, type EndpointDeleteFields, type EventReplayFields, type SecretRotateFields } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { DEFAULT_ROTATION_GRACE_HOURS, publicEndpoint, registerEndpoint, removeEndpoint, replayEvent, rotateSecret } from '../webhooks';
import { addAuditTarget, type AuditEntryRef } from '../../data/console-repo';
import type { ApplicationScope } from '../../data/request-log-repo';
import { isDeliveryCursor, listDeliveries, listEndpoints, type DeliveryRecord, type WebhookEndpoint } from '../../data/webhooks-repo';
import type { Deps } from '../../platform/runtime';

const DELIVERIES_PAGE_DEFAULT = 50;
/** A page read while filtering by status: the most a page may hold. */
const DELIVERIES_PAGE_MAX = CONSOLE_PAGES.deliveriesMax;
/**
 * With a status filter, deliveries are read a page at a time until the page is full or this many
 * have been read; the cursor then points after the last one read, so the next call goes on from there.
 */
const FILTERED_READ_BUDGET = 1_000;

/** A webhook URL as the audit log keeps it: scheme, host and path (no user info, query or fragment). */
export function auditedWebhookUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** A webhook URL as the console shows it: as stored, but with its query masked (`?…`) and without user info or fragment. */
export function shownWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(not a URL)';
  }
  if (!parsed.search && !parsed.hash && !parsed.username && !parsed.password) return url;
  return `${auditedWebhookUrl(url)}${parsed.search ? '?\u2026' : ''}`;
}

const shownEndpoint = (endpoint: WebhookEndpoint) => ({ ...publicEndpoint(endpoint), url: shownWebhookUrl(endpoint.url) });

/** console.webhooks.endpoints.list */
export async function listWebhookEndpoints(deps: Deps, scope: ApplicationScope) {
  return { endpoints: (await listEndpoints(deps, scope.applicationId, scope.environment)).map(shownEndpoint) };
}

/**
 * console.webhooks.endpoints.create: idempotent per URL. `secret` is the environment's signing
 * secret only when this call created it (the first endpoint of the environment), else null: it is
 * shown once, and a lost one is replaced by a rotation. With the call's audit row (`scope.audit`),
 * the endpoint's id is added to its target.
 */
export async function createWebhookEndpoint(deps: Deps, scope: ApplicationScope & { audit?: AuditEntryRef | null }, input: z.output<typeof EndpointCreateFields>) {
  const result = await registerEndpoint(deps, { applicationId: scope.applicationId, environment: scope.environment }, input.url);
  if (scope.audit) await addAuditTarget(deps, scope.audit, { endpoint_id: result.endpoint.endpointId });
  return { endpoint: shownEndpoint(result.endpoint), created: result.created, secret: result.secret };
}

/** console.webhooks.endpoints.delete: its pending deliveries are cancelled at their next attempt. */
export async function deleteWebhookEndpoint(deps: Deps, scope: ApplicationScope, input: z.output<typeof EndpointDeleteFields>) {
  await removeEndpoint(deps, scope, input.endpoint_id);
  return { deleted: true };
}

/**
 * console.webhooks.secret.rotate: a new secret, shown in this answer only; the replaced one keeps
 * signing for the grace period. The other secrets that still sign are named by their last four
 * characters.
 */
export async function rotateWebhookSecret(deps: Deps, scope: ApplicationScope, input: z.output<typeof SecretRotateFields>) {
  return rotateSecret(deps, scope, input.grace_hours ?? DEFAULT_ROTATION_GRACE_HOURS);
}

function publicDelivery(d: DeliveryRecord) {
  return {
    delivery_id: d.deliveryId,
    event_id: d.eventId,
    event_type: d.eventType,
    destination: d.destination,
    endpoint_id: d.endpointId,
    url: shownWebhookUrl(d.url),
    status: d.status,
    replay: d.replay,
    attempts: d.attempts.map((a) => ({ attempt: a.attempt, at: a.at, status_code: a.status_code, latency_ms: a.latency_ms, error: a.error })),
    created_at: d.createdAt,
    finished_at: d.finishedAt,
  };
}

/** A delivery's place in the environment's delivery log (its index sort key): what a cursor holds. */
const positionOf = (d: DeliveryRecord) => `${d.createdAt}#${d.deliveryId}`;

/**
 * console.webhooks.deliveries.list: newest first, each with every attempt (time, HTTP status,
 * latency, error). `status: 'dead_lettered'` lists the dead letters: deliveries whose every retry
 * failed.
 */
export async function listWebhookDeliveries(deps: Deps, scope: ApplicationScope, input: z.output<typeof DeliveriesListFields>) {
  const cursor = input.cursor === '' ? undefined : input.cursor;
  if (cursor !== undefined && !isDeliveryCursor(cursor)) {
    throw new ApiError('invalid_cursor', 'The cursor is not a next_cursor of this list. List again without a cursor.');
  }
  const count = input.count ?? DELIVERIES_PAGE_DEFAULT;
  if (input.status === undefined) {
    const page = await listDeliveries(deps, scope.applicationId, scope.environment, { count, before: cursor });
    return { deliveries: page.deliveries.map(publicDelivery), next_cursor: page.next };
  }
  const found: DeliveryRecord[] = [];
  let before = cursor;
  let read = 0;
  while (read < FILTERED_READ_BUDGET) {
    const page = await listDeliveries(deps, scope.applicationId, scope.environment, { count: DELIVERIES_PAGE_MAX, before });
    read += page.deliveries.length;
    for (const delivery of page.deliveries) {
      if (delivery.status !== input.status) continue;
      found.push(delivery);
      if (found.length === count) return { deliveries: found.map(publicDelivery), next_cursor: positionOf(delivery) };
    }
    if (page.next === null) return { deliveries: found.map(publicDelivery), next_cursor: null };
    before = page.next;
  }
  return { deliveries: found.map(publicDelivery), next_cursor: before ?? null };
}

/** console.webhooks.events.replay: a new delivery of the event (same event id) to each endpoint, or to one. */
export async function replayWebhookEvent(deps: Deps, scope: ApplicationScope, input: z.output<typeof EventReplayFields>) {
  return { delivery_ids: await replayEvent(deps, scope, input.event_id, input.endpoint_id) };
}
