// One descriptor through the three enrichment engines, in order; the first that decides wins:
//   1. rules (./rules.ts): the 526 descriptor rules: brands, category words, bank phrasing;
//   2. directory (./brands.ts): about six thousand chains from OpenStreetMap's brand list, on
//      whole words of the cleaned descriptor, where the rules know no brand and no category word;
//   3. learned (./learned.ts): a small linear model over words and character n-grams, for local
//      businesses and cut-short words, answering only above its probability threshold.
// Every answer says which engine decided (`engine`, null when all three abstain) and how sure it
// is (`confidence` in [0, 1]: a fixed value per rules and directory match kind, the model's
// probability for the learned engine). Ingestion stores only the Enrichment fields (a stored
// transaction keeps its twelve fields); the AI endpoints return the engine per row.
//
// Inflows: a brand matched by the directory on money coming in is a refund from it, as the rules
// decide for their own merchants; the learned engine answers outflows only, because money coming
// in from an unknown name is more often a person, an employer or a transfer than a refund.
// Pure and deterministic; the directory and the model load on first use, not at module load.
import { primaryOf } from '../taxonomy';
import { matchBrand, type BrandMatch } from './brands';
import { predictCategory } from './learned';
import { enrichDescriptor, normalizeDescriptor, type Enrichment } from './rules';

export type EnrichmentEngine = 'rules' | 'directory' | 'learned';

export interface ComposedEnrichment extends Enrichment {
  engine: EnrichmentEngine | null;
  confidence: number;
}

/** Confidence reported for a rules decision (the rules do not score themselves). */
export const RULES_CONFIDENCE = 0.95;
/** Confidence of a directory match, by how it matched. */
export const DIRECTORY_CONFIDENCE: Readonly<Record<BrandMatch['how'], number>> = { words: 0.9, glued: 0.85, truncated: 0.8 };

const REFUND = 'income_refunds';

function titleCase(cleaned: string): string | null {
  const words = cleaned.split(' ').filter((w) => w !== '' && !/^\d+$/.test(w)).slice(0, 5);
  if (words.length === 0) return null;
  return words.map((w) => (w.length <= 3 && !/[AEIOUY]/.test(w) ? w : w[0] + w.slice(1).toLowerCase())).join(' ');
}

function decided(detailed: string, merchant: string | null, channel: Enrichment['payment_channel'], engine: EnrichmentEngine, confidence: number): ComposedEnrichment {
  return { merchant_name: merchant, category: primaryOf(detailed)!, category_detailed: detailed, payment_channel: channel, engine, confidence };
}

/**
 * Enriches one raw descriptor: rules, then the brand directory, then the learned model. Takes the
 * same arguments as `enrichDescriptor` (descriptor, signed amount with positive = money out, and any
 * connector hints), which it passes to the rules unchanged.
 */
export function enrichTransaction(...args: Parameters<typeof enrichDescriptor>): ComposedEnrichment {
  const [descriptor, amount] = args;
  const rules = enrichDescriptor(...args);
  if (rules.category !== null) return { ...rules, engine: 'rules', confidence: RULES_CONFIDENCE };

  const cleaned = normalizeDescriptor(descriptor ?? '');
  const inflow = amount < 0;
  const brand = matchBrand(cleaned);
  if (brand) {
    const channel = rules.payment_channel === 'other' ? 'in_store' : rules.payment_channel;
    return decided(inflow ? REFUND : brand.category_detailed, brand.merchant_name, channel, 'directory', DIRECTORY_CONFIDENCE[brand.how]);
  }

  if (!inflow) {
    const guess = predictCategory(cleaned);
    if (guess.category_detailed !== null) {
      return decided(guess.category_detailed, rules.merchant_name ?? titleCase(cleaned), rules.payment_channel, 'learned', guess.probability);
    }
  }
  return { ...rules, engine: null, confidence: 0 };
}
