import { CATEGORIES, primaryOf } from '../../functions/core/taxonomy';
import { FALLBACK_KEYWORDS, GENERIC_KEYWORDS, MERCHANTS, PRIORITY_KEYWORDS } from '../../functions/core/enrichment/rule-table';
import {
  RULES,
  RULE_COUNT,
  RULES_VERSION,
  enrichDescriptor,
  normalizeDescriptor,
  ruleOutputs,
} from '../../functions/core/enrichment/rules';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';

// Hand-written statement lines in the shapes banks print them (processor prefixes, store numbers,
// card trailers, ACH records, truncation, locations). None is taken from the sandbox generator.
// [descriptor, amount, merchant_name, category_detailed]
const CASES: Array<[string, number, string | null, string]> = [
  ['SQ *SIGHTGLASS COFFEE San Francisco CA', 6.5, 'Sightglass Coffee', 'food_and_drink_coffee'],
  ['TST* SHAKE SHACK - MIDTOWN NEW YORK NY', 23.4, 'Shake Shack', 'food_and_drink_fast_food'],
  ['STARBUCKS STORE 08721 BELLEVUE WA', 7.45, 'Starbucks', 'food_and_drink_coffee'],
  ['DEBIT CARD PURCHASE XXXXX4417 WHOLEFDS HOU 10452 HOUSTON TX', 84.12, 'Whole Foods Market', 'food_and_drink_groceries'],
  ['POS 1104 COSTCO WHSE #0113 KIRKLAND WA', 212.9, 'Costco', 'shopping_superstores'],
  ['PURCHASE AUTHORIZED ON 02/14 TRADER JOE S #552 QPS PORTLAND OR S384045708127394 CARD 8812', 47.31, "Trader Joe's", 'food_and_drink_groceries'],
  ['CHECKCARD 0308 SHELL OIL 57444363002 DALLAS TX 24755423067', 51.02, 'Shell', 'transportation_fuel'],
  ['CHEVRON 0203921 SAN JOSE CA', 62.3, 'Chevron', 'transportation_fuel'],
  ['AMZN Mktp US*RT5KQ0ZX2', 31.99, 'Amazon', 'shopping_online_marketplaces'],
  ['PAYPAL *SPOTIFYUSAI 4029357733', 10.99, 'Spotify', 'entertainment_streaming'],
  ['PP*NINTENDO OF AMERICA', 59.99, 'Nintendo', 'entertainment_video_games'],
  ['GOOGLE *YouTube TV g.co/helppay#', 72.99, 'YouTube', 'entertainment_streaming'],
  ['APPLE.COM/BILL 866-712-7753 CUPERTINO', 0.99, 'Apple', 'services_and_government_software'],
  ['NETFLIX.COM LOS GATOS CA', 22.99, 'Netflix', 'entertainment_streaming'],
  ['UBER *TRIP 8005928996 CA', 18.72, 'Uber', 'transportation_rideshare'],
  ['UBER *EATS PENDING', 41.1, 'Uber Eats', 'food_and_drink_delivery'],
  ['LYFT *RIDE THU 8PM', 12.55, 'Lyft', 'transportation_rideshare'],
  ['DOORDASH*SWEETGREEN', 28.44, 'DoorDash', 'food_and_drink_delivery'],
  ['COMCAST CALIFORNIA 800-COMCAST CA', 89.99, 'Xfinity', 'rent_and_utilities_internet_and_cable'],
  ['VERIZON WRLS P2025-01 ONLINE PMT', 120.45, 'Verizon', 'rent_and_utilities_phone'],
  ['PGANDE WEB ONLINE APR 24', 143.18, 'PG&E', 'rent_and_utilities_gas_and_electricity'],
  ['CITY OF PORTLAND WATER BUREAU', 92.1, 'City Of Portland Water Bureau', 'rent_and_utilities_water'],
  ['SEATTLE PUBLIC UTIL', 88.4, 'Seattle Public Utilities', 'rent_and_utilities_water'],
  ['GEICO *AUTO MACON DC', 132.5, 'GEICO', 'services_and_government_insurance'],
  ['PLANET FITNESS CLUB FEES', 24.99, 'Planet Fitness', 'health_and_personal_care_fitness'],
  ['CVS/PHARMACY #07342 ARLINGTON VA', 18.27, 'CVS Pharmacy', 'health_and_personal_care_pharmacy'],
  ['THE HOME DEPOT #0467 BROOKLYN NY', 156.2, 'The Home Depot', 'home_hardware'],
  ['TARGET        00014902 MINNEAPOLIS MN', 63.57, 'Target', 'shopping_superstores'],
  ['WAL-MART SUPER CENTER 1234 BENTONVILLE AR', 88.1, 'Walmart', 'shopping_superstores'],
  ['DELTA AIR 0062345678901 DELTA.COM GA', 412.6, 'Delta Air Lines', 'travel_flights'],
  ['AIRBNB * HMQ4K2ZPTR', 540, 'Airbnb', 'travel_lodging'],
  ['HERTZ RENT-A-CAR ORLANDO FL', 233.1, 'Hertz', 'travel_rental_cars'],
  ['TST* JOE S CRAB SHACK - 0123', 58.2, 'Joe S Crab Shack', 'food_and_drink_restaurants'],
  ['GUSTO PAYROLL ACME WIDGETS DIR DEP PPD ID: 9111111103', -2843.19, 'Acme Widgets', 'income_wages'],
  ['ACME WIDGETS DES:PAYROLL ID:8842 INDN:DOE JANE CO ID:1234567890 PPD', -3120, 'Acme Widgets', 'income_wages'],
  ['IRS  TREAS 310     TAX REF', -1423, 'IRS', 'income_tax_refund'],
  ['Online Transfer to SAV ...4421 transaction#: 11294034523', 500, null, 'transfer_out_savings'],
  ['Online Transfer from CHK ...9981 transaction#: 11294034523', -500, null, 'transfer_in_account_transfer'],
  ['Zelle payment to Jane Doe JPM99ab12cd', 45, 'Zelle', 'transfer_out_p2p'],
  ['Zelle payment from John Roe WFCT0N3Z5H1', -120, 'Zelle', 'transfer_in_p2p'],
  ['VENMO CASHOUT PPD ID: 5264681992', -80, 'Venmo', 'transfer_in_account_transfer'],
  ['CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224', 1843.11, null, 'loan_payments_credit_card'],
  ['AUTOPAY PAYMENT - THANK YOU', -1843.11, null, 'loan_payments_credit_card'],
  ['DISCOVER E-PAYMENT 2133 WEB ID: 2510020270', 356.78, 'Discover', 'loan_payments_credit_card'],
  ['NAVIENT FINANCIAL PMT PPD ID: 1221212121', 289, 'Navient', 'loan_payments_student_loan'],
  ['TOYOTA MOTOR CR WEB PYMT', 412.33, 'Toyota Financial Services', 'loan_payments_auto_loan'],
  ['ATM WITHDRAWAL 004311 0312 1290 BROADWAY NEW YORK NY', 100, null, 'transfer_out_cash_withdrawal'],
  ['NON-CHASE ATM FEE-WITH', 3, null, 'bank_fees_atm'],
  ['INTL TRANSACTION FEE', 1.47, null, 'bank_fees_foreign_transaction'],
  ['INTEREST PAID 0.01', -4.12, null, 'income_interest'],
  ['VANGUARD BUY INVESTMENT PPD ID: 1234', 500, 'Vanguard', 'transfer_out_investment'],
  ['COINBASE INC. 8889087930 CA', 200, 'Coinbase', 'transfer_out_crypto'],
  ['CARD PAYMENT TO SAINSBURYS S/MKT ON 03 NOV', 31.2, "Sainsbury's", 'food_and_drink_groceries'],
  ['KARTENZAHLUNG REWE MARKT GMBH BERLIN', 18.4, 'REWE', 'food_and_drink_groceries'],
  ['CB CARREFOUR CITY 12/03 PARIS', 9.9, 'Carrefour', 'food_and_drink_groceries'],
  ['TIM HORTONS #2341 TORONTO ON', 4.35, 'Tim Hortons', 'food_and_drink_coffee'],
];

