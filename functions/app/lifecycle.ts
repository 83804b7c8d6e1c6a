// Refreshes from the item's connector (the worker, the scheduled sweep) and removal with the
// consent revoked at the provider. The item-state changes that need no connector (an on-demand
// refresh request, the sandbox helpers, errors) are in ./item-state, re-exported here.
import type { RefreshExecutionInput } from '../contracts/worker-messages';
import { connectorOfItem } from '../connectors';
import { FILE_IMPORT_CONNECTOR_ID, SANDBOX_CONNECTOR_ID } from '../core/connectors';
import { refreshDueShards } from '../core/refresh-schedule';
import { bumpRefreshCount, claimDueRefresh, dueRefreshes, getItem, listDueRemovals, purgeRemovedItem, PURGE_DEADLINE_MS, relistRemoval, removeItem, scheduleNextRefresh, type ItemRecord } from '../data/items-repo';
import { logger } from '../platform/observability';
import type { Deps } from '../platform/runtime';
import { ConnectorCallError, connectorEnvFor, loadHistory, pullBatch, syncFromSource, todayOf } from './item-source';
import { openProviderSecrets } from './provider-secrets';

export { fireWebhook, markItemError, requestRefresh, requireHealthy, resetLogin } from './item-state';

/**
 * POST /v1/items/remove: the item is gone for every reader at once (its access token, schedule and
 * row, its provider secrets with it), and everything else it owns is deleted by the refresh worker
 * (a queued purge; the schedule's reaper if that is lost): a long history is tens of thousands of
 * rows, too many for the request. First, best effort, the consent is revoked at the provider where
 * the connector can (ConnectorPort.disconnect): a provider that fails or is slow never keeps the
 * item from going.
 */
export async function removeItemEverywhere(deps: Deps, item: ItemRecord): Promise<void> {
  if (item.connector !== SANDBOX_CONNECTOR_ID && item.connector !== FILE_IMPORT_CONNECTOR_ID) {
    try {
      const { connector, connection } = connectorOfItem(item, await connectorEnvFor(deps, item.environment), await openProviderSecrets(deps, item));
      await connector.disconnect?.(connection);
    } catch (err) {
      logger.warn('could not revoke the consent at the provider; the item is removed anyway', { item_id: item.itemId, connector: item.connector, error: (err as Error).message });
    }
  }
  await removeItem(deps, item);
  try {
    await deps.ports.refreshQueue.enqueue({ item_id: item.itemId, reason: 'item_removed' });
  } catch (err) {
    // The purge row lists the item: the scheduled sweep queues its purge again after PURGE_DEADLINE_MS.
    logger.warn('could not queue the purge of a removed item; the scheduled reaper will do it', { item_id: item.itemId, error: (err as Error).message });
  }
}

/**
 * Queues again the purge of removed items whose purge row is due (run on the refresh schedule): the
 * second purge after a first one's grace, or the first when its queued job was lost. The purging
 * itself stays in the refresh worker; each row is moved PURGE_DEADLINE_MS on as it is queued, so the
 * next sweeps do not queue it again meanwhile.
 */
export async function requeueDueRemovals(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await listDueRemovals(deps, now);
  if (due.length === 0) return 0;
  const refused = new Set((await deps.ports.refreshQueue.enqueueMany(due.map((d) => ({ item_id: d.itemId, reason: 'item_removed' as const })))).map((r) => r.item_id));
  let queued = 0;
  for (const d of due) {
    if (refused.has(d.itemId)) continue;
    await relistRemoval(deps, d.itemId, d.listed, now + PURGE_DEADLINE_MS);
    queued += 1;
  }
  return queued;
}

/**
 * The refresh worker: pulls what is new from the item's connector and commits it; the sync webhook
 * fires only if something changed. The sandbox simulator advances one step per refresh of the day:
 * new transactions, pendings that post, and (every other refresh) a pending that is dropped. A refresh,
 * scheduled or on demand, puts the item's next scheduled one a full interval of its plan away.
 *
 * An item whose history is not loaded yet (Link connected it a moment ago) gets its history instead,
 * in two announced stages (loadHistory), whatever the job's reason: the first job to run loads it,
 * be it the one Link queued or the scheduled sweep's when that one was lost. A history job that finds
 * the history loaded does nothing.
 */
