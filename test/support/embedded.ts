// A fresh table in the run's DynamoDB Local, with deps whose clock the test controls.
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../functions/platform/local/dynamodb-local';
import { createDeps, type Deps } from '../../functions/platform/runtime';

export interface ManualClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): ManualClock {
  let t = start;
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) };
}

export async function embeddedDeps(clock: ManualClock = manualClock()): Promise<Deps & { clock: ManualClock }> {
  const endpoint = process.env.FC_TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('FC_TEST_DYNAMODB_ENDPOINT is not set: run through jest');
  const tableName = `h_${randomUUID().slice(0, 8)}`;
  await ensureTable(endpoint, tableName);
  return createDeps({ tableName, stage: 'local', region: 'us-east-1', dynamodbEndpoint: endpoint }, clock) as Deps & { clock: ManualClock };
}
