// Descriptor rules engine: raw bank statement descriptor + signed amount -> cleaned merchant,
// taxonomy category and payment channel. Pure and deterministic (no I/O, clock or randomness); it
// runs at ingestion for every connector (functions/app/item-source.ts) and under the AI endpoints.
// The 526 rules live in ./rule-table (read packed, from ./rule-table.data) and are compiled once, at
// module load, into prefix and word indexes, so one call is a handful of regex passes plus a few map
// lookups (about 3 µs).
//
// Algorithm (precedence top to bottom; the first tier that matches decides):
//   0. Normalize. Upper case; strip bank lead-ins (POS, DEBIT CARD PURCHASE, CHECKCARD 1103,
//      PURCHASE AUTHORIZED ON 11/03, ACH, BILL PAY, POINT OF SALE - INTERAC RETAIL PURCHASE, VISA
//      DEBIT PURCHASE, KARTENZAHLUNG, PRLV SEPA, CB ...) and one payment-processor prefix (SQ *, TST*,
//      PAYPAL *, PP*, AMZN Mktp US*, SP , DD *, GOOGLE *, IC*, MSFT * ...); unpack ACH "ORIG CO NAME:"
//      records; cut ACH trailers (PPD ID: ..., WEB ID: ...); drop phone numbers, dates, times, card
//      trailers (XXXX1234), store numbers (#1234, the number in STORE 123, 0042) and code-like
//      tokens; fold accents, drop apostrophes and `&`, turn other punctuation into spaces. A trailing
//      city/state/country suffix (SEATTLE WA, PARIS FR) is cut for keyword tiers and for names built
//      from the descriptor; such names also drop an unknown city word left before a state code.
//   A. Priority keywords (fees, income, card/loan payments, cash, transfers), sign-aware; first rule wins.
//   P. A processor that owns the purchase outright (AMZN Mktp -> Amazon, DD * -> DoorDash).
//   B. Merchant pattern at the start of the descriptor; longest pattern wins. A descriptor the
//      bank cut short still matches when it is a prefix (8+ characters) of a pattern. After a
//      processor prefix or in a web address a brand may be glued (SPOTIFYUSAI, MINTMOBILE.COM).
//      After an owning processor the remainder is also tried behind the owner's word (GOOGLE *FI ->
//      GOOGLE FI).
//   C. Merchant pattern at a later word (leftmost, then longest), except `^` (start-only) patterns.
//      A department word outside the brand's pattern moves the category (fuel at a grocer or a
//      warehouse club, tolls billed by a car rental company). A `.io` address is software.
//   D. Category words (PIZZA, PHARMACY, HOTEL, RENT ...): a phrase inside a longer matching phrase
//      does not count (ANIMAL HOSPITAL over HOSPITAL), otherwise the first rule wins. The name is
//      the cleaned descriptor.
//      Keyword tiers read abbreviations as words (PYMNT, INTRST, PRKG ...) and tier-D words also in
//      the plural. Failing D, a category word cut off at the end of the name (COFFE, ICE CRE) counts
//      when it can only be one rule's word.
//   E. Fallback words (bare WATER or ELECTRIC, CITY OF, DEPOSIT, TRANSFER, FEE, cuisines) when D found nothing.
//   F. The processor's own fallback (GOOGLE * -> Google, IC* -> Instacart), if it has one.
//   -. Unmatched: connector hints, if given (the counterparty name through these rules, then the MCC's
//      category); else merchant_name, category and category_detailed null; channel from the descriptor.
// Inflows (amount < 0): a rule's `in` category applies; without one, spending categories become
// income_refunds (a refund at that merchant) and non-spending ones keep their category.
import { primaryOf } from '../taxonomy';
import { categoryForMcc } from './mcc';
import { unpackText } from './packed-text';
import type { Channel, KeywordRow, MerchantRule, RuleOptions } from './rule-table';
// The table's rows as ./rule-table.ts holds them, packed (scripts/enrichment/pack-rule-table.ts).
import { PACKED_RULE_TIERS, RULES_VERSION as TABLE_VERSION } from './rule-table.data';

interface RuleTiers {
  PRIORITY_KEYWORDS: readonly KeywordRow[];
  MERCHANTS: readonly MerchantRule[];
  GENERIC_KEYWORDS: readonly KeywordRow[];
  FALLBACK_KEYWORDS: readonly KeywordRow[];
}
const { PRIORITY_KEYWORDS, MERCHANTS, GENERIC_KEYWORDS, FALLBACK_KEYWORDS } = JSON.parse(unpackText(PACKED_RULE_TIERS)) as RuleTiers;

export type { Channel } from './rule-table';

export interface Enrichment {
  merchant_name: string | null;
  category: string | null;
  category_detailed: string | null;
  payment_channel: Channel;
}

export const RULES_VERSION: string = TABLE_VERSION;

// ---------------------------------------------------------------------------------------------
// Normalization tables
// ---------------------------------------------------------------------------------------------

