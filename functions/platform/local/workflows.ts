// The local runtime of the WebhookDelivery and ItemRefresh state machines: the SAME Amazon States
// Language as on AWS (functions/workers/state-machines.ts, with placeholder worker ARNs), executed in
// process by aws-local-stepfunctions.
//
// - Every `arn:aws:states:::lambda:invoke` Task gets a local handler that looks up the task's
//   `Parameters.FunctionName` (a LOCAL_WORKER_ARNS placeholder) and calls the matching in-process
//   handler with `Parameters.Payload`; its result comes back as `{ Payload: result }`, the shape of a
//   real Lambda Invoke response, so ResultSelector / ResultPath behave as on AWS.
// - Every Wait state is scaled: `seconds * 1000 * timeScale` ms (FC_LOCAL_WEBHOOK_TIME_SCALE; 1 is
//   real time, 0.01 turns the 1 min retry into 0.6 s). Retry intervals are scaled the same way.
// - Task timeouts (TimeoutSeconds) are NOT scaled: they bound real work (a real POST), so a handler
//   that hangs past its task's TimeoutSeconds fails the attempt with States.Timeout, as on AWS.
// - StartExecution's name uniqueness: a second startDelivery with a delivery_id that already ran or
//   runs is not accepted.
// - stop() aborts every execution: waits end at once, running handlers are abandoned (their results
//   ignored) and no timer of this module or of the library is left behind.
// - Durable deliveries (with a `store`): Step Functions keeps an execution across anything that
//   happens to the caller; in process it would die with it. So every WebhookDelivery execution
//   keeps a row (input, next attempt, when it is due) from before its first attempt until it ends,
//   updated after each failed attempt, and resume() continues every unfinished one where it left
//   off: a due attempt runs at once, a pending Wait is re-armed with what remains of it (rescaled
//   to the current time scale), and a delivery whose attempts are spent goes to the dead letter.
//   stop() leaves the rows, so a clean shutdown resumes like a crash. An attempt cut short by the
//   crash runs again on resume (at least once, like a Lambda invocation); deliverAttempt ignores a
//   delivery that already ended.
import { StateMachine, type RunOptions } from 'aws-local-stepfunctions';
import {
  DeadLetterInput,
  DeliveryAttemptInput,
  parseWorkerMessage,
  RefreshExecutionInput,
  type DeliveryExecutionInput,
  type DeliveryOutcome,
} from '../../contracts/worker-messages';
import {
  type AslDefinition,
  LAMBDA_INVOKE,
  LOCAL_WORKER_ARNS,
  RECORD_DEAD_LETTER_STATE,
  attemptState,
  itemRefreshAsl,
  waitState,
  webhookDeliveryAsl,
} from '../../workers/state-machines';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../workers/webhook-schedule';
import { logger } from '../observability';

