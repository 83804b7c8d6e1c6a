// Link answers as soon as a new item and its accounts exist; the refresh worker loads the history in
// two announced stages (the recent days, then everything), and the item says how far it got
// (`transactions_update_status`, Plaid's semantics). Reads that need history answer
// `product_not_ready` until it is there; sync serves what is loaded.
import { ScanCommand, TransactWriteCommand } from '../../functions/platform/aws/dynamodb';
import { createSandboxPublicToken, exchangePublicToken } from '../../functions/app/link';
import { refreshItem, sweepDueRefreshes } from '../../functions/app/lifecycle';
import { fetchFromSource, initialUpdateStart, todayOf } from '../../functions/app/item-source';
import { assetsOf, incomeOf, recurringOf } from '../../functions/app/products';
import { getTransactions } from '../../functions/app/reads';
import { syncTransactions } from '../../functions/app/sync';
import { sweepOutbox } from '../../functions/app/webhooks';
import { INITIAL_UPDATE_DAYS, PLAN_REFRESH_HOURS } from '../../functions/contracts/limits';
import type { RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import { firstRefreshIntervalMs } from '../../functions/core/refresh-schedule';
import { putApplication, type AuthContext } from '../../functions/data/api-keys-repo';
import { commitTransactions } from '../../functions/data/feed-repo';
import { getItem, publicItem, purgeRemovedItem, PURGE_GRACE_MS, putAccounts, refreshDueOf, removeItem, type ItemRecord } from '../../functions/data/items-repo';
import type { BackgroundPorts } from '../../functions/platform/ports';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps, type ManualClock } from '../support/embedded';

const APP = 'app_history';
const auth: AuthContext = {
  applicationId: APP,
  environment: 'test',
  keyId: 'key_history',
  plan: 'growth',
  rateLimit: { limit: 200, remaining: 199, reset: 0 },
  usage: { kind: 'api', used: 1, quota: null },
};

/** Background ports that record what they are handed; `onPublish` runs inside a publish (between the stages). */
function recordingPorts() {
  const queued: RefreshExecutionInput[] = [];
  const published: string[] = [];
  const hooks: { onPublish?: (eventId: string) => Promise<void>; enqueueFails?: boolean } = {};
  const ports: BackgroundPorts = {
    eventBus: {
      publish: async (eventId) => {
        published.push(eventId);
        await hooks.onPublish?.(eventId);
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        if (hooks.enqueueFails) throw new Error('the queue is unreachable');
        queued.push(input);
      },
      enqueueMany: async (inputs) => {
        queued.push(...inputs);
        return [];
      },
    },
    deliveries: { start: async () => true },
  };
  return { ports, queued, published, hooks };
}

let deps: Deps & { clock: ManualClock };
let background: ReturnType<typeof recordingPorts>;
beforeEach(async () => {
  deps = await embeddedDeps();
  background = recordingPorts();
  deps.ports = background.ports;
  await putApplication(deps, { applicationId: APP, name: 'History', plan: 'growth' });
});

async function connect(products: Array<'transactions' | 'recurring' | 'income' | 'assets' | 'identity'> = ['transactions', 'recurring', 'income', 'assets']): Promise<string> {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products });
  return (await exchangePublicToken(deps, auth, public_token)).item_id;
}

async function item(itemId: string): Promise<ItemRecord> {
  return (await getItem(deps, itemId)) ?? fail(`${itemId} is gone`);
}

function fail(message: string): never {
  throw new Error(message);
}

/** Every sync_updates_available event of the item in the table (published or still in the outbox), oldest first. */
async function syncEvents(itemId: string): Promise<Array<{ initial: boolean; historical: boolean; published: boolean }>> {
  const rows: Array<Record<string, { initial_update_complete: boolean; historical_update_complete: boolean }> & { published?: boolean }> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await deps.ddb.send(
      new ScanCommand({
        TableName: deps.config.tableName,
        FilterExpression: '#type = :type AND #data.item_id = :item',
        ExpressionAttributeNames: { '#type': 'type', '#data': 'data' },
        ExpressionAttributeValues: { ':type': 'transactions.sync_updates_available', ':item': itemId },
        ExclusiveStartKey: start,
      }),
    );
    rows.push(...((res.Items ?? []) as typeof rows));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows
    .sort((a, b) => (a.data.historical_update_complete === b.data.historical_update_complete ? 0 : a.data.historical_update_complete ? 1 : -1))
    .map((row) => ({ initial: row.data.initial_update_complete, historical: row.data.historical_update_complete, published: row.published === true }));
}

