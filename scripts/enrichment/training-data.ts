// Assembles the labelled data the learned fallback is trained and measured on. Every row is made
// here, from two sources with a stated licence, in the shapes a bank's cleaned descriptor takes:
//   - directory: the brand directory's keys (name-suggestion-index, BSD-3-Clause) with their
//     categories, printed whole, cut short the way banks truncate at 22-25 characters, or followed
//     by a city the rules' city list does not know;
//   - lexicon: local-business names authored for this project (lexicons.ts): an invented proprietor
//     or place plus a category word (MARIAS TAQUERIA, OAK HILL AUTO REPAIR, SUNNY NAILS), also cut short;
//   - none: invented people and companies whose name carries no category (ROBERT SMITH, KLEIN
//     HOLDINGS LLC): the model must learn to abstain on them.
// No row comes from a real statement, the project's labelled test set, or any external data set.
//
// Split by brand or name, never by row (`part`): a directory brand's rows, or all rows of one
// invented name, land in one part, so held-out names are unseen. `train` fits the weights,
// `validation` sets the threshold, `test` is only measured.
import { createHash } from 'node:crypto';
import type { BuiltEntry } from './build-brands';
import { CATEGORY_WORDS, ENTITY_WORDS, FIRST_NAMES, PLACE_WORDS, SURNAMES } from './lexicons';
import { brandKey } from '../../functions/core/enrichment/brands';
import { NONE_CLASS } from '../../functions/core/enrichment/learned';

export type Part = 'train' | 'validation' | 'test';

export interface Example {
  /** A cleaned descriptor: upper-case words separated by single spaces. */
  text: string;
  label: string;
  source: 'directory' | 'lexicon' | 'none';
  part: Part;
}

/** Cities a bank may leave after a name that the rules' city list may not know. */
const CITIES = ['SPRINGFIELD', 'FAIRVIEW', 'GREENVILLE', 'MADISON', 'GEORGETOWN', 'SALEM', 'FRANKLIN', 'CLINTON', 'ARLINGTON', 'AURORA',
  'BURLINGTON', 'MANCHESTER', 'OXFORD', 'RIVERTON', 'CENTERVILLE', 'KINGSTON', 'MILTON', 'NEWPORT', 'ASHLAND', 'DOVER'];

/** Deterministic 32-bit PRNG. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The part a brand or a name belongs to: 60 % train, 20 % validation, 20 % test, by a hash of it. */
export function partOf(group: string): Part {
  const h = createHash('sha256').update(group).digest().readUInt32BE(0) % 10;
  return h < 6 ? 'train' : h < 8 ? 'validation' : 'test';
}

/** A bank's cut: the text shortened to a random length (55 % to all but one character), trailing space dropped. */
function cut(text: string, rnd: () => number): string {
  if (text.length < 10) return text;
  const min = Math.max(7, Math.floor(text.length * 0.55));
  const len = min + Math.floor(rnd() * (text.length - min));
  return text.slice(0, len).trim();
}

const pick = <T>(xs: readonly T[], rnd: () => number): T => xs[Math.floor(rnd() * xs.length)];

export function assembleExamples(directory: readonly BuiltEntry[], seed = 20260918): Example[] {
  const rnd = mulberry32(seed);
  const out: Example[] = [];
  const push = (text: string, label: string, source: Example['source'], group: string) => {
    const t = brandKey(text);
    if (t !== '') out.push({ text: t, label, source, part: partOf(source === 'directory' ? `brand:${group}` : `name:${group}`) });
  };

  for (const e of directory) {
    push(e.key, e.detailed, 'directory', e.brandId);
    if (e.key.length >= 10) push(cut(e.key, rnd), e.detailed, 'directory', e.brandId);
    if (rnd() < 0.3) push(`${e.key} ${pick(CITIES, rnd)}`, e.detailed, 'directory', e.brandId);
  }

  const categories = Object.keys(CATEGORY_WORDS).sort();
  for (const category of categories) {
    for (const word of CATEGORY_WORDS[category]) {
      // The word alone, as a one-word business or a descriptor cut down to it (TAPHOUSE, HIBACHI).
      push(word, category, 'lexicon', `word:${word}`);
      for (let k = 0; k < 6; k++) {
        const shape = Math.floor(rnd() * 5);
        const name = shape === 1 ? pick(PLACE_WORDS, rnd) : shape === 4 ? pick(SURNAMES, rnd) : pick(FIRST_NAMES, rnd);
        const text =
          shape === 0 ? `${name} ${word}`
            : shape === 1 ? `${name} ${word}`
              : shape === 2 ? `${word} ${name}`
                : shape === 3 ? `${name} ${word} ${pick(ENTITY_WORDS, rnd)}`
                  : `${name} ${word}`;
        push(rnd() < 0.35 ? cut(text, rnd) : text, category, 'lexicon', name);
      }
    }
  }

  const plainFirst = FIRST_NAMES.map((n) => n.replace(/S$/, ''));
  for (let k = 0; k < 1500; k++) {
    const first = pick(plainFirst, rnd);
    const last = pick(SURNAMES, rnd);
    const shape = Math.floor(rnd() * 4);
    const text = shape === 0 ? `${first} ${last}` : shape === 1 ? `${last} ${pick(ENTITY_WORDS, rnd)}` : shape === 2 ? `${first} ${last[0]} ${pick(SURNAMES, rnd)}` : `${last} ${pick(SURNAMES, rnd)} ${pick(ENTITY_WORDS, rnd)}`;
    push(text, NONE_CLASS, 'none', last);
  }
  return out;
}

/** SHA-256 of the examples, as recorded in the model artefact: the data it was trained on, exactly. */
export function fingerprint(examples: readonly Example[]): string {
  const h = createHash('sha256');
  for (const e of examples) h.update(`${e.text}\t${e.label}\t${e.part}\n`);
  return h.digest('hex').slice(0, 16);
}
