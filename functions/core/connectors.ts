// The connector registry. The service holds no bank connections of its own: every
// institution carries an ordered chain of connector ids, and at connect time the first connector
// whose credentials are configured in the deployment serves the session. Test keys never consult
// this: they always resolve to the `sandbox` simulator.
//
// These are the definitions (who, where, which credentials). The code that talks to a source is an
// adapter implementing the connector port (core/connector-port.ts) in functions/connectors/, and
// functions/connectors/index.ts is the one place that picks the adapter for a call. A definition
// without an adapter answers provider_error even when configured (docs/connectors.md).
//
// How the 17 are counted: 1 simulator (`sandbox`); 6 an operator can enable alone (one
// open-banking provider for UK and EU banks, two crypto exchanges, one payment app, one
// public-address wallet reader covering the supported chains, one CSV/OFX/QFX file importer);
// 10 that need a signed business relationship (nine aggregators with different regional or
// asset-class strengths, and one payment-processor account-linking product).
// Ids are neutral on purpose: none names a company as our partner.
import type { INSTITUTION_TYPES } from '../contracts/schemas';

export type InstitutionType = (typeof INSTITUTION_TYPES)[number];
export type ConnectorKind = 'simulator' | 'self_serve' | 'partnership';
/**
 * How much of the connector this release implements, said honestly:
 * - `complete`: every port method backed by the provider's documented calls, tested against a fake.
 * - `partial`: accounts and transactions work; some products the provider has are not built yet
 *   (they answer provider_error); docs/connectors.md lists which.
 * - `skeleton`: the mapping of the provider's documented payloads is written and tested, the calls
 *   are not: it never serves, even with its variables set.
 * - `withheld`: written and tested, but a known flaw keeps it from serving until it is fixed
 *   (docs/connectors.md says which): it never serves, even with its variables set.
 */
export type ConnectorMaturity = 'complete' | 'partial' | 'skeleton' | 'withheld';

export interface ConnectorDef {
  id: string;
  name: string;
  kind: ConnectorKind;
  maturity: ConnectorMaturity;
  description: string;
  institutionTypes: InstitutionType[];
  countries: string[] | 'any';
  /**
   * The configuration variables that must all be set (non-empty) for the connector to serve in a
   * deployment; none for a connector that needs nothing from the operator. Every variable of a
   * connector starts with its config prefix (connectorConfigPrefix), and the adapter receives all
   * variables with that prefix (its credentials and optional `<PREFIX>_BASE_URL` overrides).
   */
  credentials: string[];
}

export const FILE_IMPORT_CONNECTOR_ID = 'file_import';

/** `open_banking_eu` -> `OPEN_BANKING_EU_`: the prefix of every configuration variable of a connector. */
export function connectorConfigPrefix(id: string): string {
  return `${id.toUpperCase()}_`;
}

export const SANDBOX_CONNECTOR_ID = 'sandbox';

const ALL_TYPES: InstitutionType[] = [
  'bank',
  'credit_union',
  'payment_app',
  'investment',
  'crypto_exchange',
  'crypto_wallet',
  'business',
];
const OPEN_BANKING_COUNTRIES = [
  'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PT', 'FI', 'SE', 'DK', 'NO', 'PL', 'LU',
];
const BANKING_TYPES: InstitutionType[] = ['bank', 'credit_union', 'business'];

