// Plaid's personal finance categories (PFC), version 2 (December 2025), and the crosswalk from our
// taxonomy (functions/core/taxonomy.ts: 14 primary, 89 detailed categories) to it.
//
// Every one of our detailed categories maps to exactly one PFCv2 detailed category, and its primary
// is that category's own PFC primary (so `health_and_personal_care_fitness` is PERSONAL_CARE, not
// MEDICAL, and `transportation_auto_maintenance` is GENERAL_SERVICES_AUTOMOTIVE). The map is many to
// one: PFCv2 is finer in places (six income kinds where we have wages; loan disbursements by loan
// type; insufficient-funds fees apart from overdrafts) and a row of ours lands on the PFC category
// that covers it, never on a finer one we cannot tell apart. docs/plaid-migration.md lists the
// merges. The taxonomy's own `plaid_detailed` column is the older crosswalk served by
// /v1/categories/get; this one targets the version Plaid gives every new integration.
//
// `confidence_level` is UNKNOWN: our rows do not store how sure the enrichment was.
import type { PersonalFinanceCategory } from 'plaid';
import type { Wire } from './wire';

/** PFCv2: each primary with the suffixes of its detailed categories (detailed = `${primary}_${suffix}`). */
export const PFC_V2_TAXONOMY: Readonly<Record<string, readonly string[]>> = {
  INCOME: ['CHILD_SUPPORT', 'CONTRACTOR', 'DIVIDENDS', 'GIG_ECONOMY', 'INTEREST_EARNED', 'LONG_TERM_DISABILITY', 'MILITARY', 'RENTAL', 'RETIREMENT_PENSION', 'SALARY', 'TAX_REFUND', 'UNEMPLOYMENT', 'OTHER'],
  LOAN_DISBURSEMENTS: ['AUTO', 'CASH_ADVANCES', 'EWA', 'MORTGAGE', 'PERSONAL', 'STUDENT', 'OTHER_DISBURSEMENT'],
  LOAN_PAYMENTS: ['BNPL', 'CAR_PAYMENT', 'CASH_ADVANCES', 'CREDIT_CARD_PAYMENT', 'EWA', 'MORTGAGE_PAYMENT', 'PERSONAL_LOAN_PAYMENT', 'STUDENT_LOAN_PAYMENT', 'OTHER_PAYMENT'],
  TRANSFER_IN: ['ACCOUNT_TRANSFER', 'DEPOSIT', 'INVESTMENT_AND_RETIREMENT_FUNDS', 'SAVINGS', 'TRANSFER_IN_FROM_APPS', 'WIRE', 'OTHER_TRANSFER_IN'],
  TRANSFER_OUT: ['ACCOUNT_TRANSFER', 'CRYPTO', 'INVESTMENT_AND_RETIREMENT_FUNDS', 'SAVINGS', 'TRANSFER_OUT_FROM_APPS', 'WIRE', 'WITHDRAWAL', 'OTHER_TRANSFER_OUT'],
  BANK_FEES: ['ATM_FEES', 'CASH_ADVANCE', 'FOREIGN_TRANSACTION_FEES', 'INSUFFICIENT_FUNDS', 'INTEREST_CHARGE', 'LATE_FEES', 'OVERDRAFT_FEES', 'OTHER_BANK_FEES'],
  ENTERTAINMENT: ['CASINOS_AND_GAMBLING', 'MUSIC_AND_AUDIO', 'SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS', 'TV_AND_MOVIES', 'VIDEO_GAMES', 'OTHER_ENTERTAINMENT'],
  FOOD_AND_DRINK: ['BEER_WINE_AND_LIQUOR', 'COFFEE', 'FAST_FOOD', 'GROCERIES', 'RESTAURANT', 'VENDING_MACHINES', 'OTHER_FOOD_AND_DRINK'],
  GENERAL_MERCHANDISE: [
    'BOOKSTORES_AND_NEWSSTANDS',
    'CLOTHING_AND_ACCESSORIES',
    'CONVENIENCE_STORES',
    'DEPARTMENT_STORES',
    'DISCOUNT_STORES',
    'ELECTRONICS',
    'GIFTS_AND_NOVELTIES',
    'OFFICE_SUPPLIES',
    'ONLINE_MARKETPLACES',
    'PET_SUPPLIES',
    'SPORTING_GOODS',
    'SUPERSTORES',
    'TOBACCO_AND_VAPE',
    'OTHER_GENERAL_MERCHANDISE',
  ],
  HOME_IMPROVEMENT: ['FURNITURE', 'HARDWARE', 'REPAIR_AND_MAINTENANCE', 'SECURITY', 'OTHER_HOME_IMPROVEMENT'],
  MEDICAL: ['DENTAL_CARE', 'EYE_CARE', 'NURSING_CARE', 'PHARMACIES_AND_SUPPLEMENTS', 'PRIMARY_CARE', 'VETERINARY_SERVICES', 'OTHER_MEDICAL'],
  PERSONAL_CARE: ['GYMS_AND_FITNESS_CENTERS', 'HAIR_AND_BEAUTY', 'LAUNDRY_AND_DRY_CLEANING', 'OTHER_PERSONAL_CARE'],
  GENERAL_SERVICES: ['ACCOUNTING_AND_FINANCIAL_PLANNING', 'AUTOMOTIVE', 'CHILDCARE', 'CONSULTING_AND_LEGAL', 'EDUCATION', 'INSURANCE', 'POSTAGE_AND_SHIPPING', 'STORAGE', 'OTHER_GENERAL_SERVICES'],
  GOVERNMENT_AND_NON_PROFIT: ['DONATIONS', 'GOVERNMENT_DEPARTMENTS_AND_AGENCIES', 'TAX_PAYMENT', 'OTHER_GOVERNMENT_AND_NON_PROFIT'],
  TRANSPORTATION: ['BIKES_AND_SCOOTERS', 'GAS', 'PARKING', 'PUBLIC_TRANSIT', 'TAXIS_AND_RIDE_SHARES', 'TOLLS', 'OTHER_TRANSPORTATION'],
  TRAVEL: ['FLIGHTS', 'LODGING', 'RENTAL_CARS', 'OTHER_TRAVEL'],
  RENT_AND_UTILITIES: ['GAS_AND_ELECTRICITY', 'INTERNET_AND_CABLE', 'RENT', 'SEWAGE_AND_WASTE_MANAGEMENT', 'TELEPHONE', 'WATER', 'OTHER_UTILITIES'],
  OTHER: ['OTHER'],
};

