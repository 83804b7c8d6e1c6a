import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES, PRIMARY_CATEGORY_IDS, isDetailedCategory, primaryOf } from '../../functions/core/taxonomy';

// Plaid personal-finance category (PFC) names, as suffixes of their primary: the v1 taxonomy plus
// the v2 additions the crosswalk uses (marked). A typo such as FOOD_AND_DRINK_RESTAURANTS fails here.
const PLAID_DETAILED_SUFFIXES: Record<string, string[]> = {
  INCOME: ['DIVIDENDS', 'INTEREST_EARNED', 'RETIREMENT_PENSION', 'TAX_REFUND', 'UNEMPLOYMENT', 'WAGES', 'OTHER_INCOME'],
  TRANSFER_IN: ['CASH_ADVANCES_AND_LOANS', 'DEPOSIT', 'INVESTMENT_AND_RETIREMENT_FUNDS', 'SAVINGS', 'ACCOUNT_TRANSFER', 'OTHER_TRANSFER_IN',
    /* v2 */ 'TRANSFER_IN_FROM_APPS', 'WIRE'],
  TRANSFER_OUT: ['INVESTMENT_AND_RETIREMENT_FUNDS', 'SAVINGS', 'WITHDRAWAL', 'ACCOUNT_TRANSFER', 'OTHER_TRANSFER_OUT',
    /* v2 */ 'TRANSFER_OUT_FROM_APPS', 'CRYPTO', 'WIRE'],
  LOAN_PAYMENTS: ['CAR_PAYMENT', 'CREDIT_CARD_PAYMENT', 'PERSONAL_LOAN_PAYMENT', 'MORTGAGE_PAYMENT', 'STUDENT_LOAN_PAYMENT', 'OTHER_PAYMENT',
    /* v2 */ 'BNPL'],
  BANK_FEES: ['ATM_FEES', 'FOREIGN_TRANSACTION_FEES', 'INSUFFICIENT_FUNDS', 'INTEREST_CHARGE', 'OVERDRAFT_FEES', 'OTHER_BANK_FEES',
    /* v2 */ 'LATE_FEES', 'CASH_ADVANCE'],
  ENTERTAINMENT: ['CASINOS_AND_GAMBLING', 'MUSIC_AND_AUDIO', 'SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', 'TV_AND_MOVIES', 'VIDEO_GAMES',
    'OTHER_ENTERTAINMENT'],
  FOOD_AND_DRINK: ['BEER_WINE_AND_LIQUOR', 'COFFEE', 'FAST_FOOD', 'GROCERIES', 'RESTAURANT', 'VENDING_MACHINES', 'OTHER_FOOD_AND_DRINK'],
  GENERAL_MERCHANDISE: ['BOOKSTORES_AND_NEWSSTANDS', 'CLOTHING_AND_ACCESSORIES', 'CONVENIENCE_STORES', 'DEPARTMENT_STORES', 'DISCOUNT_STORES',
    'ELECTRONICS', 'GIFTS_AND_NOVELTIES', 'OFFICE_SUPPLIES', 'ONLINE_MARKETPLACES', 'PET_SUPPLIES', 'SPORTING_GOODS', 'SUPERSTORES',
    'TOBACCO_AND_VAPE', 'OTHER_GENERAL_MERCHANDISE'],
  HOME_IMPROVEMENT: ['FURNITURE', 'HARDWARE', 'REPAIR_AND_MAINTENANCE', 'SECURITY', 'OTHER_HOME_IMPROVEMENT'],
  MEDICAL: ['DENTAL_CARE', 'EYE_CARE', 'NURSING_CARE', 'PHARMACIES_AND_SUPPLEMENTS', 'PRIMARY_CARE', 'VETERINARY_SERVICES', 'OTHER_MEDICAL'],
  PERSONAL_CARE: ['GYMS_AND_FITNESS_CENTERS', 'HAIR_AND_BEAUTY', 'LAUNDRY_AND_DRY_CLEANING', 'OTHER_PERSONAL_CARE'],
  GENERAL_SERVICES: ['ACCOUNTING_AND_FINANCIAL_PLANNING', 'AUTOMOTIVE', 'CHILDCARE', 'CONSULTING_AND_LEGAL', 'EDUCATION', 'INSURANCE',
    'POSTAGE_AND_SHIPPING', 'STORAGE', 'OTHER_GENERAL_SERVICES'],
  GOVERNMENT_AND_NON_PROFIT: ['DONATIONS', 'GOVERNMENT_DEPARTMENTS_AND_AGENCIES', 'TAX_PAYMENT', 'OTHER_GOVERNMENT_AND_NON_PROFIT'],
  TRANSPORTATION: ['BIKES_AND_SCOOTERS', 'GAS', 'PARKING', 'PUBLIC_TRANSIT', 'TAXIS_AND_RIDE_SHARES', 'TOLLS', 'OTHER_TRANSPORTATION'],
  TRAVEL: ['FLIGHTS', 'LODGING', 'RENTAL_CARS', 'OTHER_TRAVEL'],
  RENT_AND_UTILITIES: ['GAS_AND_ELECTRICITY', 'INTERNET_AND_CABLE', 'RENT', 'SEWAGE_AND_WASTE_MANAGEMENT', 'TELEPHONE', 'WATER', 'OTHER_UTILITIES'],
};
const PLAID_PRIMARIES = Object.keys(PLAID_DETAILED_SUFFIXES);
const PLAID_DETAILED = new Set(
  Object.entries(PLAID_DETAILED_SUFFIXES).flatMap(([primary, suffixes]) => suffixes.map((s) => `${primary}_${s}`)),
);

