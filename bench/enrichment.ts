// Descriptor rules engine benchmark: accuracy on the labelled set (test/data/labelled-descriptors.ts)
// and throughput of enrichDescriptor, single-threaded, in process. The accuracy figures come from
// accuracyReport, the same function the accuracy test asserts on. Target: 1,000 descriptors
// categorised in under 5 ms on one core. Timings are printed, never asserted.
//
//   npx tsx bench/enrichment.ts            (BENCH_ENRICHMENT_RUNS=200 for more runs)
import { accuracyReport, formatAccuracyReport } from '../functions/core/enrichment/accuracy';
import { RULE_COUNT, RULES_VERSION, enrichDescriptor } from '../functions/core/enrichment/rules';
import { LABELLED_DESCRIPTORS } from '../test/data/labelled-descriptors';
import { table } from './lib';

const RUNS = Number(process.env.BENCH_ENRICHMENT_RUNS ?? 100);
const WARMUP_RUNS = 20;

/** One pass over every labelled descriptor; returns elapsed milliseconds. */
function pass(rows: ReadonlyArray<readonly [string, number]>): number {
  let sink = 0;
  const t0 = process.hrtime.bigint();
  for (const [descriptor, amount] of rows) sink += enrichDescriptor(descriptor, amount).payment_channel.length;
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (sink === 0) throw new Error('unreachable');
  return ms;
}

export async function runEnrichment(): Promise<void> {
  const rows = LABELLED_DESCRIPTORS.map(([d, a]) => [d, a] as const);
  console.log(`\n== Descriptor rules engine: ${RULE_COUNT} rules (version ${RULES_VERSION}), ${rows.length} labelled descriptors ==`);
  console.log(formatAccuracyReport(accuracyReport(LABELLED_DESCRIPTORS)));

  // Cold: the first call pays for nothing but the JIT (rules compile at module load, above).
  const cold = pass(rows);
  for (let i = 0; i < WARMUP_RUNS; i++) pass(rows);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(pass(rows));
  times.sort((a, b) => a - b);
  const best = times[0];
  const median = times[Math.floor(times.length / 2)];
  const p90 = times[Math.floor(times.length * 0.9)];
  const per1000 = (ms: number) => (ms * 1000) / rows.length;
  console.log(`\nThroughput, single thread, warm (${WARMUP_RUNS} warm-up passes, then ${RUNS} timed passes over all ${rows.length} descriptors):`);
  console.log(
    table([
      { pass: 'first (cold JIT)', ms: cold.toFixed(2), 'ms per 1,000': per1000(cold).toFixed(2), 'descriptors/ms': (rows.length / cold).toFixed(0) },
      { pass: 'best', ms: best.toFixed(2), 'ms per 1,000': per1000(best).toFixed(2), 'descriptors/ms': (rows.length / best).toFixed(0) },
      { pass: 'median', ms: median.toFixed(2), 'ms per 1,000': per1000(median).toFixed(2), 'descriptors/ms': (rows.length / median).toFixed(0) },
      { pass: 'p90', ms: p90.toFixed(2), 'ms per 1,000': per1000(p90).toFixed(2), 'descriptors/ms': (rows.length / p90).toFixed(0) },
    ]),
  );
  console.log(`Target: 1,000 descriptors in under 5 ms on one core; median here ${per1000(median).toFixed(2)} ms per 1,000 (${median < (5 * rows.length) / 1000 ? 'met' : 'NOT met'}).`);
}

if (require.main === module) {
  runEnrichment().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