export async function refreshItem(deps: Deps, input: RefreshExecutionInput, hooks: RefreshHooks = {}) {
  const item = await getItem(deps, input.item_id);
  if (!item) {
    // A retry of a job whose item was removed while it wrote: what it wrote is swept (see below).
    await purgeRemovedItem(deps, input.item_id);
    return { refreshed: false, reason: 'removed' };
  }
  // A purge queued by a removal finds the item row gone (above); never anything else.
  if (input.reason === 'item_removed') return { refreshed: false, reason: 'not_removed' };
  if (item.status !== 'healthy') return { refreshed: false, reason: item.status };
  // An import item's data arrives with each uploaded file: there is nothing to pull.
  if (item.connector === FILE_IMPORT_CONNECTOR_ID) return { refreshed: false, reason: 'statement_import' };
  try {
    return await refreshHealthyItem(deps, item, input, hooks);
  } catch (err) {
    // The connector failed and the item records it (last_sync_error, or login_required with its
    // event): retrying the job now would only hit the provider again. A healthy item's next
    // scheduled refresh tries again one interval on.
    if (err instanceof ConnectorCallError) {
      if (err.code !== 'item_login_required') await scheduleNextRefresh(deps, item, { retryInMs: retryDelayMs(item, err) });
      return { refreshed: false, reason: err.code };
    }
    if (await getItem(deps, item.itemId)) throw err;
    // The item was removed while this refresh wrote (a history load takes seconds): its rows written
    // after the removal swept the item's partitions belong to nothing, and the commit that would have
    // published them failed. Sweep them again; a retry of this job finds the item gone and stops.
    await purgeRemovedItem(deps, item.itemId);
    return { refreshed: false, reason: 'removed' };
  }
}

/** A history not loaded yet is tried again within minutes, not a plan interval later. */
const HISTORY_RETRY_MS = 5 * 60_000;
/** The shortest wait before a retry, whatever the provider's hint (the sweep runs every 5 minutes on AWS). */
const MIN_RETRY_MS = 60_000;

/**
 * When a refresh that failed at the connector is tried again: after the provider's Retry-After hint
 * when it gave one, soon when the item's history is still to load (the user is waiting for it),
 * else at the plan's next interval (undefined).
 */
function retryDelayMs(item: ItemRecord, err: ConnectorCallError): number | undefined {
  const hinted = err.retryAfterSeconds !== undefined ? Math.max(MIN_RETRY_MS, err.retryAfterSeconds * 1000) : undefined;
  if (item.transactionsUpdateStatus !== 'historical_update_complete') return hinted ?? HISTORY_RETRY_MS;
  return err.connectorKind === 'rate_limited' ? (hinted ?? HISTORY_RETRY_MS) : undefined;
}

/** What the refresh worker runs around a refresh, given by the worker so that only it carries the code. */
export interface RefreshHooks {
  /**
   * After a refresh committed a change, moving the item from `before.committedSeq` to `committedSeq`,
   * before the sync webhook is published (the worker passes precomputeServedProducts, ./derived-products.ts).
   */
  afterCommit?: (deps: Deps, before: ItemRecord, committedSeq: number) => Promise<unknown>;
}

/** The hook as syncFromSource runs it: after the commit, before the event is published. */
function afterCommitOf(deps: Deps, before: ItemRecord, hooks: RefreshHooks) {
  const { afterCommit } = hooks;
  return afterCommit ? (committedSeq: number) => afterCommit(deps, before, committedSeq) : undefined;
}

