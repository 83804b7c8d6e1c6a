// Raw-descriptor pools for the sandbox generator (./generator): what a bank statement prints for
// each kind of spending, per home region. Data only.
//
// Template placeholders, filled by the generator:
//   {S3} {S4} {S5}  store number, stable per login and merchant (a user shops at one or two stores)
//   {N4}..{N15}     random digits, new on every transaction (reference numbers, order ids)
//   {C6} {C8} {C10} random upper-case letters and digits, new on every transaction
//   {CITY}          the city (and state / country) where the purchase happened
//   {MMDD} {MM/DD}  the authorization date
//   {EMP} {NAME} {LANDLORD} {BANK} {MASK} {TICKER}  login-specific values
// Amounts are [low, high] in major units of the currency the purchase is made in.

export type RegionCode = 'US' | 'CA' | 'GB' | 'DE' | 'FR';

export interface PoolItem {
  t: string;
  lo: number;
  hi: number;
}
const p = (t: string, lo: number, hi: number): PoolItem => ({ t, lo, hi });

export type SpendKind =
  | 'groceries' | 'superstore' | 'online' | 'restaurant' | 'fastfood' | 'coffee' | 'delivery' | 'bars' | 'fuel' | 'rideshare'
  | 'transit' | 'parking' | 'pharmacy' | 'clothing' | 'electronics' | 'home' | 'beauty' | 'events' | 'books' | 'pets'
  | 'convenience' | 'shipping' | 'office' | 'fitness_dropin';

export interface Subscription {
  t: string;
  price: number;
  annual?: boolean;
}

export interface RegionPools {
  currency: string;
  cities: string[];
  spend: Record<SpendKind, PoolItem[]>;
  /** Small independent merchants no rule knows: a sliver of everyday spending stays uncategorized, as in real data. */
  unlisted: PoolItem[];
  subscriptions: Subscription[];
  businessSubscriptions: Subscription[];
  electric: PoolItem[];
  water: PoolItem[];
  internet: PoolItem[];
  phone: PoolItem[];
  insurance: PoolItem[];
  rent: string[];
  mortgage: string[];
  payroll: string[];
  employers: string[];
  flights: PoolItem[];
  hotels: PoolItem[];
  rentalCars: PoolItem[];
  sights: PoolItem[];
  /** Debit-card formats on the checking account: `{M}` is the merchant part. */
  debitFormats: string[];
  /** Own-account and bill descriptors. */
  text: {
    toSavings: string; fromChecking: string; toChecking: string; fromSavings: string;
    cardPaymentChecking: string; cardPaymentCard: string;
    loanPaymentChecking: { auto: string; student: string }; loanPaymentLoan: { auto: string; student: string };
    toBrokerage: string; toCrypto: string; interest: string; atm: string; atmFee: string; fxFee: string;
    p2pOut: string; p2pIn: string; taxRefund: string | null; taxPayment: string | null;
  };
  peers: string[];
}

const US_CITIES = ['SEATTLE WA', 'SAN FRANCISCO CA', 'AUSTIN TX', 'BROOKLYN NY', 'CHICAGO IL', 'DENVER CO', 'BOSTON MA', 'ATLANTA GA', 'PORTLAND OR', 'MINNEAPOLIS MN', 'PHOENIX AZ', 'RALEIGH NC'];

