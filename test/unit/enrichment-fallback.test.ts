// The enrichment fallback: brand directory and learned model behind the rules
// (functions/core/enrichment/{brands,learned,enrich}.ts), their artefacts and the build scripts
// that produce them.
import { readFileSync } from 'node:fs';
import { enrich } from '../../functions/app/item-source';
import { accuracyReport } from '../../functions/core/enrichment/accuracy';
import { brandDirectoryLoaded, brandKey, matchBrand } from '../../functions/core/enrichment/brands';
import { enrichTransaction, RULES_CONFIDENCE } from '../../functions/core/enrichment/enrich';
import { learnedModelLoaded, predictCategory } from '../../functions/core/enrichment/learned';
import { enrichDescriptor, normalizeDescriptor } from '../../functions/core/enrichment/rules';
import { isDetailedCategory } from '../../functions/core/taxonomy';
import { unpackedSource } from '../../functions/core/enrichment/packed-text';
import { BRANDS_ARTEFACT, buildEntries, loadNsi, renderArtefact } from '../../scripts/enrichment/build-brands';
import { CLASSIFIERS, heldOutRows, rulesThenLearned } from '../../scripts/enrichment/held-out';
import { buildModel, MODEL_ARTEFACT } from '../../scripts/enrichment/train-model';
import { LABELLED_DESCRIPTORS } from '../data/labelled-descriptors';

/** A descriptor no rule, brand or model word covers. */
const NOTHING_KNOWN = 'XQZV PLUGH 4471';

describe('lazy artefacts', () => {
  // Must run first in this file: nothing above has looked anything up yet.
  it('parses neither artefact at module load, nor while the rules decide, and both on the first fallback', () => {
    expect(brandDirectoryLoaded()).toBe(false);
    expect(learnedModelLoaded()).toBe(false);
    expect(enrichTransaction('STARBUCKS STORE 12345 SEATTLE WA', 6.5).engine).toBe('rules');
    expect(brandDirectoryLoaded()).toBe(false);
    expect(learnedModelLoaded()).toBe(false);
    expect(enrichTransaction(NOTHING_KNOWN, 20).engine).toBeNull();
    expect(brandDirectoryLoaded()).toBe(true);
    expect(learnedModelLoaded()).toBe(true);
  });
});

describe('composition order', () => {
  it('keeps the rules answer, field for field, wherever the rules decide', () => {
    let decided = 0;
    for (const [descriptor, amount] of LABELLED_DESCRIPTORS) {
      const rules = enrichDescriptor(descriptor, amount);
      if (rules.category === null) continue;
      decided++;
      expect(enrichTransaction(descriptor, amount)).toEqual({ ...rules, engine: 'rules', confidence: RULES_CONFIDENCE });
    }
    expect(decided).toBeGreaterThan(1000);
  });

  it('asks the directory only where the rules abstain, then the model (outflows only)', () => {
    // Chains the rule table does not list.
    for (const descriptor of ['BOJANGLES 4411 CHARLOTTE NC', 'POS DEBIT 0718 KIRKLANDS LOUISVILLE KY']) {
      expect(enrichDescriptor(descriptor, 12).category).toBeNull();
      const out = enrichTransaction(descriptor, 12);
      expect(out.engine).toBe('directory');
      expect(out.confidence).toBeGreaterThan(0.5);
      expect(out.merchant_name).not.toBeNull();
    }
    // No brand and no rules keyword: category words the model learned from the lexicons. The rules
    // may learn some of these words too; the ones they still abstain on must reach the model.
    const learnedCases: ReadonlyArray<readonly [string, string]> = [
      ['SUMMIT ESTHETICS', 'health_and_personal_care_beauty'],
      ['BAMBOO DIM SUM', 'food_and_drink_restaurants'],
      ['LUPITAS PUPUSERIA', 'food_and_drink_restaurants'],
      ['SAKURA TEPPANYAKI', 'food_and_drink_restaurants'],
    ];
    const reachModel = learnedCases.filter(([d]) => enrichDescriptor(d, 30).category === null && matchBrand(normalizeDescriptor(d)) === null);
    expect(reachModel.length).toBeGreaterThan(0);
    for (const [descriptor, detailed] of reachModel) {
      const learned = enrichTransaction(descriptor, 30);
      expect(learned).toMatchObject({ engine: 'learned', category_detailed: detailed });
      expect(learned.confidence).toBeGreaterThanOrEqual(0.5);
      expect(learned.confidence).toBeLessThanOrEqual(1);
      // Never on an inflow.
      expect(enrichTransaction(descriptor, -30).engine).toBeNull();
    }
  });

  it('says nobody decided when all three abstain, with the rules fields', () => {
    expect(enrichTransaction(NOTHING_KNOWN, 20)).toEqual({ ...enrichDescriptor(NOTHING_KNOWN, 20), engine: null, confidence: 0 });
  });

  it('reads a directory brand on an inflow as a refund', () => {
    expect(enrichTransaction('BOJANGLES 4411 CHARLOTTE NC', -12)).toMatchObject({ engine: 'directory', category_detailed: 'income_refunds' });
  });

  it('stores exactly the twelve transaction fields at ingestion', () => {
    const stored = enrich({
      transaction_id: 't1', account_id: 'a1', date: '2026-01-02', authorized_datetime: null, name: 'BOJANGLES 4411 CHARLOTTE NC',
      amount: 12, iso_currency_code: 'USD', pending: false,
    } as Parameters<typeof enrich>[0]);
    expect(Object.keys(stored)).toHaveLength(12);
    expect(stored).toMatchObject({ category_detailed: 'food_and_drink_fast_food', merchant_name: "Bojangles'" });
    expect(stored).not.toHaveProperty('engine');
  });
});

