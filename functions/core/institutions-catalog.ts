// The institution catalog: the simulated sandbox network plus real-world institutions, each with
// its ordered connector chain. `connectors` and `aliases` are internal and never leave the
// service; `toPublicInstitution` in ./institutions strips them.
//
// Conventions, checked by test/unit/institutions.test.ts:
// - institution_id is `ins_` + the lower snake case of the name with accents and punctuation
//   removed ("Société Générale" -> ins_societe_generale). Ids are written out, not derived, so a
//   display-name edit never changes an id that items already reference.
// - popularity is a unique rank 1..N over the whole catalog; rows are listed in that order. Two
//   sandbox institutions sit at the top so an empty-query browse with a test key shows them.
// - every connector id in a chain exists in ./connectors and covers the institution's type and at
//   least one of its countries.
import type { z } from 'zod';
import type { Institution as InstitutionSchema, PRODUCTS } from '../contracts/schemas';
import { SANDBOX_CONNECTOR_ID, type InstitutionType } from './connectors';

export type Institution = z.infer<typeof InstitutionSchema>;
type Product = (typeof PRODUCTS)[number];

/** A catalog entry: the API shape without `logo` (added on the way out, ./institution-logos.ts), plus: */
export type CatalogInstitution = Omit<Institution, 'logo'> & {
  /** Ordered connector chain; the first one enabled in the deployment serves live sessions. */
  connectors: string[];
  /** Alternate names the search also matches (abbreviations, former or legal names). */
  aliases?: string[];
};

// ---------- product sets (canonical PRODUCTS order) ----------
const ALL: Product[] = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
const BANK: Product[] = ['transactions', 'identity', 'income', 'assets', 'liabilities', 'recurring'];
const BANK_INVEST: Product[] = ALL;
const CARD: Product[] = ['transactions', 'identity', 'liabilities', 'recurring'];
const OPEN_BANKING: Product[] = ['transactions', 'identity', 'income', 'assets', 'recurring'];
const BROKERAGE: Product[] = ['identity', 'assets', 'investments'];
const BROKERAGE_CASH: Product[] = ['transactions', 'identity', 'assets', 'investments'];
const EXCHANGE: Product[] = ['transactions', 'identity', 'investments'];
const WALLET: Product[] = ['transactions', 'investments'];
const PAYMENT_APP: Product[] = ['transactions', 'identity', 'recurring'];
const BUSINESS: Product[] = ['transactions', 'identity', 'assets', 'liabilities', 'recurring'];

// ---------- connector chains ----------
const SANDBOX = [SANDBOX_CONNECTOR_ID];
const US_BIG_BANK = ['aggregator_a', 'aggregator_b', 'aggregator_d', 'processor_link', 'file_import'];
const US_BANK = ['aggregator_a', 'aggregator_b', 'processor_link', 'file_import'];
const US_CARD = ['aggregator_a', 'aggregator_b'];
const US_CREDIT_UNION = ['aggregator_c', 'aggregator_a', 'aggregator_b', 'processor_link', 'file_import'];
const US_BROKERAGE = ['aggregator_i', 'aggregator_a', 'aggregator_b', 'file_import'];
const US_BIG_BROKERAGE = ['aggregator_i', 'aggregator_d', 'aggregator_a', 'file_import'];
const US_BUSINESS = ['aggregator_a', 'aggregator_b', 'processor_link', 'file_import'];
const US_PAYMENT_APP = ['aggregator_a', 'aggregator_b'];
const EU_BANK = ['open_banking_eu', 'aggregator_a', 'aggregator_g'];
const EU_FINTECH = ['open_banking_eu', 'aggregator_g', 'aggregator_a'];
const CA_BANK = ['aggregator_e', 'aggregator_a', 'aggregator_b', 'file_import'];
const AU_BANK = ['aggregator_f', 'file_import'];
const WALLET_CHAIN = ['crypto_wallet_public'];

// ---------- country sets ----------
const EEA_WIDE = ['GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PT'];
const GLOBAL = ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PT', 'SE', 'FI', 'DK', 'NO', 'PL', 'CH', 'AU', 'NZ', 'MX', 'BR'];