const US: RegionPools = {
  currency: 'USD',
  cities: US_CITIES,
  spend: {
    groceries: [
      p('SAFEWAY #{S4} {CITY}', 18, 190), p('WHOLEFDS MKT #{S5}', 12, 160), p("TRADER JOE'S #{S3} {CITY}", 15, 120), p('KROGER #{S3}', 20, 180),
      p('QFC #{S4} {CITY}', 10, 110), p('SPROUTS FARMERS MAR #{S3}', 15, 110), p('ALDI {S5} {CITY}', 20, 130), p('PUBLIX #{S4}', 20, 170),
      p('H-E-B #{S3} {CITY}', 20, 190), p('WEGMANS #{S3}', 25, 200), p('INSTACART*{C6}', 45, 210), p('PCC COMMUNITY MARKETS', 12, 95),
      p('SQ *FARMERS MARKET', 8, 45),
    ],
    superstore: [
      p('TARGET T-{S4} {CITY}', 12, 160), p('TARGET        000{S5}', 15, 140), p('WAL-MART #{S4}', 10, 180), p('WM SUPERCENTER #{S4}', 20, 200),
      p('COSTCO WHSE #{S4}', 60, 380), p('FRED-MEYER #{S4} {CITY}', 20, 170),
    ],
    online: [
      p('AMZN Mktp US*{C6}', 8, 140), p('AMAZON.COM*{C6} AMZN.COM/BILL WA', 10, 160), p('Amazon.com*{C6}', 8, 90), p('EBAY O*{N8}', 9, 120),
      p('ETSY.COM*{C8}', 12, 85), p('TEMU.COM', 8, 60), p('WAYFAIR*{N8}', 40, 420), p('CHEWY.COM', 25, 110),
    ],
    restaurant: [
      p('TST* JOES PIZZA {S4}', 18, 65), p('TST* LUCIAS TRATTORIA', 35, 140), p('SQ *PHO BAC {CITY}', 14, 45), p('GOLDEN DRAGON NOODLE', 18, 60),
      p('TST* KINGFISH SUSHI', 30, 120), p('BLUE HERON GRILL {CITY}', 40, 150), p('SQ *MAPLE ST BISTRO', 30, 110), p('TST* OLD TOWN TAVERN', 25, 90),
      p('SMOKEY JOES BBQ {S4}', 22, 80), p('THAI TOM {CITY}', 15, 50), p('OLIVE GARDEN {S4}', 35, 110), p('THE CHEESECAKE FACTORY', 45, 160),
      p('TST* FAROLITO TAQUERIA', 12, 40), p('SQ *CORNER KITCHEN', 18, 70),
    ],
    fastfood: [
      p('CHIPOTLE {S4}', 10, 32), p("MCDONALD'S F{S5}", 6, 22), p('CHICK-FIL-A #{S5}', 8, 30), p('PANERA BREAD #{S5}', 10, 35),
      p('SWEETGREEN {CITY}', 12, 28), p('SHAKE SHACK #{S4}', 12, 38), p('TACO BELL #{S5}', 6, 20), p('SUBWAY {S5}', 8, 22),
      p('FIVE GUYS {S4} QSR', 12, 35), p('JERSEY MIKES {S5}', 10, 30),
    ],
    coffee: [
      p('STARBUCKS STORE {S5}', 4.25, 14), p('SQ *BLUE BOTTLE COFFEE', 4.5, 16), p('PEETS #{S5} {CITY}', 4, 12), p('DUNKIN #{S6}', 3, 11),
      p('SQ *ANCHORHEAD COFFEE', 4, 13), p('CAFE LADRO {CITY}', 4, 12), p('TST* PHILZ COFFEE', 5, 14),
    ],
    delivery: [
      p('DOORDASH*CHIPOTLE', 18, 45), p('DD *DOORDASH JOESPIZZ', 25, 60), p('UBER   *EATS HELP.UBER.COM', 20, 55), p('GRUBHUB*THAITOM', 22, 55),
      p('DOORDASH*DASHPASS', 9.99, 9.99),
    ],
    bars: [p('SQ *HOPWORKS BREWING', 14, 60), p('TST* THE ROOFTOP BAR', 20, 90), p('TOTAL WINE AND MORE {S4}', 18, 95), p('SQ *RED DOOR TAPROOM', 12, 55)],
    fuel: [
      p('SHELL OIL {N11} {CITY}', 28, 78), p('CHEVRON {S7} {CITY}', 30, 80), p('EXXONMOBIL {S8}', 26, 72), p('ARCO #{S5} {CITY}', 24, 70),
      p('COSTCO GAS #{S4}', 35, 85),
    ],
    rideshare: [p('UBER   *TRIP HELP.UBER.COM', 9, 48), p('LYFT   *RIDE {C6}', 8, 45), p('UBER *TRIP {C6}', 10, 40)],
    transit: [p('ORCA CARD {N6}', 2.75, 50), p('CLIPPER SYSTEMS', 5, 50), p('MTA*NYCT PAYGO', 2.9, 34), p('WMATA SMARTRIP', 5, 40), p('VENTRA {N10}', 5, 75)],
    parking: [p('PARKMOBILE {N8}', 2.5, 24), p('LAZ PARKING {S6}', 8, 38), p('SPOTHERO {N8}', 10, 42), p('IMPARK{S6}', 6, 30)],
    pharmacy: [p('CVS/PHARMACY #{S5}', 6, 60), p('WALGREENS #{S5}', 5, 55), p('RITE AID {S5}', 5, 40)],
    clothing: [p('OLD NAVY US {S4}', 20, 110), p('UNIQLO USA {S4}', 25, 120), p('NORDSTROM #{S4}', 45, 260), p('TJ MAXX #{S4}', 15, 110), p('NIKE.COM', 60, 180), p('LULULEMON {CITY}', 58, 190)],
    electronics: [p('BEST BUY {S8}', 15, 480), p('APPLE STORE R{S3}', 29, 399), p('MICRO CENTER #{S3}', 20, 260)],
    home: [p('THE HOME DEPOT #{S4}', 12, 240), p("LOWE'S #{S4}", 15, 220), p('IKEA {CITY}', 25, 320), p('ACE HDWE {S5}', 6, 60)],
    beauty: [p('GREAT CLIPS #{S4}', 20, 35), p('SEPHORA {S4}', 22, 120), p('ULTA #{S4}', 15, 80), p('SQ *LUXE NAIL SALON', 30, 70), p('SQ *FADE BARBERSHOP', 28, 55)],
    events: [p('AMC {S4} ONLINE', 14, 45), p('TICKETMASTER', 45, 260), p('REGAL CINEMAS {S5}', 12, 40), p('EVENTBRITE/{C8}', 15, 80), p('STEAMGAMES.COM 4259522985', 5, 60)],
    books: [p('BARNES & NOBLE #{S4}', 12, 60), p('KINDLE SVCS*{C6}', 3, 15), p('AUDIBLE*{C6}', 8, 25)],
    pets: [p('PETCO {S4}', 15, 90), p('PETSMART # {S4}', 18, 110), p('BANFIELD PET HOSP #{S4}', 60, 240)],
    convenience: [p('7-ELEVEN {S5}', 3, 22), p('CIRCLE K # {S5}', 4, 30), p('WAWA {S4}', 4, 20)],
    shipping: [p('USPS PO {N10}', 4, 32), p('THE UPS STORE {S4}', 9, 45), p('FEDEX OFFIC{S5}', 8, 50)],
    office: [p('STAPLES {S5}', 12, 140), p('OFFICE DEPOT #{S4}', 15, 160), p('AMZN Mktp US*{C6}', 15, 220)],
    fitness_dropin: [p('CLASSPASS*{C6}', 15, 35), p('SQ *RISE YOGA STUDIO', 20, 28)],
  },
  unlisted: [p('TST* SALT AND STRAW', 6, 24), p('SQ *MOONRISE STUDIO', 25, 80), p('PAYPAL *GADGETHUB', 15, 90), p('SQ *LITTLE WREN', 8, 40), p('NORTHWEST MAKERS COLL', 12, 75)],
  subscriptions: [
    { t: 'NETFLIX.COM 866-579-7172 CA', price: 15.49 }, { t: 'Spotify USA', price: 11.99 }, { t: 'HULU 877-8244858 CA', price: 17.99 },
    { t: 'DISNEY PLUS 888-905-7888 CA', price: 13.99 }, { t: 'GOOGLE *YouTubePremium g.co/helppay#', price: 13.99 },
    { t: 'APPLE.COM/BILL 866-712-7753 CA', price: 2.99 }, { t: 'GOOGLE *Google Storage', price: 2.99 }, { t: 'DROPBOX*{C8}', price: 11.99 },
    { t: 'PLANET FITNESS {S6}', price: 24.99 }, { t: 'EQUINOX #{S3}', price: 245 }, { t: 'NYTIMES*NYTIMES.COM', price: 17 },
    { t: 'AUDIBLE*{C6}', price: 14.95 }, { t: 'OPENAI *CHATGPT SUBSCR', price: 20 }, { t: 'PELOTON* MEMBERSHIP', price: 44 },
    { t: 'ADOBE *CREATIVE CLOUD', price: 22.99 }, { t: 'SIRIUSXM RADIO', price: 10.99 }, { t: 'XBOX GAME PASS MSBILL.INFO', price: 16.99 },
    { t: 'AMAZON PRIME*{C6}', price: 139, annual: true }, { t: 'MSFT * E0400{C6}', price: 99.99, annual: true },
    { t: 'COSTCO *ANNUAL RENEWAL', price: 65, annual: true }, { t: 'DUOLINGO*PLUS', price: 83.99, annual: true },
  ],
  businessSubscriptions: [
    { t: 'AWS EMEA AWS.AMAZON.CO', price: 214.37 }, { t: 'GOOGLE *GSUITE_{C6}', price: 72 }, { t: 'SLACK T{C8}', price: 43.75 },
    { t: 'ZOOM.US 888-799-9666', price: 15.99 }, { t: 'INTUIT *QBOOKS ONLINE', price: 90 }, { t: 'ADOBE *ACROPRO SUBS', price: 19.99 },
    { t: 'GITHUB, INC.', price: 21 }, { t: 'NOTION LABS, INC.', price: 32 }, { t: 'DOCUSIGN INC', price: 45 },
  ],
  electric: [p('PUGET SOUND ENERGY BILLPAY', 60, 210), p('PGANDE WEB ONLINE', 70, 240), p('CON ED OF NY INTELL CK', 55, 190), p('DUKE ENERGY PAYMENT', 80, 230), p('SEATTLE CITY LIGHT UTILITY', 45, 150), p('XCEL ENERGY-PSCO XCELENERGY', 55, 180)],
  water: [p('SEATTLE PUBLIC UTILI', 60, 140), p('AUSTIN WATER UTILITY', 40, 110), p('NYC WATER BOARD', 45, 120), p('DENVER WATER', 35, 100), p('SFPUC WATER PAYMENT', 50, 130)],
  internet: [p('COMCAST CABLE COMM', 65, 95), p('SPECTRUM {N6}', 60, 90), p('CENTURYLINK/LUMEN', 55, 75), p('ZIPLY FIBER', 50, 80), p('VERIZON FIOS', 70, 100)],
  phone: [p('VZWRLSS*APOCC VISB', 70, 140), p('AT&T*BILL PAYMENT', 65, 130), p('T-MOBILE*AUTO PAY', 60, 120), p('MINT MOBILE', 15, 30)],
  insurance: [p('GEICO *AUTO', 95, 210), p('PROGRESSIVE *INS {N8}', 90, 220), p('STATE FARM RO 27 SFPP', 100, 230), p('LEMONADE INSURANCE', 10, 25), p('ALLSTATE INS PREM', 85, 190)],
  rent: ['AVALONBAY COMM RENT PPD ID: {N10}', 'ESSEX PROPERTY TRUST RENT', 'BILT RENT {N6}', 'APPFOLIO RENT {LANDLORD}', 'RENTPAYMENT.COM {N8}', 'GREYSTAR RENT PMT WEB ID: {N10}'],
  mortgage: ['ROCKET MORTGAGE MTG PYMT', 'MR. COOPER MORTGAGE PMT'],
  payroll: [
    'PAYROLL {EMP} PPD ID: {N10}',
    '{EMP} DIRECT DEP PPD ID: {N10}',
    '{EMP} DES:PAYROLL ID:{N9} INDN:{NAME} CO ID:{N10} PPD',
    'ORIG CO NAME:{EMP} ORIG ID:{N10} DESC DATE:{YYMMDD} CO ENTRY DESCR:PAYROLL SEC:PPD TRACE#:{N15} EED:{YYMMDD} IND ID:{N8} IND NAME:{NAME}',
  ],
  employers: ['ACME CORP', 'GLOBEX INC', 'INITECH LLC', 'UMBRELLA CORP', 'HOOLI INC', 'STARK INDUSTRIES', 'WAYNE ENTERPRISES', 'CYBERDYNE SYS', 'VANDELAY INDUSTRIES', 'PIED PIPER INC', 'MASSIVE DYNAMIC', 'DUNDER MIFFLIN'],
  flights: [p('DELTA AIR {N13}', 180, 720), p('ALASKA AIR {N13}', 140, 520), p('UNITED AIRLINES {N13}', 190, 780), p('SOUTHWES {N10}', 120, 460), p('JETBLUE {N13}', 150, 560), p('AMERICAN AIRLINES {N10}', 190, 760)],
  hotels: [p('MARRIOTT {CITY}', 190, 330), p('HILTON HOTELS {CITY}', 170, 300), p('HYATT REGENCY {CITY}', 200, 340), p('AIRBNB * {C10}', 130, 260), p('HOTEL ZEPHYR {CITY}', 160, 290)],
  rentalCars: [p('HERTZ RENT-A-CAR {CITY}', 55, 95), p('ENTERPRISE RENT-A-CAR', 50, 90), p('NATIONAL CAR RENTAL', 55, 100)],
  sights: [p('MUSEUM OF POP CULTURE', 25, 60), p('SQ *CITY ZOO TICKETS', 20, 55), p('TICKETMASTER', 45, 180)],
  debitFormats: ['POS DEBIT {M}', 'CHECKCARD {MMDD} {M} {N15}', 'PURCHASE AUTHORIZED ON {MM/DD} {M} S{N15} CARD {MASK}', 'DEBIT CARD PURCHASE - {M}'],
  text: {
    toSavings: 'ONLINE TRANSFER TO SAV XXXXXX{MASK} REF #IB0{C8}',
    fromChecking: 'ONLINE TRANSFER FROM CHK XXXXXX{MASK} REF #IB0{C8}',
    toChecking: 'ONLINE TRANSFER TO CHK XXXXXX{MASK} REF #IB0{C8}',
    fromSavings: 'ONLINE TRANSFER FROM SAV XXXXXX{MASK} REF #IB0{C8}',
    cardPaymentChecking: '{BANK} CREDIT CRD AUTOPAY PPD ID: {N10}',
    cardPaymentCard: 'AUTOMATIC PAYMENT - THANK YOU',
    loanPaymentChecking: { auto: '{BANK} AUTO LN PMT XXXXXX{MASK}', student: '{BANK} STUDENT LN PMT XXXXXX{MASK}' },
    loanPaymentLoan: { auto: 'AUTO LOAN PAYMENT RECEIVED', student: 'STUDENT LOAN PAYMENT RECEIVED' },
    toBrokerage: 'ONLINE TRANSFER TO BROKERAGE XXXXXX{MASK}',
    toCrypto: 'ONLINE TRANSFER TO CRYPTO XXXXXX{MASK}',
    interest: 'INTEREST PAYMENT',
    atm: 'ATM WITHDRAWAL 00{N4} {MMDD} {N4} MAIN ST {CITY}',
    atmFee: 'NON-NETWORK ATM FEE',
    fxFee: 'FOREIGN TRANSACTION FEE',
    p2pOut: 'ZELLE PAYMENT TO {PEER} {N10}',
    p2pIn: 'ZELLE PAYMENT FROM {PEER} {N10}',
    taxRefund: 'IRS TREAS 310 TAX REF',
    taxPayment: 'IRS USATAXPYMT {N15}',
  },
  peers: ['JOHN SMITH', 'MARIA GARCIA', 'DAVID LEE', 'SARAH JOHNSON', 'KEVIN NGUYEN', 'EMILY CHEN', 'CHRIS BROWN', 'PRIYA PATEL'],
};