const MONTH = '(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)';
/** Card lead-ins banks add (a card was used). Each may be followed by a date, a 4-digit card or a masked card. */
const BANK_PREFIXES = [
  'PURCHASE AUTHORIZED ON \\d\\d/\\d\\d', 'RECURRING PAYMENT AUTHORIZED ON \\d\\d/\\d\\d', 'PURCHASE AUTHORISED ON \\d\\d/\\d\\d',
  'DEBIT CARD PURCHASE', 'DEBIT CARD PURCH', 'DEBIT CARD DEBIT', 'DEBIT CARD', 'DEBIT PURCHASE', 'DBT CRD \\d{4}', 'DBT PURCHASE',
  'POS DEBIT', 'POS PURCHASE', 'POS PUR', 'POS WITHDRAWAL', 'POS', 'POINT OF SALE', 'CHECKCARD \\d{4}', 'CHECKCARD', 'CHECK CARD',
  'VISA DDA PUR', 'DDA PURCHASE', 'VISA PURCHASE', 'CARD PURCHASE WITH PIN', 'CARD PURCHASE', 'PIN PURCHASE', 'PURCHASE',
  'RECURRING CARD PURCHASE', 'RECURRING PAYMENT', 'RECURRING', 'PREAUTHORIZED DEBIT', 'MOBILE PURCHASE', 'CONTACTLESS PAYMENT', 'CONTACTLESS',
  'CARD PAYMENT TO', 'CARD TRANSACTION', 'INTERAC PURCHASE', 'INTERAC RETAIL PURCHASE', 'IDP PURCHASE', 'VISA DEBIT PURCHASE', 'VISA DEBIT PUR',
  'VISA DEBIT', 'OPOS',
  'KARTENZAHLUNG', 'GIROCARD', 'EC', 'PAIEMENT PAR CARTE', 'PAIEMENT CB', 'CARTE X\\d{4}', 'CB',
  // credit unions: the posting type leads ("Withdrawal Debit Card ...", "Withdrawal POS #123 ...")
  'WITHDRAWAL DEBIT CARD', 'WITHDRAWAL DEBIT', 'WITHDRAWAL POS', 'WITHDRAWAL PURCHASE', 'DEBIT CARD WITHDRAWAL',
  'POS SIGNATURE PURCHASE', 'SIGNATURE PURCHASE', 'POS TRANSACTION', 'PIN POS PURCHASE', 'POS PIN PURCHASE', 'DEBIT POS',
  'VISA CHECK CARD', 'VISA CHECKCARD', 'MASTERCARD PURCHASE', 'MC PURCHASE',
  // POS with the date glued on (POS01SEP, POS 14MAR24), Austrian POS with amount and terminal (POS 12,50 AT K1)
  `POS ?\\d\\d${MONTH}(?:\\d\\d)?`, 'POS \\d+[.,]\\d\\d(?: EUR)?(?: [A-Z]{2})? K\\d+',
  // Spain, Italy, France, Germany, the Netherlands
  'COMPRA TARJETA', 'COMPRA TARJ', 'COMPRA EN', 'PAGO CON TARJETA', 'PAGAMENTO POS', 'PAGAMENTO CARTA', 'PAGAMENTO TRAMITE POS',
  'ACHAT CB', 'FACTURE CARTE', 'KARTENUMSATZ', 'DEBITKARTE', 'BETAALPAS', 'BEA',
];
/** Other lead-ins: ACH, bill pay, direct debit, www. */
const ACH_PREFIXES = [
  'ACH DEBIT', 'ACH CREDIT', 'ACH PMT', 'ACH WEB', 'ACH', 'ELECTRONIC WITHDRAWAL', 'EXTERNAL WITHDRAWAL', 'ELECTRONIC PAYMENT',
  'BILL PAYMENT', 'BILL PAY', 'BILLPAY', 'WEB PMT', 'DIRECT DEBIT PAYMENT TO', 'DIRECT DEBIT', 'SEPA LASTSCHRIFT', 'SEPA-LASTSCHRIFT',
  'LASTSCHRIFT', 'PRLV SEPA', 'PRLV', 'WWW',
  'WITHDRAWAL ACH', 'ACH WITHDRAWAL', 'FOLGELASTSCHRIFT', 'ERSTLASTSCHRIFT', 'BASISLASTSCHRIFT', 'SEPA DIRECT DEBIT',
  'PRELEVEMENT', 'ADDEBITO SDD', 'ADDEBITO DIRETTO', 'ADEUDO RECIBO', 'RECIBO', 'DOMICILIACION',
];
/** Regex alternation, longest first so that POS DEBIT wins over POS. */
const alternation = (alts: string[]) => [...alts].sort((a, b) => b.length - a.length).join('|');
/** What may follow a lead-in: dates (02/14, 14.03., 01SEP), times, a card number or a masked card. */
const TRAILER = `(?:\\s+(?:\\d\\d/\\d\\d(?:/\\d\\d(?:\\d\\d)?)?|\\d\\d\\.\\d\\d\\.(?:\\d{2,4})?|\\d\\d?${MONTH}(?:\\d\\d)?|\\d\\d[:.]\\d\\d|X*\\d{4}|CARD \\d{4}|\\d{4}))*`;
/** First words of the prefixes above: the prefix regexes only run when the descriptor starts with one. */
const PREFIX_LEADS: ReadonlySet<string> = new Set([...BANK_PREFIXES, ...ACH_PREFIXES].map((p) => /^[A-Z]+/.exec(p)![0]));
const CARD_PREFIX_RE = new RegExp(`^(?:${alternation(BANK_PREFIXES)})${TRAILER}[\\s.:*-]+`);
const ACH_PREFIX_RE = new RegExp(`^(?:${alternation(ACH_PREFIXES)})${TRAILER}[\\s.:*-]+`);

interface Processor {
  re: RegExp;
  ch: Channel;
  /** merchant_name of a MERCHANTS brand that owns the purchase. */
  owner?: string;
  /** The owner's word as printed: GOOGLE *FI is tried as GOOGLE FI (Google Fi) before falling back to the owner. */
  word?: string;
  /** The owner decides even when the remainder names another merchant. */
  force?: boolean;
}
const PROCESSORS: readonly Processor[] = [
  { re: /^(?:AMZN MKTP [A-Z]{2}|AMAZON MKTPL?(?:ACE)?|AMZN MKTPLACE|AMZN)\s*\*\s*/, ch: 'online', owner: 'Amazon', force: true },
  { re: /^DD\s*\*\s*/, ch: 'online', owner: 'DoorDash', force: true },
  { re: /^SQ\s*\*\s*/, ch: 'in_store' },
  { re: /^TST\s*\*\s*/, ch: 'in_store' },
  { re: /^(?:SUMUP|IZ|ZETTLE_?|CLV|CLOVER|LS|TOAST)\s*\*\s*/, ch: 'in_store' },
  { re: /^(?:PAYPAL|PP)\s*\*\s*/, ch: 'online' },
  { re: /^SP\s+(?:\*\s*)?(?!PLUS\b|\+)/, ch: 'online' },
  { re: /^(?:FS|PADDLE\.NET|2CO\.COM|CKO|PY)\s*\*\s*/, ch: 'online' },
  { re: /^GOOGLE\s*\*\s*/, ch: 'online', owner: 'Google', word: 'GOOGLE' },
  { re: /^MSFT\s*\*\s*/, ch: 'online', owner: 'Microsoft', word: 'MSFT' },
  { re: /^IC\s*\*\s*/, ch: 'online', owner: 'Instacart' },
  { re: /^APPLE\.COM\/BILL\s*/, ch: 'online', owner: 'Apple' },
];

/**
 * Phone numbers, dates (02/14), times, card trailers, reference numbers and #store numbers. A card number is cut with the word CARD (see
 * CREDIT_CARD_NUMBER_RE for the exception).
 */
const NOISE_RE =
  /\b1?-?\(?\d{3}\)?[-. ]\d{3}[-. ]\d{4}\b|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AP]M)?\b|\bX{2,}\d{2,4}\b|\*{2,}\d{2,4}|#\s*[A-Z]?\d+|\bCARD\s+(?:ENDING\s+(?:IN\s+)?)?\d{4}\b|(?<=\b(?:STORE|STR|STE|UNIT|LOC|TERMINAL|TERM)\s+)#?\d+\b|\b(?:REF|CONF|TRACE|TRN|AUTH|CONFIRMATION|INV|INVOICE|ORDER)\s*(?:NO|NUM|NBR)?\s*[#:.]?\s*[A-Z]*\d[A-Z0-9]*\b/g;
