// Balances refreshed from the item's connector when the cached ones are too old
// (/v1/accounts/balance/get): the one account read that reaches the institution.
import { READER_ADAPTERS } from '../connectors/readers';
import { LIMITS } from '../contracts/limits';
import { FILE_IMPORT_CONNECTOR_ID } from '../core/connectors';
import { listAccounts, putAccounts, type ItemRecord, type StoredAccount } from '../data/items-repo';
import type { Deps } from '../platform/runtime';
import { accountsIn } from './item-connector';
import { requireHealthy } from './item-state';
import { selectAccounts, sharedAccounts } from './reads';

const BALANCE_MAX_AGE_MS = LIMITS.balanceCacheMinutes * 60_000;

/** Balances refreshed from the source first when the cached ones are older than 15 minutes. */
export async function freshAccounts(deps: Deps, item: ItemRecord, accountIds?: string[]): Promise<StoredAccount[]> {
  requireHealthy(item);
  const cached = await listAccounts(deps, item.itemId);
  // An import item's balances are the latest statement's: there is no source to ask again.
  if (deps.clock.now() - cached.oldestRefresh <= BALANCE_MAX_AGE_MS || item.connector === FILE_IMPORT_CONNECTOR_ID) return selectAccounts(sharedAccounts(item, cached.accounts), accountIds);
  // The connectors' reads: this route bundles no refresh simulator, statement parser or enrichment.
  const fresh = await accountsIn(READER_ADAPTERS, deps, item);
  await putAccounts(deps, item.itemId, fresh, deps.clock.now());
  return selectAccounts(sharedAccounts(item, fresh), accountIds);
}