const CA: RegionPools = {
  ...US,
  currency: 'CAD',
  cities: ['TORONTO ON', 'VANCOUVER BC', 'MONTREAL QC', 'CALGARY AB', 'OTTAWA ON'],
  spend: {
    ...US.spend,
    groceries: [p('LOBLAWS #{S4}', 20, 190), p('NO FRILLS #{S4}', 15, 140), p('SOBEYS #{S4}', 20, 170), p('METRO PLUS {S3}', 15, 130), p('SAVE ON FOODS #{S4}', 20, 160), p('FRESHCO #{S4}', 15, 120)],
    superstore: [p('REAL CDN SUPERSTORE #{S4}', 25, 230), p('WAL-MART #{S4}', 10, 180), p('COSTCO WHOLESALE W{S3}', 60, 380), p('CANADIAN TIRE #{S3}', 15, 210)],
    online: [p('AMAZON.CA*{C6}', 10, 140), p('AMZN Mktp CA*{C6}', 8, 120), p('EBAY O*{N8}', 9, 120)],
    coffee: [p('TIM HORTONS #{S4}', 2.5, 11), p('STARBUCKS {S5}', 4.5, 14), p('SECOND CUP {S4}', 4, 12), p('SQ *PILOT COFFEE ROASTERS', 4, 13)],
    fastfood: [p("MCDONALD'S #{S5}", 6, 22), p("HARVEY'S {S4}", 8, 24), p('SUBWAY {S5}', 8, 22), p('A&W RESTAURANT {S4}', 8, 22)],
    fuel: [p('PETRO-CANADA {S5}', 30, 95), p('ESSO {S7}', 30, 90), p('SHELL C{S5}', 30, 95), p('HUSKY {S5}', 25, 80)],
    pharmacy: [p('SHOPPERS DRUG MART #{S4}', 8, 70), p('REXALL {S4}', 6, 50)],
    transit: [p('PRESTO FARE/{N8}', 3.3, 60), p('TTC {N6}', 3.3, 40), p('GO TRANSIT', 5, 25)],
    bars: [p('LCBO/RAO #{S4}', 15, 90), p('BC LIQUOR #{S3}', 15, 80), p('SQ *BELLWOODS BREWERY', 15, 60)],
    delivery: [p('SKIPTHEDISHES {N6}', 20, 55), p('UBER   *EATS HELP.UBER.COM', 20, 55), p('DOORDASH*CHIPOTLE', 18, 45)],
    pets: [p('PET VALU {S4}', 15, 90), p('PETSMART # {S4}', 18, 110)],
    convenience: [p('COUCHE TARD {S5}', 3, 22), p('7-ELEVEN {S5}', 3, 22)],
    shipping: [p('CANADA POST {N8}', 4, 32)],
  },
  unlisted: [p('SQ *KENSINGTON THRIFT', 8, 45), p('TST* BANH MI BOYS', 9, 22), p('PAYPAL *MAPLELEAFGOODS', 15, 90)],
  subscriptions: [
    { t: 'NETFLIX.COM 866-579-7172 ON', price: 16.49 }, { t: 'Spotify P{C8}', price: 10.99 }, { t: 'CRAVE {N8}', price: 19.99 },
    { t: 'DISNEY PLUS 888-905-7888 ON', price: 11.99 }, { t: 'APPLE.COM/BILL 866-712-7753 ON', price: 3.99 },
    { t: 'GOODLIFE FITNESS {S4}', price: 59.99 }, { t: 'GOOGLE *Google Storage', price: 3.19 }, { t: 'AUDIBLE*{C6}', price: 14.95 },
    { t: 'OPENAI *CHATGPT SUBSCR', price: 28 }, { t: 'AMAZON PRIME*{C6}', price: 99, annual: true },
  ],
  electric: [p('HYDRO ONE NETWORKS', 70, 210), p('TORONTO HYDRO', 60, 180), p('BC HYDRO', 45, 160), p('HYDRO-QUEBEC', 50, 190)],
  water: [p('CITY OF TORONTO WATER', 40, 110), p('ENBRIDGE GAS', 40, 180)],
  internet: [p('ROGERS *******{N4}', 75, 110), p('BELL CANADA {N10}', 70, 110), p('SHAW CABLESYSTEMS', 70, 105), p('VIDEOTRON LTEE', 65, 100)],
  phone: [p('ROGERS WIRELESS', 55, 110), p('TELUS MOBILITY', 55, 110), p('FIDO MOBILE', 45, 90), p('KOODO MOBILE', 40, 85)],
  insurance: [p('INTACT INSURANCE', 90, 210), p('TD INSURANCE', 85, 190)],
  rent: ['RENT {LANDLORD} PROPERTIES', 'PAYMENT {LANDLORD} PROPERTY MGMT'],
  mortgage: ['MORTGAGE PMT {BANK}'],
  payroll: ['PAYROLL DEP {EMP}', 'PAY/PAY {EMP}'],
  flights: [p('AIR CANADA {N13}', 180, 780), p('WESTJET {N10}', 150, 560)],
  hotels: [p('FAIRMONT HOTEL {CITY}', 220, 380), p('MARRIOTT {CITY}', 180, 320), p('AIRBNB * {C10}', 130, 260)],
  debitFormats: ['INTERAC PURCHASE - {M}', 'POS PURCHASE {M}', 'IDP PURCHASE - {M}'],
  text: {
    ...US.text,
    toSavings: 'TRANSFER TO SAVINGS {MASK}',
    fromChecking: 'TRANSFER FROM CHEQUING {MASK}',
    toChecking: 'TRANSFER TO CHEQUING {MASK}',
    fromSavings: 'TRANSFER FROM SAVINGS {MASK}',
    cardPaymentChecking: 'CREDIT CARD PAYMENT {BANK} VISA',
    cardPaymentCard: 'PAYMENT - THANK YOU',
    p2pOut: 'INTERAC ETRNSFR SENT {PEER}',
    p2pIn: 'INTERAC ETRNSFR RECEIVED {PEER}',
    atm: 'ATM WITHDRAWAL {N6} {CITY}',
    taxRefund: 'CANADA RIT {N8}',
    taxPayment: 'RECEIVER GENERAL TAX PAYMENT',
  },
};

