package dev.fincore;

import java.util.Map;

/**
 * A verified webhook delivery.
 *
 * @param id the event id (deliveries may repeat: deduplicate on it)
 * @param type the event type, e.g. transactions.sync_updates_available
 * @param created Unix seconds when the event was created
 * @param data the event's payload
 */
public record WebhookEvent(String id, String type, double created, Map<String, Object> data) {}
