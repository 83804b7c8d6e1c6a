// Accuracy of a descriptor categoriser against a labelled set (test/data/labelled-descriptors.ts).
// One place computes the figures, so the accuracy test and the enrichment benchmark print the same
// numbers. Pure: pass the rows and, optionally, another categoriser (an AI one can be scored the same way).
//
// Definitions, per primary category P (a row's expected primary comes from its category_detailed):
//   expected(P)   rows labelled P
//   labelled(P)   rows the engine puts in P (whatever their label, including rows labelled null)
//   correct(P)    rows labelled P that the engine puts in P
//   precision(P)  correct(P) / labelled(P)            of what the engine calls P, the share that is P
//   coverage(P)   rows labelled P that the engine gives any category / expected(P)
//   accuracy(P)   correct(P) / expected(P)            (recall)
// Overall figures pool every row labelled with a category: precision = Σcorrect / Σlabelled (a
// category given to a row labelled null counts against it), coverage = categorised / expected,
// accuracy = Σcorrect / expected. Rows labelled null should stay uncategorised: `abstention` is the
// share of them the engine leaves null. Detailed figures use category_detailed instead of the
// primary. Merchant names compare case- and punctuation-insensitively ("Trader Joe's" = "TRADER JOES").
import { CATEGORIES, primaryOf } from '../taxonomy';
import { enrichDescriptor, type Enrichment } from './rules';

/** [raw descriptor, signed amount (positive = money out), expected merchant_name, expected category_detailed (null = should stay uncategorised), format tag] */
export type LabelledRow = readonly [string, number, string | null, string | null, string];

export interface CategoryFigures {
  category: string;
  expected: number;
  labelled: number;
  correct: number;
  categorised: number;
  correctDetailed: number;
  precision: number | null;
  coverage: number | null;
  accuracy: number | null;
  detailedAccuracy: number | null;
}

export interface AccuracyReport {
  rows: number;
  expectedNull: number;
  overall: {
    precision: number;
    coverage: number;
    accuracy: number;
    detailedPrecision: number;
    detailedAccuracy: number;
    /** Share of rows labelled null that the engine left null. */
    abstention: number;
    /** Share of rows with an expected merchant whose merchant_name matches (normalized). */
    merchantName: number;
  };
  byCategory: CategoryFigures[];
  /** Primary-category accuracy per descriptor format tag (card, processor, ach, uk, ...); null-labelled rows count as correct when left null. */
  byFormat: Array<{ format: string; rows: number; correct: number; accuracy: number }>;
  /** Rows the engine got wrong (wrong primary, a category where null was expected, or none where one was). */
  misses: Array<{ descriptor: string; amount: number; expected: string | null; got: string | null; merchant: string | null }>;
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);
export const normalizeName = (s: string | null): string => (s ?? '').normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]/g, '');

