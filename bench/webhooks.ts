// Benchmark: what one webhook costs, and how fast events go from commit to signed delivery on
// loopback, in local mode (outbox write, publish, dispatch with its first attempt: signing, POST,
// delivery row; for a failed first attempt, the WebhookDelivery state machine in
// aws-local-stepfunctions).
//
// Costs are counted, not timed: DynamoDB calls per event (beyond the outbox row written with the
// change; left out are calls to the local runtime's own execution rows, which Step Functions
// replaces on AWS, and the periodic sweeps' index queries, which are not per event), Step Functions executions started per event, KMS Decrypt calls per event,
// and the state transitions one execution of the deployed definition makes. The figures before
// dispatch made the first attempt are quoted from docs/benchmarks.md, where they were measured.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StateMachine } from 'aws-local-stepfunctions';
import { registerEndpoint } from '../functions/app/webhooks';
import { emitEvent } from '../functions/data/events';
import { keys } from '../functions/data/keys';
import { verifyWebhook } from '../functions/core/webhook-signature';
import { generateApiKey } from '../functions/core/api-keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { LOCAL_DEFINITIONS, scaledWaits } from '../functions/platform/local/workflows';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../functions/workers/webhook-schedule';
import { fmt, table } from './lib';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 8);
const COST_EVENTS = Number(process.env.BENCH_WEBHOOK_COST_EVENTS ?? 40);
/** The whole retry schedule (9,360 s) in about 10 ms: the all-fail path runs to its dead letter. */
const TIME_SCALE = 0.000001;

