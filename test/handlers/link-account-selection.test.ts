// A new item whose user never makes Link's account choice: it stays connecting (invisible to every
// read, off the console's listing and the refresh schedule, announcing nothing) for as long as its
// public token lives, and the reaper then removes it with its accounts; a choice in time makes it a
// healthy, listed, scheduled item. The clock is injected, so the deadlines are crossed exactly.
import { QueryCommand, ScanCommand } from '../../functions/platform/aws/dynamodb';
import { createLinkToken, reapAbandonedConnections, submitAccountSelection, submitCredentials } from '../../functions/app/link';
import { LINK_LIFETIME_MS } from '../../functions/app/link-session';
import { getItem, listAbandonedConnections } from '../../functions/data/items-repo';
import { keys, TABLE } from '../../functions/data/keys';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';
import { testAuth } from '../support/test-auth';

const auth = testAuth('app_choice');
const caller = { address: '203.0.113.9' };
const credentials = { institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good', account_selection: true };

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  deps = await embeddedDeps();
});

async function partitionRows(itemId: string): Promise<number> {
  let rows = 0;
  for (const pk of keys.itemPartitions(itemId)) {
    const res = await deps.ddb.send(new QueryCommand({ TableName: deps.config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }));
    rows += res.Items?.length ?? 0;
  }
  return rows;
}

/** What the console's item listing reads: the application's items index. */
async function itemsListed(): Promise<number> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.itemByApplication(auth.applicationId, 'test', '', '').gsi1pk },
    }),
  );
  return res.Items?.length ?? 0;
}

/** Rows of one kind in the whole table: healthy item rows (what the refresh sweep selects), refresh-due rows, events. */
async function rowsWhere(filter: string, values: Record<string, unknown>, names?: Record<string, string>): Promise<number> {
  const res = await deps.ddb.send(new ScanCommand({ TableName: deps.config.tableName, FilterExpression: filter, ExpressionAttributeValues: values, ...(names ? { ExpressionAttributeNames: names } : {}) }));
  return res.Items?.length ?? 0;
}
const healthyItems = () => rowsWhere('sk = :item AND #status = :healthy', { ':item': 'ITEM', ':healthy': 'healthy' }, { '#status': 'status' });
const refreshDueRows = (itemId: string) => rowsWhere('pk = :pk AND sk = :sk', { ':pk': keys.refreshDue(itemId).pk, ':sk': keys.refreshDue(itemId).sk });
const eventRows = () => rowsWhere('begins_with(pk, :evt)', { ':evt': 'EVT#' });

async function stepAwaitingChoice() {
  const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'] });
  const step = await submitCredentials(deps, { link_token, ...credentials }, caller);
  if (step.status !== 'select_accounts') throw new Error(`expected the select_accounts step, got ${step.status}`);
  return { link_token, step };
}

describe('a new item awaiting its account choice', () => {
  it('is invisible, unlisted, unscheduled and silent until the choice, and reaped once its public token expired', async () => {
    const eventsBefore = await eventRows();
    const { step } = await stepAwaitingChoice();
    expect(await getItem(deps, step.item_id)).toBeUndefined();
    expect(await itemsListed()).toBe(0);
    expect(await healthyItems()).toBe(0);
    expect(await refreshDueRows(step.item_id)).toBe(0);
    expect(await eventRows()).toBe(eventsBefore);
    expect(await partitionRows(step.item_id)).toBeGreaterThan(1); // the item row and its accounts

    // Not abandoned while the user may still choose...
    deps.clock.advance(LINK_LIFETIME_MS - 1000);
    expect(await reapAbandonedConnections(deps)).toBe(0);
    // ...and removed, accounts included, once the public token it waited with has expired.
    deps.clock.advance(1000);
    expect(await reapAbandonedConnections(deps)).toBe(1);
    expect(await partitionRows(step.item_id)).toBe(0);
    expect(await listAbandonedConnections(deps, Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('becomes healthy, listed and scheduled when the choice comes in time, and the reaper leaves it alone', async () => {
    const { link_token, step } = await stepAwaitingChoice();
    deps.clock.advance(LINK_LIFETIME_MS / 2);
    const done = await submitAccountSelection(deps, { link_token, public_token: step.public_token, account_ids: [step.accounts[0].account_id] }, caller);
    expect(done.status).toBe('connected');
    expect(await getItem(deps, step.item_id)).toMatchObject({ status: 'healthy', sharedAccountIds: [step.accounts[0].account_id], awaitingSelection: false });
    expect(await itemsListed()).toBe(1);
    expect(await refreshDueRows(step.item_id)).toBe(1);
    deps.clock.advance(2 * LINK_LIFETIME_MS);
    expect(await reapAbandonedConnections(deps)).toBe(0);
    expect(await getItem(deps, step.item_id)).toMatchObject({ status: 'healthy' });
  });

  it('cannot be chosen for once the reaper took it', async () => {
    const { link_token, step } = await stepAwaitingChoice();
    deps.clock.advance(LINK_LIFETIME_MS);
    expect(await reapAbandonedConnections(deps)).toBe(1);
    await expect(submitAccountSelection(deps, { link_token, public_token: step.public_token, account_ids: [step.accounts[0].account_id] }, caller)).rejects.toMatchObject({ code: expect.stringMatching(/link_token_expired|invalid_item_id|link_token_used/) });
  });
});
