// The embedded learned fallback: a small linear model (multinomial logistic regression over hashed
// word and character n-gram features) that runs only where the rules and the brand directory both
// abstain. It reads the same cleaned descriptor the rules see and answers a detailed category with
// a probability; below the artefact's threshold, or when its best guess is "none", it abstains.
//
// The model is trained offline by scripts/enrichment/train-model.ts on data assembled there (brand
// names of the directory and authored category lexicons, printed in the shapes banks use), and
// shipped as ./learned.data.ts, loaded on first use (required inside `model()`, so bundles that
// never enrich drop it and the ones that do parse it on their first prediction, not at cold
// start). Deterministic: integer feature hashes, fixed weights, no randomness at run time.
import { primaryOf } from '../taxonomy';

/** The artefact's shape (./learned.data.ts). */
export interface LearnedModelData {
  version: string;
  /** Class labels: detailed categories, and `none` (a descriptor that names no category). */
  classes: readonly string[];
  /** Feature-hash space: 2^bits buckets. */
  bits: number;
  /** Weights are stored as integers; the real weight is value / scale. */
  scale: number;
  /** Probability at or above which the model answers. */
  threshold: number;
  bias: readonly number[];
  /** One bucket a line: bucket (base 36) then `class:weight` pairs (base 36 class, integer weight). */
  weights: string;
}

export interface Prediction {
  category_detailed: string | null;
  probability: number;
}

export const NONE_CLASS = 'none';

/** 32-bit FNV-1a: stable across runs and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Feature strings of a cleaned descriptor (upper-case words separated by single spaces): each word,
 * the first word marked as first, adjacent word pairs, and the character 3- and 4-grams of each word
 * with its boundaries (so a word cut short, RESTAUR, still shares most grams with RESTAURANT).
 */
export function featuresOf(cleaned: string): string[] {
  const words = cleaned.split(' ').filter((w) => w !== '' && !/^\d+$/.test(w));
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    out.push(`w:${w}`);
    if (i === 0) out.push(`f:${w}`);
    if (i > 0) out.push(`b:${words[i - 1]}_${w}`);
    const padded = `<${w}>`;
    for (const n of [3, 4]) {
      for (let j = 0; j + n <= padded.length; j++) out.push(`g${n}:${padded.slice(j, j + n)}`);
    }
  }
  return out;
}

/** Hashed feature buckets of a cleaned descriptor, deduplicated. */
export function bucketsOf(cleaned: string, bits: number): number[] {
  const mask = (1 << bits) - 1;
  return [...new Set(featuresOf(cleaned).map((f) => fnv1a(f) & mask))];
}

interface Model {
  data: LearnedModelData;
  weights: Map<number, Array<[number, number]>>;
}

function parse(data: LearnedModelData): Model {
  const weights = new Map<number, Array<[number, number]>>();
  for (const line of data.weights.split('\n')) {
    if (line === '') continue;
    const [bucket, ...pairs] = line.split(' ');
    weights.set(
      parseInt(bucket, 36),
      pairs.map((p) => {
        const [c, w] = p.split(':');
        return [parseInt(c, 36), Number(w) / data.scale];
      }),
    );
  }
  return { data, weights };
}

let loaded: Model | undefined;

function model(): Model {
  if (!loaded) {
    // Required here, not imported at the top: see the header comment.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { LEARNED_MODEL } = require('./learned.data') as { LEARNED_MODEL: LearnedModelData };
    loaded = parse(LEARNED_MODEL);
  }
  return loaded;
}

/** Whether the artefact has been parsed yet: for the lazy-loading test. */
export function learnedModelLoaded(): boolean {
  return loaded !== undefined;
}

export function learnedModelVersion(): string {
  return model().data.version;
}

/** Class probabilities (softmax) for a cleaned descriptor under the given weights. */
export function probabilities(
  buckets: readonly number[],
  classes: number,
  bias: readonly number[],
  weightsOf: (bucket: number) => ReadonlyArray<readonly [number, number]> | undefined,
): number[] {
  const z = bias.slice(0, classes);
  for (const b of buckets) {
    const ws = weightsOf(b);
    if (ws) for (const [c, w] of ws) z[c] += w;
  }
  let max = -Infinity;
  for (const v of z) if (v > max) max = v;
  let sum = 0;
  for (let i = 0; i < z.length; i++) {
    z[i] = Math.exp(z[i] - max);
    sum += z[i];
  }
  return z.map((v) => v / sum);
}

/**
 * The best guess from class probabilities: the most probable primary category (the sum of its
 * detailed classes' probabilities; `none` is its own group), and within it the most probable
 * detailed class. Confidence is the primary's probability, because a guess split between two
 * detailed classes of one primary (fast food or restaurant) is still a sure primary.
 */
export function bestGuess(p: readonly number[], classes: readonly string[]): { label: string; probability: number } {
  const byGroup = new Map<string, number>();
  for (let i = 0; i < p.length; i++) {
    const group = primaryOf(classes[i]) ?? classes[i];
    byGroup.set(group, (byGroup.get(group) ?? 0) + p[i]);
  }
  let group = '';
  let probability = -1;
  for (const [g, q] of byGroup) if (q > probability) [group, probability] = [g, q];
  let best = -1;
  for (let i = 0; i < p.length; i++) if ((primaryOf(classes[i]) ?? classes[i]) === group && (best < 0 || p[i] > p[best])) best = i;
  return { label: classes[best], probability };
}

/**
 * The model's answer for a cleaned descriptor: its best guess (bestGuess) and the guess's
 * probability, or a null category when that probability is under the threshold or the guess is
 * `none`. `threshold` overrides the artefact's (for measuring the trade-off).
 */
export function predictCategory(cleaned: string, threshold?: number): Prediction {
  const m = model();
  const { data } = m;
  if (cleaned.trim() === '') return { category_detailed: null, probability: 0 };
  const p = probabilities(bucketsOf(cleaned, data.bits), data.classes.length, data.bias, (b) => m.weights.get(b));
  const { label, probability } = bestGuess(p, data.classes);
  const answered = label !== NONE_CLASS && probability >= (threshold ?? data.threshold);
  return { category_detailed: answered ? label : null, probability };
}
