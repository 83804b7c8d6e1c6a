// Starts the real local service (HTTP adapter + handlers) on a random port over the run's shared
// DynamoDB Local, with a fresh table per test file.
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../functions/contracts/schemas';
import { generateApiKey } from '../../functions/core/api-keys';
import { ensureConsoleOwner } from '../../functions/platform/local/console-owner';
import { startLocalStack, type LocalStack } from '../../functions/platform/local/local-stack';
import type { Clock } from '../../functions/platform/runtime';
import type { SeedApplication } from '../../functions/platform/local/seed';
import type { Json } from './json';
import { historyLoadedLocally } from './readiness';

export interface TestStack extends LocalStack {
  call(path: string, init?: CallInit): Promise<CallResult>;
  /**
   * Resolves once the item's history is loaded (`historical_update_complete`). Link answers before
   * the history loads; locally the refresh worker runs in process, so this waits for the in-process
   * work to run out (no timers, no polling) and then checks the item's status.
   */
  historyLoaded(itemId: string): Promise<void>;
  /**
   * The console's first owner, created as `npm start` creates it (bin/local.ts), with the password
   * its start banner shows once; null unless the test asked for it (`consoleOwner: true`), so tests
   * that ensure the owner themselves still get its password.
   */
  consoleOwner: { email: string; password: string; organizationId: string } | null;
}

export interface CallInit {
  method?: string;
  key?: string | null;
  body?: unknown;
  /** Sent as-is (no JSON encoding) when given. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (null when it is not JSON). */
  json: Json;
}

export function makeKey(environment: Environment = 'test'): string {
  return generateApiKey(environment);
}

export async function startTestStack(
  seed?: SeedApplication[],
  options: {
    webhookTimeScale?: number;
    clock?: Clock;
    /** Live connectors' configuration (e.g. pointed at provider fakes). */
    connectorEnv?: Record<string, string>;
    /** Create the console's first owner at start, as `npm start` does. */
    consoleOwner?: boolean;
  } = {},
): Promise<TestStack> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest, from a layer with DynamoDB Local (handlers, e2e, browser; see jest.config.js)');
  const stack = await startLocalStack({
    dynamodbEndpoint: endpoint,
    tableName: `t_${randomUUID().slice(0, 8)}`,
    validateResponses: true,
    // The retry schedule (0s, 1m, 5m, 30m, 2h) runs ~5,000x faster unless a test asks otherwise.
    webhookTimeScale: options.webhookTimeScale ?? 0.0002,
    seed: seed ?? [{ application: 'Acme', plan: 'enterprise', keys: [makeKey('test'), makeKey('live')] }],
    clock: options.clock,
    connectorEnv: options.connectorEnv,
  });
  const call = async (path: string, init: CallInit = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...init.headers };
    const key = init.key === undefined ? stack.keys[0].key : init.key;
    if (key !== null && headers.Authorization === undefined) headers.Authorization = `Bearer ${key}`;
    let body: string | undefined = init.rawBody;
    if (body === undefined && init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(stack.baseUrl + path, { method: init.method ?? 'POST', headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
  let consoleOwner: TestStack['consoleOwner'] = null;
  if (options.consoleOwner) {
    const owner = await ensureConsoleOwner(stack.deps, { applicationIds: stack.keys.map((k) => k.applicationId) });
    // A fresh table: this start created the owner, so its password is the one shown.
    if (owner.password === null) throw new Error(`the console owner ${owner.email} already existed on a fresh table`);
    consoleOwner = { email: owner.email, password: owner.password, organizationId: owner.organizationId };
  }
  return Object.assign(stack, { call, historyLoaded: (itemId: string) => historyLoadedLocally(stack, itemId), consoleOwner });
}
