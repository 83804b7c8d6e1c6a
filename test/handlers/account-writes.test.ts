// A refresh writes an item's accounts only where they changed: the same source twice writes them
// once, and a changed balance writes that account (and only it) with a fresh refresh time.
import { createSandboxPublicToken, exchangePublicToken } from '../../functions/app/link';
import { syncFromSource } from '../../functions/app/item-source';
import { getItem, listAccounts, putChangedAccounts } from '../../functions/data/items-repo';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';
import { runQueuedHistoryLoad } from '../support/readiness';
import { testAuth } from '../support/test-auth';

const auth = testAuth('app_accounts', 'growth');

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  deps = await embeddedDeps();
});

/** The account rows each BatchWriteItem of the run put. */
function recordAccountWrites(): string[][] {
  const writes: string[][] = [];
  deps.ddb.use(async (call, next) => {
    if (call.operation === 'BatchWriteItem') {
      const requests = Object.values((call.input as { RequestItems: Record<string, Array<{ PutRequest?: { Item: { sk: string; account?: { account_id: string } } } }>> }).RequestItems).flat();
      const accounts = requests.flatMap((r) => (r.PutRequest?.Item.account ? [r.PutRequest.Item.account.account_id] : []));
      if (accounts.length > 0) writes.push(accounts);
    }
    return next();
  });
  return writes;
}

it('writes no account when a sync brings the same accounts again', async () => {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const { item_id } = await exchangePublicToken(deps, auth, public_token);
  await runQueuedHistoryLoad(deps, item_id);
  const before = await listAccounts(deps, item_id);
  expect(before.accounts.length).toBeGreaterThan(0);

  const writes = recordAccountWrites();
  deps.clock.advance(60_000);
  // The sandbox's window for the same day: the same accounts and balances.
  await syncFromSource(deps, (await getItem(deps, item_id))!);
  expect(writes).toEqual([]);
  expect(await listAccounts(deps, item_id)).toEqual(before);
});

it('writes only the account whose balance moved, with a fresh refresh time', async () => {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const { item_id } = await exchangePublicToken(deps, auth, public_token);
  await runQueuedHistoryLoad(deps, item_id);
  const { accounts } = await listAccounts(deps, item_id);
  const [moved, ...same] = accounts;
  const changed = { ...moved, balances: { ...moved.balances, current: (moved.balances.current ?? 0) + 12.34 } };

  const writes = recordAccountWrites();
  deps.clock.advance(60_000);
  // Key order and absent optional fields do not count as a change.
  const reordered = same.map((a) => Object.fromEntries(Object.entries(a).reverse()) as typeof a);
  await expect(putChangedAccounts(deps, item_id, [changed, ...reordered], deps.clock.now())).resolves.toBe(1);
  expect(writes).toEqual([[moved.account_id]]);
  const after = await listAccounts(deps, item_id);
  expect(after.accounts.find((a) => a.account_id === moved.account_id)!.balances.current).toBe(changed.balances.current);
});
