// The descriptor rule table behind enrichDescriptor (./rules): 526 rules in four precedence tiers.
// Data only: ./rules normalizes and compiles it once at module load and throws if a rule names a
// category missing from ../taxonomy, a pattern is empty or a group's brand is unnamed.
//
// A rule is one decision: a set of patterns that all lead to the same category_detailed (and the same
// options) in one tier. Three shapes:
//   keyword rule   [phrases, merchant_name | null, category_detailed, options?]   one keyword class
//   merchant rule  [patterns, merchant_name, category_detailed, options?]         one brand and its aliases
//   group rule     group(label, category_detailed, options, [[patterns, merchant_name], ...])
//                  brands that share category and options: one company's brands (Marriott: Courtyard,
//                  Sheraton, Westin ...) or a peer group (UK supermarkets, EV charging networks). Each
//                  brand keeps its own merchant_name; the group is one rule.
// Adding a brand is one line: an alias of an existing rule, a line in the group it belongs to, or a
// merchant rule of its own. The spec fixes the engine at 526 rules (asserted in
// test/unit/enrichment-rules.test.ts), so a rule of its own means changing that number with the spec.
//
// Patterns are written as a bank prints them; compilation runs them through the same character
// normalization as descriptors (upper case, accents folded, apostrophes and `&` dropped, other
// punctuation turned into spaces), so "MCDONALD'S", "7-ELEVEN" and "AT&T" can be written as is. `|`
// separates alternatives. A merchant pattern starting with `^` matches only at the start of the
// descriptor, never at a later word (brands that are also common words: ^SHELL, ^TARGET, ^GAP).
//
// Tiers, in precedence order (see ./rules for the full algorithm):
//   A  PRIORITY_KEYWORDS  whole-word phrases anywhere in the descriptor: bank fees, income, card and
//                         loan payments, cash, transfers. Sign-aware. First rule that matches wins.
//   B  MERCHANTS          a merchant pattern at the start of the cleaned descriptor (longest pattern
//                         wins, then table order); tolerant of bank truncation.
//   C  MERCHANTS          the same patterns at a later word (leftmost wins), except `^` patterns.
//   D  GENERIC_KEYWORDS   category words such as PIZZA, PHARMACY or HOTEL; the merchant name is the
//                         cleaned descriptor. A phrase that contains another one's words wins (ANIMAL
//                         HOSPITAL over HOSPITAL); otherwise the first rule in table order.
//   E  FALLBACK_KEYWORDS  weak words (bare WATER or ELECTRIC, CITY OF, TRANSFER, FEE), only when no
//                         tier-D word matched. First rule that matches wins.
//
// Categories are for an outflow (positive amount). For an inflow (negative amount) a rule's `in`
// applies; without one, spending categories become income_refunds and the rest keep their category.
import type { PaymentChannel } from '../../contracts/schemas';

/** How the payment was made: the contract's payment channel. */
export type Channel = PaymentChannel;

export interface RuleOptions {
  /** Detailed category for an inflow (amount < 0). */
  in?: string;
  /** Payment channel; when absent it follows the category and the look of the descriptor. */
  ch?: Channel;
  /** Keyword rows: apply only to inflows (`in`, amount < 0) or outflows (`out`, amount > 0). */
  sign?: 'in' | 'out';
  /**
   * Keyword rows: where merchant_name comes from. `merchant`: a merchant rule matching the same
   * descriptor (refunds); `rest`: the descriptor words around the keyword (employer on payroll);
   * `none`: null. Default: the row's merchant for tier A, the cleaned descriptor for tier D.
   */
  name?: 'merchant' | 'rest' | 'none';
}

/** One brand: [patterns, merchant_name, category_detailed, options?] */
export type MerchantRow = readonly [string, string, string, RuleOptions?];
/** Brands that share a category and options; each keeps its merchant_name. */
export interface MerchantGroup {
  readonly group: string;
  readonly category: string;
  readonly opts: RuleOptions;
  readonly brands: ReadonlyArray<readonly [patterns: string, merchant_name: string]>;
}
export type MerchantRule = MerchantRow | MerchantGroup;
/** [phrases, merchant_name or null, category_detailed, options?] */
export type KeywordRow = readonly [string, string | null, string, RuleOptions?];

const group = (label: string, category: string, opts: RuleOptions, brands: MerchantGroup['brands']): MerchantGroup => ({ group: label, category, opts, brands });

/**
 * Bumped whenever a rule's outcome changes. 2026.07.2: 979 rows consolidated into 526 rules (group
 * rules, `^` start-only patterns). 2026.07.3: statement abbreviations, plurals and cut-off category
 * words; more bank lead-ins; credit-union, FR/DE/IT/ES fee, interest, transfer and ATM phrasing;
 * fuel and toll departments; `.io` addresses; cuisine words as a fallback.
 */
export const RULES_VERSION = '2026.07.3';

// ---------------------------------------------------------------------------------------------
// Tier A: priority keywords. Order matters: the first row whose phrase occurs (and whose sign
// condition holds) wins, so specific phrases sit above general ones.
// ---------------------------------------------------------------------------------------------
export const PRIORITY_KEYWORDS: readonly KeywordRow[] = [
  // fees first: "ATM FEE" must not read as a withdrawal, "WIRE FEE" not as a wire
  ['ATM FEE|ATM SURCHARGE|NON NETWORK ATM|ATM WITHDRAWAL FEE|FOREIGN ATM FEE|OUT OF NETWORK ATM', null, 'bank_fees_atm', { sign: 'out' }],
  ['FOREIGN TRANSACTION FEE|FRAIS HORS ZONE|COMMISSION HORS ZONE|HORS ZONE EURO|FOREIGN TRANS FEE|FOREIGN TXN FEE|INTL TRANSACTION FEE|INTERNATIONAL TRANSACTION FEE|FOREIGN EXCHANGE FEE|FX FEE|NON STERLING TRANSACTION FEE|CROSS BORDER FEE', null, 'bank_fees_foreign_transaction'],
  ['OVERDRAFT|OD FEE|NSF FEE|NSF|INSUFFICIENT FUNDS|RETURNED ITEM FEE|RETURN ITEM FEE|UNPAID ITEM FEE|COMMISSION INTERVENTION|COMMISSION D INTERVENTION|COMMISSIONS D INTERVENTION', null, 'bank_fees_overdraft', { sign: 'out' }],
  ['LATE FEE|LATE PAYMENT FEE|LATE CHARGE', null, 'bank_fees_late_payment', { sign: 'out' }],
  ['INTEREST CHARGE|INTEREST CHARGED|PURCHASE INTEREST|CASH ADVANCE INTEREST|FINANCE CHARGE|INTEREST CHARGE ON PURCHASES|AGIOS|INTERETS DEBITEURS|SOLLZINSEN|UEBERZIEHUNGSZINSEN|INTERESES DEUDORES|INTERESSI PASSIVI|INTERESSI DEBITORI', null, 'bank_fees_interest_charge', { sign: 'out' }],
  ['MONTHLY SERVICE FEE|MONTHLY MAINTENANCE FEE|MAINTENANCE FEE|SERVICE CHARGE|ACCOUNT FEE|ANNUAL FEE|ANNUAL MEMBERSHIP FEE|WIRE FEE|WIRE TRANSFER FEE|PAPER STATEMENT FEE|CASH ADVANCE FEE|STOP PAYMENT FEE|MONTHLY FEE|MAINTENANCE CHARGE|ACCOUNT MAINTENANCE|STATEMENT FEE|EXCESS WITHDRAWAL|EXCESSIVE WITHDRAWAL|KONTOFUEHRUNG|KONTOFUHRUNG|KONTOFUEHRUNGSGEBUEHR|KONTOFUHRUNGSGEBUHR|KONTOFUEHRUNGSENTGELT|KONTOFUHRUNGSENTGELT|ENTGELT KONTOFUEHRUNG|KONTOGEBUEHR|KONTOGEBUHR|KARTENGEBUEHR|JAHRESGEBUEHR|FRAIS BANCAIRES|COTISATIONS BANCAIRES|COTISATION BANCAIRE|COTISATION CARTE|COTIS CARTE|FRAIS CARTE|FRAIS TENUE DE COMPTE|FRAIS DE TENUE DE COMPTE|FRAIS DE GESTION|SPESE TENUTA CONTO|SPESE CONTO|CANONE MENSILE|CANONE CONTO|COMMISSIONI|COMMISSIONE|COMISION MANTENIMIENTO|COMISION|COMISIONES|CUOTA MANTENIMIENTO|CUOTA TARJETA', null, 'bank_fees_other', { sign: 'out' }],
  ['FEE REVERSAL|FEE REFUND|FEE REBATE', null, 'income_refunds', { sign: 'in' }],

  // income
  ['PAYROLL|PAYRL|DIRECT DEP|DIRECT DEPOSIT|DIR DEP|DIRDEP|SALARY|PAYCHECK|NET PAY|WAGES|SALAIRE|GEHALT|LOHN|PAY PAY', null, 'income_wages', { sign: 'in', name: 'rest', ch: 'other' }],
  ['IRS TREAS|TAX REF|TAX REFUND|TAXRFD|STATE TAX REFUND|HMRC REFUND|CANADA RIT|CRA TAX REFUND|FINANZAMT ERSTATTUNG|STEUERERSTATTUNG|REMBOURSEMENT IMPOT|DGFIP REMBOURSEMENT', null, 'income_tax_refund', { sign: 'in', ch: 'other', name: 'merchant' }],
  ['SSA TREAS|SOC SEC|SOCIAL SECURITY|UNEMPLOYMENT|UI BENEFIT|EDD UI|DWP|CHILD BENEFIT|CAF|VA BENEFIT', null, 'income_benefits', { sign: 'in', ch: 'other' }],
  ['PENSION|ANNUITY|RETIREMENT DIST|RENTE', null, 'income_retirement', { sign: 'in', ch: 'other' }],
  ['INTEREST PAYMENT|INTEREST PAID|INTEREST EARNED|INTEREST CREDIT|INT PAYMENT|INT EARNED|INT PAID|INT PD|INTEREST|BANK INTEREST|INTEREST ON CASH|ZINSEN|HABENZINSEN|ZINSGUTSCHRIFT|INTERETS|INTERETS CREDITEURS|INTERESES|INTERESSI|INTERESSI ATTIVI', null, 'income_interest', { sign: 'in', ch: 'other' }],
  ['DIVIDEND|DIVIDENDS|QUALIFIED DIVIDEND|ORDINARY DIVIDEND|DIV RECEIVED|CAP GAIN DISTRIBUTION', null, 'income_dividends', { sign: 'in', ch: 'other' }],
  ['STAKING REWARD|STAKING INCOME|REWARD PAYOUT|LEARNING REWARD', null, 'income_other', { sign: 'in', ch: 'other' }],
  ['CASHBACK|CASH BACK REWARD|REWARDS REDEMPTION|REWARD REDEMPTION|STATEMENT CREDIT', null, 'income_refunds', { sign: 'in', ch: 'other' }],
  ['REFUND|RETURN|CREDIT VOUCHER|REVERSAL|CHARGEBACK|MERCHANT CREDIT|PURCHASE RETURN|REMBOURSEMENT|ERSTATTUNG|GUTSCHRIFT', null, 'income_refunds', { sign: 'in', name: 'merchant' }],

  // payments to cards and loans (before transfers: "ONLINE TRANSFER TO CARD" is a card payment)
  ['AUTO LOAN|AUTO LN|CAR LOAN|VEHICLE LOAN|CAR PAYMENT|AUTO FINANCE', null, 'loan_payments_auto_loan', { ch: 'other' }],
  ['STUDENT LOAN|STUDENT LN|STUDENTLN|STUDNT LOAN|DEPT EDUCATION|DEPT OF EDUCATION|STUDENT LOANS COMPANY', null, 'loan_payments_student_loan', { ch: 'other' }],
  ['MORTGAGE|MTG PMT|MTG PYMT|MORTGAGE PMT|HOME LOAN|HOME MTG|HELOC', null, 'loan_payments_mortgage', { ch: 'other' }],
  ['CRD AUTOPAY|CARD AUTOPAY|CREDIT CARD PAYMENT|CREDIT CARD PMT|CREDIT CRD|CRCARDPMT|CC PAYMENT|CC PMT|CARD PMT|PAYMENT TO CREDIT CARD|TRANSFER TO CARD|TRANSFER TO CREDIT CARD|PAYMENT THANK YOU|PAYMENT THANKYOU|AUTOMATIC PAYMENT THANK|AUTOPAY PAYMENT|PAYMENT RECEIVED THANK|MOBILE PAYMENT THANK|ONLINE PAYMENT THANK|INTERNET PAYMENT THANK|EPAYMENT THANK|CREDIT CARD AUTO PAY|CREDIT CARD AUTOPAY|CARD AUTO PAY|CC AUTOPAY|CC AUTO PAY|CARD EPAY|CARD EPAYMENT|CC EPAY|CARDMEMBER SERV|CARDMEMBER SERVICE|CARDMEMBER SERVICES|CARD SERVICES', null, 'loan_payments_credit_card', { ch: 'transfer' }],
  ['LOAN PMT|LOAN PAYMENT|LN PMT|LOAN PYMT|PERSONAL LOAN|INSTALLMENT LOAN|LOAN PAYMENT RECEIVED|TO LOAN|TRANSFER TO LOAN', null, 'loan_payments_personal_loan', { ch: 'other' }],
  ['LOAN PROCEEDS|LOAN DISBURSEMENT|LOAN DISB|LOAN FUNDING|LOAN ADVANCE|FROM LOAN|CASH ADVANCE|EARNED WAGE ADVANCE', null, 'transfer_in_loan_proceeds', { sign: 'in', ch: 'transfer' }],

  // cash
  ['ATM DEPOSIT|MOBILE DEPOSIT|REMOTE DEPOSIT|CHECK DEPOSIT|CHEQUE DEPOSIT|BRANCH DEPOSIT|COUNTER DEPOSIT|CASH DEPOSIT|EDEPOSIT', null, 'transfer_in_deposit', { sign: 'in', ch: 'transfer' }],
  ['ATM WITHDRAWAL|ATM WD|ATM CASH|CASH WITHDRAWAL|WITHDRAWAL ATM|ATM W D|ATM|CASH WDL|CASHPOINT|CASH MACHINE|GELDAUTOMAT|GELDAUTOMAAT|GELDOPNAME|BARGELDAUSZAHLUNG|GA AUSZAHLUNG|AUSZAHLUNG GA|AUSZAHLUNG GELDAUTOMAT|BANKOMAT|BANCOMAT|PRELIEVO|PRELEVAMENTO CONTANTI|RETRAIT DAB|RET DAB|DAB|RETRAIT|RETRAIT ESPECES|CAJERO|CAJERO AUTOMATICO|RETIRADA EFECTIVO|RETIRADA CAJERO|RETIRO CAJERO|RETIRO EFECTIVO|DISPOSICION EFECTIVO', null, 'transfer_out_cash_withdrawal', { sign: 'out', ch: 'transfer' }],

  // transfers between own accounts, peers, investments and crypto
  ['ZELLE', 'Zelle', 'transfer_out_p2p', { in: 'transfer_in_p2p', ch: 'transfer' }],
  ['VENMO CASHOUT|VENMO CASH OUT|VENMO INSTANT TRANSFER', 'Venmo', 'transfer_out_account_transfer', { in: 'transfer_in_account_transfer', ch: 'transfer' }],
  ['VENMO', 'Venmo', 'transfer_out_p2p', { in: 'transfer_in_p2p', ch: 'transfer' }],
  ['CASH APP|CASHAPP|SQUARE CASH', 'Cash App', 'transfer_out_p2p', { in: 'transfer_in_p2p', ch: 'transfer' }],
  ['APPLE CASH|APPLECASH', 'Apple Cash', 'transfer_out_p2p', { in: 'transfer_in_p2p', ch: 'transfer' }],
  ['PAYPAL INST XFER|PAYPAL TRANSFER|PAYPAL INSTANT TRANSFER', 'PayPal', 'transfer_out_account_transfer', { in: 'transfer_in_account_transfer', ch: 'transfer' }],
  ['P2P|PERSON TO PERSON|INTERAC ETRNSFR|INTERAC E TRANSFER|E TRANSFER|ETRANSFER', null, 'transfer_out_p2p', { in: 'transfer_in_p2p', ch: 'transfer' }],
  ['TO CRYPTO|CRYPTO PURCHASE|BUY CRYPTO|CRYPTO EXCHANGE', null, 'transfer_out_crypto', { in: 'transfer_in_investment', ch: 'transfer' }],
  ['TO BROKERAGE|TRANSFER TO BROKERAGE|TO INVESTMENT|INVESTMENT CONTRIBUTION|IRA CONTRIBUTION|ROTH IRA|401K', null, 'transfer_out_investment', { in: 'transfer_in_investment', ch: 'transfer' }],
  ['FROM BROKERAGE|FROM INVESTMENT|FROM CRYPTO|CRYPTO WITHDRAWAL|CRYPTO SALE', null, 'transfer_out_account_transfer', { in: 'transfer_in_investment', ch: 'transfer' }],
  ['TO SAV|TO SAVINGS|TO SAVING|TRANSFER TO SAV|AUF SPARKONTO|SPARKONTO|TAGESGELD|LIVRET A|LIVRET|EPARGNE|TO SAVER|TO EASY SAVER|ROUND UP|ROUNDUP|AUTOSAVE|SAVE AS YOU GO|KEEP THE CHANGE', null, 'transfer_out_savings', { in: 'transfer_in_account_transfer', ch: 'transfer' }],
  ['FROM SAV|FROM SAVINGS|FROM SAVING|TRANSFER FROM SAV|VON SPARKONTO|DEPUIS LIVRET|FROM SAVER|FROM EASY SAVER', null, 'transfer_out_account_transfer', { in: 'transfer_in_savings', ch: 'transfer' }],
  ['ONLINE TRANSFER|INTERNET TRANSFER|MOBILE TRANSFER|BOOK TRANSFER|FUNDS TRANSFER|ACCOUNT TRANSFER|TRANSFER TO|TRANSFER FROM|XFER|ONLINE XFER|WIRE TRANSFER|INCOMING WIRE|OUTGOING WIRE|FEDWIRE|WIRE IN|WIRE OUT|WIRE TYPE|FASTER PAYMENT|FASTER PAYMENTS|FPS|BANK TRANSFER|TFR|STANDING ORDER|UMBUCHUNG|VIR SEPA|VIR INST|VIREMENT|UEBERWEISUNG|DAUERAUFTRAG|ADD FUNDS|ADD MONEY|INSTANT TRANSFER|SENT TO|RECEIVED FROM|INCOMING TRANSFER|OUTGOING TRANSFER|UBERWEISUNG|INTERNAL TRANSFER|HOME BANKING TRANSFER|TRANS TO|TRANS FROM|FROM SHARE|TO SHARE|SHARE TRANSFER|FROM CHECKING|TO CHECKING|FROM CHK|TO CHK|BONIFICO|GIROCONTO', null, 'transfer_out_account_transfer', { in: 'transfer_in_account_transfer', ch: 'transfer' }],
];

