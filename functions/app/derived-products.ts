// The products derived from the item's stored transactions: recurring streams and income. They are
// stored per item under the version of their inputs (the feed's committed_seq, today, the rules
// version) and recomputed lazily: the first read after a change (a committed ingestion, a new day,
// new rules) reads the feed once and stores the result; every other read is one Query of the stored
// rows. Nothing here reaches the item's connector.
import { createHash } from 'node:crypto';
import { detectIncome } from '../core/income';
import { detectRecurring } from '../core/recurring';
import type { StoredTransaction } from '../data/feed-repo';
import type { ItemRecord } from '../data/items-repo';
import { productVersion, readStoredProduct, storeProduct, type StoredProductName } from '../data/products-repo';
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
  // The accounts the consent shares are an input too: a new selection is never served an older one's product.
  const version = `${productVersion({ committedSeq: item.committedSeq, today, rules: DERIVATION_RULES_VERSION })}${selectionVersion(item)}`;
  const stored = await readStoredProduct<T>(deps, item.itemId, product, version);
  if (stored !== undefined) return stored;
  const value = derive(await sharedTransactions(deps, item), today);
  try {
    const outcome = await storeProduct(deps, item.itemId, product, version, value);
    if (outcome === 'too_large') logger.warn('derived product too large to store; computed on every read', { item_id: item.itemId, product });
  } catch (err) {
    logger.warn('could not store a derived product', { item_id: item.itemId, product, error: (err as Error).message });
  }
  return value;
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