async function refreshHealthyItem(deps: Deps, item: ItemRecord, input: RefreshExecutionInput, hooks: RefreshHooks) {
  if (item.transactionsUpdateStatus !== 'historical_update_complete' && item.consentedProducts.includes('transactions')) {
    const stages = await loadHistory(deps, item);
    await scheduleNextRefresh(deps, item);
    const sum = (field: 'added' | 'modified' | 'removed') => stages.reduce((n, s) => n + s[field], 0);
    return { refreshed: true, history: true, changed: stages.some((s) => s.committedSeq !== null), added: sum('added'), modified: sum('modified'), removed: sum('removed') };
  }
  if (input.reason === 'initial_history') return { refreshed: false, reason: 'history_loaded' };
  if (input.reason === 'login_repaired') {
    // Link's update mode repaired the login (and scheduled the next refresh): the item is brought in
    // line with what its source reports now, its whole window, not a step of the refresh cycle.
    const result = await syncFromSource(deps, item, undefined, true, afterCommitOf(deps, item, hooks));
    return { refreshed: true, changed: result?.committedSeq != null, added: result?.added ?? 0, modified: result?.modified ?? 0, removed: result?.removed ?? 0 };
  }
  const today = todayOf(deps);
  const refreshCount = await bumpRefreshCount(deps, item.itemId, today);
  const data = await pullBatch(deps, item, ({ connector, connection }) => connector.refresh(connection, today, refreshCount));
  const result = await syncFromSource(deps, item, data, false, afterCommitOf(deps, item, hooks));
  // A commit wrote the item's freshness and cleared any sync error already (feed-repo's publishing
  // write); a pull that changed nothing has them written with the next refresh's schedule.
  const committed = result?.committedSeq != null;
  await scheduleNextRefresh(deps, item, committed ? {} : { syncedAt: new Date(deps.clock.now()).toISOString() });
  return { refreshed: true, changed: result?.committedSeq != null, added: result?.added ?? 0, modified: result?.modified ?? 0, removed: result?.removed ?? 0 };
}

/** Due entries read per Query of one shard. */
const SWEEP_PAGE_SIZE = 50;
/** Claims (conditional UpdateItems) in flight at once. */
const CLAIM_CONCURRENCY = 25;
/**
 * How long one sweep keeps reading pages (service clock). The scheduled worker's timeout is 1 min;
 * what a sweep leaves is still due and the next one, 5 minutes later, takes it.
 */
const SWEEP_BUDGET_MS = 40_000;

export interface RefreshSweepResult {
  /** Due entries read. */
  due: number;
  /** Refreshes queued (and their entries moved to their next due time). */
  enqueued: number;
  /** Refreshes the queue refused: still due, so the next sweep queues them. */
  refused: number;
}

/**
 * The scheduled refresh: queues a refresh of every item whose time has come. Each round reads one
 * page of every shard of the refresh-due index that still has some (Queries for entries due by now,
 * never the table), queues them together in batches (RefreshQueue.enqueueMany), then moves each queued
 * entry one interval on, so a refresh waiting in the queue is not queued again. A crash between
 * queueing and moving queues the item again at the next sweep: harmless, a refresh is repeatable and
 * the FIFO queue runs one per item at a time. Refused entries are not moved: the next sweep takes them.
 */
export async function sweepDueRefreshes(deps: Deps, options: { pageSize?: number; budgetMs?: number } = {}): Promise<RefreshSweepResult> {
  const now = deps.clock.now();
  const deadline = now + (options.budgetMs ?? SWEEP_BUDGET_MS);
  const total: RefreshSweepResult = { due: 0, enqueued: 0, refused: 0 };
  let shards: { shard: number; start?: Record<string, unknown> }[] = refreshDueShards().map((shard) => ({ shard }));
  do {
    const pages = await Promise.all(shards.map((s) => dueRefreshes(deps, s.shard, now, { limit: options.pageSize ?? SWEEP_PAGE_SIZE, start: s.start })));
    shards = shards.flatMap((s, i) => (pages[i].next ? [{ shard: s.shard, start: pages[i].next }] : []));
    const due = pages.flatMap((page) => page.due);
    if (due.length === 0) continue;
    const refused = new Set((await deps.ports.refreshQueue.enqueueMany(due.map((d) => ({ item_id: d.itemId, reason: 'scheduled' as const })))).map((r) => r.item_id));
    const queued = due.filter((d) => !refused.has(d.itemId));
    for (let i = 0; i < queued.length; i += CLAIM_CONCURRENCY) {
      await Promise.all(queued.slice(i, i + CLAIM_CONCURRENCY).map((d) => claimDueRefresh(deps, d, now + d.intervalMs)));
    }
    total.due += due.length;
    total.enqueued += queued.length;
    total.refused += refused.size;
  } while (shards.length > 0 && deps.clock.now() < deadline);
  if (total.refused > 0) logger.warn('the refresh queue refused scheduled refreshes; they stay due for the next sweep', { refused: total.refused });
  return total;
}