// aws-local-stepfunctions uses Promise.withResolvers (Node 22+); Node 20 lacks it.
if (typeof (Promise as unknown as { withResolvers?: unknown }).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

/** Environment variable of the local server: how fast the webhook retry schedule runs. */
export const WEBHOOK_TIME_SCALE_ENV = 'FC_LOCAL_WEBHOOK_TIME_SCALE';

/** FC_LOCAL_WEBHOOK_TIME_SCALE as a number: default 1 (real time); must be a finite number >= 0. */
export function webhookTimeScaleFromEnv(env: Record<string, string | undefined> = process.env): number {
  const raw = env[WEBHOOK_TIME_SCALE_ENV]?.trim();
  if (raw === undefined || raw === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale < 0) {
    throw new Error(`${WEBHOOK_TIME_SCALE_ENV} must be a number >= 0 (1 = real time, 0.01 = 100x faster), got "${raw}"`);
  }
  return scale;
}

export interface LocalWorkflowHandlers {
  /** One delivery attempt (the webhook-delivery worker). */
  delivery(input: DeliveryAttemptInput): Promise<DeliveryOutcome>;
  /** Records an undeliverable webhook (the webhook-dead-letter worker). */
  deadLetter(input: DeadLetterInput): Promise<void>;
  /** Refreshes one item (the item-refresh worker). */
  refresh(input: RefreshExecutionInput): Promise<unknown>;
}

export interface LocalWorkflowOptions {
  /** Multiplies every Wait (and Retry interval): 1 = real time, 0.01 = 100x faster, 0 = no waiting. */
  timeScale: number;
  /**
   * Caps every Task's timeout, in ms (tests of a hanging worker). Default: each Task's own
   * TimeoutSeconds, unscaled, as on AWS.
   */
  taskTimeoutMs?: number;
  /** Where delivery executions are kept so that resume() can continue them; none: in memory only. */
  store?: ExecutionStore;
  /** Wall clock (ms) of the scaled waits, for the rows' due times. Default Date.now. */
  now?: () => number;
}

/** A WebhookDelivery execution that has not ended, as its row keeps it. */
export interface ExecutionRecord {
  input: DeliveryExecutionInput;
  /** The attempt to make next (1-based); one past the last attempt: the dead letter is due. */
  nextAttempt: number;
  /** Wall-clock ms when it is due: the end of the scaled Wait before it. */
  nextAttemptAt: number;
  /** The time scale that due time was computed with (a restart may use another). */
  timeScale: number;
}

export interface ExecutionStore {
  save(record: ExecutionRecord): Promise<void>;
  remove(deliveryId: string): Promise<void>;
  unfinished(): Promise<ExecutionRecord[]>;
}

export type ExecutionStatus = 'SUCCEEDED' | 'FAILED';

export interface LocalWorkflows {
  /**
   * Starts one WebhookDelivery execution. `accepted` is false (and `done` resolves FAILED at once)
   * when an execution with this delivery_id already ran or runs, or after stop().
   */
  startDelivery(input: DeliveryExecutionInput): { accepted: boolean; done: Promise<ExecutionStatus>; recorded: Promise<void> };
  /**
   * Continues every execution the store holds that this runner does not run yet (after a crash or
   * a stop of an earlier runner on the same table).
   */
  resume(): Promise<{ deliveryId: string; done: Promise<ExecutionStatus> }[]>;
  /** Starts one ItemRefresh execution (`done` resolves FAILED at once after stop()). */
  startRefresh(input: RefreshExecutionInput): { done: Promise<ExecutionStatus> };
  /** Resolves when no execution is running (also those started while waiting). */
  idle(): Promise<void>;
  /** Aborts every running execution (they end FAILED, their rows kept) and refuses new ones; leaves no timers. */
  stop(): void;
}

/** The definitions the local runner executes: the deployed ones, with placeholder worker ARNs. */
export const LOCAL_DEFINITIONS = {
  webhookDelivery: webhookDeliveryAsl({
    deliveryWorkerArn: LOCAL_WORKER_ARNS.delivery,
    deadLetterWorkerArn: LOCAL_WORKER_ARNS.deadLetter,
  }),
  itemRefresh: itemRefreshAsl({ refreshWorkerArn: LOCAL_WORKER_ARNS.refresh }),
} as const;

/** waitTimeOverrides for a definition: every Wait state's Seconds, scaled, in ms. */
export function scaledWaits(timeScale: number, definition: AslDefinition = LOCAL_DEFINITIONS.webhookDelivery): Record<string, number> {
  assertTimeScale(timeScale);
  const waits: Record<string, number> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type !== 'Wait') continue;
    if (typeof state.Seconds !== 'number') throw new Error(`Wait state ${name} has no fixed Seconds to scale`);
    waits[name] = Math.round(state.Seconds * 1000 * timeScale);
  }
  return waits;
}

/** retryIntervalOverrides for a definition: each retrying state's first IntervalSeconds, scaled, in ms. */
function scaledRetryIntervals(timeScale: number, definition: AslDefinition): Record<string, number> {
  assertTimeScale(timeScale);
  const intervals: Record<string, number> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    const retry = state.Retry as { IntervalSeconds?: number }[] | undefined;
    if (!retry?.length) continue;
    intervals[name] = Math.round((retry[0].IntervalSeconds ?? 1) * 1000 * timeScale);
  }
  return intervals;
}

function assertTimeScale(timeScale: number): void {
  if (!Number.isFinite(timeScale) || timeScale < 0) throw new Error(`timeScale must be a finite number >= 0, got ${timeScale}`);
}

