// Local adapters of the background ports: the same workers as on AWS, in process. Events are
// dispatched as the SQS consumer would; deliveries run the WebhookDelivery state machine itself
// (aws-local-stepfunctions, waits scaled by FC_LOCAL_WEBHOOK_TIME_SCALE); refreshes of one item
// run one after another (what the FIFO message group does on AWS); the outbox is swept
// periodically, as the scheduled worker does on AWS.
import { deadLetter, deliverAttempt, dispatchEvent, sweepOutbox } from '../../app/webhooks';
import { refreshItem } from '../../app/lifecycle';
import { logger } from '../observability';
import type { BackgroundPorts } from '../ports';
import type { Deps } from '../runtime';
import { createLocalWorkflows } from './workflows';

export interface LocalPorts {
  ports: BackgroundPorts;
  /** Resolves when nothing is in flight (dispatches, refreshes, deliveries). */
  idle(): Promise<void>;
  /** Publishes what the outbox holds now (the sweep, on demand). */
  sweep(): Promise<number>;
  stop(): void;
}

export function createLocalPorts(deps: () => Deps, opts: { timeScale: number; sweepEveryMs?: number }): LocalPorts {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>, what: string): Promise<T> => {
    const guarded = work.catch((err: Error) => {
      logger.error(`${what} failed`, { error: err });
      return undefined as T;
    });
    inFlight.add(guarded);
    void guarded.finally(() => inFlight.delete(guarded));
    return guarded;
  };
  const workflows = createLocalWorkflows(
    {
      delivery: (input) => deliverAttempt(deps(), input),
      deadLetter: (input) => deadLetter(deps(), input),
      refresh: (input) => refreshItem(deps(), input),
    },
    { timeScale: opts.timeScale },
  );
  const refreshChains = new Map<string, Promise<unknown>>();
  let stopped = false;
  const sweeper = setInterval(() => {
    if (!stopped) void track(sweepOutbox(deps()), 'outbox sweep');
  }, opts.sweepEveryMs ?? 10_000);
  sweeper.unref();

  const ports: BackgroundPorts = {
    eventBus: {
      publish: async (eventId) => {
        if (stopped) throw new Error('stopped');
        void track(dispatchEvent(deps(), eventId), 'event dispatch');
      },
    },
    refreshQueue: {
      enqueue: async (input) => {
        if (stopped) throw new Error('stopped');
        const previous = refreshChains.get(input.item_id) ?? Promise.resolve();
        const next = previous.then(() => refreshItem(deps(), input)).catch((err: Error) => logger.error('refresh failed', { error: err, item_id: input.item_id }));
        refreshChains.set(input.item_id, next);
        void track(next, 'refresh').finally(() => {
          if (refreshChains.get(input.item_id) === next) refreshChains.delete(input.item_id);
        });
      },
    },
    deliveries: {
      start: async (input) => {
        const run = workflows.startDelivery(input);
        if (run.accepted) void track(run.done, 'delivery');
        return run.accepted;
      },
    },
  };

  return {
    ports,
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
      workflows.stop();
    },
  };
}
