// Which connector serves a Link step, decided from the registry's definitions (core/connectors.ts)
// and the Link method of each adapter of this release, without building any adapter. A Link step
// decides first and then builds from the adapters of its own method only (./by-method), so a route
// bundles the adapters it can reach and no others; ./index.ts builds the same decision from all of them.
import { fail } from '../contracts/errors';
import type { Environment } from '../contracts/schemas';
import type { LinkMethod } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID, findConnector, resolveConnector, SANDBOX_CONNECTOR_ID } from '../core/connectors';

/** The deployment's configuration (env var name -> value) as the connector code reads it. */
export type ConnectorEnv = Readonly<Record<string, string | undefined>>;

/**
 * How Link collects the consent of each adapter of this release, by connector id (the sandbox's
 * OAuth institutions use its OAuth variant: sandboxLinkMethod). test/unit/connector-choice.test.ts
 * holds it to the adapters' own `linkMethod`.
 */
export const ADAPTER_LINK_METHODS: ReadonlyMap<string, LinkMethod> = new Map<string, LinkMethod>([
  [SANDBOX_CONNECTOR_ID, 'credentials'],
  [FILE_IMPORT_CONNECTOR_ID, 'file'],
  ['aggregator_a', 'oauth'],
  ['aggregator_b', 'oauth'],
  ['aggregator_c', 'oauth'],
  ['aggregator_d', 'oauth'],
  ['aggregator_e', 'oauth'],
  ['aggregator_f', 'oauth'],
  ['aggregator_g', 'oauth'],
  ['aggregator_h', 'oauth'],
  ['aggregator_i', 'oauth'],
  ['crypto_exchange_a', 'oauth'],
  ['crypto_exchange_b', 'api_key'],
  ['crypto_wallet_public', 'address'],
  ['open_banking_eu', 'oauth'],
  ['payment_app_a', 'oauth'],
  ['processor_link', 'oauth'],
]);

/** The Link method of this release's adapter for `connectorId`; undefined when the release has none. */
export function adapterLinkMethod(connectorId: string): LinkMethod | undefined {
  return ADAPTER_LINK_METHODS.get(connectorId);
}

/** A connector a Link step talks to, and how it collects the user's consent. */
export interface ConnectorChoice {
  id: string;
  linkMethod: LinkMethod;
}

/**
 * The sandbox's method for an institution (test keys): its simulated OAuth consent for the sandbox
 * network's own OAuth institutions; real institutions keep the credential screen, OAuth or not.
 */
export function sandboxLinkMethod(institution: { oauth?: boolean; sandbox?: boolean }): LinkMethod {
  return institution.oauth === true && institution.sandbox === true ? 'oauth' : 'credentials';
}

/**
 * The connector a Link session for `institution` talks to.
 * @param environment the API key's environment (`test` or `live`)
 * @param connectorEnv the deployment's connector configuration (config.connectorEnv)
 * @param method `file` when the user chose to upload a statement (the file importer serves it
 *   whenever the institution's chain lists it, in either environment: the data is the user's own)
 */
export function chooseConnector(
  environment: Environment,
  institution: { connectors: readonly string[]; oauth?: boolean; sandbox?: boolean },
  connectorEnv: ConnectorEnv,
  method?: LinkMethod,
): ConnectorChoice {
  if (method === 'file') {
    if (!institution.connectors.includes(FILE_IMPORT_CONNECTOR_ID) && environment === 'live') fail('provider_error', 'This institution does not accept statement files.');
    if (adapterLinkMethod(FILE_IMPORT_CONNECTOR_ID) === undefined) fail('provider_error', 'Statement import is not available in this release.');
    return { id: FILE_IMPORT_CONNECTOR_ID, linkMethod: 'file' };
  }
  if (environment === 'test') return { id: SANDBOX_CONNECTOR_ID, linkMethod: sandboxLinkMethod(institution) };
  const configured = resolveConnector(institution.connectors, connectorEnv) ?? fail('provider_error');
  const linkMethod = adapterLinkMethod(configured.id) ?? fail('provider_error', 'The connector for this institution is configured but not available in this release.');
  return { id: configured.id, linkMethod };
}

/**
 * The connector an existing item is served by, for Link's update mode: the user repairs the item's
 * consent at the same connector, whatever the institution's chain would pick today.
 */
export function namedConnector(connectorId: string): ConnectorChoice {
  if (!findConnector(connectorId)) fail('provider_error');
  const linkMethod = adapterLinkMethod(connectorId) ?? fail('provider_error');
  return { id: connectorId, linkMethod };
}
