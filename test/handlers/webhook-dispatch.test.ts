// What a webhook costs and what a crash can do to it, against DynamoDB Local and a loopback
// receiver: dispatch makes each delivery's first attempt itself, so a webhook that arrives at once
// costs 4 DynamoDB calls beyond its outbox row and no state machine execution; a failed one is
// handed to an execution carrying the body; opened secrets are cached per container without
// delaying a rotation; and no crash between a POST and its records loses a delivery.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  deliverAttempt,
  dispatchEvent,
  eventBody,
  OPENED_SECRET_TTL_MS,
  prepareItemWebhook,
  registerEndpoint,
  removeEndpoint,
  replayEvent,
  rotateSecret,
  updateItemWebhook,
} from '../../functions/app/webhooks';
import type { DeliveryExecutionInput } from '../../functions/contracts/worker-messages';
import { verifyWebhook } from '../../functions/core/webhook-signature';
import { emitEvent } from '../../functions/data/events';
import { createItem, getItem, type ItemRecord } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import { UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { deliveriesOfEvent, getEvent } from '../../functions/data/webhooks-repo';
import type { KeyProvider } from '../../functions/platform/crypto/envelope';
import { createLocalKeyProvider } from '../../functions/platform/crypto/local-key-provider';
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

interface Harness {
  deps: Deps & { clock: ManualClock };
  /** Executions started (as Step Functions would be asked), in order. */
  started: DeliveryExecutionInput[];
  /** KMS Decrypt calls (data keys unwrapped). */
  decrypts: () => number;
  /** The next start fails (Step Functions unreachable). */
  failNextStart(): void;
  close(): void;
}

/** Deps over a fresh table whose ports record instead of queueing: the test plays the SQS consumer. */
async function harness(): Promise<Harness> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest (handlers layer)');
  const tableName = `wd_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  const keys = createLocalKeyProvider();
  let decrypts = 0;
  const keyProvider: KeyProvider = {
    keyId: keys.keyId,
    generateDataKey: (context) => keys.generateDataKey(context),
    decryptDataKey: (wrapped, context) => {
      decrypts += 1;
      return keys.decryptDataKey(wrapped, context);
    },
  };
  const started: DeliveryExecutionInput[] = [];
  const names = new Set<string>();
  let failStart = false;
  const deps = createDeps(
    { tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint, allowLoopbackWebhooks: true, connectorEnv: {} },
    {
      clock: manualClock(),
      keyProvider,
      ports: {
        ...NO_PORTS,
        // As on AWS: publishing is a queue send; the test dispatches as the queue's consumer would.
        eventBus: { publish: async () => undefined },
        deliveries: {
          start: async (input) => {
            if (failStart) {
              failStart = false;
              throw new Error('Step Functions unavailable');
            }
            // The execution name is the delivery id: a second start is refused.
            if (names.has(input.delivery_id)) return false;
            names.add(input.delivery_id);
            started.push(input);
            return true;
          },
        },
      },
    },
  ) as Deps & { clock: ManualClock };
  return { deps, started, decrypts: () => decrypts, failNextStart: () => (failStart = true), close: () => deps.ddb.destroy() };
}

let tenantCounter = 0;
const newTenant = () => ({ applicationId: `app_dispatch${++tenantCounter}`, environment: 'test' as const });

/** DynamoDB calls `work` makes. */
async function callsOf<T>(deps: Deps, work: () => Promise<T>): Promise<{ calls: number; result: T }> {
  const before = deps.ddbCalls.count;
  const result = await work();
  return { calls: deps.ddbCalls.count - before, result };
}

const verifiedWith = (deps: Deps, r: Received, secrets: string[]) =>
  verifyWebhook({ rawBody: r.body, signature: r.headers['fc-signature'], timestamp: r.headers['fc-timestamp'], secrets, now: deps.clock.now() });

/** A tenant with one endpoint at the receiver, and its secret. */
async function withEndpoint(h: Harness, path = '/hook') {
  const t = newTenant();
  const { secret, endpoint } = await registerEndpoint(h.deps, t, receiver.url(path));
  return { t, secret: secret!, endpoint };
}

const emit = (h: Harness, t: ReturnType<typeof newTenant>, n = 1) => emitEvent(h.deps, t, 'item.login_repaired', { item_id: `item_${n}` });

describe('a webhook delivered at the first attempt', () => {
  it('costs 4 DynamoDB calls beyond its outbox row (published mark, two Queries, the delivery row) and starts no execution', async () => {
    const h = await harness();
    try {
      const { t, secret } = await withEndpoint(h);
      const emitted = await callsOf(h.deps, () => emit(h, t));
      // The outbox put and the published mark.
      expect(emitted.calls).toBe(2);
      const dispatched = await callsOf(h.deps, () => dispatchEvent(h.deps, emitted.result));
      expect(emitted.calls - 1 + dispatched.calls).toBe(4);
      expect(h.started).toEqual([]);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0].headers['fc-delivery-attempt']).toBe('1');
      expect(verifiedWith(h.deps, receiver.received[0], [secret])).toMatchObject({ ok: true, event: { id: emitted.result } });
      const [delivery] = await deliveriesOfEvent(h.deps, emitted.result);
      expect(delivery).toMatchObject({ status: 'delivered', replay: 0, finishedAt: expect.any(String) });
      expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
    } finally {
      h.close();
    }
  });

  it('is not POSTed or written again by a repeated dispatch (a redelivered message): two reads, nothing else', async () => {
    const h = await harness();
    try {
      const { t } = await withEndpoint(h);
      const eventId = await emit(h, t);
      await dispatchEvent(h.deps, eventId);
      const again = await callsOf(h.deps, () => dispatchEvent(h.deps, eventId));
      expect(again.calls).toBe(2);
      expect(receiver.received).toHaveLength(1);
      expect(h.started).toEqual([]);
      expect(await deliveriesOfEvent(h.deps, eventId)).toHaveLength(1);
    } finally {
      h.close();
    }
  });

  it('is attempted for every endpoint at once: the dispatch takes one attempt\'s time, not one per endpoint', async () => {
    const h = await harness();
    // Answers nobody until all three endpoints have been called: one at a time would time out.
    const waiting: ServerResponse[] = [];
    const gate = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on('end', () => {
        waiting.push(res);
        if (waiting.length === 3) for (const r of waiting) r.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
    try {
      const t = newTenant();
      const port = (gate.address() as AddressInfo).port;
      for (const path of ['a', 'b', 'c']) await registerEndpoint(h.deps, t, `http://127.0.0.1:${port}/${path}`);
      const eventId = await emit(h, t);
      expect(await dispatchEvent(h.deps, eventId)).toBe(3);
      const deliveries = await deliveriesOfEvent(h.deps, eventId);
      expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(h.started).toEqual([]);
    } finally {
      gate.closeAllConnections();
      await new Promise<void>((resolve) => gate.close(() => resolve()));
      h.close();
    }
  });
});

