// Background work of the local runtime survives the process: a stack (or its background ports) is
// abandoned with work accepted but not done, as a crash or a shutdown would leave it, and a new one
// on the same table finishes that work. Two ways to abandon:
// - stop(): a clean shutdown (SIGTERM) of a whole stack;
// - a "killed" DynamoDB client: from a chosen write on, every call of the old process hangs forever,
//   so it gets nothing more done, as after SIGKILL at that point.
import { GetCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { registerEndpoint } from '../../functions/app/webhooks';
import { sampleEventData } from '../../functions/contracts/events';
import { emitEvent } from '../../functions/data/events';
import { INGESTION_LEASE_MS } from '../../functions/data/feed-repo';
import { keys } from '../../functions/data/keys';
import { deliveriesOfEvent, getEvent, unpublishedEvents } from '../../functions/data/webhooks-repo';
import { createLocalKeyProvider } from '../../functions/platform/crypto/local-key-provider';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { dynamoRefreshJobStore } from '../../functions/platform/local/durable-store';
import { createLocalPorts, type LocalPorts, type LocalPortsOptions } from '../../functions/platform/local/local-ports';
import { startLocalStack, type LocalStack } from '../../functions/platform/local/local-stack';
import { createDeps, type Deps } from '../../functions/platform/runtime';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../functions/workers/webhook-schedule';
import { createTestItem, manualClock, type ManualClock } from '../support/embedded';
import { startReceiver, type Receiver } from '../support/receiver';
import { makeKey } from '../support/stack';
import { timerArmed } from '../support/timers';

const endpoint = () => {
  const value = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!value) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest (e2e layer)');
  return value;
};

let receiver: Receiver;
const tempDirs: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.script([], 200);
});

// ---------- whole stacks, stopped and started again on the same table ----------

interface Generation {
  start(webhookTimeScale: number): Promise<LocalStack>;
  key: string;
}

/** Stacks that share a table, seeded keys and the key-encryption key, as restarts of one server do. */
function generations(): Generation {
  const dir = mkdtempSync(join(tmpdir(), 'fc-durable-'));
  tempDirs.push(dir);
  const tableName = `d_${randomUUID().slice(0, 8)}`;
  const key = makeKey('test');
  return {
    key,
    start: (webhookTimeScale) =>
      startLocalStack({
        dynamodbEndpoint: endpoint(),
        tableName,
        validateResponses: true,
        webhookTimeScale,
        kekFile: join(dir, 'kek'),
        seed: [{ application: 'Durable', plan: 'enterprise', keys: [key] }],
      }),
  };
}