const GB: RegionPools = {
  ...US,
  currency: 'GBP',
  cities: ['LONDON', 'MANCHESTER', 'BRISTOL', 'EDINBURGH', 'LEEDS'],
  spend: {
    groceries: [p('TESCO STORES {S4}', 8, 110), p("SAINSBURY'S S/MKT {CITY}", 8, 120), p('WAITROSE {S3}', 10, 130), p('ASDA STORES {S4}', 15, 140), p('LIDL GB {CITY}', 10, 80), p('CO-OP GROUP FOOD {S6}', 4, 35), p('OCADO', 60, 160)],
    superstore: [p('ASDA SUPERSTORE {S4}', 20, 150), p('COSTCO WHOLESALE UK', 60, 300)],
    online: [p('AMAZON.CO.UK*{C6}', 7, 120), p('AMZN Mktp UK*{C6}', 6, 95), p('EBAY O*{N8}', 8, 90), p('ETSY.COM*{C8}', 10, 60)],
    restaurant: [p('WAGAMAMA {CITY}', 18, 55), p("NANDO'S {CITY}", 15, 50), p('PIZZA EXPRESS {S4}', 20, 65), p('DISHOOM {CITY}', 25, 80), p('SQ *THE RED LION PUB', 15, 60), p('ZIZZI {CITY}', 20, 60)],
    fastfood: [p('GREGGS PLC {S4}', 3, 10), p("MCDONALD'S {S5}", 5, 16), p('LEON RESTAURANTS', 8, 18), p('FIVE GUYS {S4}', 10, 25)],
    coffee: [p('PRET A MANGER {CITY}', 3, 12), p('COSTA COFFEE {S5}', 3, 10), p('CAFFE NERO {S4}', 3, 9), p('STARBUCKS {S5}', 3.5, 10), p('SQ *MONMOUTH COFFEE', 3.5, 12)],
    delivery: [p('DELIVEROO', 15, 45), p('JUST EAT.CO.UK LTD', 15, 40), p('UBER   *EATS HELP.UBER.COM', 15, 45)],
    bars: [p('SQ *THE CROWN PUB', 8, 45), p('MAJESTIC WINE {S3}', 15, 80), p('SQ *BREWDOG BAR', 10, 50)],
    fuel: [p('SHELL {CITY}', 40, 90), p('BP {S6} {CITY}', 40, 85), p('ESSO {S6}', 38, 80)],
    rideshare: [p('UBER *TRIP HELP.UBER.COM', 8, 35), p('BOLT.EU/O/{N10}', 7, 30), p('FREENOW {N8}', 10, 40)],
    transit: [p('TFL TRAVEL CH', 2.8, 18), p('TRAINLINE.COM', 12, 95)],
    parking: [p('RINGGO {N8}', 2, 15), p('NCP LTD {CITY}', 6, 30)],
    pharmacy: [p('BOOTS {S4}', 4, 45), p('SUPERDRUG {S4}', 3, 30), p('HOLLAND & BARRETT', 6, 35)],
    clothing: [p('PRIMARK {CITY}', 10, 70), p('H&M {S4}', 12, 80), p('ZARA UK', 20, 120), p('ASOS.COM', 20, 110), p('NEXT RETAIL LTD', 20, 110)],
    electronics: [p('CURRYS {S4}', 15, 400), p('APPLE STORE R{S3}', 29, 399)],
    home: [p('IKEA LTD', 20, 250), p('B&Q {S4}', 10, 150), p('SCREWFIX DIRECT', 8, 90), p('DUNELM {S4}', 15, 120)],
    beauty: [p('SQ *BARBER & CO', 15, 35), p('BOOTS {S4}', 8, 40)],
    events: [p('ODEON CINEMAS', 9, 30), p('CINEWORLD {S4}', 9, 28), p('TICKETMASTER UK', 35, 180)],
    books: [p('WATERSTONES {S3}', 8, 40), p('KINDLE SVCS*{C6}', 3, 12)],
    pets: [p('PETS AT HOME {S4}', 10, 70)],
    convenience: [p('SPAR {CITY}', 3, 20), p('CO-OP GROUP FOOD {S6}', 3, 25)],
    shipping: [p('ROYAL MAIL {N8}', 2, 15), p('POST OFFICE COUNTER', 3, 25)],
    office: [p('AMAZON.CO.UK*{C6}', 10, 150)],
    fitness_dropin: [p('CLASSPASS*{C6}', 12, 30)],
  },
  unlisted: [p('SQ *HONEST JONS', 8, 40), p('SUMUP *BOROUGH STALL', 4, 18), p('PAYPAL *TEESHIRTSUK', 12, 40)],
  subscriptions: [
    { t: 'NETFLIX.COM', price: 10.99 }, { t: 'Spotify UK', price: 11.99 }, { t: 'DISNEY PLUS', price: 7.99 }, { t: 'PUREGYM LTD', price: 24.99 },
    { t: 'APPLE.COM/BILL', price: 2.99 }, { t: 'GOOGLE *Google Storage', price: 1.59 }, { t: 'NOW TV', price: 9.99 },
    { t: 'AUDIBLE UK*{C6}', price: 7.99 }, { t: 'OPENAI *CHATGPT SUBSCR', price: 20 }, { t: 'AMAZON PRIME*{C6}', price: 95, annual: true },
  ],
  electric: [p('BRITISH GAS DD', 60, 190), p('OCTOPUS ENERGY DD', 55, 170), p('EDF ENERGY DD', 55, 180), p('OVO ENERGY DD', 50, 160)],
  water: [p('THAMES WATER DD', 30, 55), p('SEVERN TRENT WATER DD', 28, 50), p('UNITED UTILITIES DD', 28, 52)],
  internet: [p('VIRGIN MEDIA DD', 35, 75), p('BT GROUP PLC DD', 30, 65), p('SKY DIGITAL DD', 25, 70)],
  phone: [p('VODAFONE LTD DD', 15, 45), p('EE LIMITED DD', 18, 50), p('O2 UK DD', 15, 40), p('GIFFGAFF', 8, 20)],
  insurance: [p('ADMIRAL INSURANCE DD', 35, 90), p('AVIVA INSURANCE DD', 20, 60), p('DIRECT LINE DD', 30, 80)],
  rent: ['FOXTONS LETTINGS RENT', '{LANDLORD} LETTINGS RENT'],
  mortgage: ['NATIONWIDE MORTGAGE DD'],
  payroll: ['{EMP} SALARY BGC', 'BGC {EMP} SALARY'],
  employers: ['ACME UK LTD', 'GLOBEX UK LTD', 'INITECH LTD', 'UMBRELLA PLC', 'HOOLI UK LTD', 'WAYNE UK LTD'],
  flights: [p('BRITISH AIRWAYS {N10}', 90, 520), p('EASYJET {C8}', 40, 180), p('RYANAIR {C6}', 30, 150)],
  hotels: [p('PREMIER INN {CITY}', 70, 140), p('TRAVELODGE {CITY}', 55, 110), p('AIRBNB * {C10}', 90, 200)],
  rentalCars: [p('EUROPCAR UK', 40, 80), p('SIXT {CITY}', 45, 90)],
  sights: [p('BRITISH MUSEUM', 10, 30), p('HRP TOWER TICKETS', 30, 60)],
  debitFormats: ['CARD PAYMENT TO {M}', 'CONTACTLESS {M}', '{M}'],
  text: {
    ...US.text,
    toSavings: 'TRANSFER TO EASY SAVER {MASK}',
    fromChecking: 'TRANSFER FROM CURRENT A/C {MASK}',
    toChecking: 'TRANSFER TO CURRENT A/C {MASK}',
    fromSavings: 'TRANSFER FROM EASY SAVER {MASK}',
    cardPaymentChecking: '{BANK} CREDIT CARD PAYMENT DD',
    cardPaymentCard: 'PAYMENT RECEIVED - THANK YOU',
    toBrokerage: 'TRANSFER TO BROKERAGE {MASK}',
    toCrypto: 'TRANSFER TO CRYPTO {MASK}',
    interest: 'INTEREST PAID',
    atm: 'CASH WITHDRAWAL {CITY} {MM/DD}',
    atmFee: 'ATM FEE NON STERLING',
    fxFee: 'NON-STERLING TRANSACTION FEE',
    p2pOut: 'FASTER PAYMENT TO {PEER}',
    p2pIn: 'FASTER PAYMENT FROM {PEER}',
    taxRefund: 'HMRC REFUND',
    taxPayment: 'HMRC SELF ASSESSMENT',
  },
  peers: ['J SMITH', 'A PATEL', 'R JONES', 'E WILLIAMS', 'T BROWN', 'S TAYLOR'],
};