/** European dates with dots (14.03., 14.03.2024) and amounts with a decimal comma (12,50): only run when a dot or comma is there. */
const EU_NOISE_RE = /\b\d{1,2}\.\d{1,2}\.(?:\d{2,4}\b)?|\b\d+,\d\d\b(?!,)/g;
/** "CREDIT CARD 3333 PAYMENT": the card number goes, the words CREDIT CARD stay (a card payment phrase). */
const CREDIT_CARD_NUMBER_RE = /\bCREDIT CARD (?:ENDING (?:IN )?)?\d{4}\b/g;
/** ACH record trailers: everything from PPD ID:, WEB ID:, CO ID:, INDN: onward. */
const ACH_TAIL_RE = /\s+(?:(?:PPD|CCD|WEB|TEL|CTX|IAT|ARC|BOC|POP|CIE)\s+ID|CO ID|ID|INDN|SEC|TRACE|EED|IND ID|IND NAME)\s*:.*$/;
const ORIG_CO_RE = /ORIG CO NAME:\s*(.+?)\s+(?:ORIG ID:|CO ID:).*?CO ENTRY DESCR:\s*(.+?)\s+(?:SEC:|TRACE#?:?|EED:|IND ID:|$)/;

const US_STATES = 'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR';
const CA_PROVINCES = 'AB BC MB NB NL NS NT NU ON PE QC SK YT';
const COUNTRIES = 'US USA CAN GB GBR UK FR FRA DE DEU ES ESP IT ITA NL NLD PT PRT IE IRL AT AUT BE BEL CH CHE MX MEX JP JPN AU AUS NZ SE DK NO FI PL';
const REGION_CODES: ReadonlySet<string> = new Set(`${US_STATES} ${CA_PROVINCES} ${COUNTRIES}`.split(' '));
const CITIES: ReadonlySet<string> = new Set([
  'SEATTLE', 'BELLEVUE', 'REDMOND', 'TACOMA', 'SAN FRANCISCO', 'SAN FRAN', 'OAKLAND', 'BERKELEY', 'SAN JOSE', 'PALO ALTO', 'LOS ANGELES',
  'SANTA MONICA', 'SAN DIEGO', 'SACRAMENTO', 'PORTLAND', 'AUSTIN', 'HOUSTON', 'DALLAS', 'SAN ANTONIO', 'NEW YORK', 'BROOKLYN',
  'QUEENS', 'MANHATTAN', 'CHICAGO', 'EVANSTON', 'DENVER', 'BOULDER', 'BOSTON', 'CAMBRIDGE', 'SOMERVILLE', 'ATLANTA', 'MIAMI',
  'ORLANDO', 'TAMPA', 'PHOENIX', 'SCOTTSDALE', 'TEMPE', 'LAS VEGAS', 'SALT LAKE CITY', 'SALT LAKE CTY', 'MINNEAPOLIS', 'ST PAUL',
  'RALEIGH', 'DURHAM', 'CHARLOTTE', 'NASHVILLE', 'WASHINGTON', 'ARLINGTON', 'PHILADELPHIA', 'PITTSBURGH', 'DETROIT', 'CLEVELAND',
  'COLUMBUS', 'INDIANAPOLIS', 'ST LOUIS', 'KANSAS CITY', 'NEW ORLEANS', 'HONOLULU', 'ANCHORAGE', 'BALTIMORE', 'MADISON', 'MILWAUKEE',
  'TORONTO', 'VANCOUVER', 'MONTREAL', 'CALGARY', 'OTTAWA', 'EDMONTON', 'LONDON', 'MANCHESTER', 'EDINBURGH', 'BRISTOL', 'LEEDS',
  'GLASGOW', 'DUBLIN', 'PARIS', 'LYON', 'MARSEILLE', 'NICE', 'BORDEAUX', 'BERLIN', 'MUNICH', 'MUENCHEN', 'HAMBURG', 'FRANKFURT',
  'KOELN', 'COLOGNE', 'VIENNA', 'WIEN', 'AMSTERDAM', 'ROTTERDAM', 'BRUSSELS', 'BRUXELLES', 'LISBON', 'LISBOA', 'PORTO', 'MADRID',
  'BARCELONA', 'ROME', 'ROMA', 'MILAN', 'MILANO', 'FLORENCE', 'FIRENZE', 'ZURICH', 'GENEVA', 'COPENHAGEN', 'STOCKHOLM', 'TOKYO',
  'MEXICO CITY', 'CANCUN', 'HELP UBER COM', 'HELP',
]);
const CITY_LAST_WORDS: ReadonlySet<string> = new Set([...CITIES].map((c) => c.slice(c.lastIndexOf(' ') + 1)));
/** First words of two-word city names (SAN DIEGO, FORT WORTH, ST LOUIS, LAS VEGAS ...). */
const CITY_PREFIXES: ReadonlySet<string> = new Set('SAN SANTA LOS LAS EL FORT FT ST SAINT NEW PALO PALM SALT NORTH SOUTH EAST WEST MOUNTAIN WALNUT ROUND OVERLAND ANN DES LAKE GRAND COLORADO BATON CORPUS'.split(' '));
/** Words that carry no merchant identity; dropped from names built out of the descriptor. */
const NAME_STOPWORDS: ReadonlySet<string> = new Set([
  'PPD', 'CCD', 'WEB', 'TEL', 'ID', 'ACH', 'DES', 'INDN', 'ORIG', 'CO', 'ENTRY', 'DESCR', 'SEC', 'PMT', 'PYMT', 'PAYMENT', 'PAYMENTS',
  'ONLINE', 'DEBIT', 'CREDIT', 'PURCHASE', 'POS', 'REF', 'TRN', 'THE', 'WWW', 'COM', 'NET', 'DIRECT', 'DEP', 'DEPOSIT', 'RECURRING',
  'AUTOPAY', 'EFT', 'BGC', 'SO', 'DD', 'FPS', 'VIA', 'DIR', 'PAYROLL', 'SALARY', 'GUSTO', 'ADP', 'PAYCHEX', 'PAY', 'WAGES',
]);

/**
 * Statement abbreviations and inflections, read as the full word by the keyword tiers (A, D, E) and
 * compiled the same way into their phrases, so "INTRST PYMNT" meets INTEREST PAYMENT, "PRKG METR"
 * meets PARKING METER and "SVC CHG" meets SERVICE CHARGE. Names are still built from the words as
 * printed. The compiler throws if a mapping makes two rules' phrases equal. Not here on purpose:
 * PMT and PYMT (CARD PMT is a card payment, CARD PAYMENT a UK card purchase), TFR (a priority
 * transfer word, while a bare TRANSFER is only a fallback word), TRANS (TRANS UNION, TRANSIT ...).
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    PAYMENT: 'PYMNT PYMNTS PMNT PAYMNT PAYMT PAYMENTS',
    INTEREST: 'INTRST INTRS INTST INTERESTS',
    WITHDRAWAL: 'WDRL WTHDRL WTHDRWL WITHDRWL WITHDRAWL WDRWL WITHDRAWALS',
    TRANSFER: 'TRANSFERRED TRANSFERED TRNSFR TRANSFR TRSF TRSFR TRANFER TRANSFERS',
    DEPOSIT: 'DEP DEPOSITS',
    PARKING: 'PRKG PKNG PARKNG',
    METER: 'METR',
    SERVICE: 'SVC SRVC',
    SERVICES: 'SVCS SRVCS',
    CHARGE: 'CHG CHRG',
    MAINTENANCE: 'MAINT MNTNC',
    MONTHLY: 'MTHLY MNTHLY',
    ACCOUNT: 'ACCT',
    INTERNATIONAL: 'INTL',
    TRANSACTION: 'TXN TRXN TRANSACTN',
    RESTAURANT: 'RSTRNT RESTRNT RESTAURNT',
    STATION: 'STN',
    CENTER: 'CTR CENTRE',
    UNIVERSITY: 'UNIV',
    HOSPITAL: 'HOSP',
    CLINIC: 'CLNC',
    DENTAL: 'DNTL',
    PHARMACY: 'PHCY PHRMCY',
    GROCERY: 'GRCRY',
    ASSOCIATION: 'ASSN ASSOC',
  }).flatMap(([word, forms]) => forms.split(' ').map((form) => [form, word] as const)),
);
function canonicalWord(token: string): string {
  return ABBREVIATIONS.get(token) ?? token;
}

// ---------------------------------------------------------------------------------------------
// Compilation
// ---------------------------------------------------------------------------------------------

const SPEND_PRIMARIES: ReadonlySet<string> = new Set([
  'bank_fees', 'food_and_drink', 'shopping', 'home', 'rent_and_utilities', 'transportation', 'travel', 'entertainment',
  'health_and_personal_care', 'services_and_government',
]);

interface Rule {
  order: number;
  tier: 'A' | 'B' | 'D' | 'E';
  /** The brand, the group label or the keyword class's first phrase. */
  label: string;
  patterns: string[];
  merchant: string | null;
  detailed: string;
  inDetailed: string;
  opts: RuleOptions;
}
interface PrefixEntry {
  pattern: string; // normalized, with a trailing space (word end)
  rule: Rule;
  /** merchant_name for this pattern (a group rule's brands each have their own). */
  name: string;
  start: boolean;
}
interface PhraseEntry {
  tokens: string[];
  rule: Rule;
}

