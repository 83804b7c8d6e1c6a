// The outbox's index entries are spread over OUTBOX_SHARDS partitions (one partition takes about
// 1,000 write units a second, and every event costs two index writes), and the sweep's read still
// finds every unpublished event with Queries only: in every shard, and in the unsharded partition
// that events written before the sharding sit in.
import { PutCommand, QueryCommand } from '../../functions/platform/aws/dynamodb';
import { keys, OUTBOX_SHARDS, TABLE } from '../../functions/data/keys';
import { markPublished, putEvent, unpublishedEvents } from '../../functions/data/webhooks-repo';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  deps = await embeddedDeps();
});

const event = (i: number, created: number) => ({
  eventId: `evt_shard_${i}`,
  type: 'item.login_repaired',
  created,
  applicationId: 'app_outbox',
  environment: 'test' as const,
  data: { item_id: `item_${i}` },
});

async function entriesOf(partition: string): Promise<number> {
  const res = await deps.ddb.send(
    new QueryCommand({ TableName: deps.config.tableName, IndexName: TABLE.globalIndexes[0].indexName, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': partition } }),
  );
  return res.Items?.length ?? 0;
}

describe('the sharded outbox', () => {
  it('spreads unpublished events over its partitions, none taking a large share', async () => {
    const created = Math.floor(deps.clock.now() / 1000);
    for (let i = 0; i < 160; i += 1) await putEvent(deps, event(i, created));
    const counts = await Promise.all(keys.outboxPartitions().map(entriesOf));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(160);
    expect(counts[counts.length - 1]).toBe(0); // nothing new in the unsharded partition
    expect(counts.filter((n) => n > 0)).toHaveLength(OUTBOX_SHARDS);
    expect(Math.max(...counts)).toBeLessThanOrEqual(25); // 10 per shard expected
  });

  it('finds the oldest unpublished events across every shard and the unsharded partition, and lets go of published ones', async () => {
    const base = Math.floor(deps.clock.now() / 1000) - 3600;
    for (let i = 0; i < 40; i += 1) await putEvent(deps, event(i, base + i));
    // An event written before the sharding: its index entry is in the unsharded partition.
    const legacyCreatedAt = new Date((base - 60) * 1000).toISOString();
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: { ...keys.event('evt_legacy'), gsi1pk: 'OUTBOX', gsi1sk: `${legacyCreatedAt}#evt_legacy`, event_id: 'evt_legacy', published: false },
      }),
    );
    const all = await unpublishedEvents(deps, deps.clock.now());
    expect(all).toEqual(['evt_legacy', ...Array.from({ length: 40 }, (_, i) => `evt_shard_${i}`)]);
    expect(await unpublishedEvents(deps, deps.clock.now(), 5)).toEqual(['evt_legacy', 'evt_shard_0', 'evt_shard_1', 'evt_shard_2', 'evt_shard_3']);
    // Only events created before `before`.
    expect(await unpublishedEvents(deps, (base + 10) * 1000)).toHaveLength(11);

    await markPublished(deps, 'evt_legacy');
    await markPublished(deps, 'evt_shard_0');
    expect((await unpublishedEvents(deps, deps.clock.now(), 2))).toEqual(['evt_shard_1', 'evt_shard_2']);
  });
});