async function syncAll(itemId: string) {
  const added = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await syncTransactions(deps, await item(itemId), cursor, 500);
    added.push(...page.added);
    cursor = page.next_cursor;
    if (!page.has_more) return { added, status: page.transactions_update_status };
  }
}

const everything = { start_date: '2000-01-01', end_date: '2100-01-01' };
const readTransactions = async (itemId: string) => getTransactions(deps, await item(itemId), { access_token: 'fc_at_x', ...everything });

describe('connecting', () => {
  it('answers with the item not_ready, no transactions, and the history load queued', async () => {
    const itemId = await connect();
    const connected = await item(itemId);
    expect(publicItem(connected)).toMatchObject({ status: 'healthy', transactions_update_status: 'not_ready' });
    expect(connected.committedSeq).toBe(0);
    expect(background.queued).toEqual([{ item_id: itemId, reason: 'initial_history' }]);
    expect(await syncAll(itemId)).toEqual({ added: [], status: 'not_ready' });
    expect(await syncEvents(itemId)).toEqual([]);
  });

  it('answers product_not_ready from transactions/get and the history-derived products until their stage lands', async () => {
    const itemId = await connect();
    const notReady = { code: 'product_not_ready', status: 400 };
    await expect(readTransactions(itemId)).rejects.toMatchObject(notReady);
    for (const read of [recurringOf, incomeOf, assetsOf]) await expect(read(deps, await item(itemId))).rejects.toMatchObject(notReady);

    await refreshItem(deps, { item_id: itemId, reason: 'initial_history' });
    expect((await readTransactions(itemId)).total_transactions).toBeGreaterThan(1000);
    for (const read of [recurringOf, incomeOf, assetsOf]) await expect(read(deps, await item(itemId))).resolves.toBeDefined();
  });

  it('is complete at once for an item without the transactions product, and queues nothing', async () => {
    const itemId = await connect(['identity']);
    expect((await item(itemId)).transactionsUpdateStatus).toBe('historical_update_complete');
    expect(background.queued).toEqual([]);
    expect(await refreshDueOf(deps, itemId)).toMatchObject({ dueAt: deps.clock.now() + firstRefreshIntervalMs('local') });
  });
});