describe('a webhook whose first attempt fails', () => {
  it('is written pending with attempt 1 and handed to one execution that carries the body and begins at attempt 2', async () => {
    const h = await harness();
    try {
      const { t, endpoint } = await withEndpoint(h);
      receiver.script([503], 200);
      const eventId = await emit(h, t);
      const dispatched = await callsOf(h.deps, () => dispatchEvent(h.deps, eventId));
      expect(dispatched.calls).toBe(3);
      const event = (await getEvent(h.deps, eventId))!;
      expect(h.started).toEqual([
        {
          delivery_id: `${eventId}:${endpoint.endpointId}:0`,
          event_id: eventId,
          endpoint_id: endpoint.endpointId,
          application_id: t.applicationId,
          environment: 'test',
          body: eventBody(event),
          attempts_made: 1,
        },
      ]);
      const [delivery] = await deliveriesOfEvent(h.deps, eventId);
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts.map((a) => [a.attempt, a.status_code, a.error])).toEqual([[1, 503, 'endpoint answered HTTP 503']]);
    } finally {
      h.close();
    }
  });

  it('costs each retry 2 DynamoDB calls (one batch read, the attempt write), reads no event, and signs the carried body', async () => {
    const h = await harness();
    try {
      const { t, secret } = await withEndpoint(h);
      receiver.script([503], 200);
      const eventId = await emit(h, t);
      await dispatchEvent(h.deps, eventId);
      const [execution] = h.started;
      const retry = await callsOf(h.deps, () => deliverAttempt(h.deps, { ...execution, attempt: 2 }));
      expect(retry.result).toEqual({ delivered: true, status: 200 });
      expect(retry.calls).toBe(2);
      const last = receiver.received[1];
      expect(last.headers['fc-delivery-attempt']).toBe('2');
      expect(last.body).toBe(execution.body);
      expect(verifiedWith(h.deps, last, [secret]).ok).toBe(true);
      const [delivery] = await deliveriesOfEvent(h.deps, eventId);
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 503],
        [2, 200],
      ]);
    } finally {
      h.close();
    }
  });

  it('still delivers from an execution started before bodies were carried (it reads the event)', async () => {
    const h = await harness();
    try {
      const { t } = await withEndpoint(h);
      receiver.script([503], 200);
      const eventId = await emit(h, t);
      await dispatchEvent(h.deps, eventId);
      const { body: _carried, attempts_made: _made, ...legacy } = h.started[0];
      const retry = await callsOf(h.deps, () => deliverAttempt(h.deps, { ...legacy, attempt: 2 }));
      expect(retry.result).toEqual({ delivered: true, status: 200 });
      expect(retry.calls).toBe(3);
      expect(receiver.received[1].body).toBe(receiver.received[0].body);
    } finally {
      h.close();
    }
  });

  it('is cancelled at its next attempt when its endpoint was deleted meanwhile, without a POST', async () => {
    const h = await harness();
    try {
      const { t, endpoint } = await withEndpoint(h);
      receiver.script([503], 200);
      const eventId = await emit(h, t);
      await dispatchEvent(h.deps, eventId);
      await removeEndpoint(h.deps, t, endpoint.endpointId);
      const [execution] = h.started;
      expect(await deliverAttempt(h.deps, { ...execution, attempt: 2 })).toEqual({ delivered: true, status: 0, error: 'endpoint_deleted' });
      expect(receiver.received).toHaveLength(1);
      expect((await deliveriesOfEvent(h.deps, eventId))[0].status).toBe('cancelled');
    } finally {
      h.close();
    }
  });
});

