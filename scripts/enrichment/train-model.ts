// Trains the learned fallback and writes its artefact (functions/core/enrichment/learned.data.ts).
//
//   npx tsx scripts/enrichment/train-model.ts           train and write the artefact
//   npx tsx scripts/enrichment/train-model.ts --check   fail if the committed artefact differs
//
// Multinomial logistic regression over hashed features (functions/core/enrichment/learned.ts:
// words, first word, word pairs, character 3- and 4-grams), fitted by plain stochastic gradient
// descent in a fixed, seeded order: the same data gives the same weights, byte for byte. The
// examples come from scripts/enrichment/training-data.ts (brand directory keys and authored
// lexicons, split by brand or name). The threshold is the lowest probability at which the model's
// answers on the validation part keep a precision of at least TARGET_PRECISION; the test part is
// never used to fit or to tune.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { bestGuess, bucketsOf, NONE_CLASS, probabilities, type LearnedModelData } from '../../functions/core/enrichment/learned';
import { packText, unpackedSource } from '../../functions/core/enrichment/packed-text';
import { primaryOf } from '../../functions/core/taxonomy';
import { buildEntries, loadNsi } from './build-brands';
import { assembleExamples, fingerprint, mulberry32, type Example } from './training-data';

const ROOT = path.resolve(__dirname, '../..');
export const MODEL_ARTEFACT = path.join(ROOT, 'functions/core/enrichment/learned.data.ts');
const MODEL_REVISION = 1;
const BITS = 18;
const EPOCHS = 12;
const LEARNING_RATE = 0.5;
/** Weights are stored as integers of 1/SCALE; smaller ones are dropped. */
const SCALE = 20;
const MIN_STORED = 4;
const TARGET_PRECISION = 0.95;

export interface Trained {
  data: LearnedModelData;
  examples: Example[];
  fingerprint: string;
}

function softmaxFit(rows: ReadonlyArray<{ buckets: number[]; y: number }>, classes: number, seed: number): { w: Float32Array; bias: Float64Array } {
  const w = new Float32Array((1 << BITS) * classes);
  const bias = new Float64Array(classes);
  const rnd = mulberry32(seed);
  const order = rows.map((_, i) => i);
  const z = new Float64Array(classes);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    const lr = LEARNING_RATE / Math.sqrt(1 + epoch);
    for (const idx of order) {
      const { buckets, y } = rows[idx];
      for (let c = 0; c < classes; c++) z[c] = bias[c];
      for (const b of buckets) for (let c = 0; c < classes; c++) z[c] += w[b * classes + c];
      let max = -Infinity;
      for (let c = 0; c < classes; c++) if (z[c] > max) max = z[c];
      let sum = 0;
      for (let c = 0; c < classes; c++) {
        z[c] = Math.exp(z[c] - max);
        sum += z[c];
      }
      const step = lr / Math.sqrt(buckets.length);
      for (let c = 0; c < classes; c++) {
        const g = z[c] / sum - (c === y ? 1 : 0);
        if (Math.abs(g) < 1e-4) continue;
        bias[c] -= lr * 0.1 * g;
        for (const b of buckets) w[b * classes + c] -= step * g;
      }
    }
  }
  return { w, bias };
}

function serialiseWeights(w: Float32Array, classes: number): { text: string; stored: Map<number, Array<[number, number]>> } {
  const lines: string[] = [];
  const stored = new Map<number, Array<[number, number]>>();
  for (let b = 0; b < 1 << BITS; b++) {
    const pairs: Array<[number, number]> = [];
    for (let c = 0; c < classes; c++) {
      const q = Math.round(w[b * classes + c] * SCALE);
      if (Math.abs(q) >= MIN_STORED) pairs.push([c, q]);
    }
    if (pairs.length === 0) continue;
    stored.set(b, pairs.map(([c, q]) => [c, q / SCALE]));
    lines.push(`${b.toString(36)} ${pairs.map(([c, q]) => `${c.toString(36)}:${q}`).join(' ')}`);
  }
  return { text: lines.join('\n'), stored };
}

/** Predicts with stored (quantised) weights, as the runtime will. */
function predictor(classes: readonly string[], bias: readonly number[], stored: Map<number, Array<[number, number]>>) {
  return (text: string): { label: string; p: number } => {
    const guess = bestGuess(probabilities(bucketsOf(text, BITS), classes.length, bias, (b) => stored.get(b)), classes);
    return { label: guess.label, p: guess.probability };
  };
}