/** Before dispatch made the first attempt (commit 9cc5160), as measured then. */
const BEFORE = {
  firstAttempt: { calls: 9, executions: 1, transitions: 3, decrypts: 1 },
  allFail: { calls: 30, executions: 1, transitions: 16, decrypts: 5 },
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

/**
 * State transitions (states entered) of one WebhookDelivery execution of the deployed definition,
 * started after `attemptsMade` attempts, whose attempts succeed from attempt `deliveredAt` on.
 */
async function transitionsOf(attemptsMade: number, deliveredAt: number): Promise<number> {
  const definition = LOCAL_DEFINITIONS.webhookDelivery;
  const machine = new StateMachine(JSON.parse(JSON.stringify(definition)));
  const tasks = Object.fromEntries(
    Object.entries(definition.States)
      .filter(([, state]) => state.Type === 'Task')
      .map(([name]) => [
        name,
        (input: unknown) => {
          const attempt = (input as { Payload: { attempt?: number } }).Payload.attempt;
          return { Payload: { delivered: attempt !== undefined && attempt >= deliveredAt, status: 200 } };
        },
      ]),
  );
  const input = { delivery_id: 'd', event_id: 'e', endpoint_id: 'p', application_id: 'a', environment: 'test', body: '{}', attempts_made: attemptsMade };
  const execution = machine.run(input, { overrides: { taskResourceLocalHandlers: tasks, waitTimeOverrides: scaledWaits(0) } });
  let entered = 0;
  for await (const event of execution.eventLogs) if (event.type === 'StateEntered') entered += 1;
  await execution.result.catch(() => undefined);
  return entered;
}

export async function runWebhooks(): Promise<void> {
  console.log(`\n== Webhooks: ${EVENTS} events, ${CONCURRENCY} emitters, one loopback receiver ==`);
  const emittedAt = new Map<string, number>();
  /** When attempt 1 of each event arrived (locally the emit call returns after it: publish dispatches). */
  const firstArrivedAt = new Map<string, number>();
  let verified = 0;
  let secrets: string[] = [];
  let lastReceived = 0;
  let answer = 200;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = Buffer.concat(chunks).toString();
      const result = verifyWebhook({ rawBody: body, signature: req.headers['fc-signature'], timestamp: req.headers['fc-timestamp'], secrets });
      if (result.ok) {
        verified += 1;
        if (req.headers['fc-delivery-attempt'] === '1') firstArrivedAt.set(result.event.id, now);
      }
      lastReceived = now;
      res.writeHead(answer).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const key = generateApiKey('test');
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [key] }], webhookTimeScale: TIME_SCALE });
  // What is counted: DynamoDB calls but the local runtime's execution rows and the periodic sweeps
  // (the webhook path queries no index), executions, Decrypts.
  let uncountedCalls = 0;
  const localRow = keys.localExecution('').pk;
  stack.deps.ddb.use(async (call, next) => {
    const input = call.input as { IndexName?: string };
    if (input.IndexName !== undefined || JSON.stringify(input).includes(localRow)) uncountedCalls += 1;
    return next();
  });
  let executions = 0;
  const deliveries = stack.deps.ports.deliveries;
  const start = deliveries.start.bind(deliveries);
  deliveries.start = async (input) => {
    executions += 1;
    return start(input);
  };
  let decrypts = 0;
  const keyProvider = stack.deps.keyProvider;
  const decrypt = keyProvider.decryptDataKey.bind(keyProvider);
  keyProvider.decryptDataKey = async (wrapped, context) => {
    decrypts += 1;
    return decrypt(wrapped, context);
  };
  const counters = () => ({ calls: stack.deps.ddbCalls.count - uncountedCalls, executions, decrypts });
  /** First-attempt latencies (ms) of the events emitted since `emittedAt` was cleared. */
  const firstAttemptMs = () => [...emittedAt].flatMap(([id, t0]) => (firstArrivedAt.has(id) ? [firstArrivedAt.get(id)! - t0] : []));

  try {
    const tenant = { applicationId: stack.keys[0].applicationId, environment: 'test' as const };
    const registered = await registerEndpoint(stack.deps, tenant, url);
    secrets = [registered.secret!];
    // Warm-up: JIT, the state machine's first validation, connections, the opened secret.
    answer = 500;
    await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: 'item_warm_fail' });
    answer = 200;
    for (let i = 0; i < 20; i += 1) await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: `item_warm_${i}` });
    await stack.background.idle();

    // ---- cost per event, one at a time (the opened secret is cached, as in a warm container) ----
    const costOf = async (status: number) => {
      answer = status;
      const before = counters();
      for (let i = 0; i < COST_EVENTS; i += 1) {
        await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: `item_cost_${status}_${i}` });
        await stack.background.idle();
      }
      const after = counters();
      // Less the outbox row itself (one put per event, written with the change).
      return {
        calls: (after.calls - before.calls) / COST_EVENTS - 1,
        executions: (after.executions - before.executions) / COST_EVENTS,
        decrypts: (after.decrypts - before.decrypts) / COST_EVENTS,
      };
    };
    const firstAttempt = { ...(await costOf(200)), transitions: 0 };
    const allFail = { ...(await costOf(500)), transitions: await transitionsOf(1, Infinity) };
    answer = 200;
    const secondAttemptTransitions = await transitionsOf(1, 2);
    const replayTransitions = await transitionsOf(0, 1);
    const row = (path: string, when: string, c: { calls: number; executions: number; transitions: number; decrypts: number }) => ({
      path,
      when,
      'DynamoDB calls/event (beyond the outbox row)': fmt(c.calls, 1),
      'Step Functions executions/event': fmt(c.executions, 2),
      'state transitions/execution': c.executions > 0 ? c.transitions : 0,
      'KMS Decrypt/event (secret cached)': fmt(c.decrypts, 2),
    });
    console.log(
      table([
        row('delivered at the first attempt', 'before (quoted)', BEFORE.firstAttempt),
        row('delivered at the first attempt', 'now', firstAttempt),
        row(`all ${WEBHOOK_RETRY_DELAYS_SECONDS.length} attempts fail`, 'before (quoted)', BEFORE.allFail),
        row(`all ${WEBHOOK_RETRY_DELAYS_SECONDS.length} attempts fail`, 'now', allFail),
      ]),
    );
    console.log(
      `State transitions of one execution now: ${secondAttemptTransitions} when attempt 2 delivers (before: 6), ` +
        `${replayTransitions} for a replay delivered at once (before: 3).`,
    );

    // ---- throughput and first-attempt latency ----
    verified = 0;
    emittedAt.clear();
    let next = 0;
    const calls0 = counters().calls;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < EVENTS) {
          const i = next++;
          const t0 = performance.now();
          const id = await emitEvent(stack.deps, tenant, 'transactions.sync_updates_available', {
            item_id: `item_bench_${i}`,
            initial_update_complete: true,
            historical_update_complete: true,
          });
          emittedAt.set(id, t0);
        }
      }),
    );
    await stack.background.idle();
    const seconds = (lastReceived - started) / 1000;
    const burst = firstAttemptMs();
    console.log(
      table([
        {
          events: EVENTS,
          'delivered + verified': verified,
          'events/s (commit -> signed delivery)': fmt(verified / seconds, 0),
          'first attempt p50 ms': fmt(percentile(burst, 0.5)),
          'first attempt p99 ms': fmt(percentile(burst, 0.99)),
          'DynamoDB calls/event (with the outbox row)': fmt((counters().calls - calls0) / EVENTS, 1),
        },
      ]),
    );
    // Unloaded: one event at a time, waiting for its delivery before the next.
    emittedAt.clear();
    for (let i = 0; i < 50; i += 1) {
      const t0 = performance.now();
      const id = await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: `item_one_${i}` });
      emittedAt.set(id, t0);
      await stack.background.idle();
    }
    const unloaded = firstAttemptMs();
    console.log(
      table([{ mode: 'one event at a time', events: 50, 'first attempt p50 ms': fmt(percentile(unloaded, 0.5)), 'first attempt p99 ms': fmt(percentile(unloaded, 0.99)) }]),
    );
    console.log('Latency is measured from the emit call (event row written to the outbox) to the receiver reading a verified body.');
  } finally {
    await stack.stop();
    receiver.close();
  }
}

if (require.main === module) {
  runWebhooks().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
