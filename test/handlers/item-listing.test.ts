// An item is listed under its application environment by a row of its own (keys.itemListing), not by
// index keys on the item row: the item row's many updates (a refresh's lease, counters, sync times)
// then cost one write unit each instead of two (the item's write plus the index entry's). Items
// listed the older way, on their item row, still count.
import { GetCommand, PutCommand, QueryCommand } from '../../functions/platform/aws/dynamodb';
import { bumpRefreshCount, getItem, listDueRemovals, purgeRemovedItem, PURGE_DEADLINE_MS, PURGE_GRACE_MS, putAccounts, removeItem } from '../../functions/data/items-repo';
import { requeueDueRemovals } from '../../functions/app/lifecycle';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { keys } from '../../functions/data/keys';
import { countConnectedItems } from '../../functions/data/request-log-repo';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps, manualClock } from '../support/embedded';

const scope = { applicationId: 'app_test', environment: 'test' as const };

/** Every row of an item's partition. */
async function partition(deps: Deps, itemId: string) {
  const res = await deps.ddb.send(
    new QueryCommand({ TableName: deps.config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.item(itemId).pk }, ConsistentRead: true }),
  );
  return (res.Items ?? []) as Array<Record<string, unknown>>;
}

/** Write units DynamoDB reports for `run`. */
async function writeUnits(deps: Deps, run: () => Promise<unknown>): Promise<number> {
  deps.ddbCalls.trackCapacity = true;
  const before = deps.ddbCalls.capacityUnits;
  await run();
  deps.ddbCalls.trackCapacity = false;
  return deps.ddbCalls.capacityUnits - before;
}

it('lists a new item by its own row: the item row carries no index keys, and the application counts it', async () => {
  const deps = await embeddedDeps();
  await createTestItem(deps, 'item_listed');
  const rows = await partition(deps, 'item_listed');
  const itemRow = rows.find((r) => r.sk === 'ITEM')!;
  expect(itemRow.gsi1pk).toBeUndefined();
  const listing = rows.find((r) => r.sk === 'LISTED')!;
  expect(listing.gsi1pk).toBe(keys.itemsOfApplication(scope.applicationId, scope.environment).gsi1pk);
  expect(await countConnectedItems(deps, scope)).toBe(1);
});

it("updates a listed item's row for one write unit, where an item indexed on its own row pays two", async () => {
  const deps = await embeddedDeps();
  await createTestItem(deps, 'item_new');
  // An item listed the older way: the index keys on the item row itself.
  await createTestItem(deps, 'item_old');
  const old = (await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.item('item_old') }))).Item!;
  await deps.ddb.send(
    new PutCommand({ TableName: deps.config.tableName, Item: { ...old, ...keys.itemByApplication(scope.applicationId, scope.environment, String(old.created_at), 'item_old') } }),
  );
  await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: { pk: keys.item('item_old').pk, sk: 'LISTED' } }));
  expect(await writeUnits(deps, () => bumpRefreshCount(deps, 'item_new', '2026-11-21'))).toBe(1);
  expect(await writeUnits(deps, () => bumpRefreshCount(deps, 'item_old', '2026-11-21'))).toBe(2);
  // Both count (the old item's placeholder LISTED row above has no index keys).
  expect(await countConnectedItems(deps, scope)).toBe(2);
});

it('removing an item removes its listing at once; a purge removes the rest, and a second one after the grace the purge row', async () => {
  const deps = await embeddedDeps(manualClock());
  await createTestItem(deps, 'item_removed_listing');
  await removeItem(deps, (await getItem(deps, 'item_removed_listing'))!);
  expect(await countConnectedItems(deps, scope)).toBe(0);
  expect(await getItem(deps, 'item_removed_listing')).toBeUndefined();
  expect((await partition(deps, 'item_removed_listing')).map((r) => r.sk)).toContain('PURGE');
  // The first purge leaves only the purge row, listed again one grace on.
  await expect(purgeRemovedItem(deps, 'item_removed_listing')).resolves.toBe(false);
  expect((await partition(deps, 'item_removed_listing')).map((r) => r.sk)).toEqual(['PURGE']);
  expect((await listDueRemovals(deps, deps.clock.now())).map((d) => d.itemId)).not.toContain('item_removed_listing');
  // A writer that resolved the item before its removal puts a row after the first purge.
  const { accounts } = generateSandboxItem({ institutionId: 'ins_sandbox_first_bank', username: 'user_good' }, '2026-11-20');
  await putAccounts(deps, 'item_removed_listing', accounts.slice(0, 1), deps.clock.now());
  expect((await partition(deps, 'item_removed_listing')).length).toBe(2);
  deps.clock.advance(PURGE_GRACE_MS);
  expect((await listDueRemovals(deps, deps.clock.now())).map((d) => d.itemId)).toContain('item_removed_listing');
  await expect(purgeRemovedItem(deps, 'item_removed_listing')).resolves.toBe(true);
  expect(await partition(deps, 'item_removed_listing')).toEqual([]);
});

it('queues again a removal whose purge is due (a lost job, or a second purge), once per deadline', async () => {
  const deps = await embeddedDeps(manualClock());
  const queued: string[] = [];
  deps.ports = { ...deps.ports, refreshQueue: { ...deps.ports.refreshQueue, enqueueMany: async (inputs) => (queued.push(...inputs.map((i) => `${i.item_id}:${i.reason}`)), []) } };
  await createTestItem(deps, 'item_purge_lost');
  await removeItem(deps, (await getItem(deps, 'item_purge_lost'))!);
  await expect(requeueDueRemovals(deps)).resolves.toBe(0);
  deps.clock.advance(PURGE_DEADLINE_MS + 1);
  await expect(requeueDueRemovals(deps)).resolves.toBe(1);
  expect(queued).toEqual(['item_purge_lost:item_removed']);
  // Moved on as it was queued: the next sweep does not queue it again.
  await expect(requeueDueRemovals(deps)).resolves.toBe(0);
});