const DE: RegionPools = {
  ...GB,
  currency: 'EUR',
  cities: ['BERLIN', 'MUENCHEN', 'HAMBURG', 'KOELN', 'FRANKFURT'],
  spend: {
    ...GB.spend,
    groceries: [p('REWE MARKT GMBH {CITY}', 8, 110), p('EDEKA {CITY}', 8, 95), p('LIDL DIENSTL {S4}', 8, 80), p('ALDI SUED {S4}', 8, 85), p('NETTO MARKEN-DISCOU', 6, 60), p('PENNY MARKT {S4}', 6, 55)],
    superstore: [p('KAUFLAND {CITY}', 15, 140)],
    online: [p('AMAZON.DE*{C6}', 7, 120), p('AMZN Mktp DE*{C6}', 6, 95), p('ZALANDO SE', 25, 140), p('OTTO GMBH', 20, 160)],
    restaurant: [p('SQ *TRATTORIA DA MARIO', 20, 70), p('WIRTSHAUS ZUM LOEWEN', 18, 65), p('SUSHI YOKO {CITY}', 20, 60), p('VAPIANO {S3}', 12, 35)],
    fastfood: [p("MCDONALD'S {S5}", 5, 16), p('BURGER KING {S5}', 6, 18), p('DONER KEBAB {CITY}', 5, 12)],
    coffee: [p('TCHIBO {S4}', 3, 12), p('STARBUCKS {S5}', 3.5, 10), p('SQ *BONANZA COFFEE', 3, 9)],
    delivery: [p('LIEFERANDO.DE', 15, 45), p('WOLT', 15, 40)],
    bars: [p('SQ *BIERGARTEN AM SEE', 8, 45)],
    fuel: [p('ARAL STATION {S6}', 40, 95), p('SHELL {S6} {CITY}', 40, 90), p('TOTALENERGIES {S5}', 38, 85)],
    transit: [p('BVG TICKET', 3, 49), p('MVG AUTOMAT', 3, 49), p('DB VERTRIEB GMBH', 15, 120)],
    parking: [p('PARKHAUS {CITY}', 3, 20)],
    pharmacy: [p('DM DROGERIE MARKT', 4, 40), p('ROSSMANN {S4}', 4, 35), p('APOTHEKE AM MARKT', 5, 40)],
    clothing: [p('H&M {S4}', 12, 80), p('ZARA {CITY}', 20, 120), p('ZALANDO SE', 25, 140)],
    electronics: [p('MEDIAMARKT {S4}', 15, 400)],
    home: [p('IKEA DEUTSCHLAND', 20, 250), p('BAUHAUS {S4}', 10, 150), p('OBI MARKT {S4}', 10, 140)],
    books: [p('THALIA {S4}', 8, 40)],
    shipping: [p('DEUTSCHE POST {N8}', 2, 15)],
  },
  unlisted: [p('SUMUP *KIEZ LADEN', 4, 25), p('PAYPAL *HANDWERKSTUECK', 12, 60)],
  subscriptions: [
    { t: 'NETFLIX.COM', price: 13.99 }, { t: 'Spotify P{C8}', price: 10.99 }, { t: 'DISNEY PLUS', price: 9.99 }, { t: 'APPLE.COM/BILL', price: 2.99 },
    { t: 'GOOGLE *Google Storage', price: 1.99 }, { t: 'DAZN', price: 29.99 }, { t: 'AMAZON PRIME*{C6}', price: 89.9, annual: true },
  ],
  electric: [p('VATTENFALL EUROPE SALES', 45, 140), p('STADTWERKE {CITY}', 50, 150), p('ENBW ENERGIE', 45, 130)],
  water: [p('BERLINER WASSERBETRIEBE', 25, 60)],
  internet: [p('VODAFONE KABEL DEUTSCHLAND', 30, 50), p('TELEKOM DEUTSCHLAND GMBH', 35, 55)],
  phone: [p('TELEKOM DEUTSCHLAND GMBH', 15, 45), p('VODAFONE GMBH', 15, 40)],
  insurance: [p('ALLIANZ VERSICHERUNG', 25, 90)],
  rent: ['MIETE {LANDLORD} HAUSVERWALTUNG', 'SEPA-LASTSCHRIFT MIETE {LANDLORD}'],
  mortgage: ['DARLEHEN RATE HOME LOAN'],
  payroll: ['LOHN/GEHALT {EMP} GMBH', 'GEHALT {EMP}'],
  employers: ['ACME GMBH', 'GLOBEX AG', 'INITECH GMBH', 'UMBRELLA AG'],
  flights: [p('LUFTHANSA {N10}', 90, 520), p('EASYJET {C8}', 40, 180), p('RYANAIR {C6}', 30, 150)],
  hotels: [p('MOTEL ONE {CITY}', 70, 140), p('NOVOTEL {CITY}', 90, 170), p('AIRBNB * {C10}', 90, 200)],
  rentalCars: [p('SIXT {CITY}', 45, 90), p('EUROPCAR {CITY}', 45, 90)],
  sights: [p('MUSEUMSINSEL MUSEUM', 10, 25)],
  debitFormats: ['KARTENZAHLUNG {M}', 'GIROCARD {M}', 'SEPA-LASTSCHRIFT {M}'],
  text: {
    ...GB.text,
    toSavings: 'UMBUCHUNG AUF SPARKONTO {MASK}',
    fromChecking: 'UMBUCHUNG VON GIROKONTO {MASK}',
    toChecking: 'UMBUCHUNG AUF GIROKONTO {MASK}',
    fromSavings: 'UMBUCHUNG VON SPARKONTO {MASK}',
    cardPaymentChecking: '{BANK} KREDITKARTE CREDIT CARD PAYMENT',
    cardPaymentCard: 'PAYMENT THANK YOU',
    interest: 'ZINSEN HABENZINSEN',
    atm: 'BARGELDAUSZAHLUNG GELDAUTOMAT {CITY}',
    atmFee: 'ATM FEE FREMDAUTOMAT',
    fxFee: 'FOREIGN TRANSACTION FEE',
    p2pOut: 'UEBERWEISUNG AN {PEER}',
    p2pIn: 'UEBERWEISUNG VON {PEER}',
    taxRefund: 'FINANZAMT ERSTATTUNG',
    taxPayment: null,
  },
  peers: ['M MUELLER', 'A SCHMIDT', 'L WEBER', 'J FISCHER'],
};

