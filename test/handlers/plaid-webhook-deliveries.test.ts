// Plaid-shaped webhook deliveries against DynamoDB Local and a loopback receiver: an endpoint the
// Plaid-compatible API registers (`format: 'plaid'`) gets Plaid's body for each event with a
// Plaid-Verification JWT made afresh for every attempt, beside endpoints of ours that keep getting our
// envelope with FC-Signature from the same dispatch; the retries, replay and the attempt log are the
// same for both; an event Plaid has no webhook for is not sent there; and registration keeps one URL
// in one format.
import { createPublicKey, verify } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { currentPlaidKey } from '../../functions/app/plaid-webhook-keys';
import { deliverAttempt, dispatchEvent, registerEndpoint, registerPlaidEndpoint, replayEvent } from '../../functions/app/webhooks';
import type { DeliveryExecutionInput } from '../../functions/contracts/worker-messages';
import { bodySha256Hex } from '../../functions/core/plaid/webhook-jwt';
import { plaidWebhookOf, renderPlaidWebhook } from '../../functions/core/plaid/webhooks';
import { verifyWebhook } from '../../functions/core/webhook-signature';
import { emitEvent } from '../../functions/data/events';
import { listPlaidKeys } from '../../functions/data/plaid-keys-repo';
import { deliveriesOfEvent, listEndpoints } from '../../functions/data/webhooks-repo';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { createDeps, NO_PORTS, type Deps } from '../../functions/platform/runtime';
import { manualClock, type ManualClock } from '../support/embedded';
import { startReceiver, type Received, type Receiver } from '../support/receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.script([], 200);
});