function checkDetailed(id: string, where: string): string {
  if (!primaryOf(id)) throw new Error(`enrichment rule table: unknown category_detailed "${id}" in ${where}`);
  return id;
}

/** A merchant rule as brands: one brand for a plain row, several for a group. */
function brandsOf(row: MerchantRule): ReadonlyArray<readonly [string, string]> {
  return 'group' in row ? row.brands : [[row[0], row[1]]];
}

function makeRule(order: number, tier: Rule['tier'], label: string, patterns: string[], merchant: string | null, detailed: string, opts: RuleOptions): Rule {
  const where = `${tier} "${label}"`;
  checkDetailed(detailed, where);
  if (patterns.length === 0 || patterns.some((p) => p.replace(/^\^/, '').trim() === '')) throw new Error(`enrichment rule table: empty pattern in ${where}`);
  let inDetailed: string;
  if (opts.in) inDetailed = checkDetailed(opts.in, where);
  else inDetailed = SPEND_PRIMARIES.has(primaryOf(detailed)!) ? 'income_refunds' : detailed;
  return { order, tier, label, patterns, merchant, detailed, inDetailed, opts };
}

/** Tokens from patterns that contain digits ("BET365", "24 HOUR"): never dropped as noise. */
const KEEP_TOKENS = new Set<string>();
for (const source of [...MERCHANTS.flatMap((r) => brandsOf(r).map((b) => b[0])), ...[...PRIORITY_KEYWORDS, ...GENERIC_KEYWORDS, ...FALLBACK_KEYWORDS].map((r) => r[0])]) {
  for (const alt of source.split('|')) for (const t of charNormalize(alt.replace(/^\^/, '').toUpperCase()).split(' ')) if (/\d/.test(t)) KEEP_TOKENS.add(t);
}

/** Two-letter brands (H&M -> HM, BP, EE): kept when a code is glued to them (HM0483), unlike other two-letter codes. */
const SHORT_BRANDS: ReadonlySet<string> = new Set(
  MERCHANTS.flatMap((r) => brandsOf(r).flatMap((b) => b[0].split('|'))).map((alt) => charNormalize(alt.replace(/^\^/, '').toUpperCase())).filter((t) => /^[A-Z]{2}$/.test(t)),
);

const PREFIX_INDEX = new Map<string, PrefixEntry[]>();
/** merchant_name -> the rule and pattern entry that name it (processor owners, refunds). */
const MERCHANT_BY_NAME = new Map<string, { rule: Rule; name: string }>();
const ALL_RULES: Rule[] = [];
let order = 0;
/** Phrases of every keyword tier, for matching a cut-off last word (see partialPhrase). */
const PARTIAL_SOURCES: Array<{ tokens: string[]; rule: Rule }> = [];
const PRIORITY_INDEX = phraseIndex(PRIORITY_KEYWORDS, 'A');
for (const row of MERCHANTS) {
  const brands = brandsOf(row);
  const rule = 'group' in row
    ? makeRule(order++, 'B', row.group, brands.flatMap((b) => b[0].split('|')), null, row.category, row.opts)
    : makeRule(order++, 'B', row[1], row[0].split('|'), row[1], row[2], row[3] ?? {});
  ALL_RULES.push(rule);
  for (const [alts, name] of brands) {
    if (!name) throw new Error(`enrichment rule table: unnamed brand in B "${rule.label}"`);
    if (!MERCHANT_BY_NAME.has(name)) MERCHANT_BY_NAME.set(name, { rule, name });
    const seen = new Set<string>();
    for (const raw of alts.split('|')) {
      const start = raw.startsWith('^');
      const norm = tokensOf((start ? raw.slice(1) : raw).toUpperCase()).join(' ');
      if (norm.length < 2 || seen.has(norm)) continue;
      seen.add(norm);
      const pattern = `${norm} `;
      const key = pattern.slice(0, 3);
      let bucket = PREFIX_INDEX.get(key);
      if (!bucket) PREFIX_INDEX.set(key, (bucket = []));
      bucket.push({ pattern, rule, name, start });
    }
  }
}
for (const bucket of PREFIX_INDEX.values()) bucket.sort((a, b) => b.pattern.length - a.pattern.length || a.rule.order - b.rule.order);

function phraseIndex(rows: readonly KeywordRow[], tier: 'A' | 'D' | 'E'): Map<string, PhraseEntry[]> {
  const index = new Map<string, PhraseEntry[]>();
  /** Phrase (canonical) -> the rule that owns it: an abbreviation must not make two rules' phrases equal. */
  const owners = new Map<string, Rule>();
  const add = (tokens: string[], rule: Rule) => {
    let bucket = index.get(tokens[0]);
    if (!bucket) index.set(tokens[0], (bucket = []));
    bucket.push({ tokens, rule });
  };
  for (const row of rows) {
    const rule = makeRule(order++, tier, row[0].split('|')[0], row[0].split('|'), row[1], row[2], row[3] ?? {});
    ALL_RULES.push(rule);
    for (const alt of row[0].split('|')) {
      const written = charNormalize(alt.toUpperCase()).split(' ').filter(Boolean);
      if (written.length === 0) continue;
      const tokens = written.map(canonicalWord);
      const phrase = tokens.join(' ');
      const owner = owners.get(phrase);
      if (owner && owner !== rule && phrase !== written.join(' ')) {
        throw new Error(`enrichment rule table: "${alt}" reads as "${phrase}" after abbreviations, a phrase of ${tier} "${owner.label}"`);
      }
      owners.set(phrase, rule);
      add(tokens, rule);
      PARTIAL_SOURCES.push({ tokens, rule });
    }
  }
  // Category words also match in the plural (TOLLS, RESTAURANTS, BAKERIES), unless that plural is
  // a phrase of its own.
  if (tier === 'D') {
    for (const { tokens, rule } of [...index.values()].flat()) {
      const plural = pluralOf(tokens[tokens.length - 1]);
      if (!plural) continue;
      const pluralTokens = [...tokens.slice(0, -1), plural];
      if (owners.has(pluralTokens.join(' '))) continue;
      owners.set(pluralTokens.join(' '), rule);
      add(pluralTokens, rule);
    }
  }
  return index;
}