/** The lowest threshold (in steps of 0.01) at which answered validation rows keep TARGET_PRECISION (primary category). */
function chooseThreshold(rows: readonly Example[], predict: ReturnType<typeof predictor>): number {
  const scored = rows.map((e) => ({ e, ...predict(e.text) }));
  for (let t = 0.3; t < 0.995; t += 0.01) {
    const answered = scored.filter((s) => s.label !== NONE_CLASS && s.p >= t);
    // Primary category, as the accuracy metric (functions/core/enrichment/accuracy.ts) counts precision.
    const correct = answered.filter((s) => primaryOf(s.label) === primaryOf(s.e.label)).length;
    if (answered.length > 0 && correct / answered.length >= TARGET_PRECISION) return Math.round(t * 100) / 100;
  }
  return 0.99;
}

export function train(examples: Example[]): Trained {
  const classes = [...new Set(examples.map((e) => e.label))].sort();
  const index = new Map(classes.map((c, i) => [c, i]));
  const trainRows = examples.filter((e) => e.part === 'train').map((e) => ({ buckets: bucketsOf(e.text, BITS), y: index.get(e.label)! }));
  const { w, bias } = softmaxFit(trainRows, classes.length, 7);
  const { text, stored } = serialiseWeights(w, classes.length);
  const roundedBias = [...bias].map((b) => Math.round(b * 1000) / 1000);
  const threshold = chooseThreshold(examples.filter((e) => e.part === 'validation'), predictor(classes, roundedBias, stored));
  const fp = fingerprint(examples);
  return {
    examples,
    fingerprint: fp,
    data: {
      version: `lr-${fp.slice(0, 8)}.r${MODEL_REVISION}`,
      classes,
      bits: BITS,
      scale: SCALE,
      threshold,
      bias: roundedBias,
      weights: text,
    },
  };
}

export function renderModel(t: Trained, nsiVersion: string): string {
  const count = (part: string) => t.examples.filter((e) => e.part === part).length;
  const bySource = (source: string) => t.examples.filter((e) => e.source === source).length;
  const d = t.data;
  return `// GENERATED by scripts/enrichment/train-model.ts: do not edit by hand (run it, or its --check).
//
// Learned fallback ${d.version}: multinomial logistic regression over hashed features
// (functions/core/enrichment/learned.ts), ${d.classes.length} classes, 2^${d.bits} buckets, weights in 1/${d.scale} units.
// Training data: scripts/enrichment/training-data.ts, fingerprint ${t.fingerprint}, ${t.examples.length} rows
//   (directory ${bySource('directory')}, lexicon ${bySource('lexicon')}, none ${bySource('none')}); split by brand or name:
//   train ${count('train')}, validation ${count('validation')}, test ${count('test')} (never used to fit or tune).
// Sources: brand names from name-suggestion-index ${nsiVersion} (BSD-3-Clause, see brands.data.ts);
//   category lexicons and invented names authored for this project (scripts/enrichment/lexicons.ts).
// Threshold ${d.threshold}: the lowest probability keeping ${TARGET_PRECISION * 100} % precision on the validation part.
// Read by ./learned.ts (as its LearnedModelData), which requires this module on first use.
// The weights are packed (./packed-text.ts): unpacked when this module is first required.
import { unpackText } from './packed-text';

export const LEARNED_MODEL = {
  version: '${d.version}',
  classes: ${JSON.stringify(d.classes)},
  bits: ${d.bits},
  scale: ${d.scale},
  threshold: ${d.threshold},
  bias: ${JSON.stringify(d.bias)},
  weights: unpackText('${packText(`\n${d.weights}\n`)}'),
};
`;
}

export function buildModel(): { trained: Trained; text: string } {
  const nsi = loadNsi();
  const examples = assembleExamples(buildEntries(nsi).entries);
  const trained = train(examples);
  return { trained, text: renderModel(trained, nsi._meta.version) };
}

function main(): void {
  const started = Date.now();
  const { trained, text } = buildModel();
  const rel = path.relative(ROOT, MODEL_ARTEFACT);
  if (process.argv.includes('--check')) {
    if (unpackedSource(readFileSync(MODEL_ARTEFACT, 'utf8')) !== unpackedSource(text)) {
      console.error(`${rel} is stale: run npx tsx scripts/enrichment/train-model.ts`);
      process.exit(1);
    }
    console.log(`${rel} is up to date (${trained.data.version})`);
    return;
  }
  writeFileSync(MODEL_ARTEFACT, text);
  console.log(`wrote ${rel}: ${trained.data.version}, threshold ${trained.data.threshold}, ${text.length} bytes, ${Date.now() - started} ms`);
}

if (require.main === module) main();