type LocalLambda = (payload: unknown) => Promise<unknown>;
/** The library's JSON value type (not exported by it): execution inputs and task results. */
type JsonValue = Parameters<StateMachine['run']>[0];
type TaskHandlers = NonNullable<NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers']>;

class AbortedError extends Error {
  constructor() {
    super('Local workflow execution stopped');
    this.name = 'LocalWorkflowAborted';
  }
}

class TaskTimeoutError extends Error {
  constructor(ms: number) {
    super(`Task timed out after ${ms} ms`);
    this.name = 'States.Timeout';
  }
}

/**
 * Calls `fn` like one Lambda invocation: the payload and result cross a JSON boundary; the call
 * fails with States.Timeout after `timeoutMs` and with LocalWorkflowAborted when `signal` aborts.
 */
async function invokeLocal(fn: LocalLambda, payload: unknown, timeoutMs: number, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) throw new AbortedError();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limits = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TaskTimeoutError(timeoutMs)), timeoutMs);
    onAbort = () => reject(new AbortedError());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const call = Promise.resolve().then(() => fn(JSON.parse(JSON.stringify(payload))));
    const result = await Promise.race([call, limits]);
    return result === undefined ? null : JSON.parse(JSON.stringify(result));
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort!);
  }
}

/** taskResourceLocalHandlers (keyed by Task state name) that route lambda:invoke to local functions by ARN. */
type TaskOutcome = { result: unknown } | { error: unknown };
/** Called after each task's invocation ended (not when the execution was aborted). */
type AfterTask = (functionName: string, payload: unknown, outcome: TaskOutcome) => Promise<void>;

function lambdaInvokeHandlers(
  definition: AslDefinition,
  functions: Record<string, LocalLambda>,
  signal: AbortSignal,
  taskTimeoutMs: number | undefined,
  afterTask: AfterTask | undefined,
): TaskHandlers {
  const handlers: TaskHandlers = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type !== 'Task') continue;
    if (state.Resource !== LAMBDA_INVOKE) throw new Error(`Task ${name} is not a lambda:invoke task`);
    const ownTimeoutMs = ((state.TimeoutSeconds as number | undefined) ?? 60) * 1000;
    const timeoutMs = Math.min(ownTimeoutMs, taskTimeoutMs ?? ownTimeoutMs);
    handlers[name] = async (input) => {
      // The task's Parameters: `{ FunctionName, Payload }` (functions/workers/state-machines.ts).
      const { FunctionName, Payload } = input as { FunctionName: string; Payload: unknown };
      const fn = functions[FunctionName];
      if (!fn) throw new Error(`No local function for ${FunctionName} (task ${name})`);
      let result: unknown;
      try {
        result = await invokeLocal(fn, Payload, timeoutMs, signal);
      } catch (error) {
        if (!(error instanceof AbortedError)) await afterTask?.(FunctionName, Payload, { error });
        throw error;
      }
      await afterTask?.(FunctionName, Payload, { result });
      return { Payload: result as JsonValue };
    };
  }
  return handlers;
}

/**
 * StateMachine instances, built once per definition: construction validates the definition
 * (hundreds of ms), while runs are independent of each other.
 */
const compiled = new Map<AslDefinition, StateMachine>();

interface PreparedMachine {
  definition: AslDefinition;
  machine: StateMachine;
  waitTimeOverrides: Record<string, number>;
  retryIntervalOverrides: Record<string, number>;
}

function prepare(definition: AslDefinition, timeScale: number): PreparedMachine {
  let machine = compiled.get(definition);
  if (!machine) {
    // A JSON copy: the library's validator (asl-validator) annotates the definition it is given, and
    // its payload templates only descend into objects of its own realm (Jest runs tests in a vm).
    machine = new StateMachine(JSON.parse(JSON.stringify(definition)));
    compiled.set(definition, machine);
  }
  return {
    definition,
    machine,
    waitTimeOverrides: scaledWaits(timeScale, definition),
    retryIntervalOverrides: scaledRetryIntervals(timeScale, definition),
  };
}

/**
 * The delivery machine started at another state (where a resumed execution continues). The states
 * are the validated definition's own, so the copy needs no validation of its own.
 */