/** The regular English plural of a keyword word, or null for abbreviations (MD, RX) and words already ending in S. */
function pluralOf(word: string): string | null {
  if (word.length < 3 || word.endsWith('S') || !/[AEIOUY]/.test(word) || /\d/.test(word)) return null;
  if (/[^AEIOU]Y$/.test(word)) return `${word.slice(0, -1)}IES`;
  if (/(?:X|Z|CH|SH)$/.test(word)) return `${word}ES`;
  return `${word}S`;
}

const GENERIC_INDEX = phraseIndex(GENERIC_KEYWORDS, 'D');
const FALLBACK_INDEX = phraseIndex(FALLBACK_KEYWORDS, 'E');
/** Every word of a keyword phrase: never taken for a city when cleaning a name. */
const KEYWORD_WORDS: ReadonlySet<string> = new Set([PRIORITY_INDEX, GENERIC_INDEX, FALLBACK_INDEX].flatMap((ix) => [...ix.values()].flat().flatMap((e) => e.tokens)));

// A category word the bank cut off at the end of its name field (JAPANESE RESTAUR, CORNER COFFE,
// POLAR ICE CRE). The cut word matches a keyword when it is a prefix of keyword words of one rule
// only: 4+ letters alone, 3+ letters after the phrase's first words (ICE CRE). It never matches when
// the word is complete somewhere in the table (PARK: THEME PARK; a brand's word) or is a common word
// that merely starts a keyword (listed below), and words of different rules make it ambiguous
// (COLL: COLLEGE or COLLISION; HOST: HOSTEL or HOSTING; RES: RESTAURANT or RESORT). The shortest
// completion wins when every other one extends it (MARKE: MARKET, not MARKETPLACE).
/** Complete words that happen to start a keyword: BOWL is not BOWLING, POKE is not POKER, DENT is not DENTAL. */
const PARTIAL_STOPWORDS: ReadonlySet<string> = new Set(
  // common words, names and the cut-off starts of other words (COUN: COUNTY, STRE: STREET, PRODU: PRODUCTIONS)
  ('ACCO ACCOU ACCOUN ALTER ANTI AQUA BABY BAKER BARR BAUM BEAU BETT BING BOUL BOUT BOWL BRAS BRASS BREW BURG BURR CAME ' +
    'CARB CHEM CHIL CHOP CLEAN COCK COLLE COMMU CONC CONSU CONSUL CONT CONVE CONVEN COUN COUR CREAM DENT DISC DISCO DOLL ' +
    'DONE DUMP FISH FLOR FLORI FLOW FOUN FOUND FUND GROOM HAND HANDY HARD HEAL IMAGE IMPO LANDS LEGA LIBR LIBRA LICE ' +
    'LOCK MARK MASS MATT MEMBER MEMBERS MONT MONTE MOVE MOVI MUSE NIGHT NURS NURSE PAIN PAINT PARI PARIS PASS PEDI PERM ' +
    'PLUM POKE POST PRES PRIN PROD PRODU PRODUC PROPER RADIO REGI REGIS RENTA RIDES ROAST SHIP SOFT SPEN SPEND SPIRIT ' +
    'STOR STORE STRE STREAM SUIT TAIL TANK TANKS TEMP TICK TRAIT TRAM TREASURE TURN WING').split(' '),
);
interface PartialEntry {
  lead: string[];
  word: string;
  rule: Rule;
}
const PARTIAL_INDEX = new Map<string, PartialEntry[]>();
for (const { tokens, rule } of PARTIAL_SOURCES) {
  const word = tokens[tokens.length - 1];
  const lead = tokens.slice(0, -1);
  for (let len = lead.length > 0 ? 3 : 4; len < word.length; len++) {
    const prefix = word.slice(0, len);
    let bucket = PARTIAL_INDEX.get(prefix);
    if (!bucket) PARTIAL_INDEX.set(prefix, (bucket = []));
    bucket.push({ lead, word, rule });
  }
}
/** Words that are complete as printed: keyword and brand words, cities, region codes, abbreviations, the stopwords above. */
const COMPLETE_WORDS: ReadonlySet<string> = new Set([
  ...PARTIAL_SOURCES.flatMap((e) => e.tokens),
  ...[...PREFIX_INDEX.values()].flat().flatMap((e) => e.pattern.trim().split(' ')),
  ...[...CITIES].flatMap((c) => c.split(' ')),
  ...REGION_CODES,
  ...NAME_STOPWORDS,
  ...ABBREVIATIONS.keys(),
  ...PARTIAL_STOPWORDS,
]);

/** The category rule a cut-off word at `at` completes, with the completed word; null when none or ambiguous. */
function partialPhrase(tokens: readonly string[], at: number): { rule: Rule; word: string } | null {
  const cut = tokens[at];
  if (cut.length < 3 || COMPLETE_WORDS.has(cut)) return null;
  const candidates = PARTIAL_INDEX.get(cut);
  if (!candidates) return null;
  let best: PartialEntry[] = [];
  let bestLead = -1;
  for (const c of candidates) {
    const n = c.lead.length;
    if (n > at || n < bestLead) continue;
    let fits = true;
    for (let j = 0; j < n && fits; j++) fits = tokens[at - n + j] === c.lead[j];
    if (!fits) continue;
    if (n > bestLead) {
      best = [];
      bestLead = n;
    }
    best.push(c);
  }
  if (best.length === 0) return null;
  let word = best[0].word;
  for (const c of best) if (c.word.length < word.length) word = c.word;
  let rule: Rule | null = best[0].rule;
  if (best.some((c) => c.rule !== rule)) {
    // words of different rules: only the shortest completion, when every other one extends it
    rule = null;
    for (const c of best) {
      if (!c.word.startsWith(word)) return null;
      if (c.word !== word) continue;
      if (rule && c.rule !== rule) return null;
      rule = c.rule;
    }
  }
  return rule && rule.tier === 'D' && !rule.opts.sign ? { rule, word } : null;
}

/**
 * A department of a merchant whose own category is something else: fuel sold by a grocer, a
 * warehouse club or a convenience store (KROGER FUEL, a club's GAS station), tolls billed by a car
 * rental company. The merchant keeps its name; the category follows the department.
 */
const DEPARTMENTS: ReadonlyArray<{ words: ReadonlySet<string>; at: ReadonlySet<string>; rule: Rule }> = [
  {
    words: new Set(['FUEL', 'GAS', 'GASOLINE', 'PETROL', 'DIESEL']),
    at: new Set(['food_and_drink_groceries', 'shopping_superstores', 'shopping_convenience_stores']),
    detailed: 'transportation_fuel',
  },
  {
    words: new Set(['TOLL', 'TOLLS', 'ETOLL', 'TOLLPASS', 'PLATEPASS']),
    at: new Set(['travel_rental_cars']),
    detailed: 'transportation_tolls',
  },
].map(({ words, at, detailed }) => {
  const rule = ALL_RULES.find((r) => r.tier === 'D' && r.detailed === detailed);
  if (!rule) throw new Error(`enrichment rules: no category rule for department ${detailed}`);
  return { words, at, rule };
});

/** The department rule for a merchant match, if the descriptor names one outside the brand's own pattern. */
function departmentOf(entry: PrefixEntry, tokens: readonly string[]): Rule | null {
  for (const dep of DEPARTMENTS) {
    if (!dep.at.has(entry.rule.detailed)) continue;
    for (const t of tokens) if (dep.words.has(t) && !` ${entry.pattern}`.includes(` ${t} `)) return dep.rule;
  }
  return null;
}

