// The local workflow runner executes the deployed state machine definitions
// (functions/workers/state-machines.ts) with the real aws-local-stepfunctions, at a tiny time scale.
// No wall-clock assertions: the waits are checked as the overrides the runner computes.
import { StateMachine } from 'aws-local-stepfunctions';
import type { DeadLetterInput, DeliveryAttemptInput, DeliveryExecutionInput, DeliveryOutcome, RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import {
  LOCAL_WORKER_ARNS,
  NEXT_ATTEMPT_STATE,
  RECORD_DEAD_LETTER_STATE,
  attemptCheckState,
  attemptState,
  itemRefreshAsl,
  waitState,
  webhookDeliveryAsl,
} from '../../functions/workers/state-machines';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../functions/workers/webhook-schedule';
import {
  LOCAL_DEFINITIONS,
  type ExecutionRecord,
  type ExecutionStore,
  type LocalWorkflowHandlers,
  createLocalWorkflows,
  resumePoint,
  scaledWaits,
  webhookTimeScaleFromEnv,
} from '../../functions/platform/local/workflows';
import { timerArmed } from '../support/timers';

// asl-validator ships no type declarations.
const aslValidator: (definition: unknown, options?: object) => { isValid: boolean; errorsText: (separator?: string) => string } =
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('asl-validator');

/** The whole five-attempt schedule (9,360 s) in under 0.1 s. */
const TIME_SCALE = 0.00001;
const MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length;

let counter = 0;
/** A replay's execution (attempts_made 0) unless told otherwise. */
function deliveryInput(attemptsMade = 0): DeliveryExecutionInput {
  counter += 1;
  return {
    delivery_id: `evt_${counter}:ep_1`,
    event_id: `evt_${counter}`,
    endpoint_id: 'ep_1',
    application_id: 'app_1',
    environment: 'test',
    body: `{"id":"evt_${counter}"}`,
    attempts_made: attemptsMade,
  };
}

/** What the execution hands each attempt and the dead letter: the delivery (and the body). */
const { attempts_made: _unused, ...attemptFields } = deliveryInput();
const { body: _noBody, ...refFields } = attemptFields;
const refOf = (input: DeliveryExecutionInput) => ({ delivery_id: input.delivery_id, event_id: input.event_id, endpoint_id: input.endpoint_id, application_id: input.application_id, environment: input.environment });

interface Recorder {
  handlers: LocalWorkflowHandlers;
  attempts: DeliveryAttemptInput[];
  deadLetters: DeadLetterInput[];
  refreshes: RefreshExecutionInput[];
}

/** Handlers that record their calls; `outcome(attempt)` decides each delivery attempt. */
function recorder(outcome: (attempt: number) => Promise<DeliveryOutcome>): Recorder {
  const rec: Recorder = {
    attempts: [],
    deadLetters: [],
    refreshes: [],
    handlers: {
      delivery: async (input) => {
        rec.attempts.push(input);
        return outcome(input.attempt);
      },
      deadLetter: async (input) => {
        rec.deadLetters.push(input);
      },
      refresh: async (input) => {
        rec.refreshes.push(input);
        return { refreshed: true };
      },
    },
  };
  return rec;
}

const ok: DeliveryOutcome = { delivered: true, status: 200 };
const refused: DeliveryOutcome = { delivered: false, status: 500 };
const timerCount = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('shared state machine definitions', () => {
  it('are valid ASL (with placeholder ARNs, as run locally)', () => {
    for (const definition of Object.values(LOCAL_DEFINITIONS)) {
      // A copy: asl-validator annotates what it validates (QueryLanguage).
      const validation = aslValidator(structuredClone(definition), { checkArn: true, checkPaths: true });
      expect(validation.errorsText('\n')).toBe('');
      expect(validation.isValid).toBe(true);
    }
    expect(LOCAL_DEFINITIONS.webhookDelivery).toEqual(
      webhookDeliveryAsl({ deliveryWorkerArn: LOCAL_WORKER_ARNS.delivery, deadLetterWorkerArn: LOCAL_WORKER_ARNS.deadLetter }),
    );
    expect(LOCAL_DEFINITIONS.itemRefresh).toEqual(itemRefreshAsl({ refreshWorkerArn: LOCAL_WORKER_ARNS.refresh }));
  });
});

describe('scaledWaits', () => {
  it('waits before attempt n for the schedule delay of n, scaled (no wait before the first attempt)', () => {
    const expected = (scale: number) =>
      Object.fromEntries(
        WEBHOOK_RETRY_DELAYS_SECONDS.flatMap((seconds, i) => (seconds > 0 ? [[waitState(i + 1), seconds * 1000 * scale]] : [])),
      );
    expect(scaledWaits(1)).toEqual({
      WaitBeforeAttempt2: 60_000,
      WaitBeforeAttempt3: 300_000,
      WaitBeforeAttempt4: 1_800_000,
      WaitBeforeAttempt5: 7_200_000,
    });
    expect(scaledWaits(1)).toEqual(expected(1));
    // 0.01 turns 1 min into 0.6 s.
    expect(scaledWaits(0.01)).toEqual(expected(0.01));
    expect(scaledWaits(0.01).WaitBeforeAttempt2).toBe(600);
    expect(Object.values(scaledWaits(0))).toEqual([0, 0, 0, 0]);
  });

  it('covers every Wait state of the delivery machine and refuses a negative or non-finite scale', () => {
    const waitNames = Object.entries(LOCAL_DEFINITIONS.webhookDelivery.States)
      .filter(([, s]) => s.Type === 'Wait')
      .map(([name]) => name);
    expect(Object.keys(scaledWaits(TIME_SCALE)).sort()).toEqual(waitNames.sort());
    expect(scaledWaits(1, LOCAL_DEFINITIONS.itemRefresh)).toEqual({});
    expect(() => scaledWaits(-1)).toThrow(/timeScale/);
    expect(() => scaledWaits(Number.NaN)).toThrow(/timeScale/);
  });
});

describe('FC_LOCAL_WEBHOOK_TIME_SCALE', () => {
  it('defaults to real time and accepts any number >= 0', () => {
    expect(webhookTimeScaleFromEnv({})).toBe(1);
    expect(webhookTimeScaleFromEnv({ FC_LOCAL_WEBHOOK_TIME_SCALE: '' })).toBe(1);
    expect(webhookTimeScaleFromEnv({ FC_LOCAL_WEBHOOK_TIME_SCALE: '0.01' })).toBe(0.01);
    expect(webhookTimeScaleFromEnv({ FC_LOCAL_WEBHOOK_TIME_SCALE: '0' })).toBe(0);
    expect(() => webhookTimeScaleFromEnv({ FC_LOCAL_WEBHOOK_TIME_SCALE: 'fast' })).toThrow(/FC_LOCAL_WEBHOOK_TIME_SCALE/);
    expect(() => webhookTimeScaleFromEnv({ FC_LOCAL_WEBHOOK_TIME_SCALE: '-1' })).toThrow(/FC_LOCAL_WEBHOOK_TIME_SCALE/);
  });
});

describe('local WebhookDelivery executions', () => {
  it('stop after the first delivered attempt: fails twice, then succeeds on attempt 3, no dead letter', async () => {
    const rec = recorder(async (attempt) => (attempt < 3 ? refused : ok));
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input = deliveryInput();
    const { accepted, done } = workflows.startDelivery(input);
    expect(accepted).toBe(true);
    expect(await done).toBe('SUCCEEDED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Each attempt gets the delivery and the body it sends, unchanged, plus its number.
    for (const attempt of rec.attempts) expect(attempt).toEqual({ ...refOf(input), body: input.body, attempt: attempt.attempt });
    expect(rec.deadLetters).toEqual([]);
  });

  it('begin after the attempt dispatch made: attempts_made 1 makes attempts 2 to 5, then the dead letter', async () => {
    const rec = recorder(async () => refused);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input = deliveryInput(1);
    expect(await workflows.startDelivery(input).done).toBe('FAILED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([2, 3, 4, 5]);
    expect(rec.deadLetters).toEqual([{ ...refOf(input), attempts: MAX_ATTEMPTS }]);
  });

  it('make exactly five attempts when all fail, then one dead-letter call, and end FAILED', async () => {
    const rec = recorder(async () => refused);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input = deliveryInput();
    expect(await workflows.startDelivery(input).done).toBe('FAILED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(rec.deadLetters).toEqual([{ ...refOf(input), attempts: MAX_ATTEMPTS }]);
  });

  it('count a handler that throws as a failed attempt', async () => {
    const rec = recorder(async (attempt) => {
      if (attempt === 1) throw new Error('connect ECONNREFUSED');
      return ok;
    });
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    expect(await workflows.startDelivery(deliveryInput()).done).toBe('SUCCEEDED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([1, 2]);
    expect(rec.deadLetters).toEqual([]);
  });

  it('count a handler that outlives the task timeout as a failed attempt', async () => {
    const rec = recorder((attempt) => (attempt === 1 ? new Promise<DeliveryOutcome>(() => {}) : Promise.resolve(ok)));
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, taskTimeoutMs: 20 });
    expect(await workflows.startDelivery(deliveryInput()).done).toBe('SUCCEEDED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('end FAILED with the dead letter recorded even when every attempt throws', async () => {
    const rec = recorder(async () => {
      throw new Error('boom');
    });
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    expect(await workflows.startDelivery(deliveryInput()).done).toBe('FAILED');
    expect(rec.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(rec.deadLetters).toHaveLength(1);
  });

  it('parse every worker payload as the deployed workers do: a malformed input reaches no handler and fails the execution', async () => {
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const malformed = { ...deliveryInput(), environment: 'staging' } as unknown as DeliveryExecutionInput;
    expect(await workflows.startDelivery(malformed).done).toBe('FAILED');
    expect(rec.attempts).toEqual([]);
    expect(rec.deadLetters).toEqual([]);
  });

  it('accept a delivery_id once, like StartExecution with the delivery id as execution name', async () => {
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input = deliveryInput();
    const first = workflows.startDelivery(input);
    const whileRunning = workflows.startDelivery(input);
    expect(first.accepted).toBe(true);
    expect(whileRunning.accepted).toBe(false);
    expect(await first.done).toBe('SUCCEEDED');
    expect(workflows.startDelivery(input).accepted).toBe(false);
    expect(workflows.startDelivery(deliveryInput()).accepted).toBe(true);
    await workflows.idle();
    expect(rec.attempts).toHaveLength(2);
  });
});

describe('local executions together', () => {
  it('idle() resolves once every execution has finished', async () => {
    const rec = recorder(async (attempt) => (attempt < 2 ? refused : ok));
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const settled: string[] = [];
    const runs = [deliveryInput(), deliveryInput(), deliveryInput()].map((input) => {
      const { done } = workflows.startDelivery(input);
      void done.then(() => settled.push(input.delivery_id));
      return input;
    });
    const refresh = workflows.startRefresh({ item_id: 'item_1', reason: 'scheduled' });
    void refresh.done.then(() => settled.push('refresh'));
    await workflows.idle();
    expect(settled.sort()).toEqual([...runs.map((r) => r.delivery_id), 'refresh'].sort());
    expect(rec.attempts).toHaveLength(6);
    await workflows.idle(); // nothing running: resolves at once
  });

  it('stop() aborts running executions and leaves no timers behind', async () => {
    const baseline = timerCount();
    const hanging = new Promise<DeliveryOutcome>(() => {});
    const rec = recorder(async (attempt) => (attempt === 1 ? refused : hanging));
    // Real time: after attempt 1 the execution waits 60 s before attempt 2.
    const inRetryWait = timerArmed(WEBHOOK_RETRY_DELAYS_SECONDS[1] * 1000);
    const waiting = createLocalWorkflows(rec.handlers, { timeScale: 1 });
    const inWait = waiting.startDelivery(deliveryInput());
    // A handler that never answers, inside the 10 s task timeout.
    let enteredTask!: () => void;
    const inHangingTask = new Promise<void>((resolve) => (enteredTask = resolve));
    const blocked = createLocalWorkflows(
      {
        ...rec.handlers,
        delivery: () => {
          enteredTask();
          return hanging;
        },
      },
      { timeScale: 1 },
    );
    const inTask = blocked.startDelivery(deliveryInput());
    await Promise.all([inRetryWait, inHangingTask]).catch((error: unknown) => {
      // Leave no real-time execution behind a failed wait: it would keep Jest from exiting.
      waiting.stop();
      blocked.stop();
      throw error;
    });
    expect(rec.attempts).toHaveLength(1);

    waiting.stop();
    blocked.stop();
    expect(await inWait.done).toBe('FAILED');
    expect(await inTask.done).toBe('FAILED');
    await waiting.idle();
    await blocked.idle();
    expect(timerCount()).toBeLessThanOrEqual(baseline);
    expect(rec.attempts).toHaveLength(1);
    expect(rec.deadLetters).toEqual([]);
    // Stopped runners start nothing.
    expect(waiting.startDelivery(deliveryInput()).accepted).toBe(false);
    expect(await waiting.startRefresh({ item_id: 'item_1', reason: 'on_demand' }).done).toBe('FAILED');
  });
});

describe('local ItemRefresh executions', () => {
  it('run the refresh handler once with the execution input', async () => {
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input: RefreshExecutionInput = { item_id: 'item_42', reason: 'on_demand' };
    expect(await workflows.startRefresh(input).done).toBe('SUCCEEDED');
    expect(rec.refreshes).toEqual([input]);
  });

  it('fail without retrying when the refresh worker throws', async () => {
    let calls = 0;
    const workflows = createLocalWorkflows(
      {
        ...recorder(async () => ok).handlers,
        refresh: async () => {
          calls += 1;
          throw new Error('institution down');
        },
      },
      { timeScale: TIME_SCALE },
    );
    expect(await workflows.startRefresh({ item_id: 'item_1', reason: 'scheduled' }).done).toBe('FAILED');
    expect(calls).toBe(1);
  });

  it('retry Lambda service errors, as on AWS', async () => {
    let calls = 0;
    const workflows = createLocalWorkflows(
      {
        ...recorder(async () => ok).handlers,
        refresh: async () => {
          calls += 1;
          if (calls === 1) throw Object.assign(new Error('Rate exceeded'), { name: 'Lambda.TooManyRequestsException' });
          return {};
        },
      },
      { timeScale: TIME_SCALE },
    );
    expect(await workflows.startRefresh({ item_id: 'item_1', reason: 'scheduled' }).done).toBe('SUCCEEDED');
    expect(calls).toBe(2);
  });
});

describe('dead-letter record state', () => {
  it('passes which delivery it was plus the attempt count (not the body)', () => {
    const state = LOCAL_DEFINITIONS.webhookDelivery.States[RECORD_DEAD_LETTER_STATE] as unknown as { Parameters: { Payload: object } };
    expect(state.Parameters.Payload).toEqual({
      'delivery_id.$': '$.delivery_id',
      'event_id.$': '$.event_id',
      'endpoint_id.$': '$.endpoint_id',
      'application_id.$': '$.application_id',
      'environment.$': '$.environment',
      attempts: MAX_ATTEMPTS,
    });
    expect(Object.keys(refFields).sort()).toEqual(['application_id', 'delivery_id', 'endpoint_id', 'environment', 'event_id']);
    expect(Object.keys(attemptFields).sort()).toEqual([...Object.keys(refFields), 'body'].sort());
  });
});

/**
 * The states one execution of the deployed definition enters (each is a billed state transition of
 * a Standard workflow), given the outcome of each attempt it makes.
 */
async function statesEntered(attemptsMade: number, delivered: (attempt: number) => boolean): Promise<string[]> {
  const definition = LOCAL_DEFINITIONS.webhookDelivery;
  const machine = new StateMachine(JSON.parse(JSON.stringify(definition)));
  const tasks = Object.fromEntries(
    Object.entries(definition.States)
      .filter(([, state]) => state.Type === 'Task')
      .map(([name]) => [name, (input: unknown) => {
        const { Payload } = input as { Payload: { attempt?: number } };
        return { Payload: { delivered: Payload.attempt !== undefined && delivered(Payload.attempt), status: 500 } };
      }]),
  );
  const execution = machine.run(deliveryInput(attemptsMade), { overrides: { taskResourceLocalHandlers: tasks, waitTimeOverrides: scaledWaits(0) } });
  const entered: string[] = [];
  for await (const event of execution.eventLogs) if (event.type === 'StateEntered') entered.push(event.state.name);
  await execution.result.catch(() => undefined);
  return entered;
}

describe('state transitions per execution (what a Standard workflow is billed for)', () => {
  const retriesFrom = (first: number, last: number) =>
    Array.from({ length: last - first + 1 }, (_, i) => first + i).flatMap((n) => [waitState(n), attemptState(n), attemptCheckState(n)]);

  it('after a failed first attempt by dispatch: one Choice, then from the wait before attempt 2 (5 when attempt 2 succeeds, 15 when all fail)', async () => {
    expect(await statesEntered(1, (n) => n === 2)).toEqual([NEXT_ATTEMPT_STATE, ...retriesFrom(2, 2), 'Delivered']);
    const allFail = await statesEntered(1, () => false);
    expect(allFail).toEqual([NEXT_ATTEMPT_STATE, ...retriesFrom(2, MAX_ATTEMPTS), RECORD_DEAD_LETTER_STATE, 'DeliveryFailed']);
    expect(allFail).toHaveLength(15);
  });

  it('a replay begins at attempt 1; an input whose attempts are all made goes straight to the dead letter', async () => {
    expect(await statesEntered(0, () => true)).toEqual([NEXT_ATTEMPT_STATE, attemptState(1), attemptCheckState(1), 'Delivered']);
    expect(await statesEntered(MAX_ATTEMPTS, () => true)).toEqual([NEXT_ATTEMPT_STATE, RECORD_DEAD_LETTER_STATE, 'DeliveryFailed']);
  });
});

/** The table's execution rows, in memory: what a restarted runner finds. */
function memoryStore(): ExecutionStore & { rows: Map<string, ExecutionRecord>; saves: ExecutionRecord[]; failNextSave: boolean } {
  const store = {
    rows: new Map<string, ExecutionRecord>(),
    saves: [] as ExecutionRecord[],
    failNextSave: false,
    save: async (record: ExecutionRecord) => {
      if (store.failNextSave) {
        store.failNextSave = false;
        throw new Error('table unavailable');
      }
      store.saves.push(structuredClone(record));
      store.rows.set(record.input.delivery_id, structuredClone(record));
    },
    remove: async (deliveryId: string) => {
      store.rows.delete(deliveryId);
    },
    unfinished: async () => [...store.rows.values()].map((r) => structuredClone(r)),
  };
  return store;
}

describe('durable local WebhookDelivery executions', () => {
  const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

  it('keep a row from before the first attempt, move it on after each failed attempt and remove it at the end', async () => {
    const store = memoryStore();
    const rec = recorder(async (attempt) => (attempt < 3 ? refused : ok));
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const input = deliveryInput();
    const run = workflows.startDelivery(input);
    await run.recorded;
    expect(store.saves[0]).toEqual({ input, nextAttempt: 1, nextAttemptAt: T0, timeScale: TIME_SCALE });
    expect(await run.done).toBe('SUCCEEDED');
    expect(store.saves.map((r) => [r.nextAttempt, r.nextAttemptAt])).toEqual([
      [1, T0],
      [2, T0 + Math.round(60_000 * TIME_SCALE)],
      [3, T0 + Math.round(300_000 * TIME_SCALE)],
    ]);
    expect(store.rows.size).toBe(0);
  });

  it('keep the row of an execution started after dispatch\'s failed attempt at attempt 2, due after its wait, so a restart never makes attempt 1 again', async () => {
    const store = memoryStore();
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const input = deliveryInput(1);
    const run = workflows.startDelivery(input);
    await run.recorded;
    expect(store.saves[0]).toEqual({ input, nextAttempt: 2, nextAttemptAt: T0 + Math.round(60_000 * TIME_SCALE), timeScale: TIME_SCALE });
    expect(await run.done).toBe('SUCCEEDED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([2]);
    expect(store.rows.size).toBe(0);
  });

  it('continue after a stop where they left off: the retry wait re-armed with what remained of it, rescaled', async () => {
    const store = memoryStore();
    const first = recorder(async () => refused);
    const inRetryWait = timerArmed(60_000);
    // Real time: after attempt 1 fails, the execution waits 60 s for attempt 2.
    const before = createLocalWorkflows(first.handlers, { timeScale: 1, store, now: () => T0 });
    const abandoned = before.startDelivery(deliveryInput());
    await inRetryWait.catch((error: unknown) => {
      before.stop();
      throw error;
    });
    before.stop();
    expect(await abandoned.done).toBe('FAILED');
    const [row] = [...store.rows.values()];
    expect(row).toMatchObject({ nextAttempt: 2, nextAttemptAt: T0 + 60_000, timeScale: 1 });

    // 20 s later, a new runner at 1/1000 of real time: 40 s remain, i.e. 40 ms.
    const second = recorder(async () => ok);
    const after = createLocalWorkflows(second.handlers, { timeScale: 0.001, store, now: () => T0 + 20_000 });
    const rearmed = timerArmed(40);
    const resumed = await after.resume();
    await rearmed;
    expect(resumed.map((r) => r.deliveryId)).toEqual([row.input.delivery_id]);
    expect(await resumed[0].done).toBe('SUCCEEDED');
    expect(first.attempts.map((a) => a.attempt)).toEqual([1]);
    expect(second.attempts).toEqual([{ ...refOf(row.input), body: row.input.body, attempt: 2 }]);
    expect(store.rows.size).toBe(0);
    // A resumed execution keeps its name: it cannot be started a second time.
    expect(after.startDelivery(row.input).accepted).toBe(false);
  });

  it('run a due attempt at once on resume, and dead-letter after the last', async () => {
    const store = memoryStore();
    const input = deliveryInput();
    store.rows.set(input.delivery_id, { input, nextAttempt: 4, nextAttemptAt: T0 - 1, timeScale: TIME_SCALE });
    const rec = recorder(async () => refused);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const [resumed] = await workflows.resume();
    expect(await resumed.done).toBe('FAILED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([4, 5]);
    expect(rec.deadLetters).toEqual([{ ...refOf(input), attempts: MAX_ATTEMPTS }]);
    expect(store.rows.size).toBe(0);
  });

  it('record the dead letter on resume when every attempt was already made', async () => {
    const store = memoryStore();
    const input = deliveryInput();
    store.rows.set(input.delivery_id, { input, nextAttempt: MAX_ATTEMPTS + 1, nextAttemptAt: T0, timeScale: TIME_SCALE });
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const [resumed] = await workflows.resume();
    expect(await resumed.done).toBe('FAILED');
    expect(rec.attempts).toEqual([]);
    expect(rec.deadLetters).toEqual([{ ...refOf(input), attempts: MAX_ATTEMPTS }]);
    expect(store.rows.size).toBe(0);
  });

  it('do not resume an execution the runner already runs', async () => {
    const store = memoryStore();
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const run = workflows.startDelivery(deliveryInput());
    await run.recorded;
    expect(await workflows.resume()).toEqual([]);
    await run.done;
    expect(rec.attempts).toHaveLength(1);
  });

  it('refuse a start whose row could not be written, so that the caller can start it again', async () => {
    const store = memoryStore();
    store.failNextSave = true;
    const rec = recorder(async () => ok);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE, store, now: () => T0 });
    const input = deliveryInput();
    const failed = workflows.startDelivery(input);
    await expect(failed.recorded).rejects.toThrow('table unavailable');
    expect(await failed.done).toBe('FAILED');
    expect(rec.attempts).toEqual([]);
    const retried = workflows.startDelivery(input);
    expect(retried.accepted).toBe(true);
    expect(await retried.done).toBe('SUCCEEDED');
    expect(rec.attempts).toHaveLength(1);
  });
});

describe('resumePoint', () => {
  const input: DeliveryExecutionInput = { delivery_id: 'd', event_id: 'e', endpoint_id: 'p', application_id: 'a', environment: 'test', body: '{}', attempts_made: 0 };
  const at = (nextAttempt: number, nextAttemptAt: number, timeScale = 1): ExecutionRecord => ({ input, nextAttempt, nextAttemptAt, timeScale });

  it('starts a first attempt at once, and waits what remains before a later one', () => {
    expect(resumePoint(at(1, 0), 1_000, 1)).toEqual({ startAt: 'Attempt1', waitMs: null });
    expect(resumePoint(at(3, 10_000), 4_000, 1)).toEqual({ startAt: 'WaitBeforeAttempt3', waitMs: 6_000 });
    // Overdue: no wait.
    expect(resumePoint(at(3, 10_000), 20_000, 1)).toEqual({ startAt: 'WaitBeforeAttempt3', waitMs: 0 });
    expect(resumePoint(at(MAX_ATTEMPTS + 1, 0), 0, 1)).toEqual({ startAt: RECORD_DEAD_LETTER_STATE, waitMs: null });
  });

  it('rescales what remains to the current time scale, never beyond the whole wait', () => {
    // Saved at 1/100: 600 ms remained of the 1 min wait, i.e. 60 s of schedule; now at real time.
    expect(resumePoint(at(2, 1_600, 0.01), 1_000, 1)).toEqual({ startAt: 'WaitBeforeAttempt2', waitMs: 60_000 });
    expect(resumePoint(at(2, 1_000 + 600_000, 1), 1_000, 1)).toEqual({ startAt: 'WaitBeforeAttempt2', waitMs: 60_000 });
    expect(resumePoint(at(2, 5_000, 0), 1_000, 1)).toEqual({ startAt: 'WaitBeforeAttempt2', waitMs: 0 });
  });
});
