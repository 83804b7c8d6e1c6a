// The local workflow runner executes the deployed state machine definitions
// (functions/workers/state-machines.ts) with the real aws-local-stepfunctions, at a tiny time scale.
// No wall-clock assertions: the waits are checked as the overrides the runner computes.
import type { DeadLetterInput, DeliveryAttemptInput, DeliveryExecutionInput, DeliveryOutcome, RefreshExecutionInput } from '../../functions/contracts/worker-messages';
import {
  LOCAL_WORKER_ARNS,
  RECORD_DEAD_LETTER_STATE,
  itemRefreshAsl,
  waitState,
  webhookDeliveryAsl,
} from '../../functions/workers/state-machines';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../functions/workers/webhook-schedule';
import {
  LOCAL_DEFINITIONS,
  type LocalWorkflowHandlers,
  createLocalWorkflows,
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
function deliveryInput(): DeliveryExecutionInput {
  counter += 1;
  return {
    delivery_id: `evt_${counter}:ep_1`,
    event_id: `evt_${counter}`,
    endpoint_id: 'ep_1',
    application_id: 'app_1',
    environment: 'test',
  };
}

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
    // Each attempt gets the execution input unchanged, plus its number.
    for (const attempt of rec.attempts) expect(attempt).toEqual({ ...input, attempt: attempt.attempt });
    expect(rec.deadLetters).toEqual([]);
  });

  it('make exactly five attempts when all fail, then one dead-letter call, and end FAILED', async () => {
    const rec = recorder(async () => refused);
    const workflows = createLocalWorkflows(rec.handlers, { timeScale: TIME_SCALE });
    const input = deliveryInput();
    expect(await workflows.startDelivery(input).done).toBe('FAILED');
    expect(rec.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(rec.deadLetters).toEqual([{ ...input, attempts: MAX_ATTEMPTS }]);
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
  it('passes the execution input plus the attempt count', () => {
    const state = LOCAL_DEFINITIONS.webhookDelivery.States[RECORD_DEAD_LETTER_STATE] as unknown as { Parameters: { Payload: object } };
    expect(state.Parameters.Payload).toEqual({
      'delivery_id.$': '$.delivery_id',
      'event_id.$': '$.event_id',
      'endpoint_id.$': '$.endpoint_id',
      'application_id.$': '$.application_id',
      'environment.$': '$.environment',
      attempts: MAX_ATTEMPTS,
    });
  });
});