const resumedMachines = new Map<string, StateMachine>();
function deliveryMachineFrom(startAt: string): StateMachine {
  let machine = resumedMachines.get(startAt);
  if (!machine) {
    const definition = { ...LOCAL_DEFINITIONS.webhookDelivery, StartAt: startAt };
    machine = new StateMachine(JSON.parse(JSON.stringify(definition)), { validationOptions: { noValidate: true } });
    resumedMachines.set(startAt, machine);
  }
  return machine;
}

const DELIVERY_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length;

/** The scaled Wait before attempt n, in ms (0 for the first attempt and for the dead letter). */
function waitBeforeMs(attempt: number, timeScale: number): number {
  return attempt >= 1 && attempt <= DELIVERY_ATTEMPTS ? Math.round(WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1] * 1000 * timeScale) : 0;
}

/**
 * Where an unfinished execution continues, and the Wait it re-arms: what remained of it when it
 * was saved, rescaled from the scale it was saved with to the current one, never more than the
 * whole Wait.
 */
export function resumePoint(record: ExecutionRecord, now: number, timeScale: number): { startAt: string; waitMs: number | null } {
  const attempt = record.nextAttempt;
  if (attempt > DELIVERY_ATTEMPTS) return { startAt: RECORD_DEAD_LETTER_STATE, waitMs: null };
  const fullWait = waitBeforeMs(attempt, timeScale);
  if (attempt <= 1 || WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1] === 0) return { startAt: attemptState(Math.max(1, attempt)), waitMs: null };
  const remainingSaved = Math.max(0, record.nextAttemptAt - now);
  const remaining = record.timeScale > 0 ? Math.round((remainingSaved / record.timeScale) * timeScale) : 0;
  return { startAt: waitState(attempt), waitMs: Math.min(remaining, fullWait) };
}

