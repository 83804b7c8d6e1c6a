// The platform category taxonomy: 14 primary and 89 detailed categories, served verbatim by
// POST /v1/categories/get and used as the label set for AI categorization.
//
// It follows Plaid's personal-finance categories (PFC) closely so that callers can map either way,
// but with fewer primaries: MEDICAL + PERSONAL_CARE are merged into health_and_personal_care and
// GENERAL_SERVICES + GOVERNMENT_AND_NON_PROFIT into services_and_government; GENERAL_MERCHANDISE is
// `shopping` and HOME_IMPROVEMENT is `home`. Each entry names its closest Plaid category (closest,
// not exact). The taxonomy is static and versioned with the API: ids are a contract, so renaming or
// removing one is a breaking change.

export interface DetailedCategoryDef {
  category_detailed: string;
  label: string;
  description: string;
  plaid_detailed: string;
}

export interface CategoryDef {
  category: string;
  label: string;
  description: string;
  plaid_primary: string;
  detailed: DetailedCategoryDef[];
}

const d = (category_detailed: string, label: string, plaid_detailed: string, description: string): DetailedCategoryDef => ({
  category_detailed,
  label,
  description,
  plaid_detailed,
});

export const CATEGORIES: readonly CategoryDef[] = [
  {
    category: 'income',
    label: 'Income',
    description: 'Money earned or received that increases net worth, such as pay, investment income, benefits and refunds.',
    plaid_primary: 'INCOME',
    detailed: [
      d('income_wages', 'Wages & Salary', 'INCOME_WAGES',
        'Payroll deposits, salary, hourly pay, tips and gig-economy payouts from an employer or platform.'),
      d('income_interest', 'Interest Earned', 'INCOME_INTEREST_EARNED',
        'Interest paid on savings, checking, money-market or certificate-of-deposit balances.'),
      d('income_dividends', 'Dividends', 'INCOME_DIVIDENDS',
        'Dividends and capital-gain distributions paid out of an investment account into a bank account.'),
      d('income_refunds', 'Refunds & Reimbursements', 'INCOME_OTHER_INCOME',
        'Merchant refunds, returns, chargebacks, cashback rewards and expense reimbursements; tax refunds have their own category.'),
      d('income_tax_refund', 'Tax Refund', 'INCOME_TAX_REFUND',
        'Federal, state or local income-tax refunds paid by a tax authority.'),
      d('income_retirement', 'Pension & Retirement', 'INCOME_RETIREMENT_PENSION',
        'Pension payments, annuities and regular retirement-plan distributions.'),
      d('income_benefits', 'Government Benefits', 'INCOME_UNEMPLOYMENT',
        'Unemployment insurance, social security, disability and other public benefit payments.'),
      d('income_other', 'Other Income', 'INCOME_OTHER_INCOME',
        'Income that fits no other income category, such as rental income, alimony, child support, prizes or settlements.'),
    ],
  },
  {
    category: 'transfer_in',
    label: 'Transfers In',
    description: 'Money arriving from the user\'s own accounts, other people or lenders that is not earned income.',
    plaid_primary: 'TRANSFER_IN',
    detailed: [
      d('transfer_in_account_transfer', 'Account Transfer In', 'TRANSFER_IN_ACCOUNT_TRANSFER',
        'Money moved in from another account the user owns, at this or another institution, including incoming wires and ACH pulls.'),
      d('transfer_in_savings', 'From Savings', 'TRANSFER_IN_SAVINGS',
        'Money moved out of a savings account into this account.'),
      d('transfer_in_investment', 'From Investments & Crypto', 'TRANSFER_IN_INVESTMENT_AND_RETIREMENT_FUNDS',
        'Withdrawals from brokerage, retirement, robo-advisor or crypto-exchange accounts into this account.'),
      d('transfer_in_p2p', 'Peer-to-Peer Received', 'TRANSFER_IN_TRANSFER_IN_FROM_APPS',
        'Money received from another person through a payment app such as Venmo, Zelle, Cash App or PayPal.'),
      d('transfer_in_deposit', 'Cash & Check Deposit', 'TRANSFER_IN_DEPOSIT',
        'Cash, check and mobile-check deposits made at a branch, an ATM or in an app.'),
      d('transfer_in_loan_proceeds', 'Loan Proceeds', 'TRANSFER_IN_CASH_ADVANCES_AND_LOANS',
        'Loan disbursements, credit-card cash advances and earned-wage advances paid into the account, which are debt and not income.'),
    ],
  },
  {
    category: 'transfer_out',
    label: 'Transfers Out',
    description: 'Money leaving for the user\'s own accounts, investments or other people that is not spending on goods or services.',
    plaid_primary: 'TRANSFER_OUT',
    detailed: [
      d('transfer_out_account_transfer', 'Account Transfer Out', 'TRANSFER_OUT_ACCOUNT_TRANSFER',
        'Money moved out to another account the user owns, including outgoing wires and ACH pushes to own accounts.'),
      d('transfer_out_savings', 'To Savings', 'TRANSFER_OUT_SAVINGS',
        'Money moved into a savings account, including automatic round-ups and scheduled savings sweeps.'),
      d('transfer_out_investment', 'To Investments', 'TRANSFER_OUT_INVESTMENT_AND_RETIREMENT_FUNDS',
        'Contributions to brokerage, retirement or robo-advisor accounts; crypto purchases have their own category.'),
      d('transfer_out_crypto', 'To Crypto', 'TRANSFER_OUT_CRYPTO',
        'Funding a crypto exchange or wallet, or buying cryptocurrency directly from a bank account or card.'),
      d('transfer_out_p2p', 'Peer-to-Peer Sent', 'TRANSFER_OUT_TRANSFER_OUT_FROM_APPS',
        'Money sent to another person through a payment app such as Venmo, Zelle, Cash App or PayPal.'),
      d('transfer_out_cash_withdrawal', 'Cash Withdrawal', 'TRANSFER_OUT_WITHDRAWAL',
        'Cash taken out at an ATM, a branch counter or as cash back at a register; ATM fees belong in bank fees.'),
    ],
  },
  {
    category: 'loan_payments',
    label: 'Loan Payments',
    description: 'Repayments of principal and interest on credit cards, mortgages and other loans.',
    plaid_primary: 'LOAN_PAYMENTS',
    detailed: [
      d('loan_payments_credit_card', 'Credit Card Payment', 'LOAN_PAYMENTS_CREDIT_CARD_PAYMENT',
        'Payments toward a credit-card balance, seen as a debit on the paying account and a credit on the card.'),
      d('loan_payments_mortgage', 'Mortgage Payment', 'LOAN_PAYMENTS_MORTGAGE_PAYMENT',
        'Mortgage and home-equity loan payments, including any escrow collected with them; rent belongs in rent and utilities.'),
      d('loan_payments_student_loan', 'Student Loan Payment', 'LOAN_PAYMENTS_STUDENT_LOAN_PAYMENT',
        'Payments to student-loan servicers; tuition paid to a school belongs in education.'),
      d('loan_payments_auto_loan', 'Auto Loan Payment', 'LOAN_PAYMENTS_CAR_PAYMENT',
        'Car, motorcycle and other vehicle loan or lease payments.'),
      d('loan_payments_personal_loan', 'Personal Loan Payment', 'LOAN_PAYMENTS_PERSONAL_LOAN_PAYMENT',
        'Payments on personal loans, lines of credit and any other installment debt not covered above.'),
      d('loan_payments_bnpl', 'Buy Now, Pay Later', 'LOAN_PAYMENTS_BNPL',
        'Installment payments to buy-now-pay-later providers such as Affirm, Klarna or Afterpay.'),
    ],
  },
  {
    category: 'bank_fees',
    label: 'Bank Fees',
    description: 'Fees and interest charged by a bank or card issuer for holding or using an account.',
    plaid_primary: 'BANK_FEES',
    detailed: [
      d('bank_fees_overdraft', 'Overdraft & NSF Fees', 'BANK_FEES_OVERDRAFT_FEES',
        'Overdraft, insufficient-funds and returned-item fees charged when a balance runs short.'),
      d('bank_fees_atm', 'ATM Fees', 'BANK_FEES_ATM_FEES',
        'Fees charged by the bank or the ATM operator for using an out-of-network ATM.'),
      d('bank_fees_foreign_transaction', 'Foreign Transaction Fees', 'BANK_FEES_FOREIGN_TRANSACTION_FEES',
        'Fees added to purchases or withdrawals made in a foreign currency or processed abroad.'),
      d('bank_fees_late_payment', 'Late Payment Fees', 'BANK_FEES_LATE_FEES',
        'Penalties charged by a bank or card issuer for a payment made after its due date.'),
      d('bank_fees_interest_charge', 'Interest Charges', 'BANK_FEES_INTEREST_CHARGE',
        'Interest charged on a carried credit-card balance, a cash advance or an overdraft line.'),
      d('bank_fees_other', 'Other Bank Fees', 'BANK_FEES_OTHER_BANK_FEES',
        'Monthly maintenance, wire, annual card, cash-advance, paper-statement and any other account fees.'),
    ],
  },
  {
    category: 'food_and_drink',
    label: 'Food & Drink',
    description: 'Groceries, eating out and drinks, whether bought in person, online or through a delivery app.',
    plaid_primary: 'FOOD_AND_DRINK',
    detailed: [
      d('food_and_drink_groceries', 'Groceries', 'FOOD_AND_DRINK_GROCERIES',
        'Supermarkets, grocery stores, farmers markets and grocery delivery; superstores selling mostly general goods belong in shopping.'),
      d('food_and_drink_restaurants', 'Restaurants', 'FOOD_AND_DRINK_RESTAURANT',
        'Sit-down restaurants, diners and casual dining, including tips added to the bill.'),
      d('food_and_drink_fast_food', 'Fast Food', 'FOOD_AND_DRINK_FAST_FOOD',
        'Quick-service and fast-food chains, drive-throughs and counter-service takeout.'),
      d('food_and_drink_coffee', 'Coffee Shops', 'FOOD_AND_DRINK_COFFEE',
        'Coffee shops, cafes and tea houses.'),
      d('food_and_drink_bars_and_alcohol', 'Bars & Alcohol', 'FOOD_AND_DRINK_BEER_WINE_AND_LIQUOR',
        'Bars, pubs, breweries and wineries, plus beer, wine and liquor stores.'),
      d('food_and_drink_delivery', 'Food Delivery', 'FOOD_AND_DRINK_RESTAURANT',
        'Prepared-meal delivery and takeout ordered through apps such as DoorDash, Uber Eats or Grubhub, and meal-kit services.'),
      d('food_and_drink_other', 'Other Food & Drink', 'FOOD_AND_DRINK_OTHER_FOOD_AND_DRINK',
        'Bakeries, dessert and juice shops, delis, food trucks, vending machines and other food and drink purchases.'),
    ],
  },
  {
    category: 'shopping',
    label: 'Shopping',
    description: 'Retail purchases of goods in stores or online; this is Plaid\'s general merchandise primary under a shorter name.',
    plaid_primary: 'GENERAL_MERCHANDISE',
    detailed: [
      d('shopping_online_marketplaces', 'Online Marketplaces', 'GENERAL_MERCHANDISE_ONLINE_MARKETPLACES',
        'Multi-category e-commerce sites such as Amazon, eBay, Etsy or Temu.'),
      d('shopping_superstores', 'Superstores', 'GENERAL_MERCHANDISE_SUPERSTORES',
        'Big-box and warehouse stores selling both groceries and general goods, such as Walmart, Target or Costco.'),
      d('shopping_department_stores', 'Department & Discount Stores', 'GENERAL_MERCHANDISE_DEPARTMENT_STORES',
        'Department stores, outlet and off-price stores, and dollar or discount stores.'),
      d('shopping_clothing', 'Clothing & Accessories', 'GENERAL_MERCHANDISE_CLOTHING_AND_ACCESSORIES',
        'Apparel, shoes, jewelry, watches, bags and other accessories.'),
      d('shopping_electronics', 'Electronics', 'GENERAL_MERCHANDISE_ELECTRONICS',
        'Computers, phones, appliances sold by electronics retailers, and other consumer electronics and accessories.'),
      d('shopping_convenience_stores', 'Convenience Stores', 'GENERAL_MERCHANDISE_CONVENIENCE_STORES',
        'Convenience stores and corner shops; fuel bought at a gas station belongs in transportation.'),
      d('shopping_books_and_news', 'Books & News', 'GENERAL_MERCHANDISE_BOOKSTORES_AND_NEWSSTANDS',
        'Bookstores, e-books, audiobooks, magazines and newspaper or digital news subscriptions.'),
      d('shopping_pets', 'Pets', 'GENERAL_MERCHANDISE_PET_SUPPLIES',
        'Pet food, pet supplies, grooming, boarding and veterinary care.'),
      d('shopping_other', 'Other Shopping', 'GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE',
        'Sporting goods, toys, hobbies, crafts, gifts, florists, office supplies, tobacco and any other retail goods.'),
    ],
  },
  {
    category: 'home',
    label: 'Home',
    description: 'Furnishing, repairing and improving a home; mortgage payments are loan payments and rent is in rent and utilities.',
    plaid_primary: 'HOME_IMPROVEMENT',
    detailed: [
      d('home_furnishings', 'Furniture & Furnishings', 'HOME_IMPROVEMENT_FURNITURE',
        'Furniture, mattresses, bedding, home decor and housewares.'),
      d('home_hardware', 'Hardware & Supplies', 'HOME_IMPROVEMENT_HARDWARE',
        'Hardware and home-improvement stores, building materials, tools, paint and garden supplies.'),
      d('home_repair_and_maintenance', 'Repairs & Maintenance', 'HOME_IMPROVEMENT_REPAIR_AND_MAINTENANCE',
        'Contractors, plumbers, electricians, roofers, cleaners, landscaping and pest control.'),
      d('home_other', 'Other Home', 'HOME_IMPROVEMENT_OTHER_HOME_IMPROVEMENT',
        'Home security systems, pools, moving services, homeowners association dues and other home costs.'),
    ],
  },
  {
    category: 'rent_and_utilities',
    label: 'Rent & Utilities',
    description: 'Rent and the recurring bills that keep a home running: energy, water, internet, television and phone.',
    plaid_primary: 'RENT_AND_UTILITIES',
    detailed: [
      d('rent_and_utilities_rent', 'Rent', 'RENT_AND_UTILITIES_RENT',
        'Rent paid to a landlord or property manager, including rent-payment platforms.'),
      d('rent_and_utilities_gas_and_electricity', 'Gas & Electricity', 'RENT_AND_UTILITIES_GAS_AND_ELECTRICITY',
        'Electricity, natural gas, propane and heating-oil bills for a home.'),
      d('rent_and_utilities_water', 'Water & Sewer', 'RENT_AND_UTILITIES_WATER',
        'Water and combined water-and-sewer bills.'),
      d('rent_and_utilities_internet_and_cable', 'Internet & Cable', 'RENT_AND_UTILITIES_INTERNET_AND_CABLE',
        'Home internet, cable and satellite television; streaming subscriptions belong in entertainment.'),
      d('rent_and_utilities_phone', 'Phone', 'RENT_AND_UTILITIES_TELEPHONE',
        'Mobile and landline phone plans and bills; buying a handset belongs in electronics.'),
      d('rent_and_utilities_other', 'Other Utilities', 'RENT_AND_UTILITIES_OTHER_UTILITIES',
        'Trash collection, recycling, separate sewage bills and any other utility not listed above.'),
    ],
  },
  {
    category: 'transportation',
    label: 'Transportation',
    description: 'Getting around locally: fuel, rides, transit, parking, tolls and keeping a vehicle running.',
    plaid_primary: 'TRANSPORTATION',
    detailed: [
      d('transportation_fuel', 'Gas & Fuel', 'TRANSPORTATION_GAS',
        'Fuel at gas stations and public electric-vehicle charging.'),
      d('transportation_rideshare', 'Rideshare & Taxi', 'TRANSPORTATION_TAXIS_AND_RIDE_SHARES',
        'Taxis and ride-hailing services such as Uber or Lyft; food ordered through those apps belongs in food delivery.'),
      d('transportation_public_transit', 'Public Transit', 'TRANSPORTATION_PUBLIC_TRANSIT',
        'Buses, subways, light rail, commuter trains, ferries and transit passes.'),
      d('transportation_parking', 'Parking', 'TRANSPORTATION_PARKING',
        'Parking garages, lots, meters, parking apps and monthly parking permits.'),
      d('transportation_tolls', 'Tolls', 'TRANSPORTATION_TOLLS',
        'Road, bridge and tunnel tolls, including electronic toll-tag top-ups.'),
      d('transportation_auto_maintenance', 'Auto Maintenance & Repair', 'GENERAL_SERVICES_AUTOMOTIVE',
        'Oil changes, tires, auto parts, repairs, car washes, inspections and towing.'),
      d('transportation_other', 'Other Transportation', 'TRANSPORTATION_OTHER_TRANSPORTATION',
        'Bike and scooter rentals, car sharing and any other local transport cost not listed above.'),
    ],
  },
  {
    category: 'travel',
    label: 'Travel',
    description: 'Trips away from home: getting there, staying there and travel-specific services.',
    plaid_primary: 'TRAVEL',
    detailed: [
      d('travel_flights', 'Flights', 'TRAVEL_FLIGHTS',
        'Airline tickets, seat upgrades, checked-bag fees and other airline charges.'),
      d('travel_lodging', 'Hotels & Lodging', 'TRAVEL_LODGING',
        'Hotels, motels, resorts and short-term rentals such as Airbnb or Vrbo.'),
      d('travel_rental_cars', 'Rental Cars', 'TRAVEL_RENTAL_CARS',
        'Car, van and truck rentals booked for a trip or a move.'),
      d('travel_other', 'Other Travel', 'TRAVEL_OTHER_TRAVEL',
        'Cruises, tour operators, travel agencies and booking sites, long-distance buses and other travel costs.'),
    ],
  },
  {
    category: 'entertainment',
    label: 'Entertainment',
    description: 'Leisure spending on media, games, events and outings.',
    plaid_primary: 'ENTERTAINMENT',
    detailed: [
      d('entertainment_streaming', 'Streaming Services', 'ENTERTAINMENT_TV_AND_MOVIES',
        'Video and music streaming subscriptions such as Netflix or Spotify, plus digital movie and music purchases.'),
      d('entertainment_events', 'Events & Attractions', 'ENTERTAINMENT_SPORTING_EVENTS_AMUSEMENT_PARKS_AND_MUSEUMS',
        'Concerts, sporting events, theater, cinemas, museums, zoos and amusement parks, including ticketing sites.'),
      d('entertainment_video_games', 'Video Games', 'ENTERTAINMENT_VIDEO_GAMES',
        'Video games, consoles, in-game purchases and gaming subscriptions.'),
      d('entertainment_gambling', 'Gambling', 'ENTERTAINMENT_CASINOS_AND_GAMBLING',
        'Casinos, lotteries, sports betting and other gambling.'),
      d('entertainment_other', 'Other Entertainment', 'ENTERTAINMENT_OTHER_ENTERTAINMENT',
        'Nightclubs, bowling, arcades, recreational activities and other entertainment not listed above.'),
    ],
  },
  {
    category: 'health_and_personal_care',
    label: 'Health & Personal Care',
    description: 'Medical, dental, pharmacy, fitness and grooming costs; merges Plaid\'s medical and personal care primaries.',
    plaid_primary: 'MEDICAL',
    detailed: [
      d('health_and_personal_care_doctors', 'Doctors & Clinics', 'MEDICAL_PRIMARY_CARE',
        'Primary-care doctors, specialists, urgent care and outpatient clinics, including copays.'),
      d('health_and_personal_care_dental', 'Dental Care', 'MEDICAL_DENTAL_CARE',
        'Dentists, orthodontists and other dental care.'),
      d('health_and_personal_care_pharmacy', 'Pharmacy', 'MEDICAL_PHARMACIES_AND_SUPPLEMENTS',
        'Pharmacies, prescriptions, over-the-counter medicine and vitamins or supplements.'),
      d('health_and_personal_care_other_medical', 'Other Medical', 'MEDICAL_OTHER_MEDICAL',
        'Hospitals, labs, eye care, therapy and mental health, medical equipment and other medical bills; health insurance premiums belong in insurance.'),
      d('health_and_personal_care_fitness', 'Gym & Fitness', 'PERSONAL_CARE_GYMS_AND_FITNESS_CENTERS',
        'Gym memberships, fitness studios, workout classes and fitness apps.'),
      d('health_and_personal_care_beauty', 'Hair & Beauty', 'PERSONAL_CARE_HAIR_AND_BEAUTY',
        'Hair salons, barbers, nail salons, spas, massage and beauty or cosmetics stores.'),
    ],
  },
  {
    category: 'services_and_government',
    label: 'Services & Government',
    description: 'Paid services, taxes, government fees and donations; merges Plaid\'s general services and government and non-profit primaries.',
    plaid_primary: 'GENERAL_SERVICES',
    detailed: [
      d('services_and_government_insurance', 'Insurance', 'GENERAL_SERVICES_INSURANCE',
        'Premiums for auto, home, renters, health, life and other insurance.'),
      d('services_and_government_childcare', 'Childcare', 'GENERAL_SERVICES_CHILDCARE',
        'Daycare, babysitters, nannies, preschool care and after-school programs.'),
      d('services_and_government_education', 'Education', 'GENERAL_SERVICES_EDUCATION',
        'Tuition and fees for schools, colleges and courses, plus tutoring; student-loan payments belong in loan payments.'),
      d('services_and_government_professional_services', 'Professional Services', 'GENERAL_SERVICES_CONSULTING_AND_LEGAL',
        'Lawyers, accountants, tax preparers, financial advisors and consultants.'),
      d('services_and_government_software', 'Software & Apps', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
        'Software subscriptions, cloud storage, web hosting and app purchases that are not games or media streaming.'),
      d('services_and_government_donations', 'Charity & Donations', 'GOVERNMENT_AND_NON_PROFIT_DONATIONS',
        'Donations to charities, religious organizations, political campaigns and crowdfunding causes.'),
      d('services_and_government_taxes', 'Taxes', 'GOVERNMENT_AND_NON_PROFIT_TAX_PAYMENT',
        'Income, property and estimated tax payments made to a tax authority; tax preparation belongs in professional services.'),
      d('services_and_government_government_fees', 'Government Fees', 'GOVERNMENT_AND_NON_PROFIT_GOVERNMENT_DEPARTMENTS_AND_AGENCIES',
        'Vehicle registration, licenses, passports, permits, court fees and fines paid to a government agency.'),
      d('services_and_government_other', 'Other Services', 'GENERAL_SERVICES_OTHER_GENERAL_SERVICES',
        'Postage and shipping, storage units, laundry and dry cleaning, memberships and any other service not listed above.'),
    ],
  },
];

export const PRIMARY_CATEGORY_IDS: readonly string[] = CATEGORIES.map((c) => c.category);

const PRIMARY_BY_DETAILED: ReadonlyMap<string, string> = new Map(
  CATEGORIES.flatMap((c) => c.detailed.map((dc) => [dc.category_detailed, c.category] as const)),
);

/** The primary category a detailed category belongs to, or undefined if `detailed` is not one. */
export function primaryOf(detailed: string): string | undefined {
  return PRIMARY_BY_DETAILED.get(detailed);
}

export function isDetailedCategory(id: string): boolean {
  return PRIMARY_BY_DETAILED.has(id);
}
