import { connectItem } from '../../functions/app/link';
import { freshAccounts } from '../../functions/app/balances';
import { cachedAccounts } from '../../functions/app/reads';
import { findInstitution } from '../../functions/core/institutions';
import { getItem, listAccounts } from '../../functions/data/items-repo';
import { embeddedDeps } from '../support/embedded';

describe('balances', () => {
  it('are served from the cache for 15 minutes, then refreshed from the source first', async () => {
    const deps = await embeddedDeps();
    const created = await connectItem(deps, {
      itemId: 'item_bal',
      applicationId: 'app',
      environment: 'test',
      institution: findInstitution('ins_sandbox_first_bank')!,
      username: 'user_good',
      products: ['transactions'],
      clientUserId: 'u',
      webhook: null,
    });
    const item = (await getItem(deps, created.itemId))!;
    const refreshedAt = (await listAccounts(deps, item.itemId)).oldestRefresh;
    expect(refreshedAt).toBe(deps.clock.now());

    deps.clock.advance(15 * 60_000);
    await freshAccounts(deps, item);
    expect((await listAccounts(deps, item.itemId)).oldestRefresh).toBe(refreshedAt);

    deps.clock.advance(1);
    const fresh = await freshAccounts(deps, item);
    expect((await listAccounts(deps, item.itemId)).oldestRefresh).toBe(deps.clock.now());
    expect(fresh.map((a) => a.account_id)).toEqual((await cachedAccounts(deps, item)).map((a) => a.account_id));
  });
});
