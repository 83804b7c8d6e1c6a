// Institution search and lookup over the static catalog. Pure functions:
// every normalized form is computed once at module load, so a search is one linear scan of a
// small array with no allocation beyond the result.
import { CATALOG, type CatalogInstitution, type Institution } from './institutions-catalog';
import { institutionLogo } from './institution-logos';
import type { InstitutionType } from './connectors';

export type { CatalogInstitution, Institution } from './institutions-catalog';

export interface InstitutionQuery {
  query: string;
  types?: InstitutionType[];
  country_codes?: string[];
  /** Only institutions that support every one of these products (Link passes its session's). */
  products?: readonly string[];
}

/** Case- and accent-insensitive form: NFD, combining marks stripped, lower case, whitespace collapsed. */
export function normalizeText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const NON_ALNUM = /[^\p{L}\p{N}]+/gu;

/** Searchable words of a normalized string: each word as written, without punctuation, and its punctuation-separated parts ("e*trade" -> e*trade, etrade, e, trade). */
function wordsOf(normalized: string): string[] {
  const words = new Set<string>();
  for (const word of normalized.split(' ')) {
    if (!word) continue;
    words.add(word);
    const joined = word.replace(NON_ALNUM, '');
    if (joined) words.add(joined);
    for (const part of word.split(NON_ALNUM)) if (part) words.add(part);
  }
  return [...words];
}

interface Indexed {
  inst: CatalogInstitution;
  name: string;
  /** Normalized aliases. */
  aliases: string[];
  /** Word lists of the name, then of each alias. */
  wordLists: string[][];
  countries: ReadonlySet<string>;
}

const INDEX: readonly Indexed[] = [...CATALOG]
  .sort((a, b) => a.popularity - b.popularity)
  .map((inst) => {
    const name = normalizeText(inst.name);
    const aliases = (inst.aliases ?? []).map(normalizeText);
    return {
      inst,
      name,
      aliases,
      wordLists: [name, ...aliases].map(wordsOf),
      countries: new Set(inst.country_codes.map((c) => c.toUpperCase())),
    };
  });

const BY_ID: ReadonlyMap<string, CatalogInstitution> = new Map(CATALOG.map((i) => [i.institution_id, i]));

/** One query word matches a word list when it (or, failing that, its letters and digits alone) prefixes some word. A word of pure punctuation matches anything. */
function wordMatches(queryWord: string, words: readonly string[]): boolean {
  if (words.some((w) => w.startsWith(queryWord))) return true;
  const joined = queryWord.replace(NON_ALNUM, '');
  return joined === '' || (joined !== queryWord && words.some((w) => w.startsWith(joined)));
}

/**
 * Name search: case- and accent-insensitive; an empty query browses everything. A match is
 * every query word prefixing some word of the name (or of one alias), or the whole query occurring
 * inside the name. Filters: `types` (any of) and `country_codes` (the institution supports any of
 * them). Order: institutions whose name or an alias starts with the whole query first, then the
 * rest; popularity rank ascending within each group. At most `limit` results, in the public shape.
 */
export function searchInstitutions(q: InstitutionQuery, limit: number): Institution[] {
  if (!(limit > 0)) return [];
  const query = normalizeText(q.query ?? '');
  const queryWords = query === '' ? [] : query.split(' ');
  const types = q.types && q.types.length > 0 ? new Set<string>(q.types) : null;
  const countries = q.country_codes && q.country_codes.length > 0 ? q.country_codes.map((c) => c.trim().toUpperCase()) : null;

  const leading: CatalogInstitution[] = [];
  const others: CatalogInstitution[] = [];
  const products = q.products && q.products.length > 0 ? q.products : null;
  for (const entry of INDEX) {
    if (types && !types.has(entry.inst.type)) continue;
    if (products && !products.every((p) => (entry.inst.products as readonly string[]).includes(p))) continue;
    if (countries && !countries.some((c) => entry.countries.has(c))) continue;
    if (query === '') {
      leading.push(entry.inst);
      if (leading.length >= limit) break;
      continue;
    }
    if (entry.name.startsWith(query) || entry.aliases.some((a) => a.startsWith(query))) {
      leading.push(entry.inst);
      if (leading.length >= limit) break; // popularity order: nothing later can outrank these
      continue;
    }
    if (others.length < limit && isMatch(entry, query, queryWords)) others.push(entry.inst);
  }
  return leading.concat(others).slice(0, limit).map(toPublicInstitution);
}

function isMatch(entry: Indexed, query: string, queryWords: readonly string[]): boolean {
  if (entry.name.includes(query)) return true;
  return entry.wordLists.some((words) => queryWords.every((qw) => wordMatches(qw, words)));
}

/** The catalog entry with this exact id, connector chain included (internal use). */
export function findInstitution(id: string): CatalogInstitution | undefined {
  return BY_ID.get(id);
}

/** The API shape: the catalog entry without its internal `connectors` and `aliases`, arrays copied. */
export function toPublicInstitution(i: CatalogInstitution): Institution {
  return {
    institution_id: i.institution_id,
    name: i.name,
    type: i.type,
    country_codes: [...i.country_codes],
    url: i.url,
    primary_color: i.primary_color,
    logo: institutionLogo(i.institution_id),
    products: [...i.products],
    oauth: i.oauth,
    sandbox: i.sandbox,
    popularity: i.popularity,
  };
}
