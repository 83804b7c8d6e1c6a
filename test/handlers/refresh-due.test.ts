// The scheduled refresh without a table scan: exactly the healthy items have a refresh-due row, whose
// gsi1 entry sits in one of 16 shards ordered by due time; the sweep reads only the entries whose
// time has come and queues them through the AWS adapter of the refresh queue (SendMessageBatch, 10 a
// call, refused entries retried) against a recording fake of SQS.
import { DeleteCommand, ScanCommand } from '../../functions/platform/aws/dynamodb';
import { createLinkToken, createSandboxPublicToken, exchangePublicToken, submitCredentials } from '../../functions/app/link';
import { markItemError, refreshItem, resetLogin, sweepDueRefreshes } from '../../functions/app/lifecycle';
import { itemErrorOf } from '../../functions/contracts/errors';
import { PLAN_REFRESH_HOURS } from '../../functions/contracts/limits';
import { firstRefreshIntervalMs, refreshDueShard, refreshIntervalMs, REFRESH_DUE_SHARDS } from '../../functions/core/refresh-schedule';
import { putApplication, type AuthContext } from '../../functions/data/api-keys-repo';
import { claimDueRefresh, dueRefreshes, getItem, recordSyncError, refreshDueOf, removeItem, scheduleNextRefresh, type ItemRecord } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import { createAwsPorts } from '../../functions/platform/aws-ports';
import { createLocalPorts } from '../../functions/platform/local/local-ports';
import type { RefreshJob } from '../../functions/platform/local/durable-store';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps, type ManualClock } from '../support/embedded';
import { FakeSqs } from '../support/fake-sqs';
import { runQueuedHistoryLoad } from '../support/readiness';

const mockSqs = new FakeSqs();
beforeAll(() => mockSqs.start());
afterAll(() => mockSqs.close());

const REFRESH_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/item-refresh.fifo';
const HOUR = 3_600_000;
const APP = 'app_due';
const PLAN = 'growth';

const auth: AuthContext = {
  applicationId: APP,
  environment: 'test',
  keyId: 'key_due',
  plan: PLAN,
  rateLimit: { limit: 200, remaining: 199, reset: 0 },
  usage: { kind: 'api', used: 1, quota: null },
};
const caller = { address: '203.0.113.9' };

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  mockSqs.reset();
  deps = await embeddedDeps();
  deps.ports = createAwsPorts({ ...mockSqs.env(), FC_ITEM_REFRESH_QUEUE_URL: REFRESH_QUEUE_URL, FC_WEBHOOK_EVENTS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/events' }, 'us-east-1');
  await putApplication(deps, { applicationId: APP, name: 'Due', plan: PLAN });
});

/**
 * A healthy item connected through the sandbox Link path (one commit), with its access token; its
 * history loaded by the job Link queued, unless the test wants it still loading.
 */
async function connectedItem({ loadHistory = true } = {}): Promise<{ itemId: string; accessToken: string }> {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const exchanged = await exchangePublicToken(deps, auth, public_token);
  if (loadHistory) await runQueuedHistoryLoad(deps, exchanged.item_id);
  return { itemId: exchanged.item_id, accessToken: exchanged.access_token };
}

async function item(itemId: string): Promise<ItemRecord> {
  const found = await getItem(deps, itemId);
  if (!found) throw new Error(`${itemId} is gone`);
  return found;
}

/** Item ids that all land in one shard (to page through one shard, or to find them in one place). */
function idsInShard(shard: number, count: number, prefix: string): string[] {
  const ids: string[] = [];
  for (let i = 0; ids.length < count; i += 1) if (refreshDueShard(`${prefix}_${i}`) === shard) ids.push(`${prefix}_${i}`);
  return ids;
}

