// Benchmark: per-request overhead of the middleware stack (request id, version, auth +
// rate limit + metering in one DynamoDB write, JSON/zod validation, envelope, logging) on
// categories/get and institutions/search over local HTTP, beside a bare node:http handler serving
// the same payloads, in the same run. Also DynamoDB calls per request.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { generateApiKey } from '../functions/core/api-keys';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { loadHandlers } from '../functions/platform/local/http-server';
import { UpdateCommand } from '../functions/platform/aws/dynamodb';
import { fmt, load, startChild, table } from './lib';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
// Several enterprise keys so the 1,000 rps per-key bucket never throttles the measurement.
const KEYS = Array.from({ length: 8 }, () => generateApiKey('test'));

const CASES = [
  { name: 'categories/get', path: '/v1/categories/get', body: '{}' },
  { name: 'institutions/search', path: '/v1/institutions/search', body: JSON.stringify({ query: 'bank', types: ['bank'] }) },
];

/** The floor of the metering write: raw UpdateItem calls on one row at the same concurrency. */
async function rawUpdateItemLatency(stack: Awaited<ReturnType<typeof startLocalStack>>, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const n = 2000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next += 1;
        const t0 = process.hrtime.bigint();
        await stack.deps.ddb.send(
          new UpdateCommand({
            TableName: stack.deps.config.tableName,
            Key: { pk: 'BENCH#raw', sk: 'ROW' },
            UpdateExpression: 'ADD #n :one',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':one': 1 },
          }),
        );
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { p50: latencies[Math.floor(n * 0.5)], p99: latencies[Math.floor(n * 0.99)], rps: n / seconds };
}

async function ddbCallsPerRequest(): Promise<{ calls: Record<string, number>; raw: Array<Record<string, string | number>> }> {
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench', plan: 'enterprise', keys: [KEYS[0]] }] });
  try {
    const { handlers } = loadHandlers();
    const out: Record<string, number> = {};
    for (const c of CASES) {
      const routeId = c.path === '/v1/categories/get' ? 'categories.get' : 'institutions.search';
      const handler = handlers.get(routeId)!;
      const n = 200;
      const before = stack.deps.ddbCalls.count;
      for (let i = 0; i < n; i += 1) {
        const event = {
          httpMethod: 'POST',
          path: c.path,
          headers: { Authorization: `Bearer ${KEYS[0]}`, 'Content-Type': 'application/json' },
          body: c.body,
          isBase64Encoded: false,
          requestContext: { requestId: `bench-${i}`, stage: 'local', domainName: 'localhost' },
        } as unknown as APIGatewayProxyEvent;
        const res = await handler(event, {} as never);
        if (res.statusCode !== 200) throw new Error(`unexpected ${res.statusCode}: ${res.body}`);
        await new Promise((r) => setTimeout(r, 2)); // keep the bucket idle, as sequential traffic is
      }
      out[c.name] = (stack.deps.ddbCalls.count - before) / n;
    }
    const raw = [];
    for (const concurrency of [1, CONCURRENCY]) {
      const r = await rawUpdateItemLatency(stack, concurrency);
      raw.push({ 'DynamoDB Local UpdateItem': `concurrency ${concurrency}`, 'p50 ms': fmt(r.p50), 'p99 ms': fmt(r.p99), 'writes/s': fmt(r.rps, 0) });
    }
    return { calls: out, raw };
  } finally {
    await stack.stop();
  }
}

export async function runMiddlewareOverhead(): Promise<void> {
  console.log(`\n== Middleware overhead: ${REQUESTS} requests per case, concurrency ${CONCURRENCY}, keep-alive, loopback ==`);
  const { calls, raw } = await ddbCallsPerRequest();
  const service = await startChild('bin/local.ts', {
    PORT: '0',
    FC_LOCAL_IN_MEMORY: '1',
    POWERTOOLS_LOG_LEVEL: 'WARN',
    FC_LOCAL_SEED: JSON.stringify(KEYS.map((key, i) => ({ application: `Bench ${i}`, plan: 'enterprise', keys: [key] }))),
  });
  const bare = await startChild('bench/bare-server.ts', {});
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const c of CASES) {
      for (const [label, server, auth, concurrency] of [
        ['bare node:http', bare, false, 1],
        ['fincore (middy stack)', service, true, 1],
        ['bare node:http', bare, false, CONCURRENCY],
        ['fincore (middy stack)', service, true, CONCURRENCY],
      ] as const) {
        const spec = {
          url: server.baseUrl + c.path,
          body: c.body,
          headers: (i: number): Record<string, string> => (auth ? { Authorization: `Bearer ${KEYS[i % KEYS.length]}` } : {}),
          concurrency,
        };
        await load({ ...spec, requests: 300 }); // warm-up (JIT, connections, DynamoDB Local)
        const r = await load({ ...spec, requests: REQUESTS });
        const non200 = Object.entries(r.statuses).filter(([s]) => s !== '200');
        if (non200.length) throw new Error(`${label} ${c.name}: non-200 answers ${JSON.stringify(r.statuses)}`);
        rows.push({
          case: c.name,
          server: label,
          conc: concurrency,
          'p50 ms': fmt(r.p50),
          'p99 ms': fmt(r.p99),
          'req/s': fmt(r.rps, 0),
          'DynamoDB calls/req': auth ? fmt(calls[c.name]) : '0',
        });
      }
      const [b, f] = rows.slice(-2);
      rows.push({ case: c.name, server: '=> overhead', conc: CONCURRENCY, 'p50 ms': fmt(Number(f['p50 ms']) - Number(b['p50 ms'])), 'p99 ms': fmt(Number(f['p99 ms']) - Number(b['p99 ms'])), 'req/s': '', 'DynamoDB calls/req': '' });
    }
  } finally {
    await service.stop();
    await bare.stop();
  }
  console.log(table(rows));
  console.log(table(raw));
  console.log('DynamoDB calls/req: one conditional UpdateItem authenticates, rate-limits and meters each request (measured in-process over 200 sequential requests).');
}

if (require.main === module) {
  runMiddlewareOverhead().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
