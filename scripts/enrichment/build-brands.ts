// Builds the brand directory artefact (functions/core/enrichment/brands.data.ts) from
// name-suggestion-index (npm package, BSD-3-Clause): OpenStreetMap's canonical brand names, each
// with the OSM tags of what the brand is (amenity=fast_food, shop=clothes, cuisine=...).
//
//   npx tsx scripts/enrichment/build-brands.ts           write the artefact
//   npx tsx scripts/enrichment/build-brands.ts --check   fail if the committed artefact differs
//
// Deterministic: the same NSI version gives the same file, byte for byte (no build date: the
// date in the header is the source's own).
//
// What is kept:
//   - brands (not operators or transit) whose OSM tag maps to a category (osm-categories.ts);
//   - sold in a market whose statements the engine reads (MARKETS);
//   - names in Latin script, as banks print them; every spelling of the brand (display name,
//     `name`, `brand`, their English forms) becomes a key;
//   - precision rules: a one-word key needs 5+ characters and must not be an everyday word
//     (common-words.ts), and matches only at the start of a descriptor; a key made only of
//     everyday words, or shorter than 7 letters, also matches only at the start (`s` flag); a key
//     whose brands disagree on the primary category is dropped; one word glued to digits
//     (HOME24) is dropped because the rules engine drops such code-like words from descriptors.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { brandKey } from '../../functions/core/enrichment/brands';
import { packText, unpackedSource } from '../../functions/core/enrichment/packed-text';
import { primaryOf } from '../../functions/core/taxonomy';
import { COMMON_WORDS } from './common-words';
import { CUISINE_CATEGORIES, MARKETS, OSM_TAG_CATEGORIES } from './osm-categories';

const ROOT = path.resolve(__dirname, '../..');
const NSI_DIR = path.join(ROOT, 'node_modules/name-suggestion-index');
export const BRANDS_ARTEFACT = path.join(ROOT, 'functions/core/enrichment/brands.data.ts');
/** Bump when the mapping or the precision rules change (the NSI version is part of the version too). */
const BUILD_REVISION = 1;

interface NsiItem {
  displayName: string;
  id: string;
  locationSet?: { include?: Array<string | number | number[]> };
  tags: Record<string, string>;
}
interface NsiFile {
  _meta: { version: string; generated: string };
  nsi: Record<string, { items: NsiItem[] }>;
}

export interface BuiltEntry {
  key: string;
  name: string;
  detailed: string;
  startOnly: boolean;
  /** NSI id of the brand the key came from (the held-out split of the training data is by brand). */
  brandId: string;
}

function inMarket(item: NsiItem): boolean {
  return (item.locationSet?.include ?? []).some((loc) => {
    if (typeof loc !== 'string') return false;
    const country = loc.toLowerCase().replace(/\.geojson$/, '').split('-')[0];
    return MARKETS.has(country);
  });
}

function categoryOf(tagPath: string, item: NsiItem): string | null {
  const base = OSM_TAG_CATEGORIES[tagPath];
  if (!base) return null;
  if (base.startsWith('food_and_drink_') && ['amenity/fast_food', 'amenity/restaurant', 'amenity/cafe'].includes(tagPath)) {
    for (const cuisine of (item.tags.cuisine ?? '').split(';')) {
      const c = CUISINE_CATEGORIES[cuisine.trim()];
      if (c) return c;
    }
  }
  return base;
}

const LATIN = /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]+$/u;

/** Every spelling of a brand a bank may print. */
function spellings(item: NsiItem): string[] {
  const t = item.tags;
  return [item.displayName, t.name, t.brand, t['name:en'], t['brand:en']].filter((s): s is string => !!s && LATIN.test(s));
}

