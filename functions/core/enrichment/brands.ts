// The brand directory: a second enrichment engine that runs only where the descriptor rules abstain.
// Its entries (about seven thousand chains from name-suggestion-index, OpenStreetMap's brand list,
// each mapped to a taxonomy category by its OSM tags) are built offline by
// scripts/enrichment/build-brands.ts into ./brands.data.ts, a committed and versioned artefact.
//
// The artefact is loaded on first use, not when this module loads: it is required inside
// `directory()`, so an esbuild bundle whose code never enriches drops it (tree shaking), and a
// function that does enrich parses it once, on its first lookup (a JSON-free line format, split
// into maps), not during its cold start.
//
// Matching is on whole words of the descriptor as the rules engine cleans it (lead-ins,
// processors, store numbers and the trailing city and state removed):
//   - an entry of two or more words matches at any word ("WITHDRAWAL DEBIT FIVE GUYS 1234");
//   - an entry of one word, or of only everyday words (`s` flag), matches only at the first word;
//   - a multi-word brand printed without spaces matches as one word (FIVEGUYS);
//   - a descriptor the bank cut short matches when its whole text (8+ characters) is the start of
//     exactly one category's entries (BED BATH BEYO).
// Pure and deterministic: no I/O, no clock.
import { primaryOf } from '../taxonomy';

export interface BrandMatch {
  merchant_name: string;
  category_detailed: string;
  /** How the entry matched: the composition turns it into a confidence. */
  how: 'words' | 'glued' | 'truncated';
}

interface Entry {
  tokens: readonly string[];
  name: string;
  detailed: string;
  startOnly: boolean;
}

interface Directory {
  byFirstToken: Map<string, Entry[]>;
  byGluedKey: Map<string, Entry>;
  /** Every entry's key, sorted: prefix search for truncated descriptors. */
  sortedKeys: string[];
  entryByKey: Map<string, Entry>;
}

/** The artefact's shape (./brands.data.ts). */
export interface BrandDirectoryData {
  version: string;
  categories: readonly string[];
  /** One entry a line: KEY \t category index \t display name (empty: the key) \t flags (`s`: start only). */
  entries: string;
}

/**
 * A brand name as directory keys store it and descriptors are compared: accents folded, upper case,
 * apostrophes and `&` dropped, other punctuation a word break, number-only words of 3+ digits dropped
 * (the rules engine drops them from descriptors as store numbers).
 */
export function brandKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'SS')
    .toUpperCase()
    .replace(/['’‘`´&]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((t) => t !== '' && !/^\d{3,}$/.test(t))
    .join(' ');
}

/** Glued forms are indexed only when long enough not to be an ordinary word. */
const MIN_GLUED_LENGTH = 8;
/** A truncated descriptor must keep at least this many characters of the brand. */
const MIN_TRUNCATED_LENGTH = 8;

function parse(data: BrandDirectoryData): Directory {
  const byFirstToken = new Map<string, Entry[]>();
  const byGluedKey = new Map<string, Entry>();
  const entryByKey = new Map<string, Entry>();
  for (const line of data.entries.split('\n')) {
    if (line === '') continue;
    const [key, category, name, flags] = line.split('\t');
    const detailed = data.categories[Number(category)];
    if (detailed === undefined || primaryOf(detailed) === undefined) throw new Error(`brand directory: unknown category in "${line}"`);
    const tokens = key.split(' ');
    const entry: Entry = { tokens, name: name === '' ? key : name, detailed, startOnly: flags.includes('s') };
    entryByKey.set(key, entry);
    const list = byFirstToken.get(tokens[0]);
    if (list) list.push(entry);
    else byFirstToken.set(tokens[0], [entry]);
    if (tokens.length > 1 && !entry.startOnly) {
      const glued = tokens.join('');
      if (glued.length >= MIN_GLUED_LENGTH && !byGluedKey.has(glued)) byGluedKey.set(glued, entry);
    }
  }
  // Longest entry first, so FIVE GUYS BURGERS wins over FIVE GUYS when both match.
  for (const list of byFirstToken.values()) list.sort((a, b) => b.tokens.length - a.tokens.length);
  return { byFirstToken, byGluedKey, entryByKey, sortedKeys: [...entryByKey.keys()].sort() };
}

let loaded: { data: BrandDirectoryData; directory: Directory } | undefined;

function load(): { data: BrandDirectoryData; directory: Directory } {
  if (!loaded) {
    // Required here, not imported at the top: see the header comment.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { BRAND_DIRECTORY } = require('./brands.data') as { BRAND_DIRECTORY: BrandDirectoryData };
    loaded = { data: BRAND_DIRECTORY, directory: parse(BRAND_DIRECTORY) };
  }
  return loaded;
}

/** The artefact's version (loads it). */
export function brandDirectoryVersion(): string {
  return load().data.version;
}

/** Number of entries (loads it). */
export function brandDirectorySize(): number {
  return load().directory.entryByKey.size;
}

/** Whether the artefact has been parsed yet: for the lazy-loading test. */
export function brandDirectoryLoaded(): boolean {
  return loaded !== undefined;
}

function matchAt(tokens: readonly string[], at: number, entries: readonly Entry[]): Entry | null {
  for (const e of entries) {
    if (e.startOnly && at !== 0) continue;
    if (at + e.tokens.length > tokens.length) continue;
    let ok = true;
    for (let i = 1; i < e.tokens.length && ok; i++) ok = tokens[at + i] === e.tokens[i];
    if (ok) return e;
  }
  return null;
}

function truncated(dir: Directory, text: string): Entry | null {
  if (text.length < MIN_TRUNCATED_LENGTH) return null;
  const keys = dir.sortedKeys;
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < text) lo = mid + 1;
    else hi = mid;
  }
  let found: Entry | null = null;
  for (let i = lo; i < keys.length && keys[i].startsWith(text); i++) {
    const e = dir.entryByKey.get(keys[i])!;
    if (keys[i] === text) continue; // a whole-word match would have been found already
    if (found && found.detailed !== e.detailed) return null; // the cut leaves it ambiguous
    found ??= e;
  }
  return found;
}

/**
 * Looks a cleaned descriptor (words separated by single spaces, as `normalizeDescriptor` returns it)
 * up in the directory. Null when no entry matches.
 */
export function matchBrand(cleaned: string): BrandMatch | null {
  if (cleaned === '') return null;
  const dir = load().directory;
  const tokens = cleaned.split(' ');
  for (let at = 0; at < tokens.length; at++) {
    const list = dir.byFirstToken.get(tokens[at]);
    const e = list ? matchAt(tokens, at, list) : null;
    if (e) return { merchant_name: e.name, category_detailed: e.detailed, how: 'words' };
    const glued = tokens[at].length >= MIN_GLUED_LENGTH ? dir.byGluedKey.get(tokens[at]) : undefined;
    if (glued) return { merchant_name: glued.name, category_detailed: glued.detailed, how: 'glued' };
  }
  const cut = truncated(dir, cleaned);
  return cut ? { merchant_name: cut.name, category_detailed: cut.detailed, how: 'truncated' } : null;
}
