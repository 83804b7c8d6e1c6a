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
  itemRefreshAsl,
  webhookDeliveryAsl,
} from '../../workers/state-machines';

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
}

export type ExecutionStatus = 'SUCCEEDED' | 'FAILED';

export interface LocalWorkflows {
  /**
   * Starts one WebhookDelivery execution. `accepted` is false (and `done` resolves FAILED at once)
   * when an execution with this delivery_id already ran or runs, or after stop().
   */
  startDelivery(input: DeliveryExecutionInput): { accepted: boolean; done: Promise<ExecutionStatus> };
  /** Starts one ItemRefresh execution (`done` resolves FAILED at once after stop()). */
  startRefresh(input: RefreshExecutionInput): { done: Promise<ExecutionStatus> };
  /** Resolves when no execution is running (also those started while waiting). */
  idle(): Promise<void>;
  /** Aborts every running execution (they end FAILED) and refuses new ones; leaves no timers. */
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
function lambdaInvokeHandlers(
  definition: AslDefinition,
  functions: Record<string, LocalLambda>,
  signal: AbortSignal,
  taskTimeoutMs: number | undefined,
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
      return { Payload: (await invokeLocal(fn, Payload, timeoutMs, signal)) as JsonValue };
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

export function createLocalWorkflows(handlers: LocalWorkflowHandlers, opts: LocalWorkflowOptions): LocalWorkflows {
  assertTimeScale(opts.timeScale);
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

  function start(prepared: PreparedMachine, input: object, name?: string): Promise<ExecutionStatus> {
    const controller = new AbortController();
    const execution = prepared.machine.run(input as JsonValue, {
      noThrowOnAbort: true,
      overrides: {
        taskResourceLocalHandlers: lambdaInvokeHandlers(prepared.definition, functions, controller.signal, opts.taskTimeoutMs),
        waitTimeOverrides: prepared.waitTimeOverrides,
        retryIntervalOverrides: prepared.retryIntervalOverrides,
      },
      ...(name ? { context: { Execution: { Name: name } } } : {}),
    });
    const abort = () => {
      controller.abort();
      execution.abort();
    };
    const done: Promise<ExecutionStatus> = execution.result
      .then(
        (): ExecutionStatus => (controller.signal.aborted ? 'FAILED' : 'SUCCEEDED'),
        (): ExecutionStatus => 'FAILED',
      )
      .then((status) => {
        running.delete(done);
        return status;
      });
    running.set(done, abort);
    return done;
  }

  return {
    startDelivery(input) {
      if (stopped || deliveryIds.has(input.delivery_id)) return { accepted: false, done: Promise.resolve('FAILED') };
      deliveryIds.add(input.delivery_id);
      return { accepted: true, done: start(machines.delivery, input, input.delivery_id) };
    },
    startRefresh(input) {
      if (stopped) return { done: Promise.resolve('FAILED') };
      return { done: start(machines.refresh, input) };
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
