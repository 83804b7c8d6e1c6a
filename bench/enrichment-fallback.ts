// Enrichment fallback benchmark: the brand directory and the learned model behind the rules
// (functions/core/enrichment/enrich.ts). Prints, never asserts:
//   - precision, coverage and accuracy (accuracyReport, the rules' own metric) on the held-out part
//     of the assembled data (brands and names the model never saw): rules only, rules + learned,
//     and the whole composition;
//   - the same on the project's labelled set: rules only against the composition, and which
//     engine decided how many rows;
//   - cost: the first use (loading both artefacts), the fallback per row where the rules abstain,
//     and the rules path per 1,000 descriptors measured in the same run (the floor).
//
//   npx tsx bench/enrichment-fallback.ts
import { accuracyReport, type AccuracyReport } from '../functions/core/enrichment/accuracy';
import { brandDirectorySize, brandDirectoryVersion } from '../functions/core/enrichment/brands';
import { enrichTransaction } from '../functions/core/enrichment/enrich';
import { learnedModelVersion } from '../functions/core/enrichment/learned';
import { enrichDescriptor } from '../functions/core/enrichment/rules';
import { CLASSIFIERS, heldOutRows, type Classifier } from '../scripts/enrichment/held-out';
import { LABELLED_DESCRIPTORS } from '../test/data/labelled-descriptors';
import { fmt, table } from './lib';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const figures = (name: string, r: AccuracyReport) => ({
  engine: name,
  precision: pct(r.overall.precision),
  coverage: pct(r.overall.coverage),
  accuracy: pct(r.overall.accuracy),
  'detailed acc.': pct(r.overall.detailedAccuracy),
  'null rows left null': pct(r.overall.abstention),
});

function timePerRow(rows: ReadonlyArray<readonly [string, number]>, f: Classifier, passes: number): number {
  let sink = 0;
  for (let i = 0; i < 3; i++) for (const [d, a] of rows) sink += f(d, a).payment_channel.length;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < passes; i++) for (const [d, a] of rows) sink += f(d, a).payment_channel.length;
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / (passes * rows.length);
  if (sink === 0) throw new Error('unreachable');
  return us;
}

export async function runEnrichmentFallback(): Promise<void> {
  console.log('\n== Enrichment fallback: brand directory and learned model behind the rules ==');
  const t0 = process.hrtime.bigint();
  const first = enrichTransaction('XQZV PLUGH 4471', 20);
  const firstUseMs = Number(process.hrtime.bigint() - t0) / 1e6;
  console.log(`directory ${brandDirectoryVersion()} (${brandDirectorySize()} keys), model ${learnedModelVersion()}; first use (both artefacts parsed): ${fmt(firstUseMs, 1)} ms (${first.engine})`);

  const heldOut = heldOutRows();
  const parts: ReadonlyArray<readonly [string, (source: string) => boolean]> = [
    ['all sources', () => true],
    ['directory brands', (s) => s === 'directory'],
    ['local names and names without a category', (s) => s === 'lexicon' || s === 'none'],
  ];
  for (const [label, keep] of parts) {
    const rows = heldOut.filter((r) => keep(r[4]));
    console.log(`\nHeld-out part, ${label}: ${rows.length} rows, brands and names never trained on:`);
    console.log(table(CLASSIFIERS.map(([name, f]) => figures(name, accuracyReport(rows, f)))));
  }

  console.log(`\nProject labelled set (${LABELLED_DESCRIPTORS.length} rows):`);
  console.log(table([figures('rules only', accuracyReport(LABELLED_DESCRIPTORS)), figures('composition', accuracyReport(LABELLED_DESCRIPTORS, (d, a) => enrichTransaction(d, a)))]));
  const engines = new Map<string, number>();
  for (const [d, a] of LABELLED_DESCRIPTORS) {
    const e = String(enrichTransaction(d, a).engine);
    engines.set(e, (engines.get(e) ?? 0) + 1);
  }
  console.log(`decided by: ${[...engines].map(([e, n]) => `${e} ${n}`).join(', ')}`);

  const all = LABELLED_DESCRIPTORS.map(([d, a]) => [d, a] as const);
  const abstained = [...all, ...heldOut.map(([d, a]) => [d, a] as const)].filter(([d, a]) => enrichDescriptor(d, a).category === null);
  const rulesUs = timePerRow(all, (d, a) => enrichDescriptor(d, a), 50);
  const composedUs = timePerRow(all, (d, a) => enrichTransaction(d, a), 50);
  const fallbackUs = timePerRow(abstained, (d, a) => enrichTransaction(d, a), 20) - timePerRow(abstained, (d, a) => enrichDescriptor(d, a), 20);
  console.log('\nCost, single thread, warm:');
  console.log(table([
    { path: 'rules only, labelled set', 'µs/row': fmt(rulesUs), 'ms per 1,000': fmt(rulesUs), 'x floor': '1.00' },
    { path: 'composition, labelled set', 'µs/row': fmt(composedUs), 'ms per 1,000': fmt(composedUs), 'x floor': fmt(composedUs / rulesUs) },
    { path: `fallback only, on ${abstained.length} rows the rules abstain on`, 'µs/row': fmt(fallbackUs), 'ms per 1,000': fmt(fallbackUs), 'x floor': fmt(fallbackUs / rulesUs) },
  ]));
}

if (require.main === module) {
  runEnrichmentFallback().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
