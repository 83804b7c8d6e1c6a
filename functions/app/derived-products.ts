// The products derived from the item's stored transactions: recurring streams and income. They are
// stored per item under the version of their inputs (the feed's committed_seq, today, the rules
// version, the shared accounts), and computed at one of two moments:
// - at ingestion, by the refresh worker right after its commit and before its webhook
//   (precomputeServedProducts), when the version before that commit was served to a reader soon
//   after the previous sync: the integrator that reads a product after each sync webhook finds it
//   stored, and its read is one Query;
// - otherwise on the first read after a change (a commit nobody had read the product before, a new
//   day, new rules): that read reads the feed once and stores the result.
// So a product costs one whole-history read per change only where someone reads it, and nothing for
// the items (most) whose products nobody reads. Nothing here reaches the item's connector.
import { createHash } from 'node:crypto';
import { detectIncome } from '../core/income';
import { detectRecurring } from '../core/recurring';
import type { StoredTransaction } from '../data/feed-repo';
import type { ItemRecord } from '../data/items-repo';
import type { RefreshHooks } from './lifecycle';
import { markServed, productVersion, readStoredProduct, servedMarkOf, storeProduct, versionOrder, type ServedMark, type StoredProductName } from '../data/products-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { requireHistory, sharedTransactions } from './reads';
import { todayOf } from './today';

/**
 * Version of the recurring and income detection rules (functions/core/recurring.ts, income.ts):
 * part of a stored product's version, so rows computed by other rules are never served. Bump it
 * whenever the rules' output changes; test/unit/products-version.test.ts fails until it is.
 */
export const DERIVATION_RULES_VERSION = 1;

/**
 * A product derived from the item's transactions as of its committed_seq: the stored computation
 * when its version matches, else computed from the feed at exactly that seq and stored. The store
 * is best effort: a failed write still answers the computed product.
 */
async function feedDerived<T>(deps: Deps, item: ItemRecord, product: StoredProductName, derive: (txns: StoredTransaction[], today: string) => T): Promise<T> {
  const today = todayOf(deps);
  const version = versionOf(item, today);
  const stored = await readStoredProduct<T>(deps, item.itemId, product, version);
  // A reader that loaded the item before a newer version was served (a stale request) marks nothing:
  // the conditional write would be refused, and a refused write is still billed.
  const stale = stored.servedVersion !== null && versionOrder(stored.servedVersion) > versionOrder(version);
  if (stored.value !== undefined) {
    if (stored.servedVersion !== version && !stale) await bestEffort('mark a derived product served', item, product, () => markServed(deps, item.itemId, product, version));
    return stored.value;
  }
  const value = derive(await sharedTransactions(deps, item), today);
  await bestEffort('store a derived product', item, product, async () => {
    const outcome = await storeProduct(deps, item.itemId, product, version, value);
    // Too large to store: computing it at ingestion would be wasted too, so it is not marked served.
    if (outcome === 'too_large') logger.warn('derived product too large to store; computed on every read', { item_id: item.itemId, product });
    else if (outcome !== 'item_gone' && !stale) await markServed(deps, item.itemId, product, version);
  });
  return value;
}

/**
 * How soon after a sync a read marks its reader as one that reads after every sync webhook: the
 * worker computes a product at ingestion only for such a reader. A reader on its own schedule (a
 * daily report, an occasional look) would rarely read the version the worker computed before the
 * next change or midnight, and the computation would be wasted.
 */
export const READ_AFTER_SYNC_MS = 15 * 60_000;

/** The accounts the consent shares are an input too: a new selection is never served an older one's product. */
const versionOf = (item: ItemRecord, today: string) =>
  `${productVersion({ committedSeq: item.committedSeq, today, rules: DERIVATION_RULES_VERSION })}${selectionVersion(item)}`;

/** The store is an optimisation: a failed write is logged, and the answer (or the refresh) stands. */
async function bestEffort(what: string, item: ItemRecord, product: StoredProductName, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    logger.warn(`could not ${what}`, { item_id: item.itemId, product, error: (err as Error).message });
  }
}

const DERIVATIONS: ReadonlyArray<{ product: StoredProductName; derive: (txns: StoredTransaction[], today: string) => unknown }> = [
  { product: 'recurring', derive: detectRecurring },
  { product: 'income', derive: detectIncome },
];

/**
 * After a commit of the refresh worker moved the item from `before.committedSeq` to `committedSeq`
 * (before its sync webhook is published): each product whose version at `before` was served to a
 * reader within READ_AFTER_SYNC_MS of the item's previous sync is computed for the new snapshot
 * (one read of the feed for all of them) and stored, so the read that follows the sync webhook is
 * one Query. A product nobody read since its last computation is left for the next read to compute.
 * Best effort: a failure is logged and leaves the product to that read.
 */
export async function precomputeServedProducts(deps: Deps, before: ItemRecord, committedSeq: number): Promise<StoredProductName[]> {
  if (before.transactionsUpdateStatus !== 'historical_update_complete' || committedSeq === before.committedSeq) return [];
  const today = todayOf(deps);
  const previous = versionOf(before, today);
  try {
    const syncedAt = before.lastSuccessfulSync === null ? null : Date.parse(before.lastSuccessfulSync);
    const readAfterSync = (mark: ServedMark | null) =>
      mark !== null && syncedAt !== null && mark.version === previous && mark.at >= syncedAt && mark.at - syncedAt <= READ_AFTER_SYNC_MS;
    const served = await Promise.all(DERIVATIONS.map(async (d) => (readAfterSync(await servedMarkOf(deps, before.itemId, d.product)) ? d : null)));
    const due = served.filter((d): d is (typeof DERIVATIONS)[number] => d !== null);
    if (due.length === 0) return [];
    const after: ItemRecord = { ...before, committedSeq };
    const transactions = await sharedTransactions(deps, after);
    const version = versionOf(after, today);
    for (const { product, derive } of due) {
      const outcome = await storeProduct(deps, before.itemId, product, version, derive(transactions, today));
      if (outcome === 'too_large') logger.warn('derived product too large to store; computed on every read', { item_id: before.itemId, product });
    }
    return due.map((d) => d.product);
  } catch (err) {
    logger.warn('could not compute derived products at ingestion; the next read computes them', { item_id: before.itemId, error: (err as Error).message });
    return [];
  }
}

/** The part of a stored product's version naming the shared accounts (none for an item sharing all). */
function selectionVersion(item: ItemRecord): string {
  if (item.sharedAccountIds === null) return '';
  return `#a${createHash('sha256').update([...item.sharedAccountIds].sort().join(',')).digest('base64url').slice(0, 16)}`;
}

export async function recurringOf(deps: Deps, item: ItemRecord) {
  requireHistory(item, 'historical_update_complete');
  return { recurring_streams: await feedDerived(deps, item, 'recurring', detectRecurring) };
}

export async function incomeOf(deps: Deps, item: ItemRecord) {
  requireHistory(item, 'historical_update_complete');
  return { income_streams: await feedDerived(deps, item, 'income', detectIncome) };
}

/** The refresh worker's hooks (functions/workers/item-refresh.ts; the local queue runs the same): products computed after a commit. */
export const REFRESH_HOOKS: RefreshHooks = { afterCommit: precomputeServedProducts };
