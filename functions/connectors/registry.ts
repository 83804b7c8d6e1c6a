// Building adapters: one connector's configuration and the shared HTTP client, for an adapter taken
// from a given set of adapters. ./index.ts holds every adapter of this release; a Link step passes
// the adapters of its own method (./by-method), so its route bundles no others; the product and
// balance reads pass ./readers (the adapters' reads: no refresh simulator, no statement parser).
import { ApiError } from '../contracts/errors';
import type { Connection, ConnectorContext, ConnectorPort, ProviderHttp, ProviderSecrets } from '../core/connector-port';
import { connectorConfigPrefix, findConnector } from '../core/connectors';
import type { ConnectorEnv } from './choice';
import { createProviderHttp } from './provider-http';

/**
 * What the reads of a stored item ask of its connector: its accounts and balances, the
 * institution-reported products, and revoking the consent at removal. Pulls (history, refresh) and
 * Link's steps are not in it.
 */
export type ConnectorReads = Pick<ConnectorPort, 'id' | 'linkMethod' | 'accounts' | 'identity' | 'liabilities' | 'investments' | 'disconnect'>;

/** Builds one connector's adapter (core/connector-port.ts ConnectorFactory), or its reads. */
export type AdapterFactory<P extends ConnectorReads = ConnectorPort> = (context: ConnectorContext) => P;

/** Adapters by connector id: whole connectors, or (for the reads) what ConnectorReads asks of them. */
export type AdapterSet<P extends ConnectorReads = ConnectorPort> = ReadonlyMap<string, AdapterFactory<P>>;

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

/** The adapter of `connectorId` in `adapters`, built for one call; null when the set has none. */
export function buildAdapter<P extends ConnectorReads>(adapters: AdapterSet<P>, connectorId: string, env: ConnectorEnv, saveSecrets?: (secrets: ProviderSecrets) => Promise<void>): P | null {
  const factory = adapters.get(connectorId);
  return factory ? factory({ config: configOf(connectorId, env), http: providerHttp(), ...(saveSecrets ? { saveSecrets } : {}) }) : null;
}

export interface ItemConnection<P extends ConnectorReads = ConnectorPort> {
  connector: P;
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
 * The connector that serves a stored item (its adapter in `adapters`), and how to reach the item
 * there; provider_error when none can. `secrets` are the item's opened provider secrets (the caller
 * opens them: connectors never see sealed values or keys); `saveSecrets` stores rotated ones at once
 * (ConnectorContext.saveSecrets).
 */
export function connectorOfItemIn<P extends ConnectorReads>(
  adapters: AdapterSet<P>,
  item: ItemSourceRef,
  connectorEnv: ConnectorEnv = {},
  secrets?: ProviderSecrets,
  saveSecrets?: (secrets: ProviderSecrets) => Promise<void>,
): ItemConnection<P> {
  if (!findConnector(item.connector)) throw new ApiError('provider_error');
  const connector = buildAdapter(adapters, item.connector, connectorEnv, saveSecrets);
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