/** Deps over a fresh table whose delivery workflow records the executions it is asked to start. */
async function harness(): Promise<{ deps: Deps & { clock: ManualClock }; started: DeliveryExecutionInput[]; close(): void }> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest (handlers layer)');
  const tableName = `pw_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  const started: DeliveryExecutionInput[] = [];
  const deps = createDeps(
    { tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint, allowLoopbackWebhooks: true, connectorEnv: {} },
    {
      clock: manualClock(),
      ports: {
        ...NO_PORTS,
        eventBus: { publish: async () => undefined },
        deliveries: {
          start: async (input) => {
            started.push(input);
            return true;
          },
        },
      },
    },
  ) as Deps & { clock: ManualClock };
  return { deps, started, close: () => deps.ddb.destroy() };
}

let tenants = 0;
const newTenant = () => ({ applicationId: `app_plaidhooks${++tenants}`, environment: 'test' as const });

const decode = <T>(segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as T;

/** A delivery's Plaid-Verification JWT checked against the environment's key, as a receiver following Plaid's guide would. */
async function plaidClaims(deps: Deps, t: { applicationId: string; environment: 'test' }, r: Received) {
  const jwt = r.headers['plaid-verification'];
  if (typeof jwt !== 'string') throw new Error('no Plaid-Verification header');
  const [header, payload, signature] = jwt.split('.');
  const key = await currentPlaidKey(deps, t);
  expect(decode(header)).toEqual({ alg: 'ES256', kid: key.kid, typ: 'JWT' });
  const publicKey = createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
  const claims = decode<{ iat: number; request_body_sha256: string }>(payload);
  expect(claims.request_body_sha256).toBe(bodySha256Hex(r.body));
  return claims;
}

const syncUpdates = { item_id: 'item_plaid1', initial_update_complete: true, historical_update_complete: true };

describe('a Plaid-shaped endpoint', () => {
  it("gets Plaid's body and a Plaid-Verification JWT, while an endpoint of ours gets our envelope from the same dispatch", async () => {
    const h = await harness();
    try {
      const t = newTenant();
      const ours = await registerEndpoint(h.deps, t, receiver.url('/ours'));
      await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'));
      const eventId = await emitEvent(h.deps, t, 'transactions.sync_updates_available', syncUpdates);
      expect(await dispatchEvent(h.deps, eventId)).toBe(2);

      const byPath = new Map(receiver.received.map((r) => [r.path, r]));
      const plaid = byPath.get('/plaid')!;
      expect(plaid.body).toBe(renderPlaidWebhook(plaidWebhookOf({ type: 'transactions.sync_updates_available', data: syncUpdates }, 'test')!));
      expect(JSON.parse(plaid.body)).toMatchObject({ webhook_type: 'TRANSACTIONS', webhook_code: 'SYNC_UPDATES_AVAILABLE', item_id: 'item_plaid1', environment: 'sandbox' });
      expect(plaid.headers['fc-signature']).toBeUndefined();
      expect((await plaidClaims(h.deps, t, plaid)).iat).toBe(Math.floor(h.deps.clock.now() / 1000));

      const fincore = byPath.get('/ours')!;
      expect(fincore.headers['plaid-verification']).toBeUndefined();
      expect(verifyWebhook({ rawBody: fincore.body, signature: fincore.headers['fc-signature'], timestamp: fincore.headers['fc-timestamp'], secrets: [ours.secret!], now: h.deps.clock.now() })).toMatchObject({
        ok: true,
        event: { id: eventId, type: 'transactions.sync_updates_available' },
      });
      // Both deliveries are in the one attempt log.
      expect((await deliveriesOfEvent(h.deps, eventId)).map((d) => d.status)).toEqual(['delivered', 'delivered']);
    } finally {
      h.close();
    }
  });

  it('is retried with the same bytes and a JWT issued at each attempt, so a late retry still verifies', async () => {
    const h = await harness();
    try {
      const t = newTenant();
      await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'));
      receiver.script([503], 200);
      const eventId = await emitEvent(h.deps, t, 'item.error', { item_id: 'item_plaid2', error: { type: 'item_error', code: 'item_login_required', message: 'The login needs the user.' } });
      await dispatchEvent(h.deps, eventId);
      expect(h.started).toHaveLength(1);
      const [execution] = h.started;
      expect(JSON.parse(execution.body!)).toMatchObject({ webhook_type: 'ITEM', webhook_code: 'ERROR', error: { error_code: 'ITEM_LOGIN_REQUIRED' } });

      // Ten minutes later (past the five a JWT is accepted for), the workflow's next attempt.
      h.deps.clock.advance(10 * 60_000);
      const outcome = await deliverAttempt(h.deps, { ...execution, attempt: 2 });
      expect(outcome).toMatchObject({ delivered: true, status: 200 });
      const [first, retry] = receiver.received;
      expect(retry.body).toBe(first.body);
      const [firstClaims, retryClaims] = [await plaidClaims(h.deps, t, first), await plaidClaims(h.deps, t, retry)];
      expect(retryClaims.iat - firstClaims.iat).toBe(600);
      expect(retryClaims.iat).toBe(Math.floor(h.deps.clock.now() / 1000));
      const [delivery] = await deliveriesOfEvent(h.deps, eventId);
      expect(delivery).toMatchObject({ status: 'delivered' });
      expect(delivery.attempts.map((a) => a.status_code)).toEqual([503, 200]);
    } finally {
      h.close();
    }
  });

  it('gets no delivery of an event Plaid has no webhook for, and no replay of it', async () => {
    const h = await harness();
    try {
      const t = newTenant();
      await registerEndpoint(h.deps, t, receiver.url('/ours'));
      const plaid = await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'));
      const eventId = await emitEvent(h.deps, t, 'usage.limit_approaching', { quota: 'api', threshold_percent: 80, used: 800, limit: 1000, resets_at: '2026-12-01T00:00:00.000Z' });
      expect(await dispatchEvent(h.deps, eventId)).toBe(1);
      expect(receiver.received.map((r) => r.path)).toEqual(['/ours']);
      expect(await deliveriesOfEvent(h.deps, eventId)).toHaveLength(1);
      expect(await replayEvent(h.deps, t, eventId, plaid.endpoint.endpointId)).toEqual([]);
    } finally {
      h.close();
    }
  });

  it("is replayed with Plaid's body", async () => {
    const h = await harness();
    try {
      const t = newTenant();
      const plaid = await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'));
      const eventId = await emitEvent(h.deps, t, 'item.login_repaired', { item_id: 'item_plaid3' });
      await dispatchEvent(h.deps, eventId);
      const [deliveryId] = await replayEvent(h.deps, t, eventId, plaid.endpoint.endpointId);
      expect(h.started).toEqual([expect.objectContaining({ delivery_id: deliveryId, body: receiver.received[0].body, attempts_made: 0 })]);
      expect(JSON.parse(receiver.received[0].body)).toEqual({ webhook_type: 'ITEM', webhook_code: 'LOGIN_REPAIRED', item_id: 'item_plaid3', environment: 'sandbox' });
    } finally {
      h.close();
    }
  });
});

describe('registering a Plaid-shaped endpoint', () => {
  it("creates the environment's Plaid webhook key once, so that deliveries only ever open it", async () => {
    const h = await harness();
    try {
      const t = newTenant();
      expect(await listPlaidKeys(h.deps, t.applicationId, t.environment)).toEqual([]);
      await registerPlaidEndpoint(h.deps, t, receiver.url('/a'));
      await registerPlaidEndpoint(h.deps, t, receiver.url('/b'));
      expect(await listPlaidKeys(h.deps, t.applicationId, t.environment)).toHaveLength(1);
      // Ours need no Plaid key.
      const other = newTenant();
      await registerEndpoint(h.deps, other, receiver.url('/c'));
      expect(await listPlaidKeys(h.deps, other.applicationId, other.environment)).toEqual([]);
    } finally {
      h.close();
    }
  });

  it('keeps one URL in one format: Plaid refuses a URL of ours, our routes find a Plaid one as it is', async () => {
    const h = await harness();
    try {
      const t = newTenant();
      await registerEndpoint(h.deps, t, receiver.url('/ours'));
      await expect(registerPlaidEndpoint(h.deps, t, receiver.url('/ours'))).rejects.toMatchObject({ code: 'invalid_webhook_url', message: expect.stringContaining('Fincore-shaped') });
      const plaid = await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'));
      expect(plaid).toMatchObject({ created: true, endpoint: { format: 'plaid' } });
      // link.token.create registers the webhook it is given as well (as the Plaid API calls it): the same endpoint.
      expect(await registerEndpoint(h.deps, t, receiver.url('/plaid'))).toMatchObject({ created: false, endpoint: { endpointId: plaid.endpoint.endpointId, format: 'plaid' } });
      expect(await registerPlaidEndpoint(h.deps, t, receiver.url('/plaid'))).toMatchObject({ created: false, endpoint: { endpointId: plaid.endpoint.endpointId } });
      expect((await listEndpoints(h.deps, t.applicationId, t.environment)).map((e) => [e.url, e.format]).sort()).toEqual([
        [receiver.url('/ours'), 'fincore'],
        [receiver.url('/plaid'), 'plaid'],
      ]);
    } finally {
      h.close();
    }
  });
});
