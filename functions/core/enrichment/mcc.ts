// Merchant category codes (ISO 18245) -> taxonomy detailed category. A connector that knows the
// card network's MCC for a transaction passes it as a hint; enrichDescriptor (./rules) consults this
// table only when the descriptor rules abstain (see docs/enrichment.md, "MCC and counterparty hints").
//
// Provenance. Authored for this project by ISO 18245 ranges and codes. The code descriptions were
// checked against the `mcc` npm package (MIT, christophior/mcc, mcc_codes.json v2.2.0, a devDependency
// used only as a reference while writing this file; nothing imports it at run time). The mapping to
// the taxonomy is ours: each code goes to the detailed category whose definition in ../taxonomy
// fits what merchants with that code sell. Codes that say nothing about the purchase (financial
// institutions' merchandise, quasi-cash, telemarketing, network-internal codes) map to null, so
// they never turn an abstention into a guess.

/** Ranges of codes that networks assign one per large merchant (an airline, a rental company, a hotel chain). */
const MCC_RANGES: ReadonlyArray<readonly [from: number, to: number, detailed: string]> = [
  [3000, 3350, 'travel_flights'], // airlines and air carriers, one code each
  [3351, 3500, 'travel_rental_cars'], // car rental agencies
  [3501, 3999, 'travel_lodging'], // hotels, motels and resorts
];