// ---------------------------------------------------------------------------------------------
// Tiers B and C: merchants, one rule per brand or per group of brands. A pattern
// matches at a word start and must end at a word end; the longest pattern at the start wins.
// ---------------------------------------------------------------------------------------------
export const MERCHANTS: readonly MerchantRule[] = [
  // groceries
  group('Albertsons Companies', 'food_and_drink_groceries', {}, [
    ['SAFEWAY', 'Safeway'],
    ['ALBERTSONS', 'Albertsons'],
    ['VONS', 'Vons'],
    ['JEWEL OSCO|JEWEL-OSCO', 'Jewel-Osco'],
  ]),
  group('Kroger Co.', 'food_and_drink_groceries', {}, [
    ['KROGER', 'Kroger'],
    ['HARRIS TEETER', 'Harris Teeter'],
    ['RALPHS', 'Ralphs'],
    ['^QFC', 'QFC'],
    ['KING SOOPERS', 'King Soopers'],
    ["SMITH'S FOOD|SMITHS FOOD", "Smith's"],
  ]),
  ['WHOLEFDS|WHOLE FOODS|WHOLE FOODS MARKET|WFM', 'Whole Foods Market', 'food_and_drink_groceries'],
  ["TRADER JOE'S|TRADER JOE S|TRADER JOES|TRADER JOE", "Trader Joe's", 'food_and_drink_groceries'],
  ['ALDI', 'Aldi', 'food_and_drink_groceries'],
  ['LIDL', 'Lidl', 'food_and_drink_groceries'],
  ['PUBLIX', 'Publix', 'food_and_drink_groceries'],
  ['WEGMANS', 'Wegmans', 'food_and_drink_groceries'],
  ['^H-E-B|^HEB', 'H-E-B', 'food_and_drink_groceries'],
  group('Ahold Delhaize', 'food_and_drink_groceries', {}, [
    ['FOOD LION', 'Food Lion'],
    ['STOP & SHOP|STOP SHOP', 'Stop & Shop'],
    ['ALBERT HEIJN', 'Albert Heijn'],
  ]),
  group('US regional grocers', 'food_and_drink_groceries', {}, [
    ['GIANT EAGLE', 'Giant Eagle'],
    ['SHOPRITE', 'ShopRite'],
    ['WINCO FOODS|WINCO', 'WinCo Foods'],
    ['HY-VEE|HYVEE', 'Hy-Vee'],
    ['MARKET BASKET', 'Market Basket'],
    ['WINN-DIXIE|WINN DIXIE', 'Winn-Dixie'],
    ['PIGGLY WIGGLY', 'Piggly Wiggly'],
    ['NEW SEASONS', 'New Seasons Market'],
    ['PCC COMMUNITY|PCC NATURAL', 'PCC Community Markets'],
    ['AMAZON FRESH|AMZN FRESH|AMAZONFRESH', 'Amazon Fresh'],
  ]),
  ['SPROUTS|SPROUTS FARMERS', 'Sprouts Farmers Market', 'food_and_drink_groceries'],
  ['INSTACART', 'Instacart', 'food_and_drink_groceries', { ch: 'online' }],
  group('Online grocers', 'food_and_drink_groceries', { ch: 'online' }, [
    ['FRESHDIRECT|FRESH DIRECT', 'FreshDirect'],
    ['OCADO', 'Ocado'],
  ]),
  group('Loblaw Companies', 'food_and_drink_groceries', {}, [
    ['LOBLAWS|LOBLAW', 'Loblaws'],
    ['NO FRILLS', 'No Frills'],
  ]),
  group('Canadian grocers', 'food_and_drink_groceries', {}, [
    ['SOBEYS', 'Sobeys'],
    ['FRESHCO', 'FreshCo'],
    ['SAVE ON FOODS|SAVE-ON-FOODS', 'Save-On-Foods'],
    ['METRO PLUS|METRO INC', 'Metro'],
  ]),
  ['TESCO STORES|TESCO', 'Tesco', 'food_and_drink_groceries'],
  ["SAINSBURY'S|SAINSBURYS|SAINSBURY", "Sainsbury's", 'food_and_drink_groceries'],
  group('UK supermarkets', 'food_and_drink_groceries', {}, [
    ['ASDA STORES|ASDA', 'Asda'],
    ['WM MORRISON|MORRISONS', 'Morrisons'],
    ['WAITROSE', 'Waitrose'],
    ['CO-OP GROUP|COOP GROUP|CO OP FOOD|COOP FOOD', 'Co-op'],
    ['ICELAND FOODS', 'Iceland'],
    ['M&S SIMPLY FOOD|MS SIMPLY FOOD', 'M&S Food'],
  ]),
  group('REWE Group', 'food_and_drink_groceries', {}, [
    ['REWE', 'REWE'],
    ['PENNY MARKT', 'Penny'],
  ]),
  group('Edeka Group', 'food_and_drink_groceries', {}, [
    ['EDEKA', 'Edeka'],
    ['^NETTO MARKEN|^NETTO', 'Netto'],
  ]),
  ['CARREFOUR CITY|CARREFOUR MARKET|CARREFOUR', 'Carrefour', 'food_and_drink_groceries'],
  group('Groupe Casino', 'food_and_drink_groceries', {}, [
    ['MONOPRIX', 'Monoprix'],
    ['FRANPRIX', 'Franprix'],
  ]),
  group('French supermarkets', 'food_and_drink_groceries', {}, [
    ['INTERMARCHE', 'Intermarché'],
    ['E.LECLERC|E LECLERC|LECLERC', 'E.Leclerc'],
    ['AUCHAN', 'Auchan'],
    ['^PICARD SURGELES|^PICARD', 'Picard'],
  ]),

  // superstores and warehouse clubs
  group('Walmart Inc.', 'shopping_superstores', {}, [
    ['WAL-MART|WALMART|WAL MART|WM SUPERCENTER|WALMART COM', 'Walmart'],
    ["SAMSCLUB|SAMS CLUB|SAM'S CLUB", "Sam's Club"],
  ]),
  ['^TARGET', 'Target', 'shopping_superstores'],
  ['COSTCO WHSE|COSTCO WHOLESALE|COSTCO', 'Costco', 'shopping_superstores'],
  group('Regional superstores', 'shopping_superstores', {}, [
    ["BJS WHOLESALE|BJ'S WHOLESALE", "BJ's Wholesale Club"],
    ['MEIJER', 'Meijer'],
    ['FRED MEYER|FRED-MEYER', 'Fred Meyer'],
    ['KAUFLAND', 'Kaufland'],
    ['REAL CDN SUPERSTORE|REAL CANADIAN SUPERSTORE|SUPERSTORE', 'Real Canadian Superstore'],
  ]),

  // online marketplaces
  group('Amazon retail', 'shopping_online_marketplaces', { ch: 'online' }, [
    ['AMAZON MKTPL|AMAZON MKTP|AMZN MKTP|AMAZON COM|AMAZON.CO.UK|AMAZON CO UK|AMAZON DE|AMAZON FR|AMAZON CA|AMZN COM|AMAZON RETAIL|AMAZON', 'Amazon'],
    ['AMAZON PRIME|AMZN PRIME|PRIME MEMBERSHIP', 'Amazon Prime'],
  ]),
  ['EBAY', 'eBay', 'shopping_online_marketplaces', { ch: 'online' }],
  ['ETSY', 'Etsy', 'shopping_online_marketplaces', { ch: 'online' }],
  ['TEMU', 'Temu', 'shopping_online_marketplaces', { ch: 'online' }],
  ['ALIEXPRESS|ALIPAY ALIEXPRESS', 'AliExpress', 'shopping_online_marketplaces', { ch: 'online' }],
  group('Other marketplaces', 'shopping_online_marketplaces', { ch: 'online' }, [
    ['WISH COM', 'Wish'],
    ['MERCARI', 'Mercari'],
    ['OTTO GMBH|OTTO DE', 'Otto'],
    ['CDISCOUNT', 'Cdiscount'],
  ]),

  // department, discount and off-price stores
  ["MACY'S|MACYS", "Macy's", 'shopping_department_stores'],
  group('Nordstrom', 'shopping_department_stores', {}, [
    ['NORDSTROM RACK', 'Nordstrom Rack'],
    ['NORDSTROM', 'Nordstrom'],
  ]),
  ["KOHL'S|KOHLS", "Kohl's", 'shopping_department_stores'],
  ['JCPENNEY|JC PENNEY|J C PENNEY', 'JCPenney', 'shopping_department_stores'],
  group('TJX Companies', 'shopping_department_stores', {}, [
    ['TJ MAXX|TJMAXX|T J MAXX', 'TJ Maxx'],
    ['MARSHALLS', 'Marshalls'],
    ['^WINNERS', 'Winners'],
  ]),
  ['ROSS STORES|ROSS DRESS FOR LESS', 'Ross', 'shopping_department_stores'],
  ['^BURLINGTON STORES|^BURLINGTON COAT|^BURLINGTON', 'Burlington', 'shopping_department_stores'],
  group('Dollar Tree Inc.', 'shopping_department_stores', {}, [
    ['DOLLAR TREE', 'Dollar Tree'],
    ['FAMILY DOLLAR', 'Family Dollar'],
  ]),
  ['DOLLAR GENERAL|DOLLAR GENERAL CORP', 'Dollar General', 'shopping_department_stores'],
  ['DOLLARAMA', 'Dollarama', 'shopping_department_stores'],
  ['FIVE BELOW', 'Five Below', 'shopping_department_stores'],
  ['BIG LOTS', 'Big Lots', 'shopping_department_stores'],
  group('International department stores', 'shopping_department_stores', {}, [
    ['JOHN LEWIS', 'John Lewis'],
    ['^MARKS & SPENCER|^MARKS SPENCER|^M&S|^MS', 'Marks & Spencer'],
    ['GALERIES LAFAYETTE', 'Galeries Lafayette'],
    ['HUDSONS BAY|HUDSON S BAY', "Hudson's Bay"],
  ]),
  ['GOODWILL', 'Goodwill', 'shopping_department_stores'],

  // clothing, shoes, beauty retail
  group('Gap Inc.', 'shopping_clothing', {}, [
    ['OLD NAVY', 'Old Navy'],
    ['^GAP', 'Gap'],
    ['BANANA REPUBLIC', 'Banana Republic'],
  ]),
  ['^H&M|^HM', 'H&M', 'shopping_clothing'],
  ['ZARA', 'Zara', 'shopping_clothing'],
  ['UNIQLO', 'Uniqlo', 'shopping_clothing'],
  ['NIKE COM|NIKE', 'Nike', 'shopping_clothing'],
  ['ADIDAS', 'Adidas', 'shopping_clothing'],
  ['LULULEMON', 'Lululemon', 'shopping_clothing'],
  ['FOOT LOCKER', 'Foot Locker', 'shopping_clothing'],
  group('Specialty apparel', 'shopping_clothing', {}, [
    ['^DSW', 'DSW'],
    ['J CREW|JCREW', 'J.Crew'],
    ['AMERICAN EAGLE|AE OUTFITTERS', 'American Eagle'],
    ['NEXT RETAIL|NEXT DIRECTORY', 'Next'],
    ['PATAGONIA', 'Patagonia'],
  ]),
  group('URBN', 'shopping_clothing', {}, [
    ['URBAN OUTFITTERS', 'Urban Outfitters'],
    ['ANTHROPOLOGIE', 'Anthropologie'],
  ]),
  group('Online fashion', 'shopping_clothing', { ch: 'online' }, [
    ['SHEIN', 'Shein'],
    ['ASOS', 'ASOS'],
    ['ZALANDO', 'Zalando'],
  ]),
  ['PRIMARK', 'Primark', 'shopping_clothing'],
  ['SEPHORA', 'Sephora', 'health_and_personal_care_beauty'],
  ['ULTA', 'Ulta Beauty', 'health_and_personal_care_beauty'],
  group('Beauty retailers', 'health_and_personal_care_beauty', {}, [
    ['BATH & BODY WORKS|BATH BODY WORKS', 'Bath & Body Works'],
    ['SALLY BEAUTY', 'Sally Beauty'],
  ]),

  // electronics
  ['BEST BUY|BESTBUY|BESTBUYCOM', 'Best Buy', 'shopping_electronics'],
  ['APPLE STORE|APPLE ONLINE STORE', 'Apple Store', 'shopping_electronics'],
  group('Electronics specialists', 'shopping_electronics', {}, [
    ['MICRO CENTER', 'Micro Center'],
    ['B&H PHOTO|BH PHOTO', 'B&H Photo'],
    ['^DELL', 'Dell'],
    ['^BOSE', 'Bose'],
  ]),
  ['NEWEGG', 'Newegg', 'shopping_electronics', { ch: 'online' }],
  group('European electronics', 'shopping_electronics', {}, [
    ['CURRYS', 'Currys'],
    ['MEDIAMARKT|MEDIA MARKT', 'MediaMarkt'],
    ['FNAC', 'Fnac'],
  ]),

  // convenience
  ['7-ELEVEN|7 ELEVEN|7ELEVEN', '7-Eleven', 'shopping_convenience_stores'],
  group('Convenience chains', 'shopping_convenience_stores', {}, [
    ['COUCHE TARD', 'Couche-Tard'],
    ['^SPAR', 'Spar'],
  ]),
  ['GOPUFF', 'Gopuff', 'shopping_convenience_stores', { ch: 'online' }],

  // books and news
  ['BARNES & NOBLE|BARNES NOBLE|BARNESNOBLE', 'Barnes & Noble', 'shopping_books_and_news'],
  group('Bookstores', 'shopping_books_and_news', {}, [
    ['BOOKS A MILLION', 'Books-A-Million'],
    ['WATERSTONES', 'Waterstones'],
    ['^INDIGO BOOKS|^CHAPTERS INDIGO|^INDIGO', 'Indigo'],
    ['THALIA', 'Thalia'],
  ]),
  group('Amazon books', 'shopping_books_and_news', { ch: 'online' }, [
    ['AUDIBLE', 'Audible'],
    ['KINDLE', 'Kindle'],
  ]),
  ['NYTIMES|NY TIMES|NEW YORK TIMES', 'The New York Times', 'shopping_books_and_news', { ch: 'online' }],
  ['WSJ|DOW JONES|WALL STREET JOURNAL', 'The Wall Street Journal', 'shopping_books_and_news', { ch: 'online' }],
  group('News subscriptions', 'shopping_books_and_news', { ch: 'online' }, [
    ['WASHINGTON POST|WP DIGITAL', 'The Washington Post'],
    ['THE ECONOMIST|ECONOMIST', 'The Economist'],
    ['SUBSTACK', 'Substack'],
    ['MEDIUM COM|MEDIUM CORPORATION', 'Medium'],
  ]),

  // pets
  ['PETCO', 'Petco', 'shopping_pets'],
  ['PETSMART', 'PetSmart', 'shopping_pets'],
  ['CHEWY', 'Chewy', 'shopping_pets', { ch: 'online' }],
  ['BANFIELD', 'Banfield Pet Hospital', 'shopping_pets'],
  group('Pet stores', 'shopping_pets', {}, [
    ['PETS AT HOME', 'Pets at Home'],
    ['PET VALU', 'Pet Valu'],
  ]),
  ['ROVER COM', 'Rover', 'shopping_pets', { ch: 'online' }],

  // other shopping
  ["DICK'S SPORTING|DICKS SPORTING", "Dick's Sporting Goods", 'shopping_other'],
  ['^REI', 'REI', 'shopping_other'],
  group('Crafts and party', 'shopping_other', {}, [
    ['^MICHAELS STORES|^MICHAELS', 'Michaels'],
    ['JOANN', 'Joann'],
    ['HOBBY LOBBY', 'Hobby Lobby'],
    ['PARTY CITY', 'Party City'],
  ]),
  group('Office supplies', 'shopping_other', {}, [
    ['STAPLES', 'Staples'],
    ['OFFICE DEPOT|OFFICEMAX', 'Office Depot'],
  ]),
  group('Other retail', 'shopping_other', {}, [
    ['^FTD|^PROFLOWERS', 'FTD'],
    ['LEGO', 'LEGO'],
    ['DECATHLON', 'Decathlon'],
    ['CANADIAN TIRE', 'Canadian Tire'],
  ]),

  // home
  ['IKEA', 'IKEA', 'home_furnishings'],
  ['WAYFAIR', 'Wayfair', 'home_furnishings', { ch: 'online' }],
  ['HOMEGOODS|HOME GOODS', 'HomeGoods', 'home_furnishings'],
  group('Furniture chains', 'home_furnishings', {}, [
    ['BED BATH & BEYOND|BED BATH BEYOND', 'Bed Bath & Beyond'],
    ['CRATE & BARREL|CRATE BARREL', 'Crate & Barrel'],
    ['ASHLEY FURNITURE|ASHLEY HOMESTORE', 'Ashley'],
    ['DUNELM', 'Dunelm'],
  ]),
  group('Williams-Sonoma Inc.', 'home_furnishings', {}, [
    ['POTTERY BARN', 'Pottery Barn'],
    ['WEST ELM', 'West Elm'],
    ['WILLIAMS SONOMA|WILLIAMS-SONOMA', 'Williams-Sonoma'],
  ]),
  ['THE HOME DEPOT|HOME DEPOT|HOMEDEPOT', 'The Home Depot', 'home_hardware'],
  ["LOWE'S|LOWES", "Lowe's", 'home_hardware'],
  group('US hardware chains', 'home_hardware', {}, [
    ['ACE HARDWARE|ACE HDWE', 'Ace Hardware'],
    ['MENARDS', 'Menards'],
    ['HARBOR FREIGHT', 'Harbor Freight'],
    ['TRUE VALUE', 'True Value'],
  ]),
  group('UK DIY', 'home_hardware', {}, [
    ['^B&Q|^BQ', 'B&Q'],
    ['WICKES', 'Wickes'],
    ['SCREWFIX', 'Screwfix'],
  ]),
  group('European DIY', 'home_hardware', {}, [
    ['OBI BAU|OBI MARKT', 'OBI'],
    ['BAUHAUS', 'Bauhaus'],
    ['LEROY MERLIN', 'Leroy Merlin'],
    ['CASTORAMA', 'Castorama'],
  ]),
  group('Canadian hardware', 'home_hardware', {}, [
    ['^RONA', 'RONA'],
    ['HOME HARDWARE', 'Home Hardware'],
  ]),
  group('Home services marketplaces', 'home_repair_and_maintenance', { ch: 'online' }, [
    ['TASKRABBIT', 'TaskRabbit'],
    ['THUMBTACK', 'Thumbtack'],
  ]),
  ['^ANGI|^ANGIES LIST|^HOMEADVISOR', 'Angi', 'home_repair_and_maintenance'],
  group('Pest control', 'home_repair_and_maintenance', {}, [
    ['TERMINIX', 'Terminix'],
    ['ORKIN', 'Orkin'],
  ]),
  group('Home security', 'home_other', {}, [
    ['^ADT SECURITY|^ADT', 'ADT'],
    ['SIMPLISAFE', 'SimpliSafe'],
  ]),
  ['RING COM|RING PROTECT|RING SUBSCRIPTION', 'Ring', 'home_other', { ch: 'online' }],
  ['U-HAUL|UHAUL', 'U-Haul', 'home_other'],

  // restaurants (sit-down)
  ['OLIVE GARDEN', 'Olive Garden', 'food_and_drink_restaurants'],
  ["APPLEBEE'S|APPLEBEES", "Applebee's", 'food_and_drink_restaurants'],
  ["CHILI'S|CHILIS", "Chili's", 'food_and_drink_restaurants'],
  ['CHEESECAKE FACTORY|CHEESECAKE FAC', 'The Cheesecake Factory', 'food_and_drink_restaurants'],
  ['RED LOBSTER', 'Red Lobster', 'food_and_drink_restaurants'],
  ['OUTBACK', 'Outback Steakhouse', 'food_and_drink_restaurants'],
  ['TEXAS ROADHOUSE', 'Texas Roadhouse', 'food_and_drink_restaurants'],
  ['IHOP', 'IHOP', 'food_and_drink_restaurants'],
  ["DENNY'S|DENNYS", "Denny's", 'food_and_drink_restaurants'],
  ['CRACKER BARREL', 'Cracker Barrel', 'food_and_drink_restaurants'],
  ['BUFFALO WILD WINGS|BUFFALO WILD W|BWW', 'Buffalo Wild Wings', 'food_and_drink_restaurants'],
  ['RED ROBIN', 'Red Robin', 'food_and_drink_restaurants'],
  ["P.F. CHANG'S|PF CHANGS|P F CHANGS", "P.F. Chang's", 'food_and_drink_restaurants'],
  group('UK restaurant chains', 'food_and_drink_restaurants', {}, [
    ["NANDO'S|NANDOS", "Nando's"],
    ['WAGAMAMA', 'Wagamama'],
    ['PIZZA EXPRESS|PIZZAEXPRESS', 'PizzaExpress'],
    ['ZIZZI', 'Zizzi'],
    ['DISHOOM', 'Dishoom'],
    ['VAPIANO', 'Vapiano'],
  ]),
  ['OPENTABLE', 'OpenTable', 'food_and_drink_restaurants', { ch: 'online' }],

  // fast food and quick service
  ["MCDONALD'S|MCDONALDS|MC DONALDS", "McDonald's", 'food_and_drink_fast_food'],
  group('Restaurant Brands International', 'food_and_drink_fast_food', {}, [
    ['BURGER KING', 'Burger King'],
    ['POPEYES', 'Popeyes'],
  ]),
  ["WENDY'S|WENDYS", "Wendy's", 'food_and_drink_fast_food'],
  group('Yum! Brands', 'food_and_drink_fast_food', {}, [
    ['TACO BELL', 'Taco Bell'],
    ['KFC', 'KFC'],
    ['PIZZA HUT', 'Pizza Hut'],
  ]),
  ['CHIPOTLE|CHIPOTLE ONLINE', 'Chipotle', 'food_and_drink_fast_food'],
  ['^SUBWAY', 'Subway', 'food_and_drink_fast_food'],
  ['CHICK-FIL-A|CHICK FIL A|CHICKFILA', 'Chick-fil-A', 'food_and_drink_fast_food'],
  group('Inspire Brands', 'food_and_drink_fast_food', {}, [
    ['SONIC DRIVE|SONIC DRIVE IN', 'Sonic Drive-In'],
    ["ARBY'S|ARBYS", "Arby's"],
    ['JIMMY JOHNS|JIMMY JOHN S', "Jimmy John's"],
  ]),
  ['JACK IN THE BOX', 'Jack in the Box', 'food_and_drink_fast_food'],
  ['IN-N-OUT|IN N OUT', 'In-N-Out Burger', 'food_and_drink_fast_food'],
  ['FIVE GUYS', 'Five Guys', 'food_and_drink_fast_food'],
  ['SHAKE SHACK', 'Shake Shack', 'food_and_drink_fast_food'],
  ['PANERA BREAD|PANERA', 'Panera Bread', 'food_and_drink_fast_food'],
  ["DOMINO'S|DOMINOS", "Domino's", 'food_and_drink_fast_food'],
  ['PAPA JOHNS|PAPA JOHN S', "Papa John's", 'food_and_drink_fast_food'],
  ['LITTLE CAESARS', 'Little Caesars', 'food_and_drink_fast_food'],
  ['JERSEY MIKES|JERSEY MIKE S', "Jersey Mike's", 'food_and_drink_fast_food'],
  ['WINGSTOP', 'Wingstop', 'food_and_drink_fast_food'],
  ['PANDA EXPRESS', 'Panda Express', 'food_and_drink_fast_food'],
  ['QDOBA', 'Qdoba', 'food_and_drink_fast_food'],
  ['WHATABURGER', 'Whataburger', 'food_and_drink_fast_food'],
  ["CULVER'S|CULVERS", "Culver's", 'food_and_drink_fast_food'],
  ["RAISING CANE'S|RAISING CANES", "Raising Cane's", 'food_and_drink_fast_food'],
  ['SWEETGREEN', 'Sweetgreen', 'food_and_drink_fast_food'],
  ['^CAVA', 'Cava', 'food_and_drink_fast_food'],
  ['DAIRY QUEEN', 'Dairy Queen', 'food_and_drink_fast_food'],
  ['A&W RESTAURANT|A W RESTAURANT', 'A&W', 'food_and_drink_fast_food'],
  group('UK quick service', 'food_and_drink_fast_food', {}, [
    ['GREGGS', 'Greggs'],
    ['LEON RESTAURANTS', 'Leon'],
  ]),
  ["^HARVEY'S|^HARVEYS", "Harvey's", 'food_and_drink_fast_food'],

  // coffee
  ['STARBUCKS|SBUX', 'Starbucks', 'food_and_drink_coffee'],
  ["DUNKIN|DUNKIN DONUTS|DUNKIN'", "Dunkin'", 'food_and_drink_coffee'],
  ["PEET'S|PEETS|PEETS COFFEE", "Peet's Coffee", 'food_and_drink_coffee'],
  group('Specialty roasters', 'food_and_drink_coffee', {}, [
    ['BLUE BOTTLE|BLUE BOTTLE COFFEE', 'Blue Bottle Coffee'],
    ['PHILZ|PHILZ COFFEE', 'Philz Coffee'],
    ['LA COLOMBE', 'La Colombe'],
    ['INTELLIGENTSIA', 'Intelligentsia'],
    ['STUMPTOWN', 'Stumptown Coffee'],
  ]),
  ['TIM HORTONS|TIM HORTON', 'Tim Hortons', 'food_and_drink_coffee'],
  ['DUTCH BROS|DUTCH BROTHERS', 'Dutch Bros', 'food_and_drink_coffee'],
  ['CARIBOU COFFEE', 'Caribou Coffee', 'food_and_drink_coffee'],
  group('UK and European coffee', 'food_and_drink_coffee', {}, [
    ['^COSTA COFFEE|^COSTA', 'Costa Coffee'],
    ['CAFFE NERO|CAFFENERO', 'Caffè Nero'],
    ['TCHIBO', 'Tchibo'],
  ]),
  ['^PRET A MANGER|^PRET', 'Pret A Manger', 'food_and_drink_coffee'],
  ['COFFEE BEAN & TEA|COFFEE BEAN TEA', 'The Coffee Bean & Tea Leaf', 'food_and_drink_coffee'],
  ['SECOND CUP', 'Second Cup', 'food_and_drink_coffee'],

  // other food and drink
  group('Donuts and bakery chains', 'food_and_drink_other', {}, [
    ['KRISPY KREME', 'Krispy Kreme'],
    ['CRUMBL', 'Crumbl Cookies'],
    ["AUNTIE ANNE'S|AUNTIE ANNES", "Auntie Anne's"],
    ['CINNABON', 'Cinnabon'],
  ]),
  group('Ice cream and smoothies', 'food_and_drink_other', {}, [
    ['BASKIN|BASKIN ROBBINS', 'Baskin-Robbins'],
    ['COLD STONE', 'Cold Stone Creamery'],
    ['JAMBA', 'Jamba'],
    ['SMOOTHIE KING', 'Smoothie King'],
  ]),

  // bars and alcohol
  ['TOTAL WINE', 'Total Wine & More', 'food_and_drink_bars_and_alcohol'],
  group('Liquor stores', 'food_and_drink_bars_and_alcohol', {}, [
    ['BEVMO', 'BevMo!'],
    ['LCBO', 'LCBO'],
    ['BC LIQUOR', 'BC Liquor Stores'],
    ['^SAQ', 'SAQ'],
    ['MAJESTIC WINE', 'Majestic Wine'],
  ]),
  ['DRIZLY', 'Drizly', 'food_and_drink_bars_and_alcohol', { ch: 'online' }],

  // food delivery and meal kits
  ['DOORDASH|DOOR DASH', 'DoorDash', 'food_and_drink_delivery', { ch: 'online' }],
  ['UBER EATS|UBEREATS|UBER   EATS', 'Uber Eats', 'food_and_drink_delivery', { ch: 'online' }],
  ['GRUBHUB', 'Grubhub', 'food_and_drink_delivery', { ch: 'online' }],
  group('Delivery apps', 'food_and_drink_delivery', { ch: 'online' }, [
    ['POSTMATES', 'Postmates'],
    ['SEAMLESS', 'Seamless'],
    ['^CAVIAR', 'Caviar'],
    ['SKIPTHEDISHES|SKIP THE DISHES', 'SkipTheDishes'],
    ['LIEFERANDO', 'Lieferando'],
    ['WOLT', 'Wolt'],
  ]),
  ['DELIVEROO', 'Deliveroo', 'food_and_drink_delivery', { ch: 'online' }],
  ['JUST EAT|JUSTEAT', 'Just Eat', 'food_and_drink_delivery', { ch: 'online' }],
  group('Meal kits', 'food_and_drink_delivery', { ch: 'online' }, [
    ['HELLOFRESH|HELLO FRESH', 'HelloFresh'],
    ['BLUE APRON', 'Blue Apron'],
    ['HOME CHEF', 'Home Chef'],
    ['FACTOR75|FACTOR 75', 'Factor'],
  ]),

  // fuel and EV charging
  ['^SHELL OIL|^SHELL SERVICE|^SHELL', 'Shell', 'transportation_fuel'],
  group('Chevron', 'transportation_fuel', {}, [
    ['CHEVRON', 'Chevron'],
    ['TEXACO', 'Texaco'],
  ]),
  group('ExxonMobil', 'transportation_fuel', {}, [
    ['EXXONMOBIL|EXXON', 'Exxon'],
    ['^MOBIL', 'Mobil'],
  ]),
  group('BP', 'transportation_fuel', {}, [
    ['^BP', 'BP'],
    ['^ARCO|^AMPM', 'ARCO'],
  ]),
  group('US fuel brands', 'transportation_fuel', {}, [
    ['VALERO', 'Valero'],
    ['SUNOCO', 'Sunoco'],
    ['^MARATHON PETRO|^MARATHON', 'Marathon'],
    ['CITGO', 'Citgo'],
    ['SPEEDWAY', 'Speedway'],
  ]),
  group('Phillips 66', 'transportation_fuel', {}, [
    ['^PHILLIPS 66|^PHILLIPS', 'Phillips 66'],
    ['CONOCO', 'Conoco'],
  ]),
  group('Fuel and convenience chains', 'transportation_fuel', {}, [
    ['^QUIKTRIP|^QT', 'QuikTrip'],
    ['WAWA', 'Wawa'],
    ['SHEETZ', 'Sheetz'],
    ["CASEY'S|CASEYS", "Casey's"],
    ['RACETRAC', 'RaceTrac'],
    ['KWIK TRIP|KWIK STAR', 'Kwik Trip'],
    ['MURPHY USA|MURPHY EXPRESS', 'Murphy USA'],
  ]),
  ['CIRCLE K', 'Circle K', 'transportation_fuel'],
  group('Travel centers', 'transportation_fuel', {}, [
    ["LOVE'S TRAVEL|LOVES TRAVEL|LOVES COUNTRY", "Love's"],
    ['PILOT TRAVEL|PILOT FLYING J|FLYING J', 'Pilot Flying J'],
  ]),
  group('Warehouse club fuel', 'transportation_fuel', {}, [
    ['COSTCO GAS|COSTCO FUEL', 'Costco Gas'],
    ['SAMS CLUB FUEL|SAMSCLUB FUEL', "Sam's Club Fuel"],
  ]),
  group('Canadian fuel', 'transportation_fuel', {}, [
    ['PETRO-CANADA|PETRO CANADA|PETROCAN', 'Petro-Canada'],
    ['ESSO', 'Esso'],
    ['^HUSKY', 'Husky'],
  ]),
  group('European fuel', 'transportation_fuel', {}, [
    ['TOTALENERGIES|TOTAL ACCESS|TOTAL ENERGIES', 'TotalEnergies'],
    ['^ARAL', 'Aral'],
  ]),
  group('EV charging networks', 'transportation_fuel', {}, [
    ['TESLA SUPERCHARGER|TESLA SUPERCHARG', 'Tesla Supercharger'],
    ['CHARGEPOINT', 'ChargePoint'],
    ['ELECTRIFY AMERICA', 'Electrify America'],
    ['EVGO', 'EVgo'],
  ]),

  // rideshare and taxi
  ['UBER TRIP|UBER RIDE|UBER BV|UBER', 'Uber', 'transportation_rideshare', { ch: 'online' }],
  ['LYFT RIDE|LYFT', 'Lyft', 'transportation_rideshare', { ch: 'online' }],
  group('European ride-hailing', 'transportation_rideshare', { ch: 'online' }, [
    ['BOLT EU|BOLT RIDE', 'Bolt'],
    ['FREENOW|FREE NOW', 'FREENOW'],
  ]),
  group('Taxi services', 'transportation_rideshare', {}, [
    ['CURB SVC|CURB TAXI', 'Curb'],
    ['ADDISON LEE', 'Addison Lee'],
  ]),

  // public transit, bike and car sharing
  group('New York area transit', 'transportation_public_transit', {}, [
    ['^MTA NYCT|^MTA MNR|^MTA LIRR|^MTA', 'MTA'],
    ['OMNY', 'OMNY'],
    ['NJ TRANSIT|NJT', 'NJ Transit'],
  ]),
  group('US transit agencies', 'transportation_public_transit', {}, [
    ['^BART', 'BART'],
    ['CLIPPER', 'Clipper'],
    ['VENTRA', 'Ventra'],
    ['WMATA|SMARTRIP', 'WMATA'],
    ['SEPTA', 'SEPTA'],
    ['MBTA', 'MBTA'],
    ['CALTRAIN', 'Caltrain'],
    ['SOUND TRANSIT', 'Sound Transit'],
    ['^ORCA', 'ORCA'],
    ['TRIMET', 'TriMet'],
  ]),
  group('European transit', 'transportation_public_transit', {}, [
    ['TFL TRAVEL|TFL GOV|TFL', 'Transport for London'],
    ['RATP', 'RATP'],
    ['BVG', 'BVG'],
    ['MVG', 'MVG'],
  ]),
  group('Canadian transit', 'transportation_public_transit', {}, [
    ['^PRESTO', 'Presto'],
    ['^TTC', 'TTC'],
    ['GO TRANSIT', 'GO Transit'],
  ]),
  group('Bike and scooter share', 'transportation_other', {}, [
    ['^LIME', 'Lime'],
    ['CITI BIKE|CITIBIKE', 'Citi Bike'],
  ]),
  group('Car sharing', 'transportation_other', {}, [
    ['ZIPCAR', 'Zipcar'],
    ['GETAROUND', 'Getaround'],
  ]),

  // parking and tolls
  ['PARKMOBILE', 'ParkMobile', 'transportation_parking', { ch: 'online' }],
  group('Parking apps', 'transportation_parking', { ch: 'online' }, [
    ['SPOTHERO', 'SpotHero'],
    ['PAYBYPHONE|PAY BY PHONE', 'PayByPhone'],
    ['RINGGO', 'RingGo'],
  ]),
  group('Parking operators', 'transportation_parking', {}, [
    ['SP PLUS|SP+', 'SP+'],
    ['LAZ PARKING', 'LAZ Parking'],
    ['ABM PARKING', 'ABM Parking'],
    ['^NCP', 'NCP'],
    ['IMPARK', 'Impark'],
    ['ACE PARKING', 'Ace Parking'],
  ]),
  group('Toll agencies', 'transportation_tolls', {}, [
    ['E-ZPASS|EZPASS|E ZPASS|EZ PASS', 'E-ZPass'],
    ['FASTRAK', 'FasTrak'],
    ['SUNPASS', 'SunPass'],
    ['TXTAG', 'TxTag'],
    ['NTTA', 'NTTA'],
    ['IPASS|ILLINOIS TOLLWAY', 'Illinois Tollway'],
    ['GOOD TO GO|WSDOT GOOD TO GO', 'Good To Go'],
    ['DART CHARGE', 'Dart Charge'],
  ]),

  // auto maintenance
  ['JIFFY LUBE', 'Jiffy Lube', 'transportation_auto_maintenance'],
  group('Service and tire chains', 'transportation_auto_maintenance', {}, [
    ['VALVOLINE', 'Valvoline'],
    ['PEP BOYS', 'Pep Boys'],
    ['FIRESTONE', 'Firestone'],
    ['DISCOUNT TIRE', 'Discount Tire'],
    ['MIDAS', 'Midas'],
    ['MEINEKE', 'Meineke'],
    ['SAFELITE', 'Safelite'],
  ]),
  group('Auto parts', 'transportation_auto_maintenance', {}, [
    ['AUTOZONE', 'AutoZone'],
    ["O'REILLY AUTO|OREILLY AUTO|O REILLY", "O'Reilly Auto Parts"],
    ['ADVANCE AUTO', 'Advance Auto Parts'],
    ['NAPA AUTO|NAPA STORE', 'NAPA Auto Parts'],
  ]),
  group('UK auto service', 'transportation_auto_maintenance', {}, [
    ['KWIK FIT|KWIKFIT', 'Kwik Fit'],
    ['HALFORDS', 'Halfords'],
  ]),

  // flights
  ['^DELTA AIR|^DELTA AIRLINES|^DELTA', 'Delta Air Lines', 'travel_flights', { ch: 'online' }],
  ['UNITED AIRLINES|UNITED AIR', 'United Airlines', 'travel_flights', { ch: 'online' }],
  ['AMERICAN AIRLINES|AMERICAN AIR|AA COM', 'American Airlines', 'travel_flights', { ch: 'online' }],
  ['^SOUTHWEST AIRLINES|^SOUTHWEST|^SOUTHWES|^SWA', 'Southwest Airlines', 'travel_flights', { ch: 'online' }],
  ['JETBLUE|JET BLUE', 'JetBlue', 'travel_flights', { ch: 'online' }],
  ['ALASKA AIR|ALASKA AIRLINES', 'Alaska Airlines', 'travel_flights', { ch: 'online' }],
  ['SPIRIT AIRL|SPIRIT AIRLINES', 'Spirit Airlines', 'travel_flights', { ch: 'online' }],
  ['FRONTIER AIRLINES|FRONTIER AIR', 'Frontier Airlines', 'travel_flights', { ch: 'online' }],
  ['HAWAIIAN AIR|HAWAIIAN AIRLINES', 'Hawaiian Airlines', 'travel_flights', { ch: 'online' }],
  ['ALLEGIANT', 'Allegiant Air', 'travel_flights', { ch: 'online' }],
  ['AIR CANADA', 'Air Canada', 'travel_flights', { ch: 'online' }],
  ['WESTJET', 'WestJet', 'travel_flights', { ch: 'online' }],
  ['BRITISH AIRWAYS|BRIT AIRWAYS|BRITISH A', 'British Airways', 'travel_flights', { ch: 'online' }],
  ['EASYJET', 'easyJet', 'travel_flights', { ch: 'online' }],
  ['RYANAIR', 'Ryanair', 'travel_flights', { ch: 'online' }],
  ['LUFTHANSA', 'Lufthansa', 'travel_flights', { ch: 'online' }],
  group('Air France-KLM', 'travel_flights', { ch: 'online' }, [
    ['AIR FRANCE', 'Air France'],
    ['KLM', 'KLM'],
  ]),
  ['VIRGIN ATLANTIC|VIRGIN ATL', 'Virgin Atlantic', 'travel_flights', { ch: 'online' }],
  ['EMIRATES', 'Emirates', 'travel_flights', { ch: 'online' }],
  ['IBERIA', 'Iberia', 'travel_flights', { ch: 'online' }],
  ['TAP AIR|TAP PORTUGAL', 'TAP Air Portugal', 'travel_flights', { ch: 'online' }],

  // lodging
  group('Marriott International', 'travel_lodging', {}, [
    ['MARRIOTT', 'Marriott'],
    ['^COURTYARD', 'Courtyard by Marriott'],
    ['SHERATON', 'Sheraton'],
    ['WESTIN', 'Westin'],
    ['RITZ-CARLTON|RITZ CARLTON', 'The Ritz-Carlton'],
  ]),
  group('Hilton', 'travel_lodging', {}, [
    ['HILTON', 'Hilton'],
    ['HAMPTON INN', 'Hampton Inn'],
    ['DOUBLETREE', 'DoubleTree'],
    ['EMBASSY SUITES', 'Embassy Suites'],
  ]),
  ['HYATT', 'Hyatt', 'travel_lodging'],
  group('Accor', 'travel_lodging', {}, [
    ['FAIRMONT', 'Fairmont'],
    ['NOVOTEL', 'Novotel'],
    ['^IBIS', 'ibis'],
    ['ACCOR', 'Accor'],
  ]),
  group('IHG Hotels & Resorts', 'travel_lodging', {}, [
    ['HOLIDAY INN', 'Holiday Inn'],
    ['IHG', 'IHG Hotels'],
  ]),
  group('Wyndham', 'travel_lodging', {}, [
    ['LA QUINTA', 'La Quinta'],
    ['WYNDHAM', 'Wyndham'],
  ]),
  group('Hotel brands', 'travel_lodging', {}, [
    ['MOTEL ONE', 'Motel One'],
    ['BEST WESTERN', 'Best Western'],
    ['MOTEL 6', 'Motel 6'],
    ['FOUR SEASONS', 'Four Seasons'],
    ['ACE HOTEL', 'Ace Hotel'],
  ]),
  group('UK hotel chains', 'travel_lodging', {}, [
    ['PREMIER INN', 'Premier Inn'],
    ['TRAVELODGE', 'Travelodge'],
  ]),
  group('Short-term rentals', 'travel_lodging', { ch: 'online' }, [
    ['AIRBNB', 'Airbnb'],
    ['VRBO|HOMEAWAY', 'Vrbo'],
  ]),
  group('Hotel booking sites', 'travel_lodging', { ch: 'online' }, [
    ['BOOKING COM|BOOKING.COM', 'Booking.com'],
    ['HOTELS COM|HOTELS.COM', 'Hotels.com'],
  ]),

  // rental cars
  group('Hertz Global', 'travel_rental_cars', {}, [
    ['HERTZ', 'Hertz'],
    ['^THRIFTY CAR|^THRIFTY', 'Thrifty'],
    ['DOLLAR RENT', 'Dollar Car Rental'],
  ]),
  group('Avis Budget Group', 'travel_rental_cars', {}, [
    ['^AVIS', 'Avis'],
    ['BUDGET RENT|BUDGET RENT A CAR|BUDGET CAR', 'Budget'],
  ]),
  group('Enterprise Holdings', 'travel_rental_cars', {}, [
    ['ENTERPRISE RENT|ENTERPRISE RENT-A-CAR|ENTERPRISE RAC', 'Enterprise Rent-A-Car'],
    ['NATIONAL CAR', 'National Car Rental'],
    ['ALAMO', 'Alamo'],
  ]),
  group('European car rental', 'travel_rental_cars', {}, [
    ['SIXT', 'Sixt'],
    ['EUROPCAR', 'Europcar'],
  ]),
  ['TURO', 'Turo', 'travel_rental_cars', { ch: 'online' }],

  // other travel
  ['EXPEDIA', 'Expedia', 'travel_other', { ch: 'online' }],
  group('Online travel agencies', 'travel_other', { ch: 'online' }, [
    ['PRICELINE', 'Priceline'],
    ['KAYAK', 'Kayak'],
    ['TRIPADVISOR', 'Tripadvisor'],
    ['VIATOR', 'Viator'],
    ['GETYOURGUIDE', 'GetYourGuide'],
    ['TRAINLINE', 'Trainline'],
  ]),
  group('Cruise lines', 'travel_other', {}, [
    ['CARNIVAL CRUISE|CARNIVAL CRUISE LINE', 'Carnival Cruise Line'],
    ['ROYAL CARIBBEAN|ROYALCARIBBEAN', 'Royal Caribbean'],
    ['NORWEGIAN CRUISE|NCL', 'Norwegian Cruise Line'],
  ]),
  group('Intercity bus and rail', 'travel_other', {}, [
    ['GREYHOUND', 'Greyhound'],
    ['FLIXBUS', 'FlixBus'],
    ['EUROSTAR', 'Eurostar'],
    ['DB VERTRIEB|DB FERNVERKEHR|DB BAHN|DEUTSCHE BAHN', 'Deutsche Bahn'],
    ['SNCF|OUIGO|SNCF CONNECT', 'SNCF'],
    ['VIA RAIL', 'VIA Rail'],
  ]),
  ['AMTRAK', 'Amtrak', 'travel_other'],

  // streaming and music
  ['NETFLIX COM|NETFLIX', 'Netflix', 'entertainment_streaming', { ch: 'online' }],
  group('Disney streaming', 'entertainment_streaming', { ch: 'online' }, [
    ['HULU', 'Hulu'],
    ['DISNEY PLUS|DISNEYPLUS|DISNEY+', 'Disney+'],
  ]),
  ['HBO MAX|HBOMAX|MAX COM', 'Max', 'entertainment_streaming', { ch: 'online' }],
  group('Video streaming', 'entertainment_streaming', { ch: 'online' }, [
    ['^PARAMOUNT+|^PARAMOUNT PLUS|^PARAMOUNT', 'Paramount+'],
    ['PEACOCK', 'Peacock'],
    ['CRUNCHYROLL', 'Crunchyroll'],
    ['SLING TV|SLING COM', 'Sling TV'],
    ['FUBOTV|FUBO', 'Fubo'],
    ['DAZN', 'DAZN'],
    ['NOW TV|NOWTV', 'NOW'],
    ['BRITBOX', 'BritBox'],
    ['^CRAVE', 'Crave'],
    ['CANAL+|CANAL PLUS|CANALPLUS', 'Canal+'],
    ['TWITCH', 'Twitch'],
  ]),
  ['SPOTIFY', 'Spotify', 'entertainment_streaming', { ch: 'online' }],
  ['YOUTUBE PREMIUM|YOUTUBEPREMIUM|YOUTUBE TV|YOUTUBE', 'YouTube', 'entertainment_streaming', { ch: 'online' }],
  group('Amazon media', 'entertainment_streaming', { ch: 'online' }, [
    ['PRIME VIDEO|AMAZON PRIME VIDEO', 'Prime Video'],
    ['AMAZON DIGITAL|AMZN DIGITAL|AMAZON MUSIC', 'Amazon Digital'],
  ]),
  ['APPLE TV|APPLE MUSIC', 'Apple Media', 'entertainment_streaming', { ch: 'online' }],
  group('Music and radio', 'entertainment_streaming', { ch: 'online' }, [
    ['PANDORA', 'Pandora'],
    ['SIRIUSXM|SIRIUS XM|SIRIUS', 'SiriusXM'],
    ['^TIDAL', 'Tidal'],
    ['DEEZER', 'Deezer'],
  ]),
  ['PATREON', 'Patreon', 'entertainment_other', { ch: 'online' }],

  // events, games, gambling, other entertainment
  ['TICKETMASTER', 'Ticketmaster', 'entertainment_events', { ch: 'online' }],
  ['LIVE NATION|LIVENATION', 'Live Nation', 'entertainment_events', { ch: 'online' }],
  ['STUBHUB', 'StubHub', 'entertainment_events', { ch: 'online' }],
  ['EVENTBRITE', 'Eventbrite', 'entertainment_events', { ch: 'online' }],
  ['SEATGEEK', 'SeatGeek', 'entertainment_events', { ch: 'online' }],
  ['^AMC THEATRES|^AMC THEATERS|^AMC', 'AMC Theatres', 'entertainment_events'],
  ['^REGAL CINEMAS|^REGAL', 'Regal', 'entertainment_events'],
  group('Cinema chains', 'entertainment_events', {}, [
    ['CINEMARK', 'Cinemark'],
    ['ODEON', 'Odeon'],
    ['CINEWORLD', 'Cineworld'],
    ['CINEPLEX', 'Cineplex'],
  ]),
  ['FANDANGO', 'Fandango', 'entertainment_events', { ch: 'online' }],
  group('Theme parks', 'entertainment_events', {}, [
    ['SIX FLAGS', 'Six Flags'],
    ['DISNEYLAND|WALT DISNEY WORLD|WDW|DISNEY RESORT', 'Disney Parks'],
    ['UNIVERSAL STUDIOS|UNIVERSAL ORLANDO', 'Universal Parks'],
  ]),
  ['STEAMGAMES|STEAM GAMES|STEAM PURCHASE|STEAMPOWERED', 'Steam', 'entertainment_video_games', { ch: 'online' }],
  ['PLAYSTATION NETWORK|PLAYSTATIONNETWORK|PLAYSTATION|SONY PLAYSTATION', 'PlayStation', 'entertainment_video_games', { ch: 'online' }],
  ['XBOX|MICROSOFT XBOX|MSFT XBOX', 'Xbox', 'entertainment_video_games', { ch: 'online' }],
  ['NINTENDO', 'Nintendo', 'entertainment_video_games', { ch: 'online' }],
  group('Game publishers', 'entertainment_video_games', { ch: 'online' }, [
    ['EPIC GAMES', 'Epic Games'],
    ['BLIZZARD', 'Blizzard'],
    ['ROBLOX', 'Roblox'],
    ['RIOT GAMES', 'Riot Games'],
    ['ELECTRONIC ARTS|EA GAMES', 'Electronic Arts'],
  ]),
  ['GAMESTOP', 'GameStop', 'entertainment_video_games', { ch: 'in_store' }],
  group('Sportsbooks', 'entertainment_gambling', { ch: 'online' }, [
    ['DRAFTKINGS', 'DraftKings'],
    ['FANDUEL', 'FanDuel'],
    ['BETMGM', 'BetMGM'],
    ['BET365', 'bet365'],
    ['WILLIAM HILL', 'William Hill'],
    ['PADDY POWER', 'Paddy Power'],
  ]),
  group('Family entertainment centers', 'entertainment_other', {}, [
    ['TOPGOLF', 'Topgolf'],
    ['DAVE & BUSTERS|DAVE BUSTERS|DAVE AND BUSTERS', "Dave & Buster's"],
    ['BOWLERO', 'Bowlero'],
    ['ROUND1', 'Round1'],
  ]),

  // health, pharmacy, fitness, beauty
  ['CVS PHARMACY|CVS', 'CVS Pharmacy', 'health_and_personal_care_pharmacy'],
  group('Walgreens Boots Alliance', 'health_and_personal_care_pharmacy', {}, [
    ['DUANE READE', 'Duane Reade'],
    ['WALGREENS', 'Walgreens'],
  ]),
  group('US pharmacies', 'health_and_personal_care_pharmacy', {}, [
    ['RITE AID', 'Rite Aid'],
    ['EXPRESS SCRIPTS', 'Express Scripts'],
  ]),
  group('UK pharmacies', 'health_and_personal_care_pharmacy', {}, [
    ['^BOOTS', 'Boots'],
    ['SUPERDRUG', 'Superdrug'],
    ['LLOYDS PHARMACY', 'Lloyds Pharmacy'],
  ]),
  group('Canadian pharmacies', 'health_and_personal_care_pharmacy', {}, [
    ['SHOPPERS DRUG MART|SHOPPERS DRUG', 'Shoppers Drug Mart'],
    ['REXALL', 'Rexall'],
  ]),
  group('German drugstores', 'health_and_personal_care_pharmacy', {}, [
    ['DM DROGERIE|DM FIL', 'dm-drogerie markt'],
    ['ROSSMANN', 'Rossmann'],
  ]),
  group('Vitamins and supplements', 'health_and_personal_care_pharmacy', {}, [
    ['^GNC', 'GNC'],
    ['VITAMIN SHOPPE', 'The Vitamin Shoppe'],
    ['HOLLAND & BARRETT|HOLLAND BARRETT', 'Holland & Barrett'],
  ]),
  ['GOODRX', 'GoodRx', 'health_and_personal_care_pharmacy', { ch: 'online' }],
  group('Clinics', 'health_and_personal_care_doctors', {}, [
    ['ONE MEDICAL|1LIFE HEALTHCARE', 'One Medical'],
    ['MINUTECLINIC|MINUTE CLINIC', 'MinuteClinic'],
    ['KAISER PERMANENTE|KAISER', 'Kaiser Permanente'],
  ]),
  group('Telehealth', 'health_and_personal_care_doctors', { ch: 'online' }, [
    ['ZOCDOC', 'Zocdoc'],
    ['TELADOC', 'Teladoc'],
  ]),
  group('Labs', 'health_and_personal_care_other_medical', {}, [
    ['QUEST DIAGNOSTICS', 'Quest Diagnostics'],
    ['LABCORP', 'Labcorp'],
  ]),
  group('Eye care', 'health_and_personal_care_other_medical', {}, [
    ['WARBY PARKER', 'Warby Parker'],
    ['LENSCRAFTERS', 'LensCrafters'],
  ]),
  group('Online therapy', 'health_and_personal_care_other_medical', { ch: 'online' }, [
    ['BETTERHELP', 'BetterHelp'],
    ['TALKSPACE', 'Talkspace'],
  ]),
  ['ASPEN DENTAL', 'Aspen Dental', 'health_and_personal_care_dental'],
  ['PLANET FITNESS|PLANET FIT|PLANETFITNESS', 'Planet Fitness', 'health_and_personal_care_fitness'],
  ['LA FITNESS', 'LA Fitness', 'health_and_personal_care_fitness'],
  ['EQUINOX', 'Equinox', 'health_and_personal_care_fitness'],
  ['24 HOUR FITNESS|24 HOUR FIT', '24 Hour Fitness', 'health_and_personal_care_fitness'],
  ['ANYTIME FITNESS', 'Anytime Fitness', 'health_and_personal_care_fitness'],
  ['ORANGETHEORY|ORANGE THEORY', 'Orangetheory Fitness', 'health_and_personal_care_fitness'],
  ['^CRUNCH FITNESS|^CRUNCH', 'Crunch Fitness', 'health_and_personal_care_fitness'],
  ['LIFE TIME FITNESS|LIFETIME FITNESS|LIFE TIME', 'Life Time', 'health_and_personal_care_fitness'],
  ["GOLD'S GYM|GOLDS GYM", "Gold's Gym", 'health_and_personal_care_fitness'],
  ['SOULCYCLE', 'SoulCycle', 'health_and_personal_care_fitness'],
  ['PELOTON', 'Peloton', 'health_and_personal_care_fitness', { ch: 'online' }],
  group('Fitness apps', 'health_and_personal_care_fitness', { ch: 'online' }, [
    ['CLASSPASS', 'ClassPass'],
    ['STRAVA', 'Strava'],
  ]),
  ['YMCA', 'YMCA', 'health_and_personal_care_fitness'],
  ['PUREGYM|PURE GYM', 'PureGym', 'health_and_personal_care_fitness'],
  group('UK and Canadian gyms', 'health_and_personal_care_fitness', {}, [
    ['THE GYM GROUP|GYM GROUP', 'The Gym Group'],
    ['DAVID LLOYD', 'David Lloyd'],
    ['GOODLIFE FITNESS|GOODLIFE', 'GoodLife Fitness'],
  ]),
  group('Hair salons', 'health_and_personal_care_beauty', {}, [
    ['GREAT CLIPS', 'Great Clips'],
    ['SUPERCUTS', 'Supercuts'],
    ['SPORT CLIPS', 'Sport Clips'],
  ]),
  group('Spa and waxing', 'health_and_personal_care_beauty', {}, [
    ['EUROPEAN WAX', 'European Wax Center'],
    ['MASSAGE ENVY', 'Massage Envy'],
  ]),

  // insurance
  ['GEICO', 'GEICO', 'services_and_government_insurance'],
  ['^PROGRESSIVE', 'Progressive', 'services_and_government_insurance'],
  ['STATE FARM', 'State Farm', 'services_and_government_insurance'],
  ['ALLSTATE', 'Allstate', 'services_and_government_insurance'],
  ['LIBERTY MUTUAL', 'Liberty Mutual', 'services_and_government_insurance'],
  ['FARMERS INS|FARMERS INSURANCE', 'Farmers Insurance', 'services_and_government_insurance'],
  ['^NATIONWIDE', 'Nationwide', 'services_and_government_insurance'],
  ['^LEMONADE INS|^LEMONADE', 'Lemonade', 'services_and_government_insurance'],
  ['USAA P&C|USAA PC|USAA INS', 'USAA Insurance', 'services_and_government_insurance'],
  ['METLIFE', 'MetLife', 'services_and_government_insurance'],
  ['AETNA', 'Aetna', 'services_and_government_insurance'],
  ['CIGNA', 'Cigna', 'services_and_government_insurance'],
  ['BLUE CROSS|BLUE SHIELD|BCBS', 'Blue Cross Blue Shield', 'services_and_government_insurance'],
  ['UNITEDHEALTH|UHC', 'UnitedHealthcare', 'services_and_government_insurance'],
  ['HUMANA', 'Humana', 'services_and_government_insurance'],
  group('UK insurers', 'services_and_government_insurance', {}, [
    ['AVIVA', 'Aviva'],
    ['^ADMIRAL INSURANCE|^ADMIRAL', 'Admiral'],
    ['DIRECT LINE', 'Direct Line'],
  ]),
  group('European insurers', 'services_and_government_insurance', {}, [
    ['ALLIANZ', 'Allianz'],
    ['^AXA', 'AXA'],
  ]),
  group('Canadian insurers', 'services_and_government_insurance', {}, [
    ['TD INSURANCE', 'TD Insurance'],
    ['^INTACT INS|^INTACT', 'Intact Insurance'],
  ]),
  ['ROOT INS', 'Root Insurance', 'services_and_government_insurance'],

  // childcare, education, professional services
  group('Childcare centers', 'services_and_government_childcare', {}, [
    ['KINDERCARE', 'KinderCare'],
    ['BRIGHT HORIZONS', 'Bright Horizons'],
  ]),
  ['CARE COM|CARE.COM', 'Care.com', 'services_and_government_childcare', { ch: 'online' }],
  group('Online learning', 'services_and_government_education', { ch: 'online' }, [
    ['COURSERA', 'Coursera'],
    ['UDEMY', 'Udemy'],
    ['MASTERCLASS', 'MasterClass'],
    ['CHEGG', 'Chegg'],
    ['SKILLSHARE', 'Skillshare'],
  ]),
  ['DUOLINGO', 'Duolingo', 'services_and_government_education', { ch: 'online' }],
  ['H&R BLOCK|HR BLOCK|H R BLOCK', 'H&R Block', 'services_and_government_professional_services'],
  ['TURBOTAX|INTUIT TURBOTAX', 'TurboTax', 'services_and_government_professional_services', { ch: 'online' }],
  group('Online tax and legal', 'services_and_government_professional_services', { ch: 'online' }, [
    ['LEGALZOOM', 'LegalZoom'],
    ['ROCKET LAWYER', 'Rocket Lawyer'],
  ]),
  ['GUSTO', 'Gusto', 'services_and_government_professional_services', { ch: 'online' }],

  // software, cloud and apps
  group('Apple services', 'services_and_government_software', { ch: 'online' }, [
    ['APPLE COM BILL|APPLE.COM/BILL|APPLE COM|ITUNES', 'Apple'],
    ['ICLOUD', 'iCloud'],
  ]),
  group('Google', 'services_and_government_software', { ch: 'online' }, [
    ['GOOGLE STORAGE|GOOGLE ONE', 'Google One'],
    ['GOOGLE WORKSPACE|GSUITE|G SUITE', 'Google Workspace'],
    ['^GOOGLE PLAY|^GOOGLE', 'Google'],
  ]),
  ['DROPBOX', 'Dropbox', 'services_and_government_software', { ch: 'online' }],
  ['MICROSOFT 365|MICROSOFT OFFICE|MSFT|MICROSOFT', 'Microsoft', 'services_and_government_software', { ch: 'online' }],
  ['ADOBE', 'Adobe', 'services_and_government_software', { ch: 'online' }],
  group('Security and VPN', 'services_and_government_software', { ch: 'online' }, [
    ['NORTON|NORTONLIFELOCK', 'Norton'],
    ['MCAFEE', 'McAfee'],
    ['1PASSWORD|AGILEBITS', '1Password'],
    ['LASTPASS', 'LastPass'],
    ['NORDVPN|NORD VPN|NORDSEC', 'NordVPN'],
    ['EXPRESSVPN', 'ExpressVPN'],
    ['BACKBLAZE', 'Backblaze'],
  ]),
  ['NOTION', 'Notion', 'services_and_government_software', { ch: 'online' }],
  ['SLACK', 'Slack', 'services_and_government_software', { ch: 'online' }],
  ['ZOOM US|ZOOM COM|ZOOM VIDEO', 'Zoom', 'services_and_government_software', { ch: 'online' }],
  ['GITHUB', 'GitHub', 'services_and_government_software', { ch: 'online' }],
  group('AI assistants', 'services_and_government_software', { ch: 'online' }, [
    ['OPENAI|CHATGPT', 'OpenAI'],
    ['ANTHROPIC|CLAUDE AI', 'Anthropic'],
  ]),
  ['CANVA', 'Canva', 'services_and_government_software', { ch: 'online' }],
  ['GRAMMARLY', 'Grammarly', 'services_and_government_software', { ch: 'online' }],
  ['EVERNOTE', 'Evernote', 'services_and_government_software', { ch: 'online' }],
  ['AMAZON WEB SERVICES|AWS', 'Amazon Web Services', 'services_and_government_software', { ch: 'online' }],
  group('Web and business tools', 'services_and_government_software', { ch: 'online' }, [
    ['DIGITALOCEAN', 'DigitalOcean'],
    ['GODADDY', 'GoDaddy'],
    ['SQUARESPACE', 'Squarespace'],
    ['WIX COM', 'Wix'],
    ['MAILCHIMP', 'Mailchimp'],
  ]),
  ['SHOPIFY', 'Shopify', 'services_and_government_software', { ch: 'online', in: 'income_other' }],
  ['QUICKBOOKS|QBOOKS|INTUIT QBOOKS', 'QuickBooks', 'services_and_government_software', { ch: 'online' }],
  ['DOCUSIGN', 'DocuSign', 'services_and_government_software', { ch: 'online' }],
  ['ATLASSIAN', 'Atlassian', 'services_and_government_software', { ch: 'online' }],
  ['LINKEDIN', 'LinkedIn', 'services_and_government_software', { ch: 'online' }],
  ['FIGMA', 'Figma', 'services_and_government_software', { ch: 'online' }],

  // donations, taxes, government fees
  ['AMERICAN RED CROSS|RED CROSS', 'American Red Cross', 'services_and_government_donations'],
  group('Charities', 'services_and_government_donations', {}, [
    ['UNICEF', 'UNICEF'],
    ['UNITED WAY', 'United Way'],
    ['SALVATION ARMY', 'The Salvation Army'],
    ['DOCTORS WITHOUT BORDERS', 'Doctors Without Borders'],
    ['ST JUDE|ST. JUDE', "St. Jude Children's Research Hospital"],
    ['OXFAM', 'Oxfam'],
  ]),
  group('Online fundraising', 'services_and_government_donations', { ch: 'online' }, [
    ['GOFUNDME', 'GoFundMe'],
    ['ACTBLUE', 'ActBlue'],
    ['WINRED', 'WinRed'],
    ['WIKIMEDIA|WIKIPEDIA', 'Wikimedia Foundation'],
  ]),
  ['^IRS USATAXPYMT|^IRS', 'IRS', 'services_and_government_taxes', { in: 'income_tax_refund', ch: 'other' }],
  group('Other tax authorities', 'services_and_government_taxes', { in: 'income_tax_refund', ch: 'other' }, [
    ['FRANCHISE TAX BD|FRANCHISE TAX', 'California Franchise Tax Board'],
    ['HMRC', 'HMRC'],
    ['RECEIVER GENERAL', 'Receiver General for Canada'],
    ['FINANZAMT', 'Finanzamt'],
    ['DGFIP', 'DGFiP'],
  ]),
  group('Licensing agencies', 'services_and_government_government_fees', {}, [
    ['DMV|DEPT OF MOTOR VEH|NYS DMV|CA DMV', 'DMV'],
    ['DVLA', 'DVLA'],
    ['US PASSPORT|PASSPORT SERVICES', 'U.S. Passport Services'],
  ]),
  ['TSA PRECHECK', 'TSA PreCheck', 'services_and_government_government_fees', { ch: 'online' }],

  // postage, storage, other services
  ['USPS', 'USPS', 'services_and_government_other'],
  group('Parcel carriers', 'services_and_government_other', {}, [
    ['^THE UPS STORE|^THE UPS|^UPS STORE|^UPS', 'UPS'],
    ['FEDEX', 'FedEx'],
    ['DHL', 'DHL'],
  ]),
  group('National post offices', 'services_and_government_other', {}, [
    ['ROYAL MAIL', 'Royal Mail'],
    ['POST OFFICE', 'Post Office'],
    ['CANADA POST|POSTES CANADA', 'Canada Post'],
    ['DEUTSCHE POST', 'Deutsche Post'],
    ['LA POSTE', 'La Poste'],
  ]),
  group('Self storage', 'services_and_government_other', {}, [
    ['PUBLIC STORAGE', 'Public Storage'],
    ['EXTRA SPACE', 'Extra Space Storage'],
    ['CUBESMART', 'CubeSmart'],
  ]),
  ['COSTCO MEMBERSHIP|COSTCO MBR', 'Costco Membership', 'services_and_government_other'],

  // rent
  ['^BILT RENT|^BILT', 'Bilt Rewards', 'rent_and_utilities_rent', { ch: 'online' }],
  ['^APPFOLIO|^APF', 'AppFolio', 'rent_and_utilities_rent', { ch: 'online' }],
  group('Rent platforms', 'rent_and_utilities_rent', { ch: 'online' }, [
    ['RENTCAFE|RENT CAFE|YARDI', 'RentCafe'],
    ['BUILDIUM', 'Buildium'],
    ['RENTPAYMENT|RENTPAYMENT COM', 'RentPayment'],
    ['ZILLOW RENT|ZILLOW RENTAL', 'Zillow Rentals'],
  ]),
  group('Property managers', 'rent_and_utilities_rent', {}, [
    ['AVALONBAY|AVALON COMMUNITIES', 'AvalonBay'],
    ['ESSEX PROPERTY', 'Essex Property Trust'],
    ['GREYSTAR', 'Greystar'],
    ['EQUITY RESIDENTIAL|EQR', 'Equity Residential'],
    ['CORTLAND', 'Cortland'],
    ['FOXTONS', 'Foxtons'],
  ]),
  group('Coworking', 'rent_and_utilities_rent', {}, [
    ['WEWORK', 'WeWork'],
    ['REGUS', 'Regus'],
  ]),

  // electricity and gas
  ['PG&E|PGE|PGANDE|PACIFIC GAS', 'PG&E', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  ['CON ED|CONED|CONSOLIDATED EDISON', 'Con Edison', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  ['DUKE ENERGY|DUKE-ENERGY|DUKEENERGY', 'Duke Energy', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  group('Southeast utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['DOMINION ENERGY', 'Dominion Energy'],
    ['^FPL|^FLORIDA POWER', 'Florida Power & Light'],
    ['GEORGIA POWER', 'Georgia Power'],
    ['ENTERGY', 'Entergy'],
  ]),
  group('Southern California utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['^SO CAL EDISON|^SOCALEDISON|^SOUTHERN CALIFORNIA EDISON|^SCE', 'Southern California Edison'],
    ['SOCALGAS|SO CAL GAS|SOCAL GAS', 'SoCalGas'],
  ]),
  group('Midwest utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['XCEL ENERGY', 'Xcel Energy'],
    ['COMED', 'ComEd'],
    ['AMEREN', 'Ameren'],
    ['DTE ENERGY', 'DTE Energy'],
    ['CONSUMERS ENERGY', 'Consumers Energy'],
  ]),
  group('Northeast utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['^PECO', 'PECO'],
    ['PSEG|PSE G|PSE&G', 'PSE&G'],
    ['NATIONAL GRID|NATIONALGRID', 'National Grid'],
    ['EVERSOURCE', 'Eversource'],
  ]),
  ['PUGET SOUND ENERGY|PUGET SOUND ENER|PUGET SOUND', 'Puget Sound Energy', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  group('Western utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['SEATTLE CITY LIGHT|SEATTLE CITY LIG', 'Seattle City Light'],
    ['AUSTIN ENERGY', 'Austin Energy'],
  ]),
  group('Retail energy and gas', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['XOOM ENERGY|TXU ENERGY|RELIANT ENERGY', 'Retail Electricity Provider'],
    ['NICOR GAS|PEOPLES GAS|ATMOS ENERGY|PIEDMONT NATURAL|CENTERPOINT', 'Gas Utility'],
  ]),
  ['BRITISH GAS', 'British Gas', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  group('UK energy suppliers', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['^OCTOPUS ENERGY|^OCTOPUS', 'Octopus Energy'],
    ['^EDF ENERGY|^EDF', 'EDF'],
    ['^E ON|^EON NEXT|^E ON NEXT', 'E.ON'],
    ['OVO ENERGY', 'OVO Energy'],
    ['SCOTTISH POWER', 'ScottishPower'],
  ]),
  group('Canadian utilities', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['HYDRO ONE', 'Hydro One'],
    ['BC HYDRO', 'BC Hydro'],
    ['TORONTO HYDRO', 'Toronto Hydro'],
    ['HYDRO QUEBEC|HYDRO-QUEBEC', 'Hydro-Québec'],
    ['ENBRIDGE', 'Enbridge Gas'],
    ['FORTISBC', 'FortisBC'],
  ]),
  group('European energy', 'rent_and_utilities_gas_and_electricity', { ch: 'other' }, [
    ['ENGIE', 'Engie'],
    ['VATTENFALL', 'Vattenfall'],
    ['STADTWERKE', 'Stadtwerke'],
    ['ENBW', 'EnBW'],
  ]),

  // water
  group('US water utilities', 'rent_and_utilities_water', { ch: 'other' }, [
    ['AMERICAN WATER', 'American Water'],
    ['SFPUC|SF WATER', 'SFPUC'],
    ['AUSTIN WATER', 'Austin Water'],
    ['NYC WATER|NYCWATER', 'NYC Water Board'],
    ['DENVER WATER', 'Denver Water'],
  ]),
  ['^SEATTLE PUBLIC UTILITIES|^SEATTLE PUBLIC UTIL|^SPU', 'Seattle Public Utilities', 'rent_and_utilities_water', { ch: 'other' }],
  group('UK water companies', 'rent_and_utilities_water', { ch: 'other' }, [
    ['THAMES WATER', 'Thames Water'],
    ['SEVERN TRENT', 'Severn Trent'],
    ['ANGLIAN WATER', 'Anglian Water'],
    ['UNITED UTILITIES', 'United Utilities'],
  ]),
  group('European water', 'rent_and_utilities_water', { ch: 'other' }, [
    ['VEOLIA', 'Veolia'],
    ['EAU DE PARIS', 'Eau de Paris'],
    ['BERLINER WASSER', 'Berliner Wasserbetriebe'],
  ]),

  // internet, cable and TV
  ['COMCAST|XFINITY', 'Xfinity', 'rent_and_utilities_internet_and_cable', { ch: 'other' }],
  ['^SPECTRUM|^CHARTER COMM', 'Spectrum', 'rent_and_utilities_internet_and_cable', { ch: 'other' }],
  group('US cable and fiber', 'rent_and_utilities_internet_and_cable', { ch: 'other' }, [
    ['COX COMM|COX COMMUNICATIONS', 'Cox'],
    ['OPTIMUM|ALTICE', 'Optimum'],
    ['FRONTIER COMM|FRONTIER COMMUNICATIONS', 'Frontier'],
    ['CENTURYLINK|LUMEN|QUANTUM FIBER', 'CenturyLink'],
    ['GOOGLE FIBER', 'Google Fiber'],
    ['ZIPLY', 'Ziply Fiber'],
    ['ASTOUND|WAVE BROADBAND|RCN', 'Astound'],
  ]),
  ['VERIZON FIOS|FIOS', 'Verizon Fios', 'rent_and_utilities_internet_and_cable', { ch: 'other' }],
  ['STARLINK', 'Starlink', 'rent_and_utilities_internet_and_cable', { ch: 'online' }],
  group('Satellite TV', 'rent_and_utilities_internet_and_cable', { ch: 'other' }, [
    ['DIRECTV', 'DirecTV'],
    ['DISH NETWORK|DISH NET', 'Dish'],
  ]),
  group('UK broadband', 'rent_and_utilities_internet_and_cable', { ch: 'other' }, [
    ['VIRGIN MEDIA', 'Virgin Media'],
    ['^BT GROUP|^BT BROADBAND|^BT', 'BT'],
    ['SKY DIGITAL|SKY UK|SKY BROADBAND|SKY SUBSCRIPTION', 'Sky'],
    ['TALKTALK', 'TalkTalk'],
  ]),
  group('Canadian cable', 'rent_and_utilities_internet_and_cable', { ch: 'other' }, [
    ['^SHAW CABLE|^SHAW COMM|^SHAW', 'Shaw'],
    ['VIDEOTRON', 'Vidéotron'],
  ]),
  group('European broadband', 'rent_and_utilities_internet_and_cable', { ch: 'other' }, [
    ['FREE TELECOM|FREEBOX', 'Free'],
    ['VODAFONE KABEL|KABEL DEUTSCHLAND', 'Vodafone Kabel'],
  ]),

  // phone
  ['VERIZON WIRELESS|VZWRLSS|VZ WIRELESS|VERIZON', 'Verizon', 'rent_and_utilities_phone', { ch: 'other' }],
  group('AT&T', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['^AT&T|^ATT|^AT T', 'AT&T'],
    ['^CRICKET WIRELESS|^CRICKET', 'Cricket Wireless'],
  ]),
  group('T-Mobile US', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['T-MOBILE|TMOBILE|T MOBILE', 'T-Mobile'],
    ['^SPRINT', 'Sprint'],
    ['METROPCS|METRO BY T MOBILE', 'Metro by T-Mobile'],
  ]),
  group('US prepaid carriers', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['BOOST MOBILE', 'Boost Mobile'],
    ['US CELLULAR', 'UScellular'],
    ['TRACFONE|STRAIGHT TALK', 'Tracfone'],
  ]),
  group('Online mobile carriers', 'rent_and_utilities_phone', { ch: 'online' }, [
    ['MINT MOBILE', 'Mint Mobile'],
    ['GOOGLE FI|GOOGLE  FI', 'Google Fi'],
    ['^VISIBLE', 'Visible'],
    ['GIFFGAFF', 'giffgaff'],
  ]),
  group('UK mobile', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['VODAFONE', 'Vodafone'],
    ['^O2', 'O2'],
    ['^EE LIMITED|^EE', 'EE'],
    ['THREE UK|H3G', 'Three'],
  ]),
  group('Rogers Communications', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['^ROGERS', 'Rogers'],
    ['^FIDO', 'Fido'],
  ]),
  group('Telus', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['TELUS', 'Telus'],
    ['KOODO', 'Koodo'],
  ]),
  group('Canadian mobile', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['BELL CANADA|BELL MOBILITY', 'Bell'],
    ['FREEDOM MOBILE', 'Freedom Mobile'],
  ]),
  group('European mobile', 'rent_and_utilities_phone', { ch: 'other' }, [
    ['TELEKOM|DT TELEKOM|TELEKOM DEUTSCHLAND', 'Telekom'],
    ['^ORANGE SA|^ORANGE', 'Orange'],
    ['FREE MOBILE', 'Free Mobile'],
    ['^SFR', 'SFR'],
    ['BOUYGUES', 'Bouygues Telecom'],
  ]),

  // trash and other utilities
  group('Waste haulers', 'rent_and_utilities_other', { ch: 'other' }, [
    ['WASTE MANAGEMENT|WM EZPAY|WM CORPORATE', 'Waste Management'],
    ['REPUBLIC SERVICES', 'Republic Services'],
    ['RECOLOGY', 'Recology'],
    ['WASTE CONNECTIONS', 'Waste Connections'],
  ]),

  // loans and buy-now-pay-later
  group('Student loan servicers', 'loan_payments_student_loan', { ch: 'other' }, [
    ['NAVIENT', 'Navient'],
    ['NELNET', 'Nelnet'],
    ['MOHELA', 'MOHELA'],
    ['AIDVANTAGE', 'Aidvantage'],
    ['EDFINANCIAL', 'Edfinancial'],
    ['SALLIE MAE|SALLIEMAE', 'Sallie Mae'],
    ['FEDLOAN', 'FedLoan Servicing'],
  ]),
  group('Captive auto lenders', 'loan_payments_auto_loan', { ch: 'other' }, [
    ['^TOYOTA FINANCIAL|^TOYOTA MOTOR CR|^TOYOTA MOTOR CREDIT|^TFS', 'Toyota Financial Services'],
    ['HONDA FINANCIAL|AMERICAN HONDA|AHFC', 'Honda Financial Services'],
    ['FORD CREDIT|FORD MOTOR CR', 'Ford Credit'],
    ['GM FINANCIAL', 'GM Financial'],
    ['NISSAN MOTOR ACC|NMAC|NISSAN FINANCE', 'Nissan Motor Acceptance'],
    ['HYUNDAI MOTOR FIN|HYUNDAI CAPITAL', 'Hyundai Motor Finance'],
    ['VW CREDIT|VOLKSWAGEN CREDIT', 'VW Credit'],
    ['BMW FINANCIAL|BMW FS', 'BMW Financial Services'],
    ['TESLA FINANCE|TESLA LEASE', 'Tesla Finance'],
  ]),
  group('Bank and specialty auto lenders', 'loan_payments_auto_loan', { ch: 'other' }, [
    ['ALLY AUTO|ALLY PAYMT|ALLY PAYMENT', 'Ally Auto'],
    ['CAPITAL ONE AUTO|CAP ONE AUTO', 'Capital One Auto Finance'],
    ['CARMAX AUTO', 'CarMax Auto Finance'],
    ['SANTANDER CONSUMER|CHRYSLER CAPITAL', 'Santander Consumer USA'],
  ]),
  group('Mortgage servicers', 'loan_payments_mortgage', { ch: 'other' }, [
    ['ROCKET MORTGAGE|QUICKEN LOANS', 'Rocket Mortgage'],
    ['MR COOPER|MR. COOPER', 'Mr. Cooper'],
    ['PENNYMAC', 'PennyMac'],
    ['NEWREZ|SHELLPOINT', 'Newrez'],
    ['LOANCARE', 'LoanCare'],
    ['FREEDOM MORTGAGE', 'Freedom Mortgage'],
  ]),
  group('Personal lenders', 'loan_payments_personal_loan', { ch: 'other', in: 'transfer_in_loan_proceeds' }, [
    ['LENDINGCLUB|LENDING CLUB', 'LendingClub'],
    ['UPSTART', 'Upstart'],
    ['^PROSPER', 'Prosper'],
    ['ONEMAIN|ONE MAIN FIN', 'OneMain Financial'],
    ['BEST EGG', 'Best Egg'],
  ]),
  group('Buy now, pay later', 'loan_payments_bnpl', { ch: 'online' }, [
    ['AFFIRM', 'Affirm'],
    ['KLARNA', 'Klarna'],
    ['AFTERPAY|CLEARPAY', 'Afterpay'],
    ['SEZZLE', 'Sezzle'],
    ['ZIP CO|QUADPAY|ZIP PAY', 'Zip'],
  ]),

  // card issuers: a payment to them is a credit-card payment
  ['AMEX EPAYMENT|AMERICAN EXPRESS ACH PMT|AMEX ACH PMT|AMERICAN EXPRESS', 'American Express', 'loan_payments_credit_card', { ch: 'transfer' }],
  ['^DISCOVER E PAYMENT|^DISCOVER EPAYMENT|^DISCOVER CARD|^DISCOVER', 'Discover', 'loan_payments_credit_card', { ch: 'transfer' }],
  ['CAPITAL ONE MOBILE PMT|CAPITAL ONE ONLINE PMT|CAPITAL ONE CRCARDPMT|CAPITAL ONE', 'Capital One', 'loan_payments_credit_card', { ch: 'transfer' }],
  group('Card issuers', 'loan_payments_credit_card', { ch: 'transfer' }, [
    ['CITI AUTOPAY|CITI CARD ONLINE|CITICARD', 'Citi'],
    ['APPLECARD GSBANK|APPLE CARD GSBANK|GSBANK', 'Apple Card'],
    ['SYNCHRONY|SYNCB', 'Synchrony'],
    ['BARCLAYCARD', 'Barclaycard'],
    ['COMENITY|COMENITY BANK|COMENITYCAPITAL', 'Comenity'],
    ['CREDIT ONE BANK', 'Credit One Bank'],
    ['MERRICK BANK', 'Merrick Bank'],
    ['CHASE EPAY|CHASE CARD SERV|CHASE CARDMEMBER', 'Chase'],
  ]),

  // investments, crypto and brokerages (funding from a bank account)
  ['VANGUARD', 'Vanguard', 'transfer_out_investment', { in: 'transfer_in_investment', ch: 'transfer' }],
  ['FIDELITY|FID BKG SVC|FIDELITY INVESTMENTS', 'Fidelity', 'transfer_out_investment', { in: 'transfer_in_investment', ch: 'transfer' }],
  ['SCHWAB|CHARLES SCHWAB', 'Charles Schwab', 'transfer_out_investment', { in: 'transfer_in_investment', ch: 'transfer' }],
  group('Brokerages and robo-advisors', 'transfer_out_investment', { in: 'transfer_in_investment', ch: 'transfer' }, [
    ['ROBINHOOD', 'Robinhood'],
    ['BETTERMENT', 'Betterment'],
    ['WEALTHFRONT', 'Wealthfront'],
    ['E*TRADE|E TRADE|ETRADE', 'E*TRADE'],
    ['ACORNS', 'Acorns'],
    ['WEALTHSIMPLE', 'Wealthsimple'],
    ['TRADING 212|TRADING212', 'Trading 212'],
  ]),
  ['COINBASE', 'Coinbase', 'transfer_out_crypto', { in: 'transfer_in_investment', ch: 'transfer' }],
  group('Crypto exchanges', 'transfer_out_crypto', { in: 'transfer_in_investment', ch: 'transfer' }, [
    ['KRAKEN|PAYWARD', 'Kraken'],
    ['CRYPTO COM|CRYPTO.COM', 'Crypto.com'],
    ['^GEMINI', 'Gemini'],
    ['BINANCE', 'Binance'],
  ]),

  // payment processors paying out to a merchant's bank account
  ['STRIPE', 'Stripe', 'services_and_government_professional_services', { in: 'income_other', ch: 'online' }],
  ['SQUARE INC|SQUARE DEPOSIT', 'Square', 'services_and_government_professional_services', { in: 'income_other', ch: 'other' }],
  group('Freelance marketplaces', 'services_and_government_professional_services', { in: 'income_wages', ch: 'online' }, [
    ['UPWORK', 'Upwork'],
    ['FIVERR', 'Fiverr'],
  ]),
  ['^PAYPAL', 'PayPal', 'shopping_online_marketplaces', { in: 'transfer_in_account_transfer', ch: 'online' }],
];