const FR: RegionPools = {
  ...DE,
  cities: ['PARIS', 'LYON', 'MARSEILLE', 'BORDEAUX', 'NICE'],
  spend: {
    ...DE.spend,
    groceries: [p('CARREFOUR CITY {CITY}', 6, 90), p('MONOPRIX {CITY}', 8, 110), p('FRANPRIX {S4}', 5, 60), p('E.LECLERC {CITY}', 20, 160), p('PICARD SURGELES', 10, 70), p('INTERMARCHE {CITY}', 15, 120)],
    superstore: [p('AUCHAN {CITY}', 20, 170)],
    online: [p('AMAZON.FR*{C6}', 7, 120), p('AMZN Mktp FR*{C6}', 6, 95), p('CDISCOUNT', 15, 160)],
    restaurant: [p('BRASSERIE LIPP {CITY}', 25, 80), p('SQ *LE PETIT BISTRO', 20, 70), p('CREPERIE DU MARCHE', 12, 35), p('SUSHI SHOP {S3}', 18, 50)],
    fastfood: [p("MCDONALD'S {S5}", 6, 18), p('BURGER KING {S5}', 6, 18)],
    coffee: [p('CAFE DE FLORE {CITY}', 4, 14), p('STARBUCKS {S5}', 4, 10), p('BOULANGERIE PAUL {S3}', 3, 12)],
    delivery: [p('DELIVEROO', 15, 45), p('UBER   *EATS HELP.UBER.COM', 15, 45)],
    bars: [p('SQ *LE COMPTOIR BAR', 8, 40)],
    fuel: [p('TOTALENERGIES {S5}', 40, 95), p('ESSO {S6}', 38, 85)],
    transit: [p('RATP {N8}', 2.1, 30), p('SNCF INTERNET', 20, 140)],
    parking: [p('STATIONNEMENT {CITY}', 2, 18)],
    pharmacy: [p('PHARMACIE DU CENTRE', 5, 40)],
    electronics: [p('FNAC {CITY}', 15, 400)],
    home: [p('LEROY MERLIN {S3}', 10, 160), p('CASTORAMA {S3}', 10, 140), p('IKEA FRANCE', 20, 250)],
    books: [p('LIBRAIRIE GALLIMARD', 8, 40)],
    shipping: [p('LA POSTE {N8}', 2, 15)],
  },
  unlisted: [p('SUMUP *LES PUCES', 5, 40), p('PAYPAL *ATELIERMARIE', 12, 60)],
  subscriptions: [
    { t: 'NETFLIX.COM', price: 13.49 }, { t: 'Spotify P{C8}', price: 10.99 }, { t: 'CANAL+ {N8}', price: 24.99 }, { t: 'DEEZER', price: 11.99 },
    { t: 'APPLE.COM/BILL', price: 2.99 }, { t: 'GOOGLE *Google Storage', price: 1.99 }, { t: 'AMAZON PRIME*{C6}', price: 69.9, annual: true },
  ],
  electric: [p('PRLV SEPA EDF CLIENTS PARTICULIERS', 40, 140), p('PRLV SEPA ENGIE', 40, 130)],
  water: [p('PRLV SEPA EAU DE PARIS', 20, 45), p('PRLV SEPA VEOLIA EAU', 20, 50)],
  internet: [p('PRLV SEPA FREE TELECOM', 30, 45), p('PRLV SEPA SFR FIXE', 30, 50)],
  phone: [p('PRLV SEPA FREE MOBILE', 10, 20), p('PRLV SEPA ORANGE SA', 15, 40), p('PRLV SEPA BOUYGUES TELECOM', 15, 35)],
  insurance: [p('PRLV SEPA AXA FRANCE IARD', 20, 80), p('PRLV SEPA ALLIANZ IARD', 20, 75)],
  rent: ['PRLV SEPA LOYER {LANDLORD}', 'PRLV SEPA LOYER AGENCE {LANDLORD}'],
  mortgage: ['PRLV SEPA PRET IMMOBILIER HOME LOAN'],
  payroll: ['VIR SALAIRE {EMP}', 'VIREMENT SALAIRE {EMP}'],
  employers: ['ACME SAS', 'GLOBEX SA', 'INITECH SARL', 'UMBRELLA SA'],
  flights: [p('AIR FRANCE {N10}', 90, 520), p('EASYJET {C8}', 40, 180)],
  hotels: [p('HOTEL IBIS {CITY}', 70, 130), p('NOVOTEL {CITY}', 90, 170), p('AIRBNB * {C10}', 90, 200)],
  sights: [p('MUSEE DU LOUVRE', 17, 40), p('MUSEE D ORSAY', 14, 30)],
  debitFormats: ['CB {M} {MM/DD}', 'PAIEMENT CB {M}'],
  text: {
    ...DE.text,
    toSavings: 'VIR SEPA VERS LIVRET A {MASK}',
    fromChecking: 'VIR SEPA DEPUIS COMPTE COURANT {MASK}',
    toChecking: 'VIR SEPA VERS COMPTE COURANT {MASK}',
    fromSavings: 'VIR SEPA DEPUIS LIVRET {MASK}',
    cardPaymentChecking: '{BANK} CREDIT CARD PAYMENT',
    interest: 'INTERETS CREDITEURS',
    atm: 'RETRAIT DAB {CITY} {MM/DD}',
    atmFee: 'ATM FEE RETRAIT HORS RESEAU',
    p2pOut: 'VIR INST VERS {PEER}',
    p2pIn: 'VIR INST DE {PEER}',
    taxRefund: 'DGFIP REMBOURSEMENT IMPOT',
    taxPayment: null,
  },
  peers: ['M DUPONT', 'C MARTIN', 'L BERNARD', 'S PETIT'],
};