/** Single codes, grouped by the taxonomy primary they lead to. */
const MCC_CODES: Readonly<Record<string, string | null>> = {
  // food and drink
  '5411': 'food_and_drink_groceries', '5422': 'food_and_drink_groceries', '5451': 'food_and_drink_groceries',
  '5499': 'food_and_drink_groceries',
  '5441': 'food_and_drink_other', '5462': 'food_and_drink_other',
  '5811': 'food_and_drink_restaurants', '5812': 'food_and_drink_restaurants',
  '5813': 'food_and_drink_bars_and_alcohol', '5921': 'food_and_drink_bars_and_alcohol',
  '5814': 'food_and_drink_fast_food',

  // shopping
  '5262': 'shopping_online_marketplaces',
  '5300': 'shopping_superstores',
  '5310': 'shopping_department_stores', '5311': 'shopping_department_stores', '5331': 'shopping_department_stores',
  '5399': 'shopping_department_stores', '5931': 'shopping_department_stores',
  '5094': 'shopping_clothing', '5137': 'shopping_clothing', '5139': 'shopping_clothing', '5611': 'shopping_clothing',
  '5621': 'shopping_clothing', '5631': 'shopping_clothing', '5641': 'shopping_clothing', '5651': 'shopping_clothing',
  '5655': 'shopping_clothing', '5661': 'shopping_clothing', '5681': 'shopping_clothing', '5691': 'shopping_clothing',
  '5699': 'shopping_clothing', '5944': 'shopping_clothing', '5948': 'shopping_clothing', '7296': 'shopping_clothing',
  '4812': 'shopping_electronics', '5045': 'shopping_electronics', '5065': 'shopping_electronics', '5732': 'shopping_electronics',
  '5946': 'shopping_electronics', '7379': 'shopping_electronics', '7622': 'shopping_electronics',
  '5192': 'shopping_books_and_news', '5942': 'shopping_books_and_news', '5994': 'shopping_books_and_news',
  '0742': 'shopping_pets', '5995': 'shopping_pets',
  '2842': 'shopping_other', '5044': 'shopping_other', '5046': 'shopping_other', '5051': 'shopping_other',
  '5085': 'shopping_other', '5099': 'shopping_other', '5111': 'shopping_other', '5131': 'shopping_other',
  '5169': 'shopping_other', '5193': 'shopping_other', '5199': 'shopping_other', '5309': 'shopping_other',
  '5551': 'shopping_other', '5733': 'shopping_other', '5735': 'shopping_other', '5832': 'shopping_other',
  '5932': 'shopping_other', '5933': 'shopping_other', '5935': 'shopping_other', '5937': 'shopping_other',
  '5940': 'shopping_other', '5941': 'shopping_other', '5943': 'shopping_other', '5945': 'shopping_other',
  '5947': 'shopping_other', '5949': 'shopping_other', '5961': 'shopping_other', '5963': 'shopping_other',
  '5964': 'shopping_other', '5965': 'shopping_other', '5970': 'shopping_other', '5971': 'shopping_other',
  '5972': 'shopping_other', '5973': 'shopping_other', '5978': 'shopping_other', '5992': 'shopping_other',
  '5993': 'shopping_other', '5997': 'shopping_other', '5998': 'shopping_other', '5999': 'shopping_other',

  // home
  '5021': 'home_furnishings', '5712': 'home_furnishings', '5713': 'home_furnishings', '5714': 'home_furnishings',
  '5718': 'home_furnishings', '5719': 'home_furnishings', '5722': 'home_furnishings', '5950': 'home_furnishings',
  '5039': 'home_hardware', '5072': 'home_hardware', '5074': 'home_hardware', '5198': 'home_hardware',
  '5200': 'home_hardware', '5211': 'home_hardware', '5231': 'home_hardware', '5251': 'home_hardware', '5261': 'home_hardware',
  '0780': 'home_repair_and_maintenance', '1520': 'home_repair_and_maintenance', '1711': 'home_repair_and_maintenance',
  '1731': 'home_repair_and_maintenance', '1740': 'home_repair_and_maintenance', '1750': 'home_repair_and_maintenance',
  '1761': 'home_repair_and_maintenance', '1771': 'home_repair_and_maintenance', '1799': 'home_repair_and_maintenance',
  '7217': 'home_repair_and_maintenance', '7342': 'home_repair_and_maintenance', '7349': 'home_repair_and_maintenance',
  '7623': 'home_repair_and_maintenance', '7629': 'home_repair_and_maintenance', '7641': 'home_repair_and_maintenance',
  '7692': 'home_repair_and_maintenance',
  '4214': 'home_other', '5271': 'home_other', '5996': 'home_other', '7393': 'home_other',

  // rent and utilities
  '6513': 'rent_and_utilities_rent',
  '5983': 'rent_and_utilities_gas_and_electricity',
  '4900': 'rent_and_utilities_other', // electric, gas, sanitary and water together: the code does not say which
  '4899': 'rent_and_utilities_internet_and_cable', '4816': 'rent_and_utilities_internet_and_cable',
  '4813': 'rent_and_utilities_phone', '4814': 'rent_and_utilities_phone', '4815': 'rent_and_utilities_phone',

  // transportation
  '5172': 'transportation_fuel', '5541': 'transportation_fuel', '5542': 'transportation_fuel', '5552': 'transportation_fuel',
  '7511': 'transportation_fuel',
  '4121': 'transportation_rideshare',
  '4011': 'transportation_public_transit', '4111': 'transportation_public_transit', '4112': 'transportation_public_transit',
  '4131': 'transportation_public_transit',
  '7523': 'transportation_parking',
  '4784': 'transportation_tolls',
  '5013': 'transportation_auto_maintenance', '5511': 'transportation_auto_maintenance', '5531': 'transportation_auto_maintenance',
  '5532': 'transportation_auto_maintenance', '5533': 'transportation_auto_maintenance', '7531': 'transportation_auto_maintenance',
  '7534': 'transportation_auto_maintenance', '7535': 'transportation_auto_maintenance', '7538': 'transportation_auto_maintenance',
  '7542': 'transportation_auto_maintenance', '7549': 'transportation_auto_maintenance',
  '4468': 'transportation_other', '4789': 'transportation_other', '5521': 'transportation_other', '5561': 'transportation_other',
  '5571': 'transportation_other', '5592': 'transportation_other', '5598': 'transportation_other', '5599': 'transportation_other',
  '7513': 'transportation_other',

  // travel
  '4511': 'travel_flights', '4582': 'travel_flights',
  '7011': 'travel_lodging', '7012': 'travel_lodging', '7033': 'travel_lodging',
  '7512': 'travel_rental_cars', '7519': 'travel_rental_cars',
  '4411': 'travel_other', '4457': 'travel_other', '4722': 'travel_other', '4723': 'travel_other', '5962': 'travel_other',

  // entertainment
  '5815': 'entertainment_streaming', '7841': 'entertainment_streaming',
  '7832': 'entertainment_events', '7922': 'entertainment_events', '7929': 'entertainment_events', '7941': 'entertainment_events',
  '7991': 'entertainment_events', '7996': 'entertainment_events', '7998': 'entertainment_events',
  '5816': 'entertainment_video_games', '7993': 'entertainment_video_games', '7994': 'entertainment_video_games',
  '7800': 'entertainment_gambling', '7801': 'entertainment_gambling', '7802': 'entertainment_gambling',
  '7995': 'entertainment_gambling', '9406': 'entertainment_gambling',
  '7032': 'entertainment_other', '7829': 'entertainment_other', '7911': 'entertainment_other', '7932': 'entertainment_other',
  '7933': 'entertainment_other', '7992': 'entertainment_other', '7999': 'entertainment_other',

  // health and personal care
  '5122': 'health_and_personal_care_pharmacy', '5912': 'health_and_personal_care_pharmacy',
  '8021': 'health_and_personal_care_dental',
  '8011': 'health_and_personal_care_doctors', '8031': 'health_and_personal_care_doctors', '8049': 'health_and_personal_care_doctors',
  '4119': 'health_and_personal_care_other_medical', '5047': 'health_and_personal_care_other_medical',
  '5975': 'health_and_personal_care_other_medical', '5976': 'health_and_personal_care_other_medical',
  '8041': 'health_and_personal_care_other_medical', '8042': 'health_and_personal_care_other_medical',
  '8043': 'health_and_personal_care_other_medical', '8044': 'health_and_personal_care_other_medical',
  '8050': 'health_and_personal_care_other_medical', '8062': 'health_and_personal_care_other_medical',
  '8071': 'health_and_personal_care_other_medical', '8099': 'health_and_personal_care_other_medical',
  '7997': 'health_and_personal_care_fitness', // membership clubs: health, athletic and country clubs
  '5698': 'health_and_personal_care_beauty', '5977': 'health_and_personal_care_beauty', '7230': 'health_and_personal_care_beauty',
  '7297': 'health_and_personal_care_beauty', '7298': 'health_and_personal_care_beauty',

  // services and government
  '5960': 'services_and_government_insurance', '6300': 'services_and_government_insurance',
  '6381': 'services_and_government_insurance', '6399': 'services_and_government_insurance',
  '8351': 'services_and_government_childcare',
  '8211': 'services_and_government_education', '8220': 'services_and_government_education', '8241': 'services_and_government_education',
  '8244': 'services_and_government_education', '8249': 'services_and_government_education', '8299': 'services_and_government_education',
  '7276': 'services_and_government_professional_services', '7277': 'services_and_government_professional_services',
  '7311': 'services_and_government_professional_services', '7333': 'services_and_government_professional_services',
  '7339': 'services_and_government_professional_services', '7361': 'services_and_government_professional_services',
  '7392': 'services_and_government_professional_services', '8111': 'services_and_government_professional_services',
  '8911': 'services_and_government_professional_services', '8931': 'services_and_government_professional_services',
  '8999': 'services_and_government_professional_services',
  '5734': 'services_and_government_software', '5817': 'services_and_government_software', '5818': 'services_and_government_software',
  '7372': 'services_and_government_software', '7375': 'services_and_government_software',
  '8398': 'services_and_government_donations', '8651': 'services_and_government_donations', '8661': 'services_and_government_donations',
  '9311': 'services_and_government_taxes',
  '9211': 'services_and_government_government_fees', '9222': 'services_and_government_government_fees',
  '9223': 'services_and_government_government_fees', '9399': 'services_and_government_government_fees',
  '9405': 'services_and_government_government_fees',
  '2741': 'services_and_government_other', '2791': 'services_and_government_other', '4215': 'services_and_government_other',
  '4225': 'services_and_government_other', '4821': 'services_and_government_other', '5697': 'services_and_government_other',
  '7210': 'services_and_government_other', '7211': 'services_and_government_other', '7216': 'services_and_government_other',
  '7221': 'services_and_government_other', '7251': 'services_and_government_other', '7261': 'services_and_government_other',
  '7273': 'services_and_government_other', '7278': 'services_and_government_other', '7299': 'services_and_government_other',
  '7321': 'services_and_government_other', '7332': 'services_and_government_other', '7338': 'services_and_government_other',
  '7394': 'services_and_government_other', '7395': 'services_and_government_other', '7399': 'services_and_government_other',
  '7631': 'services_and_government_other', '7699': 'services_and_government_other', '8641': 'services_and_government_other',
  '8675': 'services_and_government_other', '8699': 'services_and_government_other', '8734': 'services_and_government_other',
  '9402': 'services_and_government_other',

  // money movement
  '6010': 'transfer_out_cash_withdrawal', '6011': 'transfer_out_cash_withdrawal',
  '4829': 'transfer_out_account_transfer',
  '6211': 'transfer_out_investment',

  // codes that say nothing about the purchase
  '0763': null, '5966': null, '5967': null, '5968': null, '5969': null, '6012': null, '6051': null, '6540': null,
  '9700': null, '9701': null, '9702': null, '9950': null,
};

/**
 * The detailed category an MCC stands for, or null when the code is unknown, malformed or says
 * nothing about the purchase. Accepts "5411", " 5411 ", "742" (a leading zero dropped by a CSV).
 */
export function categoryForMcc(mcc: string | null | undefined): string | null {
  if (typeof mcc !== 'string') return null;
  const trimmed = mcc.trim();
  if (!/^\d{3,4}$/.test(trimmed)) return null;
  const code = trimmed.padStart(4, '0');
  const listed = MCC_CODES[code];
  if (listed !== undefined) return listed;
  const n = Number(code);
  for (const [from, to, detailed] of MCC_RANGES) if (n >= from && n <= to) return detailed;
  return null;
}

/** Every detailed category the table can produce (for tests: each must exist in the taxonomy). */
export function mccCategories(): string[] {
  return [...new Set([...Object.values(MCC_CODES).filter((d): d is string => d !== null), ...MCC_RANGES.map((r) => r[2])])];
}
