// Local adapters of the background ports: the same workers as on AWS, in process. Events are
// dispatched as the SQS consumer would; deliveries run the WebhookDelivery state machine itself
// (aws-local-stepfunctions, waits scaled by FC_LOCAL_WEBHOOK_TIME_SCALE); refreshes of one item
// run one after another (what the FIFO message group does on AWS); the outbox is swept
// periodically, as the scheduled worker does on AWS.
//
// Durability, which SQS and Step Functions give on AWS, comes from the table
// (./durable-store.ts), so that no accepted work is lost when the process dies or stops:
// - publishing an event dispatches it before answering, so the outbox lets go of the event only
//   once its delivery rows and their executions' rows exist (a crash before that leaves it in the
//   outbox for the sweep, and dispatch is idempotent);
// - every delivery execution keeps a row until it ends (./workflows.ts);
// - every accepted refresh keeps a row until it has run;
// - resume() (on start) continues the executions and refreshes an earlier process left.
import { randomUUID } from 'node:crypto';
import { reapAbandonedConnections } from '../../app/link';
import { deadLetter, deliverAttempt, dispatchEvent, sweepOutbox } from '../../app/webhooks';
import { REFRESH_HOOKS } from '../../app/derived-products';
import { requeueDueRemovals, refreshItem } from '../../app/lifecycle';
import type { RefreshExecutionInput } from '../../contracts/worker-messages';
import { IngestionBusyError, INGESTION_LEASE_MS } from '../../data/feed-repo';
import { logger } from '../observability';
import type { BackgroundPorts } from '../ports';
import type { Deps } from '../runtime';
import { dynamoExecutionStore, dynamoRefreshJobStore, type RefreshJob, type RefreshJobStore } from './durable-store';
import { createLocalWorkflows, type ExecutionStore } from './workflows';

/**
 * Waits (ms, real time) before each retry of a refresh that met another ingestion's lease. A lease
 * left by a crashed writer expires after INGESTION_LEASE_MS (on the service clock, which is real
 * time locally), so together they outlast it twice over; they are not scaled by the webhook time
 * scale, since the lease is not. On AWS the worker throws instead, and SQS delivers the message
 * again after the queue's visibility timeout (12 min, see lib/async-jobs-construct.ts).
 */
export const REFRESH_BUSY_RETRY_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 16_000, 32_000, 64_000];
if (REFRESH_BUSY_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) < 2 * INGESTION_LEASE_MS) {
  throw new Error('the refresh retries must outlast an abandoned ingestion lease');
}

export interface LocalPortsOptions {
  timeScale: number;
  sweepEveryMs?: number;
  /** Overrides REFRESH_BUSY_RETRY_DELAYS_MS (tests that move the clock past a lease themselves). */
  refreshBusyRetryDelaysMs?: readonly number[];
  /** Overrides the table-backed stores (tests). */
  executionStore?: ExecutionStore;
  refreshJobStore?: RefreshJobStore;
}

export interface LocalPorts {
  ports: BackgroundPorts;
  /**
   * Continues what an earlier process on the same table left unfinished: delivery executions
   * (from where they were) and accepted refreshes; then sweeps the outbox.
   */
  resume(): Promise<{ deliveries: number; refreshes: number; republished: number }>;
  /** Resolves when nothing is in flight (dispatches, refreshes, deliveries). */
  idle(): Promise<void>;
  /** Publishes what the outbox holds now (the sweep, on demand). */
  sweep(): Promise<number>;
  /** Abandons the work in flight (its rows stay for the next start) and leaves no timers. */
  stop(): void;
}