export const REGIONS: Record<RegionCode, RegionPools> = { US, CA, GB, DE, FR };

/** The region whose merchants and formats a login sees, by the institution's first country. */
export function regionOf(country: string): RegionCode {
  switch (country) {
    case 'US': return 'US';
    case 'CA': return 'CA';
    case 'GB': case 'IE': return 'GB';
    case 'DE': case 'AT': case 'CH': case 'NL': case 'PL': case 'SE': case 'DK': case 'NO': case 'FI': return 'DE';
    case 'FR': case 'BE': case 'ES': case 'IT': case 'PT': case 'LU': return 'FR';
    default: return 'US';
  }
}

const EURO = new Set(['DE', 'AT', 'FR', 'BE', 'ES', 'IT', 'PT', 'NL', 'IE', 'FI', 'LU']);
const OTHER_CURRENCIES: Record<string, string> = {
  US: 'USD', CA: 'CAD', GB: 'GBP', CH: 'CHF', SE: 'SEK', DK: 'DKK', NO: 'NOK', PL: 'PLN', AU: 'AUD', NZ: 'NZD', MX: 'MXN', BR: 'BRL',
};
/** ISO 4217 currency of an institution country. */
export function currencyOf(country: string): string {
  return EURO.has(country) ? 'EUR' : (OTHER_CURRENCIES[country] ?? 'USD');
}

