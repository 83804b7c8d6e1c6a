// The held-out measurement shared by bench/enrichment-fallback.ts and the unit test: the `test` part
// of the assembled data (brands and invented names the model never saw), as labelled rows for
// accuracyReport, and the classifiers compared on it.
import type { LabelledRow } from '../../functions/core/enrichment/accuracy';
import { enrichTransaction } from '../../functions/core/enrichment/enrich';
import { NONE_CLASS, predictCategory } from '../../functions/core/enrichment/learned';
import { enrichDescriptor, normalizeDescriptor, type Enrichment } from '../../functions/core/enrichment/rules';
import { primaryOf } from '../../functions/core/taxonomy';
import { buildEntries, loadNsi } from './build-brands';
import { assembleExamples } from './training-data';

/** Held-out rows, as outflows: [descriptor, 25, no expected name, category (null for `none`), source]. */
export function heldOutRows(): LabelledRow[] {
  return assembleExamples(buildEntries(loadNsi()).entries)
    .filter((e) => e.part === 'test')
    .map((e) => [e.text, 25, null, e.label === NONE_CLASS ? null : e.label, e.source] as const);
}

export type Classifier = (descriptor: string, amount: number) => Enrichment;

/** Rules, then the learned model: the composition for a brand the directory does not list. */
export const rulesThenLearned: Classifier = (descriptor, amount) => {
  const rules = enrichDescriptor(descriptor, amount);
  if (rules.category !== null || amount < 0) return rules;
  const guess = predictCategory(normalizeDescriptor(descriptor));
  return guess.category_detailed === null ? rules : { ...rules, category: primaryOf(guess.category_detailed)!, category_detailed: guess.category_detailed };
};

export const CLASSIFIERS: ReadonlyArray<readonly [string, Classifier]> = [
  ['rules only', (d, a) => enrichDescriptor(d, a)],
  ['rules + learned (brand not in the directory)', rulesThenLearned],
  ['rules + directory + learned (composition)', (d, a) => enrichTransaction(d, a)],
];