/** Display names are kept as NSI writes them, less a trailing "(Country)" qualifier and characters that would break the artefact's template literal. */
const cleanName = (s: string): string => s.replace(/\s*\([^)]*\)\s*$/, '').replace(/[`\\$\t\n]/g, '').trim();

export function loadNsi(): NsiFile {
  return JSON.parse(readFileSync(path.join(NSI_DIR, 'dist/json/nsi.json'), 'utf8')) as NsiFile;
}

/** The directory entries, sorted by key. */
export function buildEntries(nsi: NsiFile): { entries: BuiltEntry[]; counts: Record<string, number> } {
  const candidates = new Map<string, BuiltEntry[]>();
  let brands = 0;
  let brandsMapped = 0;
  let brandsInMarket = 0;
  for (const tagPath of Object.keys(nsi.nsi).sort()) {
    if (!tagPath.startsWith('brands/')) continue;
    const osm = tagPath.slice('brands/'.length);
    for (const item of nsi.nsi[tagPath].items) {
      brands++;
      const detailed = categoryOf(osm, item);
      if (!detailed) continue;
      brandsMapped++;
      if (!inMarket(item)) continue;
      brandsInMarket++;
      for (const spelling of new Set(spellings(item))) {
        const key = brandKey(spelling);
        if (key === '') continue;
        const tokens = key.split(' ');
        if (tokens.some((w) => /\d/.test(w) && /[A-Z]/.test(w))) continue;
        const letters = key.replace(/[^A-Z]/g, '').length;
        if (tokens.length === 1 && (key.length < 5 || COMMON_WORDS.has(key) || /^\d+$/.test(key))) continue;
        if (letters < 4) continue;
        const everyday = tokens.every((w) => COMMON_WORDS.has(w) || /^\d+$/.test(w) || w.length <= 2);
        const startOnly = tokens.length === 1 || everyday || letters < 7;
        const list = candidates.get(key) ?? [];
        list.push({ key, name: cleanName(item.displayName), detailed, startOnly, brandId: item.id });
        candidates.set(key, list);
      }
    }
  }
  const entries: BuiltEntry[] = [];
  let ambiguous = 0;
  for (const key of [...candidates.keys()].sort()) {
    const list = candidates.get(key)!;
    const primaries = new Set(list.map((e) => primaryOf(e.detailed)));
    if (primaries.size > 1) {
      ambiguous++;
      continue;
    }
    // Same primary: the most frequent detailed category among the brands of that spelling, then the first.
    const votes = new Map<string, number>();
    for (const e of list) votes.set(e.detailed, (votes.get(e.detailed) ?? 0) + 1);
    const best = [...votes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
    const chosen = list.find((e) => e.detailed === best)!;
    entries.push({ ...chosen, startOnly: list.some((e) => e.startOnly) });
  }
  return {
    entries,
    counts: { nsi_brands: brands, mapped_to_taxonomy: brandsMapped, in_markets: brandsInMarket, keys: entries.length, dropped_ambiguous_keys: ambiguous },
  };
}

export function renderArtefact(nsi: NsiFile, built: ReturnType<typeof buildEntries>): string {
  const version = `nsi-${nsi._meta.version}.r${BUILD_REVISION}`;
  const categories = [...new Set(built.entries.map((e) => e.detailed))].sort();
  const index = new Map(categories.map((c, i) => [c, i]));
  const byCategory = new Map<string, number>();
  for (const e of built.entries) byCategory.set(e.detailed, (byCategory.get(e.detailed) ?? 0) + 1);
  const lines = built.entries.map((e) => `${e.key}\t${index.get(e.detailed)}\t${e.name === e.key ? '' : e.name}\t${e.startOnly ? 's' : ''}`);
  const counts = Object.entries(built.counts).map(([k, v]) => `//   ${k}: ${v}`).join('\n');
  const perCategory = [...byCategory].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
  return `// GENERATED by scripts/enrichment/build-brands.ts: do not edit by hand (run it, or its --check).
//
// Brand directory ${version}
// Source: name-suggestion-index ${nsi._meta.version} (npm package name-suggestion-index, https://nsi.guide),
//   dist/json/nsi.json generated ${nsi._meta.generated}: OpenStreetMap brand names and their OSM tags.
// Licence: BSD-3-Clause, Copyright 2026 name-suggestion-index contributors (the notice is reproduced
//   in docs/enrichment.md). Names are facts about brands; the category mapping is ours
//   (scripts/enrichment/osm-categories.ts).
// Counts:
${counts}
// Keys per category: ${perCategory}
// Read by ./brands.ts (as its BrandDirectoryData), which requires this module on first use.
// The entries are packed (./packed-text.ts): unpacked when this module is first required.
import { unpackText } from './packed-text';

export const BRAND_DIRECTORY = {
  version: '${version}',
  categories: ${JSON.stringify(categories)},
  entries: unpackText('${packText(`\n${lines.join('\n')}\n`)}'),
};
`;
}

function main(): void {
  const nsi = loadNsi();
  const built = buildEntries(nsi);
  const text = renderArtefact(nsi, built);
  if (process.argv.includes('--check')) {
    const committed = readFileSync(BRANDS_ARTEFACT, 'utf8');
    if (unpackedSource(committed) !== unpackedSource(text)) {
      console.error(`${path.relative(ROOT, BRANDS_ARTEFACT)} is stale: run npx tsx scripts/enrichment/build-brands.ts`);
      process.exit(1);
    }
    console.log(`${path.relative(ROOT, BRANDS_ARTEFACT)} is up to date (${built.entries.length} keys)`);
    return;
  }
  writeFileSync(BRANDS_ARTEFACT, text);
  console.log(`wrote ${path.relative(ROOT, BRANDS_ARTEFACT)}: ${JSON.stringify(built.counts)}`);
}

if (require.main === module) main();
