// Update mode hands the repaired item's sync to the refresh worker (Link answers without a pull), and
// the worker's job for it syncs the source's whole window, as a sync right after the repair reads it:
// not a step of the refresh cycle (for the sandbox, no simulated day's changes), and not the schedule's business.
import { createLinkToken, createSandboxPublicToken, exchangePublicToken, submitCredentials } from '../../functions/app/link';
import { refreshItem, resetLogin } from '../../functions/app/lifecycle';
import type { RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import { getItem, refreshDueOf } from '../../functions/data/items-repo';
import type { Deps } from '../../functions/platform/runtime';
import { embeddedDeps, type ManualClock } from '../support/embedded';
import { runQueuedHistoryLoad } from '../support/readiness';
import { testAuth } from '../support/test-auth';

const auth = testAuth('app_repair');
const caller = { address: '203.0.113.8' };

let deps: Deps & { clock: ManualClock };
beforeEach(async () => {
  deps = await embeddedDeps();
});

it('queues the repaired item\'s sync, which the worker runs as a whole-window sync that leaves the schedule alone', async () => {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const { item_id } = await exchangePublicToken(deps, auth, public_token);
  await runQueuedHistoryLoad(deps, item_id);
  await resetLogin(deps, (await getItem(deps, item_id))!);

  const queued: RefreshExecutionInput[] = [];
  const enqueue = jest.spyOn(deps.ports.refreshQueue, 'enqueue').mockImplementation(async (input) => {
    queued.push(input);
  });
  const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: item_id });
  const step = await submitCredentials(deps, { link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' }, caller);
  enqueue.mockRestore();
  expect(step).toMatchObject({ status: 'connected' });
  expect(queued).toEqual([{ item_id, reason: 'login_repaired' }]);

  const dueBefore = await refreshDueOf(deps, item_id);
  const seqBefore = (await getItem(deps, item_id))!.committedSeq;
  // The same day's window as the history load read: nothing changes, nothing is removed.
  await expect(refreshItem(deps, queued[0])).resolves.toEqual({ refreshed: true, changed: false, added: 0, modified: 0, removed: 0 });
  expect((await getItem(deps, item_id))!.committedSeq).toBe(seqBefore);
  expect(await refreshDueOf(deps, item_id)).toEqual(dueBefore);
  // A step of the refresh cycle, by contrast, moves the item's next refresh on.
  deps.clock.advance(60_000);
  await refreshItem(deps, { item_id, reason: 'on_demand' });
  expect(await refreshDueOf(deps, item_id)).not.toEqual(dueBefore);
});

it('makes a repaired item due at once, so a sync job that could not be queued is made up for by the sweep', async () => {
  const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] });
  const { item_id } = await exchangePublicToken(deps, auth, public_token);
  await runQueuedHistoryLoad(deps, item_id);
  await resetLogin(deps, (await getItem(deps, item_id))!);
  // A broken item is not refreshed: it has no refresh-due row until it is repaired.
  expect(await refreshDueOf(deps, item_id)).toBeUndefined();

  const enqueue = jest.spyOn(deps.ports.refreshQueue, 'enqueue').mockRejectedValue(new Error('SQS is throttling'));
  const { link_token } = await createLinkToken(deps, auth, { user: { client_user_id: 'u' }, products: ['transactions'], update_item_id: item_id });
  const step = await submitCredentials(deps, { link_token, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' }, caller);
  enqueue.mockRestore();
  expect(step).toMatchObject({ status: 'connected' });
  expect((await getItem(deps, item_id))!.status).toBe('healthy');
  const due = await refreshDueOf(deps, item_id);
  expect(due).not.toBeNull();
  expect(due!.dueAt).toBeLessThanOrEqual(deps.clock.now());
});
