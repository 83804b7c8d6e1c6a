// Which connector serves a call: the one decision point of the service (docs/connectors.md).
// Test keys always reach the sandbox simulator. Live keys reach the institution's
// connector chain: the first connector whose credentials are configured in this deployment
// (resolveConnector); no chain entry configured, or a configured one without an adapter in this
// release, answers provider_error.
import { ApiError, fail } from '../contracts/errors';
import type { Environment } from '../contracts/schemas';
import type { Connection, ConnectorPort } from '../core/connector-port';
import { resolveConnector } from '../core/connectors';
import { sandboxConnector } from './sandbox';

export { sandboxCredentials } from './sandbox';

/** The adapters of this release, by connector id. */
const ADAPTERS: ReadonlyMap<string, ConnectorPort> = new Map([[sandboxConnector.id, sandboxConnector]]);

/**
 * The connector a Link session for `institution` talks to.
 * @param environment the API key's environment (`test` or `live`)
 * @param connectorEnv the deployment's connector credential variables (config.connectorEnv)
 */
export function connectorFor(
  environment: Environment,
  institution: { connectors: readonly string[] },
  connectorEnv: Record<string, string | undefined>,
): ConnectorPort {
  if (environment === 'test') return sandboxConnector;
  const configured = resolveConnector(institution.connectors, connectorEnv) ?? fail('provider_error');
  return ADAPTERS.get(configured.id) ?? fail('provider_error', 'The connector for this institution is configured but not available in this release.');
}

export interface ItemConnection {
  connector: ConnectorPort;
  connection: Connection;
}

/** The connector that serves a stored item, and how to reach the item there; provider_error when none can. */
export function connectorOfItem(item: { connector: string; institutionId: string; connectionLogin: string | null }): ItemConnection {
  const connector = ADAPTERS.get(item.connector);
  if (!connector || item.connectionLogin === null) throw new ApiError('provider_error');
  return { connector, connection: { institutionId: item.institutionId, login: item.connectionLogin } };
}