/** Each PFCv2 detailed category with its primary. */
export const PFC_V2_PRIMARY_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(PFC_V2_TAXONOMY).flatMap(([primary, suffixes]) => suffixes.map((suffix) => [`${primary}_${suffix}`, primary] as const)),
);

/** Our detailed category -> PFCv2 detailed category. */
export const PFC_V2_CROSSWALK: Readonly<Record<string, string>> = {
  income_wages: 'INCOME_SALARY',
  income_interest: 'INCOME_INTEREST_EARNED',
  income_dividends: 'INCOME_DIVIDENDS',
  income_refunds: 'INCOME_OTHER',
  income_tax_refund: 'INCOME_TAX_REFUND',
  income_retirement: 'INCOME_RETIREMENT_PENSION',
  income_benefits: 'INCOME_UNEMPLOYMENT',
  income_other: 'INCOME_OTHER',
  transfer_in_account_transfer: 'TRANSFER_IN_ACCOUNT_TRANSFER',
  transfer_in_savings: 'TRANSFER_IN_SAVINGS',
  transfer_in_investment: 'TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS',
  transfer_in_p2p: 'TRANSFER_IN_TRANSFER_IN_FROM_APPS',
  transfer_in_deposit: 'TRANSFER_IN_DEPOSIT',
  // PFCv2 moved loan proceeds out of transfers into their own primary, by loan kind; ours is one category.
  transfer_in_loan_proceeds: 'LOAN_DISBURSEMENTS_OTHER_DISBURSEMENT',
  transfer_out_account_transfer: 'TRANSFER_OUT_ACCOUNT_TRANSFER',
  transfer_out_savings: 'TRANSFER_OUT_SAVINGS',
  transfer_out_investment: 'TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS',
  transfer_out_crypto: 'TRANSFER_OUT_CRYPTO',
  transfer_out_p2p: 'TRANSFER_OUT_TRANSFER_OUT_FROM_APPS',
  transfer_out_cash_withdrawal: 'TRANSFER_OUT_WITHDRAWAL',
  loan_payments_credit_card: 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT',
  loan_payments_mortgage: 'LOAN_PAYMENTS_MORTGAGE_PAYMENT',
  loan_payments_student_loan: 'LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT',
  loan_payments_auto_loan: 'LOAN_PAYMENTS_CAR_PAYMENT',
  loan_payments_personal_loan: 'LOAN_PAYMENTS_PERSONAL_LOAN_PAYMENT',
  loan_payments_bnpl: 'LOAN_PAYMENTS_BNPL',
  // Ours covers insufficient-funds fees too, which PFCv2 counts apart.
  bank_fees_overdraft: 'BANK_FEES_OVERDRAFT_FEES',
  bank_fees_atm: 'BANK_FEES_ATM_FEES',
  bank_fees_foreign_transaction: 'BANK_FEES_FOREIGN_TRANSACTION_FEES',
  bank_fees_late_payment: 'BANK_FEES_LATE_FEES',
  bank_fees_interest_charge: 'BANK_FEES_INTEREST_CHARGE',
  bank_fees_other: 'BANK_FEES_OTHER_BANK_FEES',
  food_and_drink_groceries: 'FOOD_AND_DRINK_GROCERIES',
  food_and_drink_restaurants: 'FOOD_AND_DRINK_RESTAURANT',
  food_and_drink_fast_food: 'FOOD_AND_DRINK_FAST_FOOD',
  food_and_drink_coffee: 'FOOD_AND_DRINK_COFFEE',
  food_and_drink_bars_and_alcohol: 'FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR',
  // PFC has no delivery category: a delivered meal is a restaurant meal.
  food_and_drink_delivery: 'FOOD_AND_DRINK_RESTAURANT',
  food_and_drink_other: 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK',
  shopping_online_marketplaces: 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES',
  shopping_superstores: 'GENERAL_MERCHANDISE_SUPERSTORES',
  // Ours holds discount and dollar stores too, which PFCv2 counts apart.
  shopping_department_stores: 'GENERAL_MERCHANDISE_DEPARTMENT_STORES',
  shopping_clothing: 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES',
  shopping_electronics: 'GENERAL_MERCHANDISE_ELECTRONICS',
  shopping_convenience_stores: 'GENERAL_MERCHANDISE_CONVENIENCE_STORES',
  shopping_books_and_news: 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS',
  // Ours includes veterinary care, which PFCv2 files under MEDICAL_VETERINARY_SERVICES.
  shopping_pets: 'GENERAL_MERCHANDISE_PET_SUPPLIES',
  shopping_other: 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE',
  home_furnishings: 'HOME_IMPROVEMENT_FURNITURE',
  home_hardware: 'HOME_IMPROVEMENT_HARDWARE',
  home_repair_and_maintenance: 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE',
  home_other: 'HOME_IMPROVEMENT_OTHER_HOME_IMPROVEMENT',
  rent_and_utilities_rent: 'RENT_AND_UTILITIES_RENT',
  rent_and_utilities_gas_and_electricity: 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY',
  rent_and_utilities_water: 'RENT_AND_UTILITIES_WATER',
  rent_and_utilities_internet_and_cable: 'RENT_AND_UTILITIES_INTERNET_AND_CABLE',
  rent_and_utilities_phone: 'RENT_AND_UTILITIES_TELEPHONE',
  rent_and_utilities_other: 'RENT_AND_UTILITIES_OTHER_UTILITIES',
  transportation_fuel: 'TRANSPORTATION_GAS',
  transportation_rideshare: 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES',
  transportation_public_transit: 'TRANSPORTATION_PUBLIC_TRANSIT',
  transportation_parking: 'TRANSPORTATION_PARKING',
  transportation_tolls: 'TRANSPORTATION_TOLLS',
  transportation_auto_maintenance: 'GENERAL_SERVICES_AUTOMOTIVE',
  transportation_other: 'TRANSPORTATION_OTHER_TRANSPORTATION',
  travel_flights: 'TRAVEL_FLIGHTS',
  travel_lodging: 'TRAVEL_LODGING',
  travel_rental_cars: 'TRAVEL_RENTAL_CARS',
  travel_other: 'TRAVEL_OTHER_TRAVEL',
  // Ours covers music streaming too (PFCv2: ENTERTAINMENT_MUSIC_AND_AUDIO); video is the larger share.
  entertainment_streaming: 'ENTERTAINMENT_TV_AND_MOVIES',
  entertainment_events: 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS',
  entertainment_video_games: 'ENTERTAINMENT_VIDEO_GAMES',
  entertainment_gambling: 'ENTERTAINMENT_CASINOS_AND_GAMBLING',
  entertainment_other: 'ENTERTAINMENT_OTHER_ENTERTAINMENT',
  health_and_personal_care_doctors: 'MEDICAL_PRIMARY_CARE',
  health_and_personal_care_dental: 'MEDICAL_DENTAL_CARE',
  health_and_personal_care_pharmacy: 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS',
  health_and_personal_care_other_medical: 'MEDICAL_OTHER_MEDICAL',
  health_and_personal_care_fitness: 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS',
  health_and_personal_care_beauty: 'PERSONAL_CARE_HAIR_AND_BEAUTY',
  services_and_government_insurance: 'GENERAL_SERVICES_INSURANCE',
  services_and_government_childcare: 'GENERAL_SERVICES_CHILDCARE',
  services_and_government_education: 'GENERAL_SERVICES_EDUCATION',
  // Ours joins lawyers with accountants and tax preparers (PFCv2: ..._ACCOUNTING_AND_FINANCIAL_PLANNING).
  services_and_government_professional_services: 'GENERAL_SERVICES_CONSULTING_AND_LEGAL',
  services_and_government_software: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
  services_and_government_donations: 'GOVERNMENT_AND_NON_PROFIT_DONATIONS',
  services_and_government_taxes: 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT',
  services_and_government_government_fees: 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES',
  services_and_government_other: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
};