export function createLocalPorts(deps: () => Deps, opts: LocalPortsOptions): LocalPorts {
  const inFlight = new Set<Promise<unknown>>();
  /** Counts `work` as in flight; the returned promise still rejects when the work fails. */
  const inflight = <T>(work: Promise<T>): Promise<T> => {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return work;
  };
  const track = <T>(work: Promise<T>, what: string): Promise<T | undefined> =>
    inflight(work).catch((err: Error) => {
      logger.error(`${what} failed`, { error: err });
      return undefined;
    });

  const workflows = createLocalWorkflows(
    {
      delivery: (input) => deliverAttempt(deps(), input),
      deadLetter: (input) => deadLetter(deps(), input),
      refresh: (input) => refreshItem(deps(), input, REFRESH_HOOKS),
    },
    { timeScale: opts.timeScale, store: opts.executionStore ?? dynamoExecutionStore(deps) },
  );
  const jobs = opts.refreshJobStore ?? dynamoRefreshJobStore(deps);
  const busyRetryDelays = opts.refreshBusyRetryDelaysMs ?? REFRESH_BUSY_RETRY_DELAYS_MS;
  const refreshChains = new Map<string, Promise<unknown>>();
  const scheduledJobs = new Set<string>();
  /** Pending retry waits, ended by stop() so that no timer outlives it. */
  const retryWaits = new Map<NodeJS.Timeout, () => void>();
  let lastQueuedAt = 0;
  let stopped = false;
  // The periodic work the scheduled worker does on AWS: publish what the outbox still holds, remove
  // Link connections that a crash left uncommitted past their deadline, and queue the purges of
  // removed items that are due again.
  const sweeper = setInterval(() => {
    if (stopped) return;
    void track(sweepOutbox(deps()), 'outbox sweep');
    void track(reapAbandonedConnections(deps()), 'abandoned connection reaper');
    void track(requeueDueRemovals(deps()), 'removed item purge requeue');
  }, opts.sweepEveryMs ?? 10_000);
  sweeper.unref();

  const waitBeforeRetry = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        retryWaits.delete(timer);
        resolve();
      }, ms);
      retryWaits.set(timer, resolve);
    });

  /** Runs one refresh, retrying while another ingestion holds the item's lease; the row goes once it is done. */
  async function runRefresh(job: RefreshJob): Promise<void> {
    for (let retry = 0; !stopped; retry += 1) {
      try {
        await refreshItem(deps(), job.input, REFRESH_HOOKS);
      } catch (err) {
        if (err instanceof IngestionBusyError && retry < busyRetryDelays.length) {
          logger.warn('refresh met an ingestion lease; retrying', { item_id: job.input.item_id, retry: retry + 1 });
          await waitBeforeRetry(busyRetryDelays[retry]);
          continue;
        }
        // As an ItemRefresh execution fails on AWS: the next scheduled or on-demand refresh tries again.
        logger.error('refresh failed', { error: err as Error, item_id: job.input.item_id });
      }
      // Stopped mid-run: the row stays and the next start runs the refresh again.
      if (!stopped) await jobs.remove(job);
      return;
    }
  }

  function schedule(job: RefreshJob): void {
    scheduledJobs.add(job.jobId);
    const itemId = job.input.item_id;
    const previous = refreshChains.get(itemId) ?? Promise.resolve();
    const next = previous.then(() => (stopped ? undefined : runRefresh(job)));
    refreshChains.set(itemId, next);
    void track(next, 'refresh').finally(() => {
      if (refreshChains.get(itemId) === next) refreshChains.delete(itemId);
    });
  }

  async function acceptRefresh(input: RefreshExecutionInput): Promise<void> {
    if (stopped) throw new Error('stopped');
    // Strictly increasing, so that an item's refreshes resume in the order they were accepted.
    lastQueuedAt = Math.max(lastQueuedAt + 1, Date.now());
    const job: RefreshJob = { jobId: randomUUID(), input, queuedAt: lastQueuedAt };
    await jobs.add(job);
    schedule(job);
  }

  const ports: BackgroundPorts = {
    eventBus: {
      // Resolves once dispatch has made the delivery work durable (each endpoint's first attempt
      // made and its row written: delivered, or pending with its execution's row); the outbox keeps
      // the event until then. So locally an emitter waits for the first POSTs, where on AWS it
      // waits only for SQS to accept the message.
      publish: async (eventId) => {
        if (stopped) throw new Error('stopped');
        await inflight(dispatchEvent(deps(), eventId));
      },
    },
    refreshQueue: {
      enqueue: acceptRefresh,
      // One durable job row each, as SQS holds each message of a batch; a refused one is handed back.
      enqueueMany: async (inputs) => {
        const refused: RefreshExecutionInput[] = [];
        for (const input of inputs) {
          try {
            await acceptRefresh(input);
          } catch (err) {
            logger.warn('refresh not accepted', { item_id: input.item_id, error: err as Error });
            refused.push(input);
          }
        }
        return refused;
      },
    },
    deliveries: {
      start: async (input) => {
        const run = workflows.startDelivery(input);
        if (!run.accepted) return false;
        void track(run.done, 'delivery');
        await run.recorded;
        return true;
      },
    },
  };

  return {
    ports,
    resume: async () => {
      const [executions, pending] = await Promise.all([workflows.resume(), jobs.pending()]);
      for (const execution of executions) void track(execution.done, 'delivery');
      let refreshes = 0;
      for (const job of pending) {
        if (stopped || scheduledJobs.has(job.jobId)) continue;
        schedule(job);
        refreshes += 1;
      }
      const republished = stopped ? 0 : await sweepOutbox(deps());
      if (!stopped) void track(reapAbandonedConnections(deps()), 'abandoned connection reaper');
      if (!stopped) void track(requeueDueRemovals(deps()), 'removed item purge requeue');
      return { deliveries: executions.length, refreshes, republished };
    },
    idle: async () => {
      while (inFlight.size > 0) {
        await Promise.all([...inFlight]);
        await workflows.idle();
      }
      await workflows.idle();
    },
    sweep: () => sweepOutbox(deps()),
    stop: () => {
      stopped = true;
      clearInterval(sweeper);
      for (const [timer, resolve] of retryWaits) {
        clearTimeout(timer);
        resolve();
      }
      retryWaits.clear();
      workflows.stop();
    },
  };
}
