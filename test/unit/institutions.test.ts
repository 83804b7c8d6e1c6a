import { Institution, INSTITUTION_TYPES, PRODUCTS } from '../../functions/contracts/schemas';
import { LIMITS } from '../../functions/contracts/limits';
import {
  connectorConfigPrefix,
  CONNECTORS,
  enabledConnectors,
  findConnector,
  resolveConnector,
} from '../../functions/core/connectors';
import { CATALOG } from '../../functions/core/institutions-catalog';
import {
  findInstitution,
  normalizeText,
  searchInstitutions,
  toPublicInstitution,
} from '../../functions/core/institutions';

const MAX = LIMITS.institutionSearchMaxResults;
const names = (q: Parameters<typeof searchInstitutions>[0], limit: number = MAX) => searchInstitutions(q, limit).map((i) => i.name);

/** Every credential of the given connectors set to a value. */
function envFor(...ids: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const id of ids) for (const v of findConnector(id)!.credentials) env[v] = 'x';
  return env;
}

describe('the institution catalog', () => {
  const sandbox = CATALOG.filter((i) => i.sandbox);

  it('has a sandbox network of at least 8 institutions spanning at least 5 types and 4 countries', () => {
    expect(sandbox.length).toBeGreaterThanOrEqual(8);
    expect(new Set(sandbox.map((i) => i.type)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(sandbox.flatMap((i) => i.country_codes)).size).toBeGreaterThanOrEqual(4);
  });

  it('serves sandbox institutions only through the simulator and gives them ins_sandbox_ ids', () => {
    for (const i of sandbox) {
      expect(i.connectors).toEqual(['sandbox']);
      expect(i.institution_id).toMatch(/^ins_sandbox_/);
    }
    for (const i of CATALOG.filter((x) => !x.sandbox)) expect(i.connectors).not.toContain('sandbox');
  });

  it('puts sandbox institutions among the top three by popularity', () => {
    const top3 = CATALOG.filter((i) => i.popularity <= 3);
    expect(top3.filter((i) => i.sandbox).length).toBeGreaterThanOrEqual(2);
  });

  it('holds about 60 to 70 real-world institutions', () => {
    const real = CATALOG.filter((i) => !i.sandbox).length;
    expect(real).toBeGreaterThanOrEqual(60);
    expect(real).toBeLessThanOrEqual(70);
  });

  it('has unique ids derived from the name as ins_ plus lower snake case', () => {
    const ids = CATALOG.map((i) => i.institution_id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of CATALOG) {
      const slug = normalizeText(i.name).replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
      expect(i.institution_id).toBe(`ins_${slug}`);
    }
  });

  it('has unique popularity ranks forming exactly 1..N', () => {
    const ranks = CATALOG.map((i) => i.popularity).sort((a, b) => a - b);
    expect(ranks).toEqual(CATALOG.map((_, n) => n + 1));
  });

  it('gives every institution a valid type, products, upper-case countries and a hex colour', () => {
    for (const i of CATALOG) {
      expect(INSTITUTION_TYPES).toContain(i.type);
      expect(i.products.length).toBeGreaterThan(0);
      for (const p of i.products) expect(PRODUCTS).toContain(p);
      expect(new Set(i.products).size).toBe(i.products.length);
      expect(i.country_codes.length).toBeGreaterThan(0);
      for (const c of i.country_codes) expect(c).toMatch(/^[A-Z]{2}$/);
      if (i.primary_color !== null) expect(i.primary_color).toMatch(/^#[0-9A-F]{6}$/);
      if (i.url !== null) expect(i.url).toMatch(/^https:\/\//);
    }
  });

  it('gives brokerages investments and banks the core banking products', () => {
    for (const i of CATALOG.filter((x) => x.type === 'investment' || x.type === 'crypto_exchange')) {
      expect(i.products).toContain('investments');
    }
    for (const i of CATALOG.filter((x) => x.type === 'bank' || x.type === 'credit_union')) {
      expect(i.products).toEqual(expect.arrayContaining(['transactions', 'identity']));
    }
  });

  it('covers the named countries with real-world institutions', () => {
    const real = new Set(CATALOG.filter((i) => !i.sandbox).flatMap((i) => i.country_codes));
    for (const c of ['US', 'CA', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'AU']) expect(real).toContain(c);
  });

  it('marks UK and EU banks as OAuth', () => {
    for (const i of CATALOG.filter((x) => x.type === 'bank' && x.connectors[0] === 'open_banking_eu')) {
      expect(i.oauth).toBe(true);
    }
  });

  it('uses only connector ids that exist in CONNECTORS', () => {
    const known = new Set(CONNECTORS.map((c) => c.id));
    for (const i of CATALOG) {
      expect(i.connectors.length).toBeGreaterThan(0);
      for (const c of i.connectors) expect(known).toContain(c);
      expect(new Set(i.connectors).size).toBe(i.connectors.length);
    }
  });

  it('chains only connectors that cover the institution type and at least one of its countries', () => {
    for (const i of CATALOG) {
      for (const id of i.connectors) {
        const c = findConnector(id)!;
        expect([i.institution_id, id, c.institutionTypes.includes(i.type)]).toEqual([i.institution_id, id, true]);
        const covers = c.countries === 'any' || i.country_codes.some((cc) => (c.countries as string[]).includes(cc));
        expect([i.institution_id, id, covers]).toEqual([i.institution_id, id, true]);
      }
    }
  });
});

describe('the connector registry', () => {
  it('describes exactly 17 connectors with unique ids', () => {
    expect(CONNECTORS).toHaveLength(17);
    expect(new Set(CONNECTORS.map((c) => c.id)).size).toBe(17);
  });

  it('has one simulator, self-serve connectors and partnership connectors', () => {
    const kinds = (k: string) => CONNECTORS.filter((c) => c.kind === k).map((c) => c.id);
    expect(kinds('simulator')).toEqual(['sandbox']);
    expect(kinds('self_serve').length).toBeGreaterThanOrEqual(6);
    expect(kinds('partnership').length).toBeGreaterThanOrEqual(4);
    // Only the file importer needs nothing from the operator; every other connector needs its variables.
    const needNothing = CONNECTORS.filter((x) => x.kind !== 'simulator' && x.credentials.length === 0).map((c) => c.id);
    expect(needNothing).toEqual(['file_import']);
  });

  it('says honestly how complete each connector is, and every variable carries its connector\u2019s prefix', () => {
    for (const c of CONNECTORS) {
      expect(['complete', 'partial', 'skeleton', 'withheld']).toContain(c.maturity);
      for (const name of c.credentials) expect(name.startsWith(connectorConfigPrefix(c.id))).toBe(true);
    }
    expect(CONNECTORS.filter((c) => c.kind === 'self_serve').every((c) => c.maturity === 'complete')).toBe(true);
  });

  it('enables only the file importer in an empty environment, and never the sandbox or a skeleton', () => {
    expect(enabledConnectors({}).map((c) => c.id)).toEqual(['file_import']);
    const everything = envFor(...CONNECTORS.map((c) => c.id));
    const enabled = enabledConnectors(everything).map((c) => c.id);
    const skeletons = CONNECTORS.filter((c) => c.maturity === 'skeleton' || c.maturity === 'withheld').map((c) => c.id);
    expect(enabled).toHaveLength(16 - skeletons.length);
    expect(enabled).not.toContain('sandbox');
    for (const id of skeletons) expect(enabled).not.toContain(id);
  });

  it('enables a connector only when all its credential variables are non-empty', () => {
    const [first, ...rest] = findConnector('open_banking_eu')!.credentials;
    expect(rest.length).toBeGreaterThan(0);
    const enabledIds = (env: Record<string, string>) => enabledConnectors(env).map((c) => c.id).filter((id) => id !== 'file_import');
    const partial = { [first!]: 'x' };
    expect(enabledIds(partial)).toEqual([]);
    const blank = { ...envFor('open_banking_eu'), [first!]: '' };
    expect(enabledIds(blank)).toEqual([]);
    expect(enabledIds(envFor('open_banking_eu'))).toEqual(['open_banking_eu']);
  });

  it('resolves to null when nothing in the chain is enabled', () => {
    expect(resolveConnector(['open_banking_eu', 'aggregator_a'], {})).toBeNull();
    expect(resolveConnector(['sandbox'], envFor(...CONNECTORS.map((c) => c.id)))).toBeNull();
    expect(resolveConnector([], envFor('aggregator_a'))).toBeNull();
    expect(resolveConnector(['no_such_connector'], envFor('aggregator_a'))).toBeNull();
  });

  it('resolves to the first enabled connector in chain order', () => {
    const chain = ['open_banking_eu', 'aggregator_a', 'aggregator_g'];
    expect(resolveConnector(chain, envFor('aggregator_g', 'aggregator_a'))!.id).toBe('aggregator_a');
    expect(resolveConnector(chain, envFor('aggregator_g'))!.id).toBe('aggregator_g');
    expect(resolveConnector(chain, envFor(...CONNECTORS.map((c) => c.id)))!.id).toBe('open_banking_eu');
  });
});

describe('institution search', () => {
  it('returns the most popular institutions first for an empty query, capped at the limit', () => {
    const all = searchInstitutions({ query: '' }, MAX);
    expect(all).toHaveLength(MAX);
    expect(all.map((i) => i.popularity)).toEqual(Array.from({ length: MAX }, (_, n) => n + 1));
    expect(all[0]!.sandbox).toBe(true);
    expect(searchInstitutions({ query: '   ' }, 5).map((i) => i.popularity)).toEqual([1, 2, 3, 4, 5]);
  });

  it('returns nothing for a zero limit', () => {
    expect(searchInstitutions({ query: '' }, 0)).toEqual([]);
  });

  it('matches case-insensitively', () => {
    expect(names({ query: 'CHASE' })).toContain('Chase');
    expect(names({ query: 'wells fargo' })).toEqual(['Wells Fargo']);
  });

  it('matches accent-insensitively in both directions', () => {
    expect(names({ query: 'société' })).toContain('Société Générale');
    expect(names({ query: 'SOCIETE' })).toContain('Société Générale');
    expect(names({ query: 'generale' })).toContain('Société Générale');
    expect(names({ query: 'credit agricole' })).toEqual(['Crédit Agricole']);
    expect(names({ query: 'Sandbox Banque Lumiere' })).toEqual(['Sandbox Banque Lumière']);
  });

  it('matches when every query word prefixes a word of the name', () => {
    expect(names({ query: 'nav fed cred' })).toEqual(['Navy Federal Credit Union']);
    expect(names({ query: 'fed navy' })).toEqual(['Navy Federal Credit Union']);
    expect(names({ query: 'nav fed zzz' })).toEqual([]);
  });

  it('matches a substring of the name', () => {
    expect(names({ query: 'fargo' })).toEqual(['Wells Fargo']);
    expect(names({ query: 'oinbas' })).toEqual(['Coinbase']);
  });

  it('matches aliases', () => {
    expect(names({ query: 'BoA' })).toEqual(['Bank of America']);
    expect(names({ query: 'amex' })).toEqual(['American Express']);
    expect(names({ query: 'transferwise' })).toEqual(['Wise']);
  });

  it('tolerates punctuation in names and queries', () => {
    expect(names({ query: 'us bank' })).toContain('U.S. Bank');
    expect(names({ query: 'u.s. bank' })).toContain('U.S. Bank');
    expect(names({ query: 'etrade' })).toEqual(['E*TRADE']);
    expect(names({ query: 'crypto.com' })).toEqual(['Crypto.com']);
  });

  it('puts name-prefix matches before other matches, then popularity order', () => {
    const result = searchInstitutions({ query: 'bank' }, MAX);
    const leading = result.filter((i) => normalizeText(i.name).startsWith('bank'));
    expect(leading.map((i) => i.name)).toEqual(['Bank of America']);
    expect(result[0]!.name).toBe('Bank of America');
    // "Sandbox First Bank" is rank 1 but only contains "bank", so it follows the prefix matches.
    expect(result.findIndex((i) => i.name === 'Sandbox First Bank')).toBeGreaterThan(0);
    const start = result.findIndex((i) => i.name === 'Sandbox First Bank');
    const ranks = result.slice(start).map((i) => i.popularity);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('treats an alias that starts with the whole query like a name prefix', () => {
    // "Bank of Nova Scotia", "Bank of Montreal" and "Bank Austria" are aliases.
    expect(names({ query: 'bank' }).slice(0, 4)).toEqual(['Bank of America', 'Scotiabank', 'BMO', 'UniCredit']);
  });

  it('returns an empty list for an unknown query', () => {
    expect(searchInstitutions({ query: 'zzqx no such institution' }, MAX)).toEqual([]);
  });

  it('filters by types, any of the given', () => {
    const result = searchInstitutions({ query: '', types: ['crypto_exchange', 'crypto_wallet'] }, MAX);
    expect(result.length).toBeGreaterThan(0);
    for (const i of result) expect(['crypto_exchange', 'crypto_wallet']).toContain(i.type);
    expect(new Set(result.map((i) => i.type)).size).toBe(2);
  });

  it('filters by country codes, case-insensitively and any of the given', () => {
    const result = searchInstitutions({ query: '', country_codes: ['fr', 'DE'] }, MAX);
    expect(result.length).toBeGreaterThan(0);
    for (const i of result) expect(i.country_codes.some((c) => c === 'FR' || c === 'DE')).toBe(true);
  });

  it('narrows when types and countries are combined', () => {
    const byType = searchInstitutions({ query: '', types: ['bank'] }, 100);
    const byCountry = searchInstitutions({ query: '', country_codes: ['GB'] }, 100);
    const both = searchInstitutions({ query: '', types: ['bank'], country_codes: ['GB'] }, 100);
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(byType.length);
    expect(both.length).toBeLessThan(byCountry.length);
    for (const i of both) {
      expect(i.type).toBe('bank');
      expect(i.country_codes).toContain('GB');
    }
    expect(names({ query: 'santander', country_codes: ['ES'] })).toEqual(['Banco Santander']);
  });

  it('includes the sandbox network in searches', () => {
    expect(names({ query: 'sandbox' }, 100).length).toBe(CATALOG.filter((i) => i.sandbox).length);
  });

  it('returns the public shape without connectors or aliases, valid against the Institution schema', () => {
    for (const i of searchInstitutions({ query: '' }, 1000)) {
      expect(i).not.toHaveProperty('connectors');
      expect(i).not.toHaveProperty('aliases');
      expect(Institution.parse(i)).toEqual(i);
    }
    const chase = toPublicInstitution(findInstitution('ins_chase')!);
    expect(Object.keys(chase).sort()).toEqual(Object.keys(Institution.shape).sort());
  });

  it('does not let a caller mutate the catalog through a result', () => {
    const [first] = searchInstitutions({ query: 'chase' }, 1);
    first!.country_codes.push('ZZ');
    first!.products.length = 0;
    expect(findInstitution('ins_chase')!.country_codes).toEqual(['US']);
    expect(findInstitution('ins_chase')!.products.length).toBeGreaterThan(0);
  });
});

describe('institution lookup by id', () => {
  it('finds a catalog entry by exact id, including its connector chain', () => {
    const found = findInstitution('ins_sandbox_first_bank');
    expect(found?.name).toBe('Sandbox First Bank');
    expect(found?.connectors).toEqual(['sandbox']);
  });

  it('returns undefined for an unknown id', () => {
    expect(findInstitution('ins_nope')).toBeUndefined();
    expect(findInstitution('')).toBeUndefined();
  });
});
