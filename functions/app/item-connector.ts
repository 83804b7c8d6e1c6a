// Reaching an item's connector through a given set of adapters: the item's provider secrets opened,
// a ConnectorError recorded on the item and answered as the API error it means. ./item-source uses
// every adapter of this release; the Link and statement routes pass the adapters of their own method
// (functions/connectors/by-method), and the product and balance reads the adapters' reads
// (functions/connectors/readers), so their bundles carry no other connector code, nor ingestion's
// enrichment (./enriched-batch), which this module does not need.
import type { ConnectorEnv } from '../connectors/choice';
import { connectorOfItemIn, type AdapterSet, type ConnectorReads, type ItemConnection } from '../connectors/registry';
import { ApiError, ERRORS, itemErrorOf, type ErrorCode } from '../contracts/errors';
import type { Environment } from '../contracts/schemas';
import { ConnectorError, type ProviderSecrets } from '../core/connector-port';
import { emitEvent } from '../data/events';
import { getItem, recordSyncError, saveConnectorState, updateItemState, type ItemRecord, type StoredAccount } from '../data/items-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { openProviderSecrets, sealProviderSecrets } from './provider-secrets';
import { todayOf } from './today';

/**
 * The deployment's connector configuration, for a call in `environment`. Test keys never consult it
 * (they reach the simulator, or the file importer, which needs nothing), so a test-key call never
 * reads the stage's secret.
 */
export async function connectorEnvFor(deps: Deps, environment: Environment): Promise<ConnectorEnv> {
  return environment === 'test' ? {} : deps.connectorConfig.load();
}

/**
 * A connector call failed in a way the item's state now shows (login_required, the last sync error);
 * the API answers with the ApiError it is. The refresh worker stops on it instead of retrying.
 */
export class ConnectorCallError extends ApiError {
  /** The connector's own account of the failure (ConnectorError.kind, and its retry hint). */
  connectorKind: ConnectorError['kind'] = 'provider_error';
  retryAfterSeconds: number | undefined;
}

const isErrorCode = (code: string | undefined): code is ErrorCode => code !== undefined && code in ERRORS;

/** What a ConnectorError means for the API caller. Connector messages never carry secrets (port rule). */
function apiErrorOf(err: ConnectorError): ConnectorCallError {
  const answer = answerOf(err);
  answer.connectorKind = err.kind;
  answer.retryAfterSeconds = err.details.retryAfterSeconds;
  return answer;
}

function answerOf(err: ConnectorError): ConnectorCallError {
  switch (err.kind) {
    case 'login_required':
      return new ConnectorCallError('item_login_required');
    case 'rate_limited': {
      const wait = err.details.retryAfterSeconds;
      return new ConnectorCallError(
        'provider_error',
        `The institution's provider is limiting requests for this item${wait ? `; retry after ${wait} s` : '; retry later'}.`,
        wait ? { 'Retry-After': String(wait) } : {},
      );
    }
    case 'invalid_input':
      return new ConnectorCallError(isErrorCode(err.details.code) ? err.details.code : 'invalid_field', err.message);
    case 'provider_error':
      return new ConnectorCallError('provider_error', `The institution's provider failed: ${err.message}`);
  }
}

/**
 * Records a failed pull on a committed item (connector health: `last_sync_error`) and, when the
 * provider wants the user again, moves the item to login_required with its `item.error` event. An
 * item Link is still connecting is left alone: the connection fails and is discarded.
 */
async function recordFailure(deps: Deps, item: ItemRecord, err: ConnectorError, answer: ApiError): Promise<void> {
  const current = await getItem(deps, item.itemId);
  if (!current) return;
  await recordSyncError(deps, item.itemId, { code: answer.code, message: answer.message, occurredAt: new Date(deps.clock.now()).toISOString() });
  if (err.kind === 'login_required' && current.status === 'healthy') {
    const error = itemErrorOf('item_login_required');
    await updateItemState(deps, item.itemId, { status: 'login_required', error });
    await emitEvent(deps, current, 'item.error', { item_id: item.itemId, error });
  }
}

/**
 * Runs `use` against the item's connector (its adapter in `adapters`), with the item's provider
 * secrets opened. A ConnectorError is recorded on the item (recordFailure) and answered as a
 * ConnectorCallError; anything else is a bug and propagates as it is.
 */
export async function withConnectorIn<T, P extends ConnectorReads>(
  adapters: AdapterSet<P>,
  deps: Deps,
  item: ItemRecord,
  use: (reached: ItemConnection<P>) => Promise<T>,
  options: { recordsHealth?: boolean } = {},
): Promise<T> {
  const secrets = await openProviderSecrets(deps, item);
  const saveSecrets = async (rotated: ProviderSecrets) => saveConnectorState(deps, item.itemId, { providerSecrets: await sealProviderSecrets(deps, item, rotated) });
  const reached = connectorOfItemIn(adapters, item, await connectorEnvFor(deps, item.environment), secrets, saveSecrets);
  try {
    return await use(reached);
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    const answer = apiErrorOf(err);
    logger.warn('connector call failed', { item_id: item.itemId, connector: item.connector, kind: err.kind, code: answer.code });
    // What the user supplied (a file that is not a statement) says nothing about the connector's
    // health, nor does a product read (a product the connector does not offer); a lost consent
    // always moves the item to login_required.
    if (err.kind !== 'invalid_input' && (options.recordsHealth !== false || err.kind === 'login_required')) await recordFailure(deps, item, err, answer).catch((recordErr: unknown) =>
      logger.error('could not record the connector failure on the item', { item_id: item.itemId, error: recordErr as Error }),
    );
    throw answer;
  }
}

/** The item's accounts and current balances, from its connector (its adapter in `adapters`). */
export async function accountsIn(adapters: AdapterSet<ConnectorReads>, deps: Deps, item: ItemRecord): Promise<StoredAccount[]> {
  return withConnectorIn(adapters, deps, item, ({ connector, connection }) => connector.accounts(connection, todayOf(deps)));
}