describe('brand directory', () => {
  it('matches whole words only, one-word brands only at the start, multi-word brands anywhere', () => {
    expect(matchBrand('CHIPOTLE AUSTIN')?.merchant_name).toBe('Chipotle');
    expect(matchBrand('PAYMENT TO CHIPOTLE')).toBeNull();
    expect(matchBrand('CHIPOTLEX')).toBeNull();
    expect(matchBrand('WITHDRAWAL DEBIT FIVE GUYS')).toMatchObject({ merchant_name: 'Five Guys', how: 'words' });
    expect(matchBrand('FIVEGUYS')).toMatchObject({ merchant_name: 'Five Guys', how: 'glued' });
  });

  it('finds a brand the bank cut short, only when the cut leaves one category', () => {
    expect(matchBrand('BED BATH BEYO')).toMatchObject({ category_detailed: 'home_furnishings', how: 'truncated' });
    expect(matchBrand('BED BA')).toBeNull(); // under the 8-character minimum
  });

  it('never matches everyday words or first names on their own', () => {
    for (const word of ['NEXT', 'GAP', 'TARGET', 'SHELL', 'TOTAL', 'BEST', 'GEORGE', 'EXPRESS', 'PREMIER', 'CENTRAL', 'JOHN SMITH']) {
      expect(matchBrand(brandKey(word))).toBeNull();
    }
  });

  it('maps every entry to a detailed category of the taxonomy', () => {
    const { entries } = buildEntries(loadNsi());
    expect(entries.length).toBeGreaterThan(5000);
    for (const e of entries) expect(isDetailedCategory(e.detailed)).toBe(true);
  });
});

describe('learned model', () => {
  it('is deterministic', () => {
    const inputs = ['JOES TAQUERIA', 'OAK HILL AUTO REPAI', 'SUNNY NAILS SPA', 'KLEIN HOLDINGS LLC'];
    const first = inputs.map((t) => predictCategory(t));
    for (let i = 0; i < 3; i++) expect(inputs.map((t) => predictCategory(t))).toEqual(first);
  });

  it('abstains under its threshold and on names that carry no category', () => {
    const sure = predictCategory('JOES TAQUERIA');
    expect(sure.category_detailed).toBe('food_and_drink_restaurants');
    expect(predictCategory('JOES TAQUERIA', Math.min(1, sure.probability + 0.001)).category_detailed).toBeNull();
    expect(predictCategory('ROBERT KLEIN').category_detailed).toBeNull();
    expect(predictCategory('KLEIN HOLDINGS LLC').category_detailed).toBeNull();
    expect(predictCategory('').category_detailed).toBeNull();
  });
});

describe('measured on data the model never trained on', () => {
  const rows = heldOutRows();
  const [, rulesOnly] = CLASSIFIERS[0];

  it('holds precision on the held-out split (brands and names it never saw)', () => {
    const composition = accuracyReport(rows, (d, a) => enrichTransaction(d, a)).overall;
    expect(composition.precision).toBeGreaterThanOrEqual(0.93);
    expect(composition.coverage).toBeGreaterThanOrEqual(0.75);
    expect(composition.abstention).toBeGreaterThanOrEqual(0.98);
    // Without the directory (brands it does not list), the model alone adds coverage at rules-level precision.
    const local = rows.filter((r) => r[4] !== 'directory');
    const withModel = accuracyReport(local, rulesThenLearned).overall;
    const without = accuracyReport(local, rulesOnly).overall;
    expect(withModel.precision).toBeGreaterThanOrEqual(0.94);
    expect(withModel.coverage).toBeGreaterThan(without.coverage + 0.05);
  });

  it('raises coverage on the project labelled set without losing precision', () => {
    const rules = accuracyReport(LABELLED_DESCRIPTORS).overall;
    const composition = accuracyReport(LABELLED_DESCRIPTORS, (d, a) => enrichTransaction(d, a)).overall;
    expect(composition.coverage).toBeGreaterThan(rules.coverage + 0.02);
    expect(composition.accuracy).toBeGreaterThan(rules.accuracy + 0.02);
    expect(composition.precision).toBeGreaterThanOrEqual(0.97);
  });
});

describe('build scripts reproduce the committed artefacts', () => {
  it('brand directory', () => {
    const nsi = loadNsi();
    expect(unpackedSource(renderArtefact(nsi, buildEntries(nsi))) === unpackedSource(readFileSync(BRANDS_ARTEFACT, 'utf8'))).toBe(true);
  });

  it('learned model', () => {
    expect(unpackedSource(buildModel().text) === unpackedSource(readFileSync(MODEL_ARTEFACT, 'utf8'))).toBe(true);
  }, 120_000);
});