describe('the refresh-due row follows the item', () => {
  it('is written by the commit that connects an item, due at once while its history is to load, and moved a plan interval on by the load', async () => {
    const connectedAt = deps.clock.now();
    const { itemId } = await connectedItem({ loadHistory: false });
    expect(await refreshDueOf(deps, itemId)).toEqual({ dueAt: connectedAt, intervalMs: firstRefreshIntervalMs('local') });
    deps.clock.advance(60_000);
    await runQueuedHistoryLoad(deps, itemId);
    expect(await refreshDueOf(deps, itemId)).toEqual({ dueAt: deps.clock.now() + PLAN_REFRESH_HOURS[PLAN] * HOUR, intervalMs: PLAN_REFRESH_HOURS[PLAN] * HOUR });
  });

  it("is moved one interval of the application's plan on by a refresh", async () => {
    const { itemId } = await connectedItem();
    deps.clock.advance(2 * HOUR);
    await expect(refreshItem(deps, { item_id: itemId, reason: 'on_demand' })).resolves.toMatchObject({ refreshed: true });
    expect(await refreshDueOf(deps, itemId)).toEqual({ dueAt: deps.clock.now() + PLAN_REFRESH_HOURS[PLAN] * HOUR, intervalMs: PLAN_REFRESH_HOURS[PLAN] * HOUR });
  });

  it('is deleted when the item is removed', async () => {
    const { itemId } = await connectedItem();
    expect(await refreshDueOf(deps, itemId)).toBeDefined();
    await removeItem(deps, await item(itemId));
    expect(await refreshDueOf(deps, itemId)).toBeUndefined();
    deps.clock.advance(1000 * HOUR);
    await expect(sweepDueRefreshes(deps)).resolves.toEqual({ due: 0, enqueued: 0, refused: 0 });
  });

  it('is deleted when the login breaks, and written again by the repair in update mode', async () => {
    const { itemId } = await connectedItem();
    expect(await refreshDueOf(deps, itemId)).toBeDefined();
    await resetLogin(deps, await item(itemId));
    expect((await item(itemId)).status).toBe('login_required');
    expect(await refreshDueOf(deps, itemId)).toBeUndefined();
    deps.clock.advance(1000 * HOUR);
    await expect(sweepDueRefreshes(deps)).resolves.toMatchObject({ due: 0, enqueued: 0 });

    const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: itemId });
    const repairedAt = deps.clock.now();
    await submitCredentials(deps, { link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' }, caller);
    expect((await item(itemId)).status).toBe('healthy');
    // Due at once: the repaired item's sync is queued, and the sweep makes up for a lost job.
    expect(await refreshDueOf(deps, itemId)).toMatchObject({ dueAt: repairedAt, intervalMs: firstRefreshIntervalMs('local') });
  });

  it('is deleted when the item enters an error, and never refreshed by the worker then', async () => {
    const { itemId } = await connectedItem();
    expect(await refreshDueOf(deps, itemId)).toBeDefined();
    await markItemError(deps, await item(itemId), itemErrorOf('item_locked'));
    expect(await refreshDueOf(deps, itemId)).toBeUndefined();
    await expect(refreshItem(deps, { item_id: itemId, reason: 'scheduled' })).resolves.toEqual({ refreshed: false, reason: 'error' });
    expect(await refreshDueOf(deps, itemId)).toBeUndefined();
  });

  it('is written for an item created healthy and not for one created in another status', async () => {
    await createTestItem(deps, 'item_healthy', { applicationId: APP });
    await createTestItem(deps, 'item_broken', { applicationId: APP, status: 'login_required' });
    expect(await refreshDueOf(deps, 'item_healthy')).toBeDefined();
    expect(await refreshDueOf(deps, 'item_broken')).toBeUndefined();
  });

  it('comes back with the next refresh for a healthy item that has none (an item stored before the index)', async () => {
    await createTestItem(deps, 'item_legacy', { applicationId: APP });
    await deps.ddb.send(new DeleteCommand({ TableName: deps.config.tableName, Key: keys.refreshDue('item_legacy') }));
    await refreshItem(deps, { item_id: 'item_legacy', reason: 'on_demand' });
    expect(await refreshDueOf(deps, 'item_legacy')).toEqual({ dueAt: deps.clock.now() + refreshIntervalMs('local', PLAN), intervalMs: refreshIntervalMs('local', PLAN) });
  });

  it('is moved on after a refresh by two plain conditional writes, no transaction, and back for a healthy item that lost it', async () => {
    await createTestItem(deps, 'item_plain', { applicationId: APP });
    const operations: string[] = [];
    deps.ddb.use(async (call, next) => {
      operations.push(call.operation);
      return next();
    });
    deps.clock.advance(HOUR);
    await expect(scheduleNextRefresh(deps, await item('item_plain'), { syncedAt: new Date(deps.clock.now()).toISOString() })).resolves.toBe(true);
    expect(operations.filter((op) => op !== 'GetItem')).toEqual(['UpdateItem', 'PutItem']);
    expect(await refreshDueOf(deps, 'item_plain')).toEqual({ dueAt: deps.clock.now() + refreshIntervalMs('local', PLAN), intervalMs: refreshIntervalMs('local', PLAN) });
    expect((await item('item_plain')).lastSuccessfulSync).toBe(new Date(deps.clock.now()).toISOString());

    // A healthy item without its row (nothing leaves one so; an old store may): the transaction puts it back.
    const { pk, sk } = keys.refreshDue('item_plain');
    await deps.ddb.send(new DeleteCommand({ TableName: deps.config.tableName, Key: { pk, sk } }));
    operations.length = 0;
    await expect(scheduleNextRefresh(deps, await item('item_plain'))).resolves.toBe(true);
    expect(operations.filter((op) => op !== 'GetItem')).toEqual(['PutItem', 'TransactWriteItems']);
    expect(await refreshDueOf(deps, 'item_plain')).toMatchObject({ dueAt: deps.clock.now() + refreshIntervalMs('local', PLAN) });
  });

  it("records the item's freshness and clears its sync error in the commit of a refresh that changed something, with no write of its own", async () => {
    const { itemId } = await connectedItem();
    const freshnessWrites: string[] = [];
    deps.ddb.use(async (call, next) => {
      const expression = String((call.input as { UpdateExpression?: unknown }).UpdateExpression ?? '');
      if (call.operation === 'UpdateItem' && expression.includes('last_successful_sync')) freshnessWrites.push(expression);
      return next();
    });
    deps.clock.advance(2 * HOUR);
    await expect(refreshItem(deps, { item_id: itemId, reason: 'on_demand' })).resolves.toMatchObject({ refreshed: true, changed: true });
    expect(freshnessWrites).toEqual([]);
    expect((await item(itemId)).lastSuccessfulSync).toBe(new Date(deps.clock.now()).toISOString());
    expect(await refreshDueOf(deps, itemId)).toMatchObject({ dueAt: deps.clock.now() + PLAN_REFRESH_HOURS[PLAN] * HOUR });

    // An error recorded while the next refresh runs (a failed live balance read after the refresh read
    // the item, here as the refresh counts itself): the refresh's commit clears it all the same.
    let injected = false;
    deps.ddb.use(async (call, next) => {
      const out = await next();
      const expression = String((call.input as { UpdateExpression?: unknown }).UpdateExpression ?? '');
      if (!injected && call.operation === 'UpdateItem' && expression.includes('refresh_count')) {
        injected = true;
        await recordSyncError(deps, itemId, { code: 'institution_down', message: 'down', occurredAt: new Date(deps.clock.now()).toISOString() });
      }
      return out;
    });
    deps.clock.advance(2 * HOUR);
    await expect(refreshItem(deps, { item_id: itemId, reason: 'on_demand' })).resolves.toMatchObject({ refreshed: true, changed: true });
    expect(injected).toBe(true);
    expect(freshnessWrites).toEqual([]);
    const cleared = await item(itemId);
    expect(cleared.lastSyncError).toBeNull();
    expect(cleared.lastSuccessfulSync).toBe(new Date(deps.clock.now()).toISOString());
  });

  it('is never written back by a refresh that finishes after the login broke', async () => {
    await createTestItem(deps, 'item_racing', { applicationId: APP });
    const before = await item('item_racing');
    expect(await refreshDueOf(deps, 'item_racing')).toBeDefined();
    await resetLogin(deps, before);
    // The refresh read the item while it was healthy; its reschedule comes after the status change.
    await expect(scheduleNextRefresh(deps, before)).resolves.toBe(false);
    expect(await refreshDueOf(deps, 'item_racing')).toBeUndefined();
    // Nor by one that pulled successfully: its freshness is not recorded on a broken item either.
    await expect(scheduleNextRefresh(deps, before, { syncedAt: new Date(deps.clock.now()).toISOString() })).resolves.toBe(false);
    expect(await refreshDueOf(deps, 'item_racing')).toBeUndefined();
    expect((await item('item_racing')).lastSuccessfulSync).toBe(before.lastSuccessfulSync);
  });
});