describe('a crash between a POST and its records', () => {
  /** Deps whose first write matching `failing` throws, as a process dying there would leave things. */
  function failingOnce(deps: Deps, failing: (input: Record<string, unknown>) => boolean): Deps {
    let failed = false;
    const ddb = new Proxy(deps.ddb, {
      get(target, prop) {
        if (prop === 'send') {
          return (command: { input: Record<string, unknown> }, ...rest: unknown[]) => {
            if (!failed && failing(command.input)) {
              failed = true;
              return Promise.reject(new Error('the process died here'));
            }
            return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
          };
        }
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { ...deps, ddb };
  }
  const isDeliveryPut = (input: Record<string, unknown>) => String((input.Item as { sk?: unknown } | undefined)?.sk ?? '').startsWith('DLV#');

  it('after a delivered POST and before its row: the dispatch fails (the message comes back), and the next one POSTs again and records it', async () => {
    const h = await harness();
    try {
      const { t } = await withEndpoint(h);
      const eventId = await emit(h, t);
      await expect(dispatchEvent(failingOnce(h.deps, isDeliveryPut), eventId)).rejects.toThrow(/did not finish for 1 of 1 endpoints/);
      expect(await deliveriesOfEvent(h.deps, eventId)).toEqual([]);
      await dispatchEvent(h.deps, eventId);
      // At least once: the same event id twice, which receivers dedupe.
      expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([eventId, eventId]);
      const [delivery] = await deliveriesOfEvent(h.deps, eventId);
      expect(delivery.status).toBe('delivered');
      expect(h.started).toEqual([]);
    } finally {
      h.close();
    }
  });

  it('after the row of a failed first attempt and before its execution started: the next dispatch starts it, POSTing nothing', async () => {
    const h = await harness();
    try {
      const { t } = await withEndpoint(h);
      receiver.script([503], 200);
      const eventId = await emit(h, t);
      h.failNextStart();
      await expect(dispatchEvent(h.deps, eventId)).rejects.toThrow('Step Functions unavailable');
      expect(h.started).toEqual([]);
      await dispatchEvent(h.deps, eventId);
      expect(receiver.received).toHaveLength(1);
      expect(h.started.map((s) => [s.event_id, s.attempts_made])).toEqual([[eventId, 1]]);
      // A third dispatch starts nothing more: the execution's name is taken.
      await dispatchEvent(h.deps, eventId);
      expect(h.started).toHaveLength(1);
    } finally {
      h.close();
    }
  });
});

describe('opened signing secrets', () => {
  it('are opened once per container for a burst, again after the TTL, and a rotation signs the very next delivery (grace 0: the old secret no longer does)', async () => {
    const h = await harness();
    try {
      const { t, secret } = await withEndpoint(h);
      const decryptsOf = async (n: number) => {
        const before = h.decrypts();
        await dispatchEvent(h.deps, await emit(h, t, n));
        return h.decrypts() - before;
      };
      expect(await decryptsOf(1)).toBe(1);
      expect(await decryptsOf(2)).toBe(0);
      h.deps.clock.advance(OPENED_SECRET_TTL_MS + 1);
      expect(await decryptsOf(3)).toBe(1);

      const rotated = await rotateSecret(h.deps, t, 0);
      receiver.received.length = 0;
      expect(await decryptsOf(4)).toBe(1);
      const [delivery] = receiver.received;
      expect(verifiedWith(h.deps, delivery, [rotated.secret]).ok).toBe(true);
      expect(verifiedWith(h.deps, delivery, [secret])).toEqual({ ok: false, reason: 'signature_mismatch' });
    } finally {
      h.close();
    }
  });
});

describe('a replay', () => {
  it('starts an execution that carries the body and begins at attempt 1 (it makes no POST itself)', async () => {
    const h = await harness();
    try {
      const { t } = await withEndpoint(h);
      const eventId = await emit(h, t);
      await dispatchEvent(h.deps, eventId);
      const [deliveryId] = await replayEvent(h.deps, t, eventId);
      expect(h.started).toEqual([expect.objectContaining({ delivery_id: deliveryId, body: eventBody((await getEvent(h.deps, eventId))!), attempts_made: 0 })]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      h.close();
    }
  });
});

describe("an item's own webhook URL", () => {
  /** An item of a new tenant whose own webhook URL is at the receiver (no endpoint), and the secret that made. */
  async function itemWithWebhook(h: Harness, path: string): Promise<{ item: ItemRecord; secret: string }> {
    const t = newTenant();
    const url = receiver.url(path);
    const { webhookSecret } = await prepareItemWebhook(h.deps, t, url);
    const item = await createItem(h.deps, {
      itemId: `item_${randomUUID().replace(/-/g, '')}`,
      ...t,
      institutionId: 'ins_sandbox_first_bank',
      institutionName: 'Sandbox First Bank',
      connector: 'sandbox',
      consentedProducts: ['transactions'],
      connectionLogin: 'user_good',
      clientUserId: 'u',
      webhook: url,
    });
    return { item, secret: webhookSecret! };
  }
  const emitFor = (h: Harness, item: ItemRecord) => emitEvent(h.deps, item, 'item.login_repaired', { item_id: item.itemId });

  it('costs what an endpoint does: 4 DynamoDB calls at the first attempt (its URL travels on the event row), one more delivery put beside an endpoint', async () => {
    const h = await harness();
    try {
      const { item, secret } = await itemWithWebhook(h, '/item-own');
      const emitted = await callsOf(h.deps, () => emitFor(h, item));
      expect(emitted.calls).toBe(2);
      const dispatched = await callsOf(h.deps, () => dispatchEvent(h.deps, emitted.result));
      expect(emitted.calls - 1 + dispatched.calls).toBe(4);
      expect(h.started).toEqual([]);
      expect(receiver.received.map((r) => [r.path, verifiedWith(h.deps, r, [secret]).ok])).toEqual([['/item-own', true]]);
      expect((await deliveriesOfEvent(h.deps, emitted.result)).map((d) => [d.destination, d.endpointId, d.status])).toEqual([['item', item.itemId, 'delivered']]);

      // Beside an endpoint of its environment: one delivery put more, nothing else.
      await registerEndpoint(h.deps, item, receiver.url('/endpoint'));
      receiver.received.length = 0;
      const second = await emitFor(h, item);
      const both = await callsOf(h.deps, () => dispatchEvent(h.deps, second));
      expect(both.calls).toBe(4);
      expect(receiver.received.map((r) => r.path).sort()).toEqual(['/endpoint', '/item-own']);
    } finally {
      h.close();
    }
  });

  it('is not a destination for an item stored before items had URLs of their own (its link token registered an endpoint instead)', async () => {
    const h = await harness();
    try {
      const { item } = await itemWithWebhook(h, '/legacy');
      // As such a row was written: the URL without a format.
      await h.deps.ddb.send(new UpdateCommand({ TableName: h.deps.config.tableName, Key: keys.item(item.itemId), UpdateExpression: 'REMOVE webhook_format' }));
      const legacy = (await getItem(h.deps, item.itemId))!;
      expect(legacy).toMatchObject({ webhook: receiver.url('/legacy'), webhookFormat: null });
      expect(await dispatchEvent(h.deps, await emitFor(h, legacy))).toBe(0);
      expect(receiver.received).toEqual([]);
    } finally {
      h.close();
    }
  });

  it('is retried at the URL the item has now (2 calls, the row names it), and cancelled once the URL is cleared, without a POST', async () => {
    const h = await harness();
    try {
      const { item, secret } = await itemWithWebhook(h, '/before');
      receiver.script([503, 503], 200);
      const eventId = await emitFor(h, item);
      await dispatchEvent(h.deps, eventId);
      const [execution] = h.started;
      expect(execution).toMatchObject({ endpoint_id: item.itemId, attempts_made: 1 });

      const moved = await updateItemWebhook(h.deps, item, receiver.url('/after'));
      receiver.received.length = 0;
      const retry = await callsOf(h.deps, () => deliverAttempt(h.deps, { ...execution, attempt: 2 }));
      expect(retry.calls).toBe(2);
      expect(receiver.received.map((r) => [r.path, r.headers['fc-delivery-attempt'], verifiedWith(h.deps, r, [secret]).ok])).toEqual([['/after', '2', true]]);
      expect((await deliveriesOfEvent(h.deps, eventId))[0]).toMatchObject({ url: receiver.url('/after'), status: 'pending' });

      await updateItemWebhook(h.deps, moved.item, null);
      receiver.received.length = 0;
      expect(await deliverAttempt(h.deps, { ...execution, attempt: 3 })).toEqual({ delivered: true, status: 0, error: 'item_webhook_removed' });
      expect(receiver.received).toEqual([]);
      expect((await deliveriesOfEvent(h.deps, eventId))[0].status).toBe('cancelled');
    } finally {
      h.close();
    }
  });
});
