// Accuracy of the descriptor rules engine on the labelled set (test/data/labelled-descriptors.ts).
// Figures come from accuracyReport, the function bench/enrichment.ts prints; the floors below sit
// a little under what the engine measured when they were set (see docs/enrichment.md), so a change
// that loses accuracy fails here. Throughput is a benchmark, not a test.
import { accuracyReport, formatAccuracyReport, type AccuracyReport } from '../../functions/core/enrichment/accuracy';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { REGIONS } from '../../functions/core/sandbox/pools';
import { CATEGORIES, primaryOf } from '../../functions/core/taxonomy';
import { LABELLED_DESCRIPTORS } from '../data/labelled-descriptors';

/** What each pool template of the sandbox generator can print, as a regex (random parts are wildcards). */
function sandboxTemplateRegexes(): RegExp[] {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alt = (values: Iterable<string>) => `(?:${[...new Set(values)].map(esc).join('|')})`;
  const regions = Object.values(REGIONS);
  const employers = alt(regions.flatMap((r) => r.employers));
  const peers = alt(regions.flatMap((r) => r.peers));
  const cities = alt(regions.flatMap((r) => r.cities));
  const toRe = (t: string) =>
    esc(t)
      .replace(/\\\{(?:S|N|C)\d+\\\}/g, '[A-Z0-9]+')
      .replace(/\\\{(?:MMDD|YYMMDD|MASK)\\\}/g, '[0-9X]+')
      .replace(/\\\{MM\/DD\\\}/g, '\\d\\d/\\d\\d')
      .replace(/\\\{TICKER\\\}/g, '[A-Z]+')
      .replace(/\\\{(?:LANDLORD|BANK)\\\}/g, '.+')
      .replace(/\\\{EMP\\\}/g, employers)
      .replace(/\\\{(?:NAME|PEER)\\\}/g, peers)
      .replace(/\\\{CITY\\\}/g, cities);
  const templates = new Set<string>();
  for (const r of regions) {
    const spend = [...Object.values(r.spend).flat(), ...r.unlisted, ...r.flights, ...r.hotels, ...r.rentalCars, ...r.sights].map((p) => p.t);
    const bills = [
      ...[...r.subscriptions, ...r.businessSubscriptions].map((s) => s.t),
      ...[...r.electric, ...r.water, ...r.internet, ...r.phone, ...r.insurance].map((p) => p.t),
      ...r.rent, ...r.mortgage, ...r.payroll,
      ...Object.values(r.text).flatMap((v) => (v === null ? [] : typeof v === 'string' ? [v] : Object.values(v))),
    ];
    for (const t of [...spend, ...bills]) templates.add(t);
    for (const f of r.debitFormats) for (const t of spend) templates.add(f.replace('{M}', t));
  }
  return [...templates].map((t) => new RegExp(`^${toRe(t)}$`, 'i'));
}