export const CONNECTORS: readonly ConnectorDef[] = Object.freeze([
  // ---------- simulator ----------
  {
    id: SANDBOX_CONNECTOR_ID,
    name: 'Sandbox simulator',
    kind: 'simulator',
    maturity: 'complete',
    description:
      'Simulated sandbox network: credential, OAuth and MFA flows and 24 months of deterministic data. Serves every test-key session; never serves live traffic.',
    institutionTypes: ALL_TYPES,
    countries: 'any',
    credentials: [],
  },
  // ---------- self-serve ----------
  {
    id: 'open_banking_eu',
    name: 'Open banking (UK and EU)',
    kind: 'self_serve',
    maturity: 'complete',
    description: 'Regulated account-information access to UK and EU banks; the user consents on the bank\u2019s own site.',
    institutionTypes: BANKING_TYPES.concat(['payment_app']),
    countries: OPEN_BANKING_COUNTRIES,
    credentials: ['OPEN_BANKING_EU_CLIENT_ID', 'OPEN_BANKING_EU_CLIENT_SECRET'],
  },
  {
    id: 'crypto_exchange_a',
    name: 'Crypto exchange A',
    kind: 'self_serve',
    maturity: 'complete',
    description: 'Direct OAuth API of the first supported crypto exchange: balances, trades, deposits and withdrawals.',
    institutionTypes: ['crypto_exchange'],
    countries: 'any',
    credentials: ['CRYPTO_EXCHANGE_A_CLIENT_ID', 'CRYPTO_EXCHANGE_A_CLIENT_SECRET'],
  },
  {
    id: 'crypto_exchange_b',
    name: 'Crypto exchange B',
    kind: 'self_serve',
    maturity: 'complete',
    description: 'Direct read-only API-key access to the second supported crypto exchange.',
    institutionTypes: ['crypto_exchange'],
    countries: 'any',
    credentials: ['CRYPTO_EXCHANGE_B_ENABLED'],
  },
  {
    id: 'payment_app_a',
    name: 'Payment app A',
    kind: 'self_serve',
    maturity: 'complete',
    description: 'Direct OAuth API of the supported payment app: wallet balance, activity and the account holder.',
    institutionTypes: ['payment_app'],
    countries: 'any',
    credentials: ['PAYMENT_APP_A_CLIENT_ID', 'PAYMENT_APP_A_CLIENT_SECRET'],
  },
  {
    id: 'crypto_wallet_public',
    name: 'Public-address crypto wallets',
    kind: 'self_serve',
    maturity: 'complete',
    description:
      'Reads the balance and transfers of a public Bitcoin or Ethereum address from chain indexers. No login; the user pastes an address.',
    institutionTypes: ['crypto_wallet'],
    countries: 'any',
    credentials: ['CRYPTO_WALLET_PUBLIC_EVM_API_KEY'],
  },
  {
    id: FILE_IMPORT_CONNECTOR_ID,
    name: 'File import (CSV, OFX, QFX)',
    kind: 'self_serve',
    maturity: 'complete',
    description:
      'The user uploads a statement export (CSV, OFX or QFX) in Link, or the integrator uploads one through the API; transactions, balances and holdings are parsed and normalized. Needs nothing from the operator, so it is the last resort of a chain.',
    institutionTypes: ['bank', 'credit_union', 'business', 'investment'],
    countries: 'any',
    credentials: [],
  },
  // ---------- partnership ----------
  {
    id: 'aggregator_a',
    name: 'Aggregator A',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Large North American and European aggregator with broad bank, card, brokerage and fintech coverage.',
    institutionTypes: ['bank', 'credit_union', 'payment_app', 'investment', 'crypto_exchange', 'business'],
    countries: ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'ES', 'IT', 'NL', 'BE', 'AT', 'PT', 'SE', 'FI', 'DK', 'NO', 'PL', 'LU'],
    credentials: ['AGGREGATOR_A_CLIENT_ID', 'AGGREGATOR_A_SECRET'],
  },
  {
    id: 'aggregator_b',
    name: 'Aggregator B',
    kind: 'partnership',
    maturity: 'partial',
    description: 'Large US aggregator with strong coverage of national and regional banks and credit unions.',
    institutionTypes: ['bank', 'credit_union', 'payment_app', 'investment', 'business'],
    countries: ['US', 'CA'],
    credentials: ['AGGREGATOR_B_CLIENT_ID', 'AGGREGATOR_B_API_KEY'],
  },
  {
    id: 'aggregator_c',
    name: 'Aggregator C',
    kind: 'partnership',
    maturity: 'partial',
    description: 'US aggregator focused on credit unions and community banks, with income and asset verification.',
    institutionTypes: ['bank', 'credit_union', 'business'],
    countries: ['US'],
    credentials: ['AGGREGATOR_C_PARTNER_ID', 'AGGREGATOR_C_SECRET', 'AGGREGATOR_C_APP_KEY'],
  },
  {
    id: 'aggregator_d',
    name: 'Aggregator D',
    kind: 'partnership',
    maturity: 'partial',
    description: 'Bank-owned US data-access network: token-based API connections to large banks and brokerages.',
    institutionTypes: ['bank', 'investment'],
    countries: ['US'],
    credentials: ['AGGREGATOR_D_CLIENT_ID', 'AGGREGATOR_D_CLIENT_SECRET', 'AGGREGATOR_D_PROVIDER_IDS'],
  },
  {
    id: 'aggregator_e',
    name: 'Aggregator E',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Canadian aggregator covering the large banks, credit unions (caisses) and online brokerages.',
    institutionTypes: ['bank', 'credit_union', 'investment', 'business'],
    countries: ['CA'],
    credentials: ['AGGREGATOR_E_CUSTOMER_ID', 'AGGREGATOR_E_API_KEY', 'AGGREGATOR_E_BASE_URL', 'AGGREGATOR_E_CONNECT_URL'],
  },
  {
    id: 'aggregator_f',
    name: 'Aggregator F',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Australian and New Zealand aggregator, accredited for consumer data right access.',
    institutionTypes: ['bank', 'credit_union', 'business'],
    countries: ['AU', 'NZ'],
    credentials: ['AGGREGATOR_F_API_KEY'],
  },
  {
    id: 'aggregator_g',
    name: 'Aggregator G',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Pan-European aggregator used as a fallback where direct open banking is unavailable or degraded.',
    institutionTypes: ['bank', 'credit_union', 'payment_app', 'business'],
    countries: OPEN_BANKING_COUNTRIES.concat(['CH']),
    credentials: ['AGGREGATOR_G_APP_ID', 'AGGREGATOR_G_SECRET'],
  },
  {
    id: 'aggregator_h',
    name: 'Aggregator H',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Latin American aggregator covering banks and fiscal data in Mexico, Brazil and Colombia.',
    institutionTypes: ['bank', 'business', 'payment_app'],
    countries: ['MX', 'BR', 'CO'],
    credentials: ['AGGREGATOR_H_SECRET_ID', 'AGGREGATOR_H_SECRET_PASSWORD'],
  },
  {
    id: 'aggregator_i',
    name: 'Aggregator I',
    kind: 'partnership',
    maturity: 'complete',
    description: 'Investment-focused aggregator: brokerage and retirement holdings, positions and trades.',
    institutionTypes: ['investment', 'crypto_exchange'],
    countries: ['US', 'CA', 'GB', 'AU'],
    credentials: ['AGGREGATOR_I_CLIENT_ID', 'AGGREGATOR_I_CONSUMER_KEY'],
  },
  {
    id: 'processor_link',
    name: 'Payment-processor account linking',
    kind: 'partnership',
    // Its consent step can be completed by whoever started it: see docs/connectors.md.
    maturity: 'withheld',
    description: 'A payment processor\u2019s account-linking product: account ownership, balances and transactions for US bank accounts.',
    institutionTypes: ['bank', 'credit_union', 'business'],
    countries: ['US'],
    credentials: ['PROCESSOR_LINK_SECRET_KEY', 'PROCESSOR_LINK_LAUNCH_URL'],
  },
] satisfies ConnectorDef[]);

const BY_ID: ReadonlyMap<string, ConnectorDef> = new Map(CONNECTORS.map((c) => [c.id, c]));

export function findConnector(id: string): ConnectorDef | undefined {
  return BY_ID.get(id);
}

function isEnabled(c: ConnectorDef, env: Record<string, string | undefined>): boolean {
  if (c.kind === 'simulator') return false; // the simulator serves test keys only, never live traffic
  if (c.maturity === 'skeleton' || c.maturity === 'withheld') return false; // it must not take a session (see ConnectorMaturity)
  return c.credentials.every((name) => (env[name] ?? '').trim() !== '');
}

/** Connectors whose credential variables are all set (non-empty) in this deployment. Never includes `sandbox`. */
export function enabledConnectors(env: Record<string, string | undefined>): ConnectorDef[] {
  return CONNECTORS.filter((c) => isEnabled(c, env));
}

/** The first connector of an institution's chain that is enabled here, or null (a live call then fails with provider_error). */
export function resolveConnector(chain: readonly string[], env: Record<string, string | undefined>): ConnectorDef | null {
  for (const id of chain) {
    const c = BY_ID.get(id);
    if (c && isEnabled(c, env)) return c;
  }
  return null;
}