export function createLocalWorkflows(handlers: LocalWorkflowHandlers, opts: LocalWorkflowOptions): LocalWorkflows {
  assertTimeScale(opts.timeScale);
  const now = opts.now ?? Date.now;
  const store = opts.store;
  const functions: Record<string, LocalLambda> = {
    // Payloads are parsed as the deployed workers parse them (functions/workers/*.ts).
    [LOCAL_WORKER_ARNS.delivery]: (input) => handlers.delivery(parseWorkerMessage(DeliveryAttemptInput, 'delivery attempt input', input)),
    [LOCAL_WORKER_ARNS.deadLetter]: (input) => handlers.deadLetter(parseWorkerMessage(DeadLetterInput, 'dead-letter input', input)),
    [LOCAL_WORKER_ARNS.refresh]: (input) => handlers.refresh(parseWorkerMessage(RefreshExecutionInput, 'item refresh input', input)),
  };
  const machines = {
    delivery: prepare(LOCAL_DEFINITIONS.webhookDelivery, opts.timeScale),
    refresh: prepare(LOCAL_DEFINITIONS.itemRefresh, opts.timeScale),
  };
  const deliveryIds = new Set<string>();
  const running = new Map<Promise<ExecutionStatus>, () => void>();
  let stopped = false;

  interface Launch {
    prepared: PreparedMachine;
    input: object;
    name?: string;
    /** Another entry point of the same definition (a resumed delivery). */
    machine?: StateMachine;
    waitTimeOverrides?: Record<string, number>;
    afterTask?: AfterTask;
    /** Runs once the execution ended on its own (not aborted). */
    onEnd?: () => Promise<void>;
  }

  /** Runs an execution once `before` (its row written) has succeeded; FAILED when it did not. */
  function launch(run: Launch, before: Promise<void> = Promise.resolve()): Promise<ExecutionStatus> {
    const controller = new AbortController();
    let abortExecution: (() => void) | undefined;
    const done: Promise<ExecutionStatus> = before
      .then(async (): Promise<ExecutionStatus> => {
        if (controller.signal.aborted) return 'FAILED';
        const execution = (run.machine ?? run.prepared.machine).run(run.input as JsonValue, {
          noThrowOnAbort: true,
          overrides: {
            taskResourceLocalHandlers: lambdaInvokeHandlers(run.prepared.definition, functions, controller.signal, opts.taskTimeoutMs, run.afterTask),
            waitTimeOverrides: run.waitTimeOverrides ?? run.prepared.waitTimeOverrides,
            retryIntervalOverrides: run.prepared.retryIntervalOverrides,
          },
          ...(run.name ? { context: { Execution: { Name: run.name } } } : {}),
        });
        abortExecution = () => execution.abort();
        const status = await execution.result.then(
          (): ExecutionStatus => (controller.signal.aborted ? 'FAILED' : 'SUCCEEDED'),
          (): ExecutionStatus => 'FAILED',
        );
        if (!controller.signal.aborted) await run.onEnd?.();
        return status;
      }, (): ExecutionStatus => 'FAILED')
      .then((status) => {
        running.delete(done);
        return status;
      });
    running.set(done, () => {
      controller.abort();
      abortExecution?.();
    });
    return done;
  }

  /** Keeps a delivery's row in step with it: after a failed attempt, the next one and when it is due. */
  const trackProgress =
    (input: DeliveryExecutionInput): AfterTask | undefined =>
    store &&
    (async (functionName, payload, outcome) => {
      if (functionName !== LOCAL_WORKER_ARNS.delivery) return;
      const attempt = (payload as { attempt?: unknown }).attempt;
      if (typeof attempt !== 'number') return;
      const delivered = 'result' in outcome && (outcome.result as { delivered?: unknown } | null)?.delivered === true;
      // A delivered execution ends next; its row goes with it.
      if (delivered) return;
      await store.save({ input, nextAttempt: attempt + 1, nextAttemptAt: now() + waitBeforeMs(attempt + 1, opts.timeScale), timeScale: opts.timeScale });
    });

  const forget = (deliveryId: string) => async () => {
    await store?.remove(deliveryId).catch((error: Error) => logger.error('could not remove a finished delivery execution', { error, delivery_id: deliveryId }));
  };

  function launchDelivery(input: DeliveryExecutionInput, entry: { machine?: StateMachine; waitTimeOverrides?: Record<string, number> }, before?: Promise<void>) {
    return launch(
      { prepared: machines.delivery, input, name: input.delivery_id, ...entry, afterTask: trackProgress(input), onEnd: forget(input.delivery_id) },
      before,
    );
  }

  return {
    startDelivery(input) {
      if (stopped || deliveryIds.has(input.delivery_id)) return { accepted: false, done: Promise.resolve('FAILED'), recorded: Promise.resolve() };
      deliveryIds.add(input.delivery_id);
      // The row exists before the execution's first attempt, so no crash can lose an accepted
      // execution. It begins after the attempts made before it started (dispatch makes the first).
      const nextAttempt = input.attempts_made + 1;
      const recorded = store
        ? store.save({ input, nextAttempt, nextAttemptAt: now() + waitBeforeMs(nextAttempt, opts.timeScale), timeScale: opts.timeScale })
        : Promise.resolve();
      // A start whose row could not be written is not accepted: the caller may try again.
      recorded.catch(() => deliveryIds.delete(input.delivery_id));
      return { accepted: true, done: launchDelivery(input, {}, recorded), recorded };
    },
    async resume() {
      if (!store || stopped) return [];
      const resumed: { deliveryId: string; done: Promise<ExecutionStatus> }[] = [];
      for (const record of await store.unfinished()) {
        const deliveryId = record.input.delivery_id;
        if (stopped || deliveryIds.has(deliveryId)) continue;
        deliveryIds.add(deliveryId);
        const { startAt, waitMs } = resumePoint(record, now(), opts.timeScale);
        const entry = {
          machine: startAt === LOCAL_DEFINITIONS.webhookDelivery.StartAt ? undefined : deliveryMachineFrom(startAt),
          waitTimeOverrides: waitMs === null ? undefined : { ...machines.delivery.waitTimeOverrides, [startAt]: waitMs },
        };
        resumed.push({ deliveryId, done: launchDelivery(record.input, entry) });
      }
      return resumed;
    },
    startRefresh(input) {
      if (stopped) return { done: Promise.resolve('FAILED') };
      return { done: launch({ prepared: machines.refresh, input }) };
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running.keys()]);
    },
    stop() {
      stopped = true;
      for (const abort of running.values()) abort();
    },
  };
}
