// Which connector serves a call: the one decision point of the service (docs/connectors.md).
// Test keys reach the sandbox simulator (and the file importer, which serves the user's own file in
// either environment). Live keys reach the institution's connector chain: the first connector
// whose configuration is complete in this deployment (resolveConnector); no chain entry
// configured, or a configured one without an adapter in this release, answers provider_error.
import { ApiError, fail } from '../contracts/errors';
import type { Environment } from '../contracts/schemas';
import type { Connection, ConnectorFactory, ConnectorPort, LinkMethod, ProviderHttp, ProviderSecrets } from '../core/connector-port';
import { connectorConfigPrefix, findConnector, resolveConnector, FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { createFileImportConnector } from './file_import';
import { createAggregatorAConnector } from './aggregator_a';
import { createAggregatorBConnector } from './aggregator_b';
import { createAggregatorCConnector } from './aggregator_c';
import { createAggregatorDConnector } from './aggregator_d';
import { createAggregatorEConnector } from './aggregator_e';
import { createAggregatorFConnector } from './aggregator_f';
import { createAggregatorGConnector } from './aggregator_g';
import { createAggregatorHConnector } from './aggregator_h';
import { createAggregatorIConnector } from './aggregator_i';
import { createCryptoExchangeAConnector } from './crypto_exchange_a';
import { createCryptoExchangeBConnector } from './crypto_exchange_b';
import { createCryptoWalletPublicConnector } from './crypto_wallet_public';
import { createOpenBankingEuConnector } from './open_banking_eu';
import { createPaymentAppAConnector } from './payment_app_a';
import { createProcessorLinkConnector } from './processor_link';
import { createProviderHttp } from './provider-http';
import { sandboxConnector, sandboxConnectorFor } from './sandbox';

export { sandboxCredentials } from './sandbox';

/** The adapters of this release, by connector id. */
const ADAPTERS: ReadonlyMap<string, ConnectorFactory> = new Map<string, ConnectorFactory>([
  [sandboxConnector.id, () => sandboxConnector],
  [FILE_IMPORT_CONNECTOR_ID, createFileImportConnector],
  ['aggregator_a', createAggregatorAConnector],
  ['aggregator_b', createAggregatorBConnector],
  ['aggregator_c', createAggregatorCConnector],
  ['aggregator_d', createAggregatorDConnector],
  ['aggregator_e', createAggregatorEConnector],
  ['aggregator_f', createAggregatorFConnector],
  ['aggregator_g', createAggregatorGConnector],
  ['aggregator_h', createAggregatorHConnector],
  ['aggregator_i', createAggregatorIConnector],
  ['crypto_exchange_a', createCryptoExchangeAConnector],
  ['crypto_exchange_b', createCryptoExchangeBConnector],
  ['crypto_wallet_public', createCryptoWalletPublicConnector],
  ['open_banking_eu', createOpenBankingEuConnector],
  ['payment_app_a', createPaymentAppAConnector],
  ['processor_link', createProcessorLinkConnector],
]);

/** The connector ids this release has an adapter for (the registry's `complete` flag is checked against it). */
export function adapterIds(): string[] {
  return [...ADAPTERS.keys()];
}

/** The deployment's configuration (env var name -> value) as the connector code reads it. */
export type ConnectorEnv = Readonly<Record<string, string | undefined>>;

let sharedHttp: ProviderHttp | null = null;
/** One HTTP client per container: its keep-alive connections are reused across calls. */
function providerHttp(): ProviderHttp {
  sharedHttp ??= createProviderHttp();
  return sharedHttp;
}

/** The variables of one connector (its prefix), non-empty values only. */
export function configOf(connectorId: string, env: ConnectorEnv): Record<string, string> {
  const prefix = connectorConfigPrefix(connectorId);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (name.startsWith(prefix) && value !== undefined && value.trim() !== '') out[name] = value;
  return out;
}

function build(connectorId: string, env: ConnectorEnv, saveSecrets?: (secrets: ProviderSecrets) => Promise<void>): ConnectorPort | null {
  const factory = ADAPTERS.get(connectorId);
  return factory ? factory({ config: configOf(connectorId, env), http: providerHttp(), ...(saveSecrets ? { saveSecrets } : {}) }) : null;
}

/**
 * The connector a Link session for `institution` talks to.
 * @param environment the API key's environment (`test` or `live`)
 * @param connectorEnv the deployment's connector configuration (config.connectorEnv)
 * @param method `file` when the user chose to upload a statement (the file importer serves it
 *   whenever the institution's chain lists it, in either environment: the data is the user's own)
 */
export function connectorFor(
  environment: Environment,
  institution: { connectors: readonly string[]; oauth?: boolean; sandbox?: boolean },
  connectorEnv: ConnectorEnv,
  method?: LinkMethod,
): ConnectorPort {
  if (method === 'file') {
    if (!institution.connectors.includes(FILE_IMPORT_CONNECTOR_ID) && environment === 'live') fail('provider_error', 'This institution does not accept statement files.');
    return build(FILE_IMPORT_CONNECTOR_ID, connectorEnv) ?? fail('provider_error', 'Statement import is not available in this release.');
  }
  // The sandbox's OAuth institutions go through its simulated bank consent page.
  if (environment === 'test') return sandboxConnectorFor(institution);
  const configured = resolveConnector(institution.connectors, connectorEnv) ?? fail('provider_error');
  return build(configured.id, connectorEnv) ?? fail('provider_error', 'The connector for this institution is configured but not available in this release.');
}

/**
 * The connector an existing item is served by, for Link's update mode: the user repairs the item's
 * consent at the same connector, whatever the institution's chain would pick today.
 */
export function connectorNamed(connectorId: string, connectorEnv: ConnectorEnv): ConnectorPort {
  if (!findConnector(connectorId)) fail('provider_error');
  return build(connectorId, connectorEnv) ?? fail('provider_error');
}

export interface ItemConnection {
  connector: ConnectorPort;
  connection: Connection;
}

/** What connectorOfItem needs of a stored item. */
export interface ItemSourceRef {
  connector: string;
  institutionId: string;
  connectionLogin: string | null;
  connectorCursor?: string | null;
}

/**
 * The connector that serves a stored item, and how to reach the item there; provider_error when none
 * can. `secrets` are the item's opened provider secrets (the caller opens them: connectors never
 * see sealed values or keys); `saveSecrets` stores rotated ones at once (ConnectorContext.saveSecrets).
 */
export function connectorOfItem(
  item: ItemSourceRef,
  connectorEnv: ConnectorEnv = {},
  secrets?: ProviderSecrets,
  saveSecrets?: (secrets: ProviderSecrets) => Promise<void>,
): ItemConnection {
  if (!findConnector(item.connector)) throw new ApiError('provider_error');
  const connector = build(item.connector, connectorEnv, saveSecrets);
  if (!connector || item.connectionLogin === null) throw new ApiError('provider_error');
  return {
    connector,
    connection: {
      institutionId: item.institutionId,
      login: item.connectionLogin,
      ...(secrets ? { secrets } : {}),
      ...(item.connectorCursor ? { cursor: item.connectorCursor } : {}),
    },
  };
}