/** Fixed reference rates: units of USD per unit of the currency (sandbox only, never live). */
export const USD_PER_UNIT: Record<string, number> = {
  USD: 1, EUR: 1.08, GBP: 1.27, CAD: 0.74, CHF: 1.12, SEK: 0.095, DKK: 0.145, NOK: 0.093, PLN: 0.25, AUD: 0.66, NZD: 0.6, MXN: 0.055, BRL: 0.19,
};

/** Cents of one currency in another at the fixed sandbox rates, as the generator books card activity abroad. */
export function convertCents(cents: number, from: string, to: string): number {
  if (from === to) return cents;
  return Math.round((cents * (USD_PER_UNIT[from] ?? 1)) / (USD_PER_UNIT[to] ?? 1));
}

/** Foreign trip destinations per home region: where, in which currency, whose merchants. */
export const FOREIGN_DESTINATIONS: Record<RegionCode, Array<{ city: string; currency: string; region: RegionCode }>> = {
  US: [{ city: 'PARIS FR', currency: 'EUR', region: 'FR' }, { city: 'LONDON GB', currency: 'GBP', region: 'GB' }, { city: 'BERLIN DE', currency: 'EUR', region: 'DE' }, { city: 'TORONTO ON', currency: 'CAD', region: 'CA' }],
  CA: [{ city: 'NEW YORK NY', currency: 'USD', region: 'US' }, { city: 'PARIS FR', currency: 'EUR', region: 'FR' }, { city: 'LONDON GB', currency: 'GBP', region: 'GB' }],
  GB: [{ city: 'PARIS FR', currency: 'EUR', region: 'FR' }, { city: 'BERLIN DE', currency: 'EUR', region: 'DE' }, { city: 'NEW YORK NY', currency: 'USD', region: 'US' }],
  DE: [{ city: 'LONDON GB', currency: 'GBP', region: 'GB' }, { city: 'NEW YORK NY', currency: 'USD', region: 'US' }],
  FR: [{ city: 'LONDON GB', currency: 'GBP', region: 'GB' }, { city: 'NEW YORK NY', currency: 'USD', region: 'US' }, { city: 'TORONTO ON', currency: 'CAD', region: 'CA' }],
};