describe('labelled descriptor set', () => {
  test('has at least 1,000 distinct, well-formed rows covering all 14 primaries, about a tenth labelled uncategorised', () => {
    expect(LABELLED_DESCRIPTORS.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(LABELLED_DESCRIPTORS.map((r) => r[0])).size).toBe(LABELLED_DESCRIPTORS.length);
    const perPrimary = new Map<string, number>();
    let nulls = 0;
    for (const [descriptor, amount, merchant, detailed, format] of LABELLED_DESCRIPTORS) {
      expect(descriptor.trim()).toBe(descriptor);
      expect(descriptor.length).toBeGreaterThan(1);
      expect(Number.isFinite(amount) && amount !== 0).toBe(true);
      expect(format).toMatch(/^[a-z-]+$/);
      if (detailed === null) {
        nulls++;
        expect(merchant).toBeNull();
        continue;
      }
      const primary = primaryOf(detailed);
      expect({ descriptor, primary }).toEqual({ descriptor, primary: expect.any(String) });
      perPrimary.set(primary!, (perPrimary.get(primary!) ?? 0) + 1);
    }
    for (const c of CATEGORIES) expect({ category: c.category, rows: perPrimary.get(c.category) ?? 0 }).toEqual({ category: c.category, rows: expect.any(Number) });
    for (const c of CATEGORIES) expect(perPrimary.get(c.category)).toBeGreaterThanOrEqual(30);
    expect(nulls / LABELLED_DESCRIPTORS.length).toBeGreaterThan(0.07);
    expect(nulls / LABELLED_DESCRIPTORS.length).toBeLessThan(0.15);
  });

  test('contains nothing the sandbox generator produces', () => {
    const labelled = new Set(LABELLED_DESCRIPTORS.map((r) => r[0].toUpperCase().replace(/\s+/g, ' ')));
    const logins = [
      { institutionId: 'ins_sandbox_first_bank', username: 'user_good' },
      { institutionId: 'ins_sandbox_first_bank', username: 'alice' },
      { institutionId: 'ins_sandbox_thames_bank', username: 'user_good' },
      { institutionId: 'ins_sandbox_maple_bank', username: 'user_good' },
      { institutionId: 'ins_sandbox_rhein_bank', username: 'bob' },
      { institutionId: 'ins_sandbox_banque_lumiere', username: 'user_good' },
      { institutionId: 'ins_sandbox_business_bank', username: 'user_good' },
    ];
    let generated = 0;
    for (const login of logins) {
      for (const t of generateSandboxItem(login, '2026-07-01').transactions) {
        generated++;
        const name = t.name.toUpperCase().replace(/\s+/g, ' ');
        if (labelled.has(name)) throw new Error(`labelled set contains a sandbox descriptor: ${t.name}`);
      }
    }
    expect(generated).toBeGreaterThan(5000);
    // stronger: no row fits any template of the sandbox pools, whatever digits the generator would draw
    const templates = sandboxTemplateRegexes();
    expect(templates.length).toBeGreaterThan(300);
    const fits = LABELLED_DESCRIPTORS.filter(([d]) => templates.some((re) => re.test(d))).map(([d]) => d);
    expect(fits).toEqual([]);
  });
});

describe('descriptor rules engine accuracy on the labelled set', () => {
  let report: AccuracyReport;
  beforeAll(() => {
    report = accuracyReport(LABELLED_DESCRIPTORS);
    console.log(formatAccuracyReport(report));
  });

  test('overall: precision, coverage and accuracy of the primary category', () => {
    const o = report.overall;
    expect(o.precision).toBeGreaterThanOrEqual(0.97);
    expect(o.coverage).toBeGreaterThanOrEqual(0.9);
    expect(o.accuracy).toBeGreaterThanOrEqual(0.89);
    expect(o.detailedAccuracy).toBeGreaterThanOrEqual(0.87);
    expect(o.detailedPrecision).toBeGreaterThanOrEqual(0.95);
    expect(o.abstention).toBeGreaterThanOrEqual(0.93);
    expect(o.merchantName).toBeGreaterThanOrEqual(0.8);
  });

  test('per primary category: precision at least 95% and coverage at least 85%', () => {
    for (const f of report.byCategory) {
      expect({ category: f.category, precisionFloor: (f.precision ?? 0) >= 0.95 }).toEqual({ category: f.category, precisionFloor: true });
      expect({ category: f.category, coverageFloor: (f.coverage ?? 0) >= 0.85 }).toEqual({ category: f.category, coverageFloor: true });
    }
  });

  test('figures are consistent with their definitions', () => {
    const expected = report.byCategory.reduce((s, f) => s + f.expected, 0);
    expect(expected + report.expectedNull).toBe(report.rows);
    for (const f of report.byCategory) {
      expect(f.correct).toBeLessThanOrEqual(Math.min(f.labelled, f.categorised));
      expect(f.categorised).toBeLessThanOrEqual(f.expected);
    }
    expect(report.byFormat.reduce((s, f) => s + f.rows, 0)).toBe(report.rows);
  });
});
