// The webhook event catalogue: one schema per type, samples that satisfy it, the wire format of
// the envelope, and the published copy in openapi.json agreeing with all of it.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventBody } from '../../functions/app/webhooks';
import {
  assertEventData,
  EVENT_CATALOGUE,
  EVENT_ENVELOPES,
  EVENT_TYPES,
  sampleEventData,
  type EventData,
  type EventType,
  type SampleContext,
} from '../../functions/contracts/events';
import { routeById } from '../../functions/contracts/routes';

const spec = JSON.parse(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, 'openapi.json');

/** The published body schema of one event type (openapi.json `webhooks`). */
function publishedValidator(type: EventType) {
  const ref = `openapi.json#/webhooks/${type}/post/requestBody/content/application~1json/schema`;
  return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
}

const context: SampleContext = {
  itemId: 'item_1',
  itemError: { type: 'item_error', code: 'item_login_required', message: 'Log in again.' },
  now: Date.UTC(2026, 11, 31, 23, 59, 59),
};

const envelope = (type: EventType, data: Record<string, unknown>) => ({
  eventId: 'evt_1',
  type,
  created: 1_700_000_000,
  applicationId: 'app_1',
  environment: 'test' as const,
  data,
  published: true,
});

describe('the webhook event catalogue', () => {
  it('names every event type the spec lists, and the sandbox fires exactly the catalogue', () => {
    expect(EVENT_TYPES).toEqual(Object.keys(EVENT_CATALOGUE));
    expect(EVENT_TYPES).toEqual(expect.arrayContaining(['transactions.sync_updates_available', 'item.error', 'usage.limit_approaching']));
    const fire = routeById('sandbox.fire_webhook').request!;
    for (const type of EVENT_TYPES) expect(fire.safeParse({ access_token: 'fc_at_abc123', webhook_type: type }).success).toBe(true);
    expect(fire.safeParse({ access_token: 'fc_at_abc123', webhook_type: 'item.unknown' }).success).toBe(false);
  });

  it('describes every event type and each payload field for receivers in docs/webhooks-verify.md', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'webhooks-verify.md'), 'utf8');
    for (const type of EVENT_TYPES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${type}\` |`));
      expect({ type, documented: row !== undefined }).toEqual({ type, documented: true });
      for (const field of Object.keys(EVENT_CATALOGUE[type].data.shape)) expect({ type, field, inRow: row!.includes(`\`${field}\``) }).toEqual({ type, field, inRow: true });
    }
  });

  it.each(EVENT_TYPES)('%s: the sandbox sample satisfies its schema and the published one', (type) => {
    const data = sampleEventData(type, context);
    expect(() => assertEventData(type, data)).not.toThrow();
    const body = JSON.parse(eventBody(envelope(type, data)));
    expect(EVENT_ENVELOPES[type].parse(body)).toEqual(body);
    const validate = publishedValidator(type);
    expect([validate(body), ajv.errorsText(validate.errors)]).toEqual([true, 'No errors']);
  });

  it('rejects a payload with a missing field, a wrong type or an undeclared field', () => {
    const repaired = { item_id: 'item_1' };
    expect(() => assertEventData('item.login_repaired', repaired)).not.toThrow();
    expect(() => assertEventData('item.error', { item_id: 'item_1' } as EventData<'item.error'>)).toThrow(/error/);
    expect(() => assertEventData('item.login_repaired', { item_id: 7 } as unknown as EventData<'item.login_repaired'>)).toThrow(/item_id/);
    expect(() => assertEventData('item.login_repaired', { ...repaired, sandbox: true } as EventData<'item.login_repaired'>)).toThrow(/sandbox/);
  });

  it('publishes schemas that refuse a body of another type', () => {
    const body = JSON.parse(eventBody(envelope('item.login_repaired', { item_id: 'item_1' })));
    expect(publishedValidator('item.error')(body)).toBe(false);
    expect(publishedValidator('item.login_repaired')(body)).toBe(true);
  });

  it('samples usage.limit_approaching as the middleware sends it: reset at the first of next month', () => {
    expect(sampleEventData('usage.limit_approaching', context)).toEqual({
      quota: 'api',
      threshold_percent: 80,
      used: 8_000,
      limit: 10_000,
      resets_at: '2027-01-01T00:00:00.000Z',
    });
    expect(sampleEventData('item.error', context)).toEqual({ item_id: 'item_1', error: context.itemError });
  });

  it('keeps the wire format of the envelope: id, type, created, data in that order', () => {
    expect(eventBody(envelope('item.login_repaired', { item_id: 'item_1' }))).toBe(
      '{"id":"evt_1","type":"item.login_repaired","created":1700000000,"data":{"item_id":"item_1"}}',
    );
  });
});