/** The software category rule: a `.io` address names a developer or SaaS tool. */
const SOFTWARE_RULE: Rule = (() => {
  const rule = ALL_RULES.find((r) => r.tier === 'D' && r.detailed === 'services_and_government_software');
  if (!rule) throw new Error('enrichment rules: no category rule for services_and_government_software');
  return rule;
})();

/** One public view per rule object: what RULE_COUNT counts. */
export interface RuleInfo {
  tier: 'priority' | 'merchant' | 'category' | 'fallback';
  /** The brand, the group label, or the keyword class's first phrase. */
  label: string;
  patterns: readonly string[];
  category_detailed: string;
  /** Detailed category for an inflow. */
  category_detailed_in: string;
}
const TIER_NAMES = { A: 'priority', B: 'merchant', D: 'category', E: 'fallback' } as const;
export const RULES: readonly RuleInfo[] = ALL_RULES.map((r) => Object.freeze({
  tier: TIER_NAMES[r.tier], label: r.label, patterns: Object.freeze([...r.patterns]), category_detailed: r.detailed, category_detailed_in: r.inDetailed,
}));
/** Number of rule objects the engine compiled: priority keywords + merchant and group rules + category and fallback keywords. */
export const RULE_COUNT: number = RULES.length;

for (const p of PROCESSORS) {
  if (p.owner && !MERCHANT_BY_NAME.has(p.owner)) throw new Error(`enrichment rule table: processor owner "${p.owner}" is not a merchant rule's brand`);
}

// ---------------------------------------------------------------------------------------------
// Normalization
// ---------------------------------------------------------------------------------------------

