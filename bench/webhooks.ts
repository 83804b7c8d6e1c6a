// Benchmark: events per second from commit to signed delivery on loopback, and the latency
// of the first attempt, in local mode (outbox write, publish, dispatch, delivery row, the
// WebhookDelivery state machine in aws-local-stepfunctions, signing, POST, attempt record).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerEndpoint } from '../functions/app/webhooks';
import { emitEvent } from '../functions/data/events';
import { verifyWebhook } from '../functions/core/webhook-signature';
import { generateApiKey } from '../functions/core/api-keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { fmt, table } from './lib';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_WEBHOOK_CONCURRENCY ?? 8);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

export async function runWebhooks(): Promise<void> {
  console.log(`\n== Webhooks: ${EVENTS} events, ${CONCURRENCY} emitters, one loopback receiver ==`);
  const emittedAt = new Map<string, number>();
  const firstAttemptMs: number[] = [];
  let verified = 0;
  let secrets: string[] = [];
  let lastReceived = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = Buffer.concat(chunks).toString();
      const result = verifyWebhook({ rawBody: body, signature: req.headers['fc-signature'], timestamp: req.headers['fc-timestamp'], secrets });
      if (result.ok) {
        verified += 1;
        const t0 = emittedAt.get(result.event.id);
        if (t0 !== undefined && req.headers['fc-delivery-attempt'] === '1') firstAttemptMs.push(now - t0);
      }
      lastReceived = now;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const key = generateApiKey('test');
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [key] }], webhookTimeScale: 1 });
  try {
    const tenant = { applicationId: stack.keys[0].applicationId, environment: 'test' as const };
    const registered = await registerEndpoint(stack.deps, tenant, url);
    secrets = [registered.secret!];
    // Warm-up: JIT, the state machine's first validation, connections.
    for (let i = 0; i < 20; i += 1) await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: `item_warm_${i}` });
    await stack.background.idle();
    verified = 0;
    firstAttemptMs.length = 0;

    let next = 0;
    const calls0 = stack.deps.ddbCalls.count;
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
    console.log(
      table([
        {
          events: EVENTS,
          'delivered + verified': verified,
          'events/s (commit -> signed delivery)': fmt(verified / seconds, 0),
          'first attempt p50 ms': fmt(percentile(firstAttemptMs, 0.5)),
          'first attempt p99 ms': fmt(percentile(firstAttemptMs, 0.99)),
          'DynamoDB calls/event': fmt((stack.deps.ddbCalls.count - calls0) / EVENTS, 1),
        },
      ]),
    );
    // Unloaded: one event at a time, waiting for its delivery before the next.
    firstAttemptMs.length = 0;
    for (let i = 0; i < 50; i += 1) {
      const t0 = performance.now();
      const id = await emitEvent(stack.deps, tenant, 'item.login_repaired', { item_id: `item_one_${i}` });
      emittedAt.set(id, t0);
      await stack.background.idle();
    }
    console.log(
      table([{ mode: 'one event at a time', events: 50, 'first attempt p50 ms': fmt(percentile(firstAttemptMs, 0.5)), 'first attempt p99 ms': fmt(percentile(firstAttemptMs, 0.99)) }]),
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