// ---------------------------------------------------------------------------------------------
// Tier D: category words. The first rule with a phrase in the descriptor wins, except that a phrase
// lying inside a longer matching phrase does not count (ANIMAL HOSPITAL, a pets phrase, beats
// HOSPITAL; RENT A CAR beats RENT). merchant_name is the cleaned descriptor unless the rule says otherwise.
// ---------------------------------------------------------------------------------------------
export const GENERIC_KEYWORDS: readonly KeywordRow[] = [
  // utilities and housing
  ['ELECTRIC CO|ELECTRIC BILL|ELECTRICITY|POWER CO|POWER COMPANY|LIGHT POWER|LIGHT AND POWER|NATURAL GAS|GAS CO|GAS COMPANY|GAS UTILITY|STROM|ENERGIE|ELECTRIC UTILITY', null, 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  ['WTR|WATER SEWER|WATER UTIL|WATER UTILITY|WATER DEPT|WATER BOARD|WATER BUREAU|WATER BILL|WATER SERVICES|WATER DISTRICT|WATERWORKS|WASSER|WASSERBETRIEBE', null, 'rent_and_utilities_water', { ch: 'other' }],
  ['TRASH|RECYCLING|SANITATION|SEWER|UTILITIES|UTILITY|UTIL|REFUSE', null, 'rent_and_utilities_other', { ch: 'other' }],
  ['BROADBAND|INTERNET SVC|CABLE TV|FIBER', null, 'rent_and_utilities_internet_and_cable', { ch: 'other' }],
  ['WIRELESS|MOBILE BILL|TELECOM|CELLULAR', null, 'rent_and_utilities_phone', { ch: 'other' }],
  ['RENT|RENT PAYMENT|APARTMENTS|APARTMENT|APTS|PROPERTY MGMT|PROPERTY MANAGEMENT|PROPERTIES|LANDLORD|LETTINGS|MIETE|LOYER|HOUSING', null, 'rent_and_utilities_rent', { ch: 'other' }],
  ['HOA|HOMEOWNERS ASSOC|HOMEOWNERS ASSN|CONDO ASSN', null, 'home_other', { ch: 'other' }],
  ['INSURANCE|INS PREM|INSUR|ASSURANCE|VERSICHERUNG|INSURANCE PREM', null, 'services_and_government_insurance', { ch: 'other' }],

  // food and drink
  ['COFFEE|CAFE|CAFFE|ESPRESSO|ROASTERS|ROASTERY|ROASTING|COFFEEHOUSE|KAFFEEHAUS|TEA HOUSE|TEAHOUSE|TEA ROOM|TEAROOM|BOBA|KAFFEE', null, 'food_and_drink_coffee'],
  ['BAKERY|BAKE SHOP|BAKEHOUSE|BOULANGERIE|PATISSERIE|BAECKEREI|BACKEREI|DONUT|DONUTS|ICE CREAM|GELATO|FROZEN YOGURT|CREAMERY|JUICE|SMOOTHIE|DELI|DELICATESSEN|CHOCOLATE|CANDY|FOOD TRUCK|VENDING|CANTEEN|GELATERIA|YOGURT|FROYO|CUPCAKE|BAGEL|PASTRY|DESSERT|CONFECTIONERY|KONDITOREI|SHAVED ICE|ITALIAN ICE|WATER ICE', null, 'food_and_drink_other'],
  ['BAR|PUB|TAVERN|SALOON|BREWING|BREWERY|BREWPUB|TAPROOM|WINERY|WINE BAR|COCKTAIL|LOUNGE|LIQUOR|LIQUORS|SPIRITS|WINE|BEER|BIERGARTEN|TAPHOUSE|TAP HOUSE|TAP ROOM|ALEHOUSE|ALE HOUSE|BEER HALL|BEER GARDEN|BIERHAUS|SPEAKEASY|CIDERY|DISTILLERY|MEADERY|BOTTLE SHOP|PUBLIC HOUSE', null, 'food_and_drink_bars_and_alcohol'],
  ['BURGER|BURGERS|FRIED CHICKEN|WINGS|HOT DOG|FALAFEL|KEBAB|DONER|SHAWARMA|BURRITO|TAQUERIA|TACOS|TACO|DRIVE IN|DRIVE THRU|FAST FOOD|QUICK SERVICE|GYRO|GYROS|SANDWICH|HOAGIES|IMBISS|SNACK BAR|HOT CHICKEN', null, 'food_and_drink_fast_food'],
  ['PIZZA|PIZZERIA|TRATTORIA|OSTERIA|RISTORANTE|RESTAURANT|RESTAURANTE|REST|GRILL|BISTRO|BRASSERIE|KITCHEN|DINER|STEAKHOUSE|STEAK|SUSHI|RAMEN|PHO|THAI|NOODLE|NOODLES|DUMPLING|CANTINA|BBQ|BARBECUE|SMOKEHOUSE|SEAFOOD|OYSTER|CRAB|TAPAS|BRUNCH|EATERY|CREPERIE|TRAITEUR|CUCINA|CURRY|TANDOORI|MASALA|INDIAN CUISINE|CUISINE|CHOPHOUSE|GASTROPUB|GASTHAUS|WIRTSHAUS|GASTSTAETTE|GASTSTATTE|HIBACHI|TERIYAKI|TEPPANYAKI|IZAKAYA|YAKITORI|DIM SUM|BANH MI|POKE|WOK|HOT POT|HOTPOT|BIRYANI|TANDOOR|PUPUSERIA|CHURRASCARIA|TAVERNA|ROTISSERIE|BUFFET|CAFETERIA', null, 'food_and_drink_restaurants'],
  ['GROCERY|GROCERIES|GROCER|SUPERMARKET|SUPERMARCHE|SUPERMERCADO|FOOD MARKET|FOODS MARKET|FARMERS MARKET|FARM STAND|MKT|MARKET|BUTCHER|FISHMONGER|PRODUCE|CO OP|COOP|FOOD CO OP|LEBENSMITTEL|EPICERIE', null, 'food_and_drink_groceries'],

  // transportation
  ['FUEL|GAS STATION|GASOLINE|PETROL|PETROLEUM|TANKSTELLE|CARBURANT|CARBURANTS|GASOLINERA|TRAVEL CENTER|TRAVEL PLAZA|TRUCK STOP|EV CHARGING|CHARGING', null, 'transportation_fuel'],
  ['PARKING|PARK METER|PARKING METER|GARAGE PARKING|PARKHAUS|PARKEN|PARKSCHEIN|STATIONNEMENT|PARCHEGGIO|APARCAMIENTO|ESTACIONAMIENTO|PARKING LOT|PAY AND DISPLAY', null, 'transportation_parking'],
  ['TOLL|TOLLWAY|TOLL ROAD|TOLL PLAZA|TOLL BRIDGE|ETOLL|E TOLL|TOLLPASS|TURNPIKE|PEAGE|MAUT', null, 'transportation_tolls'],
  ['TAXI|CAB|CABS|LIMO|LIMOUSINE|CAR SERVICE|RIDESHARE', null, 'transportation_rideshare'],
  ['TRANSIT|METRO|SUBWAY FARE|BUS FARE|RAIL|RAILWAY|RAILROAD|COMMUTER|FERRY|TRANSIT AUTHORITY', null, 'transportation_public_transit'],
  ['AUTO REPAIR|AUTOMOTIVE|AUTO BODY|COLLISION|TIRE|TIRES|OIL CHANGE|LUBE|CAR WASH|CARWASH|AUTO PARTS|MECHANIC|SMOG|TOWING|MUFFLER|BRAKE|AUTO CARE|AUTOCARE|CAR CARE|AUTO SERVICE|AUTO GLASS|WINDSHIELD|DETAILING', null, 'transportation_auto_maintenance'],

  // travel
  ['AIRLINES|AIRLINE|AIRWAYS|AIR LINES|AIRFARE|AIRPORT', null, 'travel_flights', { ch: 'online' }],
  ['HOTEL|HOTELS|MOTEL|INN|RESORT|SUITES|LODGE|HOSTEL|B&B|BED AND BREAKFAST|GUESTHOUSE|GUEST HOUSE|CAMPGROUND|RV PARK', null, 'travel_lodging'],
  ['CAR RENTAL|RENT A CAR|RENTACAR|AUTOVERMIETUNG', null, 'travel_rental_cars'],
  ['CRUISE|CRUISES|TOURS|TRAVEL AGENCY|TRAVEL', null, 'travel_other'],

  // health and personal care; pets first: a pet word beats a medical one (VETERINARY ... CLINIC, PET PHARMACY)
  ['VETERINARY|VETERINARIAN|VET|ANIMAL HOSPITAL|ANIMAL CLINIC|ANIMAL MEDICAL|ANIMAL CARE|PET|PETS|PET SUPPLY|PET SUPPLIES|PET FOOD|GROOMING|KENNEL|DOGGY', null, 'shopping_pets'],
  ['PHARMACY|PHARMACIE|APOTHEKE|DRUG STORE|DRUGSTORE|DRUGS|RX|CHEMIST', null, 'health_and_personal_care_pharmacy'],
  ['DENTAL|DENTIST|DENTISTRY|DDS|DMD|ORTHODONTICS|ORTHODONTIST|ORTHODONTIC', null, 'health_and_personal_care_dental'],
  ['HOSPITAL|LAB|LABS|RADIOLOGY|IMAGING|OPTOMETRY|OPTOMETRIST|OPTICAL|EYE CARE|VISION|THERAPY|PHYSICAL THERAPY|COUNSELING|CHIROPRACTIC|CHIROPRACTOR|DERMATOLOGY|AMBULANCE', null, 'health_and_personal_care_other_medical'],
  ['MEDICAL|CLINIC|URGENT CARE|URGENTCARE|PHYSICIANS|PHYSICIAN|PEDIATRICS|PEDIATRIC|FAMILY MEDICINE|HEALTH CENTER|HEALTHCARE|MD|ARZT|PRAXIS|MEDECIN', null, 'health_and_personal_care_doctors'],
  ['GYM|FITNESS|YOGA|PILATES|CROSSFIT|BARRE|CYCLING STUDIO|CLIMBING|BOXING|MARTIAL ARTS|ATHLETIC CLUB|HEALTH CLUB|FITNESS CLUB|RACQUET CLUB|TENNIS CLUB|SWIM CLUB|SPORTS CLUB|GYMNASIUM|WORKOUT|BOOTCAMP|BOOT CAMP', null, 'health_and_personal_care_fitness'],
  ['SALON|BARBER|BARBERSHOP|BARBERS|NAILS|NAIL|SPA|DAY SPA|MASSAGE|HAIR|BEAUTY|COSMETICS|WAXING|LASH|BROW|FRISEUR|COIFFURE', null, 'health_and_personal_care_beauty'],

  // services and government
  ['DAYCARE|DAY CARE|CHILDCARE|CHILD CARE|PRESCHOOL|MONTESSORI|NANNY|BABYSITTING|AFTER SCHOOL|KITA', null, 'services_and_government_childcare'],
  ['TUITION|UNIVERSITY|COLLEGE|SCHOOL|ACADEMY|TUTORING|TUTOR|LEARNING CENTER|UNIVERSITE|UNIVERSITAET', null, 'services_and_government_education'],
  ['LAW OFFICE|LAW OFFICES|LAW FIRM|ATTORNEY|ATTORNEYS|LEGAL|CPA|ACCOUNTING|TAX SERVICE|TAX PREP|BOOKKEEPING|NOTARY|CONSULTING', null, 'services_and_government_professional_services'],
  ['DONATION|DONATE|CHARITY|CHARITIES|CHURCH|PARISH|TITHE|MINISTRIES|MINISTRY|TEMPLE|MOSQUE|SYNAGOGUE|FOUNDATION|NONPROFIT|FUNDRAISER|SPENDE', null, 'services_and_government_donations'],
  ['TAX PAYMENT|TAX PYMT|PROPERTY TAX|ESTIMATED TAX|DEPT OF REVENUE|DEPARTMENT OF REVENUE|DEPT REVENUE|TREASURER|TAX COLLECTOR|COMPTROLLER|STEUER|IMPOTS', null, 'services_and_government_taxes', { ch: 'other' }],
  ['COURT|COURTS|CITATION|PERMIT|LICENSE|REGISTRATION|GOV UK|PASSPORT', null, 'services_and_government_government_fees', { ch: 'other' }],
  ['LAUNDRY|LAUNDROMAT|DRY CLEAN|DRY CLEANERS|DRY CLEANING|CLEANERS|TAILOR|ALTERATIONS|SHOE REPAIR|STORAGE|SELF STORAGE|POSTAGE|SHIPPING|POSTAL|LOCKSMITH|PRINTING|PRINT SHOP|MEMBERSHIP', null, 'services_and_government_other'],

  // home
  ['PLUMBING|PLUMBER|ELECTRICIAN|ROOFING|HVAC|HEATING COOLING|LANDSCAPING|LAWN|PEST CONTROL|CLEANING SERVICE|MAID|MAIDS|HANDYMAN|CONTRACTOR|CONSTRUCTION|PAINTING', null, 'home_repair_and_maintenance'],
  ['HARDWARE|LUMBER|HOME CENTER|HOME IMPROVEMENT|GARDEN CENTER|NURSERY|BAUMARKT|BRICOLAGE', null, 'home_hardware'],
  ['FURNITURE|MATTRESS|HOME DECOR|HOMEWARES|HOUSEWARES|LIGHTING|RUGS|MOBEL|MOEBEL|MEUBLES', null, 'home_furnishings'],
  ['MOVING|MOVERS|SECURITY SYSTEM|ALARM|POOL SERVICE', null, 'home_other'],

  // shopping
  ['BOOKS|BOOKSTORE|BOOKSHOP|BOOKSELLERS|NEWSSTAND|NEWSAGENT|MAGAZINE|NEWSPAPER|LIBRAIRIE|BUCHHANDLUNG', null, 'shopping_books_and_news'],
  ['CLOTHING|APPAREL|BOUTIQUE|FASHION|SHOES|SHOE|FOOTWEAR|JEWELRY|JEWELERS|JEWELLERS|OUTFITTERS|DENIM|MODE|VETEMENTS', null, 'shopping_clothing'],
  ['ELECTRONICS|COMPUTER|COMPUTERS|PHONE REPAIR|CAMERA', null, 'shopping_electronics'],
  ['CONVENIENCE|CONV STORE|CORNER STORE|MINI MART|MINIMART|FOOD MART|BODEGA|KIOSK|TABAC|SPATI', null, 'shopping_convenience_stores'],
  ['DEPARTMENT STORE|DEPT STORE|OUTLET|DISCOUNT|DOLLAR|THRIFT', null, 'shopping_department_stores'],
  ['FLORIST|FLOWERS|FLOWER|GIFT|GIFTS|TOYS|TOY|HOBBY|CRAFTS|CRAFT|SPORTING GOODS|SPORTS|OUTDOOR|BIKE SHOP|BICYCLE|GOLF|SMOKE SHOP|TOBACCO|VAPE|OFFICE SUPPLY|STATIONERY|ANTIQUES|ART SUPPLY|MUSIC STORE', null, 'shopping_other'],
  ['MARKETPLACE|ONLINE STORE|WEBSHOP|SHOP COM', null, 'shopping_online_marketplaces', { ch: 'online' }],

  // entertainment
  ['CINEMA|CINEMAS|THEATRE|THEATER|THEATRES|THEATERS|MUSEUM|MUSEE|MUSEO|GALLERY|ZOO|AQUARIUM|STADIUM|ARENA|TICKETS|TICKET|CONCERT|FESTIVAL|AMUSEMENT|THEME PARK|KINO', null, 'entertainment_events'],
  ['CASINO|LOTTERY|LOTTO|SPORTSBOOK|BETTING|POKER|BINGO', null, 'entertainment_gambling'],
  ['GAMES|GAMING|ARCADE', null, 'entertainment_video_games'],
  ['BOWLING|MINI GOLF|ESCAPE ROOM|TRAMPOLINE|KARAOKE|NIGHTCLUB|CLUB|LASER TAG|GO KART|SKATING|RECREATION', null, 'entertainment_other'],
  ['STREAMING|SUBSCRIPTION TV|MUSIC SUBSCRIPTION', null, 'entertainment_streaming', { ch: 'online' }],
  ['SOFTWARE|APP STORE|CLOUD|HOSTING|VPN|SAAS', null, 'services_and_government_software', { ch: 'online' }],
];

// ---------------------------------------------------------------------------------------------
// Tier E: fallback words, consulted only when no tier-D category word matched. They are weak
// evidence: BLUE WATER GRILL is a restaurant (tier D), CITY OF PHOENIX WATER is water, not a
// government fee, and a bare TRANSFER or FEE means something only when nothing else does.
// First rule in table order wins.
// ---------------------------------------------------------------------------------------------
export const FALLBACK_KEYWORDS: readonly KeywordRow[] = [
  // bare utility words
  ['ELECTRIC|ELEC|ENERGY|POWER', null, 'rent_and_utilities_gas_and_electricity', { ch: 'other' }],
  ['WATER', null, 'rent_and_utilities_water', { ch: 'other' }],
  // a public body with nothing more specific (a court, a permit, a utility) is a government fee
  ['CITY OF|COUNTY OF|STATE OF|TOWN OF|VILLAGE OF|MUNICIPAL|GOV|GOVT|DEPT OF', null, 'services_and_government_government_fees', { ch: 'other' }],
  // generic money movement
  ['DEPOSIT|DEPOT|EINZAHLUNG', null, 'transfer_in_deposit', { sign: 'in', ch: 'transfer', name: 'none' }],
  ['TRANSFER|TRANSFERENCIA|TRANSF', null, 'transfer_out_account_transfer', { in: 'transfer_in_account_transfer', ch: 'transfer', name: 'none' }],
  ['BANK FEE|FEE|FEES|CHARGE FEE', null, 'bank_fees_other', { ch: 'other', name: 'none', sign: 'out' }],
  // a cuisine names a restaurant only when no category word says otherwise (KOREAN SPA, ASIAN MARKET,
  // ITALIAN SHOES are not restaurants)
  ['MEXICAN|JAPANESE|CHINESE|KOREAN|VIETNAMESE|INDIAN|ITALIAN|GREEK|LEBANESE|ETHIOPIAN|PERUVIAN|CUBAN|TURKISH|PERSIAN|AFGHAN|NEPALESE|HIMALAYAN|SZECHUAN|SICHUAN|HUNAN|CANTONESE|MEDITERRANEAN|MIDDLE EASTERN|CARIBBEAN|JAMAICAN|HAWAIIAN|CAJUN|CREOLE|TEX MEX|SALVADORAN|BRAZILIAN|ARGENTINIAN|FILIPINO|MALAYSIAN|INDONESIAN|BURMESE|TAIWANESE|MOROCCAN|SOUL FOOD', null, 'food_and_drink_restaurants'],
];
