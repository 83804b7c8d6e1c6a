// The console's items view against DynamoDB Local: an item is found by id only within its own
// application and environment (anything else answers exactly like an unknown id), shows its state
// and never its secrets, and is refreshed through the API's own on-demand refresh with its rules.
import { GetCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { findItem, refreshItemFromConsole } from '../../functions/app/console/items';
import { sealProviderSecrets } from '../../functions/app/provider-secrets';
import { ApiError } from '../../functions/contracts/errors';
import type { RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import { FILE_IMPORT_CONNECTOR_ID } from '../../functions/core/connectors';
import { markSynced, recordSyncError, saveConnectorState, updateItemState } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import type { ApplicationScope } from '../../functions/data/request-log-repo';
import { NO_PORTS, type Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps } from '../support/embedded';

const SCOPE: ApplicationScope = { applicationId: 'app_test', environment: 'test' };

/** Deps whose refresh queue records what it is given. */
async function depsWithQueue(): Promise<{ deps: Deps; queued: RefreshExecutionInput[] }> {
  const deps = await embeddedDeps();
  const queued: RefreshExecutionInput[] = [];
  const refreshQueue = {
    enqueue: async (message: RefreshExecutionInput) => {
      queued.push(message);
    },
    enqueueMany: async (messages: RefreshExecutionInput[]) => {
      queued.push(...messages);
      return [];
    },
  };
  return { deps: { ...deps, ports: { ...NO_PORTS, refreshQueue } }, queued };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const answerOf = (err: ApiError) => ({ status: err.status, code: err.code, message: err.message });

describe('finding an item', () => {
  it('shows its status, connector, institution, products, last successful sync and last sync error', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_console1', { consentedProducts: ['transactions', 'identity'] });
    await markSynced(deps, 'item_console1', '2026-11-21T10:00:00.000Z');
    await recordSyncError(deps, 'item_console1', { code: 'provider_error', message: 'The institution did not answer.', occurredAt: '2026-11-21T11:00:00.000Z' });
    expect(await findItem(deps, SCOPE, { item_id: 'item_console1' })).toEqual({
      item: {
        item_id: 'item_console1',
        status: 'healthy',
        error: null,
        connector: 'sandbox',
        institution_id: 'ins_sandbox_first_bank',
        institution_name: 'Sandbox First Bank',
        products: ['transactions', 'identity'],
        last_successful_sync: '2026-11-21T10:00:00.000Z',
        last_sync_error: { code: 'provider_error', message: 'The institution did not answer.', occurred_at: '2026-11-21T11:00:00.000Z' },
        transactions_update_status: 'historical_update_complete',
        created_at: '2026-11-21T12:00:00.000Z',
      },
    });
  });

  it('never shows its cursor secret, provider secrets, access token hash or the user login reference', async () => {
    const deps = await embeddedDeps();
    const item = await createTestItem(deps, 'item_console2', { connectionLogin: 'user_login_reference_42' });
    const sealed = await sealProviderSecrets(deps, item, { access_token: 'provider-oauth-token-secret' });
    await saveConnectorState(deps, item.itemId, { providerSecrets: sealed, cursor: 'provider-cursor-xyz' });
    await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.item(item.itemId),
        UpdateExpression: 'SET access_token_hash = :hash',
        ExpressionAttributeValues: { ':hash': 'f'.repeat(64) },
      }),
    );
    const row = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item(item.itemId) }))).Item ?? {};
    const json = JSON.stringify(await findItem(deps, SCOPE, { item_id: item.itemId }));
    for (const secret of [row.cursor_secret, row.access_token_hash, sealed.ct, sealed.wk, sealed.iv, 'user_login_reference_42', 'provider-cursor-xyz', 'test-user']) {
      expect(typeof secret).toBe('string');
      expect(json).not.toContain(secret);
    }
  });

  it("answers another application's or environment's item exactly as an unknown id: 404, nothing revealed", async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_console3');
    await createTestItem(deps, 'item_consolelive', { environment: 'live' });
    const unknown = await refusal(findItem(deps, SCOPE, { item_id: 'item_nosuchitem' }));
    expect(unknown).toMatchObject({ status: 404, type: 'not_found', code: 'item_not_found' });
    const foreignApp = await refusal(findItem(deps, { ...SCOPE, applicationId: 'app_other' }, { item_id: 'item_console3' }));
    const foreignEnv = await refusal(findItem(deps, SCOPE, { item_id: 'item_consolelive' }));
    expect(answerOf(foreignApp)).toEqual(answerOf(unknown));
    expect(answerOf(foreignEnv)).toEqual(answerOf(unknown));
  });
});

describe('refreshing an item from the console', () => {
  it('queues the on-demand refresh of a healthy item, as POST /v1/items/refresh does', async () => {
    const { deps, queued } = await depsWithQueue();
    await createTestItem(deps, 'item_refresh1');
    expect(await refreshItemFromConsole(deps, SCOPE, { item_id: 'item_refresh1' })).toEqual({ refreshing: true });
    expect(queued).toEqual([{ item_id: 'item_refresh1', reason: 'on_demand' }]);
  });

  it("keeps the API's rules: an item that needs its user again, or made from statement files, is refused and nothing is queued", async () => {
    const { deps, queued } = await depsWithQueue();
    await createTestItem(deps, 'item_refresh2');
    await updateItemState(deps, 'item_refresh2', { status: 'login_required' });
    expect((await refusal(refreshItemFromConsole(deps, SCOPE, { item_id: 'item_refresh2' }))).code).toBe('item_login_required');
    await createTestItem(deps, 'item_refresh3', { connector: FILE_IMPORT_CONNECTOR_ID });
    expect((await refusal(refreshItemFromConsole(deps, SCOPE, { item_id: 'item_refresh3' }))).code).toBe('statement_import_not_supported');
    expect(queued).toEqual([]);
  });

  it("refuses another application's item with the not-found answer and queues nothing", async () => {
    const { deps, queued } = await depsWithQueue();
    await createTestItem(deps, 'item_refresh4', { applicationId: 'app_other' });
    expect((await refusal(refreshItemFromConsole(deps, SCOPE, { item_id: 'item_refresh4' }))).status).toBe(404);
    expect(queued).toEqual([]);
  });
});