/** Folds accents (É -> E, ß -> SS) and typographic apostrophes; ASCII input is returned as is. */
function fold(s: string): string {
  return /[^\p{ASCII}]/u.test(s) ? s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'SS').replace(/[‘’`´]/g, "'") : s;
}

/**
 * Upper-case input -> word tokens: apostrophes and `&` are dropped inside words ("MCDONALD'S" ->
 * MCDONALDS, "AT&T" -> ATT), any other non-alphanumeric separates words. Number and code tokens
 * are dropped (store numbers, zips, ids such as 2K4LM1), unless a pattern uses them ("BET365").
 */
function tokensOf(input: string): string[] {
  const s = fold(input);
  const out: string[] = [];
  let word = '';
  let digits = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) {
      word += s[i];
    } else if (c >= 48 && c <= 57) {
      word += s[i];
      digits++;
    } else if (c === 39 || c === 38) {
      // apostrophe, ampersand: joined
    } else if (word !== '') {
      if (digits === 0 || KEEP_TOKENS.has(word)) out.push(word);
      else if (digits === word.length) {
        if (word.length < 3) out.push(word); // keep "24" (24 HOUR FITNESS), drop store numbers and zips
      } else if (word.length < 4 || digits < 2) out.push(word); // keep O2, 7ELEVEN, F45
      else {
        // a name with a code glued on: IMPARK00120034 -> IMPARK, H&M0483 -> HM (a two-letter brand
        // only), HOTELSCOM7264 -> HOTELS COM; codes like 2K4LM1 or WA98101 go
        const glued = /^([A-Z]{2,})\d{2,}$/.exec(word);
        if (glued) {
          const letters = glued[1];
          if (letters.length === 2) {
            if (SHORT_BRANDS.has(letters)) out.push(letters);
          } else if (letters.length >= 7 && /(?:COM|NET)$/.test(letters)) out.push(letters.slice(0, -3), letters.slice(-3));
          else out.push(letters);
        }
      }
      word = '';
      digits = 0;
    }
  }
  return out;
}

/** Character-level normalization of a pattern or phrase written in the table. */
function charNormalize(s: string): string {
  return fold(s).replace(/['&]/g, '').replace(/[^A-Z0-9]+/g, ' ').trim();
}

interface Normalized {
  /** All cleaned tokens, joined, with a trailing space: input to the merchant tiers. */
  key: string;
  /** Cleaned tokens without a trailing city / state / country suffix: input to keyword tiers and names. */
  core: string[];
  /** Words of `core` that name the merchant: an unknown city left before a stripped state code is dropped too. */
  nameEnd: number;
  /** `core` with abbreviations read as words (PYMNT -> PAYMENT): input to the keyword tiers. Same positions as `core`. */
  kw: string[];
  processor: Processor | null;
  web: boolean;
  cardPresent: boolean;
  /** The name in a `.io` web address at the start (KRAKEN.IO -> KRAKEN), else null. */
  io: string | null;
  /** The descriptor after lead-ins and the processor prefix, before noise removal. */
  printed: string;
}

function normalize(raw: string): Normalized {
  let s = raw.toUpperCase().replace(/\s+/g, ' ').trim();
  const web = /\.(?:COM|NET|ORG|IO|CO|DE|FR|CA|UK)\b|WWW\.|HTTPS?:|\bONLINE\b|\bINTERNET\b|\bE-?COMMERCE\b/.test(s);
  let cardPresent = false;

  if (s.includes('ORIG CO NAME')) {
    const orig = ORIG_CO_RE.exec(s);
    if (orig) s = `${orig[2]} ${orig[1]}`;
  }

  for (let i = 0; i < 3; i++) {
    const lead = /^[A-Z]+/.exec(s);
    if (!lead || !PREFIX_LEADS.has(lead[0])) break;
    const card = CARD_PREFIX_RE.exec(s);
    if (card) {
      cardPresent = true;
      s = s.slice(card[0].length);
      continue;
    }
    const ach = ACH_PREFIX_RE.exec(s);
    if (ach) {
      s = s.slice(ach[0].length);
      continue;
    }
    break;
  }

  let processor: Processor | null = null;
  if (s.includes('*') || s.startsWith('SP ') || s.startsWith('APPLE.COM/BILL')) for (const p of PROCESSORS) {
    const m = p.re.exec(s);
    if (m && m[0].length < s.length) {
      processor = p;
      s = s.slice(m[0].length);
      break;
    }
  }

  const io = s.includes('.IO') ? /^([A-Z0-9][A-Z0-9-]*)\.IO\b/.exec(s)?.[1] ?? null : null;
  if (s.includes(':')) s = s.replace(/\bDES:/, ' ').replace(ACH_TAIL_RE, '');
  const printed = s;
  if (/\d/.test(s)) {
    if (/#\s*\d/.test(s)) cardPresent = true;
    if (s.includes('CREDIT CARD ')) s = s.replace(CREDIT_CARD_NUMBER_RE, 'CREDIT CARD');
    if (s.includes('.') || s.includes(',')) s = s.replace(EU_NOISE_RE, ' ');
    s = s.replace(NOISE_RE, ' ');
  }
  const tokens = tokensOf(s);

  // trailing region code(s), then a known city
  let end = tokens.length;
  let codes = 0;
  while (end > 1 && codes < 2 && tokens[end - 1].length <= 3 && REGION_CODES.has(tokens[end - 1])) {
    end--;
    codes++;
  }
  if (end > 1 && CITY_LAST_WORDS.has(tokens[end - 1])) for (let n = Math.min(3, end - 1); n >= 1; n--) {
    if (CITIES.has(n === 1 ? tokens[end - 1] : tokens.slice(end - n, end).join(' '))) {
      end -= n;
      break;
    }
  }
  if (codes > 0) cardPresent = true;
  // "SAIGON PHO HOUSE SPOKANE WA": a state code follows a city, known or not. For names only (never
  // for matching), drop one unknown city word, two when the first is a common city prefix (SAN, FORT...).
  let nameEnd = end;
  if (codes > 0 && end === tokens.length - codes && end >= 3 && !KEYWORD_WORDS.has(tokens[end - 1])) {
    nameEnd = end - 1;
    if (nameEnd >= 3 && CITY_PREFIXES.has(tokens[nameEnd - 1])) nameEnd--;
  }
  const core = tokens.slice(0, end);
  const kw = core.some((t) => ABBREVIATIONS.has(t)) ? core.map(canonicalWord) : core;
  return { key: `${tokens.join(' ')} `, core, kw, nameEnd, processor, web, cardPresent, io, printed };
}

// ---------------------------------------------------------------------------------------------
// Matching
// ---------------------------------------------------------------------------------------------

interface PhraseHit {
  rule: Rule;
  at: number;
  len: number;
}

/**
 * The keyword rule whose phrase occurs in `tokens` (whole words); the first rule in table order wins.
 * With `nested`, a phrase whose words lie inside a longer matching phrase does not count (ANIMAL
 * HOSPITAL beats HOSPITAL, RENT A CAR beats RENT, MINI GOLF beats GOLF).
 */
function matchPhrases(index: Map<string, PhraseEntry[]>, tokens: string[], inflow: boolean, nested = false): PhraseHit | null {
  const hits: PhraseHit[] = [];
  let bestOrder = Infinity;
  for (let i = 0; i < tokens.length; i++) {
    const bucket = index.get(tokens[i]);
    if (!bucket) continue;
    for (const e of bucket) {
      if (!nested && e.rule.order >= bestOrder) continue;
      const sign = e.rule.opts.sign;
      if ((sign === 'in' && !inflow) || (sign === 'out' && inflow)) continue;
      const n = e.tokens.length;
      if (i + n > tokens.length) continue;
      let ok = true;
      for (let j = 1; j < n; j++) {
        if (tokens[i + j] !== e.tokens[j]) {
          ok = false;
          break;
        }
      }
      if (ok) {
        hits.push({ rule: e.rule, at: i, len: n });
        if (e.rule.order < bestOrder) bestOrder = e.rule.order;
      }
    }
  }
  if (hits.length < 2) return hits[0] ?? null;
  let best: PhraseHit | null = null;
  for (const h of hits) {
    if (best && h.rule.order >= best.rule.order) continue;
    if (nested && hits.some((o) => o.len > h.len && o.at <= h.at && o.at + o.len >= h.at + h.len)) continue;
    best = h;
  }
  return best;
}

const WEB_TLD = /^[A-Z0-9]+ (?:COM|NET|ORG|IO|CO|APP)\b/;

/**
 * The merchant pattern entry for a cleaned key, or null. `glued`: the descriptor is a processor
 * remainder or a web address, where brands are often printed without spaces (PAYPAL *AMZNCOMBILL,
 * MINTMOBILE.COM), so a multi-word pattern may also match with its spaces removed.
 */
function matchMerchant(key: string, glued = false): PrefixEntry | null {
  // B: at the start
  const head = PREFIX_INDEX.get(key.slice(0, 3));
  if (head) {
    for (const e of head) if (key.startsWith(e.pattern)) return e;
    // bank truncation: the whole descriptor is a prefix of a longer pattern
    const trimmed = key.trimEnd();
    if (trimmed.length >= 8) for (const e of head) if (e.pattern.length > key.length && e.pattern.startsWith(trimmed)) return e;
    // glued words after a processor prefix (PAYPAL *SPOTIFYUSAI): a 6+ letter brand at the very start
    for (const e of head) if (!e.start && e.pattern.length >= 7 && key.startsWith(e.pattern.slice(0, -1))) return e;
    if (glued || WEB_TLD.test(key)) {
      for (const e of head) {
        if (e.start || e.pattern.indexOf(' ') === e.pattern.length - 1) continue;
        const solid = e.pattern.replace(/ /g, '');
        if (solid.length >= 7 && key.startsWith(solid)) return e;
      }
    }
  }
  // C: at a later word
  for (let i = key.indexOf(' ') + 1; i > 0 && i < key.length - 1; i = key.indexOf(' ', i) + 1) {
    const bucket = PREFIX_INDEX.get(key.slice(i, i + 3));
    if (!bucket) continue;
    for (const e of bucket) if (!e.start && e.pattern.length >= 5 && key.startsWith(e.pattern, i)) return e;
  }
  return null;
}

const DEFAULT_ONLINE: ReadonlySet<string> = new Set([
  'entertainment_streaming', 'entertainment_video_games', 'services_and_government_software', 'shopping_online_marketplaces',
  'food_and_drink_delivery', 'transportation_rideshare', 'travel_flights',
]);
const DEFAULT_OTHER_PRIMARY: ReadonlySet<string> = new Set(['income', 'bank_fees', 'rent_and_utilities']);
const DEFAULT_OTHER_DETAILED: ReadonlySet<string> = new Set([
  'services_and_government_insurance', 'services_and_government_taxes', 'services_and_government_government_fees',
  'services_and_government_donations', 'services_and_government_childcare', 'services_and_government_education',
  'services_and_government_professional_services', 'health_and_personal_care_fitness', 'loan_payments_mortgage',
  'loan_payments_student_loan', 'loan_payments_auto_loan', 'loan_payments_personal_loan', 'home_other',
]);

function channelOf(rule: Rule, detailed: string, n: Normalized): Channel {
  if (rule.opts.ch) return rule.opts.ch;
  const primary = primaryOf(detailed)!;
  if (primary === 'transfer_in' || primary === 'transfer_out' || detailed === 'loan_payments_credit_card') return 'transfer';
  if (DEFAULT_ONLINE.has(detailed)) return 'online';
  if (DEFAULT_OTHER_PRIMARY.has(primary) || DEFAULT_OTHER_DETAILED.has(detailed)) {
    if (n.processor?.ch === 'in_store') return 'in_store'; // SQ *, TST*: paid at a terminal
    return n.web ? 'online' : 'other';
  }
  return n.web || n.processor?.ch === 'online' ? 'online' : 'in_store';
}

const TRANSFERISH = /\b(?:TRANSFER|XFER|ZELLE|VENMO|WIRE|TFR|P2P)\b/;
function unmatchedChannel(n: Normalized): Channel {
  if (TRANSFERISH.test(n.key)) return 'transfer';
  if (n.web || n.processor?.ch === 'online') return 'online';
  if (n.cardPresent || n.processor?.ch === 'in_store') return 'in_store';
  return 'other';
}

function titleCase(tokens: string[]): string | null {
  const words = tokens.filter((t) => !NAME_STOPWORDS.has(t)).slice(0, 5);
  if (words.length === 0) return null;
  return words
    .map((w) => (w.length <= 3 && !/[AEIOUY]/.test(w) ? w : w[0] + w.slice(1).toLowerCase()))
    .join(' ');
}

function result(rule: Rule, inflow: boolean, n: Normalized, merchant: string | null): Enrichment {
  const detailed = inflow && rule.opts.sign !== 'in' ? rule.inDetailed : rule.detailed;
  return { merchant_name: merchant, category: primaryOf(detailed)!, category_detailed: detailed, payment_channel: channelOf(rule, detailed, n) };
}

/**
 * Hints a connector may supply beside the descriptor. They are used only when the descriptor rules
 * abstain (see enrichDescriptor) and are never stored.
 */
export interface EnrichmentHints {
  /** The card network's merchant category code (ISO 18245), such as "5812". */
  mcc?: string | null;
  /** The counterparty's name as the source reports it (a creditor name, an aggregator's merchant). */
  counterparty?: string | null;
}

/**
 * Enriches one raw descriptor. `amount` follows the API sign convention: positive is money out of
 * the account, negative is money in.
 *
 * The descriptor rules decide first. When they abstain and `hints` are given: the counterparty name
 * goes through the same rules; failing that, the MCC's category applies (./mcc), named after the
 * counterparty or the cleaned descriptor. When everything abstains, `category` and
 * `category_detailed` are null (callers rely on this to run a fallback); `merchant_name` is the
 * counterparty's cleaned name when one was given, else null.
 */
export function enrichDescriptor(descriptor: string, amount: number, hints?: EnrichmentHints): Enrichment {
  const n = normalize(descriptor ?? '');
  const inflow = amount < 0;
  const ruled = matchRules(n, inflow);
  if (ruled) return ruled;
  const counterparty = hints?.counterparty ? normalize(hints.counterparty) : null;
  if (counterparty) {
    const byName = matchRules(counterparty, inflow);
    if (byName) return byName;
  }
  const counterpartyName = counterparty ? titleCase(counterparty.core.slice(0, counterparty.nameEnd)) : null;
  const mccDetailed = hints?.mcc ? categoryForMcc(hints.mcc) : null;
  if (mccDetailed) {
    const rule = mccRule(mccDetailed);
    return result(rule, inflow, n, counterpartyName ?? titleCase(n.core.slice(0, n.nameEnd)));
  }
  return { merchant_name: counterpartyName, category: null, category_detailed: null, payment_channel: unmatchedChannel(n) };
}

/** One rule object per MCC category, built on first use; not part of the rule table or RULE_COUNT. */
const MCC_RULES = new Map<string, Rule>();
/** Inflows under a money-movement MCC: a withdrawal code on a credit is a deposit, a transfer a transfer in. */
const MCC_INFLOW: Readonly<Record<string, string>> = {
  transfer_out_cash_withdrawal: 'transfer_in_deposit',
  transfer_out_account_transfer: 'transfer_in_account_transfer',
  transfer_out_investment: 'transfer_in_investment',
};
function mccRule(detailed: string): Rule {
  let rule = MCC_RULES.get(detailed);
  if (!rule) {
    const inDetailed = MCC_INFLOW[detailed];
    rule = makeRule(-1, 'D', `MCC ${detailed}`, [detailed], null, detailed, inDetailed ? { in: inDetailed } : {});
    MCC_RULES.set(detailed, rule);
  }
  return rule;
}

/** The descriptor rules, tiers A to F; null when they abstain. */
function matchRules(n: Normalized, inflow: boolean): Enrichment | null {
  // A: priority keywords
  const a = matchPhrases(PRIORITY_INDEX, n.kw, inflow);
  if (a) {
    const r = a.rule;
    let merchant = r.merchant;
    if (!merchant && r.opts.name === 'rest') merchant = titleCase([...n.core.slice(0, a.at), ...n.core.slice(a.at + a.len, Math.max(a.at + a.len, n.nameEnd))]);
    if (!merchant && r.opts.name === 'merchant') {
      const m = n.processor?.force ? MERCHANT_BY_NAME.get(n.processor.owner!)! : matchMerchant(n.key);
      if (m) return { ...result(r, inflow, n, m.name), payment_channel: channelOf(m.rule, m.rule.detailed, n) };
    }
    return result(r, inflow, n, merchant);
  }

  // P: processors that own the purchase
  if (n.processor?.force) {
    const owner = MERCHANT_BY_NAME.get(n.processor.owner!)!;
    return result(owner.rule, inflow, n, owner.name);
  }

  // B, C: merchants (after an owning processor, also as "OWNER remainder": GOOGLE *FI -> GOOGLE FI)
  const m = matchMerchant(n.key, n.processor !== null) ?? (n.processor?.word ? matchMerchant(`${n.processor.word} ${n.key}`) : null);
  // a .io address is a developer or SaaS tool, unless a brand's pattern names that very address
  // (KRAKEN.IO is not the exchange Kraken)
  if (n.io && !(m && m.pattern === `${n.io.replace(/-/g, ' ')} IO `)) {
    return result(SOFTWARE_RULE, inflow, n, `${n.io[0]}${n.io.slice(1).toLowerCase()}.io`);
  }
  if (m) return result(departmentOf(m, n.kw) ?? m.rule, inflow, n, m.name);

  // D: generic category words; then a category word cut off at the end of the name; then E: fallback words
  const d = matchPhrases(GENERIC_INDEX, n.kw, inflow, true);
  if (d) return keywordResult(d.rule, inflow, n, titleCase(n.core.slice(0, Math.max(n.nameEnd, d.at + d.len))));
  const lastAt = n.core.length - 1;
  // the last word of the name: before an unknown city (cut with its state), else the last word
  // unless it follows a number (ROOK & RAVEN #2486 BOUL: a location field, maybe cut, not the name)
  const cutAt = n.nameEnd - 1 < lastAt ? n.nameEnd - 1 : /\d\s+[A-Z]+\s*$/.test(n.printed) ? -1 : lastAt;
  const cut = cutAt >= 0 ? partialPhrase(n.kw, cutAt) : null;
  if (cut) {
    const named = n.core.slice(0, Math.max(n.nameEnd, cutAt + 1));
    named[cutAt] = cut.word;
    return keywordResult(cut.rule, inflow, n, titleCase(named));
  }
  const e = matchPhrases(FALLBACK_INDEX, n.kw, inflow);
  if (e) return keywordResult(e.rule, inflow, n, titleCase(n.core.slice(0, Math.max(n.nameEnd, e.at + e.len))));

  // F: processor fallback
  if (n.processor?.owner) {
    const owner = MERCHANT_BY_NAME.get(n.processor.owner)!;
    return result(owner.rule, inflow, n, owner.name);
  }
  return null;
}

/** A category or fallback word's result; the name is the cleaned descriptor unless the rule says otherwise. */
function keywordResult(rule: Rule, inflow: boolean, n: Normalized, cleanedName: string | null): Enrichment {
  return result(rule, inflow, n, rule.merchant ?? (rule.opts.name === 'none' ? null : cleanedName));
}

/** The cleaned descriptor the rules see (upper case, noise and location removed). For tests and debugging. */
export function normalizeDescriptor(descriptor: string): string {
  return normalize(descriptor).core.join(' ');
}

/** Every (category, category_detailed) pair the engine can return, for either sign. */
export function ruleOutputs(): Array<{ category: string; category_detailed: string }> {
  const seen = new Map<string, string>();
  for (const r of ALL_RULES) {
    for (const d of [r.detailed, r.inDetailed]) seen.set(d, primaryOf(d)!);
  }
  return [...seen].map(([category_detailed, category]) => ({ category, category_detailed }));
}