/**
 * Our primary category -> the PFCv2 "other" category it falls back to, for a row that carries a
 * primary without a detailed category. Our two merged primaries fall back to the larger side.
 */
export const PFC_V2_PRIMARY_FALLBACK: Readonly<Record<string, string>> = {
  income: 'INCOME_OTHER',
  transfer_in: 'TRANSFER_IN_OTHER_TRANSFER_IN',
  transfer_out: 'TRANSFER_OUT_OTHER_TRANSFER_OUT',
  loan_payments: 'LOAN_PAYMENTS_OTHER_PAYMENT',
  bank_fees: 'BANK_FEES_OTHER_BANK_FEES',
  food_and_drink: 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK',
  shopping: 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE',
  home: 'HOME_IMPROVEMENT_OTHER_HOME_IMPROVEMENT',
  rent_and_utilities: 'RENT_AND_UTILITIES_OTHER_UTILITIES',
  transportation: 'TRANSPORTATION_OTHER_TRANSPORTATION',
  travel: 'TRAVEL_OTHER_TRAVEL',
  entertainment: 'ENTERTAINMENT_OTHER_ENTERTAINMENT',
  health_and_personal_care: 'MEDICAL_OTHER_MEDICAL',
  services_and_government: 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
};

/** A table's own entry (never an inherited property such as `constructor`). */
const own = (table: Readonly<Record<string, string>>, key: string | null) => (key !== null && Object.hasOwn(table, key) ? table[key] : undefined);

export type PersonalFinanceCategoryWire = Wire<PersonalFinanceCategory>;

/**
 * A transaction's personal_finance_category from its category pair; null for an uncategorized row
 * (no engine decided it) or a category this table does not know.
 */
export function personalFinanceCategoryOf(category: string | null, categoryDetailed: string | null): PersonalFinanceCategoryWire | null {
  const detailed = own(PFC_V2_CROSSWALK, categoryDetailed) ?? own(PFC_V2_PRIMARY_FALLBACK, category);
  const primary = detailed === undefined ? undefined : PFC_V2_PRIMARY_OF.get(detailed);
  if (detailed === undefined || primary === undefined) return null;
  return { primary, detailed, confidence_level: 'UNKNOWN', version: 'v2' };
}