describe('the history load', () => {
  it('commits the recent days first, then the rest, each stage announced with its flags', async () => {
    const itemId = await connect();
    const between: Array<{ status: string; dates: string[]; total: number; recurring: string }> = [];
    background.hooks.onPublish = async () => {
      // Inside the first stage's publish: what a caller woken by its webhook would read.
      if (between.length > 0) return;
      const { added, status } = await syncAll(itemId);
      const recurring = await recurringOf(deps, await item(itemId)).then(
        () => 'served',
        (err: { code: string }) => err.code,
      );
      between.push({ status, dates: added.map((t) => t.date), total: (await readTransactions(itemId)).total_transactions, recurring });
    };
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toMatchObject({ refreshed: true, history: true, changed: true });

    const from = initialUpdateStart(todayOf(deps));
    expect(INITIAL_UPDATE_DAYS).toBe(30);
    expect(between).toHaveLength(1);
    expect(between[0]).toMatchObject({ status: 'initial_update_complete', recurring: 'product_not_ready' });
    expect(between[0].dates.length).toBeGreaterThan(10);
    expect(between[0].dates.every((d) => d >= from)).toBe(true);
    expect(between[0].total).toBe(between[0].dates.length);

    const history = await fetchFromSource(deps, await item(itemId));
    const all = history.transactions.kind === 'window' ? history.transactions.transactions : [];
    expect(all.filter((t) => t.date >= from)).toHaveLength(between[0].dates.length);
    const after = await syncAll(itemId);
    expect(after.status).toBe('historical_update_complete');
    expect(after.added).toHaveLength(all.length);
    expect(publicItem(await item(itemId)).transactions_update_status).toBe('historical_update_complete');
    expect(await syncEvents(itemId)).toEqual([
      { initial: true, historical: false, published: true },
      { initial: true, historical: true, published: true },
    ]);
  });

  it('hands over to the normal schedule: the next job refreshes, a second history job does nothing', async () => {
    const itemId = await connect();
    await refreshItem(deps, { item_id: itemId, reason: 'scheduled' });
    expect((await item(itemId)).transactionsUpdateStatus).toBe('historical_update_complete');
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toEqual({ refreshed: false, reason: 'history_loaded' });
    expect(await syncEvents(itemId)).toHaveLength(2);
    await expect(refreshItem(deps, { item_id: itemId, reason: 'scheduled' })).resolves.toMatchObject({ refreshed: true });
    expect((await refreshDueOf(deps, itemId))?.dueAt).toBe(deps.clock.now() + PLAN_REFRESH_HOURS.growth * 3_600_000);
  });

  it('resumes after a crash between the stages: the first stage is neither committed nor announced again', async () => {
    const itemId = await connect();
    // The process dies at the second stage's publishing write (the one that carries the STATS row again).
    const send = deps.ddb.send.bind(deps.ddb);
    let publishes = 0;
    deps.ddb.send = ((command: Parameters<typeof send>[0]) => {
      const isPublish = command instanceof TransactWriteCommand && (command.input.TransactItems ?? []).some((e) => e.Put?.Item?.sk === 'STATS');
      if (isPublish && ++publishes === 2) return Promise.reject(new Error('the process died'));
      return send(command);
    }) as typeof deps.ddb.send;
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).rejects.toThrow('the process died');
    deps.ddb.send = send as typeof deps.ddb.send;
    const halfway = await item(itemId);
    expect(halfway.transactionsUpdateStatus).toBe('initial_update_complete');
    expect(await syncEvents(itemId)).toEqual([{ initial: true, historical: false, published: true }]);

    // The job runs again (SQS redelivers it), past the dead writer's lease.
    deps.clock.advance(120_000);
    await refreshItem(deps, { item_id: itemId, reason: 'initial_history' });
    expect((await item(itemId)).transactionsUpdateStatus).toBe('historical_update_complete');
    // The feed holds the whole history once (the dead writer's rows were undone, not kept twice).
    const { added } = await syncAll(itemId);
    const history = await fetchFromSource(deps, await item(itemId));
    expect(new Set(added.map((t) => t.transaction_id)).size).toBe(added.length);
    expect(added).toHaveLength(history.transactions.kind === 'window' ? history.transactions.transactions.length : -1);
    expect(await syncEvents(itemId)).toEqual([
      { initial: true, historical: false, published: true },
      { initial: true, historical: true, published: true },
    ]);
  });

  it('leaves nothing of an item removed while its history loads: the rows written after the removal are swept', async () => {
    const itemId = await connect();
    const removing = await item(itemId);
    // The integrator removes the item just before the first stage's publishing write: the feed rows
    // of the stage are already written, and the commit then finds no item.
    const send = deps.ddb.send.bind(deps.ddb);
    let removed = false;
    deps.ddb.send = (async (command: Parameters<typeof send>[0]) => {
      const isPublish = command instanceof TransactWriteCommand && (command.input.TransactItems ?? []).some((e) => e.Put?.Item?.sk === 'STATS');
      if (isPublish && !removed) {
        removed = true;
        await removeItem(deps, removing);
      }
      return send(command);
    }) as typeof deps.ddb.send;
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toEqual({ refreshed: false, reason: 'removed' });
    deps.ddb.send = send as typeof deps.ddb.send;
    expect(removed).toBe(true);
    const left = async () =>
      (
        await deps.ddb.send(
          new ScanCommand({ TableName: deps.config.tableName, FilterExpression: 'contains(pk, :item)', ExpressionAttributeValues: { ':item': itemId }, ConsistentRead: true }),
        )
      ).Items ?? [];
    // Only the purge row, for the second purge a grace later (functions/data/items-repo.ts purgeRemovedItem).
    expect((await left()).map((row) => row.sk)).toEqual(['PURGE']);
    // A retry of the job finds the item gone and stops.
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toEqual({ refreshed: false, reason: 'removed' });
    deps.clock.advance(PURGE_GRACE_MS);
    await purgeRemovedItem(deps, itemId);
    expect(await left()).toEqual([]);
  });

  it('leaves an announcement a crash kept from publishing to the outbox sweep, and does not repeat it', async () => {
    const itemId = await connect();
    background.hooks.onPublish = async () => {
      background.hooks.onPublish = undefined;
      throw new Error('the process died before the event bus had the event');
    };
    await refreshItem(deps, { item_id: itemId, reason: 'initial_history' });
    expect(await syncEvents(itemId)).toEqual([
      { initial: true, historical: false, published: false },
      { initial: true, historical: true, published: true },
    ]);
    deps.clock.advance(60_000);
    expect(await sweepOutbox(deps)).toBe(1);
    expect((await syncEvents(itemId)).map((e) => e.published)).toEqual([true, true]);
  });

  it('recomputes on a retry whose stages were committed without their status: nothing new is committed, each stage is announced once', async () => {
    // An item whose feed already holds its whole history while its status still says not_ready.
    const itemId = 'item_recommitted';
    await createTestItem(deps, itemId, { applicationId: APP, transactionsUpdateStatus: 'not_ready' });
    const source = await fetchFromSource(deps, await item(itemId));
    await putAccounts(deps, itemId, source.accounts, deps.clock.now());
    await commitTransactions(deps, itemId, source.transactions);
    const committed = (await item(itemId)).committedSeq;

    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toMatchObject({ refreshed: true, changed: false });
    expect(await item(itemId)).toMatchObject({ committedSeq: committed, transactionsUpdateStatus: 'historical_update_complete' });
    expect(await syncEvents(itemId)).toEqual([
      { initial: true, historical: false, published: true },
      { initial: true, historical: true, published: true },
    ]);
    await refreshItem(deps, { item_id: itemId, reason: 'initial_history' });
    expect(await syncEvents(itemId)).toHaveLength(2);
  });

  it('is loaded by the scheduled sweep when the job Link queued was lost', async () => {
    background.hooks.enqueueFails = true;
    const itemId = await connect();
    expect(background.queued).toEqual([]);
    expect((await item(itemId)).transactionsUpdateStatus).toBe('not_ready');

    const sweep = await sweepDueRefreshes(deps);
    expect(sweep).toEqual({ due: 1, enqueued: 1, refused: 0 });
    expect(background.queued).toEqual([{ item_id: itemId, reason: 'scheduled' }]);
    await refreshItem(deps, background.queued[0]);
    expect((await item(itemId)).transactionsUpdateStatus).toBe('historical_update_complete');
    expect(await syncEvents(itemId)).toHaveLength(2);
  });
});

describe('an item stored before the history loaded in the background', () => {
  it('reads as historical_update_complete, serves every read, and a history job leaves it alone', async () => {
    const itemId = 'item_legacy_history';
    await createTestItem(deps, itemId, { applicationId: APP, consentedProducts: ['transactions', 'recurring'] });
    const source = await fetchFromSource(deps, await item(itemId));
    await putAccounts(deps, itemId, source.accounts, deps.clock.now());
    await commitTransactions(deps, itemId, source.transactions);

    const legacy = await item(itemId);
    expect(publicItem(legacy).transactions_update_status).toBe('historical_update_complete');
    expect((await syncAll(itemId)).status).toBe('historical_update_complete');
    expect((await readTransactions(itemId)).total_transactions).toBeGreaterThan(1000);
    await expect(recurringOf(deps, legacy)).resolves.toBeDefined();
    await expect(refreshItem(deps, { item_id: itemId, reason: 'initial_history' })).resolves.toEqual({ refreshed: false, reason: 'history_loaded' });
    expect((await item(itemId)).committedSeq).toBe(legacy.committedSeq);
  });
});