describe('the sweep', () => {
  it('queues exactly the due items, in batches of at most 10 with one message group per item, and moves them on', async () => {
    const t0 = deps.clock.now();
    const dueIds = [...idsInShard(3, 23, 'item_due'), ...idsInShard(11, 4, 'item_due_b')];
    for (const id of dueIds) await createTestItem(deps, id, { applicationId: APP });
    deps.clock.advance(HOUR);
    const laterIds = idsInShard(3, 5, 'item_later');
    for (const id of laterIds) await createTestItem(deps, id, { applicationId: APP });
    await createTestItem(deps, 'item_login_required', { applicationId: APP, status: 'login_required' });

    deps.clock.set(t0 + firstRefreshIntervalMs('local'));
    const result = await sweepDueRefreshes(deps);
    expect(result).toEqual({ due: dueIds.length, enqueued: dueIds.length, refused: 0 });
    expect(mockSqs.acceptedItemIds().sort()).toEqual([...dueIds].sort());
    // One page of each shard, queued together: 27 entries in three calls.
    expect(mockSqs.batches.map((b) => b.entries.length)).toEqual([10, 10, 7]);
    for (const message of mockSqs.accepted) {
      expect(message.queueUrl).toBe(REFRESH_QUEUE_URL);
      expect(JSON.parse(message.body)).toEqual({ item_id: message.groupId, reason: 'scheduled' });
    }
    for (const id of dueIds) expect((await refreshDueOf(deps, id))?.dueAt).toBe(deps.clock.now() + firstRefreshIntervalMs('local'));
    for (const id of laterIds) expect((await refreshDueOf(deps, id))?.dueAt).toBe(t0 + HOUR + firstRefreshIntervalMs('local'));

    // Queued entries moved on: the next sweep at the same time queues nothing.
    await expect(sweepDueRefreshes(deps)).resolves.toEqual({ due: 0, enqueued: 0, refused: 0 });
    expect(mockSqs.batches).toHaveLength(3);
  });

  it('reads due entries page by page, a page of every shard per round', async () => {
    const ids = idsInShard(5, 7, 'item_paged');
    for (const id of ids) await createTestItem(deps, id, { applicationId: APP });
    deps.clock.advance(firstRefreshIntervalMs('local'));
    await expect(sweepDueRefreshes(deps, { pageSize: 3 })).resolves.toEqual({ due: 7, enqueued: 7, refused: 0 });
    expect(mockSqs.batches.map((b) => b.entries.length)).toEqual([3, 3, 1]);
  });

  it('retries the entries SQS refused, and leaves those it keeps refusing due for the next sweep', async () => {
    const [flaky, stubborn, malformed, ...others] = idsInShard(7, 8, 'item_refused');
    for (const id of [flaky, stubborn, malformed, ...others]) await createTestItem(deps, id, { applicationId: APP });
    deps.clock.advance(firstRefreshIntervalMs('local'));
    const dueAt = (await refreshDueOf(deps, stubborn))?.dueAt;
    mockSqs.refuse(flaky, 1);
    mockSqs.refuse(stubborn, 10);
    mockSqs.refuse(malformed, 1, true);

    await expect(sweepDueRefreshes(deps)).resolves.toEqual({ due: 8, enqueued: 6, refused: 2 });
    // The first call carries all eight; the retries carry only the refused entries that may succeed.
    expect(mockSqs.batches.map((b) => b.entries.length)).toEqual([8, 2, 1]);
    expect(mockSqs.acceptedItemIds().sort()).toEqual([flaky, ...others].sort());
    // Refused to the end: still due at the same time, so the next sweep takes them.
    expect((await refreshDueOf(deps, stubborn))?.dueAt).toBe(dueAt);
    expect((await refreshDueOf(deps, malformed))?.dueAt).toBe(dueAt);
    expect((await refreshDueOf(deps, flaky))?.dueAt).toBe(deps.clock.now() + firstRefreshIntervalMs('local'));

    mockSqs.refuse(stubborn, 0);
    await expect(sweepDueRefreshes(deps)).resolves.toEqual({ due: 2, enqueued: 2, refused: 0 });
    expect(mockSqs.acceptedItemIds()).toEqual(expect.arrayContaining([stubborn, malformed]));
  });

  it('queries the index, one Query per shard when nothing is due, and never scans', async () => {
    for (let i = 0; i < 20; i += 1) await createTestItem(deps, `item_quiet_${i}`, { applicationId: APP });
    const commands: string[] = [];
    const send = deps.ddb.send.bind(deps.ddb);
    deps.ddb.send = ((command: Parameters<typeof send>[0]) => {
      commands.push(command.constructor.name);
      return send(command);
    }) as typeof deps.ddb.send;
    await sweepDueRefreshes(deps);
    expect(commands).toEqual(Array.from({ length: REFRESH_DUE_SHARDS }, () => 'QueryCommand'));

    commands.length = 0;
    deps.clock.advance(firstRefreshIntervalMs('local'));
    await expect(sweepDueRefreshes(deps)).resolves.toMatchObject({ enqueued: 20 });
    expect(new Set(commands)).toEqual(new Set(['QueryCommand', 'UpdateCommand']));
    expect(commands.filter((c) => c === ScanCommand.name)).toEqual([]);
  });

  it('does not move an entry that a refresh rescheduled after the sweep read it', async () => {
    await createTestItem(deps, 'item_raced', { applicationId: APP });
    deps.clock.advance(firstRefreshIntervalMs('local'));
    const shard = refreshDueShard('item_raced');
    const [read] = (await dueRefreshes(deps, shard, deps.clock.now(), { limit: 10 })).due;
    expect(read.itemId).toBe('item_raced');
    await scheduleNextRefresh(deps, await item('item_raced'));
    const rescheduled = await refreshDueOf(deps, 'item_raced');
    await expect(claimDueRefresh(deps, read, deps.clock.now() + 1)).resolves.toBe(false);
    expect(await refreshDueOf(deps, 'item_raced')).toEqual(rescheduled);
  });
});

describe('the local refresh queue', () => {
  it('accepts a batch as one durable job per refresh, runs them, and hands every one back once stopped', async () => {
    const added: RefreshJob[] = [];
    const jobs = { add: async (job: RefreshJob) => void added.push(job), remove: async () => undefined, pending: async () => [] };
    const local = createLocalPorts(() => deps, { timeScale: 1, refreshJobStore: jobs, sweepEveryMs: 3_600_000 });
    try {
      for (const id of ['item_l1', 'item_l2']) await createTestItem(deps, id, { applicationId: APP });
      const inputs = ['item_l1', 'item_l2', 'item_gone'].map((item_id) => ({ item_id, reason: 'scheduled' as const }));
      await expect(local.ports.refreshQueue.enqueueMany(inputs)).resolves.toEqual([]);
      expect(added.map((job) => job.input)).toEqual(inputs);
      await local.idle();
      // Each ran: the healthy items were refreshed and rescheduled on their plan's cadence.
      expect((await refreshDueOf(deps, 'item_l1'))?.intervalMs).toBe(refreshIntervalMs('local', PLAN));
      local.stop();
      await expect(local.ports.refreshQueue.enqueueMany(inputs)).resolves.toEqual(inputs);
    } finally {
      local.stop();
    }
  });
});
