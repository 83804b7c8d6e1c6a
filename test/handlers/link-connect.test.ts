// A Link connection that dies before it commits leaves nothing visible: the new item stays
// `connecting` (invisible to every read), the link session stays open for a retry, and the reaper
// removes the item row, its accounts and its feed once the connection's deadline has passed.
import { QueryCommand, ScanCommand, TransactWriteCommand } from '../../functions/platform/aws/dynamodb';
import { createLinkToken, reapAbandonedConnections, submitCredentials } from '../../functions/app/link';
import { LIMITS } from '../../functions/contracts/limits';
import { getItem, getLinkSession, listAbandonedConnections, recordFailedAttempt } from '../../functions/data/items-repo';
import { keys, TABLE } from '../../functions/data/keys';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';
import { testAuth } from '../support/test-auth';

const auth = testAuth('app_crash');
const caller = { address: '203.0.113.7' };
const credentials = { institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' };

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  deps = await embeddedDeps();
});

class SimulatedCrash extends Error {}

/**
 * Makes the process "die" at the commit that would issue the public token: that write and every
 * DynamoDB call after it fail, as if nothing ran any more, until the returned function revives it.
 */
function crashAtCommit(target: Deps): () => void {
  const send = target.ddb.send.bind(target.ddb);
  let dead = false;
  const crashing = (command: unknown) => {
    const isCommit =
      command instanceof TransactWriteCommand &&
      (command.input.TransactItems ?? []).some((entry) => String(entry.Put?.Item?.pk ?? '').startsWith('PUB#'));
    if (isCommit) dead = true;
    if (dead) return Promise.reject(new SimulatedCrash('the process died'));
    return send(command as Parameters<typeof send>[0]);
  };
  target.ddb.send = crashing as typeof target.ddb.send;
  return () => {
    target.ddb.send = send as typeof target.ddb.send;
  };
}

async function partitionRows(itemId: string): Promise<number> {
  let rows = 0;
  for (const pk of keys.itemPartitions(itemId)) {
    const res = await deps.ddb.send(new QueryCommand({ TableName: deps.config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }));
    rows += res.Items?.length ?? 0;
  }
  return rows;
}

async function itemsListedFor(applicationId: string): Promise<number> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.itemByApplication(applicationId, 'test', '', '').gsi1pk },
    }),
  );
  return res.Items?.length ?? 0;
}

/** What the scheduled refresh sweep selects. */
async function healthyItemRows(): Promise<number> {
  const res = await deps.ddb.send(
    new ScanCommand({
      TableName: deps.config.tableName,
      FilterExpression: 'sk = :item AND #status = :healthy',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':item': 'ITEM', ':healthy': 'healthy' },
    }),
  );
  return res.Items?.length ?? 0;
}

describe('a crash during connect', () => {
  it('leaves an invisible item that the reaper removes with its accounts and feed, and a session that can retry', async () => {
    const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'] });
    const revive = crashAtCommit(deps);
    await expect(submitCredentials(deps, { link_token, ...credentials }, caller)).rejects.toBeInstanceOf(SimulatedCrash);
    revive();

    const [orphan] = await listAbandonedConnections(deps, Number.MAX_SAFE_INTEGER);
    expect(orphan).toBeDefined();
    expect(await partitionRows(orphan)).toBeGreaterThan(1); // the item row and its accounts were written
    expect(await getItem(deps, orphan)).toBeUndefined();
    expect(await itemsListedFor(auth.applicationId)).toBe(0);
    expect(await healthyItemRows()).toBe(0);
    expect((await getLinkSession(deps, link_token))?.status).toBe('open');

    // Before its deadline the connection is not abandoned yet.
    expect(await reapAbandonedConnections(deps)).toBe(0);
    deps.clock.advance(LIMITS.linkConnectDeadlineMinutes * 60_000);
    expect(await reapAbandonedConnections(deps)).toBe(1);
    expect(await partitionRows(orphan)).toBe(0);
    expect(await listAbandonedConnections(deps, Number.MAX_SAFE_INTEGER)).toEqual([]);

    // The user retries with the same link: it connects and only the committed item exists.
    const retried = await submitCredentials(deps, { link_token, ...credentials }, caller);
    expect(retried.status).toBe('connected');
    expect(await itemsListedFor(auth.applicationId)).toBe(1);
    expect(await getItem(deps, retried.status === 'connected' ? retried.metadata.item_id : '')).toMatchObject({ status: 'healthy' });
  });

  it('removes what it wrote at once when the commit fails and the process lives on', async () => {
    const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'] });
    const send = deps.ddb.send.bind(deps.ddb);
    let failedOnce = false;
    deps.ddb.send = ((command: Parameters<typeof send>[0]) => {
      if (!failedOnce && command instanceof TransactWriteCommand && (command.input.TransactItems ?? []).some((e) => String(e.Put?.Item?.pk ?? '').startsWith('PUB#'))) {
        failedOnce = true;
        return Promise.reject(new Error('the commit timed out'));
      }
      return send(command);
    }) as typeof deps.ddb.send;
    await expect(submitCredentials(deps, { link_token, ...credentials }, caller)).rejects.toThrow('the commit timed out');
    deps.ddb.send = send as typeof deps.ddb.send;
    expect(await listAbandonedConnections(deps, Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect((await getLinkSession(deps, link_token))?.status).toBe('open');
  });

  it('never lets the reaper remove a connection that committed', async () => {
    const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'] });
    const step = await submitCredentials(deps, { link_token, ...credentials }, caller);
    deps.clock.advance(2 * LIMITS.linkConnectDeadlineMinutes * 60_000);
    expect(await reapAbandonedConnections(deps)).toBe(0);
    expect(await getItem(deps, step.status === 'connected' ? step.metadata.item_id : '')).toMatchObject({ status: 'healthy' });
  });
});

describe('failed attempts', () => {
  it('never count past the maximum, however many land at once', async () => {
    const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'] });
    // Every caller read the session before anyone counted, as concurrent requests do.
    const session = (await getLinkSession(deps, link_token))!;
    const counts = await Promise.all(Array.from({ length: 20 }, () => recordFailedAttempt(deps, session, LIMITS.linkAttemptsMax)));
    expect(counts.filter((c) => c !== null).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(counts.filter((c) => c === null)).toHaveLength(15);
    expect((await getLinkSession(deps, link_token))?.failedAttempts).toBe(LIMITS.linkAttemptsMax);
  });
});