interface Row {
  id: string;
  name: string;
  type: InstitutionType;
  countries: string[];
  url: string | null;
  color: string | null;
  products: Product[];
  connectors: string[];
  oauth?: boolean;
  aliases?: string[];
}

let rank = 0;
/** Rows are declared in popularity order; the rank is the declaration position. */
function def(r: Row, sandbox = false): CatalogInstitution {
  rank += 1;
  const out: CatalogInstitution = {
    institution_id: r.id,
    name: r.name,
    type: r.type,
    country_codes: [...r.countries],
    url: r.url,
    primary_color: r.color,
    products: [...r.products],
    oauth: r.oauth ?? false,
    sandbox,
    popularity: rank,
    connectors: [...r.connectors],
  };
  if (r.aliases) out.aliases = [...r.aliases];
  return out;
}
/** A member of the simulated sandbox network: always available, served only by the simulator. */
function sbx(r: Omit<Row, 'connectors' | 'url'>): CatalogInstitution {
  return def({ ...r, url: null, connectors: SANDBOX }, true);
}

export const CATALOG: readonly CatalogInstitution[] = [
  sbx({ id: 'ins_sandbox_first_bank', name: 'Sandbox First Bank', type: 'bank', countries: ['US'], color: '#1F6FEB', products: ALL, aliases: ['Sandbox Bank', 'Test Bank'] }),
  def({ id: 'ins_chase', name: 'Chase', type: 'bank', countries: ['US'], url: 'https://www.chase.com', color: '#117ACA', products: BANK_INVEST, connectors: US_BIG_BANK, oauth: true, aliases: ['JPMorgan Chase', 'JPMC'] }),
  sbx({ id: 'ins_sandbox_thames_bank', name: 'Sandbox Thames Bank', type: 'bank', countries: ['GB'], color: '#0B7A75', products: OPEN_BANKING, oauth: true, aliases: ['Sandbox UK Bank', 'Sandbox OAuth Bank'] }),
  def({ id: 'ins_bank_of_america', name: 'Bank of America', type: 'bank', countries: ['US'], url: 'https://www.bankofamerica.com', color: '#012169', products: BANK_INVEST, connectors: US_BIG_BANK, oauth: true, aliases: ['BoA', 'BofA'] }),
  def({ id: 'ins_wells_fargo', name: 'Wells Fargo', type: 'bank', countries: ['US'], url: 'https://www.wellsfargo.com', color: '#D71E28', products: BANK_INVEST, connectors: US_BIG_BANK, oauth: true }),
  def({ id: 'ins_capital_one', name: 'Capital One', type: 'bank', countries: ['US'], url: 'https://www.capitalone.com', color: '#004879', products: BANK, connectors: US_BIG_BANK, oauth: true }),
  def({ id: 'ins_paypal', name: 'PayPal', type: 'payment_app', countries: ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'AU'], url: 'https://www.paypal.com', color: '#003087', products: PAYMENT_APP, connectors: ['payment_app_a', 'aggregator_a'], oauth: true }),
  def({ id: 'ins_citibank', name: 'Citibank', type: 'bank', countries: ['US'], url: 'https://www.citi.com', color: '#056DAE', products: BANK_INVEST, connectors: US_BIG_BANK, oauth: true, aliases: ['Citi'] }),
  def({ id: 'ins_american_express', name: 'American Express', type: 'bank', countries: ['US', 'CA', 'GB'], url: 'https://www.americanexpress.com', color: '#006FCF', products: CARD, connectors: US_CARD, oauth: true, aliases: ['Amex'] }),
  sbx({ id: 'ins_sandbox_brokerage', name: 'Sandbox Brokerage', type: 'investment', countries: ['US'], color: '#7A3EF0', products: BROKERAGE_CASH, aliases: ['Sandbox Investments'] }),
  def({ id: 'ins_venmo', name: 'Venmo', type: 'payment_app', countries: ['US'], url: 'https://venmo.com', color: '#008CFF', products: PAYMENT_APP, connectors: US_PAYMENT_APP }),
  def({ id: 'ins_cash_app', name: 'Cash App', type: 'payment_app', countries: ['US', 'GB'], url: 'https://cash.app', color: '#00D632', products: PAYMENT_APP, connectors: US_PAYMENT_APP, aliases: ['Square Cash'] }),
  def({ id: 'ins_coinbase', name: 'Coinbase', type: 'crypto_exchange', countries: ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'AU'], url: 'https://www.coinbase.com', color: '#0052FF', products: EXCHANGE, connectors: ['crypto_exchange_a', 'aggregator_i', 'aggregator_a'], oauth: true }),
  def({ id: 'ins_u_s_bank', name: 'U.S. Bank', type: 'bank', countries: ['US'], url: 'https://www.usbank.com', color: '#0C2074', products: BANK_INVEST, connectors: US_BIG_BANK, oauth: true, aliases: ['US Bank', 'USBank'] }),
  def({ id: 'ins_charles_schwab', name: 'Charles Schwab', type: 'investment', countries: ['US'], url: 'https://www.schwab.com', color: '#00A0DF', products: BROKERAGE_CASH, connectors: US_BIG_BROKERAGE, oauth: true, aliases: ['Schwab'] }),
  def({ id: 'ins_fidelity_investments', name: 'Fidelity Investments', type: 'investment', countries: ['US'], url: 'https://www.fidelity.com', color: '#368727', products: BROKERAGE, connectors: US_BIG_BROKERAGE, oauth: true, aliases: ['Fidelity'] }),
  def({ id: 'ins_discover', name: 'Discover', type: 'bank', countries: ['US'], url: 'https://www.discover.com', color: '#FF6000', products: CARD, connectors: US_CARD, aliases: ['Discover Card', 'Discover Bank'] }),
  sbx({ id: 'ins_sandbox_credit_union', name: 'Sandbox Credit Union', type: 'credit_union', countries: ['US'], color: '#2E8540', products: BANK, aliases: ['Sandbox Federal Credit Union'] }),
  def({ id: 'ins_robinhood', name: 'Robinhood', type: 'investment', countries: ['US', 'GB'], url: 'https://robinhood.com', color: '#00C805', products: BROKERAGE, connectors: US_BROKERAGE }),
  def({ id: 'ins_barclays', name: 'Barclays', type: 'bank', countries: ['GB'], url: 'https://www.barclays.co.uk', color: '#00AEEF', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_hsbc_uk', name: 'HSBC UK', type: 'bank', countries: ['GB'], url: 'https://www.hsbc.co.uk', color: '#DB0011', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['HSBC'] }),
  def({ id: 'ins_navy_federal_credit_union', name: 'Navy Federal Credit Union', type: 'credit_union', countries: ['US'], url: 'https://www.navyfederal.org', color: '#003B71', products: BANK, connectors: US_CREDIT_UNION, aliases: ['NFCU', 'Navy Federal'] }),
  def({ id: 'ins_usaa', name: 'USAA', type: 'bank', countries: ['US'], url: 'https://www.usaa.com', color: '#003366', products: BANK_INVEST, connectors: US_BANK }),
  def({ id: 'ins_revolut', name: 'Revolut', type: 'payment_app', countries: EEA_WIDE, url: 'https://www.revolut.com', color: '#191C1F', products: OPEN_BANKING, connectors: EU_FINTECH, oauth: true }),
  def({ id: 'ins_ally_bank', name: 'Ally Bank', type: 'bank', countries: ['US'], url: 'https://www.ally.com', color: '#8A3B97', products: BANK_INVEST, connectors: US_BANK, aliases: ['Ally'] }),
  def({ id: 'ins_pnc_bank', name: 'PNC Bank', type: 'bank', countries: ['US'], url: 'https://www.pnc.com', color: '#EF7622', products: BANK, connectors: US_BIG_BANK, oauth: true, aliases: ['PNC'] }),
  sbx({ id: 'ins_sandbox_crypto_exchange', name: 'Sandbox Crypto Exchange', type: 'crypto_exchange', countries: ['US', 'CA', 'GB', 'DE', 'FR'], color: '#F2A900', products: EXCHANGE, oauth: true }),
  def({ id: 'ins_lloyds_bank', name: 'Lloyds Bank', type: 'bank', countries: ['GB'], url: 'https://www.lloydsbank.com', color: '#006A4D', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['Lloyds'] }),
  def({ id: 'ins_monzo', name: 'Monzo', type: 'bank', countries: ['GB'], url: 'https://monzo.com', color: '#FF4F40', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_truist', name: 'Truist', type: 'bank', countries: ['US'], url: 'https://www.truist.com', color: '#2E1A47', products: BANK, connectors: US_BIG_BANK, aliases: ['SunTrust', 'BB&T'] }),
  def({ id: 'ins_vanguard', name: 'Vanguard', type: 'investment', countries: ['US'], url: 'https://investor.vanguard.com', color: '#96151D', products: BROKERAGE, connectors: US_BIG_BROKERAGE }),
  def({ id: 'ins_rbc_royal_bank', name: 'RBC Royal Bank', type: 'bank', countries: ['CA'], url: 'https://www.rbcroyalbank.com', color: '#005DAA', products: BANK_INVEST, connectors: CA_BANK, aliases: ['RBC', 'Royal Bank of Canada'] }),
  def({ id: 'ins_td_canada_trust', name: 'TD Canada Trust', type: 'bank', countries: ['CA'], url: 'https://www.td.com', color: '#008A00', products: BANK_INVEST, connectors: CA_BANK, aliases: ['TD', 'TD Bank'] }),
  def({ id: 'ins_wise', name: 'Wise', type: 'payment_app', countries: ['GB', 'US', 'CA', 'AU', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE'], url: 'https://wise.com', color: '#9FE870', products: PAYMENT_APP, connectors: EU_FINTECH, oauth: true, aliases: ['TransferWise'] }),
  sbx({ id: 'ins_sandbox_pay', name: 'Sandbox Pay', type: 'payment_app', countries: ['US', 'CA', 'GB'], color: '#E0457B', products: PAYMENT_APP, aliases: ['Sandbox Wallet App'] }),
  def({ id: 'ins_natwest', name: 'NatWest', type: 'bank', countries: ['GB'], url: 'https://www.natwest.com', color: '#5A287D', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['National Westminster Bank'] }),
  def({ id: 'ins_santander_uk', name: 'Santander UK', type: 'bank', countries: ['GB'], url: 'https://www.santander.co.uk', color: '#EC0000', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_deutsche_bank', name: 'Deutsche Bank', type: 'bank', countries: ['DE'], url: 'https://www.deutsche-bank.de', color: '#0018A8', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_bnp_paribas', name: 'BNP Paribas', type: 'bank', countries: ['FR', 'BE', 'IT'], url: 'https://mabanque.bnpparibas', color: '#00915A', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['BNP'] }),
  def({ id: 'ins_kraken', name: 'Kraken', type: 'crypto_exchange', countries: ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'AU'], url: 'https://www.kraken.com', color: '#5741D9', products: EXCHANGE, connectors: ['crypto_exchange_b', 'aggregator_a'] }),
  def({ id: 'ins_sofi', name: 'SoFi', type: 'bank', countries: ['US'], url: 'https://www.sofi.com', color: '#00A9CE', products: BANK_INVEST, connectors: US_BANK, aliases: ['Social Finance'] }),
  def({ id: 'ins_scotiabank', name: 'Scotiabank', type: 'bank', countries: ['CA'], url: 'https://www.scotiabank.com', color: '#EC111A', products: BANK_INVEST, connectors: CA_BANK, aliases: ['Bank of Nova Scotia'] }),
  def({ id: 'ins_bmo', name: 'BMO', type: 'bank', countries: ['CA', 'US'], url: 'https://www.bmo.com', color: '#0079C1', products: BANK_INVEST, connectors: ['aggregator_e', 'aggregator_a', 'aggregator_b', 'processor_link', 'file_import'], aliases: ['Bank of Montreal', 'BMO Harris'] }),
  sbx({ id: 'ins_sandbox_maple_bank', name: 'Sandbox Maple Bank', type: 'bank', countries: ['CA'], color: '#C8102E', products: BANK_INVEST, aliases: ['Sandbox Canada Bank'] }),
  def({ id: 'ins_societe_generale', name: 'Société Générale', type: 'bank', countries: ['FR'], url: 'https://particuliers.sg.fr', color: '#E9041E', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['SocGen', 'SG'] }),
  def({ id: 'ins_credit_agricole', name: 'Crédit Agricole', type: 'bank', countries: ['FR'], url: 'https://www.credit-agricole.fr', color: '#009597', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_banco_santander', name: 'Banco Santander', type: 'bank', countries: ['ES'], url: 'https://www.bancosantander.es', color: '#EC0000', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['Santander'] }),
  def({ id: 'ins_ing', name: 'ING', type: 'bank', countries: ['NL', 'DE', 'BE', 'ES', 'IT'], url: 'https://www.ing.com', color: '#FF6200', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['ING Bank', 'ING-DiBa'] }),
  def({ id: 'ins_n26', name: 'N26', type: 'bank', countries: ['DE', 'AT', 'FR', 'ES', 'IT', 'NL', 'IE'], url: 'https://n26.com', color: '#48AC98', products: OPEN_BANKING, connectors: EU_FINTECH, oauth: true }),
  def({ id: 'ins_bbva', name: 'BBVA', type: 'bank', countries: ['ES'], url: 'https://www.bbva.es', color: '#004481', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['Banco Bilbao Vizcaya Argentaria'] }),
  def({ id: 'ins_nationwide_building_society', name: 'Nationwide Building Society', type: 'bank', countries: ['GB'], url: 'https://www.nationwide.co.uk', color: '#002A5C', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['Nationwide'] }),
  sbx({ id: 'ins_sandbox_rhein_bank', name: 'Sandbox Rhein Bank', type: 'bank', countries: ['DE', 'AT'], color: '#3D5A80', products: OPEN_BANKING, oauth: true, aliases: ['Sandbox Germany Bank'] }),
  def({ id: 'ins_mercury', name: 'Mercury', type: 'business', countries: ['US'], url: 'https://mercury.com', color: '#5266EB', products: BUSINESS, connectors: US_BUSINESS }),
  def({ id: 'ins_brex', name: 'Brex', type: 'business', countries: ['US'], url: 'https://www.brex.com', color: '#F46A35', products: BUSINESS, connectors: US_BUSINESS }),
  def({ id: 'ins_e_trade', name: 'E*TRADE', type: 'investment', countries: ['US'], url: 'https://us.etrade.com', color: '#6633CC', products: BROKERAGE, connectors: US_BROKERAGE, aliases: ['ETRADE', 'E-Trade', 'Morgan Stanley E*TRADE'] }),
  def({ id: 'ins_interactive_brokers', name: 'Interactive Brokers', type: 'investment', countries: ['US', 'CA', 'GB', 'AU'], url: 'https://www.interactivebrokers.com', color: '#D81222', products: BROKERAGE, connectors: ['aggregator_i', 'aggregator_a'], aliases: ['IBKR'] }),
  def({ id: 'ins_commonwealth_bank', name: 'Commonwealth Bank', type: 'bank', countries: ['AU'], url: 'https://www.commbank.com.au', color: '#FFCC00', products: BANK, connectors: AU_BANK, oauth: true, aliases: ['CommBank', 'CBA', 'Commonwealth Bank of Australia'] }),
  sbx({ id: 'ins_sandbox_business_bank', name: 'Sandbox Business Bank', type: 'business', countries: ['US'], color: '#334155', products: BUSINESS, aliases: ['Sandbox Business'] }),
  def({ id: 'ins_westpac', name: 'Westpac', type: 'bank', countries: ['AU', 'NZ'], url: 'https://www.westpac.com.au', color: '#DA1710', products: BANK, connectors: AU_BANK, oauth: true }),
  def({ id: 'ins_anz', name: 'ANZ', type: 'bank', countries: ['AU', 'NZ'], url: 'https://www.anz.com.au', color: '#007DBA', products: BANK, connectors: AU_BANK, oauth: true, aliases: ['Australia and New Zealand Banking Group'] }),
  def({ id: 'ins_desjardins', name: 'Desjardins', type: 'credit_union', countries: ['CA'], url: 'https://www.desjardins.com', color: '#00874E', products: BANK_INVEST, connectors: CA_BANK, aliases: ['Caisse Desjardins', 'Mouvement Desjardins'] }),
  def({ id: 'ins_wealthsimple', name: 'Wealthsimple', type: 'investment', countries: ['CA'], url: 'https://www.wealthsimple.com', color: '#32302F', products: BROKERAGE, connectors: ['aggregator_e', 'aggregator_i', 'aggregator_a'] }),
  def({ id: 'ins_crypto_com', name: 'Crypto.com', type: 'crypto_exchange', countries: ['US', 'CA', 'GB', 'FR', 'IT', 'AU'], url: 'https://crypto.com', color: '#002D74', products: EXCHANGE, connectors: ['aggregator_i', 'aggregator_a'] }),
  def({ id: 'ins_becu', name: 'BECU', type: 'credit_union', countries: ['US'], url: 'https://www.becu.org', color: '#0066B3', products: BANK, connectors: US_CREDIT_UNION, aliases: ['Boeing Employees Credit Union'] }),
  sbx({ id: 'ins_sandbox_banque_lumiere', name: 'Sandbox Banque Lumière', type: 'bank', countries: ['FR', 'BE'], color: '#6C5CE7', products: OPEN_BANKING, oauth: true, aliases: ['Sandbox France Bank'] }),
  def({ id: 'ins_intesa_sanpaolo', name: 'Intesa Sanpaolo', type: 'bank', countries: ['IT'], url: 'https://www.intesasanpaolo.com', color: '#1E8539', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  def({ id: 'ins_unicredit', name: 'UniCredit', type: 'bank', countries: ['IT', 'DE', 'AT'], url: 'https://www.unicredit.it', color: '#E2001A', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['HypoVereinsbank', 'Bank Austria'] }),
  def({ id: 'ins_caixabank', name: 'CaixaBank', type: 'bank', countries: ['ES'], url: 'https://www.caixabank.es', color: '#007EAE', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['La Caixa'] }),
  def({ id: 'ins_abn_amro', name: 'ABN AMRO', type: 'bank', countries: ['NL'], url: 'https://www.abnamro.nl', color: '#009286', products: OPEN_BANKING, connectors: EU_BANK, oauth: true }),
  sbx({ id: 'ins_sandbox_crypto_wallet', name: 'Sandbox Crypto Wallet', type: 'crypto_wallet', countries: GLOBAL, color: '#8247E5', products: WALLET, aliases: ['Sandbox Wallet'] }),
  def({ id: 'ins_aib', name: 'AIB', type: 'bank', countries: ['IE'], url: 'https://aib.ie', color: '#7F2B7B', products: OPEN_BANKING, connectors: EU_BANK, oauth: true, aliases: ['Allied Irish Banks'] }),
  def({ id: 'ins_tide', name: 'Tide', type: 'business', countries: ['GB'], url: 'https://www.tide.co', color: '#4A3CC4', products: BUSINESS, connectors: EU_FINTECH, oauth: true }),
  def({ id: 'ins_qonto', name: 'Qonto', type: 'business', countries: ['FR', 'DE', 'ES', 'IT'], url: 'https://qonto.com', color: '#6B5AED', products: BUSINESS, connectors: EU_FINTECH, oauth: true }),
  def({ id: 'ins_ethereum_wallet', name: 'Ethereum Wallet', type: 'crypto_wallet', countries: GLOBAL, url: 'https://ethereum.org', color: '#627EEA', products: WALLET, connectors: WALLET_CHAIN, aliases: ['ETH', 'EVM Address'] }),
  def({ id: 'ins_bitcoin_wallet', name: 'Bitcoin Wallet', type: 'crypto_wallet', countries: GLOBAL, url: 'https://bitcoin.org', color: '#F7931A', products: WALLET, connectors: WALLET_CHAIN, aliases: ['BTC', 'Bitcoin Address'] }),
  def({ id: 'ins_nordea', name: 'Nordea', type: 'bank', countries: ['SE', 'FI', 'DK', 'NO'], url: 'https://www.nordea.com', color: '#0000A0', products: OPEN_BANKING, connectors: ['open_banking_eu', 'aggregator_g'], oauth: true }),
].map((i) => Object.freeze(i));