async function call(stack: LocalStack, key: string, path: string, body: unknown) {
  const res = await fetch(stack.baseUrl + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function sandboxItem(stack: LocalStack, key: string) {
  const pt = await call(stack, key, '/v1/sandbox/public_token/create', { institution_id: 'ins_sandbox_first_bank', products: ['transactions'], username: 'user_good' });
  const ex = await call(stack, key, '/v1/link/token/exchange', { public_token: pt.json.public_token });
  return ex.json as { access_token: string; item_id: string };
}

/** An item, then an endpoint (so the item's own events reach no endpoint), then one fired event. */
async function fireOneWebhook(stack: LocalStack, key: string): Promise<string> {
  const item = await sandboxItem(stack, key);
  await stack.background.idle();
  expect((await call(stack, key, '/v1/webhooks/endpoints/create', { url: receiver.url() })).status).toBe(200);
  const fired = await call(stack, key, '/v1/sandbox/fire_webhook', { access_token: item.access_token, webhook_type: 'item.login_repaired' });
  expect(fired.status).toBe(200);
  return fired.json.event_id as string;
}

describe('deliveries across a restart of the local server', () => {
  it('a delivery waiting for its retry when the server stops is delivered by the next start, at its next attempt', async () => {
    const gen = generations();
    receiver.script([500], 200);
    // Real time: after attempt 1 fails the execution waits 60 s, and the server stops meanwhile.
    const first = await gen.start(1);
    let eventId: string;
    try {
      const inRetryWait = timerArmed(WEBHOOK_RETRY_DELAYS_SECONDS[1] * 1000, { timeoutMs: 20_000 });
      eventId = await fireOneWebhook(first, gen.key);
      await inRetryWait;
      const [waiting] = await deliveriesOfEvent(first.deps, eventId);
      expect(waiting.status).toBe('pending');
      expect(waiting.attempts.map((a) => a.status_code)).toEqual([500]);
    } finally {
      await first.stop();
    }

    const second = await gen.start(0.0001);
    try {
      await second.background.idle();
      const [delivery] = await deliveriesOfEvent(second.deps, eventId);
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 200],
      ]);
      expect(receiver.received.map((r) => r.status)).toEqual([500, 200]);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('a delivery that keeps failing across a restart ends dead-lettered after exactly five attempts', async () => {
    const gen = generations();
    receiver.script([], 500);
    const first = await gen.start(1);
    let eventId: string;
    try {
      const inRetryWait = timerArmed(WEBHOOK_RETRY_DELAYS_SECONDS[1] * 1000, { timeoutMs: 20_000 });
      eventId = await fireOneWebhook(first, gen.key);
      await inRetryWait;
    } finally {
      await first.stop();
    }

    const second = await gen.start(0.00001);
    try {
      await second.background.idle();
      const [delivery] = await deliveriesOfEvent(second.deps, eventId);
      expect(delivery.status).toBe('dead_lettered');
      expect(delivery.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
      expect(receiver.received).toHaveLength(WEBHOOK_RETRY_DELAYS_SECONDS.length);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

// ---------- background ports whose process dies at a chosen write ----------

type Command = { input: Record<string, unknown> };

/**
 * A DynamoDB client of a process that is about to die: the commands `freezesAt` picks never answer
 * (the process got that far and no further), and after kill() no command answers at all. Nothing
 * is left running: the calls just hang.
 */
function killableClient(ddb: Deps['ddb'], freezesAt: (command: Command) => boolean): { ddb: Deps['ddb']; frozen: Promise<void>; kill(): void } {
  let dead = false;
  let markFrozen!: () => void;
  const frozen = new Promise<void>((resolve) => (markFrozen = resolve));
  const proxy = new Proxy(ddb, {
    get(target, prop) {
      if (prop === 'send') {
        return (command: Command, ...rest: unknown[]) => {
          if (dead) return new Promise(() => {});
          if (freezesAt(command)) {
            markFrozen();
            return new Promise(() => {});
          }
          return (target.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ddb: proxy, frozen, kill: () => (dead = true) };
}

interface Process {
  deps: Deps;
  background: LocalPorts;
}

/** One "process": deps over the shared table with its own background ports. */
function processOn(base: { tableName: string; clock: ManualClock; keyProvider: Deps['keyProvider'] }, options: Partial<LocalPortsOptions> = {}, freezesAt?: (command: Command) => boolean) {
  // The ports read deps only once work runs (as in local-stack.ts).
  const background = createLocalPorts(() => deps, { timeScale: 0.00001, ...options });
  const created = createDeps(
    { tableName: base.tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint(), validateResponses: true, allowLoopbackWebhooks: true, connectorEnv: {} },
    { keyProvider: base.keyProvider, ports: background.ports, clock: base.clock },
  );
  const killable = freezesAt ? killableClient(created.ddb, freezesAt) : undefined;
  const deps: Deps = killable ? { ...created, ddb: killable.ddb } : created;
  return {
    process: { deps, background } satisfies Process,
    frozen: killable?.frozen ?? Promise.resolve(),
    /** The process dies: no more writes, no timers. */
    kill: () => {
      killable?.kill();
      background.stop();
    },
    close: () => created.ddb.destroy(),
  };
}

async function sharedTable() {
  const tableName = `k_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint(), tableName);
  return { tableName, clock: manualClock(), keyProvider: createLocalKeyProvider() };
}

const tenant = { applicationId: 'app_durable', environment: 'test' as const };
const isPut = (prefix: string) => (command: Command) => String((command.input.Item as { sk?: unknown } | undefined)?.sk ?? '').startsWith(prefix);

describe('events when the process dies between commit and dispatch', () => {
  it.each([
    // Dispatch POSTs before it writes the row: the POST is made again (at least once, never lost;
    // receivers dedupe on the event id).
    ['as it writes the delivery row, after the first attempt delivered', 'DLV#', [], [200, 200], [[1, 200]]],
    // The first attempt failed and its row says so, but the execution never started: dispatching
    // again must start it, at attempt 2.
    ["as it writes the execution row of a failed first attempt", 'LOCALEXEC', [500], [500, 200], [[1, 500], [2, 200]]],
  ])('stay in the outbox when it dies %s, and the next start dispatches and delivers them', async (_when, rowPrefix, script, posts, attempts) => {
    receiver.script(script, 200);
    const base = await sharedTable();
    // The event is committed; the old process dies before its dispatch is durable.
    const old = processOn(base, {}, isPut(rowPrefix));
    await registerEndpoint(old.process.deps, tenant, receiver.url());
    const emitted = emitEvent(old.process.deps, tenant, 'item.login_repaired', sampleEventData('item.login_repaired', { itemId: 'item_1', itemError: { type: 'item_error', code: 'item_login_required', message: 'Log in again.' }, now: base.clock.now() }));
    void emitted.catch(() => undefined);
    await old.frozen;
    old.kill();

    const [eventRow] = await outboxEvents(base);
    expect(eventRow).toBeDefined();
    base.clock.advance(31_000); // the sweep takes events older than 30 s
    const next = processOn(base);
    try {
      expect((await next.process.background.resume()).republished).toBe(1);
      await next.process.background.idle();
      const [delivery] = await deliveriesOfEvent(next.process.deps, eventRow);
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((a) => [a.attempt, a.status_code])).toEqual(attempts);
      expect((await getEvent(next.process.deps, eventRow))?.published).toBe(true);
      expect(receiver.received.map((r) => [JSON.parse(r.body).id, r.status])).toEqual(posts.map((status) => [eventRow, status]));
    } finally {
      next.process.background.stop();
      next.close();
      old.close();
    }
  });
});

/** Event ids the outbox still holds (whatever their age). */
async function outboxEvents(base: { tableName: string; clock: ManualClock }): Promise<string[]> {
  const probe = createDeps({ tableName: base.tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint() }, base.clock);
  try {
    return await unpublishedEvents(probe, base.clock.now() + 1);
  } finally {
    probe.ddb.destroy();
  }
}

async function refreshCount(deps: Deps, itemId: string): Promise<number> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), ConsistentRead: true }));
  return (res.Item?.refresh_count as number | undefined) ?? 0;
}

describe('accepted refreshes', () => {
  it('all run after the process died before running any', async () => {
    const base = await sharedTable();
    const bumpsRefreshCount = (command: Command) => String(command.input.UpdateExpression ?? '').includes('refresh_count');
    const old = processOn(base, {}, bumpsRefreshCount);
    await createTestItem(old.process.deps, 'item_a');
    await createTestItem(old.process.deps, 'item_b');
    const accepted = [
      { item_id: 'item_a', reason: 'on_demand' },
      { item_id: 'item_a', reason: 'scheduled' },
      { item_id: 'item_b', reason: 'on_demand' },
      { item_id: 'item_a', reason: 'on_demand' },
    ] as const;
    // Every refresh is accepted (its row written) before the first one gets anywhere.
    for (const input of accepted) await old.process.background.ports.refreshQueue.enqueue(input);
    await old.frozen;
    old.kill();

    const next = processOn(base);
    try {
      expect((await next.process.background.resume()).refreshes).toBe(accepted.length);
      await next.process.background.idle();
      expect(await refreshCount(next.process.deps, 'item_a')).toBe(3);
      expect(await refreshCount(next.process.deps, 'item_b')).toBe(1);
      expect(await dynamoRefreshJobStore(() => next.process.deps).pending()).toEqual([]);
    } finally {
      next.process.background.stop();
      next.close();
      old.close();
    }
  });
});

describe('a refresh that meets an ingestion lease left by a crash', () => {
  async function leftLease(deps: Deps, itemId: string, until: number) {
    await deps.ddb.send(
      new UpdateCommand({ TableName: deps.config.tableName, Key: keys.item(itemId), UpdateExpression: 'SET ingest_lease_until = :until', ExpressionAttributeValues: { ':until': until } }),
    );
  }

  it('is retried until the lease has expired, then runs', async () => {
    const base = await sharedTable();
    const retryDelayMs = 37;
    const proc = processOn(base, { refreshBusyRetryDelaysMs: [retryDelayMs, retryDelayMs, retryDelayMs] });
    const { deps, background } = proc.process;
    try {
      await createTestItem(deps, 'item_leased');
      await leftLease(deps, 'item_leased', base.clock.now() + INGESTION_LEASE_MS);
      const retrying = timerArmed(retryDelayMs);
      await background.ports.refreshQueue.enqueue({ item_id: 'item_leased', reason: 'on_demand' });
      await retrying;
      // The crashed writer's lease runs out before the retry.
      base.clock.advance(INGESTION_LEASE_MS + 1);
      await background.idle();
      const item = await deps.ddb.send(new GetCommand({ TableName: base.tableName, Key: keys.item('item_leased'), ConsistentRead: true }));
      expect(item.Item?.last_successful_sync).toBe(new Date(base.clock.now()).toISOString());
      expect(item.Item?.ingest_lease_until).toBeUndefined();
      expect(await dynamoRefreshJobStore(() => deps).pending()).toEqual([]);
    } finally {
      background.stop();
      proc.close();
    }
  });

  it('gives up after its bounded retries while the lease holds, and leaves no job behind', async () => {
    const base = await sharedTable();
    const proc = processOn(base, { refreshBusyRetryDelaysMs: [1, 1] });
    const { deps, background } = proc.process;
    try {
      await createTestItem(deps, 'item_held');
      await leftLease(deps, 'item_held', base.clock.now() + INGESTION_LEASE_MS);
      await background.ports.refreshQueue.enqueue({ item_id: 'item_held', reason: 'on_demand' });
      await background.idle();
      const item = await deps.ddb.send(new GetCommand({ TableName: base.tableName, Key: keys.item('item_held'), ConsistentRead: true }));
      expect(item.Item?.last_successful_sync ?? null).toBeNull();
      // One try and two retries, each counted by the sandbox's refresh counter.
      expect(item.Item?.refresh_count).toBe(3);
      expect(await dynamoRefreshJobStore(() => deps).pending()).toEqual([]);
    } finally {
      background.stop();
      proc.close();
    }
  });
});