describe('descriptor rules engine', () => {
  test.each(CASES)('%s (amount %d) resolves to merchant %s, %s', (descriptor, amount, merchant, detailed) => {
    const e = enrichDescriptor(descriptor, amount);
    expect(e.merchant_name).toBe(merchant);
    expect(e.category_detailed).toBe(detailed);
    expect(e.category).toBe(primaryOf(detailed));
  });

  test.each([
    ['POS DEBIT 1104 SQ *HARBOR BOOKS', 'HARBOR BOOKS'],
    ['DEBIT CARD PURCHASE - TST* LUIGIS PIZZERIA 0042', 'LUIGIS PIZZERIA'],
    ['PURCHASE AUTHORIZED ON 11/03 SAFEWAY #1234 SEATTLE WA S463307123 CARD 1234', 'SAFEWAY'],
    ['ACH DEBIT PAYPAL *EBAY INC', 'EBAY INC'],
    ['CHECKCARD 0308 SP * ALLBIRDS', 'ALLBIRDS'],
    ['AMZN Mktp US*2K4LM1', ''],
    ['KARTENZAHLUNG EDEKA MUENCHEN DE', 'EDEKA'],
    ['CB MONOPRIX 03/11 PARIS', 'MONOPRIX'],
    ['WWW.ETSY.COM', 'ETSY COM'],
    ["MCDONALD'S F12345 ATLANTA GA", 'MCDONALDS'],
    ['SP+ PARKING 0412 CHICAGO IL', 'SP PARKING'],
    ['ORIG CO NAME:INITECH ORIG ID:1234567890 DESC DATE:240315 CO ENTRY DESCR:PAYROLL SEC:PPD TRACE#:0210000212345 EED:240315', 'PAYROLL INITECH'],
  ])('normalizes %s to %s', (raw, cleaned) => {
    expect(normalizeDescriptor(raw)).toBe(cleaned);
  });

  test('an unknown descriptor gets null merchant and categories and a channel guessed from its look', () => {
    expect(enrichDescriptor('XYZ HOLDINGS 4471', 90)).toEqual({ merchant_name: null, category: null, category_detailed: null, payment_channel: 'other' });
    expect(enrichDescriptor('QWERTYWIDGETS.COM', 19).payment_channel).toBe('online');
    expect(enrichDescriptor('SQ *LITTLE WREN', 12).payment_channel).toBe('in_store');
    expect(enrichDescriptor('FLORBLIX #0042 BOISE ID', 12)).toMatchObject({ category: null, payment_channel: 'in_store' });
    expect(enrichDescriptor('', 1)).toMatchObject({ merchant_name: null, category: null });
  });

  test('an inflow at a merchant is a refund from that merchant, and payroll words only count as income on inflows', () => {
    expect(enrichDescriptor('TARGET        00014902 MINNEAPOLIS MN', -19.99)).toMatchObject({ merchant_name: 'Target', category_detailed: 'income_refunds' });
    expect(enrichDescriptor('BEST BUY 00012345 REFUND', -249)).toMatchObject({ merchant_name: 'Best Buy', category_detailed: 'income_refunds' });
    expect(enrichDescriptor('GUSTO PAYROLL 8841 CCD ID: 9911', 14000)).toMatchObject({ merchant_name: 'Gusto', category_detailed: 'services_and_government_professional_services' });
    expect(enrichDescriptor('ZELLE PAYMENT FROM ANA', -50).category_detailed).toBe('transfer_in_p2p');
  });

  test('bank-truncated descriptors still match their merchant', () => {
    expect(enrichDescriptor('CHEESECAKE FACTORY #04', 80).merchant_name).toBe('The Cheesecake Factory');
    expect(enrichDescriptor('BUFFALO WILD WIN', 40).merchant_name).toBe('Buffalo Wild Wings');
  });

  test('every category the engine can output exists in the taxonomy, with the detailed under its primary', () => {
    const primaries = new Set(CATEGORIES.map((c) => c.category));
    const outputs = ruleOutputs();
    expect(outputs.length).toBeGreaterThan(40);
    for (const { category, category_detailed } of outputs) {
      expect(primaries.has(category)).toBe(true);
      expect(primaryOf(category_detailed)).toBe(category);
    }
    for (const rule of RULES) {
      expect(primaryOf(rule.category_detailed)).toBeDefined();
      expect(primaryOf(rule.category_detailed_in)).toBeDefined();
    }
  });

  test('the engine has the 526 rules of the spec, counted as compiled rule objects, in four tiers', () => {
    expect(RULES_VERSION).toMatch(/^\d{4}\.\d{2}\.\d+$/);
    expect(RULE_COUNT).toBe(RULES.length);
    expect(RULES.length).toBe(PRIORITY_KEYWORDS.length + MERCHANTS.length + GENERIC_KEYWORDS.length + FALLBACK_KEYWORDS.length);
    expect(RULE_COUNT).toBe(526);
    const tiers = new Map<string, number>();
    for (const r of RULES) tiers.set(r.tier, (tiers.get(r.tier) ?? 0) + 1);
    expect([...tiers.keys()].sort()).toEqual(['category', 'fallback', 'merchant', 'priority']);
    expect(tiers.get('merchant')).toBe(MERCHANTS.length);
    // every rule has patterns, and a merchant pattern lives in exactly one rule
    const seen = new Map<string, string>();
    for (const r of RULES) {
      expect(r.patterns.length).toBeGreaterThan(0);
      expect(r.label).toMatch(/\S/);
      if (r.tier !== 'merchant') continue;
      for (const p of r.patterns) {
        const norm = p.replace(/^\^/, '').toUpperCase().replace(/['&]/g, '').replace(/[^A-Z0-9]+/g, ' ').trim();
        expect({ pattern: norm, rule: seen.get(norm) ?? r.label }).toEqual({ pattern: norm, rule: r.label });
        seen.set(norm, r.label);
      }
    }
  });

  test('a group rule names each brand, and a ^ pattern matches only at the start', () => {
    expect(enrichDescriptor('SHERATON GRAND DOWNTOWN DENVER CO', 412)).toMatchObject({ merchant_name: 'Sheraton', category_detailed: 'travel_lodging' });
    expect(enrichDescriptor('COURTYARD 0042 BOISE ID', 189)).toMatchObject({ merchant_name: 'Courtyard by Marriott', category_detailed: 'travel_lodging' });
    expect(enrichDescriptor('THAMES WATER UTILITIES DDR', 41)).toMatchObject({ merchant_name: 'Thames Water', category_detailed: 'rent_and_utilities_water' });
    expect(enrichDescriptor('SHELL OIL 57444363002 TULSA OK', 40)).toMatchObject({ merchant_name: 'Shell', category_detailed: 'transportation_fuel' });
    expect(enrichDescriptor('SQ *SEA SHELL GIFTS', 12).merchant_name).not.toBe('Shell');
    expect(enrichDescriptor('SQ *BIG TARGET PRACTICE', 12).merchant_name).not.toBe('Target');
  });

  test('precedence: priority keywords, then merchants, then category words (the most specific phrase first), then fallback words', () => {
    // a payroll deposit from a merchant is income, not a refund from that merchant
    expect(enrichDescriptor('STARBUCKS CORP DES:PAYROLL ID:123 INDN:A LEE CO ID:999 PPD', -900)).toMatchObject({ category_detailed: 'income_wages' });
    // a merchant beats a category word in its name
    expect(enrichDescriptor('PIZZA HUT 041 OMAHA NE', 22).merchant_name).toBe('Pizza Hut');
    // a phrase containing another one wins over it
    expect(enrichDescriptor('MAPLE ANIMAL HOSPITAL 0042', 180).category_detailed).toBe('shopping_pets');
    expect(enrichDescriptor('SUNSHINE RENT A CAR 77 MIAMI FL', 90).category_detailed).toBe('travel_rental_cars');
    expect(enrichDescriptor('PUTT PUTT MINI GOLF', 24).category_detailed).toBe('entertainment_other');
    // otherwise table order among category words: BLUE WATER GRILL is a restaurant
    expect(enrichDescriptor('BLUE WATER GRILL', 60).category_detailed).toBe('food_and_drink_restaurants');
    // fallback words count only when no category word matched
    expect(enrichDescriptor('CITY OF FRESNO WATER DEPT', 70).category_detailed).toBe('rent_and_utilities_water');
    expect(enrichDescriptor('CITY OF FRESNO UTILITIES', 70).category_detailed).toBe('rent_and_utilities_other');
    expect(enrichDescriptor('CITY OF FRESNO MUNICIPAL COURT', 70).category_detailed).toBe('services_and_government_government_fees');
    expect(enrichDescriptor('COUNTY OF ORANGE', 70).category_detailed).toBe('services_and_government_government_fees');
  });

  test('processor remainders and web addresses may print a brand without spaces; an owning processor is tried with its word', () => {
    expect(enrichDescriptor('PAYPAL *WHOLEFOODSMKT', 30).merchant_name).toBe('Whole Foods Market');
    expect(enrichDescriptor('DEBIT CARD PURCHASE XXXXX1234 MINTMOBILE.COM CA', 15)).toMatchObject({ merchant_name: 'Mint Mobile', category_detailed: 'rent_and_utilities_phone' });
    expect(enrichDescriptor('GOOGLE *FI 8QZ2K1', 35)).toMatchObject({ merchant_name: 'Google Fi', category_detailed: 'rent_and_utilities_phone' });
    expect(enrichDescriptor('GOOGLE *TEMPORARY HOLD', 1)).toMatchObject({ merchant_name: 'Google', category_detailed: 'services_and_government_software' });
  });

  test('Canadian card lead-ins and store numbers after STORE are cleaned without losing the brand', () => {
    expect(enrichDescriptor('POINT OF SALE - INTERAC RETAIL PURCHASE 412345678901 TIM HORTONS #2', 3.1).merchant_name).toBe('Tim Hortons');
    expect(enrichDescriptor('VISA DEBIT PURCHASE - 1234 CANADIAN TIRE #0123', 45).merchant_name).toBe('Canadian Tire');
    expect(enrichDescriptor('APPLE STORE #R102 PALO ALTO CA', 129)).toMatchObject({ merchant_name: 'Apple Store', category_detailed: 'shopping_electronics' });
    expect(normalizeDescriptor('STARBUCKS STORE 08721 BELLEVUE WA')).toBe('STARBUCKS STORE');
  });

  test('a name built from the descriptor drops the city before a state code, known or not', () => {
    expect(enrichDescriptor('SQ *SAIGON PHO HOUSE SPOKANE WA', 18).merchant_name).toBe('Saigon Pho House');
    expect(enrichDescriptor('TST* BLUE MOON DINER - FORT WORTH TX', 18).merchant_name).toBe('Blue Moon Diner');
    expect(enrichDescriptor('LUCKY DRAGON RESTAURANT', 18).merchant_name).toBe('Lucky Dragon Restaurant');
  });

  test('at least 95% of the non-transfer transactions of a generated sandbox item get a category', () => {
    const item = generateSandboxItem({ institutionId: 'ins_sandbox_first_bank', username: 'user_good' }, '2026-07-01');
    let considered = 0;
    let categorized = 0;
    for (const t of item.transactions) {
      const e = enrichDescriptor(t.name, t.amount);
      if (e.category === 'transfer_in' || e.category === 'transfer_out') continue;
      considered++;
      if (e.category !== null) {
        categorized++;
        expect(primaryOf(e.category_detailed!)).toBe(e.category);
      }
    }
    expect(considered).toBeGreaterThan(1000);
    expect(categorized / considered).toBeGreaterThanOrEqual(0.95);
  });
});
