// Benchmark: POST /v1/ai/categorize with 1,000 raw rows, rules only (no model), through the route's
// handler in process (middleware, metering write, zod validation of the payload, the enrichment
// engines, the response), against two floors measured in the same run: categories/get through its
// handler (the same middleware and metering write, no work), and the enrichment engines alone on the
// same 1,000 rows (no HTTP, no validation). Figures only, never asserted.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { enrichTransaction } from '../functions/core/enrichment/enrich';
import { generateApiKey } from '../functions/core/api-keys';
import { loadHandlers } from '../functions/platform/local/http-server';
import { startLocalStack } from '../functions/platform/local/local-stack';
import { fmt, table } from './lib';

const ROWS = 1000;
const ITERATIONS = Number(process.env.BENCH_AI_ITERATIONS ?? 200);
const WARMUP = 20;
const KEY = generateApiKey('test');

/**
 * 1,000 descriptors in the shapes statements take (card lead-ins, processors, store numbers, ACH,
 * transfers, payroll) and a share of strings no engine knows, generated here, deterministic.
 */
function rows(): Array<{ id: string; description: string; amount: number; date: string }> {
  const shapes = [
    (i: number) => `SQ *CORNER COFFEE ${i % 97}`,
    (i: number) => `NETFLIX.COM ${i % 13}`,
    (i: number) => `POS DEBIT SHELL OIL ${10_000 + i}`,
    (i: number) => `TST* PIZZA PLACE ${i % 50}`,
    (i: number) => `AMAZON MKTPL*${(i * 7919).toString(36).toUpperCase()}`,
    (i: number) => `ACH DEBIT CITY WATER UTIL ${i % 31}`,
    (i: number) => `ZELLE TO FRIEND ${i % 17}`,
    (i: number) => `PAYROLL DIRECT DEP EMPLOYER ${i % 5}`,
    (i: number) => `CHECKCARD 1103 GROCERY MART #${i % 400}`,
    (i: number) => `${(i * 104_729).toString(36).toUpperCase()} ${(i * 31).toString(36).toUpperCase()} LLC`,
  ];
  return Array.from({ length: ROWS }, (_, i) => ({
    id: `t${i}`,
    description: shapes[i % shapes.length](i),
    amount: i % 10 === 7 ? -(1000 + (i % 300)) : 3 + ((i * 37) % 20_000) / 100,
    date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function timed(n: number, run: (i: number) => Promise<void> | void): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

export async function runAiCategorize(): Promise<void> {
  console.log(`\n== AI categorize: ${ROWS} raw rows, rules only, through the handler, ${ITERATIONS} sequential requests ==`);
  const stack = await startLocalStack({ inMemory: true, port: 0, seed: [{ application: 'Bench AI', plan: 'enterprise', keys: [KEY] }] });
  try {
    // Rules only, whatever the environment names.
    stack.deps.model = null;
    const { handlers } = loadHandlers();
    const payload = rows();
    const event = (path: string, body: string, i: number) =>
      ({
        httpMethod: 'POST',
        path,
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body,
        isBase64Encoded: false,
        requestContext: { requestId: `bench-ai-${path}-${i}`, stage: 'local', domainName: 'localhost' },
      }) as unknown as APIGatewayProxyEvent;
    const invoke = (routeId: string, path: string, body: string) => async (i: number) => {
      const res = await handlers.get(routeId)!(event(path, body, i), {} as never);
      if (res.statusCode !== 200) throw new Error(`${routeId}: unexpected ${res.statusCode}: ${res.body.slice(0, 300)}`);
    };
    const categorize = invoke('ai.categorize', '/v1/ai/categorize', JSON.stringify({ transactions: payload }));
    const floor = invoke('categories.get', '/v1/categories/get', '{}');
    const engines = () => {
      for (const row of payload) enrichTransaction(row.description, row.amount);
    };
    // Warm-up: JIT, DynamoDB Local, the directory and learned model loading on first use.
    await timed(WARMUP, categorize);
    await timed(WARMUP, floor);
    await timed(WARMUP, engines);
    const measured = {
      categorize: await timed(ITERATIONS, categorize),
      floor: await timed(ITERATIONS, floor),
      engines: await timed(ITERATIONS, engines),
    };
    const answer = JSON.parse((await handlers.get('ai.categorize')!(event('/v1/ai/categorize', JSON.stringify({ transactions: payload }), -1), {} as never)).body) as {
      categorized: Array<{ decided_by: string | null }>;
    };
    const decided = answer.categorized.filter((r) => r.decided_by !== null).length;
    console.log(table([
      { what: 'ai/categorize, 1,000 raw rows (handler)', 'p50 ms': fmt(measured.categorize.p50), 'p99 ms': fmt(measured.categorize.p99), 'p50 / floor': fmt(measured.categorize.p50 / measured.floor.p50, 1) },
      { what: 'floor: categories/get (handler, same middleware)', 'p50 ms': fmt(measured.floor.p50), 'p99 ms': fmt(measured.floor.p99), 'p50 / floor': '1.0' },
      { what: 'the enrichment engines alone, same 1,000 rows', 'p50 ms': fmt(measured.engines.p50), 'p99 ms': fmt(measured.engines.p99), 'p50 / floor': fmt(measured.engines.p50 / measured.floor.p50, 1) },
    ]));
    console.log(`rows decided by an engine: ${decided} of ${ROWS}; handler cost beyond the floor and the engines: ${fmt(measured.categorize.p50 - measured.floor.p50 - measured.engines.p50)} ms at p50`);
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  runAiCategorize().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
