// Which connector serves a call: the one decision point of the service (docs/connectors.md).
// Test keys reach the sandbox simulator (and the file importer, which serves the user's own file in
// either environment). Live keys reach the institution's connector chain: the first connector
// whose configuration is complete in this deployment (resolveConnector); no chain entry
// configured, or a configured one without an adapter in this release, answers provider_error.
// The decision itself is ./choice.ts (no adapter needed); this module builds it from every adapter of
// this release, for the code that may reach any item (refreshes, product reads, removal). Link's
// steps build from the adapters of their own method (./by-method) instead.
import { fail } from '../contracts/errors';
import type { Environment } from '../contracts/schemas';
import type { ConnectorFactory, ConnectorPort, LinkMethod, ProviderSecrets } from '../core/connector-port';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { chooseConnector, namedConnector, type ConnectorEnv } from './choice';
import { createFileImportConnector } from './file_import';
import { buildAdapter, connectorOfItemIn, type AdapterSet, type ItemConnection, type ItemSourceRef } from './registry';
import { PROVIDER_ADAPTERS } from './provider-adapters';
import { sandboxConnector, sandboxConnectorFor } from './sandbox';

export { sandboxCredentials } from './sandbox';
export { configOf, type AdapterSet, type ItemConnection, type ItemSourceRef } from './registry';
export type { ConnectorEnv } from './choice';

/** The adapters of this release, by connector id. */
export const ALL_ADAPTERS: AdapterSet = new Map<string, ConnectorFactory>([
  [sandboxConnector.id, () => sandboxConnector],
  [FILE_IMPORT_CONNECTOR_ID, createFileImportConnector],
  ...PROVIDER_ADAPTERS,
]);

/** The connector ids this release has an adapter for (the registry's `complete` flag is checked against it). */
export function adapterIds(): string[] {
  return [...ALL_ADAPTERS.keys()];
}

/** Builds a chosen connector from every adapter of this release. */
function build(connectorId: string, env: ConnectorEnv): ConnectorPort | null {
  return buildAdapter(ALL_ADAPTERS, connectorId, env);
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
  const choice = chooseConnector(environment, institution, connectorEnv, method);
  // The sandbox's OAuth institutions go through its simulated bank consent page.
  if (environment === 'test' && method !== 'file') return sandboxConnectorFor(institution);
  return build(choice.id, connectorEnv) ?? fail('provider_error', choice.id === FILE_IMPORT_CONNECTOR_ID ? 'Statement import is not available in this release.' : 'The connector for this institution is configured but not available in this release.');
}

/**
 * The connector an existing item is served by, for Link's update mode: the user repairs the item's
 * consent at the same connector, whatever the institution's chain would pick today.
 */
export function connectorNamed(connectorId: string, connectorEnv: ConnectorEnv): ConnectorPort {
  return build(namedConnector(connectorId).id, connectorEnv) ?? fail('provider_error');
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
  return connectorOfItemIn(ALL_ADAPTERS, item, connectorEnv, secrets, saveSecrets);
}