const EXPECTED_PRIMARIES = [
  'income',
  'transfer_in',
  'transfer_out',
  'loan_payments',
  'bank_fees',
  'food_and_drink',
  'shopping',
  'home',
  'rent_and_utilities',
  'transportation',
  'travel',
  'entertainment',
  'health_and_personal_care',
  'services_and_government',
];

const detailed = CATEGORIES.flatMap((c) => c.detailed.map((dc) => ({ ...dc, primary: c.category })));
const descriptions = [
  ...CATEGORIES.map((c) => ({ id: c.category, description: c.description })),
  ...detailed.map((dc) => ({ id: dc.category_detailed, description: dc.description })),
];

describe('the category taxonomy', () => {
  it('has exactly the 14 agreed primary categories, in order', () => {
    expect(CATEGORIES).toHaveLength(14);
    expect(PRIMARY_CATEGORY_IDS).toEqual(EXPECTED_PRIMARIES);
  });

  it('has exactly 89 detailed categories in total', () => {
    expect(detailed).toHaveLength(89);
  });

  it('gives every primary category at least two detailed categories', () => {
    for (const c of CATEGORIES) expect(c.detailed.length).toBeGreaterThanOrEqual(2);
  });

  it('uses ids that are unique across both levels', () => {
    const ids = [...PRIMARY_CATEGORY_IDS, ...detailed.map((dc) => dc.category_detailed)];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses lower snake case for every id', () => {
    for (const id of [...PRIMARY_CATEGORY_IDS, ...detailed.map((dc) => dc.category_detailed)]) {
      expect(id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
    }
  });

  it('prefixes every detailed id with its primary id and an underscore', () => {
    for (const dc of detailed) expect(dc.category_detailed.startsWith(`${dc.primary}_`)).toBe(true);
  });

  it('gives every category a short, non-empty label', () => {
    for (const c of [...CATEGORIES, ...detailed]) {
      expect(c.label.trim()).toBe(c.label);
      expect(c.label.length).toBeGreaterThan(0);
      expect(c.label.length).toBeLessThanOrEqual(40);
    }
  });

  it('describes every category in one sentence that ends with a period and is under 200 characters', () => {
    for (const { id, description } of descriptions) {
      expect({ id, ok: /^[A-Z].*\.$/.test(description) }).toEqual({ id, ok: true });
      expect({ id, length: description.length < 200 }).toEqual({ id, length: true });
      // One sentence: no full stop followed by a new sentence inside it.
      expect({ id, oneSentence: !/\.\s+[A-Z]/.test(description) }).toEqual({ id, oneSentence: true });
    }
  });

  it('maps every primary category to a Plaid primary', () => {
    for (const c of CATEGORIES) expect(PLAID_PRIMARIES).toContain(c.plaid_primary);
  });

  it('maps every detailed category to an upper snake case name that starts with a Plaid primary and an underscore', () => {
    for (const dc of detailed) {
      expect(dc.plaid_detailed).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(PLAID_PRIMARIES.some((p) => dc.plaid_detailed.startsWith(`${p}_`))).toBe(true);
    }
  });

  it('maps every detailed category to a real Plaid detailed category', () => {
    const unknown = detailed.filter((dc) => !PLAID_DETAILED.has(dc.plaid_detailed)).map((dc) => dc.plaid_detailed);
    expect(unknown).toEqual([]);
  });

  it('maps most detailed categories of a primary to that primary\'s own Plaid primary', () => {
    for (const c of CATEGORIES) {
      const own = c.detailed.filter((dc) => dc.plaid_detailed.startsWith(`${c.plaid_primary}_`)).length;
      expect({ category: c.category, dominant: own * 2 > c.detailed.length }).toEqual({ category: c.category, dominant: true });
    }
  });
});

describe('docs/categories.md', () => {
  it('lists every detailed category with its Plaid detailed name', () => {
    const doc = readFileSync(join(__dirname, '../../docs/categories.md'), 'utf8');
    const missing = detailed
      .filter((dc) => !doc.includes(`| \`${dc.category_detailed}\` | ${dc.label} | \`${dc.plaid_detailed}\``))
      .map((dc) => dc.category_detailed);
    expect(missing).toEqual([]);
  });
});

describe('primaryOf', () => {
  it('returns the primary category of every detailed category', () => {
    for (const dc of detailed) expect(primaryOf(dc.category_detailed)).toBe(dc.primary);
  });

  it('returns undefined for unknown ids and for primary ids', () => {
    expect(primaryOf('food_and_drink_caviar')).toBeUndefined();
    expect(primaryOf('')).toBeUndefined();
    expect(primaryOf('FOOD_AND_DRINK_GROCERIES')).toBeUndefined();
    expect(primaryOf('food_and_drink')).toBeUndefined();
    expect(primaryOf('constructor')).toBeUndefined();
  });
});

describe('isDetailedCategory', () => {
  it('accepts every detailed id and rejects primary ids and unknown ids', () => {
    for (const dc of detailed) expect(isDetailedCategory(dc.category_detailed)).toBe(true);
    for (const id of PRIMARY_CATEGORY_IDS) expect(isDetailedCategory(id)).toBe(false);
    expect(isDetailedCategory('shopping_yachts')).toBe(false);
    expect(isDetailedCategory('toString')).toBe(false);
  });
});