export function accuracyReport(rows: readonly LabelledRow[], classify: (descriptor: string, amount: number) => Enrichment = enrichDescriptor): AccuracyReport {
  const figures = new Map<string, CategoryFigures>();
  for (const c of CATEGORIES) {
    figures.set(c.category, {
      category: c.category, expected: 0, labelled: 0, correct: 0, categorised: 0, correctDetailed: 0,
      precision: null, coverage: null, accuracy: null, detailedAccuracy: null,
    });
  }
  const formats = new Map<string, { rows: number; correct: number }>();
  const misses: AccuracyReport['misses'] = [];
  let expectedNull = 0;
  let abstained = 0;
  let namesExpected = 0;
  let namesMatched = 0;
  let labelledAll = 0;
  let correctDetailedAll = 0;

  for (const [descriptor, amount, merchant, detailed, format] of rows) {
    const out = classify(descriptor, amount);
    const expected = detailed === null ? null : primaryOf(detailed) ?? null;
    if (detailed !== null && expected === null) throw new Error(`labelled row "${descriptor}": unknown category_detailed ${detailed}`);
    const got = out.category;
    if (got !== null) {
      labelledAll++;
      figures.get(got)!.labelled++;
      if (out.category_detailed === detailed) correctDetailedAll++;
    }
    if (expected === null) {
      expectedNull++;
      if (got === null) abstained++;
    } else {
      const f = figures.get(expected)!;
      f.expected++;
      if (got !== null) f.categorised++;
      if (got === expected) f.correct++;
      if (out.category_detailed === detailed) f.correctDetailed++;
    }
    if (merchant !== null) {
      namesExpected++;
      if (normalizeName(out.merchant_name) === normalizeName(merchant)) namesMatched++;
    }
    const ok = got === expected;
    const fm = formats.get(format) ?? { rows: 0, correct: 0 };
    fm.rows++;
    if (ok) fm.correct++;
    formats.set(format, fm);
    if (!ok) misses.push({ descriptor, amount, expected: detailed, got: out.category_detailed, merchant: out.merchant_name });
  }

  let expectedAll = 0;
  let correctAll = 0;
  let categorisedAll = 0;
  let correctDetailedExpected = 0;
  for (const f of figures.values()) {
    f.precision = ratio(f.correct, f.labelled);
    f.coverage = ratio(f.categorised, f.expected);
    f.accuracy = ratio(f.correct, f.expected);
    f.detailedAccuracy = ratio(f.correctDetailed, f.expected);
    expectedAll += f.expected;
    correctAll += f.correct;
    categorisedAll += f.categorised;
    correctDetailedExpected += f.correctDetailed;
  }
  return {
    rows: rows.length,
    expectedNull,
    overall: {
      precision: ratio(correctAll, labelledAll) ?? 0,
      coverage: ratio(categorisedAll, expectedAll) ?? 0,
      accuracy: ratio(correctAll, expectedAll) ?? 0,
      detailedPrecision: ratio(correctDetailedAll, labelledAll) ?? 0,
      detailedAccuracy: ratio(correctDetailedExpected, expectedAll) ?? 0,
      abstention: ratio(abstained, expectedNull) ?? 0,
      merchantName: ratio(namesMatched, namesExpected) ?? 0,
    },
    byCategory: [...figures.values()],
    byFormat: [...formats].map(([format, v]) => ({ format, rows: v.rows, correct: v.correct, accuracy: v.correct / v.rows })).sort((a, b) => b.rows - a.rows),
    misses,
  };
}

const pct = (x: number | null): string => (x === null ? '    -' : `${(x * 100).toFixed(1).padStart(5)}`);

/** The per-category table and the overall line, as printed by the accuracy test and the benchmark. */
export function formatAccuracyReport(r: AccuracyReport): string {
  const lines = [
    `labelled descriptors: ${r.rows} (${r.rows - r.expectedNull} with a category, ${r.expectedNull} that should stay uncategorised)`,
    `${'primary category'.padEnd(26)} ${'rows'.padStart(5)} ${'engine'.padStart(6)}  precision  coverage  accuracy  detailed`,
  ];
  for (const f of r.byCategory) {
    lines.push(`${f.category.padEnd(26)} ${String(f.expected).padStart(5)} ${String(f.labelled).padStart(6)}  ${pct(f.precision)}%    ${pct(f.coverage)}%   ${pct(f.accuracy)}%   ${pct(f.detailedAccuracy)}%`);
  }
  const o = r.overall;
  lines.push(`${'all primaries'.padEnd(26)} ${String(r.rows - r.expectedNull).padStart(5)} ${''.padStart(6)}  ${pct(o.precision)}%    ${pct(o.coverage)}%   ${pct(o.accuracy)}%   ${pct(o.detailedAccuracy)}%`);
  lines.push(`detailed precision ${pct(o.detailedPrecision)}%; left uncategorised when labelled null ${pct(o.abstention)}%; merchant name match ${pct(o.merchantName)}%`);
  lines.push(`by format: ${r.byFormat.map((f) => `${f.format} ${pct(f.accuracy).trim()}% (${f.rows})`).join(', ')}`);
  return lines.join('\n');
}
